"""The demos in the window: menu, caption bar, keys, stop/restore, and the undo stack."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core import Workspace, demos
from perceptron_gui.core.dataset import AddPoints, Dataset, ReplaceAll
from perceptron_gui.core.viewstate import LAYER_SWITCHES
from perceptron_gui.ui import errors as ui_errors
from perceptron_gui.ui import style
from perceptron_gui.ui.features import demo_caption, demo_player
from perceptron_gui.ui.widgets.canvas import LAYERS
from perceptron_gui.ui.window_api import action_id
from tests.ui.canvas.helpers import click
from tests.ui.helpers import run_main

Key = QtCore.Qt.Key


def ws_state(ws) -> tuple:
    r = ws.readouts()
    return (ws.dataset.X.tobytes(), ws.dataset.y.tobytes(), ws.learner_name,
            repr(sorted((k, sorted(v.items())) for k, v in ws.all_params().items())),
            ws.step_count, r.k, None if r.w is None else r.w.tobytes(), r.b)


def core_state(name: str, index: int) -> tuple:
    player = demos.DemoPlayer(Workspace(), demos.load_demo(name))
    player.goto(index)
    return ws_state(player.workspace)


def caption_pt(text: str) -> float:
    """The font size of the caption (the second div) in the caption bar's HTML."""
    return float(re.findall(r"font-size:([0-9.]+)pt", text)[1])


def press(qtbot, window, key) -> None:
    window.activateWindow()
    target = QtWidgets.QApplication.focusWidget() or window.canvas
    qtbot.keyClick(target, key)


@pytest.fixture
def win(window, qtbot):
    window.activateWindow()
    window.canvas.setFocus()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.focusWidget() is not None, timeout=2000)
    return window


def user_work(window) -> None:
    """Some work of the user's own: three points (undoable), the dual learner, two steps."""
    for x, y, label in ((1.0, 2.0, 1), (-1.5, -0.5, -1), (2.0, -1.0, 1)):
        assert window.push_edit(AddPoints([x, y], label))
    window.workspace.set_learner("dual")
    window.workspace.step()
    window.workspace.step()


def test_layer_names_agree_with_the_canvas():
    # the demos read the core's switches; the canvas draws every one of them
    assert set(LAYER_SWITCHES) == set(LAYERS)  # the names; the menu keeps the legend last
    assert {n: s.default for n, s in LAYER_SWITCHES.items()} == LAYERS


def test_menu_lists_every_demo_with_title_and_description(win):
    menu = win.menus["demos"]
    assert menu.objectName() == "menuDemos"
    # the demo files are read when the menu opens, not while the window starts
    assert not [a for a in menu.actions() if a.objectName().startswith("actionDemo_")]
    menu.aboutToShow.emit()
    titles = [a.text() for a in menu.actions() if a.objectName().startswith("actionDemo_")]
    expected = [demos.load_demo(n) for n in demos.list_demos()]
    assert titles == [d.title for d in expected]
    for d in expected:
        act = win.demos.listing.actions(user=False)[d.name]
        assert act.toolTip() == ui_errors.plain_tooltip(d.description)
        assert act.statusTip() == d.description
    bar_menus = [a.menu() for a in win.menuBar().actions()]
    assert bar_menus.index(menu) == bar_menus.index(win.menus["help"]) - 1
    assert not win.demos.bar.isVisible() and not win.demos.caption_bar.isVisible()
    # without a demo the arrows and Esc are left to everything else
    assert not win.demos.actionNext.isEnabled() and not win.demos.actionPrev.isEnabled()
    assert not win.demos.actionStopKey.isEnabled()


