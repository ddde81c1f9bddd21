"""Presenter mode: full screen, presenter sizes, editing controls hidden; leaving restores."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.ui import style
from perceptron_gui.ui.main_window import LAYOUT_VERSION
from tests.ui.helpers import load_long_kernel_run, settle_when_done


def _visible(win) -> set:
    """Names of the visible widgets and of the visible actions of the window."""
    widgets = {w.objectName() or type(w).__name__ for w in win.findChildren(QtWidgets.QWidget)
               if w.isVisible()}
    actions = {a.objectName() for a in win.findChildren(QtGui.QAction)
               if a.objectName() and a.isVisible()}
    return widgets | {f"action:{a}" for a in actions}


def _snapshot(win) -> dict:
    return {
        "state": bytes(win.saveState()),
        "geometry": bytes(win.saveGeometry()),
        "rect": win.geometry(),
        "window_state": win.windowState(),
        "visible": _visible(win),
        "font": QtGui.QFont(win.font()),
        "font_set": win.testAttribute(QtCore.Qt.WidgetAttribute.WA_SetFont),
        "icon_size": win.iconSize(),
        "readout_pt": win.readouts.font().pointSizeF(),
        "target_range": win.canvas.getViewBox().targetRange(),
    }


@pytest.fixture
def busy_window(window, qtbot):
    """The window with data and a few updates made (something on every panel)."""
    data = generators.GENERATORS["separable"](n=30, seed=3, margin=0.3)
    window.push_edit(ReplaceAll.from_dataset(data))
    for _ in range(3):
        window.workspace.step_update()
    window.canvas.fit_view()
    settle_when_done(qtbot, window)
    return window


def test_the_action_is_checkable_f11_and_in_the_view_menu(window):
    mode = window.presenter
    assert mode.action.objectName() == "actionPresenterMode"
    assert mode.action.isCheckable() and not mode.action.isChecked()
    assert mode.action.shortcut() == QtGui.QKeySequence("F11")
    assert mode.action in window.menus["view"].actions()
    assert not mode.active and not mode.leave_action.isEnabled()


def test_entering_goes_full_screen_with_presenter_sizes_and_hides_editing(busy_window, qtbot):
    win = busy_window
    win.presenter.action.trigger()
    settle_when_done(qtbot, win)
    assert win.presenter.active and win.presenter.action.isChecked()
    assert win.windowState() & QtCore.Qt.WindowState.WindowFullScreen
    # editing controls hidden
    assert not win.side_panel.sections["learner"].isVisible()
    assert not win.side_panel.sections["details"].isVisible()
    assert not win.views.isVisible()
    assert not win.toolbars["edit"].isVisible()
    assert not any(action.isVisible() for action in win.classes.actions)
    # playback and the essentials stay
    assert win.findChild(QtWidgets.QToolBar, "toolbarPlayback").isVisible()
    assert win.docks["side"].isVisible() and win.essentials.isVisible()
    assert win.canvas.isVisible()
    # large sizes everywhere
    assert win.font().pointSizeF() == pytest.approx(style.PRESENTER.font_pt)
    assert win.readouts.font().pointSizeF() == pytest.approx(style.PRESENTER.font_pt)
    assert win.essentials.error_label.font().pointSizeF() == pytest.approx(
        style.PRESENTER.font_pt)
    assert win.iconSize().width() >= 32
    assert win.canvas._scale == style.PRESENTER
    assert win.plots.scale == style.PRESENTER
    # Esc now leaves (Cancel is disabled: nothing runs to the end)
    assert win.presenter.leave_action.isEnabled()
    # the canvas keeps most of the width once the side panel is fitted to its text
    # (a deferred re-layout after the presenter sizes took effect); the window renders
    qtbot.waitUntil(lambda: win.canvas.width() >= win.width() // 2)
    assert not win.grab().toImage().isNull()


def test_leaving_restores_the_window_exactly(busy_window, qtbot):
    win = busy_window
    before = _snapshot(win)
    win.presenter.set_active(True)
    settle_when_done(qtbot, win)
    assert _snapshot(win)["visible"] != before["visible"]  # the test can see a difference
    win.presenter.set_active(False)
    settle_when_done(qtbot, win)
    # what shows again follows deferred re-layouts (the bound strip while the views hide)
    def same_visible():
        now = _snapshot(win)["visible"]
        assert now == before["visible"], (now - before["visible"], before["visible"] - now)

    qtbot.waitUntil(same_visible, timeout=5000)
    after = _snapshot(win)
    assert not win.presenter.active and not win.presenter.action.isChecked()
    for key in ("state", "geometry", "rect", "window_state", "visible", "font", "font_set",
                "icon_size", "readout_pt", "target_range"):
        assert after[key] == before[key], key
    assert win.canvas._scale == style.NORMAL
    assert win.readouts._scale == style.NORMAL
    assert not win.presenter.leave_action.isEnabled()


def test_toggling_keeps_a_hidden_dock_hidden(busy_window, qtbot):
    win = busy_window
    win.docks["side"].hide()  # the user closed a dock before presenting
    settle_when_done(qtbot, win)
    before = _snapshot(win)
    for _ in range(1):
        win.presenter.set_active(True)
        settle_when_done(qtbot, win)
        assert not win.docks["side"].isVisible()
        win.presenter.set_active(False)
        settle_when_done(qtbot, win)
    after = _snapshot(win)
    assert after["state"] == before["state"] and after["visible"] == before["visible"]
    assert after["geometry"] == before["geometry"]


def test_a_maximized_window_comes_back_maximized(busy_window, qtbot):
    win = busy_window
    win.showMaximized()
    settle_when_done(qtbot, win)
    state = win.windowState()
    win.presenter.set_active(True)
    settle_when_done(qtbot, win)
    win.presenter.set_active(False)
    settle_when_done(qtbot, win)
    assert win.windowState() == state
    assert win.isMaximized() == bool(state & QtCore.Qt.WindowState.WindowMaximized)


def test_esc_leaves_only_when_it_cancels_nothing_else(busy_window, qtbot):
    win = busy_window
    mode = win.presenter
    mode.set_active(True)
    win.actionCancel.setEnabled(True)  # as while running to the end
    assert not mode.leave_action.isEnabled()
    win.actionCancel.setEnabled(False)
    assert mode.leave_action.isEnabled()
    assert mode.leave_action.shortcut() == QtGui.QKeySequence(QtCore.Qt.Key.Key_Escape)
    mode.leave_action.trigger()
    assert not mode.active and not mode.action.isChecked()


def test_f11_key_toggles(busy_window, qtbot):
    win = busy_window
    win.activateWindow()
    win.canvas.setFocus()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.focusWidget() is not None, timeout=2000)
    qtbot.keyClick(QtWidgets.QApplication.focusWidget(), QtCore.Qt.Key.Key_F11)
    qtbot.waitUntil(lambda: win.presenter.active, timeout=2000)
    qtbot.keyClick(QtWidgets.QApplication.focusWidget() or win, QtCore.Qt.Key.Key_F11)
    qtbot.waitUntil(lambda: not win.presenter.active, timeout=2000)


def test_closing_in_presenter_mode_saves_the_normal_layout(busy_window, qtbot):
    win = busy_window
    state = bytes(win.saveState(LAYOUT_VERSION))
    win.presenter.set_active(True)
    settle_when_done(qtbot, win)
    if hasattr(win, "files"):
        win.files.force_close = True  # no "unsaved changes" question
    win.close()
    assert not win.presenter.active
    settings = QtCore.QSettings()
    saved = settings.value("mainWindow/state")
    assert saved is not None and bytes(saved) == state


def test_reflow_fits_the_plot_to_the_canvas_again(busy_window, qtbot):
    """After a wide layout (full screen) the plot must not stay wider than the canvas.

    The legend is an overlay inside the view box, laid out for the view's own
    width, so a wide-then-narrow window fits at once; presenter mode's reflow
    when it leaves must keep it so.
    """
    win = busy_window
    vb = win.canvas.getViewBox()

    def fits():
        return vb.sceneBoundingRect().right() <= win.canvas.viewport().width() + 1

    assert fits()
    win.resize(1900, 1000)
    settle_when_done(qtbot, win)
    win.resize(1280, 800)
    settle_when_done(qtbot, win)
    assert fits()
    win.presenter._reflow_canvas()
    settle_when_done(qtbot, win)
    assert fits()


def test_leaving_reflows_the_canvas(busy_window, qtbot, monkeypatch):
    win = busy_window
    calls = []
    original = type(win.presenter)._reflow_canvas
    # counted for this window's presenter only: a window of an earlier test may still
    # finish a re-layout it had under way
    monkeypatch.setattr(type(win.presenter), "_reflow_canvas",
                        lambda self: (self is win.presenter and calls.append(1)) or original(self))
    layers = win.canvas.layers()
    win.presenter.set_active(True)
    settle_when_done(qtbot, win)
    assert calls == []
    win.presenter.set_active(False)
    settle_when_done(qtbot, win)
    assert calls
    qtbot.waitUntil(lambda: win.canvas.layers() == layers)  # the layers are back as they were
    # a re-layout runs over a few passes (again if the window settles late): then it draws
    qtbot.waitUntil(lambda: win.canvas.viewport().updatesEnabled())


def test_switching_never_redraws_the_canvas_at_once(busy_window, qtbot, monkeypatch):
    # entering restyled the canvas and redrew it at once (the points' raster on the UI
    # thread: 50-100 ms at 10⁶ points); leaving laid it out again at once, three
    # redraws, and again on every resize for 2 s: 0.1-0.33 s with the UI blocked.
    # Now the restyle waits for the scheduled redraw and the layout takes three
    # passes of the event loop, its redraws leaving the pictures to their workers.
    win = busy_window
    canvas = win.canvas
    finished = []
    original = type(canvas).refresh
    monkeypatch.setattr(type(canvas), "refresh", lambda self, *finish: finished.append(
        finish[0] if finish else True) or original(self, *finish))
    win.presenter.set_active(True)
    assert finished == []
    settle_when_done(qtbot, win)
    finished.clear()  # the redraws scheduled while presenting ran; leaving adds none at once
    win.presenter.set_active(False)
    assert finished == [] and not canvas.viewport().updatesEnabled()  # until laid out
    qtbot.waitUntil(lambda: canvas.viewport().updatesEnabled())
    assert len(finished) >= 3 and not any(finished)


def test_a_run_to_the_end_shows_its_progress_and_cancel_in_presenter_mode(window, qtbot,
                                                                         monkeypatch):
    from perceptron_gui.ui import playback

    monkeypatch.setattr(playback, "RUN_SLICE_SECONDS", 0.002)
    load_long_kernel_run(window)
    mode, bar = window.presenter, window.statusBar()
    mode.set_active(True)
    settle_when_done(qtbot, window)
    assert not bar.isVisible()
    window.actionRunToEnd.trigger()
    assert window.playback.running_to_end
    qtbot.waitUntil(lambda: bar.isVisible())
    for widget in window.playback.status_widgets():
        assert widget.isVisible() and bar.isAncestorOf(widget)
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Escape)  # Cancel, not leave
    assert not window.playback.running_to_end and mode.active
    assert not bar.isVisible()  # the canvas gets its room back
    mode.set_active(False)
    assert bar.isVisible()


def test_a_demo_is_picked_without_leaving_full_screen(window, qtbot):
    """The menu bar is hidden: Ctrl+D (or the Demos button shown in presenter mode) opens
    the Demos menu over the canvas, and a demo picked there plays in presenter mode."""
    from perceptron_gui.ui.keyboard_help import shortcut_rows

    win = window
    button = win.actions["presenter_demos"]
    assert not button.isVisible() and button in win.toolbars["playback"].actions()
    win.presenter.set_active(True)
    assert not win.menuBar().isVisible() and button.isVisible()
    menu = win.menus["demos"]
    pick = win.actions["pick_demo"]
    assert pick.shortcut().toString() == "Ctrl+D"
    assert any("Ctrl+D" in keys and "Pick a demo" in what for keys, what in shortcut_rows(win))
    pick.trigger()
    qtbot.waitUntil(menu.isVisible)
    win.demos.listing.actions(user=False)["margin"].trigger()  # an entry of that menu
    menu.hide()
    assert win.demos.playing and win.presenter.active
    assert win.isFullScreen() or win.windowState() & QtCore.Qt.WindowState.WindowFullScreen
    button.trigger()  # the toolbar's button: the same menu
    qtbot.waitUntil(menu.isVisible)
    menu.hide()
    win.demos.stop()
    win.presenter.set_active(False)
    assert not button.isVisible() and win.menuBar().isVisible()


@pytest.mark.parametrize("demo", ["first-updates", "primal-dual"])
def test_the_w_arrow_head_stays_in_the_canvas_in_presenter_mode(window, qtbot, demo):
    """The arrow's head is whole in the canvas: a w longer than the view is cut at its edge."""
    win = window
    win.presenter.set_active(True)
    win.setWindowState(QtCore.Qt.WindowState.WindowNoState)  # the test's screen is small
    win.resize(1920, 1080)
    qtbot.waitUntil(lambda: win.width() == 1920, timeout=3000)
    win.demos.play(demo)
    seen = 0
    while True:
        # a fit grown for the head (a zero timer), then its redraw
        settle_when_done(qtbot, win)
        head = win.canvas.layer("weight").items["weight_head"]
        if head.isVisible():
            seen += 1

            def head_inside(head=head):
                vb = win.canvas.getViewBox()
                tip = vb.mapViewToScene(head.pos())
                reach = head.opts["headLen"]  # the head lies within its length of the tip
                inner = vb.sceneBoundingRect().adjusted(reach, reach, -reach, -reach)
                assert inner.contains(tip), (win.demos.index, tip, inner)

            # a loaded machine may still be laying the full-screen canvas out: the head is
            # inside once the layout is done (a timeout names the step, tip and rect)
            qtbot.waitUntil(head_inside, timeout=10_000)
        if win.demos.player.at_end:
            break
        win.demos.next()
    assert seen >= 2
    win.demos.stop()
    win.presenter.set_active(False)


