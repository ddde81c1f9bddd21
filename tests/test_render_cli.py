"""``perceptron-gui render``: headless PNG/SVG/GIF from a workspace file or a demo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from perceptron_gui.app import build_render_parser, main
from perceptron_gui.core import Workspace, generators
from perceptron_gui.core.io import save_workspace
from perceptron_gui.core.text import fmt_short


def _run(*args, timeout=120):
    """The command in a fresh process with no display and no QT_QPA_PLATFORM set."""
    home = tempfile.mkdtemp(prefix="perceptron-gui-render-")
    env = dict(os.environ, XDG_CONFIG_HOME=f"{home}/config", XDG_DATA_HOME=f"{home}/data")
    env.pop("QT_QPA_PLATFORM", None)  # the command must choose "offscreen" itself
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return subprocess.run([sys.executable, "-m", "perceptron_gui", "render", *args],
                          capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture
def ws_file(tmp_path):
    """A workspace file: 30 separable points, the run at its second update."""
    ws = Workspace(dataset=generators.GENERATORS["separable"](n=30, seed=3, margin=0.3))
    ws.step_update()
    ws.step_update()
    path = tmp_path / "ws.json"
    save_workspace(ws, path)
    return path


def _demo_name():
    from perceptron_gui.core import demos

    assert "first-updates" in demos.list_demos()
    return "first-updates", demos.load_demo("first-updates")


def _no_leftovers(folder) -> bool:
    return not [p for p in os.listdir(folder) if p.endswith(".tmp")]


# ------------------------------------------------------------------------- subprocess


def test_png_from_a_workspace_file(ws_file, tmp_path):
    out = tmp_path / "pic.png"
    result = _run(str(ws_file), "-o", str(out), "--steps", "2", "--size", "800x450")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"wrote {out}")
    with Image.open(out) as im:
        im.load()
        assert im.format == "PNG" and im.size == (800, 450)
    assert _no_leftovers(tmp_path)


# ------------------------------------------------------------------------- in process


def _render(capsys, *args):
    code = main(["render", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_gif_from_a_demo(qapp, tmp_path, capsys):
    name, demo = _demo_name()
    out = tmp_path / "demo.gif"
    code, _, err = _render(capsys, name, "-o", str(out), "--steps", "3", "--fps", "2")
    assert code == 0, err
    with Image.open(out) as im:
        assert im.n_frames == 3 and im.size == (640, 480)
        assert im.info["duration"] == 500


def test_unknown_demo_exits_1_with_one_line(qapp, tmp_path, capsys):
    out = tmp_path / "x.png"
    code, _, err = _render(capsys, "no-such-demo", "-o", str(out))
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "unknown demo 'no-such-demo'" in lines[0]
    assert not out.exists()


def test_svg_from_a_workspace_file(qapp, ws_file, tmp_path, capsys):
    out = tmp_path / "pic.svg"
    code, stdout, err = _render(capsys, str(ws_file), "-o", str(out), "--size", "640x480")
    assert code == 0, err
    root = ET.parse(out).getroot()
    assert root.tag.endswith("svg") and (root.get("width"), root.get("height")) == ("640", "480")


def test_gif_from_a_workspace_file_counts_frames_in_the_unit_asked(qapp, ws_file, tmp_path,
                                                                    capsys):
    out = tmp_path / "run.gif"
    code, stdout, err = _render(capsys, str(ws_file), "-o", str(out), "--steps", "5",
                                "--unit", "sample", "--size", "480x360")
    assert code == 0, err
    assert "5 frames" in stdout
    with Image.open(out) as im:
        assert im.n_frames == 5 and im.size == (480, 360)


def test_steps_move_the_picture(qapp, ws_file, tmp_path, capsys):
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    assert _render(capsys, str(ws_file), "-o", str(a), "--size", "480x360")[0] == 0
    assert _render(capsys, str(ws_file), "-o", str(b), "--size", "480x360",
                   "--steps", "3")[0] == 0
    with Image.open(a) as ia, Image.open(b) as ib:
        assert ia.size == ib.size and ia.tobytes() != ib.tobytes()


def test_png_of_a_demo_step(qapp, tmp_path, capsys):
    name, _ = _demo_name()
    out = tmp_path / "d.png"
    code, _, err = _render(capsys, name, "-o", str(out), "--steps", "2", "--size", "640x360")
    assert code == 0, err
    with Image.open(out) as im:
        assert im.size == (640, 360)


@pytest.mark.parametrize("content, fragment", [
    ("{", "ws.json"),  # truncated JSON: the core's FormatError message
    ('{"format": "perceptron-gui-workspace", "version": 99, "points": []}', "version"),
    (b"\x89PNG\r\n\x1a\n", "PNG"),
])
def test_malformed_workspace_file(qapp, tmp_path, capsys, content, fragment):
    src = tmp_path / "ws.json"
    (src.write_bytes if isinstance(content, bytes) else src.write_text)(content)
    out = tmp_path / "x.png"
    code, _, err = _render(capsys, str(src), "-o", str(out))
    assert code == 1
    assert len(err.strip().splitlines()) == 1 and fragment in err
    assert not out.exists() and _no_leftovers(tmp_path)


def test_missing_file(qapp, tmp_path, capsys):
    code, _, err = _render(capsys, str(tmp_path / "nope.json"), "-o", str(tmp_path / "x.png"))
    assert code == 1 and "No such file" in err and err.count("nope.json") == 1


def test_output_folder_missing(qapp, ws_file, tmp_path, capsys):
    out = tmp_path / "no" / "such" / "x.png"
    code, _, err = _render(capsys, str(ws_file), "-o", str(out))
    assert code == 1 and "does not exist" in err and not out.exists()


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root may write anywhere")
def test_output_folder_not_writable(qapp, ws_file, tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, _, err = _render(capsys, str(ws_file), "-o", str(locked / "x.png"))
    finally:
        locked.chmod(0o700)
    assert code == 1 and "permission denied" in err


@pytest.mark.parametrize("out, fragment", [("x.bmp", "unknown output type '.bmp'"),
                                           ("x", "unknown output type '(none)'")])
def test_unknown_extension(ws_file, tmp_path, capsys, out, fragment):
    code, _, err = _render(capsys, str(ws_file), "-o", str(tmp_path / out))
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("size", ["800", "800x", "0x600", "axb", "99999x10"])
def test_bad_size(ws_file, tmp_path, capsys, size):
    code, _, err = _render(capsys, str(ws_file), "-o", str(tmp_path / "x.png"), "--size", size)
    assert code == 2 and "bad size" in err and not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("out, steps", [("x.png", "-1"), ("x.gif", "0")])
def test_bad_steps(ws_file, tmp_path, capsys, out, steps):
    code, _, err = _render(capsys, str(ws_file), "-o", str(tmp_path / out), "--steps", steps)
    assert code == 2 and "--steps" in err and not (tmp_path / out).exists()


def test_an_existing_output_survives_a_failure(qapp, tmp_path, capsys):
    out = tmp_path / "keep.png"
    out.write_bytes(b"previous picture")
    code, _, _ = _render(capsys, "no-such-demo", "-o", str(out))
    assert code == 1 and out.read_bytes() == b"previous picture"


def test_render_is_not_the_file_argument(tmp_path, capsys):
    """``perceptron-gui render --help`` is the subcommand's help, not a file to open."""
    with pytest.raises(SystemExit) as exc:
        main(["render", "--help"])
    assert exc.value.code == 0
    assert "--steps" in capsys.readouterr().out


