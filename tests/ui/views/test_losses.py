"""The loss view draws the core's margins and risks, follows the run, and points both ways."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.core.learners import registry
from perceptron_gui.core.learners.gradient import GradientEngine
from perceptron_gui.core.learners.losses import loss_for
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import style
from perceptron_gui.ui.views import VIEW_TYPES
from perceptron_gui.ui.views.losses import (
    LOSS_NAMES,
    NO_W_MESSAGE,
    LossView,
    loss_values,
)
from perceptron_gui.ui.wording import problem_text


def make_view(qtbot, ws) -> LossView:
    view = LossView(ws)
    qtbot.addWidget(view)
    view.resize(460, 760)
    view.show()
    qtbot.waitExposed(view)
    view.refresh()
    return view


def show_losses(window) -> LossView:
    """The window's loss view, its tab shown (a hidden view redraws when shown)."""
    window.set_views_visible(True)
    view = window.views.view("losses")
    window.views.setCurrentWidget(view)
    assert view.isVisible()
    return view


def marker_data(view, key) -> tuple[np.ndarray, np.ndarray]:
    x, y = view.markers[key].getData()
    return np.asarray(x), np.asarray(y)


def curve_data(item) -> tuple[np.ndarray, np.ndarray]:
    x, y = item.getData()
    return (np.empty(0), np.empty(0)) if x is None else (np.asarray(x), np.asarray(y))


def mean_losses(ws, k: int) -> np.ndarray:
    """The four risks after ``k`` updates, recomputed here from the log's state."""
    w, b = ws.learner.history.updates.state_after(k)
    z = ws.dataset.y * (ws.dataset.X @ w + b)
    return np.array([np.mean(z <= 0), np.mean(np.maximum(0, -z)), np.mean(np.maximum(0, 1 - z)),
                     np.mean(np.log1p(np.exp(-z)))])


def check_markers(view, ws, loss="perceptron") -> None:
    z = ws.training_margins()
    for key, mask in (("pos", ws.dataset.y > 0), ("neg", ws.dataset.y < 0)):
        x, y = marker_data(view, key)
        np.testing.assert_array_equal(x, z[mask])
        np.testing.assert_allclose(y, loss_values(loss, z[mask]), rtol=0, atol=0)


def check_risk(view, ws) -> None:
    """Every drawn state's risk equals the mean loss recomputed from ``state_after(k)``."""
    assert view.risk_key, "no state of the run drawn"
    for name_index, name in enumerate(LOSS_NAMES):
        steps, values = curve_data(view.risk_curves[name])
        by_step = dict(zip(steps.tolist(), values.tolist(), strict=True))
        for step, k in view.risk_key:
            assert by_step[float(step)] == pytest.approx(mean_losses(ws, k)[name_index],
                                                         rel=1e-9, abs=1e-12)
        # the current step: the risk of the margins now, marked
        assert steps[-1] == ws.step_count
        assert values[-1] == pytest.approx(mean_losses(ws, ws.learner.n_updates_)[name_index],
                                           rel=1e-9, abs=1e-12)
    x, y = view.risk_now.getData()
    assert np.all(np.asarray(x) == ws.step_count)
    np.testing.assert_allclose(y, mean_losses(ws, ws.learner.n_updates_), rtol=1e-9, atol=1e-12)


def test_registered_as_a_view():
    assert VIEW_TYPES["losses"] is LossView


def test_markers_are_the_core_margins_on_the_chosen_loss(qtbot):
    ws = Workspace(generators.GENERATORS["blobs"](n=80, seed=1))
    for _ in range(25):
        ws.step()
    view = make_view(qtbot, ws)
    assert view.message == "" and view.chosen_loss == "perceptron"
    check_markers(view, ws)
    assert not view.density["pos"].isVisible()  # few cases: every marker shows
    # the chosen loss is the thick curve, every loss drawn
    widths = {n: view.loss_curves[n].opts["pen"].widthF() for n in LOSS_NAMES}
    assert widths["perceptron"] > max(w for n, w in widths.items() if n != "perceptron")
    z, loss = curve_data(view.loss_curves["hinge"])
    np.testing.assert_allclose(loss, np.maximum(0, 1 - z))
    z, loss = curve_data(view.loss_curves["log_loss"])
    np.testing.assert_allclose(loss, np.log1p(np.exp(-z)))
    # each class in its colour and shape
    palette = style.current()
    assert view.markers["pos"].style[0] == style.POS_SYMBOL
    assert view.markers["neg"].style[0] == style.NEG_SYMBOL
    assert view.markers["pos"].style[3].color() == pg.mkColor(palette.pos_color)
    assert view.markers["neg"].style[3].color() == pg.mkColor(palette.neg_color)
    assert view.margin_plot.getPlotItem().getAxis("bottom").labelText == "margin z = y·f(x)"
    assert view.margin_plot.getPlotItem().getAxis("left").labelText == "loss"


