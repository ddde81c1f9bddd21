"""Export: canvas PNG/SVG at a chosen size, window PNG, run and demo GIFs, cancel, atomicity."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PIL import Image
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core import Workspace, generators
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.ui import style
from perceptron_gui.ui.features import export
from perceptron_gui.ui.features.export import animation, dialogs, frames, svg


def _leftovers(folder) -> list[str]:
    """Temporary files an interrupted write would leave."""
    return [p for p in os.listdir(folder) if p.endswith(".tmp")]


def _count_color(image: QtGui.QImage, color: str, tol: int = 12) -> int:
    """Pixels within ``tol`` of ``color`` in an RGB32 image."""
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    a = np.frombuffer(bytes(image.constBits()), np.uint8)[: image.bytesPerLine()
                                                            * image.height()]
    a = a.reshape(image.height(), image.bytesPerLine() // 4, 4)[:, : image.width(), :3]
    c = QtGui.QColor(color)
    bgr = np.array([c.blue(), c.green(), c.red()])
    return int(np.sum(np.all(np.abs(a.astype(int) - bgr) <= tol, axis=2)))


@pytest.fixture
def ready(window, qtbot):
    """The window with 30 separable points and 3 updates made."""
    data = generators.GENERATORS["separable"](n=30, seed=3, margin=0.3)
    window.push_edit(ReplaceAll.from_dataset(data))
    for _ in range(3):
        window.workspace.step_update()
    window.canvas.fit_view()
    qtbot.wait(10)
    return window


@pytest.fixture
def moves(ready):
    """Counts run_changed / dataset_changed emissions of the window's workspace."""
    counts = {"run": 0, "data": 0}
    ws = ready.workspace

    def on_run(*_):
        counts["run"] += 1

    def on_data(*_):
        counts["data"] += 1

    ws.events.run_changed.connect(on_run)
    ws.events.dataset_changed.connect(on_data)
    yield counts
    ws.events.run_changed.disconnect(on_run)
    ws.events.dataset_changed.disconnect(on_data)


# ------------------------------------------------------------------------- pictures


def test_canvas_png_has_the_size_asked_for_and_shows_the_points(ready, tmp_path):
    path = tmp_path / "canvas.png"
    assert ready.exporter.export_canvas(path, (1280, 720), fmt="png") == str(path)
    image = QtGui.QImage(str(path))
    assert not image.isNull() and (image.width(), image.height()) == (1280, 720)
    # blue circles and vermilion squares were drawn; the visible window is untouched
    assert _count_color(image, style.current().pos_color) > 200
    assert _count_color(image, style.current().neg_color) > 200
    assert _leftovers(tmp_path) == []


def test_canvas_png_follows_the_layers_shown(ready, tmp_path):
    ready.canvas.set_visible_layers(weight=False)
    ready.exporter.export_canvas(tmp_path / "off.png", (640, 480))
    ready.canvas.set_visible_layers(weight=True)
    ready.exporter.export_canvas(tmp_path / "on.png", (640, 480))
    green = style.current().weight_color
    green_off = _count_color(QtGui.QImage(str(tmp_path / "off.png")), green, 30)
    green_on = _count_color(QtGui.QImage(str(tmp_path / "on.png")), green, 30)
    assert green_on > green_off + 50


def test_canvas_svg_is_xml_with_the_size_and_renders(ready, tmp_path):
    path = tmp_path / "canvas.svg"
    ready.exporter.export_canvas(path, (800, 600), fmt="svg")
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    assert (root.get("width"), root.get("height")) == ("800", "600")
    text = path.read_text("utf-8")
    assert "clipPath" in text and "<circle" not in text  # circles baked into paths
    assert style.current().pos_color.lower() in text.lower()
    from PySide6 import QtSvg

    renderer = QtSvg.QSvgRenderer(str(path))
    assert renderer.isValid() and renderer.defaultSize() == QtCore.QSize(800, 600)
    image = QtGui.QImage(800, 600, QtGui.QImage.Format.Format_RGB32)
    image.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(image)
    renderer.render(painter)
    painter.end()
    assert _count_color(image, style.current().pos_color) > 100


def test_svg_closed_paths_become_lines_to_the_start():
    d = "M0,0 L10,0 L10,5 Z M20,20 L30,20 Z "
    assert svg.close_subpaths(d) == "M0,0 L10,0 L10,5 L0,0 M20,20 L30,20 L20,20"