# ------------------------------------------------------------------------- hostile demos


def _demo_file(folder, steps, data=None, params=None, version=1):
    doc = {"format": "perceptron-gui-demo", "version": version, "title": "T", "description": "D",
           "data": data or {"points": [{"x": 3, "y": 1, "label": 1},
                                       {"x": -1, "y": -2, "label": -1}]},
           "learner": "primal", "params": params or {}, "steps": steps}
    path = folder / "claims.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize("out, steps", [("x.png", "2"), ("x.gif", "3")])  # a GIF: frames
def test_a_failed_check_of_a_demo_fails_the_render(qapp, tmp_path, capsys, out, steps):
    src = _demo_file(tmp_path, [{"action": "step", "caption": "one", "checks": {"updates": 1}},
                                {"action": "step", "caption": "two", "checks": {"updates": 7}}])
    target = tmp_path / out
    code, _, err = _render(capsys, str(src), "-o", str(target), "--steps", steps)
    assert code == 1
    lines = err.strip().splitlines()
    assert lines == ["perceptron-gui render: claims.json: a check failed at step 2 (step): "
                     "updates: expected 7, got 1"]
    assert not target.exists() and _no_leftovers(tmp_path)


def test_a_demo_check_that_holds_renders(qapp, tmp_path, capsys):
    src = _demo_file(tmp_path, [{"action": "step", "caption": "one", "checks": {"updates": 1}}])
    code, out, err = _render(capsys, str(src), "-o", str(tmp_path / "x.png"), "--steps", "1")
    assert code == 0 and out.startswith("wrote") and not err