def test_risk_curve_is_the_mean_loss_at_each_sampled_state(qtbot):
    ws = Workspace(generators.GENERATORS["blobs"](n=60, seed=4))
    for _ in range(40):
        ws.step()
    view = make_view(qtbot, ws)
    check_risk(view, ws)
    # w = 0 at step 0: every margin is 0
    for j, name in enumerate(LOSS_NAMES):
        steps, values = curve_data(view.risk_curves[name])
        assert steps[0] == 0 and values[0] == pytest.approx([1, 0, 1, np.log(2)][j])


def test_follows_steps_seek_and_undo(window, qtbot):
    window.push_edit(ReplaceAll.from_dataset(generators.GENERATORS["blobs"](n=50, seed=2)))
    view = show_losses(window)
    ws = window.workspace
    for _ in range(7):
        ws.step()
    qtbot.waitUntil(lambda: bool(view.risk_key)
                    and curve_data(view.risk_curves["hinge"])[0][-1] == ws.step_count)
    check_markers(view, ws)
    check_risk(view, ws)
    before = ws.training_margins().copy()
    ws.seek(30)
    qtbot.waitUntil(lambda: curve_data(view.risk_curves["hinge"])[0][-1] == 30)
    check_markers(view, ws)
    check_risk(view, ws)
    ws.seek(7)
    qtbot.waitUntil(lambda: curve_data(view.risk_curves["hinge"])[0][-1] == 7)
    np.testing.assert_array_equal(marker_data(view, "pos")[0], before[ws.dataset.y > 0])
    # an edit restarts the run; undo brings the data back, the markers follow
    ws.seek(ws.learner.frontier)  # no later step to discard: no question asked
    n = ws.dataset.n
    window.push_edit(ReplaceAll.from_dataset(generators.GENERATORS["blobs"](n=20, seed=9)))
    qtbot.waitUntil(lambda: marker_data(view, "pos")[0].size + marker_data(view, "neg")[0].size
                    == 20)
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: marker_data(view, "pos")[0].size + marker_data(view, "neg")[0].size
                    == n)
    check_markers(view, ws)


def test_a_hidden_view_redraws_when_shown(window, qtbot):
    window.push_edit(ReplaceAll.from_dataset(generators.GENERATORS["blobs"](n=30, seed=6)))
    view = show_losses(window)
    ws = window.workspace
    qtbot.waitUntil(lambda: view.margins()[0].size == 30)
    window.views.setCurrentWidget(window.views.view("plots"))  # the other tab
    assert not view.isVisible()
    drawn = view.margins()[0]
    for _ in range(4):
        ws.step_update()
    view.workspace_changed()  # what the view's coalesced subscription calls
    assert view.margins()[0] is drawn  # no redraw while hidden
    window.views.setCurrentWidget(view)
    assert view.margins()[0] is ws.training_margins()
    check_markers(view, ws)



def test_presenter_mode_restyles_a_hidden_view_and_redraws_it_only_when_shown(window, qtbot):
    window.push_edit(ReplaceAll.from_dataset(generators.GENERATORS["blobs"](n=30, seed=6)))
    view = show_losses(window)
    ws = window.workspace
    qtbot.waitUntil(lambda: view.margins()[0].size == 30)
    window.set_views_visible(False)
    ws.step_update()
    view.workspace_changed()
    drawn = view.margins()[0]
    try:
        window.presenter.set_active(True)  # the views hidden: pens now, margins when shown
        assert view.loss_curves["perceptron"].opts["pen"].widthF() == style.PRESENTER.line * 1.75
        window.presenter.set_active(False)
        assert view.margins()[0] is drawn
    finally:
        window.presenter.set_active(False)
    view = show_losses(window)
    assert view.margins()[0] is ws.training_margins()
    check_markers(view, ws)