def test_window_png_is_the_window(ready, tmp_path):
    path = tmp_path / "window.png"
    assert ready.exporter.export_window(path) == str(path)
    image = QtGui.QImage(str(path))
    ratio = ready.devicePixelRatioF()
    assert (image.width(), image.height()) == (round(ready.width() * ratio),
                                               round(ready.height() * ratio))


def test_the_menu_action_asks_size_then_file(ready, tmp_path, monkeypatch):
    path = tmp_path / "picked"  # no extension: .png is added

    def fake_exec(dialog):
        assert dialog.width_box.value() == ready.canvas.width()  # defaults to the canvas
        dialog.preset.setCurrentText("1280 × 720")
        return QtWidgets.QDialog.DialogCode.Accepted

    monkeypatch.setattr(dialogs.SizeDialog, "exec", fake_exec)
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    menu = ready.exporter.menu
    assert menu.objectName() == "menuExport"
    assert menu.menuAction() in ready.menus["file"].actions()
    assert ready.exporter.actionCanvasPng in menu.actions()
    ready.exporter.actionCanvasPng.trigger()
    image = QtGui.QImage(str(path) + ".png")
    assert (image.width(), image.height()) == (1280, 720)


def test_cancelling_the_size_dialog_writes_nothing(ready, tmp_path, monkeypatch):
    monkeypatch.setattr(dialogs.SizeDialog, "exec",
                        lambda d: QtWidgets.QDialog.DialogCode.Rejected)
    asked = []
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: asked.append(1) or ("", "")))
    ready.exporter.actionCanvasSvg.trigger()
    assert asked == []
    assert not [p for p in tmp_path.rglob("*") if p.suffix in (".svg", ".png", ".tmp")]


def test_size_dialog_presets_and_custom(qtbot):
    dialog = dialogs.SizeDialog((500, 400))
    qtbot.addWidget(dialog)
    assert dialog.chosen_size() == (500, 400) and dialog.preset.currentIndex() == 0
    dialog.preset.setCurrentText("1920 × 1080")
    assert dialog.chosen_size() == (1920, 1080)
    dialog.width_box.setValue(1000)
    assert dialog.preset.currentText() == "Custom"
    dialog.height_box.setValue(400)
    dialog.width_box.setValue(500)
    assert dialog.preset.currentIndex() == 0  # back to the canvas size
    assert dialog.chosen_scale() == style.NORMAL
    dialog.presenter_box.setChecked(True)
    assert dialog.chosen_scale() == style.PRESENTER


@pytest.mark.parametrize("text, expected", [("800x600", (800, 600)), (" 640 × 480 ", (640, 480)),
                                            ("1920X1080", (1920, 1080))])
def test_parse_size(text, expected):
    assert export.parse_size(text) == expected


@pytest.mark.parametrize("text", ["800", "x600", "800x", "axb", "0x10", "10x99999", "1x2x3"])
def test_parse_size_rejects(text):
    with pytest.raises(export.ExportError, match="bad size"):
        export.parse_size(text)


def test_a_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "a.png"
    path.write_bytes(b"old")

    def broken(*_a):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(export.ExportError, match="No space left"):
        export.write_file(path, b"new")
    assert path.read_bytes() == b"old" and _leftovers(tmp_path) == []


def test_unwritable_targets_are_reported(tmp_path):
    with pytest.raises(export.ExportError, match="does not exist"):
        export.check_writable(tmp_path / "missing" / "a.png")
    with pytest.raises(export.ExportError, match="is a folder"):
        export.check_writable(tmp_path)


# ------------------------------------------------------------------------- GIFs


def test_run_gif_has_the_frames_and_size_and_leaves_the_run_alone(ready, moves, tmp_path):
    ws = ready.workspace
    step, data = ws.step_count, ws.dataset
    path = tmp_path / "run.gif"
    assert ready.exporter.export_gif(path, size=(480, 320), frames=6, unit="sample",
                                     fps=5) == str(path)
    with Image.open(path) as im:
        assert im.n_frames == 6 and im.size == (480, 320)
        assert im.info["duration"] == 200 and im.info["loop"] == 0
    assert ws.step_count == step and ws.dataset is data
    assert moves == {"run": 0, "data": 0}  # rendered on a copy: the window never moved
    assert ready.exporter.last_result.frames == 6
    assert _leftovers(tmp_path) == []


def test_run_gif_from_the_start_by_updates_stops_at_the_end(ready, tmp_path):
    path = tmp_path / "run.gif"
    result = animation.render_run_gif(ready.workspace, path, frames=500, size=(480, 320),
                                   from_start=True, unit="update")
    learner = Workspace(dataset=ready.workspace.dataset)
    learner.run_to_end()
    updates = learner.learner.n_updates_
    # the start, one frame per update, and the end of the run (the clean last epoch)
    assert result.frames == updates + 2
    assert result.notes and "ended" in result.notes[0]
    with Image.open(path) as im:
        assert im.n_frames == updates + 2


