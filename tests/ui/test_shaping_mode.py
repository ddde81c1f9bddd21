"""The shaping mode: drag the Gaussians, the boundary and posteriors follow; sample; undo."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core import generators
from perceptron_gui.core.commands import SampleModel
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.core.learners.gaussian_model import GaussianModel
from perceptron_gui.ui.widgets.canvas.layers.base import Frame
from perceptron_gui.ui.widgets.canvas.layers.probability import probability_lut
from tests.ui.helpers import posterior_check


def _ready(window, learner):
    window.push_edit(ReplaceAll.from_dataset(generators.overlapping(120, seed=3)))
    window.workspace.set_learner(learner)
    window.canvas.fit_view()
    window.canvas.refresh()
    return window.shaping


@pytest.mark.parametrize("learner", ["lda", "qda", "naive_bayes"])
def test_dragging_a_mean_moves_the_boundary_and_the_posteriors(window, learner):
    shaping = _ready(window, learner)
    ws, canvas = window.workspace, window.canvas
    assert shaping.enter() and shaping.active and window.modes.is_active("shaping")
    start = shaping.model
    fitted = GaussianModel.from_learner(ws.learner)
    np.testing.assert_allclose(start.covariances, fitted.covariances)
    assert canvas.layer_visible("probability") and not canvas.layer_visible("boundary")
    assert not canvas.layer_visible("mistakes")  # the fitted learner's, not the model's
    moved = shaping.move_handle(3, (2.5, 2.0))  # class +1's mean
    canvas.refresh()
    layer = canvas.layer("shaping")
    np.testing.assert_allclose([layer.handle_at(3).x(), layer.handle_at(3).y()], [2.5, 2.0])
    frame = Frame(ws, canvas.layers(), canvas.view_rect(), canvas.pixel_size(), 0,
                  np.empty(0, np.int64), shaping=moved)
    assert [e.name for e in layer.legend_entries(frame)] == ["shaping_boundary",
                                                             "shaping_ellipses"]
    # the boundary drawn is where the model's f = 0 (to the contour grid's interpolation)
    pts = np.column_stack(layer.items["shaping_boundary"].getData())
    f = moved.decision_function(pts)
    scale = np.abs(moved.decision_function(ws.dataset.X)).max()
    assert len(pts) >= (2 if moved.shared else 10) and np.abs(f).max() < 0.02 * scale
    # the shading is the moved model's, pixel by pixel
    grid = canvas.layer("probability").grid
    x0, x1, y0, y1, P = grid
    ny, nx = P.shape
    xs = x0 + (x1 - x0) / nx * (np.arange(nx) + 0.5)
    ys = y0 + (y1 - y0) / ny * (np.arange(ny) + 0.5)
    np.testing.assert_allclose(P[ny // 2, nx // 3],
                               moved.predict_proba(np.array([[xs[nx // 3], ys[ny // 2]]]))[0, 1])
    # the pixels: the map of the moved model's posterior (its handles, ellipses, line,
    # the points' crosses and the legend put aside)
    canvas.set_visible_layers(mistakes=False, weight=False, legend=False)
    canvas.refresh()
    layer.hide()
    assert posterior_check(canvas, moved, probability_lut()) > 500
    # leaving: the learner fitted on the data again, the layers as they were
    shaping.leave()
    canvas.refresh()
    assert window.view_state.shaping is None and not shaping.active
    assert canvas.layer_visible("boundary") and not canvas.layer_visible("probability")
    assert canvas.layer_visible("mistakes") and canvas.layer_visible("weight")
    assert not layer.items["shaping_ellipses"].isVisible()


def test_a_handle_dragged_with_the_mouse(qtbot, window):
    shaping = _ready(window, "qda")
    shaping.enter()
    canvas = window.canvas
    canvas.refresh()
    model = shaping.model
    start = canvas.data_to_widget(*model.handles()[0])
    target = start + QtCore.QPointF(40, -30)
    left, none = QtCore.Qt.MouseButton.LeftButton, QtCore.Qt.MouseButton.NoButton

    def send(kind, pos, button, buttons):
        ev = QtGui.QMouseEvent(kind, pos, canvas.viewport().mapToGlobal(pos), button, buttons,
                               QtCore.Qt.KeyboardModifier.NoModifier)
        QtWidgets.QApplication.sendEvent(canvas.viewport(), ev)

    send(QtCore.QEvent.Type.MouseButtonPress, start, left, left)
    for k in range(1, 7):
        send(QtCore.QEvent.Type.MouseMove, start + (target - start) * (k / 6), none, left)
    send(QtCore.QEvent.Type.MouseButtonRelease, target, left, none)
    qtbot.waitUntil(lambda: shaping.model is not model)
    want = canvas.widget_to_data(target)
    np.testing.assert_allclose(shaping.model.means[0], [want.x(), want.y()],
                               atol=3 * max(canvas.pixel_size()))
    assert window.workspace.dataset.n == 120  # no point added by the drag
    # a handle over a data point: the press is the handle's, the point stays
    X0 = window.workspace.dataset.X.copy()
    shaping.move_handle(3, X0[7])
    canvas.refresh()
    model = shaping.model
    start = canvas.data_to_widget(*X0[7])
    target = start + QtCore.QPointF(-30, 25)
    send(QtCore.QEvent.Type.MouseButtonPress, start, left, left)
    for k in range(1, 7):
        send(QtCore.QEvent.Type.MouseMove, start + (target - start) * (k / 6), none, left)
    send(QtCore.QEvent.Type.MouseButtonRelease, target, left, none)
    qtbot.waitUntil(lambda: shaping.model is not model)
    want = canvas.widget_to_data(target)
    np.testing.assert_allclose(shaping.model.means[1], [want.x(), want.y()],
                               atol=3 * max(canvas.pixel_size()))
    np.testing.assert_array_equal(window.workspace.dataset.X, X0)
    assert window.undo_stack.count() == 1  # only the data set put in by _ready


def test_naive_bayes_axes_stay_aligned_and_lda_shares(window):
    shaping = _ready(window, "naive_bayes")
    shaping.enter()
    m = shaping.move_handle(1, (5.0, 3.0))
    assert m.diagonal and m.angles.tolist() == [0.0, 0.0]
    assert m.covariances[0, 0, 1] == 0.0
    shaping.leave()
    window.workspace.set_learner("lda")
    shaping.enter()
    m = shaping.move_handle(2, (0.0, 4.0))
    np.testing.assert_allclose(m.covariances[0], m.covariances[1])


def test_the_prior_slider_moves_the_boundary(window):
    shaping = _ready(window, "qda")
    shaping.enter()
    before = shaping.model
    shaping.prior_slider.setValue(80)
    after = shaping.model
    assert after.priors[1] == pytest.approx(0.8)
    x = np.array([[0.0, 0.0]])
    assert after.decision_function(x)[0] - before.decision_function(x)[0] == pytest.approx(
        np.log(0.8 / 0.2) - np.log(before.priors[1] / before.priors[0]))


def test_the_panels_show_the_training_error_of_the_model_shaped(qtbot, window):
    from perceptron_gui.core.text import fmt_count, fmt_percent

    shaping = _ready(window, "qda")
    ws = window.workspace
    shaping.enter()
    moved = shaping.move_handle(3, (-2.0, 0.0))  # class +1's mean into class −1

    def text(model):
        X, y = ws.dataset.X, ws.dataset.y
        wrong = int(np.count_nonzero(y * model.decision_function(X) <= 0))
        return f"{fmt_percent(100 * wrong / len(y))}  ({fmt_count(wrong)} of {fmt_count(len(y))})"

    fitted = text(GaussianModel.from_learner(ws.learner))
    assert text(moved) != fitted
    qtbot.waitUntil(lambda: window.readouts.values()["error"] == text(moved), timeout=5000)
    qtbot.waitUntil(lambda: window.essentials.texts()["error"] == f"Training error {text(moved)}",
                    timeout=5000)
    shaping.leave()
    qtbot.waitUntil(lambda: window.readouts.values()["error"] == fitted, timeout=5000)
    qtbot.waitUntil(lambda: window.essentials.texts()["error"] == f"Training error {fitted}",
                    timeout=5000)  # the panel redraws in a deferred pass of its own


def test_sampling_replaces_the_data_undoably_and_reproducibly(qtbot, window):
    shaping = _ready(window, "qda")
    before = window.workspace.dataset
    X0, y0 = before.X.copy(), before.y.copy()
    shaping.enter()
    shaping.move_handle(0, (-3.0, -1.0))
    model = shaping.model
    seen = []
    window.commandDispatched.connect(seen.append)
    shaping.n_spin.setValue(500)
    shaping.seed_spin.setValue(42)
    window.actions["sample_model"].trigger()
    assert seen == [SampleModel.of(model, 500, 42)]
    X, y = model.sample(500, 42)
    np.testing.assert_array_equal(window.workspace.dataset.X, X)
    np.testing.assert_array_equal(window.workspace.dataset.y, y)
    assert shaping.active and shaping.model is model  # still shaping, over the new data
    window.undo_stack.undo()
    np.testing.assert_array_equal(window.workspace.dataset.X, X0)
    np.testing.assert_array_equal(window.workspace.dataset.y, y0)
    window.undo_stack.redo()
    np.testing.assert_array_equal(window.workspace.dataset.X, X)
    # the same seed again: the same points
    assert shaping.sample(500, 42)
    np.testing.assert_array_equal(window.workspace.dataset.X, X)


def test_esc_leaves_and_a_learner_without_gaussians_cannot_shape(qtbot, window):
    shaping = _ready(window, "qda")
    window.actions["shape_model"].trigger()
    assert shaping.active and window.actions["leave_shaping"].isEnabled()
    window.actions["leave_shaping"].trigger()
    assert not shaping.active and not window.actions["shape_model"].isChecked()
    window.workspace.set_learner("primal")
    assert not window.actions["shape_model"].isEnabled()
    errors = []
    window.errorReported.connect(lambda *a: errors.append(a))
    assert not shaping.enter()
    assert errors and "no Gaussian class model" in str(errors[0])
    # and a learner change to one without a class model leaves the mode
    window.workspace.set_learner("qda")
    shaping.enter()
    window.workspace.set_learner("primal")
    assert not shaping.active and window.view_state.shaping is None
