"""The probability shading: P(+1 | x) of a learner with posteriors, as a graded tint."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtGui

from perceptron_gui.core import datasets
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import style
from perceptron_gui.ui.widgets.canvas.layers import LAYER_TYPES, LAYERS, ProbabilityLayer
from perceptron_gui.ui.widgets.canvas.layers.probability import probability_lut


def _lightness_towards(color: QtGui.QColor, bg: QtGui.QColor) -> float:
    """How far ``color`` is from the background (the tint's depth), summed over RGB."""
    return sum(abs(a - b) for a, b in zip(color.getRgb()[:3], bg.getRgb()[:3], strict=True))


def test_the_layer_is_registered_and_off_by_default():
    assert LAYER_TYPES["probability"] is ProbabilityLayer
    assert ProbabilityLayer.switches == ("probability",) and LAYERS["probability"] is False


@pytest.mark.parametrize("pal", [style.LIGHT, style.DARK], ids=["light", "dark"])
def test_the_table_is_the_background_at_one_half_and_deepens_to_each_class(pal):
    with style.using(pal):
        lut = probability_lut()
        bg = pg.mkColor(pal.background)
    assert lut.shape == (256, 4) and (lut[:, 3] == 255).all()
    mid = lut[127:129, :3].astype(int)
    assert np.abs(mid - [bg.red(), bg.green(), bg.blue()]).max() <= 2
    depth = np.abs(lut[:, :3].astype(int) - [bg.red(), bg.green(), bg.blue()]).sum(axis=1)
    # deeper and deeper, to the rounding of one 8-bit channel (the hue's channels
    # need not all move away from a tinted background together)
    assert (np.diff(depth[128:]) >= -1).all() and (np.diff(depth[:128]) <= 1).all()
    assert (np.diff(depth[128::8]) > 0).all() and (np.diff(depth[:128:8]) < 0).all()
    assert lut[255, 2] > lut[255, 0] and lut[0, 0] > lut[0, 2]  # blue +1, vermilion −1


def _clear(ws, xy, r=0.4) -> bool:
    """Whether no data point lies within ``r`` of ``xy`` (its pixel is the shading's)."""
    return bool(np.min(np.linalg.norm(ws.dataset.X - np.asarray(xy), axis=1)) > r)


def _posteriors_ws(kind):
    ws = Workspace(datasets.overlapping(60, seed=2))
    if kind == "lda":
        ws.set_learner("lda")  # a learner whose capabilities say posteriors
    else:  # the primal perceptron with the logistic loss: P(+1|x) = σ(f(x))
        ws.set_params(loss="log_loss", eta0=0.5)
        ws.step_epoch()
        ws.step_epoch()
    return ws


@pytest.mark.parametrize("kind", ["log_loss", "lda"])
def test_the_shading_is_p_of_plus_one_on_the_grid_and_in_the_pixels(make_canvas, kind):
    canvas, ws = make_canvas(_posteriors_ws(kind))
    assert ws.capabilities.posteriors
    layer = canvas.layer("probability")
    assert layer.grid is None or not layer.items["probability_image"].isVisible()
    canvas.set_visible_layers(probability=True)
    canvas.refresh()
    image_item = layer.items["probability_image"]
    assert image_item.isVisible()
    x0, x1, y0, y1, P = layer.grid
    ny, nx = P.shape
    xs = x0 + (x1 - x0) / nx * (np.arange(nx) + 0.5)
    ys = y0 + (y1 - y0) / ny * (np.arange(ny) + 0.5)
    j, i = ny // 3, nx // 2
    expect = ws.learner.predict_proba(np.array([[xs[i], ys[j]]]))[0, 1]
    assert P[j, i] == pytest.approx(expect, rel=1e-12)
    if kind == "log_loss":  # σ(w·x + b) at the cursor's weights
        w, b = ws.learner.coef_[0], ws.learner.intercept_[0]
        assert P[j, i] == pytest.approx(1 / (1 + np.exp(-(w @ [xs[i], ys[j]] + b))), rel=1e-9)
    # the pixels: bluish where P(+1|x) is near 1, vermilion near 0, background where 1/2
    image = canvas.grab().toImage()
    bg = pg.mkColor(style.current().background)
    (vx0, vx1), (vy0, vy1) = canvas.getViewBox().viewRange()
    seen = {}
    for gx in np.linspace(vx0, vx1, 9)[1:-1]:
        for gy in np.linspace(vy0, vy1, 9)[1:-1]:
            if not _clear(ws, (gx, gy)):
                continue
            p = ws.learner.predict_proba(np.array([[gx, gy]]))[0, 1]
            q = canvas.data_to_widget(gx, gy)
            c = image.pixelColor(int(q.x()), int(q.y()))
            if p > 0.99:
                assert c.blue() > c.red(), (p, c.getRgb())
                seen["pos"] = True
            elif p < 0.01:
                assert c.red() > c.blue(), (p, c.getRgb())
                seen["neg"] = True
    assert seen == {"pos": True, "neg": True}
    # graded: a surer point is tinted deeper than one near the boundary
    w = ws.learner.coef_[0]
    b = float(ws.learner.intercept_[0])
    n = w / np.linalg.norm(w)
    on = -b * n / np.linalg.norm(w)
    along = np.array([-n[1], n[0]])
    shift = next(t for t in np.linspace(-4, 4, 81)
                 if _clear(ws, on + t * along + 0.2 * n) and _clear(ws, on + t * along + 1.5 * n))
    near, far = on + shift * along + 0.2 * n, on + shift * along + 1.5 * n
    pn, pf = (ws.learner.predict_proba(np.array([near, far]))[:, 1])
    assert pf > pn > 0.5
    cn = image.pixelColor(canvas.data_to_widget(*near).toPoint())
    cf = image.pixelColor(canvas.data_to_widget(*far).toPoint())
    assert _lightness_towards(cf, bg) > _lightness_towards(cn, bg)
    assert layer.items["colour_bar"].isVisible()  # the colour bar names the map


def test_no_shading_without_posteriors(make_canvas):
    canvas, ws = make_canvas(Workspace(datasets.overlapping(30, seed=1)))
    ws.set_params(loss="hinge")
    assert not ws.capabilities.posteriors  # the hinge loss gives no probability
    ws.step_epoch()
    canvas.set_visible_layers(probability=True)
    canvas.refresh()
    assert not canvas.layer("probability").items["probability_image"].isVisible()
    assert canvas.layer("probability").grid is None


def test_the_shading_follows_the_run(make_canvas):
    canvas, ws = make_canvas(_posteriors_ws("log_loss"))
    canvas.set_visible_layers(probability=True)
    canvas.refresh()
    before = canvas.layer("probability").grid[4].copy()
    ws.step_epoch()
    canvas.refresh()
    after = canvas.layer("probability").grid[4]
    assert not np.array_equal(before, after)  # every logistic step moves w


def test_the_legend_names_a_gradient_step_as_such(make_canvas):
    canvas, ws = make_canvas(_posteriors_ws("log_loss"))
    canvas.refresh()
    from perceptron_gui.ui.widgets.canvas.layers.base import Frame

    frame = Frame(ws, {"delta": True, "ghost": True}, ((-5, 5), (-5, 5)), (0.02, 0.02), 0,
                  np.empty(0, np.int64))
    texts = [e.text for e in canvas.layer("update").legend_entries(frame)]
    assert "step −η·∇ℓ" in texts and "update η·y·x" not in texts


@pytest.mark.parametrize("pal", [style.LIGHT, style.DARK], ids=["light", "dark"])
@pytest.mark.parametrize("field", ("pos_color", "neg_color", "boundary_color", "weight_color"))
def test_marks_stay_legible_on_every_level_of_the_shading(pal, field):
    with style.using(pal):
        lut = probability_lut()
    worst = min(style.contrast(getattr(pal, field), "#" + bytes(row).hex()) for row in lut[:, :3])
    assert worst >= 3.0, (pal.name, field, worst)