class HingeRun(GradientEngine):
    """Stochastic gradient descent on the hinge loss: a learner with ``loss="hinge"``."""

    def __init__(self, *, loss="hinge", fit_intercept=True, bias_scale=1.0, eta0=0.1,
                 order="cyclic", random_state=0, max_iter=50):
        self.loss = loss
        self.fit_intercept = fit_intercept
        self.bias_scale = bias_scale
        self.eta0 = eta0
        self.order = order
        self.random_state = random_state
        self.max_iter = max_iter

    def validate_params(self) -> None:
        self._validate_common()

    def dloss(self, p, y):
        return -y if p * y <= 1.0 else 0.0


@pytest.fixture
def hinge_learner():
    spec = registry.LearnerSpec(
        "hinge_view_test", "Hinge SGD", HingeRun,
        {"loss": "hinge", "fit_intercept": True, "bias_scale": 1.0, "eta0": 0.1,
         "order": "cyclic", "random_state": 0, "max_iter": 50},
        capabilities=registry.Capabilities(steps=True, readouts=frozenset({"run"}),
                                           loss=loss_for("hinge")))
    registry.register(spec)
    yield spec.key
    registry.unregister(spec.key)


def test_a_hinge_run_puts_the_cases_on_the_hinge(qtbot, hinge_learner):
    ws = Workspace(generators.GENERATORS["blobs"](n=40, seed=3), learner=hinge_learner)
    ws.seek(170)  # every step moves w: the dense log, with checkpoints past its stride
    view = make_view(qtbot, ws)
    assert view.chosen_loss == "hinge"
    check_markers(view, ws, "hinge")
    check_risk(view, ws)
    widths = {n: view.loss_curves[n].opts["pen"].widthF() for n in LOSS_NAMES}
    assert widths["hinge"] == max(widths.values()) > widths["perceptron"]
    ws.step_back()
    view.refresh()
    check_markers(view, ws, "hinge")
    check_risk(view, ws)


def test_lda_and_kernel_say_what_they_cannot_show(qtbot):
    ws = Workspace(generators.GENERATORS["blobs"](n=30, seed=1))
    view = make_view(qtbot, ws)
    ws.set_learner("lda")
    view.refresh()
    assert view.message == registry.get("lda").no_steps_text  # the learner's own wording
    ws.set_learner("dual")
    ws.set_params(kernel="rbf", gamma=2.0)
    ws.run_to_end()
    view.refresh()
    assert view.message == ""
    assert view.risk_note.toPlainText() == NO_W_MESSAGE and view.risk_note.isVisible()
    assert all(curve_data(view.risk_curves[n])[0].size == 0 for n in LOSS_NAMES)
    check_markers(view, ws)  # the kernel's margins now, on the perceptron loss
    ws.set_learner("primal")
    view.refresh()
    assert not view.risk_note.isVisible()
    empty = Workspace()
    assert make_view(qtbot, empty).message == problem_text(empty)


def _move_to(plot: pg.PlotWidget, x: float, y: float) -> None:
    """A mouse move over the data point ``(x, y)`` of ``plot`` (no button down)."""
    vb = plot.getViewBox()
    scene = vb.mapViewToScene(QtCore.QPointF(x, y))
    pos = QtCore.QPointF(plot.mapFromScene(scene))
    event = QtGui.QMouseEvent(QtCore.QEvent.Type.MouseMove, pos, plot.viewport().mapToGlobal(pos),
                              QtCore.Qt.MouseButton.NoButton, QtCore.Qt.MouseButton.NoButton,
                              QtCore.Qt.KeyboardModifier.NoModifier)
    QtWidgets.QApplication.sendEvent(plot.viewport(), event)


def test_hover_points_both_ways(window, qtbot):
    window.push_edit(ReplaceAll.from_dataset(generators.separable(12, seed=5, margin=0.4)))
    ws = window.workspace
    ws.step_update()
    view = show_losses(window)
    qtbot.waitUntil(lambda: view.margins()[0].size == 12)
    view.refresh()
    z, loss = view.margins()
    i = int(np.argmin(z))  # the lowest margin: alone at the left of the curve
    # the view -> the canvas
    _move_to(view.margin_plot, z[i], loss[i])
    assert ws.view_state.hovered == i
    assert window.canvas.view_state.hovered == i
    hover = window.canvas.layer("hover")
    qtbot.waitUntil(lambda: hover.items["hover_ring"].isVisible())
    rx, ry = hover.items["hover_ring"].getData()
    assert (rx[0], ry[0]) == tuple(ws.dataset.X[i])
    assert hover.items["hover_label"].isVisible()
    assert view.hover_ring.isVisible()
    # away from every marker: nothing pointed at
    (lo, _hi), (_bottom, top) = view.margin_plot.getViewBox().viewRange()
    _move_to(view.margin_plot, lo * 0.25, top * 0.95)  # high above the curves
    assert ws.view_state.hovered is None and window.canvas.view_state.hovered is None
    assert not view.hover_ring.isVisible()
    # the canvas -> the view: its ring is on the case's marker
    j = (i + 1) % 12
    window.canvas.set_hovered(j)
    assert view.hover_ring.isVisible()
    rx, ry = view.hover_ring.getData()
    assert (rx[0], ry[0]) == (z[j], loss[j])
    window.canvas.set_hovered(None)
    assert not view.hover_ring.isVisible()


