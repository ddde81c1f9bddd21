"""Teachers write their own demos: record, caption, check, save, replay, edit, share."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PySide6 import QtWidgets

from perceptron_gui.core import Workspace, generators
from perceptron_gui.core.commands import EditData, Run, Seek, SetLayers, SetParams
from perceptron_gui.core.dataset import AddPoints, MovePoints
from perceptron_gui.core.demos import DemoPlayer, load_demo
from perceptron_gui.core.demos.library import DemoLibrary
from perceptron_gui.core.text import fmt, fmt_count
from perceptron_gui.ui.features.demo_files import user_demo_dir
from perceptron_gui.ui.widgets.caption_box import NOT_A_QUANTITY


@pytest.fixture(autouse=True)
def _no_boxes(warnings):
    """Warning boxes are recorded (and reported by ``errorReported``), never shown."""
    return warnings


@pytest.fixture
def win(window):
    """The window with the margin demo's 20 points (the perceptron needs 4 updates)."""
    data = generators.generate("separable", n=20, noise=0.6, margin=1.0, offset=0.5, seed=6)
    window.workspace.set_dataset(data)
    return window


def _errors(window):
    seen = []
    window.errorReported.connect(lambda summary, text: seen.append((summary, text)))
    return seen


def _type(box, text):
    box.edit.setPlainText(text)


def _choose(box, number, check):
    """Attach the quantity ``check`` to the typed ``number`` in the caption box."""
    layout = box.rows
    for row in range(layout.rowCount()):
        label = layout.itemAt(row, QtWidgets.QFormLayout.ItemRole.LabelRole).widget()
        if label.text() == f"“{number}” states":
            combo = layout.itemAt(row, QtWidgets.QFormLayout.ItemRole.FieldRole).layout() \
                .itemAt(0).widget()
            combo.setCurrentIndex(combo.findData(check))
            return combo
    raise AssertionError(f"no row for {number!r}")


def _record_two_updates(win, qtbot):
    rec = win.demo_files.recorder
    win.actions["record_demo"].trigger()
    assert rec.recording and win.modes.is_active("recording") and rec.bar.isVisible()
    _type(rec.caption_box, "Twenty points, w = 0.")
    win.dispatch(Run("step_update"))
    _type(rec.caption_box, "The first update: w = {w}")
    win.dispatch(Run("step_update"))
    win.dispatch(SetLayers({"radius": True}))
    return rec


# --------------------------------------------------------------------------- recording


def test_a_teacher_records_captions_saves_and_replays_a_demo(win, qtbot, tmp_path):
    rec = _record_two_updates(win, qtbot)
    assert rec.step_count == 3
    assert [s.text for s in rec.draft.steps] == [
        "Step to the next update", "Step to the next update", "Show radius"]
    box = rec.caption_box
    _type(box, "After {k} updates, R = {R}: it holds 2 updates")
    combo = _choose(box, "2", "updates")
    assert combo.currentData() == "updates" and box.mismatches() == []
    errors = _errors(win)
    # a wrong number is caught before saving, naming its step
    win.dispatch(Run("run_to_end"))
    k = win.workspace.readouts().k
    _type(box, f"Converged after {k + 1} updates")
    _choose(box, str(k + 1), "updates")
    assert box.mismatches() == [f"“{k + 1}” is not k, the number of updates so far "
                                f"(now {fmt_count(k)})"]
    win.actions["recording_save"].trigger()
    qtbot.waitUntil(lambda: bool(errors), timeout=20000)
    assert errors[-1][0].startswith("Not saved")
    assert f"step 4: updates: expected {k + 1}, got {k}" in errors[-1][1]
    assert rec.recording and rec.save_dialog is None
    # fixed, it saves
    _type(box, f"Converged after {k} updates; the bound is {{bound}}")
    assert _choose(box, str(k), "updates").currentData() == "updates"
    win.actions["recording_save"].trigger()
    qtbot.waitUntil(lambda: rec.save_dialog is not None, timeout=20000)
    dialog = rec.save_dialog
    assert not dialog.buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Save).isEnabled()
    dialog.title_edit.setText("Radius and the bound")
    with qtbot.waitSignal(rec.saved, timeout=5000) as saved:
        dialog.accept()
    entry = saved.args[0]
    assert not rec.recording and not win.modes.is_active("recording")
    assert entry.path.parent == user_demo_dir() and entry.name == "radius-and-the-bound"
    # it is in the Demos menu, marked, and plays with its numbers filled in
    act = win.demos.listing.actions(user=True)[entry.name]
    assert act.text() == "Radius and the bound ✎"
    act.trigger()
    assert win.demos.playing and len(win.demos.player) == 4
    assert win.demos.player.caption == "Twenty points, w = 0."
    win.demos.goto(2)
    assert win.demos.player.caption == "Step to the next update"  # no caption: what it did
    win.demos.goto(3)
    r = win.workspace.readouts()
    assert win.demos.player.caption.startswith(f"After 2 updates, R = {fmt(r.radius)}")
    win.demos.goto(4)
    assert win.demos.player.caption == (f"Converged after {k} updates; the bound is "
                                        f"{fmt(win.workspace.readouts().bound)}")
    assert win.view_state.layer("radius")
    win.demos.stop()