def test_keys_move_through_the_demo_and_the_caption_bar_follows(win, qtbot):
    ui = win.demos
    ui.listing.actions(user=False)["first-updates"].trigger()
    demo = ui.player.demo
    n = len(demo.steps)
    bar = win.findChild(QtWidgets.QLabel, "captionBar")
    assert bar is ui.caption_bar and bar.isVisible()
    assert f"demo step 0 of {n}" in bar.text() and html.escape(demo.title) in bar.text()
    assert html.escape(demo.description) in bar.text()

    def at(i):
        assert ui.index == i
        assert f"demo step {i} of {n}" in bar.text()
        assert win.timeline.bar.label.text().startswith(("run step", "no run")) or \
            not win.workspace.capabilities.steps
        caption = demo.steps[i - 1].caption if i else demo.description
        assert html.escape(caption) in bar.text()
        assert ws_state(win.workspace) == core_state("first-updates", i)

    for key, i in ((Key.Key_Right, 1), (Key.Key_PageDown, 2), (Key.Key_Right, 3),
                   (Key.Key_Left, 2), (Key.Key_PageUp, 1), (Key.Key_PageUp, 0),
                   (Key.Key_Left, 0)):
        press(qtbot, win, key)
        at(i)
    assert not ui.actionPrev.isEnabled()
    ui.goto(n)
    at(n)
    assert not ui.actionNext.isEnabled()
    press(qtbot, win, Key.Key_Right)
    at(n)
    # the caption is never clipped (once the layout has settled)
    qtbot.waitUntil(lambda: bar.height() >= bar.heightForWidth(bar.width()) - 1, timeout=2000)
    # the caption never takes more than its share of the canvas area ...
    area = ui.bar.parentWidget()
    share = demo_caption.MAX_BAR_SHARE * area.height()
    assert ui.bar.height() <= share + 14
    normal = caption_pt(bar.text())
    assert demo_caption.MIN_CAPTION_PT <= normal <= style.NORMAL.font_pt * 1.4
    # ... and grows with presenter sizes as far as that share allows
    ui.set_scale(style.PRESENTER)
    qtbot.waitUntil(lambda: bar.height() >= bar.heightForWidth(bar.width()) - 1, timeout=2000)
    assert normal <= caption_pt(bar.text()) <= style.PRESENTER.font_pt * 1.4
    assert ui.bar.height() <= share + 14
    ui.set_scale(style.NORMAL)
    assert caption_pt(bar.text()) == normal


def test_layers_and_the_view_menu_follow_the_steps(win):
    ui = win.demos
    show = win.findChild(QtGui.QAction, "actionShow_margin_band")
    assert show.isChecked() and win.canvas.layer_visible("radius")
    layers = win.canvas.layers()
    ui.play("first-updates")
    assert not win.canvas.layer_visible("margin_band") and not show.isChecked()
    assert not win.canvas.layer_visible("radius")
    ui.goto(len(ui.player.demo.steps))
    assert win.canvas.layer_visible("margin_band") and show.isChecked()
    ui.prev()
    assert not win.canvas.layer_visible("margin_band") and not show.isChecked()
    ui.stop()
    assert win.canvas.layers() == layers
    assert win.canvas.layer_visible("margin_band") and show.isChecked()
    assert win.canvas.layer_visible("radius")


def test_stop_with_esc_restores_the_work_and_the_undo_history(win, qtbot):
    user_work(win)
    ws = win.workspace
    before = ws_state(ws)
    layers = win.canvas.layers()
    view = [list(r) for r in win.canvas.getViewBox().targetRange()]
    count = win.undo_stack.count()
    assert win.actionUndo.isEnabled()
    win.demos.play("bias")
    win.demos.next()
    win.demos.next()
    assert ws_state(ws) != before
    win.demos.play("lda")  # another demo: the work saved before the first is kept
    assert win.demos.player.demo.name == "lda" and win.demos.index == 0
    win.demos.next()
    assert not win.actionUndo.isEnabled()  # Ctrl+Z would apply old edits to the demo's data
    assert win.demos.actionStopKey.isEnabled()
    press(qtbot, win, Key.Key_Escape)
    assert not win.demos.playing and not win.demos.bar.isVisible()
    assert ws_state(ws) == before
    assert win.canvas.layers() == layers
    got = [list(r) for r in win.canvas.getViewBox().targetRange()]
    assert np.allclose(got, view)
    assert win.undo_stack.count() == count and win.actionUndo.isEnabled()
    win.undo_stack.undo()  # the user's last edit, undone on the user's data
    assert ws.dataset.n == 2


def test_esc_belongs_to_whichever_action_needs_it_first(win):
    ui = win.demos
    ui.play("lda")
    assert ui.actionStopKey.isEnabled()
    win.actionCancel.setEnabled(True)  # as while running to the end: Esc cancels that
    assert not ui.actionStopKey.isEnabled()
    win.actionCancel.setEnabled(False)
    assert ui.actionStopKey.isEnabled()
    other = QtGui.QAction("Leave something", win)  # e.g. leaving presenter mode
    other.setShortcut(QtGui.QKeySequence("Esc"))
    win.addAction(other)
    win.modes.update_esc()
    assert not ui.actionStopKey.isEnabled()
    other.setEnabled(False)
    assert ui.actionStopKey.isEnabled()
    assert ui.actionStop.isEnabled()  # the menu entry works whatever has Esc


