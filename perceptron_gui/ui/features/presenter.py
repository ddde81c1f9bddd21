"""Presenter mode: full screen, large type, thick lines, and no editing controls.

The views come back (a demo, or F9) under the side panel's text (beside the
canvas when the column is too short): the canvas keeps the largest share, the
side panel never narrower than its text.  Ctrl+D opens the Demos menu over
the canvas.  Leaving restores the window exactly; closing the window in
presenter mode leaves it first, so the saved settings are the normal window's.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from PySide6 import QtCore, QtGui, QtWidgets

from .. import style
from ..actions import ActionSpec
from ..deferred import YieldingTimer
from ..modes import Mode, register_mode
from ..widgets.canvas.view_fit import fit_plot_steps

__all__ = ["PresenterMode", "Presenting", "PRESENTER_ICON_PX", "SIDE_SHARE", "VIEWS_SHARE"]

#: For how long after leaving the canvas is laid out again when it is resized, in seconds.
REFLOW_SECONDS = 2.0

#: Toolbar icon size in presenter mode, in pixels.
PRESENTER_ICON_PX = 40

#: Largest height of a dock above or below the canvas (the update log), as a share of
#: the screen height: the canvas and the caption keep the room.
EDGE_DOCK_SHARE = 0.15

#: Width of the side panel (the essentials alone) in presenter mode, as a share of the
#: screen width: the canvas keeps the rest.
SIDE_SHARE = 0.18

#: Width of the views beside the canvas in presenter mode, as a share of the screen
#: width; never more than :data:`VIEWS_MAX_OF_CANVAS` of what the canvas keeps.
VIEWS_SHARE = 0.27
VIEWS_MAX_OF_CANVAS = 0.75


@dataclass
class _Saved:
    """Everything presenter mode changes, as it was before entering."""

    geometry: QtCore.QRect  # the normal (not maximized, not full-screen) geometry
    state: QtCore.QByteArray
    window_state: QtCore.Qt.WindowState
    font: QtGui.QFont
    font_set: bool
    icon_size: QtCore.QSize
    scales: dict  # view -> its scale
    view_range: list  # the canvas's target range [[x0, x1], [y0, y1]]
    splitter: QtCore.QByteArray | None  # the canvas's and the views' widths


@register_mode
class Presenting(Mode):
    """Presenter mode: the editing controls hidden (the side panel's "Now" section stays)."""

    name = "presenter"
    esc = "leave_presenter_mode"
    esc_priority = 20

    def hidden(self) -> list:
        w = self.window
        # full screen: the keys still work, and the canvas gets the two bars' height
        return self.editing_hidden(sections=("learner", "details"),
                                   docks=("learner", "updateLog")) + [
            w.views, w.menuBar(), w.statusBar()]

    def shown(self) -> list:
        button = self.window.actions.get("presenter_demos")
        return [button] if button is not None else []


class PresenterMode(QtCore.QObject):
    """The presenter-mode switch of a main window (F11; Esc when the modes give it).

    ``demos_button_action`` opens the Demos menu over the canvas, in the
    playback toolbar in the mode only (Ctrl+D too); ``toggled`` is emitted
    after entering (True) or leaving (False).
    """

    toggled = QtCore.Signal(bool)

    def __init__(self, window: QtWidgets.QMainWindow):
        super().__init__(window)
        self.setObjectName("presenterMode")
        self._window = window
        self._saved: _Saved | None = None
        self._views_scale = style.PRESENTER  # the views' sizes in presenter mode

        make = window.actions.make
        self.action = make(ActionSpec(
            "presenter_mode", "&Presenter mode", self.set_active, ("F11",),
            "Full screen, large fonts and lines, editing controls hidden (F11)",
            checkable=True))
        window.menus["view"].addSeparator()
        window.menus["view"].addAction(self.action)
        # Esc leaves too, when the window's modes give Esc to presenter mode
        self.leave_action = make(ActionSpec("leave_presenter_mode", "Leave presenter mode",
                                            lambda: self.set_active(False), ("Esc",)))
        self._cancel = window.actions["cancel"]
        self._cancel.changed.connect(self._show_progress)
        # the menu bar is hidden in presenter mode: the demos stay one key (or button) away
        make(ActionSpec(
            "pick_demo", "Pick a &demo…", self.pick_demo, ("Ctrl+D",),
            "Open the Demos menu over the canvas (in presenter mode too) (Ctrl+D)"))
        self.demos_button_action = make(ActionSpec("presenter_demos", "Demos", self.pick_demo,
                                                   tip="Pick a demo (Ctrl+D)"))
        self.demos_button_action.setVisible(False)  # the mode "presenter" shows it
        toolbar = window.toolbars.get("playback")
        if toolbar is not None:
            toolbar.addAction(self.demos_button_action)
        menu = window.menus.get("demos")
        if menu is not None:  # after the Demos menu's own handler: its entries are listed
            menu.aboutToShow.connect(self._fit_menu)
        # the views shown or hidden (F9, a demo): their width for presenter type
        window.view_state.events.views_changed.connect(self._views_toggled)

        # the splitter of the canvas and the views, and the side panel's column in presenter
        # mode that holds the views under the panel's text (see _stack_views)
        parent = window.views.parentWidget()
        self._main = parent if isinstance(parent, QtWidgets.QSplitter) else None
        self._column: QtWidgets.QSplitter | None = None

        window.installEventFilter(self)
        self._reflow_until = 0.0
        # the canvas's re-layout, one step per pass of the event loop (see _reflow_canvas)
        self._reflow_timer = YieldingTimer(self, self._reflow_step, name="presenterReflowTimer")
        self._reflow_steps = None  # the steps of the re-layout under way
        self._reflow_again = False  # the canvas was resized during it: once more after it
        # out of the event filter: a re-layout after a resize, the docks' sizes after the
        # screen's size came (a zero interval: the next pass of the event loop)
        self._reflow_soon = YieldingTimer(self, self._reflow_canvas, name="presenterReflowSoon")
        self._size_soon = YieldingTimer(self, self._size_docks, name="presenterDockSizeTimer")
        window.canvas.installEventFilter(self)
        # the side panel's text grown past its width (a longer update, a learner without
        # a bound): widen the panel, never clip what the class reads
        content = window.side_panel.widget()
        if content is not None:
            content.installEventFilter(self)

    # -- public API --------------------------------------------------------------------
    @property
    def active(self) -> bool:
        """True in presenter mode."""
        return self._saved is not None

    def set_active(self, on: bool) -> None:
        """Enter (True) or leave (False) presenter mode; nothing happens if already so."""
        on = bool(on)
        self._finish_reflow()
        if on != self.active:
            self._enter() if on else self._leave()
        with QtCore.QSignalBlocker(self.action):
            self.action.setChecked(on)

    def pick_demo(self) -> None:
        """Open the Demos menu over the canvas (the menu bar may be hidden)."""
        menu = self._window.menus.get("demos")
        if menu is None:
            return
        canvas = self._window.canvas
        where = canvas.mapToGlobal(QtCore.QPoint(canvas.width() // 3, canvas.height() // 4))
        # a popup does not inherit the window's font: presenter type, read from the back
        # (_fit_menu: as large as one column allows, once the menu has its entries)
        menu.setFont(self._window.font() if self.active else QtGui.QFont())
        menu.popup(where)

    def _fit_menu(self) -> None:  # Qt wraps a menu taller than the screen into a 2nd column
        menu = self._window.menus.get("demos")
        if self.active and menu is not None:
            menu.setFont(self._menu_font(menu))

    def _menu_font(self, menu: QtWidgets.QMenu) -> QtGui.QFont:
        """The largest font (from the window's) that keeps ``menu`` one screen-high column."""
        font = QtGui.QFont(self._window.font())
        screen = menu.screen()
        room = screen.availableGeometry().height() if screen is not None else 0
        pt = font.pointSizeF()
        while pt > style.NORMAL.font_pt:
            font.setPointSizeF(pt)
            menu.setFont(font)
            if room <= 0 or _menu_height(menu) <= room:
                break
            pt = max(style.NORMAL.font_pt, pt - 1.0)
        font.setPointSizeF(pt)
        return font

    # -- switching ---------------------------------------------------------------------
    def _enter(self) -> None:
        w = self._window
        views = w.views.views().values()
        self._saved = _Saved(
            geometry=QtCore.QRect(w.normalGeometry() if w.isMaximized() else w.geometry()),
            state=w.saveState(),
            window_state=w.windowState(),
            font=QtGui.QFont(w.font()),
            font_set=w.testAttribute(QtCore.Qt.WidgetAttribute.WA_SetFont),
            icon_size=QtCore.QSize(w.iconSize()),
            scales={view: view.scale for view in views},
            view_range=[list(r) for r in w.canvas.view_rect()],
            splitter=self._main.saveState() if self._main is not None else None,
        )
        w.modes.enter("presenter")  # hides the editing controls, routes Esc
        w.setFont(style.font(style.PRESENTER.font_pt, w.font()))
        w.setIconSize(QtCore.QSize(PRESENTER_ICON_PX, PRESENTER_ICON_PX))
        for part in w.scaled:
            part.set_scale(style.PRESENTER)
        w.views.set_scale(style.PRESENTER)
        self._views_scale = style.PRESENTER
        w.setWindowState(w.windowState() | QtCore.Qt.WindowState.WindowFullScreen)
        self._size_docks()
        self._show_progress()
        self.toggled.emit(True)

    def _stack_views(self, on: bool) -> None:
        """Put the views under the side panel's text (True; the canvas keeps the width they
        took beside it), or back beside the canvas (False)."""
        w = self._window
        side = w.docks.get("side")
        if on == (self._column is not None) or side is None or self._main is None:
            return
        if on:
            self._column = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical,
                                               objectName="presenterColumn")
            self._column.setChildrenCollapsible(False)
            self._column.addWidget(w.side_panel)
            self._column.addWidget(w.views)
            side.setWidget(self._column)
        else:
            self._main.insertWidget(1, w.views)
            side.setWidget(w.side_panel)
            self._column.deleteLater()
            self._column = None

    def _text_height(self, width: int) -> int:  # the essentials whole at ``width``
        w = self._window
        essentials = w.side_panel.sections["now"].content
        top = essentials.mapTo(w.side_panel, QtCore.QPoint(0, 0)).y()
        inner = width - self._side_least() + essentials.minimumSizeHint().width()
        need = (essentials.heightForWidth(inner) if essentials.hasHeightForWidth()
                else essentials.sizeHint().height())
        return top + max(need, essentials.minimumSizeHint().height()) + 8

    def _column_fits(self, height: int) -> bool:  # the side panel's text and the views
        w = self._window
        content = w.side_panel.widget()
        text = 0 if content is None else content.sizeHint().height()
        return text + 2 * w.side_panel.frameWidth() + w.views.minimumSizeHint().height() \
            + 8 <= height

    def _side_least(self) -> int:  # its content's, with the frame and scroll bar
        panel = self._window.side_panel
        content = panel.widget()
        return 0 if content is None else (
            content.minimumSizeHint().width() + 2 * panel.frameWidth()
            + panel.verticalScrollBar().sizeHint().width() + 4)

    def _views_toggled(self, on: bool) -> None:
        if not on:  # hidden views go back beside the canvas, out of the side column
            self._stack_views(False)
        if self.active:
            self._size_soon.start()

    def _size_docks(self) -> None:
        """The side panel narrow (the essentials, never narrower than they need), edge docks
        low, the views at :data:`VIEWS_SHARE`: the canvas keeps the largest share."""
        w = self._window
        if not self.active:
            return
        screen = w.geometry()  # full screen: the window is the screen
        side = w.docks.get("side")
        docked = side is not None and side.isVisible() and not side.isFloating()
        self._stack_views(docked and w.views.isVisible() and self._column_fits(side.height()))
        if docked:
            # a quarter of the screen at most, unless the panel's text needs more: never cut
            least = self._side_least()
            width = max(least, min(max(round(SIDE_SHARE * screen.width()), least),
                                   screen.width() // 4))
            if self._column is not None:  # the views' width, under the text
                width = max(least, min(round(VIEWS_SHARE * screen.width()), screen.width() // 3))
                text = self._text_height(width)
                room = max(1, sum(self._column.sizes()) - text)
                self._column.setSizes([text, room])
                # type no larger than the room below the text lets each plot keep its box
                least = max(1, w.views.minimumSizeHint().height())
                self._scale_views(min(width, round(style.VIEWS_NORMAL_PX * room / least)))
            w.resizeDocks([side], [width], QtCore.Qt.Orientation.Horizontal)
        splitter = self._main
        if splitter is not None and w.views.isVisible() and self._column is None:
            total = sum(splitter.sizes())
            views = min(round(VIEWS_SHARE * screen.width()),
                        round(total * VIEWS_MAX_OF_CANVAS / (1 + VIEWS_MAX_OF_CANVAS)))
            if total > 0:
                splitter.setSizes([total - views, views])
                self._scale_views(views)
        edges = (QtCore.Qt.DockWidgetArea.TopDockWidgetArea,
                 QtCore.Qt.DockWidgetArea.BottomDockWidgetArea)
        cap = round(EDGE_DOCK_SHARE * screen.height())
        tall = [d for d in w.docks.values()
                if d.isVisible() and not d.isFloating() and w.dockWidgetArea(d) in edges
                and d.height() > cap]
        if tall:
            w.resizeDocks(tall, [cap] * len(tall), QtCore.Qt.Orientation.Vertical)

    def _scale_views(self, width: int) -> None:  # presenter sizes for a pane this wide
        scale = style.pane_scale(style.PRESENTER, width)
        if scale != self._views_scale:
            self._views_scale = scale
            self._window.views.set_scale(scale)

    def _leave(self) -> None:
        w = self._window
        saved, self._saved = self._saved, None
        w.setFont(saved.font if saved.font_set else QtGui.QFont())  # empty: inherit again
        w.setIconSize(saved.icon_size)
        menu = w.menus.get("demos")
        if menu is not None:  # the menu bar's menu at the normal type again
            menu.setFont(QtGui.QFont())
        # outside presenter mode the parts draw at normal sizes (as the theme assumes);
        # the views go back to the scale each had
        for part in w.scaled:
            part.set_scale(style.NORMAL)
        w.views.set_scale(style.NORMAL)
        for view in w.views.views().values():
            scale = saved.scales.get(view, style.NORMAL)
            if scale != view.scale:  # each view restyled once
                view.set_scale(scale)
        # back to a normal window at the old place, then to the old state: unlike
        # restoreGeometry, setGeometry never clamps a window larger than the screen
        w.setWindowState(QtCore.Qt.WindowState.WindowNoState)
        w.setGeometry(saved.geometry)
        if saved.window_state != QtCore.Qt.WindowState.WindowNoState:
            w.setWindowState(saved.window_state)
        self._stack_views(False)
        w.restoreState(saved.state)
        w.modes.leave("presenter")  # shows each hidden item as it was
        if self._main is not None and saved.splitter is not None:
            self._main.restoreState(saved.splitter)  # the views' width of the normal window
        self._reflow_canvas()
        # the window may get its old size a little later (a window manager's round
        # trip): reflow again on the canvas's resizes for a moment
        self._reflow_until = time.monotonic() + REFLOW_SECONDS
        # the view box derives what it shows from its target range and its size,
        # so once the canvas is back at its old size it shows the old rectangle
        w.canvas.set_view_rect(*saved.view_range)
        self.toggled.emit(False)

    def _reflow_canvas(self) -> None:
        """Lay the canvas's plot out again for its width, in :func:`fit_plot_steps`' three
        steps, one per pass of the event loop, its updates off until the last (once more
        after them when asked for again during them)."""
        if self._reflow_steps is not None:
            self._reflow_again = True
            return
        canvas = self._window.canvas
        canvas.viewport().setUpdatesEnabled(False)
        # the points' picture in its worker, as usual
        self._reflow_steps = fit_plot_steps(canvas, finish=False)
        self._reflow_again = False
        self._reflow_timer.start()

    def _reflow_step(self) -> bool:  # False once the re-layout is over
        steps = self._reflow_steps
        if steps is None:
            return False
        try:
            next(steps)
        except StopIteration:
            self._reflow_steps = None
            self._window.canvas.viewport().setUpdatesEnabled(True)
            if self._reflow_again:
                self._reflow_canvas()
            return self._reflow_steps is not None
        self._reflow_timer.start()
        return True

    def _finish_reflow(self) -> None:  # now: before switching, or closing
        self._reflow_timer.stop()
        self._reflow_again = False
        while self._reflow_step():
            self._reflow_timer.stop()

    def _show_progress(self, *_args) -> None:
        if self.active:
            # the status bar is hidden here, but a run to the end shows its
            # progress and Cancel there: it comes back for the run
            self._window.statusBar().setVisible(self._cancel.isEnabled())

    def eventFilter(self, obj, event) -> bool:
        kind = event.type()
        if (kind == QtCore.QEvent.Type.Resize and obj is self._window.canvas
                and time.monotonic() < self._reflow_until and not self.active):
            self._reflow_soon.start()  # not inside the event
            return False
        if obj is self._window and kind == QtCore.QEvent.Type.Resize and self.active:
            self._size_soon.start()  # the screen's size came
        if (kind == QtCore.QEvent.Type.LayoutRequest and self.active
                and obj is self._window.side_panel.widget()
                and (self._side_least() > self._window.docks["side"].width()
                     or self._column is not None and self._column.sizes()[0]
                     != self._text_height(self._window.docks["side"].width()))):
            self._size_soon.start()  # its text needs more than the panel has
        # leave before the window saves its settings on close
        if obj is self._window and kind == QtCore.QEvent.Type.Close and self.active:
            state = self._saved.state
            self.set_active(False)
            self._finish_reflow()
            # the layout of the normal window is the one saved, whatever size the
            # window manager gives back meanwhile
            self._window.restoreState(state)
        return False


def _menu_height(menu: QtWidgets.QMenu) -> int:
    """The height ``menu``'s items take in one column, its frame included."""
    metric = QtWidgets.QStyle.PixelMetric
    frame = sum(2 * menu.style().pixelMetric(m, None, menu)
                for m in (metric.PM_MenuPanelWidth, metric.PM_MenuVMargin))
    return frame + sum(menu.actionGeometry(a).height() for a in menu.actions() if a.isVisible())
