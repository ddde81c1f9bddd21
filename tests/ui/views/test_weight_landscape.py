"""The weight-space view's optional layers: the loss landscape and the generously feasible region.

The landscape is checked against the risk computed here, cell by cell; the
generous region against scipy's ``HalfspaceIntersection``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial import ConvexHull, HalfspaceIntersection

from perceptron_gui.core import generators
from perceptron_gui.core.learners.losses import loss_for
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui.views.weights import WeightSpaceView
from perceptron_gui.ui.views.weights.landscape import (
    COARSE,
    LEVELS,
    compiled_available,
    direct_grid,
    piecewise_grid,
    progressive,
    risk_grid,
)

LOSSES = {
    "perceptron": lambda m: np.maximum(0.0, -m),
    "hinge": lambda m: np.maximum(0.0, 1.0 - m),
    "log_loss": lambda m: np.log1p(np.exp(-m)),
}


def by_hand(L, loss, box, size):
    """The risk at each cell centre: the mean loss over the lines, a row of cells at a time."""
    (x0, x1), (y0, y1) = box
    w1 = x0 + (x1 - x0) / size * (np.arange(size) + 0.5)
    w2 = y0 + (y1 - y0) / size * (np.arange(size) + 0.5)
    out = np.empty((size, size))
    for r, b in enumerate(w2):
        margins = w1[:, None] * L[:, 0] + L[:, 1] * b + L[:, 2]  # (cell, line)
        out[r] = LOSSES[loss](margins).mean(axis=1)
    return out


def lines(seed, n=40):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    X[:3, 0] = 0.0  # cases without a kink along the rows
    y = np.where(rng.random(n) > 0.5, 1.0, -1.0)
    return np.column_stack([X * y[:, None], 0.3 * y])


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("loss", ["perceptron", "hinge"])
@pytest.mark.parametrize("seed", range(4))
def test_piecewise_grid_is_the_risk_cell_by_cell(loss, seed, compiled):
    L = lines(seed)
    box = ((-2.0, 3.0), (-1.5, 2.5))
    ref = by_hand(L, loss, box, 24)
    if compiled and not compiled_available():
        pytest.skip("numba is not available here")
    np.testing.assert_allclose(piecewise_grid(L, loss_for(loss), *box, 24, compiled=compiled), ref,
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(risk_grid(L, loss_for(loss), *box, 24), ref, rtol=1e-12, atol=1e-12)


def test_direct_grid_and_the_progressive_levels():
    L = lines(5, n=30)
    box = ((-1.0, 1.0), (-2.0, 0.5))
    gen = direct_grid(L, loss_for("log_loss"), *box, 12)
    with pytest.raises(StopIteration) as stop:
        while True:
            next(gen)
    np.testing.assert_allclose(stop.value.value, by_hand(L, "log_loss", box, 12), rtol=1e-12)
    log = loss_for("log_loss")
    sizes = [v[0] for v in progressive(L, log, *box, levels=(4, 8)) if v is not None]
    assert sizes == [4, 8]
    # the kinked losses go straight to the finest grid when the counting is compiled,
    # through a coarse grid first when it runs in numpy
    compiled = compiled_available()
    assert [v[0] for v in progressive(L, loss_for("hinge"), *box) if v is not None] == (
        [LEVELS[-1]] if compiled else [COARSE, LEVELS[-1]])


def test_without_numba_the_kinked_losses_draw_a_coarse_grid_first(monkeypatch):
    monkeypatch.setenv("PERCEPTRON_GUI_NO_JIT", "1")
    L = lines(6, n=50)
    box = ((-1.0, 2.0), (-2.0, 1.0))
    got = [v for v in progressive(L, loss_for("perceptron"), *box) if v is not None]
    assert [size for size, _ in got] == [COARSE, LEVELS[-1]]
    for size, grid in got:
        np.testing.assert_allclose(grid, by_hand(L, "perceptron", box, size), rtol=1e-12,
                                   atol=1e-12)


def make_view(qtbot, ws) -> WeightSpaceView:
    view = WeightSpaceView(ws)
    qtbot.addWidget(view)
    view.resize(480, 640)
    view.show()
    qtbot.waitExposed(view)
    view.refresh()
    qtbot.waitUntil(lambda: not view.finding_scene, timeout=60_000)  # many cases: a worker's
    return view


def converged_without_bias(n: int, margin: float) -> Workspace:
    """A run to the end, without a bias, on ``n`` separable points (the view's cases)."""
    data = generators.separable(n, seed=11, margin=margin, offset=0.0, angle=2.2)
    ws = Workspace(data)
    ws.set_params(fit_intercept=False)
    ws.run_to_end()
    return ws


def test_landscape_without_bias_is_the_risk_over_the_view(qtbot):
    ws = converged_without_bias(30, 0.1)
    view = make_view(qtbot, ws)
    view.landscape_box.setChecked(True)
    layer = view.landscape
    assert layer.grid is not None and layer.loss.name == "perceptron"  # small: computed at once
    box = tuple(map(tuple, view.plot.getViewBox().viewRange()))
    assert layer.rect == box
    L = np.column_stack([ws.dataset.X * ws.dataset.y[:, None], np.zeros(30)])
    size = layer.grid.shape[0]
    np.testing.assert_allclose(layer.grid, by_hand(L, "perceptron", box, size), rtol=1e-9,
                               atol=1e-12)
    assert layer.image.isVisible()
    assert "mean perceptron loss" in view.caption.text()
    view.landscape_box.setChecked(False)
    assert not layer.image.isVisible() and layer.grid is None


def test_landscape_with_bias_is_a_slice_at_the_current_b(qtbot):
    data = generators.blobs(60, seed=1)
    ws = Workspace(data)
    ws.set_params(loss="hinge", eta0=0.05, max_iter=3)
    ws.run_to_end()
    view = make_view(qtbot, ws)
    assert view.picture.chart
    view.landscape_box.setChecked(True)
    pic = view.picture
    assert pic.slice and not pic.chart
    b = float(ws.learner.intercept_[0])
    L = np.column_stack([data.X * data.y[:, None], data.y * b])
    factor = pic.region.lines[0, 0] / L[0, 0]  # the same lines, scaled by a power of two
    np.testing.assert_allclose(pic.region.lines, factor * L, rtol=1e-15)
    assert view.plot.getPlotItem().titleLabel.text.startswith(f"Slice at b = {b:.2f}"
                                                                .replace("-", "−"))
    layer = view.landscape
    box = layer.rect
    np.testing.assert_allclose(layer.grid, by_hand(L, "hinge", box, layer.grid.shape[0]),
                               rtol=1e-9, atol=1e-12)
    # the walk is drawn at each state's (w_1, w_2)
    w, _b = ws.learner.history.updates.state_after(ws.learner.n_updates_)
    x, y = view.path.getData()
    np.testing.assert_allclose([x[-1], y[-1]], w, rtol=1e-12)


def test_a_large_landscape_is_refined_in_a_worker_newest_only(qtbot):
    data = generators.blobs(600, seed=2)
    ws = Workspace(data)
    ws.set_params(loss="log_loss", eta0=0.05, max_iter=1, fit_intercept=False)
    ws.run_to_end()
    view = make_view(qtbot, ws)
    sizes, first = [], []
    layer = view.landscape

    def drawn(size):  # the first grid as it was drawn (the worker goes on refining it)
        if not first:
            first.append((layer.grid, layer.rect))
        sizes.append(size)

    layer.drawn = drawn
    view.landscape_box.setChecked(True)
    assert view.landscape.computing and view.landscape.grid is None  # nothing waited for
    qtbot.waitUntil(lambda: bool(sizes), timeout=30_000)
    L = np.column_stack([data.X * data.y[:, None], np.zeros(600)])
    grid, rect = first[0]
    np.testing.assert_allclose(grid, by_hand(L, "log_loss", rect, sizes[0]), rtol=1e-9)
    assert sizes[0] == LEVELS[0]
    # a zoom asks for another box: the old worker stops, the new box is drawn
    vb = view.plot.getViewBox()
    (x0, x1), (y0, y1) = vb.viewRange()
    vb.setRange(xRange=(x0 / 2, x1 / 2), yRange=(y0 / 2, y1 / 2), padding=0)
    def shown():  # the range after the aspect lock's adjustment
        return tuple(map(tuple, vb.viewRange()))

    qtbot.waitUntil(lambda: layer.rect == shown(), timeout=30_000)
    new = shown()
    assert new[0][1] - new[0][0] < 0.75 * (x1 - x0)  # zoomed in (the 1:1 lock may widen it)
    grid = layer.grid  # one grid: the worker may refine it between two reads
    np.testing.assert_allclose(grid, by_hand(L, "log_loss", new, grid.shape[0]), rtol=1e-9)
    view.landscape_box.setChecked(False)
    assert not layer.computing


def test_generous_region_against_scipy(qtbot):
    ws = converged_without_bias(20, 0.3)
    view = make_view(qtbot, ws)
    view.generous_box.setChecked(True)
    Z = ws.dataset.X * ws.dataset.y[:, None]
    sq = np.sum(Z * Z, axis=1)
    # zoom out until the region shows: it lies R²/γ away
    from perceptron_gui.core.theory import novikoff
    nov = novikoff(ws.dataset.X, ws.dataset.y, fit_intercept=False)
    far = 3.0 * nov.radius ** 2 / nov.margin
    view.show_box((-far, far), (-far, far))
    lines_, box, poly = view.generous
    np.testing.assert_allclose(lines_ * np.sqrt(sq)[:, None], np.column_stack([Z, -sq]),
                               rtol=1e-12)
    assert poly.shape[0] >= 3 and view.generous_item.isVisible()
    (x0, x1), (y0, y1) = box
    inner = nov.w_star * 1.5 * nov.radius ** 2 / nov.margin
    hs = np.vstack([-lines_, [[1, 0, -x1], [-1, 0, x0], [0, 1, -y1], [0, -1, y0]]])
    ref = HalfspaceIntersection(hs, inner).intersections
    assert math.isclose(ConvexHull(poly).volume, ConvexHull(ref).volume, rel_tol=1e-9)
    assert "Hatched: the generously feasible region" in view.caption.text()
    view.refresh()  # a step or a refresh keeps the box chosen
    assert view.generous[1] == box
    # with a bias the chart shows directions: the box is disabled there
    ws.set_params(fit_intercept=True)
    ws.run_to_end()
    view.refresh()
    assert not view.generous_box.isEnabled() and not view.generous_item.isVisible()


def test_the_generous_region_of_many_cases_is_cut_off_the_ui_thread(qtbot):
    """10⁵ cases at scale 1e-300: the region took 19 s of the UI thread; now the UI
    thread's CPU time of the switch and its redraw stays under 50 ms, and the polygon
    that arrives is the core's cut."""
    import time

    from perceptron_gui.core.dataset import Dataset
    from perceptron_gui.ui.views.weights import view as view_module
    from perceptron_gui.ui.views.weights.geometry import generous_polygon

    rng = np.random.default_rng(2)
    X = rng.normal(size=(150_000, 2))
    X = X[np.abs(X @ [0.6, 0.8]) > 0.1][:100_000]
    y = np.where(X @ [0.6, 0.8] > 0, 1, -1)
    ws = Workspace(Dataset(X * 1e-300, y))
    ws.set_params(fit_intercept=False)
    ws.step_update()
    view = make_view(qtbot, ws)
    assert X.shape[0] > view_module.GENEROUS_AT_ONCE
    t0 = time.thread_time()
    view.generous_box.setChecked(True)
    view.refresh()
    took = time.thread_time() - t0
    print(f"\nUI-thread CPU of the switch and a redraw: {took * 1000:.1f} ms")
    assert took < 0.050
    qtbot.waitUntil(lambda: not view.cutting_generous, timeout=60_000)
    lines, box, poly = view.generous
    ref = generous_polygon(view.picture.X, view.picture.signs, False,
                           float(ws.learner.bias_scale), float(view.picture.b), box)[2]
    np.testing.assert_array_equal(poly, ref)
    assert view.generous_item.isVisible() and lines.shape[0] == X.shape[0]


def test_a_cut_dropped_when_the_view_hides_is_no_longer_under_way(qtbot, monkeypatch):
    """A worker's cut asked for, then dropped (the view hidden): once the worker ends,
    nothing counts as cutting any more (it stayed "cutting" for ever)."""
    from perceptron_gui.ui.views.weights import view as view_module

    monkeypatch.setattr(view_module, "GENEROUS_AT_ONCE", 5)  # 20 cases go to a worker
    ws = converged_without_bias(20, 0.3)
    view = make_view(qtbot, ws)
    view.generous_box.setChecked(True)
    view.refresh()
    assert view.cutting_generous
    view.hide()
    qtbot.waitUntil(lambda: not view.cutting_generous, timeout=10_000)
    view.show()
    qtbot.waitExposed(view)
    view.refresh()
    qtbot.waitUntil(lambda: not view.cutting_generous, timeout=10_000)
    from perceptron_gui.ui.views.weights.geometry import generous_polygon

    lines, box, poly = view.generous  # the newest cut drawn: the core's
    ref = generous_polygon(view.picture.X, view.picture.signs, False,
                           float(ws.learner.bias_scale), float(view.picture.b), box)
    np.testing.assert_array_equal(poly, ref[2])
    assert view.generous_item.isVisible() and lines.shape[0] == 20