def test_a_click_on_the_canvas_during_a_demo_changes_nothing_and_says_why(win, qtbot):
    ui = win.demos
    user_work(win)
    count = win.undo_stack.count()
    ui.play("non-separable")
    ui.goto(3)
    demo_state = ws_state(win.workspace)
    qtbot.waitUntil(lambda: ui.caption_bar.width() > 50, timeout=2000)
    (x0, x1), (y0, y1) = win.canvas.view_rect()
    click(win.canvas, ((x0 + x1) / 2, (y0 + y1) / 2))  # a stray click: would add a point
    assert ui.playing and ui.bar.isVisible() and ui.index == 3
    assert ws_state(win.workspace) == demo_state
    assert win.undo_stack.count() == count and not win.actionUndo.isEnabled()
    assert ui.bar.hint == demo_player.EDIT_HINT
    assert html.escape(demo_player.EDIT_HINT) in ui.caption_bar.text()
    ui.next()  # the hint lasts until the next step
    assert ui.index == 4 and ui.bar.hint == ""
    assert html.escape(demo_player.EDIT_HINT) not in ui.caption_bar.text()


def test_edit_the_demos_data_ends_it_as_one_undo_step(win):
    user_work(win)
    ws = win.workspace
    before = ws_state(ws)
    count = win.undo_stack.count()
    win.demos.play("non-separable")
    win.demos.goto(3)
    demo_state = ws_state(ws)
    demo_data = ws.dataset
    assert not win.push_edit(AddPoints([0.5, 0.5], -1))  # refused while the demo plays
    assert win.demos.playing and ws.dataset == demo_data
    win.actions[action_id("actionDemoKeep")].trigger()
    assert not win.demos.playing and not win.demos.bar.isVisible()
    assert win.push_edit(AddPoints([0.5, 0.5], -1))
    assert ws.dataset.n == demo_data.n + 1
    assert win.undo_stack.count() == count + 2
    assert win.undo_stack.text(count).startswith("Play demo")
    assert win.actionUndo.isEnabled()
    win.undo_stack.undo()  # the edit
    assert ws.dataset == demo_data
    win.undo_stack.undo()  # the whole demo
    assert ws_state(ws) == before
    win.undo_stack.redo()
    assert ws_state(ws) == demo_state
    win.undo_stack.redo()
    assert ws.dataset.n == demo_data.n + 1


def test_new_data_from_a_menu_end_the_demo_in_place(win):
    ws = win.workspace
    count = win.undo_stack.count()
    win.demos.play("margin")
    win.demos.next()
    new = Dataset([[0.0, 1.0], [1.0, 0.0]], [1, -1])
    assert win.push_edit(ReplaceAll.from_dataset(new, "open sample"))
    assert not win.demos.playing and ws.dataset == new
    assert win.undo_stack.count() == count + 2  # the demo, then the new data


@pytest.mark.parametrize("name", ["first-updates", "lda"])
def test_the_clickers_keys_belong_to_the_demo_whatever_has_focus(win, qtbot, name):
    ui = win.demos
    slider = win.playback.speed_slider
    speed = slider.value()
    ui.play(name)
    n = len(ui.player)
    slider.setFocus()  # the widget a stray Tab or click left the focus on
    qtbot.waitUntil(lambda: QtWidgets.QApplication.focusWidget() is slider, timeout=2000)
    for i in range(1, n + 1):
        qtbot.keyClick(QtWidgets.QApplication.focusWidget(), Key.Key_Right)
        assert ui.index == i
    focus = QtWidgets.QApplication.focusWidget()
    for key in (Key.Key_Right, Key.Key_PageDown, Key.Key_Space, Key.Key_Right):
        qtbot.keyClick(QtWidgets.QApplication.focusWidget(), key)  # after the last caption
    assert ui.index == n and ui.playing
    assert slider.value() == speed  # the speed never moved
    assert QtWidgets.QApplication.focusWidget() is focus  # nor did the focus
    assert focus not in ui.bar.findChildren(QtWidgets.QToolButton)  # never the bar's ✕
    assert ui.bar.hint == demo_player.END_HINT
    qtbot.keyClick(QtWidgets.QApplication.focusWidget(), Key.Key_Left)
    assert ui.index == n - 1
    qtbot.keyClick(QtWidgets.QApplication.focusWidget(), Key.Key_PageUp)
    assert ui.index == n - 2
    for button in ui.bar.findChildren(QtWidgets.QToolButton):
        assert button.focusPolicy() == QtCore.Qt.FocusPolicy.NoFocus
    ui.stop()
    qtbot.keyClick(slider, Key.Key_Right)  # without a demo the slider has its keys back
    assert slider.value() != speed