def test_render_of_a_recorded_demo_to_gif_and_slides(win, qtbot, tmp_path):
    from perceptron_gui.app import render_main

    rec = _record_two_updates(win, qtbot)
    rec.draft.title = "Two updates"
    rec.draft.steps[0].caption = "The first update: w = {w}"
    entry = DemoLibrary(tmp_path / "mine").save(rec.draft)
    gif = tmp_path / "two.gif"
    assert render_main([str(entry.path), "-o", str(gif)]) == 0
    from PIL import Image

    with Image.open(gif) as im:
        assert im.n_frames == 4
    assert render_main([str(entry.path), "-o", f"{tmp_path / 'slides'}/"]) == 0
    captions = (tmp_path / "slides" / "captions.txt").read_text(encoding="utf-8").splitlines()
    player = DemoPlayer(Workspace(), load_demo(entry.path))
    player.goto(1)
    assert captions[1] == player.caption and captions[1].startswith("The first update: w = (")


def test_undo_and_redo_of_recorded_steps_put_the_window_back(win, qtbot, monkeypatch):
    from perceptron_gui.ui import errors

    rec = win.demo_files.recorder
    rec.start()
    n = win.workspace.dataset.n
    win.dispatch(EditData(AddPoints([0.5, 0.5], 1)))
    win.dispatch(Run("step_update"))
    assert rec.step_count == 2 and win.workspace.step_count > 0
    assert not win.actions["undo"].isEnabled()  # the recorder's Ctrl+Z, not the window's
    rec.undo_step()
    assert rec.step_count == 1 and win.workspace.step_count == 0
    rec.undo_step()
    assert rec.step_count == 0 and win.workspace.dataset.n == n
    rec.redo_step()
    assert rec.step_count == 1 and win.workspace.dataset.n == n + 1
    assert rec.draft.steps[0].text == "Add point"
    # a drag's moves are one step
    drag = win.current_drag
    for x in (0.6, 0.7, 0.8):
        win.dispatch(EditData(MovePoints([n], [x, 0.5])))
        assert win.current_drag == drag
    assert rec.step_count == 2
    np.testing.assert_allclose(win.workspace.dataset.X[n], [0.8, 0.5])
    # the timeline dragged is one seek; a spin box stepped is one parameter change
    for step in (3, 5, 2):
        win.dispatch(Seek(step))
    win.dispatch(SetParams({"eta0": 0.5}))
    win.dispatch(SetParams({"eta0": 0.25}))
    assert [s.text for s in rec.draft.steps[2:]] == ["Go to step 2", "Set eta0 = 0.25"]
    rec.undo_step()
    rec.undo_step()
    assert win.workspace.params["eta0"] == 1.0 and rec.step_count == 2
    # discarding asks first; Cancel keeps recording
    B = QtWidgets.QMessageBox.StandardButton
    monkeypatch.setattr(errors, "ask", lambda *a, **k: B.Cancel)
    rec.discard()
    assert rec.recording
    monkeypatch.setattr(errors, "ask", lambda *a, **k: B.Discard)
    rec.discard()
    assert not rec.recording and win.actions["undo"].isEnabled()


