"""The window's layout: the canvas dominates, no text clips, every plot sits in its pane.

Each size and state walks every visible label, button, combo box, tab and dock
title and compares the text's extent with the widget's contents rectangle (a
wrapped label must get the height its ``heightForWidth`` needs); every
pyqtgraph view box and axis must lie inside its widget; ticks stay short, and
count axes never go negative.  The canvas's data area (its view box's scene
rectangle) is measured as a share of the window.
"""

from __future__ import annotations

import re
from pathlib import Path

import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.ui.screenshots import STATES
from tests.ui.helpers import finish, load_long_kernel_run

SIZES = [(1280, 800), (1600, 1000), (1920, 1080)]
#: The least share of the window the canvas's data area gets, by size.
SHARE_GOAL = {(1280, 800): 0.45, (1600, 1000): 0.45, (1920, 1080): 0.45}
PRESENTER_GOAL = 0.60
#: The longest readable tick.
MAX_TICK = 8
LAYOUT_STATES = ["empty", "k1", "mid_run", "converged", "non_separable", "dual_rbf_300",
                 "lda", "demo"]
_COUNT_AXIS = re.compile(r"updates|mistakes|step|epoch", re.IGNORECASE)


def _settle(qtbot, win) -> None:
    QtWidgets.QApplication.processEvents()
    qtbot.wait(40)
    win.canvas.refresh()
    win.readouts.refresh()
    win.essentials.refresh()
    if win.plots.isVisible():
        win.plots.refresh()
    QtWidgets.QApplication.processEvents()
    qtbot.wait(20)


def set_state(win, qtbot, name: str) -> None:
    """Put ``win`` in the state ``name`` (see :data:`LAYOUT_STATES`)."""
    ws = win.workspace
    if name == "demo":
        win.demos.play(_first_demo())
        win.demos.next()
        return
    spec = {
        "k1": ("separable", {"n": 30, "seed": 3, "margin": 0.3}, "primal", {}, 1),
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


# -- what a person sees ---------------------------------------------------------------------
def _plain(text: str, rich: bool) -> str:
    if rich or ("<" in text and ">" in text):
        doc = QtGui.QTextDocument()
        doc.setHtml(text)
        return doc.toPlainText()
    return text


def _shown(widget: QtWidgets.QWidget, win) -> bool:
    if not widget.isVisibleTo(win) or not widget.isVisible() or widget.width() <= 0:
        return False
    # inside a scroll area the part scrolled away is not clipped
    return True


def clipped(win) -> list[str]:
    """Descriptions of every visible text of ``win`` that does not fit its widget."""
    bad = []
    for label in win.findChildren(QtWidgets.QLabel):
        if not _shown(label, win) or not label.text():
            continue
        rich = label.textFormat() == QtCore.Qt.TextFormat.RichText
        text = _plain(label.text(), rich)
        if not text.strip():
            continue
        rect = label.contentsRect()
        if label.wordWrap():
            need = label.heightForWidth(label.width())
            if need > label.height() + 1:
                bad.append(f"{label.objectName() or text[:30]!r}: wrapped text needs "
                           f"{need} px, has {label.height()}")
        else:
            fm = label.fontMetrics()
            wide = max(fm.horizontalAdvance(line) for line in text.splitlines() or [""])
            if wide > rect.width() + 1:
                bad.append(f"{label.objectName() or text[:30]!r}: {wide} px wide text in "
                           f"{rect.width()} px")
    for button in win.findChildren(QtWidgets.QAbstractButton):
        if not _shown(button, win) or not button.text():
            continue
        if isinstance(button, QtWidgets.QToolButton) and button.toolButtonStyle() == \
                QtCore.Qt.ToolButtonStyle.ToolButtonIconOnly:
            continue
        hint = button.sizeHint().width()
        if isinstance(button, QtWidgets.QToolButton) and button.arrowType() != \
                QtCore.Qt.ArrowType.NoArrow:
            hint = button.fontMetrics().horizontalAdvance(button.text()) + 16
        if hint > button.width() + 1:
            bad.append(f"button {button.text()!r}: needs {hint} px, has {button.width()}")
    for combo in win.findChildren(QtWidgets.QComboBox):
        if not _shown(combo, win) or not combo.currentText():
            continue
        opt = QtWidgets.QStyleOptionComboBox()
        combo.initStyleOption(opt)
        field = combo.style().subControlRect(QtWidgets.QStyle.ComplexControl.CC_ComboBox, opt,
                                             QtWidgets.QStyle.SubControl.SC_ComboBoxEditField,
                                             combo)
        wide = combo.fontMetrics().horizontalAdvance(combo.currentText())
        if wide > field.width() + 2:
            bad.append(f"combo {combo.currentText()!r}: {wide} px in {field.width()}")
    for bar in win.findChildren(QtWidgets.QTabBar):
        if not _shown(bar, win):
            continue
        for i in range(bar.count()):
            wide = bar.fontMetrics().horizontalAdvance(bar.tabText(i).replace("&", ""))
            if wide > bar.tabRect(i).width():
                bad.append(f"tab {bar.tabText(i)!r}: {wide} px in {bar.tabRect(i).width()}")
    for bar in win.findChildren(QtWidgets.QProgressBar):
        if not _shown(bar, win) or not bar.isTextVisible() or not bar.text():
            continue
        opt = QtWidgets.QStyleOptionProgressBar()
        bar.initStyleOption(opt)
        room = bar.style().subElementRect(QtWidgets.QStyle.SubElement.SE_ProgressBarLabel,
                                          opt, bar).width()
        wide = bar.fontMetrics().horizontalAdvance(bar.text())
        if wide > room:
            bad.append(f"progress {bar.text()!r}: {wide} px in {room}")
    for dock in win.findChildren(QtWidgets.QDockWidget):
        if _shown(dock, win):
            wide = dock.fontMetrics().horizontalAdvance(dock.windowTitle()) + 40
            if wide > dock.width():
                bad.append(f"dock {dock.windowTitle()!r}: {wide} px in {dock.width()}")
    return bad


def plot_problems(win) -> list[str]:
    """View boxes or axes outside their widget, long ticks, negative counts."""
    bad = []
    for widget in win.findChildren(pg.PlotWidget):
        if not _shown(widget, win):
            continue
        area = QtCore.QRectF(widget.viewport().rect()).adjusted(-1, -1, 1, 1)
        plot = widget.getPlotItem()
        name = widget.objectName() or type(widget).__name__
        items = [("view box", plot.getViewBox())]
        items += [(f"axis {k}", plot.getAxis(k)) for k in ("left", "bottom")
                  if plot.getAxis(k).isVisible()]
        for what, item in items:
            rect = widget.mapFromScene(item.sceneBoundingRect()).boundingRect()
            if not area.contains(QtCore.QRectF(rect)):
                bad.append(f"{name}: {what} {rect} outside {area.toRect()}")
        for key in ("left", "bottom"):
            axis = plot.getAxis(key)
            if not axis.isVisible():
                continue
            lo, hi = axis.range
            length = axis.geometry().height() if key == "left" else axis.geometry().width()
            if length <= 0 or not (hi > lo):
                continue
            label = axis.labelText or ""
            for spacing, values in axis.tickValues(lo, hi, length):
                shown = [v for v in values if lo <= v <= hi]
                strings = axis.tickStrings(shown, axis.scale, spacing)
                for v, s in zip(shown, strings, strict=False):
                    if len(s.replace("−", "-")) > MAX_TICK:
                        bad.append(f"{name} {key}: tick {s!r}")
                    if _COUNT_AXIS.search(label) and v < -1e-9 and not axis.logMode:
                        bad.append(f"{name} {key} ({label}): negative count tick {s!r}")
    return bad


def canvas_share(win) -> float:
    """The canvas's data area as a share of the window's area."""
    rect = win.canvas.getViewBox().sceneBoundingRect()
    return rect.width() * rect.height() / (win.width() * win.height())


def toolbar_overflow(win) -> list[str]:
    """Actions of the toolbars that are hidden or outside their toolbar."""
    bad = []
    for tb in win.findChildren(QtWidgets.QToolBar):
        if not tb.isVisible():
            continue
        for act in tb.actions():
            if act.isSeparator() or not act.isVisible():
                continue
            widget = tb.widgetForAction(act)
            if widget is None or not widget.isVisible() or not tb.rect().contains(
                    widget.geometry()):
                bad.append(f"{tb.objectName()}: {act.iconText() or act.objectName()}")
    return bad


# -- the tests ------------------------------------------------------------------------------------
@pytest.fixture
def sized_window(window, qtbot, request):
    size = request.param
    window.resize(*size)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == size, timeout=3000)
    return window, size