def test_every_caption_of_every_demo_has_one_font_size(win, qtbot):
    ui = win.demos
    win.resize(1280, 800)
    qtbot.waitUntil(lambda: win.width() == 1280 and not win.views.isVisible(), timeout=5000)
    full = win.canvas.width()
    sizes = {}
    for name in demos.list_demos():
        ui.play(name)
        bar = ui.caption_bar  # the same label for every demo

        def fitted(bar=bar):  # once the layout has settled (the views a demo uses shown)
            return (bar.width() > 50 and ui.bar.caption_pt > 0
                    and bar.heightForWidth(bar.width()) <= bar.height() + 1)

        qtbot.waitUntil(fitted, timeout=5000)
        seen = set()
        heights = set()
        for i in range(len(ui.player) + 1):
            ui.goto(i)
            seen.add(caption_pt(ui.caption_bar.text()))
            heights.add(ui.bar.height())
            # never clipped: the bar holds the caption at that size
            bar = ui.caption_bar
            assert bar.heightForWidth(bar.width()) <= bar.height() + 1, (name, i)
        assert len(seen) == 1 and len(heights) == 1, (name, seen, heights)
        sizes[name] = seen.pop()
        ui.stop()
        # the views a demo showed are hidden again, the canvas as wide as before it
        qtbot.waitUntil(lambda: not win.views.isVisible() and win.canvas.width() == full,
                        timeout=5000)
    # at 1280 x 800 every shipped demo fits its longest caption at the full size, but
    # those that show views beside the canvas (a narrower bar) at no less than the least
    full_pt = round(style.NORMAL.font_pt * demo_caption.CAPTION_FACTOR, 1)
    with_views = {name for name in sizes if demos.load_demo(name).views}
    assert with_views == {"novikoff-proof", "weight-space"}
    assert {sizes[name] for name in sizes if name not in with_views} == {full_pt}
    assert all(demo_caption.MIN_CAPTION_PT <= sizes[name] <= full_pt for name in with_views)


def test_data_replaced_from_outside_ends_the_demo_keeping_the_new_data(win):
    ui = win.demos
    ui.play("margin")
    ui.next()
    new = Dataset([[0.0, 1.0], [1.0, 0.0]], [1, -1])
    win.workspace.replace(new, "primal", {})  # what opening a file does
    assert not ui.playing and not ui.bar.isVisible()
    assert win.workspace.dataset == new
    assert win.actionUndo.isEnabled() == win.undo_stack.canUndo()


def test_a_false_claim_is_shown_in_the_status_bar(win, tmp_path):
    path = tmp_path / "wrong.json"
    path.write_text(
        '{"format": "perceptron-gui-demo", "version": 1, "title": "Wrong", "description": "",'
        ' "data": {"points": [{"x": 1, "y": 1, "label": 1}, {"x": -1, "y": -1, "label": -1}]},'
        ' "learner": "primal", "steps": [{"action": "step", "caption": "Two updates!",'
        ' "checks": {"updates": 2}}]}', encoding="utf-8")
    assert win.demos.play(str(path))
    win.demos.next()
    assert win.statusBar().currentMessage() == (
        "Demo check failed at step 1: updates: expected 2, got 1")