def test_a_played_run_is_recorded_where_it_stopped(win, qtbot):
    rec = win.demo_files.recorder
    rec.start()
    win.playback.set_playing(True)
    qtbot.waitUntil(lambda: win.workspace.step_count >= 5, timeout=10000)
    win.playback.stop()
    stopped = win.workspace.step_count
    assert rec.step_count == 1
    assert rec.draft.steps[0].data == {"command": {"command": "seek", "step": stopped}}
    # a play stopped by a step back: the played steps first, then the step back
    win.playback.set_playing(True)
    qtbot.waitUntil(lambda: win.workspace.step_count >= stopped + 3, timeout=10000)
    win.dispatch(Run("step_back"))
    seek = rec.draft.steps[1].data["command"]["step"]
    assert seek >= stopped + 3 and win.workspace.step_count == seek - 1
    assert [s.text for s in rec.draft.steps] == [
        f"Go to step {stopped}", f"Go to step {seek}", "Step back"]


def test_a_run_to_the_end_in_slices_is_one_step(window, qtbot, monkeypatch):
    from perceptron_gui.ui import playback

    monkeypatch.setattr(playback, "RUN_SLICE_SECONDS", 1e-4)  # many slices, loaded or not
    data = generators.generate("overlapping", n=500, seed=1)
    window.workspace.set_dataset(data)  # not separable: runs max_iter epochs
    window.workspace.set_params(max_iter=100)
    rec = window.demo_files.recorder
    rec.start()
    window.dispatch(Run("run_to_end"))
    assert window.playback.running_to_end
    qtbot.waitUntil(lambda: not window.playback.running_to_end, timeout=60000)
    assert window.workspace.step_count == 500 * 100
    assert [s.data for s in rec.draft.steps] == [{"action": "run_to_end"}]
    window.dispatch(Run("step_back"))
    assert [s.text for s in rec.draft.steps] == ["Run to the end", "Step back"]


def test_recording_needs_data_and_no_demo_playing(window, qtbot):
    errors = _errors(window)
    assert not window.demo_files.recorder.start()
    assert errors[-1] == ("Not recording", "Place some points first: a demo starts from data.")
    window.demos.play("margin")
    assert not window.demo_files.recorder.start()
    assert "Stop the demo that plays first" in errors[-1][1]


def test_a_percentage_in_a_caption_is_checked_as_a_percentage(win, qtbot):
    from perceptron_gui.core.demos import CHECKS

    in_percent = [name for name, check in CHECKS.items() if check.percent]
    rec = win.demo_files.recorder
    rec.start()
    box = rec.caption_box
    win.dispatch(Run("step_update"))
    error = win.workspace.readouts().training_error
    assert error == pytest.approx(0.35)
    _type(box, "After 1 update the training error is 35 %")
    assert box.checks() == {"updates": 1, "training_error_percent": 35}
    assert box.mismatches() == []
    combo = _choose(box, "35 %", "training_error_percent")
    offered = [combo.itemData(i) for i in range(1, combo.count())]
    assert sorted(offered) == sorted(in_percent)  # a percentage states only percentages
    assert all(combo.itemText(i).lstrip("✓ ") == CHECKS[combo.itemData(i)].doc
               for i in range(1, combo.count()))  # in words, not the file's names
    win.dispatch(Run("step_update"))
    _type(box, "Now 5.0% of the points are on the wrong side")
    assert box.checks() == {"training_error_percent": 5.0} and box.mismatches() == []
    _type(box, "Now 6.0% of the points are on the wrong side")
    assert box.mismatches() == ["“6.0%” is not the training error now, in percent (now 5.0 %)"]
    _type(box, "Now 5% of the points are on the wrong side")
    errors = _errors(win)
    win.actions["recording_save"].trigger()
    qtbot.waitUntil(lambda: rec.save_dialog is not None or bool(errors), timeout=20000)
    assert errors == [] and rec.save_dialog is not None
    rec.save_dialog.reject()
    assert [s.checks for s in rec.draft.steps] == [
        {"updates": 1, "training_error_percent": 35}, {"training_error_percent": 5}]