@pytest.mark.parametrize("sized_window", SIZES, indirect=True, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("state", LAYOUT_STATES)
def test_nothing_clips_and_the_canvas_dominates(sized_window, qtbot, state):
    win, size = sized_window
    set_state(win, qtbot, state)
    _settle(qtbot, win)
    assert clipped(win) == []
    assert plot_problems(win) == []
    assert toolbar_overflow(win) == []
    assert canvas_share(win) >= SHARE_GOAL[size]


@pytest.mark.parametrize("state", LAYOUT_STATES)
def test_presenter_mode_at_1920x1080(window, qtbot, state):
    win = window
    set_state(win, qtbot, state)
    win.presenter.set_active(True)
    win.setWindowState(QtCore.Qt.WindowState.WindowNoState)  # the test's screen is small
    win.resize(1920, 1080)
    qtbot.waitUntil(lambda: (win.width(), win.height()) == (1920, 1080), timeout=3000)
    _settle(qtbot, win)
    assert win.essentials.isVisible() and not win.learner_panel.isVisible()
    assert clipped(win) == []
    assert plot_problems(win) == []
    assert canvas_share(win) >= PRESENTER_GOAL  # a demo's caption bar included


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
    win.resize(*size)
    qtbot.waitUntil(lambda: (win.width(), win.height()) == size, timeout=3000)
    win.actionRunToEnd.trigger()
    bar = win.playback.progress
    qtbot.waitUntil(lambda: bar.isVisible() and bar.value() > 0)
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
    assert {k: state[k] for k in ("learner", "now", "details")} == {
        "learner": False, "now": True, "details": True}
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