def test_a_broken_demo_is_reported_and_nothing_changes(win, tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr(ui_errors, "warn", lambda *args, **kw: shown.append(args[2]))
    path = tmp_path / "broken.json"
    path.write_text('{"format": "perceptron-gui-demo"}', encoding="utf-8")
    before = ws_state(win.workspace)
    assert not win.demos.play(str(path))
    assert shown == ["broken.json: missing field 'version'"]
    assert not win.demos.playing and ws_state(win.workspace) == before


def test_cli_demo_opens_the_window(qtbot, monkeypatch):
    def look(window):
        return window.demos.player.demo.name, window.demos.caption_bar.isVisible()

    code, seen = run_main(qtbot, monkeypatch, ["--demo", "novikoff-proof"],
                          lambda window: window.demos.caption_bar.isVisible(), look)
    assert code == 0
    assert seen == ("novikoff-proof", True)


def _median_colour(image: QtGui.QImage, opaque_only: bool = False) -> QtGui.QColor:
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGBA8888)
    a = np.frombuffer(image.constBits(), np.uint8)[:image.height() * image.bytesPerLine()]
    a = a.reshape(image.height(), image.bytesPerLine() // 4, 4)[:, :image.width()]
    pixels = a[a[..., 3] > 200] if opaque_only else a.reshape(-1, 4)
    assert len(pixels) > 10  # something is drawn
    r, g, b = np.median(pixels[:, :3], axis=0)
    return QtGui.QColor(int(r), int(g), int(b))


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_caption_bar_takes_the_scheme_s_colours_with_readable_contrast(window, qtbot,
                                                                           scheme):
    """It stayed tooltip cream on the dark scheme.  Switched while a demo plays, the bar
    is drawn in the scheme's colours: its caption at least 4.5:1 (WCAG AA) on it, its
    arrows and ✕ at least 3:1, a dark bar on the dark scheme."""
    try:
        window.theme.set_choice("light" if scheme == "dark" else "dark")
        assert window.demos.play("novikoff-proof")
        window.theme.set_choice(scheme)
        bar = window.demos.bar
        qtbot.waitUntil(bar.isVisible)
        back, text = (QtGui.QColor(c) for c in demo_caption.CAPTION_COLOURS[scheme])
        palette = bar.palette()
        assert palette.color(QtGui.QPalette.ColorRole.Window) == back
        assert palette.color(QtGui.QPalette.ColorRole.WindowText) == text
        assert style.contrast(text.name(), back.name()) >= 4.5
        drawn = _median_colour(bar.grab().toImage())  # the bar is mostly its background
        assert style.contrast(drawn.name(), back.name()) < 1.1, (drawn.name(), back.name())
        if scheme == "dark":  # close to the canvas's background, far from the cream
            assert style.contrast(back.name(), style.DARK.background) < 1.5
            assert style.contrast(back.name(), demo_caption.CAPTION_COLOURS["light"][0]) > 7
        for action in (window.demos.actionPrev, window.demos.actionNext,
                       window.demos.actionStop):
            ink = _median_colour(action.icon().pixmap(32, 32).toImage(), opaque_only=True)
            assert style.contrast(ink.name(), back.name()) >= 3.0, action.objectName()
        window.demos.stop()
    finally:
        window.theme.set_choice("system")


def test_the_points_a_caption_names_are_marked_while_it_shows(win, qtbot):
    from perceptron_gui.core.named_points import named_points

    ui = win.demos
    ui.play("three-classes-lda")
    layer = win.canvas.layer("named")
    ui.next()  # the means: no point named
    assert named_points(win.workspace) == () and not layer.items["named_marks"].isVisible()
    ui.next()  # "At x = (2.5, 0.6) the three scores are …"
    assert named_points(win.workspace) == ((2.5, 0.6),)
    marks = layer.items["named_marks"]
    assert marks.isVisible() and [float(v) for v in marks.getData()[0]] == [2.5]
    label = layer.items["named_label_0"]
    assert label.isVisible() and label.toPlainText() == "(2.50, 0.60)"
    ui.next()  # two points: (4.9, 1.6) and (5, 1.75)
    assert named_points(win.workspace) == ((4.9, 1.6), (5.0, 1.75))
    assert layer.items["named_label_1"].isVisible()
    ui.prev()
    assert named_points(win.workspace) == ((2.5, 0.6),)
    ui.stop()
    assert named_points(win.workspace) == () and not marks.isVisible()


def test_the_legend_says_what_the_marked_points_are(win):
    from tests.ui.canvas.helpers import legend_texts

    ui = win.demos
    ui.play("three-classes-lda")
    ui.next()
    assert "a point the caption names" not in legend_texts(win.canvas)
    ui.next()
    assert "a point the caption names" in legend_texts(win.canvas)
    ui.stop()
    assert "a point the caption names" not in legend_texts(win.canvas)