def test_the_side_panel_widens_when_its_text_grows_in_presenter_mode(busy_window, qtbot):
    win = busy_window
    win.presenter.set_active(True)
    win.setWindowState(QtCore.Qt.WindowState.WindowNoState)  # the test's screen is small
    # too short a screen for the views under the panel's text: they take their share
    # beside the canvas, and the panel is at its least
    win.resize(1920, 700)
    qtbot.waitUntil(lambda: (win.width(), win.height()) == (1920, 700))
    win.set_views_visible(True)
    settle_when_done(qtbot, win)
    panel, side = win.side_panel, win.docks["side"]
    content = panel.widget()
    narrow = side.width()
    assert panel.viewport().width() >= content.minimumSizeHint().width()  # fits on entering
    # longer lines than entering measured (the review's run): overlapping data, the hinge
    # loss, run to its end
    win.push_edit(ReplaceAll.from_dataset(generators.GENERATORS["overlapping"](n=100, seed=0)))
    win.workspace.set_params(loss="hinge", fit_intercept=True)
    win.workspace.run_to_end()
    settle_when_done(qtbot, win)
    # never clipped: the panel's viewport holds the content's least width
    qtbot.waitUntil(lambda: panel.viewport().width() >= content.minimumSizeHint().width())
    assert narrow < side.width() <= win.width() // 4  # wider; the canvas keeps the most