def test_an_earlier_caption_is_fixed_in_the_editor_without_undoing_steps(win, qtbot):
    rec = win.demo_files.recorder
    rec.start()
    box = rec.caption_box
    win.dispatch(Run("step_update"))
    _type(box, "After 2 updates")
    _choose(box, "2", "updates")
    win.dispatch(Run("step_update"))
    _type(box, "Two updates: {k}")
    errors = _errors(win)
    win.actions["recording_save"].trigger()
    qtbot.waitUntil(lambda: bool(errors), timeout=20000)
    assert "step 1: updates: expected 2, got 1" in errors[-1][1]
    assert "Edit the captions" in errors[-1][1]
    win.actions["recording_edit"].trigger()
    editor = win.demo_files.editor
    assert not rec.recording and editor is not None and editor.isVisible()
    assert win.workspace.readouts().k == 2  # nothing was undone
    assert [s.caption for s in editor.draft.steps] == ["After 2 updates", "Two updates: {k}"]
    editor.select(1)
    qtbot.waitUntil(lambda: editor.caption_box.mismatches() != [], timeout=20000)
    _type(editor.caption_box, "After 1 updates")
    assert editor.caption_box.checks() == {"updates": 1}
    with qtbot.waitSignal(editor.saved, timeout=30000) as saved:
        editor.save()
    demo = load_demo(saved.args[0].path)
    assert [(s.caption, s.checks) for s in demo.steps] == [
        ("After 1 updates", {"updates": 1}), ("Two updates: {k}", {})]
    editor.close()


def test_the_quantities_menu_inserts_live_placeholders(win, qtbot):
    rec = win.demo_files.recorder
    rec.start()
    win.dispatch(Run("step_update"))
    box = rec.caption_box
    box.menu.aboutToShow.emit()
    texts = [a.text() for a in box.menu.actions()]
    assert texts[0] == "{k}  k, the number of updates (now 1)"
    assert any(t.startswith("{bound}  Novikoff's bound (R/γ)² (now ") for t in texts)
    box.menu.actions()[0].trigger()
    assert box.caption() == "{k}"
    # a typed number matching a quantity is offered first and attached
    _type(box, "k = 1 now")
    assert box.checks() == {"updates": 1} and box.unchecked() == []
    combo = _choose(box, "1", "updates")
    assert combo.count() > 2
    assert not any("_" in combo.itemText(i) for i in range(combo.count()))  # words, not keys
    _type(box, "a stray 123.45")
    assert box.checks() == {} and box.unchecked() == ["123.45"]
    assert _choose(box, "123.45", "").currentText() == NOT_A_QUANTITY


# --------------------------------------------------------------------------- editing


def test_the_editor_edits_a_shipped_demo_into_a_checked_copy(window, qtbot):
    files = window.demo_files
    editor = files.edit_demo("margin")
    demo = load_demo("margin")
    assert editor.steps.count() == len(demo.steps) + 1
    # delete the last step, move step 2 after step 3, undo the move
    editor.select(len(demo.steps))
    editor.delete_step()
    assert len(editor.draft.steps) == len(demo.steps) - 1
    editor.select(2)
    editor.move_step(+1)
    assert editor.draft.steps[2].caption == demo.steps[1].caption
    editor.undo_stack.undo()
    assert editor.draft.steps[1].caption == demo.steps[1].caption
    # a wrong number in a caption: the check names its step; clicking it selects the step
    editor.select(1)
    qtbot.waitUntil(lambda: editor.caption_box.mismatches() == [], timeout=20000)
    first = demo.steps[0].caption
    assert "the run needs 4 updates" in first
    _type(editor.caption_box, first.replace("needs 4 updates", "needs 5 updates"))
    assert _choose(editor.caption_box, "5", "updates").currentData() == "updates"
    with qtbot.waitSignal(editor.checked, timeout=30000) as checked:
        editor.check()
    problems = checked.args[0]
    assert [str(p) for p in problems] == ["step 1: updates: expected 5, got 4"]
    editor.select(3)
    editor.problem_list.itemClicked.emit(editor.problem_list.item(0))
    assert editor.current == 1
    errors = _errors(window)
    editor.save()
    qtbot.waitUntil(lambda: bool(errors), timeout=30000)
    assert errors[-1][0] == "Not saved: fix the problems listed first"
    _type(editor.caption_box, first + " ({k} now)")
    with qtbot.waitSignal(editor.saved, timeout=30000) as saved:
        editor.save()
    entry = saved.args[0]
    assert entry.user and load_demo("margin").steps[0].caption == demo.steps[0].caption
    copy = load_demo(entry.path)
    assert copy.steps[0].caption == first + " ({k} now)"
    assert copy.steps[0].checks["updates"] == 4 and len(copy.steps) == len(demo.steps) - 1
    assert DemoPlayer(Workspace(), copy).run_all() == []
    assert entry.name in window.demos.listing.actions(user=True)
    editor.close()


