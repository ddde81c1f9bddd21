"""The window's layout: the canvas dominates, no text clips, every plot sits in its pane.

Each size and state walks every visible label, button, combo box, tab and dock
title and compares the text's extent with the widget's contents rectangle (a
wrapped label must get the height its ``heightForWidth`` needs); every
pyqtgraph view box and axis must lie inside its widget; ticks stay short, and
count axes never go negative.  The canvas's data area (its view box's scene
rectangle) is measured as a share of the window.  No data point lies under the
canvas's legend, nor past the canvas's edge, in any state (a dense data set
included), in presenter mode with the live plots shown too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.ui.screenshots import STATES
from tests.ui.helpers import finish, load_long_kernel_run, settle_when_done
from tests.ui.layout_checks import (
    canvas_share,
    clipped,
    is_shown,
    legend_covers,
    plot_problems,
    points_outside,
    toolbar_overflow,
)

SIZES = [(1280, 800), (1600, 1000), (1920, 1080)]
#: The least share of the window the canvas's data area gets, by size.
SHARE_GOAL = {(1280, 800): 0.45, (1600, 1000): 0.45, (1920, 1080): 0.45}
PRESENTER_GOAL = 0.60
#: ... with the views shown: they sit under the side panel's text, the canvas beside them.
PRESENTER_VIEWS_GOAL = 0.52
#: ... less with a demo playing, whose caption bar is at presenter size (28 pt, 166 px at
#: 1920 x 1080): the share it takes from the canvas.
PRESENTER_CAPTION_SHARE = 0.05
LAYOUT_STATES = ["empty", "k1", "mid_run", "converged", "non_separable", "dual_rbf_300",
                 "lda", "demo", "dense", "separable40"]


def _settle(qtbot, win, idle=None) -> None:
    """The window laid out and drawn: what the assertions measure stands still.

    Waits on the window's own deferred work
    (:func:`~tests.ui.helpers.settle_when_done`), not for a fixed time: on a
    loaded machine a re-layout takes longer.  Nothing is redrawn by force: the
    assertions read what the window shows once that work has run.
    """
    settle_when_done(qtbot, win, idle=idle)


def set_state(win, qtbot, name: str) -> None:
    """Put ``win`` in the state ``name`` (see :data:`LAYOUT_STATES`)."""
    ws = win.workspace
    if name == "demo":
        win.demos.play(_first_demo())
        win.demos.next()
        return
    spec = {
        "k1": ("separable", {"n": 30, "seed": 3, "margin": 0.3}, "primal", {}, 1),
        "dense": ("separable", {"n": 20_000, "seed": 5}, "primal", {}, 4),
        # the default 40-point set, where the legend covered five -1 squares at 1280x800
        "separable40": ("separable", {"seed": 0}, "primal", {}, 4),
        "dual_rbf_300": ("circles", {"n": 300, "seed": 0}, "dual",
                         {"kernel": "rbf", "gamma": 0.5}, 20),
    }.get(name) or STATES[name]
    gen, kwargs, learner, params, run = spec
    if gen is not None:
        win.push_edit(ReplaceAll.from_dataset(generators.GENERATORS[gen](**kwargs)))
    ws.set_learner(learner)
    if params:
        ws.set_params(**params)
    if name == "lda":
        win.canvas.set_visible_layers(lda=True)
    if run == "end":
        ws.run_to_end()
    elif run:
        for _ in range(run):
            ws.step_update()
    win.canvas.fit_view()


def _first_demo() -> str:
    return str(Path(__file__).resolve().parents[2] / "resources" / "demos"
               / "first-updates.json")


# -- the tests ------------------------------------------------------------------------------------
def _resize(win, qtbot, size) -> None:
    win.resize(*size)
    qtbot.waitUntil(lambda: (win.width(), win.height()) == size, timeout=3000)


def _present(win, qtbot, size=(1920, 1080)) -> None:
    win.presenter.set_active(True)
    win.setWindowState(QtCore.Qt.WindowState.WindowNoState)  # the test's screen is small
    _resize(win, qtbot, size)
    _settle(qtbot, win)


def largest_widget_is_the_canvas(win) -> list[str]:
    """The canvas's area against every other shown pane's (the views, the side panel)."""
    canvas = win.canvas.width() * win.canvas.height()
    others = {"views": win.views, "side panel": win.side_panel}
    return [f"{name} {w.width()}x{w.height()} outsizes the canvas "
            f"{win.canvas.width()}x{win.canvas.height()}" for name, w in others.items()
            if is_shown(w, win) and w.width() * w.height() >= canvas]


@pytest.mark.parametrize("state", LAYOUT_STATES)
def test_nothing_clips_and_the_canvas_dominates_at_each_size_and_presenting(window, qtbot,
                                                                           subtests, state):
    """One window in ``state`` walks every size of :data:`SIZES`, then presenter mode at
    1920 x 1080 alone and with the live plots (F9); each is a subtest named by its case."""
    win = window
    for k, size in enumerate(SIZES):
        _resize(win, qtbot, size)
        if k == 0:
            set_state(win, qtbot, state)
        elif state != "demo":
            win.canvas.fit_view()  # as when the state is made at this size
        _settle(qtbot, win)
        with subtests.test(f"{size[0]}x{size[1]}"):
            assert clipped(win) == []
            assert plot_problems(win) == []
            assert toolbar_overflow(win) == []
            assert legend_covers(win) == []
            assert points_outside(win) == []
            assert canvas_share(win) >= SHARE_GOAL[size]
    _present(win, qtbot)
    for views in (False, True):
        if views:  # F9: the live plots beside the canvas, sized for presenter type
            win.actions["views"].trigger()
            _settle(qtbot, win)
        with subtests.test("presenter, F9" if views else "presenter"):
            assert win.plots.isVisible() or not views
            assert win.essentials.isVisible() and not win.learner_panel.isVisible()
            assert clipped(win) == []
            assert plot_problems(win) == []
            assert legend_covers(win) == []
            assert points_outside(win) == []
            assert largest_widget_is_the_canvas(win) == []
            # a demo's caption bar included; the views take their share
            caption = PRESENTER_CAPTION_SHARE if win.demos.playing else 0.0
            goal = PRESENTER_VIEWS_GOAL if views else PRESENTER_GOAL
            assert canvas_share(win) >= goal - caption


def test_the_novikoff_demo_shows_its_plots_in_presenter_mode(window, qtbot):
    """Its caption says "the live plots show them too": they do, in their panes."""
    win = window
    _present(win, qtbot)
    assert not win.views.isVisible()
    win.demos.play("novikoff-proof")
    for _ in range(4):
        win.demos.next()
    _settle(qtbot, win)
    assert win.views.isVisible() and win.views.currentWidget() is win.plots
    assert win.side_panel.verticalScrollBar().maximum() == 0  # its text whole, unscrolled
    assert plot_problems(win) == []
    assert clipped(win) == []
    assert legend_covers(win) == []
    assert largest_widget_is_the_canvas(win) == []
    win.demos.stop()
    _settle(qtbot, win)
    assert not win.views.isVisible()  # presenter mode hides them again
    win.presenter.set_active(False)


def test_presenter_views_fill_the_side_column_under_its_text(window, qtbot):
    """Issue 33: the side panel was mostly empty space below its text, beside a canvas
    squeezed between it and the views; the views now take that space (canvas share 0.45
    before, 0.61 after), and go back beside the canvas at the normal size."""
    win = window
    set_state(win, qtbot, "mid_run")
    _present(win, qtbot)
    win.actions["views"].trigger()
    _settle(qtbot, win)
    views, text, canvas = (w.geometry().translated(w.mapTo(win, QtCore.QPoint(0, 0))
                                                   - w.pos())
                           for w in (win.views, win.essentials, win.canvas))
    assert views.top() >= text.bottom() and views.right() <= canvas.left(), (views, text)
    assert win.views.height() >= 0.5 * win.height()
    assert canvas_share(win) >= PRESENTER_VIEWS_GOAL
    win.presenter.set_active(False)
    win.setWindowState(QtCore.Qt.WindowState.WindowNoState)
    _resize(win, qtbot, (1280, 800))
    _settle(qtbot, win)
    assert win.views.parentWidget() is win.splitter and not win.views.isVisible()
    win.set_views_visible(True)
    _settle(qtbot, win)
    assert win.views.geometry().left() >= win.canvas_area.geometry().right()
    assert plot_problems(win) == [] and clipped(win) == []


def test_no_clipping_survives_presenter_and_demo_cycles(window, qtbot):
    """Presenter mode, a demo with its plots, F9, Esc, Esc: again and again; the normal
    window comes back as it was, its plots in their panes at normal type."""
    win = window
    set_state(win, qtbot, "mid_run")
    win.set_views_visible(True)
    _settle(qtbot, win)
    sizes = win.splitter.sizes()
    for cycle in range(3):
        win.presenter.set_active(True)
        win.demos.play("novikoff-proof")
        win.demos.next()
        _settle(qtbot, win)
        if cycle == 1:
            win.actions["views"].trigger()  # F9 hides them during the demo
        win.actions["demo_stop_key"].trigger() if cycle else win.demos.stop()
        win.actions["leave_presenter_mode"].trigger()
        assert not win.presenter.active and not win.demos.playing
        win.setWindowState(QtCore.Qt.WindowState.WindowNoState)
        _resize(win, qtbot, (1280, 800))
        _settle(qtbot, win)
        assert win.views.isVisible()  # as before presenter mode, whatever F9 did in it
        assert win.plots.part("proof").dot_plot.titleLabel.opts["size"] == "10pt"
        assert plot_problems(win) == [], cycle
        assert clipped(win) == [], cycle
        assert abs(win.splitter.sizes()[1] - sizes[1]) <= 2, (cycle, win.splitter.sizes())


@pytest.mark.parametrize("state", ["mid_run", "separable40"])
def test_every_panel_at_1280x800_cuts_no_update_and_no_point(window, qtbot, state):
    """Side panel with its details, the live plots and the update log: the log's "update"
    shows whole, and the squeezed canvas still holds every point, none under the legend
    (with no empty place for it, the fitted view grows a band above the data)."""
    win = window
    set_state(win, qtbot, state)
    win.set_views_visible(True)
    win.docks["updateLog"].show()
    win.side_panel.set_expanded_state({"learner": True, "now": True, "details": True})
    _settle(qtbot, win)
    table = win.timeline.view
    model = table.model()
    assert model.rowCount() > 0
    qtbot.waitUntil(lambda: table.isVisible())
    column = model.UPDATE
    width = table.columnWidth(column)
    metrics = table.fontMetrics()
    for row in range(model.rowCount()):
        for line in model.index(row, column).data().split("\n"):
            assert metrics.horizontalAdvance(line) + 8 <= width, (line, width)
    assert table.rowHeight(0) >= 2 * metrics.lineSpacing()  # w and b: a line each
    assert points_outside(win) == []
    assert legend_covers(win) == []
    assert largest_widget_is_the_canvas(win) == []


@pytest.mark.parametrize("presenter", [False, True], ids=["1280x800", "presenter"])
def test_a_run_to_the_end_fits_its_progress_in_the_status_bar(window, qtbot, monkeypatch,
                                                              presenter):
    from perceptron_gui.ui import playback

    monkeypatch.setattr(playback, "RUN_SLICE_SECONDS", 0.002)
    win = window
    load_long_kernel_run(win)
    win.presenter.set_active(presenter)
    win.setWindowState(QtCore.Qt.WindowState.WindowNoState)  # the test's screen is small
    size = (1920, 1080) if presenter else (1280, 800)
    _resize(win, qtbot, size)
    win.actionRunToEnd.trigger()
    bar = win.playback.progress
    qtbot.waitUntil(lambda: bar.isVisible() and bar.value() > 0, timeout=30_000)
    win.playback.run_timer.stop()  # hold the run mid-way, its progress shown
    _settle(qtbot, win)
    try:
        assert win.playback.running_to_end and "% of epoch 1" in bar.text()
        assert clipped(win) == []
    finally:
        win.playback.cancel_run()


def test_the_views_show_on_a_wide_window_and_keep_the_canvas_large(window, qtbot):
    set_state(window, qtbot, "mid_run")
    window.set_views_visible(True)
    window.resize(1920, 1080)
    qtbot.waitUntil(lambda: window.width() == 1920, timeout=3000)
    _settle(qtbot, window)
    assert window.plots.isVisible()
    assert plot_problems(window) == []
    assert clipped(window) == []
    assert canvas_share(window) >= 0.45


def test_after_open_and_a_resize_the_plots_stay_in_their_panes(window, qtbot, tmp_path):
    set_state(window, qtbot, "converged")
    window.set_views_visible(True)
    path = tmp_path / "run.json"
    assert finish(qtbot, window.files.save_to(str(path)))
    window.workspace.reset()
    assert finish(qtbot, window.files.open_path(str(path), ask=False))
    _settle(qtbot, window)
    assert plot_problems(window) == []
    window.resize(1600, 1000)
    qtbot.waitUntil(lambda: window.width() == 1600, timeout=3000)
    window.resize(1280, 800)
    qtbot.waitUntil(lambda: window.width() == 1280, timeout=3000)
    _settle(qtbot, window)
    assert plot_problems(window) == []
    assert clipped(window) == []


def test_a_demo_caption_never_moves_or_rezooms_the_canvas(window, qtbot):
    win = window
    win.demos.play(_first_demo())
    _settle(qtbot, win)
    seen = set()
    for _ in range(4):
        if win.demos.player is None or win.demos.player.at_end:
            break
        before = (win.canvas.getViewBox().sceneBoundingRect(), win.canvas.view_rect())
        data = win.workspace.dataset
        win.demos.next()
        _settle(qtbot, win)
        if win.workspace.dataset == data:  # the same data: the same picture frame
            assert win.canvas.getViewBox().sceneBoundingRect() == before[0]
            assert win.canvas.view_rect() == before[1]
        seen.add(win.demos.caption_bar.height())
    assert len(seen) == 1  # the caption keeps its height


def test_canvas_only_hides_everything_and_the_same_key_brings_it_back(window, qtbot):
    win = window
    win.set_views_visible(True)
    _settle(qtbot, win)
    state = bytes(win.saveState())
    win.actionCanvasOnly.trigger()
    _settle(qtbot, win)
    assert not win.docks["side"].isVisible() and not win.views.isVisible()
    assert all(not tb.isVisible() for tb in win.findChildren(QtWidgets.QToolBar))
    assert canvas_share(win) > 0.7
    win.actionCanvasOnly.trigger()
    _settle(qtbot, win)
    assert bytes(win.saveState()) == state and win.views.isVisible()
    shortcut = win.actionCanvasOnly.shortcut()
    users = [a for a in win.findChildren(QtGui.QAction)
             if shortcut in a.shortcuts() and a is not win.actionCanvasOnly]
    assert users == []  # the key is its own


def test_the_layout_is_saved_and_restored(window, qtbot):
    from perceptron_gui.ui.main_window import MainWindow

    window.set_views_visible(True)
    window.side_panel.sections["details"].set_expanded(True)
    window.side_panel.sections["learner"].set_expanded(False)
    window.save_settings()
    again = MainWindow()
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    assert again.views.isVisible()
    state = again.side_panel.expanded_state()  # (the game's and exercise's sections too)
    assert {k: state[k] for k in ("learner", "now", "details", "bound")} == {
        "learner": False, "now": True, "details": True, "bound": True}
    again.reset_layout()
    assert again.side_panel.expanded_state()["details"] is False


def test_the_first_size_fits_a_1366x768_laptop():
    from perceptron_gui.ui.main_window import first_size

    class Screen:
        def availableGeometry(self):
            return QtCore.QRect(0, 0, 1366, 720)

    width, height = first_size(Screen())
    assert width <= 1366 and height + 30 <= 720


def test_help_lists_every_shortcut(window):
    from perceptron_gui.ui.keyboard_help import KeyboardHelp

    dialog = KeyboardHelp(window)
    keys = " | ".join(k for k, _ in dialog.texts())
    for act in window.findChildren(QtGui.QAction):
        for seq in act.shortcuts():
            text = seq.toString(QtGui.QKeySequence.SequenceFormat.NativeText)
            if text:
                assert text in keys, (act.objectName(), text)
    for key in ("F11", "Right", "Left", "F1"):
        assert key in keys
    from perceptron_gui.ui.widgets.canvas.tool import KEYS

    for canvas_keys, _ in KEYS:  # the canvas's own keys: cursor, add, select, class, T
        assert canvas_keys in keys, canvas_keys
    dialog.close()


def test_the_legend_action_switches_the_canvas_legend(window):
    act = window.findChild(QtGui.QAction, "actionShow_legend")
    assert act is not None and act in window.menus["view"].actions()
    act.setChecked(False)
    assert not window.canvas.layer_visible("legend")
    act.setChecked(True)
    assert window.canvas.layer_visible("legend")


@pytest.mark.parametrize("size", [(1280, 800), (1366, 768), (1280, 680), (1600, 1000)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_first_launch_shows_the_bound_at_every_size_below_1800(qtbot, size):
    """Fresh settings: the views start hidden below 1,800 px (the canvas keeps its share), and
    the side panel shows the bound plot, k against (R/γ)², whole in its viewport."""
    from perceptron_gui.ui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    set_state(win, qtbot, "mid_run")
    _settle(qtbot, win)
    strip = win.bound_strip
    assert not win.views.isVisible() and strip.isVisible() and strip.message == ""
    steps, ks = strip.plot.k_curve.getData()
    assert len(ks) and round(10 ** ks[-1]) == win.workspace.learner.n_updates_  # a log axis
    assert strip.plot.bound_line.isVisible()  # the ceiling (R/γ)²
    viewport = win.side_panel.viewport()
    plot = strip.plot.bound_plot
    shown = QtCore.QRect(plot.mapTo(viewport, QtCore.QPoint(0, 0)), plot.size())
    assert viewport.rect().contains(shown), (shown, viewport.rect())
    assert plot_problems(win) == []
    assert clipped(win) == []
    assert canvas_share(win) >= 0.45
    assert largest_widget_is_the_canvas(win) == []
    win.set_views_visible(True)  # the live plots show it: not twice
    assert not strip.isVisible()
    win.set_views_visible(False)
    assert strip.isVisible()