def test_the_demo_list_is_one_column_on_the_screen_in_presenter_mode(window, qtbot):
    """Issue 33: at presenter type Ctrl+D's list was taller than the screen and Qt wrapped
    it into a second column; its type shrinks (never below the normal) to one column."""
    win = window
    win.presenter.set_active(True)
    menu = win.menus["demos"]
    win.actions["pick_demo"].trigger()
    qtbot.waitUntil(menu.isVisible)
    shown = [a for a in menu.actions() if a.isVisible()]
    assert len(shown) >= 10
    lefts = {menu.actionGeometry(a).left() for a in shown}
    assert len(lefts) == 1, lefts  # one column
    assert menu.geometry().height() <= win.screen().availableGeometry().height()
    assert style.NORMAL.font_pt <= menu.font().pointSizeF() <= style.PRESENTER.font_pt
    menu.hide()
    win.presenter.set_active(False)


def test_every_plot_is_inside_its_pane_after_leaving_with_the_live_plots_on(busy_window,
                                                                            qtbot):
    """Issue 33: after presenter mode with the live plots shown, the side panel's bound
    strip came back with its plot laid out at presenter type, 27 px past its pane."""
    import pyqtgraph as pg

    win = busy_window
    win.set_views_visible(False)
    settle_when_done(qtbot, win)
    win.presenter.set_active(True)
    win.set_views_visible(True)
    settle_when_done(qtbot, win)
    win.presenter.set_active(False)
    settle_when_done(qtbot, win)
    shown = [pw for pw in win.findChildren(pg.PlotWidget) if pw.isVisible()]
    assert any(pw.objectName() == "stripBound" for pw in shown)
    for pw in shown:
        drawn = pw.getPlotItem().sceneBoundingRect()
        pane = QtCore.QRectF(pw.viewport().rect())
        assert drawn.right() <= pane.right() + 1 and drawn.bottom() <= pane.bottom() + 1, (
            pw.objectName(), drawn, pane)


def test_leaving_restyles_each_view_once(busy_window, qtbot):
    """At 10⁶ points a restyle of the live plots redraws them: leaving drew them twice."""
    win = busy_window
    win.presenter.set_active(True)
    settle_when_done(qtbot, win)
    views = win.views.views()
    restyled = {name: [] for name in views}
    for name, view in views.items():
        view.restyle = lambda real=view.restyle, name=name: restyled[name].append(1) or real()
    win.presenter.set_active(False)
    assert views and all(len(calls) == 1 for calls in restyled.values()), restyled
    assert all(view.scale == style.NORMAL for view in views.values())
