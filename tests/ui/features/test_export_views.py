"""The views beside the canvas in the exports: the window's PNG, ``render`` of a demo, the dialog.

The weight-space pane of an export is compared with the view on screen
(``view.grab()``), and the slides of the weight-space demo with the view
drawn for each step's workspace: both panes are there, side by side.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtGui

from perceptron_gui import app
from perceptron_gui.core import Workspace, generators
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.core.demos import DemoPlayer, load_demo
from perceptron_gui.ui import style
from perceptron_gui.ui.features.export import ExportError, dialogs
from perceptron_gui.ui.features.export.views import (
    VIEWS_SHARE,
    ViewsRenderer,
    beside,
    check_views,
    side_height,
    split,
)


def _rgb(image: QtGui.QImage) -> np.ndarray:
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    a = np.frombuffer(bytes(image.constBits()), np.uint8)[: image.bytesPerLine() * image.height()]
    a = a.reshape(image.height(), image.bytesPerLine() // 4, 4)[:, : image.width(), :3]
    return a[:, :, ::-1].astype(int)


def _colour_count(a: np.ndarray, color, tol: int = 40) -> int:
    c = QtGui.QColor(color)
    return int((np.abs(a - np.array([c.red(), c.green(), c.blue()])).max(axis=2) <= tol).sum())


def test_split_and_beside_and_the_names():
    assert split(1000, 0) == (1000, 0)
    assert split(1000, 1) == (1000 - round(1000 * VIEWS_SHARE), round(1000 * VIEWS_SHARE))
    assert split(800, 1, 0.25) == (600, 200)

    class Shown:  # a view on screen, 300 × 450
        def width(self):
            return 300

        def height(self):
            return 450

    assert side_height(None, 200, 500) == 500
    assert side_height({"weights": Shown()}, 200, 500) == 300  # the screen's shape
    assert side_height({"weights": Shown()}, 400, 500) == 500  # never taller than the picture
    with pytest.raises(ExportError, match="too narrow"):
        split(30, 1)
    with pytest.raises(ExportError, match="unknown view 'nope'"):
        check_views(["weights", "nope"])
    with pytest.raises(ExportError, match="named twice"):
        check_views(["weights", "weights"])
    left = QtGui.QImage(30, 20, QtGui.QImage.Format.Format_RGB32)
    left.fill(QtGui.QColor("white"))
    right = QtGui.QImage(10, 25, QtGui.QImage.Format.Format_RGB32)
    right.fill(QtGui.QColor("red"))
    out = beside(left, right)
    assert (out.width(), out.height()) == (40, 25)
    assert out.pixelColor(35, 5) == QtGui.QColor("red")
    assert out.pixelColor(5, 22) == QtGui.QColor("white")  # under the shorter left: its colour
    assert beside(left, None) is left


@pytest.fixture
def shown(window, qtbot):
    """The window with a run of 3 updates and the weight-space view shown beside the canvas."""
    data = generators.GENERATORS["separable"](n=30, seed=3, margin=0.3, offset=0.0)
    window.push_edit(ReplaceAll.from_dataset(data))
    window.workspace.set_params(fit_intercept=False)
    for _ in range(3):
        window.workspace.step_update()
    window.set_views_visible(True)
    view = window.views.view("weights")
    window.views.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.isVisible() and view.width() > 100, timeout=5000)
    window.settle()
    return window, view


def test_the_export_of_the_view_shown_is_the_view_on_screen(shown, tmp_path, subtests):
    """Beside the canvas, pixel for pixel; then zoomed by hand (one window, two subtests)."""
    with subtests.test("beside the canvas"):
        _beside_the_canvas_as_on_screen(*shown, tmp_path)
    with subtests.test("zoomed by hand"):
        _the_zoom_on_screen_is_the_zoom_exported(*shown)


def _beside_the_canvas_as_on_screen(window, view, tmp_path):
    exporter = window.exporter
    assert exporter.views_shown() is view
    canvas = window.canvas
    size = (canvas.width() + view.width(), max(canvas.height(), view.height()))
    path = tmp_path / "both.png"
    with style.using(style.current()):
        out = exporter.export_canvas(str(path), size, fmt="png", views=True,
                                     palette=style.current())
    assert out == str(path)
    image = QtGui.QImage(str(path))
    assert (image.width(), image.height()) == size
    a = _rgb(image)
    split_at = canvas.width()
    pane = a[: view.height(), split_at: split_at + view.width()]
    screen = _rgb(view.grab().toImage())
    h = min(pane.shape[0], screen.shape[0])
    # the view on screen, pixel for pixel: the same size, zoom, lines, walk and caption
    differ = (np.abs(pane[:h] - screen[:h]).max(axis=2) > 40).mean()
    assert h == view.height() and differ < 0.005, differ
    # under the view, down to the canvas's height, the export's background
    p = style.current()
    # and the canvas on the left: its points of both classes
    assert _colour_count(a[:, :split_at], p.pos_color) > 50
    assert _colour_count(a[:, :split_at], p.neg_color) > 50
    # without the views the picture is the canvas alone
    alone = exporter.export_canvas(str(tmp_path / "alone.png"), size, fmt="png")
    assert QtGui.QImage(alone).width() == size[0]
    assert exporter.views_shown() is view


def _the_zoom_on_screen_is_the_zoom_exported(window, view):
    view.show_box((-0.5, 0.5), (-0.5, 0.5))
    workspace = window.workspace
    with ViewsRenderer(workspace, ["weights"], (view.width(), view.height()),
                       like={"weights": view}) as drawn:
        copy = drawn.views[0]
        drawn.image()
        assert copy.zoomed_by_hand
        (x0, x1), (y0, y1) = copy.plot.getViewBox().viewRange()
        (sx0, sx1), _ = view.plot.getViewBox().viewRange()
        # the box asked for is shown (the 1:1 lock widens one side to the plot's shape)
        assert x0 <= -0.5 + 1e-9 and x1 >= 0.5 - 1e-9 and y0 <= -0.5 + 1e-9 and y1 >= 0.5 - 1e-9
        assert max(x1 - x0, y1 - y0) < 2.0 and (x1 - x0) == pytest.approx(sx1 - sx0, rel=0.1)


def test_the_dialog_offers_the_views_only_when_shown(qtbot):
    plain = dialogs.SizeDialog((640, 480))
    qtbot.addWidget(plain)
    assert plain.views_box is None and not plain.include_views()
    both = dialogs.SizeDialog((640, 480), views_size=(1000, 480))
    qtbot.addWidget(both)
    assert both.chosen_size() == (640, 480)
    both.views_box.setChecked(True)
    assert both.include_views() and both.chosen_size() == (1000, 480)
    both.views_box.setChecked(False)
    assert both.chosen_size() == (640, 480)


def test_render_the_weight_space_demo_shows_both_panes(tmp_path, capsys, qapp):
    out = tmp_path / "slides"
    code = app.render_main(["weight-space", "-o", f"{out}/", "--views", "--size", "900x600"])
    assert code == 0, capsys.readouterr().err
    demo = load_demo("weight-space")
    slides = sorted(out.glob("slide-*.png"))
    assert len(slides) == len(demo.steps) + 1
    width, side = split(900, 1)
    p = style.LIGHT
    for i in (1, 4, 11):  # w₀ in the cone's picture, w₃ inside it, the cycling walk
        a = _rgb(QtGui.QImage(str(slides[i])))
        assert a.shape[1] == 900
        # the canvas: points of both classes on the left
        assert _colour_count(a[:, :width], p.pos_color) > 30
        # weight space on the right, as the view draws that step's workspace
        player = DemoPlayer(Workspace(), demo)
        player.goto(i)
        with style.using(style.LIGHT), ViewsRenderer(player.workspace, ["weights"],
                                                     (side, 100)) as drawn:
            drawn.image()
            expect = drawn.views[0].caption.text()
        assert expect.split(".")[0] in {
            1: "Each case i is a line yᵢxᵢ·w = 0, ticked on its good side; the shaded "
               "cone classifies every case; the arrow is w*",
            4: "Each case i is a line yᵢxᵢ·w = 0, ticked on its good side; the shaded "
               "cone classifies every case; the arrow is w*",
            11: "No feasible region: no w through the origin classifies every case: the "
                "normals yᵢxᵢ do not fit in an open half-plane"}[i]
        right = a[:, width:]
        # the case lines of +1 (blue-ish) and of −1 (orange-ish), drawn translucent
        assert int(((right[:, :, 2] - right[:, :, 0]) > 60).sum()) > 100
        assert int(((right[:, :, 0] - right[:, :, 2]) > 40).sum()) > 100


def test_render_views_errors_are_one_line(tmp_path, capsys, qapp):
    assert app.render_main(["bias", "-o", str(tmp_path / "a.png"), "--views"]) == 1
    assert "names no views" in capsys.readouterr().err
    assert app.render_main(["weight-space", "-o", str(tmp_path / "a.svg"), "--views"]) == 1
    assert "not in an SVG" in capsys.readouterr().err
    assert app.render_main(["weight-space", "-o", str(tmp_path / "a.png"), "--views",
                            "nope"]) == 1
    assert "unknown view 'nope'" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
    assert app.render_main(["weight-space", "-o", str(tmp_path / "a.png"), "--steps", "4",
                            "--views", "weights", "--size", "800x500"]) == 0
    assert QtGui.QImage(str(tmp_path / "a.png")).width() == 800


@pytest.mark.parametrize("scheme", [style.LIGHT, style.DARK])
def test_the_views_pane_is_in_the_scheme_drawn(qtbot, scheme):
    player = DemoPlayer(Workspace(), load_demo("weight-space"))
    player.goto(4)
    with style.using(scheme), ViewsRenderer(player.workspace, ["weights"], (400, 500)) as drawn:
        a = _rgb(drawn.image())
        caption = drawn.views[0].caption.geometry()
    # the plot's background and the caption's, both of the scheme (whatever the app's)
    plot_bg = QtGui.QColor(scheme.background if scheme.background != "w" else "white")
    colours, counts = np.unique(a[40:100, 100:300].reshape(-1, 3), axis=0, return_counts=True)
    most = colours[counts.argmax()]  # the plot's background, between its lines and grid
    assert np.abs(most - [plot_bg.red(), plot_bg.green(), plot_bg.blue()]).max() <= 8
    under_text = a[caption.bottom() - 2, caption.right() - 4]
    assert (under_text.mean() < 100) == (scheme.name == "dark"), under_text


def test_slides_hide_the_views_controls_and_the_screen_export_keeps_them(qtbot):
    player = DemoPlayer(Workspace(), load_demo("weight-space"))
    player.goto(1)
    with ViewsRenderer(player.workspace, ["weights"], (400, 500)) as kept:
        kept.image()
        assert kept.views[0].layers_button.isVisible()
        kept_plot = kept.views[0].plot.height()
    with ViewsRenderer(player.workspace, ["weights"], (400, 500), controls=False) as bare:
        bare.image()
        assert not bare.views[0].layers_button.isVisible()
        assert bare.views[0].plot.height() > kept_plot  # the plot takes the button's row


@pytest.mark.parametrize("presenter", [False, True], ids=["normal", "presenter"])
def test_small_slides_show_both_proof_plots_whole(tmp_path, capsys, qapp, monkeypatch,
                                                  presenter):
    """Issue 33: at 640 px the proof's two plots, stacked, were squeezed to 8 px (0 px
    with --presenter): the views are laid out at their least height and scaled into
    their pane."""
    import pyqtgraph as pg

    heights = []
    drawn = ViewsRenderer.image

    def image(self):
        out = drawn(self)
        assert (out.width(), out.height()) == self.size
        for view in self.views:
            heights.extend(item.sceneBoundingRect().height()
                           for graphics in view.findChildren(pg.GraphicsView)
                           for item in graphics.scene().items() if isinstance(item, pg.ViewBox))
        return out

    monkeypatch.setattr(ViewsRenderer, "image", image)
    out = tmp_path / "slides"
    args = ["novikoff-proof", "-o", f"{out}/", "--views", "--size", "640x480"]
    assert app.render_main(args + (["--presenter"] if presenter else [])) == 0, \
        capsys.readouterr().err
    assert len(heights) >= 4 * len(load_demo("novikoff-proof").steps)  # four plots a slide
    assert min(heights) >= 40, sorted(heights)[:4]