def test_the_editors_buttons_check_and_save_when_clicked(window, qtbot):
    from PySide6 import QtCore

    editor = window.demo_files.edit_demo("first-updates")
    errors = _errors(window)
    editor.select(1)
    _type(editor.caption_box, editor.draft.steps[0].caption + " Changed.")
    with qtbot.waitSignal(editor.checked, timeout=30000) as checked:
        qtbot.mouseClick(editor.check_button, QtCore.Qt.MouseButton.LeftButton)
    assert checked.args[0] == [] and errors == []
    qtbot.waitUntil(editor.check_button.isEnabled, timeout=5000)
    assert editor.problem_list.item(0).text() == "Every step's claims hold."
    with qtbot.waitSignal(editor.saved, timeout=30000) as saved:
        qtbot.mouseClick(editor.save_button, QtCore.Qt.MouseButton.LeftButton)
    assert load_demo(saved.args[0].path).steps[0].caption.endswith(" Changed.")
    assert errors == []
    editor.close()


def test_the_editor_changes_what_a_step_does(window, qtbot):
    editor = window.demo_files.edit_demo("first-updates")
    editor.select(1)
    index = editor.what.findText("Run to the end")
    editor.what.setCurrentIndex(index)
    editor.what.activated.emit(index)  # as a choice in the list
    assert editor.draft.steps[0].data == {"action": "run_to_end"}
    assert editor.what.currentText() == "Run to the end"
    editor.undo_stack.undo()
    assert editor.draft.steps[0].data == {"action": load_demo("first-updates").steps[0].action}
    editor.close()


# --------------------------------------------------------------------------- sharing


def test_import_export_and_delete_of_a_users_demo(window, qtbot, tmp_path, monkeypatch):
    from perceptron_gui.ui import errors as error_boxes

    files = window.demo_files
    src = load_demo("bias")
    exported_shipped = tmp_path / "from-a-colleague.json"
    exported_shipped.write_text(json.dumps(json.loads(
        (src_path := next(e.path for e in window.demos.library.entries() if e.name == "bias"))
        .read_text(encoding="utf-8"))), encoding="utf-8")
    assert src_path.is_file()
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName",
                        lambda *a, **k: (str(exported_shipped), ""))
    window.actions["import_demo"].trigger()
    mine = [e for e in window.demos.library.entries() if e.user]
    assert [e.title for e in mine] == [src.title]
    assert mine[0].name in window.demos.listing.actions(user=True)
    out = files.export_demo(mine[0].name, path=str(tmp_path / "share.json"))
    assert load_demo(out).title == src.title
    actions = files.entry_actions(files.delete_menu)
    assert list(actions) == [mine[0].name]
    B = QtWidgets.QMessageBox.StandardButton
    monkeypatch.setattr(error_boxes, "ask", lambda *a, **k: B.Yes)
    actions[mine[0].name].trigger()
    assert not [e for e in window.demos.library.entries() if e.user]
    assert mine[0].name not in window.demos.listing.actions(user=True)


def test_a_hostile_demo_file_is_refused_and_nothing_is_written(window, tmp_path):
    errors = _errors(window)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "perceptron-gui-demo", "version": 2, "title": "T", '
                   '"description": "", "data": {"points": [{"x": 1, "y": 1, "label": 1}]}, '
                   '"learner": "primal", "steps": [{"command": {"command": "edit", '
                   '"edit": "delete", "indices": [5]}, "caption": "x"}]}', encoding="utf-8")
    assert window.demo_files.import_demo(str(bad)) is None
    assert errors[-1][0] == "The demo was not imported"
    assert "bad.json: steps[0].command: " in errors[-1][1]
    assert not user_demo_dir().exists() or not list(user_demo_dir().iterdir())


def test_slides_export_from_the_menu(window, qtbot, tmp_path):
    files = window.demo_files
    act = files.entry_actions(files.slides_menu)["first-updates"]
    assert act.text() == load_demo("first-updates").title
    job = files.export_slides("first-updates", folder=str(tmp_path / "slides"))
    with qtbot.waitSignal(job.finished, timeout=60000):
        pass
    names = sorted(p.name for p in (tmp_path / "slides").iterdir())
    n = len(load_demo("first-updates").steps) + 1
    assert names == ["captions.txt"] + [f"slide-{i:02d}.png" for i in range(1, n + 1)] + [
        "slides.html", "slides.md"]