@pytest.mark.parametrize("out", ["x.png", "x.gif"])
@pytest.mark.parametrize("step, what", [
    ({"action": "run_to_end"}, "run_to_end"),
    ({"command": {"command": "seek", "step": 200_000}}, "seek to step 200,000")])
def test_a_demo_run_past_the_step_budget_is_refused(qapp, tmp_path, capsys, monkeypatch, out,
                                                    step, what):
    from perceptron_gui.ui.features.export import headless

    monkeypatch.setattr(headless, "RENDER_STEP_BUDGET", 5_000)
    src = _demo_file(tmp_path, [{**step, "caption": "to the end"}],
                     data={"generator": "xor", "n": 200, "seed": 1},
                     params={"primal": {"max_iter": 1000}}, version=2)
    code, _, err = _render(capsys, str(src), "-o", str(tmp_path / out), "--steps", "2")
    assert code == 1
    assert err.strip() == (f"perceptron-gui render: claims.json: steps[0] ({what}): the run "
                           "needs more than 5,000 steps, the most this computes; play the demo "
                           "in the window instead")
    assert not (tmp_path / out).exists()


def test_a_position_too_far_to_recompute_is_not_rendered(qapp, ws_file, tmp_path, capsys,
                                                         monkeypatch):
    # the file opens at the start of its run (see runstep): a picture of step 0 would
    # not be the stored position, so render says so and writes nothing
    from perceptron_gui.core.io import runstep

    monkeypatch.setattr(runstep, "RESTORE_SECONDS", 1e-12)
    out = tmp_path / "x.png"
    code, _, err = _render(capsys, str(ws_file), "-o", str(out))
    assert code == 1 and not out.exists()
    # the time budget as core.text writes a short quantity: 10⁻¹² s here
    assert ("its stored run position could take more than "
            f"{fmt_short(1e-12)} s to recompute") in err
    assert len(err.strip().splitlines()) == 1


# ------------------------------------------------------------------------- slides


def test_a_user_demo_file_renders_to_slides_with_its_filled_captions(qapp, tmp_path, capsys):
    """A recorded (version 2) demo: command steps and placeholders, as slides."""
    from perceptron_gui.core import demos
    from perceptron_gui.core.commands import Run, Seek
    from perceptron_gui.core.demos.draft import DemoDraft
    from perceptron_gui.core.demos.library import DemoLibrary

    ws = Workspace(dataset=generators.GENERATORS["separable"](n=20, seed=6))
    draft = DemoDraft.from_workspace(ws, title="Three updates")
    for command in (Run("step_update"), Run("step_update"), Run("step_update"), Seek(1)):
        command.execute(ws)
        draft.record(command)
    draft.set_caption(3, "After {k} updates, w = {w}")
    draft.set_caption(4, "Back at step 1")
    entry = DemoLibrary(tmp_path / "mine").save(draft)
    out = tmp_path / "slides"
    code, text, err = _render(capsys, str(entry.path), "-o", f"{out}/", "--size", "640x480")
    assert code == 0, err
    assert text.startswith(f"wrote 5 slides to {out}/")
    names = sorted(p.name for p in out.iterdir())
    assert names == ["captions.txt", "slide-01.png", "slide-02.png", "slide-03.png",
                     "slide-04.png", "slide-05.png", "slides.html", "slides.md"]
    with Image.open(out / "slide-04.png") as im:
        assert im.size == (640, 480)
    player = demos.DemoPlayer(Workspace(), demos.load_demo(entry.path))
    player.goto(3)
    captions = (out / "captions.txt").read_text(encoding="utf-8").splitlines()
    assert captions[3] == player.caption and "{k}" not in captions[3]
    assert captions[3].startswith(f"After {player.workspace.readouts().k} updates, w = (")
    md = (out / "slides.md").read_text(encoding="utf-8")
    assert "![Slide 4](slide-04.png)" in md and captions[3] in md
    html = (out / "slides.html").read_text(encoding="utf-8")
    assert '<img src="slide-05.png" alt="Slide 5">' in html and "Back at step 1" in html