def test_gif_frames_keep_the_style_colours(ready, tmp_path):
    path = tmp_path / "run.gif"
    animation.render_run_gif(ready.workspace, path, frames=3, size=(480, 320))
    with Image.open(path) as im:
        im.seek(2)
        frame = im.convert("RGB")
    frame.save(tmp_path / "frame.png")
    image = QtGui.QImage(str(tmp_path / "frame.png"))
    assert _count_color(image, style.current().pos_color, 6) > 200
    assert _count_color(image, style.current().neg_color, 6) > 200
    assert _count_color(image, style.current().weight_color, 6) > 30


def test_cancelling_a_gif_writes_nothing_and_keeps_the_workspace(ready, moves, tmp_path,
                                                                 qtbot):
    ws = ready.workspace
    step, data = ws.step_count, ws.dataset
    seen = []

    def on_frame(done, total):
        seen.append(done)
        if done == 3:
            ready.exporter.progress_dialog.cancel()

    ready.exporter.frameRendered.connect(on_frame)
    path = tmp_path / "cancelled.gif"
    assert ready.exporter.export_gif(path, size=(480, 320), frames=20, unit="sample") is None
    assert seen == [1, 2, 3]
    assert not path.exists() and _leftovers(tmp_path) == []
    assert ws.step_count == step and ws.dataset is data and moves == {"run": 0, "data": 0}
    assert ready.exporter.progress_dialog is None


def test_a_gif_export_pauses_playback_first(ready, tmp_path):
    ready.playback.set_playing(True)
    assert ready.actionPlay.isChecked()
    ready.exporter.export_gif(tmp_path / "p.gif", size=(480, 320), frames=2)
    assert not ready.actionPlay.isChecked()
    assert (tmp_path / "p.gif").exists()


def test_random_order_without_a_seed_replays_on_the_workspace_and_restores(tmp_path, qapp):
    ws = Workspace(dataset=generators.GENERATORS["separable"](n=20, seed=1, margin=0.3))
    ws.set_params(order="random", random_state=None)
    ws.step()
    ws.step()
    assert not animation.can_clone(ws)
    before = (ws.step_count, ws.learner.coef_.copy())
    animation.render_run_gif(ws, tmp_path / "r.gif", frames=4, unit="sample", size=(480, 320))
    assert ws.step_count == before[0]
    np.testing.assert_array_equal(ws.learner.coef_, before[1])


def test_lda_has_no_run_to_animate(tmp_path, qapp):
    ws = Workspace(dataset=generators.GENERATORS["blobs"](n=20, seed=1), learner="lda")
    with pytest.raises(export.ExportError, match="nothing to animate") as info:
        animation.render_run_gif(ws, tmp_path / "x.gif", frames=3)
    assert str(info.value) == (
        "nothing to animate: LDA is fitted at once, from the class means and the pooled "
        "covariance: there is no run to step through or plot. Choose a learner that steps: "
        "Primal perceptron, Dual perceptron or Multiclass perceptron.")
    assert not (tmp_path / "x.gif").exists()


def test_gif_writer_merges_nothing_and_keeps_exact_colours(tmp_path, qapp):
    writer = frames.GifWriter(fps=10)
    p = style.current()
    for color in (p.pos_color, p.neg_color, p.pos_color, "#ffffff"):
        image = QtGui.QImage(40, 30, QtGui.QImage.Format.Format_RGB32)
        image.fill(QtGui.QColor(color))
        writer.add(image)
    (tmp_path / "w.gif").write_bytes(writer.encode())
    with Image.open(tmp_path / "w.gif") as im:
        assert im.n_frames == 4
        colours = []
        for i in range(4):
            im.seek(i)
            colours.append(im.convert("RGB").getpixel((20, 15)))
    expected = [QtGui.QColor(c).getRgb()[:3]
                for c in (p.pos_color, p.neg_color, p.pos_color, "#ffffff")]
    assert colours == [tuple(c) for c in expected]
    with pytest.raises(export.ExportError, match="differs"):
        writer.add(QtGui.QImage(10, 10, QtGui.QImage.Format.Format_RGB32))


def _a_demo():
    from perceptron_gui.core import demos
    names = demos.list_demos()
    assert names, f"no demos found in {demos.DEMO_DIR}"
    name = "first-updates" if "first-updates" in names else names[0]
    return demos, name, demos.load_demo(name)


