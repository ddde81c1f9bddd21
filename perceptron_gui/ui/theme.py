"""The window's colour scheme: follow the system's light or dark scheme, or a user's choice.

On each change the matching :class:`~perceptron_gui.ui.style.Palette` becomes active and
the views and the window's ``scaled`` parts restyle; the Qt widgets get Fusion's palette
of the scheme when the platform does not draw it itself.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from . import settings, style
from .actions import ActionSpec

#: The choices of the View menu, in order: (key, menu text).
CHOICES = (("system", "Follow &system"), ("light", "&Light"), ("dark", "&Dark"))
#: The QSettings key of the choice.
SETTINGS_KEY = "view/colourScheme"

_platform: list = []  # the application's own (style name, palette), kept from the first install


def _platform_look() -> tuple[str, QtGui.QPalette]:
    if not _platform:
        app = QtWidgets.QApplication.instance()
        _platform.append((app.style().name(), QtGui.QPalette(app.palette())))
    return _platform[0]


def system_scheme() -> str:
    """"dark" when the platform's colour scheme (else its window colour) is dark, else "light"."""
    scheme = QtGui.QGuiApplication.styleHints().colorScheme()
    if scheme == QtCore.Qt.ColorScheme.Unknown:
        window = _platform_look()[1].color(QtGui.QPalette.ColorRole.Window)
        return "dark" if window.lightness() < 128 else "light"
    return "dark" if scheme == QtCore.Qt.ColorScheme.Dark else "light"


def dark_qpalette() -> QtGui.QPalette:
    """A dark QPalette for Fusion, its colours matched to :data:`style.DARK`."""
    dark = style.DARK
    window = QtGui.QColor("#2b2e33")
    base = QtGui.QColor(dark.background)
    text = QtGui.QColor(dark.foreground)
    disabled = QtGui.QColor("#7a7d82")
    R, G = QtGui.QPalette.ColorRole, QtGui.QPalette.ColorGroup
    p = QtGui.QPalette()
    for role, color in ((R.Window, window), (R.WindowText, text), (R.Base, base),
                        (R.AlternateBase, QtGui.QColor("#25282d")), (R.ToolTipBase, window),
                        (R.ToolTipText, text), (R.PlaceholderText, disabled), (R.Text, text),
                        (R.Button, window), (R.ButtonText, text),
                        (R.BrightText, QtGui.QColor("#ff6b6b")),
                        (R.Light, QtGui.QColor("#3a3e44")), (R.Midlight, QtGui.QColor("#33373c")),
                        (R.Mid, QtGui.QColor("#24272b")), (R.Dark, QtGui.QColor("#191b1f")),
                        (R.Shadow, QtGui.QColor("#0d0e10")),
                        (R.Highlight, QtGui.QColor("#2F8FD8")),  # white text on it: 3.6:1
                        (R.HighlightedText, QtGui.QColor("#ffffff")),
                        (R.Link, QtGui.QColor(dark.maxmargin_color))):
        p.setColor(role, color)
    for role in (R.WindowText, R.Text, R.ButtonText):
        p.setColor(G.Disabled, role, disabled)
    return p


class Theme(QtCore.QObject):
    """View ▸ Colour scheme: ``choice`` ("system", "light" or "dark") and its ``actions``."""

    changed = QtCore.Signal(str)  # the scheme now drawn: "light" or "dark"

    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("theme")
        self.window = window
        _platform_look()
        self._scheme = None
        self._drawn = style.current()  # the palette the views were built in
        value = settings.value(SETTINGS_KEY, "text", "system")
        self.choice = value if value in dict(CHOICES) else "system"
        self.actions: dict[str, QtGui.QAction] = {}
        self._build_menu(window.menus["view"])
        QtGui.QGuiApplication.styleHints().colorSchemeChanged.connect(self._on_system_changed)
        self.apply()

    def _build_menu(self, view_menu: QtWidgets.QMenu) -> None:
        self.menu = view_menu.addMenu("Colour &scheme")
        self.menu.setObjectName("menuColourScheme")
        group = QtGui.QActionGroup(self)  # exclusive
        for key, text in CHOICES:
            act = self.window.actions.make(ActionSpec(
                f"scheme_{key}", text, lambda on, k=key: on and self.set_choice(k),
                tip={"system": "Use the desktop's light or dark colour scheme",
                     "light": "Dark marks on white (the scheme of exports)",
                     "dark": "Light marks on a dark background"}[key],
                checkable=True, checked=key == self.choice))
            group.addAction(act)
            self.menu.addAction(act)
            self.actions[key] = act

    # -- public ------------------------------------------------------------------------
    @property
    def scheme(self) -> str:
        """The scheme drawn now: "light" or "dark"."""
        return system_scheme() if self.choice == "system" else self.choice

    def set_choice(self, choice: str) -> None:
        """Follow the system ("system") or force "light" or "dark"; remembered in QSettings."""
        if choice not in dict(CHOICES):
            raise ValueError(f"unknown colour scheme {choice!r}; choose from "
                             f"{[k for k, _ in CHOICES]}")
        self.choice = choice
        self.actions[choice].setChecked(True)
        QtCore.QSettings().setValue(SETTINGS_KEY, choice)
        self.apply()

    def apply(self) -> None:
        """Make the scheme's palette active and restyle the Qt widgets and the views."""
        scheme = self.scheme
        palette = style.PALETTES[scheme]
        style.use(palette)
        self._apply_qpalette(scheme)
        if palette is not self._drawn:
            self._drawn = palette
            self._restyle(palette)
        if scheme != self._scheme:
            self._scheme = scheme
            self.changed.emit(scheme)

    # -- internals ---------------------------------------------------------------------
    def _on_system_changed(self, *_args) -> None:
        if self.choice == "system":
            self.apply()

    def _apply_qpalette(self, scheme: str) -> None:
        app = QtWidgets.QApplication.instance()
        name, palette = _platform_look()
        if scheme == system_scheme():
            # the platform draws this scheme itself: give it back its own style and palette
            if app.style().name() != name:
                app.setStyle(name)
            app.setPalette(palette)
            return
        if app.style().name().lower() != "fusion":
            app.setStyle("Fusion")
        fusion = app.style().standardPalette()
        app.setPalette(dark_qpalette() if scheme == "dark" else fusion)

    def _restyle(self, palette: style.Palette) -> None:
        w = self.window
        scale = style.PRESENTER if w.modes.is_active("presenter") else style.NORMAL
        for part in w.scaled:
            part.set_scale(scale)
        for view in w.views.views().values():
            view.apply_theme(palette)
        w.update()  # repaints the children in the window's area
        for dock in w.docks.values():
            if dock.isFloating():  # a window of its own
                dock.update()