def test_slides_of_a_demo_whose_check_fails_write_nothing(qapp, tmp_path, capsys):
    src = _demo_file(tmp_path, [{"action": "step", "caption": "one", "checks": {"updates": 1}},
                                {"action": "step", "caption": "two", "checks": {"updates": 7}}])
    out = tmp_path / "slides"
    code, _, err = _render(capsys, str(src), "-o", f"{out}/")
    assert code == 1
    assert "a check failed at step 2 (step): updates: expected 7, got 1" in err
    assert not out.exists() or not list(out.iterdir())


def test_slides_need_a_demo(qapp, ws_file, tmp_path, capsys):
    code, _, err = _render(capsys, str(ws_file), "-o", f"{tmp_path}/slides/")
    assert code == 1 and "a folder takes a demo's slides" in err


def _help_default(kind: str) -> tuple[int, int]:
    """The default size ``render --help`` states for ``kind`` ("PNG" or "GIF")."""
    import re

    text = " ".join(build_render_parser().format_help().split())
    sizes = {kind_: size for size, kind_ in re.findall(r"(\d+x\d+) for an? (PNG|GIF)", text)}
    assert kind in sizes, text
    w, h = sizes[kind].split("x")
    return int(w), int(h)


def test_slides_and_pictures_come_at_the_size_help_states(qapp, tmp_path, capsys):
    """Without --size, a PNG and a demo's slides are the size ``--help`` names."""
    import re

    text = " ".join(build_render_parser().format_help().split())
    assert re.search(r"default (\d+x\d+) for a PNG, an SVG or slides", text), text
    png = _help_default("PNG")
    name, demo = _demo_name()
    out = tmp_path / "slides"
    code, _, err = _render(capsys, name, "-o", f"{out}/", "--steps", "2")
    assert code == 0, err
    with Image.open(out / "slide-02.png") as im:
        assert im.size == png
    picture = tmp_path / "d.png"
    assert _render(capsys, name, "-o", str(picture))[0] == 0
    with Image.open(picture) as im:
        assert im.size == png


def test_a_gif_comes_at_the_size_help_states(qapp, tmp_path, capsys):
    name, _ = _demo_name()
    out = tmp_path / "d.gif"
    code, _, err = _render(capsys, name, "-o", str(out), "--steps", "1")
    assert code == 0, err
    with Image.open(out) as im:
        assert im.size == _help_default("GIF")


def test_each_slide_s_footer_numbers_it_as_slides_md_does(qapp, tmp_path, capsys, monkeypatch):
    """Issue 33: slide-02.png was "## 2" in slides.md but "1 / 3" in its footer."""
    from perceptron_gui.ui.features.export import animation

    footers = []
    compose = animation.compose_frame

    def recording(image, caption, counter, *args):
        footers.append(counter)
        return compose(image, caption, counter, *args)

    monkeypatch.setattr(animation, "compose_frame", recording)
    out = tmp_path / "slides"
    code, _text, err = _render(capsys, "first-updates", "-o", f"{out}/", "--size", "640x480")
    assert code == 0, err
    md = (out / "slides.md").read_text(encoding="utf-8")
    names = sorted(p.name for p in out.glob("slide-*.png"))
    assert len(footers) == len(names) >= 3
    for i, (name, footer) in enumerate(zip(names, footers, strict=True), 1):
        assert f"## {i}\n\n![Slide {i}]({name})" in md
        assert footer == f"{i} / {len(names)}", (name, footer)


