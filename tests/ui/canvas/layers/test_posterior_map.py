"""The posterior's diverging map: colour-blind safe, the colour bar, the pixels, the hover."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtWidgets
from pytestqt.exceptions import TimeoutError as WaitTimeout

from perceptron_gui.core import datasets
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import colormap, style
from perceptron_gui.ui.widgets.canvas.layers.probability import (
    BAR_TITLE,
    posterior_text,
    probability_lut,
)
from tests.ui.helpers import posterior_check

GAUSSIAN = ("lda", "qda", "naive_bayes")


def _lut(pal):
    with style.using(pal):
        return probability_lut()


@pytest.mark.parametrize("pal", [style.LIGHT, style.DARK], ids=["light", "dark"])
def test_lightness_is_monotone_away_from_one_half_on_each_side(pal):
    lab = colormap.srgb_to_lab(_lut(pal)[:, :3])
    L, chroma = lab[:, 0], np.hypot(lab[:, 1], lab[:, 2])
    bg = colormap.srgb_to_lab(np.array(pg.mkColor(pal.background).getRgb()[:3]))[0]
    away = np.abs(L - bg)  # darker on the light scheme, lighter on the dark one
    # monotone to the rounding of 8-bit channels (one step of a channel moves L* < 0.5)
    assert (np.diff(away[128:]) >= -0.5).all() and (np.diff(away[:128]) <= 0.5).all()
    assert (np.diff(away[128::16]) > 0).all() and (np.diff(away[:128:16]) < 0).all()
    assert away[0] > 8 and away[255] > 8  # both ends visibly away from the background
    assert (np.diff(chroma[128:]) >= -0.9).all() and (np.diff(chroma[:128]) <= 0.9).all()
    assert (np.diff(chroma[128::16]) > 0).all() and (np.diff(chroma[:128:16]) < 0).all()
    hue = np.degrees(np.arctan2(lab[:, 2], lab[:, 1]))
    assert -120 < hue[255] < -60 or 200 < hue[255] % 360 < 300  # blue towards P = 1
    assert 20 < hue[0] < 80  # orange towards P = 0


@pytest.mark.parametrize("pal", [style.LIGHT, style.DARK], ids=["light", "dark"])
@pytest.mark.parametrize("kind", sorted(colormap.CVD))
def test_the_two_sides_stay_apart_under_colour_vision_deficiency(pal, kind):
    seen = colormap.srgb_to_lab(colormap.simulate_cvd(_lut(pal)[:, :3], kind))
    i = np.arange(128)
    apart = np.linalg.norm(seen[255 - i] - seen[i], axis=1)  # P and 1 − P, as simulated
    assert apart[0] > 20  # the two ends: far more than a just-noticeable difference (~2.3)
    assert apart[64] > 10  # P = 1/4 against P = 3/4
    assert (apart[:96] > 5).all()  # everywhere |2P − 1| ≥ 1/4
    # and each side moves away from ½ steadily as seen
    from_mid = np.linalg.norm(seen - seen[128], axis=1)
    # (to one 8-bit step of a channel: the dark map spans 12 L* over 128 levels)
    assert (np.diff(from_mid[128:]) >= -0.9).all() and (np.diff(from_mid[:128]) <= 0.9).all()
    assert (np.diff(from_mid[128::16]) > 0).all() and (np.diff(from_mid[:128:16]) < 0).all()


def test_the_simulation_is_machados_a_grey_stays_grey():
    grey = np.array([[128, 128, 128], [255, 255, 255]])
    for kind in colormap.CVD:
        assert np.abs(colormap.simulate_cvd(grey, kind) - grey).max() < 1.5
    # and red against green collapses under deuteranopia (what the check would catch)
    rg = colormap.srgb_to_lab(colormap.simulate_cvd(np.array([[200, 60, 60], [90, 140, 60]]),
                                                    "deuteranopia"))
    plain = colormap.srgb_to_lab(np.array([[200, 60, 60], [90, 140, 60]]))
    assert np.linalg.norm(rg[0] - rg[1]) < 0.5 * np.linalg.norm(plain[0] - plain[1])


def _gaussian_ws(learner):
    ws = Workspace(datasets.overlapping(80, seed=4))
    ws.set_learner(learner)
    return ws


def _only_the_shading(canvas):
    canvas.set_visible_layers(probability=True, boundary=False, weight=False, mistakes=False,
                              margin_band=False, radius=False, legend=False)
    canvas.refresh()
    canvas.layer("lda").hide()  # the class model's ellipses and means, drawn on top


@pytest.mark.parametrize("learner", GAUSSIAN)
def test_the_pixels_are_the_map_of_predict_proba(make_canvas, palette, learner):
    canvas, ws = make_canvas(_gaussian_ws(learner), view=(-4, 4, -4, 4))
    _only_the_shading(canvas)
    assert posterior_check(canvas, ws.learner, probability_lut()) > 800


def test_the_colour_bar_comes_and_goes_with_the_shading(make_canvas, palette):
    canvas, ws = make_canvas(_gaussian_ws("qda"))
    layer = canvas.layer("probability")
    bar = layer.items["colour_bar"]
    assert not bar.isVisible()
    canvas.set_visible_layers(probability=True)
    canvas.refresh()
    assert bar.isVisible() and bar.title == BAR_TITLE
    assert [t for _, t in bar.ticks] == ["0", "½", "1"]
    # its pixels: the map's P = 1 colour at the top, P = 0 at the bottom, ½ in the middle
    image = canvas.grab().toImage()
    rect = bar.bar_rect()
    lut = probability_lut()
    for frac in (0.03, 0.5, 0.97):
        level = round((1 - frac) * 255)  # the level drawn at that height of the bar
        scene = bar.mapToScene(QtCore.QPointF(rect.center().x(), rect.top() + frac * rect.height()))
        q = canvas.mapFromScene(scene)
        c = image.pixelColor(q)
        assert np.abs(np.array([c.red(), c.green(), c.blue()]) - lut[level, :3]).max() <= 6
    # inside the view box, at its right edge
    box = canvas.mapFromScene(canvas.getViewBox().sceneBoundingRect()).boundingRect()
    right = canvas.mapFromScene(bar.sceneBoundingRect()).boundingRect()
    assert box.contains(right) and box.right() - 30 < right.right()
    canvas.set_visible_layers(probability=False)
    canvas.refresh()
    assert not bar.isVisible() and not layer.items["probability_image"].isVisible()
    ws.set_params(loss="hinge") if False else ws.set_learner("primal")  # no posteriors
    canvas.set_visible_layers(probability=True)
    canvas.refresh()
    assert not ws.capabilities.posteriors and not bar.isVisible()


def test_hovering_shows_the_posterior_under_the_pointer(qtbot, make_canvas,
                                                        no_mouse_rate_limit):
    # pyqtgraph's scene drops a move within 10 ms of the last one and never delivers it;
    # the moves below to the same place again are then no moves at all (Qt drops them)
    canvas, ws = make_canvas(_gaussian_ws("naive_bayes"))
    canvas.set_visible_layers(probability=True)
    canvas.refresh()
    layer = canvas.layer("probability")
    readout = layer.items["posterior_readout"]
    arrived = []  # the moves the scene passed on (the layer's own slot sees the same)
    canvas.getViewBox().scene().sigMouseMoved.connect(arrived.append)
    for xy in ((-1.0, 0.5), (1.5, -2.0), (0.2, 0.1)):

        tries = [0]

        def under_pointer(xy=xy, tries=tries) -> bool:  # moved again on a re-layout
            # each try a real move (a pixel off every other time): a move to where the
            # pointer already is never arrives, so a move lost under load is not repeated
            tries[0] += 1
            pos = canvas.data_to_widget(*xy) + QtCore.QPointF(tries[0] % 2, 0)
            qtbot.mouseMove(canvas.viewport(), pos.toPoint())
            h = layer.hover
            return h is not None and (canvas.data_to_widget(*h[:2]) - pos).manhattanLength() < 2

        try:
            qtbot.waitUntil(under_pointer)
        except WaitTimeout as timed_out:  # say what the pointer reached, for the next look
            app = QtWidgets.QApplication
            raise AssertionError(
                f"no hover at {xy} after {tries[0]} moves ({len(arrived)} arrived): hover "
                f"{layer.hover}, shaded {layer.grid is not None}, image "
                f"{layer.items['probability_image'].isVisible()}, modal "
                f"{app.activeModalWidget()}, popup {app.activePopupWidget()}, grabber "
                f"{QtWidgets.QWidget.mouseGrabber()}, "
                f"buttons {app.mouseButtons()}, view {canvas.getViewBox().viewRange()}"
                ) from timed_out
        x, y, p = layer.hover
        expect = ws.learner.predict_proba(np.array([[x, y]]))[0, 1]
        assert p == pytest.approx(expect, rel=1e-12)
        # where the pointer is (to the axes' first re-layout, which moves the view ~8 px)
        assert np.hypot(x - xy[0], y - xy[1]) < 12 * max(canvas.pixel_size())
        assert readout.isVisible() and readout.text() == posterior_text(expect)
    canvas.set_visible_layers(probability=False)
    canvas.refresh()
    assert not readout.isVisible()


def test_a_fitted_learner_is_shaded_in_a_worker_and_arrives(qtbot, make_canvas):
    canvas, ws = make_canvas(_gaussian_ws("qda"))
    canvas.set_visible_layers(probability=True)
    layer = canvas.layer("probability")
    qtbot.waitUntil(lambda: layer.grid is not None and layer.items["colour_bar"].isVisible())
    x0, x1, y0, y1, P = layer.grid
    ny, nx = P.shape
    xs = x0 + (x1 - x0) / nx * (np.arange(nx) + 0.5)
    ys = y0 + (y1 - y0) / ny * (np.arange(ny) + 0.5)
    gx, gy = np.meshgrid(xs, ys)
    expect = ws.learner.predict_proba(np.column_stack([gx.ravel(), gy.ravel()]))[:, 1]
    np.testing.assert_allclose(P.ravel(), expect, rtol=1e-12, atol=0)
