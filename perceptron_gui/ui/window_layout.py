"""The main window's layout: the first one, and the one saved in QSettings.

Below :data:`VIEWS_AUTO_WIDTH` the views start hidden (they would take the canvas's
share); the side panel's section "bound" then shows the bound plot.
"""

from __future__ import annotations

import json

from PySide6 import QtCore

from . import settings

__all__ = ["WindowLayout", "DEFAULT_SIZE", "FRAME_PX", "SIDE_PX", "VIEWS_AUTO_WIDTH", "VIEWS_PX",
           "VIEWS_MIN_PX", "DEFAULT_SECTIONS", "LAYOUT_VERSION", "SETTINGS", "add_bound_strip",
           "first_size", "read_settings", "restore_geometry", "restored_size", "screen_text",
           "write_settings"]

#: The first window size, made smaller to fit a smaller screen (a 1366×768 laptop's
#: 1366×720 after its taskbar gives 1280×680: :data:`FRAME_PX` is kept for the frame).
DEFAULT_SIZE = (1280, 800)
FRAME_PX = 40
#: Width of the side panel at the first start, in pixels.
SIDE_PX = 290
#: The views beside the canvas show at the first start from this window width on.
VIEWS_AUTO_WIDTH = 1800
#: Width the views get when shown, and the least they keep, in pixels.
VIEWS_PX = 460
VIEWS_MIN_PX = 240
#: Sections of the side panel unfolded at the first start.
DEFAULT_SECTIONS = {"learner": True, "now": True, "details": False, "bound": True}
#: The version of the saved dock layout (a layout of an older window is not restored).
LAYOUT_VERSION = 2