def test_presenter_slides_with_views_show_every_caption_whole(qapp, tmp_path, capsys,
                                                               monkeypatch):
    """Issue 33: ``render --views --presenter`` at the default size cut the captions to
    "…" (and drew the views at presenter sizes in a third of 640 px): the strip's type is
    fitted to the longest caption, the views' to their pane, as in the window."""
    from perceptron_gui.ui import style
    from perceptron_gui.ui.features.export import frames, views

    shown, scales = [], []
    fit = frames._fit_lines

    def recording(text, *args):
        out = fit(text, *args)
        shown.append((text, out))
        return out

    made = views.ViewsRenderer.__init__

    def init(self, *args, scale=None, **kwargs):
        scales.append(scale)
        made(self, *args, scale=scale, **kwargs)

    monkeypatch.setattr(frames, "_fit_lines", recording)
    monkeypatch.setattr(views.ViewsRenderer, "__init__", init)
    out = tmp_path / "slides"
    code, _text, err = _render(capsys, "novikoff-proof", "-o", f"{out}/", "--views",
                               "--presenter")
    assert code == 0, err
    assert len(shown) >= 3
    assert [out for _text, out in shown] == [text for text, _out in shown]  # none cut
    assert scales and all(s.font_pt < style.PRESENTER.font_pt for s in scales)


@pytest.mark.parametrize("name", ["three-classes-lda", "three-classes-qda"])
def test_a_demo_of_three_classes_renders_its_three_regions(qapp, tmp_path, capsys, name):
    """Every check of the steps rendered holds, and each class's tint fills part of the
    picture (rendered in the light scheme, as a PNG is)."""
    import numpy as np

    from perceptron_gui.ui import style
    from perceptron_gui.ui.widgets.canvas.layers.draw import over_background

    out = tmp_path / "three.png"
    code, _, err = _render(capsys, name, "-o", str(out), "--steps", "2", "--size", "800x600")
    assert code == 0, err
    with Image.open(out) as im:
        pixels = np.asarray(im.convert("RGB")).reshape(-1, 3)
    with style.using(style.LIGHT) as pal:
        alpha = pal.pos_region[3]
        tints = [over_background((*_rgb(c), alpha))[:3] for c in pal.class_colors[:3]]
    shares = [float(np.mean((pixels == t).all(axis=1))) for t in tints]
    assert all(share > 0.02 for share in shares), shares


def _rgb(color) -> tuple[int, int, int]:
    import pyqtgraph as pg

    c = pg.mkColor(color)
    return c.red(), c.green(), c.blue()


def test_an_svg_draws_the_colour_bar_where_the_png_does(qapp, tmp_path, capsys):
    """The bar's levels were an image the SVG placed without the bar's offset (and its frame
    with them): the bar went missing in a browser's rendering."""
    import numpy as np
    from PySide6 import QtGui, QtSvg

    png, svg = tmp_path / "a.png", tmp_path / "a.svg"
    for out in (png, svg):
        code, _, err = _render(capsys, "lda-vs-qda", "-o", str(out), "--size", "960x720")
        assert code == 0, err
    renderer = QtSvg.QSvgRenderer(str(svg))
    image = QtGui.QImage(960, 720, QtGui.QImage.Format.Format_RGB32)
    image.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(image)
    renderer.render(painter)
    painter.end()
    drawn = np.array([[image.pixelColor(x, y).getRgb()[:3] for x in range(960)]
                      for y in range(720)], dtype=float)
    with Image.open(png) as im:
        want = np.asarray(im.convert("RGB"), dtype=float)

    def frame_columns(rgb) -> set:
        """The columns of the right half with a long dark run: the bar's frame's sides."""
        dark = rgb.sum(axis=2) < 500  # the foreground, or half of it (a line between pixels)
        return {int(x) for x in np.flatnonzero(dark[:, 480:].sum(axis=0) >= 100) + 480}

    sides = frame_columns(want)
    assert len(sides) >= 2  # the PNG's bar: its two sides
    found = frame_columns(drawn)
    assert all(min(abs(x - y) for y in found) <= 1 for x in sides), (sides, found)


def test_the_x_axis_title_is_whole_at_the_picture_s_bottom(qapp, tmp_path, capsys):
    """pyqtgraph put the title 5 px below its axis: a PNG's edge cut p, g and _ off."""
    import numpy as np

    out = tmp_path / "t.png"
    code, _, err = _render(capsys, "three-classes-lda", "-o", str(out), "--size", "960x720")
    assert code == 0, err
    with Image.open(out) as im:
        rgb = np.asarray(im.convert("RGB"), dtype=int)
    dark = rgb.sum(axis=2) < 450  # text
    rows = np.flatnonzero(dark[:, 300:700].any(axis=1))  # the title's columns
    assert rows.size and rows.max() <= 717  # its lowest ink clear of the last row
    assert not dark[-1, 300:700].any() and not dark[-2, 300:700].any()
