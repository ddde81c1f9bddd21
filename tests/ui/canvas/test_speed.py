"""The canvas's speed-ups draw exactly what they replace.

Fast paths are only worth having if they draw the same thing: the redraw that
skips weight-dependent layers when ``w`` did not change, the layers that redraw
only with the data or the view, and the scatters' item cache.  (The fast items
have their own tests in ``items/``.)
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtWidgets

from perceptron_gui.core import Workspace, datasets
from perceptron_gui.ui.widgets.canvas import Canvas


def make_canvas(qtbot, ws) -> Canvas:
    c = Canvas(ws)
    qtbot.addWidget(c)
    c.resize(500, 400)
    c.show()
    qtbot.waitExposed(c)
    c.refresh()
    return c


def test_a_step_without_an_update_redraws_only_the_examined_sample(qtbot, monkeypatch):
    ws = Workspace(datasets.separable(50, seed=2, margin=0.05))
    c = make_canvas(qtbot, ws)
    calls = []
    original = c._update_weights
    monkeypatch.setattr(c, "_update_weights", lambda *a: (calls.append(1), original(*a)))
    ws.step_update()
    c.refresh()
    assert calls == [1]
    for _ in range(60):
        k = ws.learner.n_updates_
        ev = ws.step()
        c.refresh()
        assert len(calls) == 1 + (ws.learner.n_updates_ != k)
        calls[:] = [1]
        # what is drawn is the workspace's state either way
        highlight = c.layer("examined").items["highlight"]
        np.testing.assert_allclose(np.column_stack(highlight.getData()), ws.dataset.X[[ev.index]])
        w, b = ws.learner.coef_[0], ws.learner.intercept_[0]
        xs, ys = c.layer("boundary").items["boundary"].getData()
        assert np.abs(w[0] * xs + w[1] * ys + b).max() <= 1e-9 * max(1.0, np.abs(xs).max())
        assert c.layer("update").items["delta_line"].isVisible() == bool(ev.mistake)


def test_a_view_change_redraws_the_model(qtbot):
    ws = Workspace(datasets.separable(50, seed=2, margin=0.05))
    c = make_canvas(qtbot, ws)
    ws.step_update()
    c.refresh()
    before = c.layer("boundary").items["boundary"].getData()[0].copy()
    c.getViewBox().setRange(xRange=(-40, 40), yRange=(-40, 40), padding=0)
    c.refresh()
    assert not np.array_equal(before, c.layer("boundary").items["boundary"].getData()[0])


def test_static_layers_follow_the_data(qtbot):
    from perceptron_gui.core.dataset import AddPoints

    ws = Workspace(datasets.separable(30, seed=1, margin=0.3))
    c = make_canvas(qtbot, ws)
    c.set_visible_layers(max_margin=True, lda=True)
    c.refresh()
    lda_means = c.layer("lda").items["lda_means"]
    means = lda_means.getData()[0].copy()
    pos = ws.dataset.X[ws.dataset.y == 1]
    ws.apply_edit(AddPoints([(pos[0] + pos[1]) / 2], 1))  # inside the hull: still separable
    c.refresh()
    mm_support = c.layer("max_margin").items["mm_support"]
    assert ws.max_margin.separable and mm_support.isVisible()
    assert not np.array_equal(means, lda_means.getData()[0])
    np.testing.assert_allclose(np.sort(lda_means.getData()[0]), np.sort(ws.lda.means_[:, 0]))
    support = ws.dataset.X[np.asarray(ws.max_margin.support)]
    np.testing.assert_allclose(np.column_stack(mm_support.getData()), support)


def test_scatters_are_cached_only_while_the_data_stand_still(qtbot):
    from perceptron_gui.core.dataset import AddPoints

    ws = Workspace(datasets.separable(30, seed=1, margin=0.3))
    c = make_canvas(qtbot, ws)
    cache = QtWidgets.QGraphicsItem.CacheMode
    ws.apply_edit(AddPoints([[1.0, 1.0]], 1))
    c.refresh()
    assert c.layer("data").items["scatter_0"].cacheMode() == cache.NoCache
    ws.step()
    c.refresh()
    assert c.layer("data").items["scatter_0"].cacheMode() == cache.DeviceCoordinateCache




def test_mistake_marks_are_cached_only_while_they_stand_still(qtbot):
    ws = Workspace(datasets.separable(60, seed=2, margin=0.3))
    c = make_canvas(qtbot, ws)
    marks = c.layer("mistakes").items["mistake_marks"]
    cache = QtWidgets.QGraphicsItem.CacheMode
    moved = still = 0
    for _ in range(40):
        before = ws.misclassified()
        ws.step()
        c.refresh()
        after = ws.misclassified()
        if before is not after and not np.array_equal(before, after):
            moved += 1
            assert marks.cacheMode() == cache.NoCache  # a pixmap redrawn at every update
        elif after.size:
            still += 1
            assert marks.cacheMode() == cache.DeviceCoordinateCache
        np.testing.assert_array_equal(np.column_stack(marks.getData()), ws.dataset.X[after])
    assert moved and still