def test_demo_gif_has_one_frame_per_step(ready, moves, tmp_path):
    demos, name, demo = _a_demo()
    path = tmp_path / "demo.gif"
    assert ready.exporter.export_gif(path, source=f"demo:{name}", size=(480, 360),
                                     fps=0.5) == str(path)
    with Image.open(path) as im:
        assert im.n_frames == len(demo.steps) + 1 and im.size == (480, 360)
        assert im.info["duration"] == 2000
    assert moves == {"run": 0, "data": 0}  # the window's workspace never moved


def test_demo_gif_limited_frames_and_captions_differ(tmp_path, qapp):
    demos, name, demo = _a_demo()
    path = tmp_path / "demo.gif"
    result = animation.render_demo_gif(name, path, frames=3, size=(480, 360))
    assert result.frames == 3
    with Image.open(path) as im:
        assert im.n_frames == 3
        strips = []
        for i in range(3):
            im.seek(i)
            rgb = im.convert("RGB")
            strips.append(rgb.crop((0, rgb.size[1] - 40, rgb.size[0], rgb.size[1])).tobytes())
    assert len(set(strips)) == 3  # each frame has its own caption and counter


def test_unknown_demo_is_an_export_error(tmp_path, qapp):
    _a_demo()
    with pytest.raises(export.ExportError, match="unknown demo"):
        animation.render_demo_gif("no-such-demo", tmp_path / "d.gif")
    assert not (tmp_path / "d.gif").exists()


def test_the_gif_menu_entry_offers_the_run_and_every_demo(ready, monkeypatch):
    """File ▸ Export ▸ GIF opens its dialog with the run and each shipped demo."""
    from perceptron_gui.core import demos
    from perceptron_gui.ui.features.export import dialogs

    seen = []

    def answer(dialog):  # the user looks at the choices and cancels
        seen.extend(dialog.source.itemData(i) for i in range(dialog.source.count()))
        return QtWidgets.QDialog.DialogCode.Rejected

    monkeypatch.setattr(dialogs.GifDialog, "exec", answer)
    ready.exporter.actionGif.trigger()
    assert seen == ["run"] + [f"demo:{name}" for name in demos.list_demos()]


def test_the_gif_dialog_replays_a_finished_run_from_the_start_and_names_demos(
        ready, monkeypatch, tmp_path):
    """Its defaults make an animation of the run up to now, not one frame of its end."""
    from perceptron_gui.core import demos
    from perceptron_gui.ui.features.export import dialogs

    ws = ready.workspace
    ws.run_to_end()
    updates = ws.current_event.k
    assert ws.finished and updates > 1
    seen = {}

    def accept(dialog):  # the user takes the defaults
        seen["texts"] = [dialog.source.itemText(i) for i in range(dialog.source.count())]
        seen["defaults"] = (dialog.from_start.isChecked(), dialog.unit.currentData(),
                            dialog.frames.value())
        dialog.width_box.setValue(320)
        dialog.height_box.setValue(240)
        return QtWidgets.QDialog.DialogCode.Accepted

    monkeypatch.setattr(dialogs.GifDialog, "exec", accept)
    path = tmp_path / "run.gif"
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(path), ""))
    assert ready.exporter.ask_gif() == str(path)
    assert seen["defaults"] == (True, "update", updates + 1)
    titles = [f"Demo: {demos.load_demo(name).title}" for name in demos.list_demos()]
    assert seen["texts"] == ["The run", *titles]
    assert not any(text.startswith("Demo: lda") for text in seen["texts"])
    result = ready.exporter.last_result
    assert result.frames == updates + 1 and result.notes == []
    assert ws.finished and ws.current_event.k == updates  # the window's run stays at its end


@pytest.mark.parametrize(("event", "expected"), [
    (None, (False, "update", animation.DEFAULT_RUN_FRAMES)),  # at the start: the next updates
    ({"k": 0, "step": 7, "epoch": 0}, (True, "sample", 8)),  # no update yet: the samples
    ({"k": 12, "step": 40, "epoch": 1}, (True, "update", 13)),  # w = 0 and each update
    ({"k": 5000, "step": 9000, "epoch": 30}, (True, "epoch", 32)),  # too many: by epoch
    ({"k": 10**6, "step": 10**7, "epoch": 10**5}, (True, "update", animation.MAX_FRAMES)),
])
def test_replay_defaults_reach_the_current_step(event, expected):
    from types import SimpleNamespace

    ws = SimpleNamespace(running=True,
                         current_event=None if event is None else SimpleNamespace(**event))
    assert animation.replay_defaults(ws) == expected