def test_presenter_scale_and_both_schemes(window, qtbot):
    window.push_edit(ReplaceAll.from_dataset(generators.GENERATORS["blobs"](n=40, seed=1)))
    window.workspace.step_update()
    view = window.views.view("losses")
    try:
        window.presenter.set_active(True)
        assert view.scale == style.PRESENTER
        assert view.loss_curves["perceptron"].opts["pen"].widthF() == style.PRESENTER.line * 1.75
        assert view.markers["pos"].style[1] == style.PRESENTER.marker * 0.8
        font = view.margin_plot.getPlotItem().getAxis("bottom").style["tickFont"]
        assert font.pointSizeF() == pytest.approx(style.PRESENTER.font_pt * 0.85)
        for palette, choice in ((style.DARK, "dark"), (style.LIGHT, "light")):
            window.theme.set_choice(choice)
            assert view.margin_plot.backgroundBrush().color() == pg.mkColor(palette.background)
            assert view.markers["pos"].style[3].color() == pg.mkColor(palette.pos_color)
            assert view.markers["neg"].style[3].color() == pg.mkColor(palette.neg_color)
            for _sample, label in view.legend.items:
                assert pg.mkColor(label.opts["color"]) == pg.mkColor(palette.foreground)
            assert view.scale == style.PRESENTER
        window.presenter.set_active(False)
        assert view.loss_curves["perceptron"].opts["pen"].widthF() == style.NORMAL.line * 1.75
    finally:
        window.presenter.set_active(False)
        window.theme.set_choice("system")


def test_a_step_at_1e5_points_dedups_markers(qtbot):
    n = 100_000
    ws = Workspace(generators.GENERATORS["blobs"](n=n, seed=0))
    ws.step()
    view = make_view(qtbot, ws)
    qtbot.waitUntil(lambda: not view.computing, timeout=20_000)
    for _ in range(12):  # its speed is a benchmark's to measure, not this test's
        ws.step_update()
        view.refresh()
        view.repaint()
    drawn = sum(marker_data(view, key)[0].size for key in ("pos", "neg"))
    assert 0 < drawn < 4 * view.margin_plot.getViewBox().width() + 8
    # every drawn marker is a real case at its margin, on the loss
    z = ws.training_margins()
    x, y = marker_data(view, "pos")
    assert np.isin(x, z[ws.dataset.y > 0]).all()
    np.testing.assert_array_equal(y, loss_values("perceptron", x))
    # how many there are: a histogram of each class's margins, tallest bin where most are
    # (the class +1 stacked on the class −1)
    edges, heights = curve_data(view.density["neg"])
    neg, _ = np.histogram(z[ws.dataset.y < 0], bins=edges)
    both = neg + np.histogram(z[ws.dataset.y > 0], bins=edges)[0]
    unit = heights.max() / neg[np.argmax(heights)]
    for key, counts in (("neg", neg), ("pos", both)):
        assert view.density[key].isVisible()
        x, heights = curve_data(view.density[key])
        np.testing.assert_array_equal(x, edges)
        assert np.abs(heights / unit - counts).sum() <= 4  # a case on an edge: either side
    # the risks of the run's states came from the worker, and are the mean losses
    qtbot.waitUntil(lambda: not view.computing, timeout=30_000)
    view.refresh()  # the states drawn are all computed now: no worker starts
    assert not view.computing
    steps, values = curve_data(view.risk_curves["log_loss"])
    assert len(view.risk_key) == ws.learner.n_updates_ and steps.size == len(view.risk_key) + 2
    by_step = dict(zip(steps.tolist(), values.tolist(), strict=True))
    for step, k in view.risk_key[:: max(1, len(view.risk_key) // 3)]:
        assert by_step[float(step)] == pytest.approx(mean_losses(ws, k)[3], rel=1e-9)