def first_size(screen) -> tuple[int, int]:
    """:data:`DEFAULT_SIZE`, shrunk to fit ``screen``'s available area with its frame."""
    width, height = DEFAULT_SIZE
    if screen is not None:
        area = screen.availableGeometry()
        width = min(width, area.width() - FRAME_PX // 2)
        height = min(height, area.height() - FRAME_PX)
    return width, height


#: What the window saves in its QSettings group ``mainWindow``, in this order, and the
#: kind of each (:func:`.settings.value`): another kind read back is ignored.
_KINDS = {"geometry": "bytes", "state": "bytes", "splitter": "bytes", "views": "boolean",
          "sections": "json", "speed": "integer", "screen": "text"}
SETTINGS = tuple(_KINDS)

#: A window this close to its screen's available size (a share of it) was limited by it.
FILLED = 0.9


def read_settings() -> dict:
    """The saved :data:`SETTINGS`, in their order (None: not saved, or of the wrong kind)."""
    return {key: settings.value(f"mainWindow/{key}", _KINDS[key]) for key in SETTINGS}


def write_settings(**values) -> None:
    """Save ``values`` (keys of :data:`SETTINGS`) in the group ``mainWindow``."""
    unknown = set(values) - set(SETTINGS)
    if unknown:
        raise ValueError(f"unknown window settings {sorted(unknown)}")
    store = QtCore.QSettings()
    store.beginGroup("mainWindow")
    for key, value in values.items():
        store.setValue(key, value)
    store.endGroup()


def restored_size(size: tuple[int, int], saved_area: tuple[int, int] | None,
                  area: tuple[int, int]) -> tuple[int, int]:
    """The size a window saved at ``size`` takes in ``area``: where it filled (:data:`FILLED`)
    its old screen's ``saved_area`` (None: unknown), the same share of the new; else its own."""
    limits = (area[0] - FRAME_PX // 2, area[1] - FRAME_PX)
    out = []
    for i, length in enumerate(size):
        if saved_area is not None and saved_area[i] > 0 and length >= FILLED * saved_area[i]:
            length = round(length * area[i] / saved_area[i])
        out.append(max(1, min(int(length), limits[i])))
    return out[0], out[1]


def screen_text(screen) -> str:
    """``screen``'s available size as saved in the settings (``"1366x720"``)."""
    area = screen.availableGeometry()
    return f"{area.width()}x{area.height()}"


def _parse_screen(text) -> tuple[int, int] | None:
    try:
        width, height = (int(v) for v in str(text).split("x"))
    except ValueError:
        return None
    return (width, height) if width > 0 and height > 0 else None


def restore_geometry(window, geometry, screen) -> None:
    """Restore ``window``'s saved ``geometry``, sized for its screen (:func:`restored_size`)."""
    if geometry is None or not window.restoreGeometry(geometry):
        window.resize(*first_size(window.screen()))
        return
    if window.isMaximized() or window.isFullScreen() or window.screen() is None:
        return
    area = window.screen().availableGeometry()
    width, height = restored_size((window.width(), window.height()), _parse_screen(screen),
                                  (area.width(), area.height()))
    if (width, height) != (window.width(), window.height()):
        window.resize(width, height)
        x = min(max(window.x(), area.left()), area.right() + 1 - width - FRAME_PX // 2)
        y = min(max(window.y(), area.top()), area.bottom() + 1 - height - FRAME_PX)
        window.move(max(x, area.left()), max(y, area.top()))


def add_bound_strip(window):
    """Add the side panel's section "bound" (the bound plot alone); returns its ``BoundStrip``."""
    from .views.plots.strip import BoundStrip

    strip = BoundStrip(window.workspace)
    section = window.side_panel.add_section("bound", "Updates k and the bound", strip,
                                            before="details")
    strip.follow(window, section)
    return strip


class WindowLayout:
    """A main window's layout while it runs: the views, canvas only, reset, saved and restored."""

    def __init__(self, window):
        self._window = window
        self.toolbars: list = []  # every toolbar of the window: canvas only hides them
        self._canvas_only: tuple | None = None
        self._pending = True  # no saved layout restored: the first show sizes the docks
        self._default_state = None

    def show_views(self, on: bool) -> None:
        """Show or hide the views' area (the view state's listener)."""
        w, on = self._window, bool(on)
        if on and w.views.isHidden():
            w.views.setVisible(True)
            sizes = w.splitter.sizes()
            total = sum(sizes)
            if total and sizes[1] < VIEWS_MIN_PX:
                side = min(VIEWS_PX, total // 2)
                w.splitter.setSizes([total - side, side])
        elif not on:
            w.views.setVisible(False)
        _check(w.actionViews, on)

    def set_canvas_only(self, on: bool) -> None:
        """Give the canvas the whole window (True) or bring back exactly what was shown."""
        w, on = self._window, bool(on)
        if on and self._canvas_only is None:
            self._canvas_only = (w.saveState(LAYOUT_VERSION), w.views.isVisible())
            for widget in [*w.docks.values(), *self.toolbars]:
                widget.hide()
            w.views.hide()
        elif not on and self._canvas_only is not None:
            state, views = self._canvas_only
            self._canvas_only = None
            w.restoreState(state, LAYOUT_VERSION)
            w.views.setVisible(views)
        _check(w.actionCanvasOnly, on)

    def reset(self) -> None:
        """Put docks, toolbars, sections and views back as at the first start."""
        self.set_canvas_only(False)
        self._window.restoreState(self._default_state, LAYOUT_VERSION)
        self._window.side_panel.set_expanded_state(DEFAULT_SECTIONS)
        self.default_sizes()

    def default_sizes(self) -> None:
        """The first-start layout for the present window size."""
        w = self._window
        w.resizeDocks([w.docks["side"]], [SIDE_PX], QtCore.Qt.Orientation.Horizontal)
        wide = w.width() >= VIEWS_AUTO_WIDTH
        w.views.setVisible(wide)
        w.set_views_visible(wide)
        total = max(w.splitter.width(), 2)
        side = min(VIEWS_PX, total // 2)
        w.splitter.setSizes([total - side, side])

    def first_show(self) -> None:
        """The window shows: without a saved layout, size the docks now."""
        if self._pending:
            self._pending = False
            self.default_sizes()

    def restore(self) -> None:
        """Restore the saved geometry, docks, splitter, views, sections and speed."""
        w = self._window
        self._default_state = w.saveState(LAYOUT_VERSION)
        geometry, state, splitter, views, sections, speed, screen = read_settings().values()
        restore_geometry(w, geometry, screen)  # relative to the screen it was saved on
        if state is not None:
            self._pending = not w.restoreState(state, LAYOUT_VERSION)
        if not self._pending:
            if splitter is not None:
                w.splitter.restoreState(splitter)
            w.set_views_visible(bool(views))
            if sections is not None:
                w.side_panel.set_expanded_state(sections)
        if speed is not None:
            w.speedSlider.setValue(speed)

    def save(self) -> None:
        """Remember geometry, dock layout, views, folded sections and speed (QSettings)."""
        w = self._window
        self.set_canvas_only(False)
        write_settings(geometry=w.saveGeometry(), state=w.saveState(LAYOUT_VERSION),
                       splitter=w.splitter.saveState(), views=w.views.isVisible(),
                       sections=json.dumps(w.side_panel.expanded_state()),
                       speed=w.speedSlider.value(), screen=screen_text(w.screen()))


def _check(action, on: bool) -> None:
    """Set ``action``'s check mark without triggering it."""
    if action.isChecked() != on:
        with QtCore.QSignalBlocker(action):
            action.setChecked(on)
