"""Move w by hand: drag the line and w's head, the readouts follow, one undo step, files."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from perceptron_gui.core import PrimalPerceptron, generators, theory
from perceptron_gui.core.commands import SetWeights, from_dict
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.core.io import load_workspace, save_workspace
from tests.ui.features.mouse import drag
from tests.ui.helpers import weights_view


def _ready(window, n=80, seed=2):
    window.push_edit(ReplaceAll.from_dataset(generators.separable(n, seed=seed)))
    window.canvas.fit_view()
    window.canvas.refresh()
    return window.hand_weights


def _send(canvas, kind, pos, button, buttons):
    ev = QtGui.QMouseEvent(kind, pos, canvas.viewport().mapToGlobal(pos), button, buttons,
                           QtCore.Qt.KeyboardModifier.NoModifier)
    QtWidgets.QApplication.sendEvent(canvas.viewport(), ev)


@pytest.fixture(autouse=True)
def _every_move_counts(monkeypatch):
    """pyqtgraph drops moves closer than 10 ms: off, so a fast test's moves all count."""
    import pyqtgraph as pg

    old = pg.getConfigOption("mouseRateLimit")
    pg.setConfigOption("mouseRateLimit", -1)
    yield
    pg.setConfigOption("mouseRateLimit", old)


def _drag(canvas, start: QtCore.QPointF, target: QtCore.QPointF, steps=6, during=None):
    """Hover, press, moves, release (pyqtgraph picks the dragged item from the hover)."""
    left, none = QtCore.Qt.MouseButton.LeftButton, QtCore.Qt.MouseButton.NoButton
    _send(canvas, QtCore.QEvent.Type.MouseMove, start, none, none)
    _send(canvas, QtCore.QEvent.Type.MouseButtonPress, start, left, left)
    for k in range(1, steps + 1):
        _send(canvas, QtCore.QEvent.Type.MouseMove, start + (target - start) * (k / steps),
              none, left)
        if during is not None:
            during(k)
    _send(canvas, QtCore.QEvent.Type.MouseButtonRelease, target, left, none)


def _check_readouts(ws, w, b):
    """The readouts are the core's numbers for the weights (w, b)."""
    r = ws.readouts()
    np.testing.assert_allclose(r.w, w, rtol=1e-12)
    assert r.b == pytest.approx(b, rel=1e-12, abs=1e-12)
    X, y = ws.dataset.X, ws.dataset.y
    z = y * (X @ np.asarray(w) + b)
    assert r.training_error == pytest.approx(np.mean(z <= 0))
    assert r.margin == pytest.approx(theory.hyperplane_margin(X, y, np.asarray(w), b))
    assert ws.misclassified().tolist() == np.flatnonzero(z <= 0).tolist()


def test_dragging_the_head_and_the_line_moves_w_live_and_is_one_undo_step(qtbot, window):
    hand = _ready(window)
    ws, canvas = window.workspace, window.canvas
    assert hand.enter() and window.modes.is_active("handset")
    assert hand.set_weights((1.0, 0.5), -0.25)
    canvas.refresh()
    layer = canvas.layer("hand_weights")
    head = layer.handles.head.pos()
    assert (head.x(), head.y()) == (1.0, 0.5)
    before = window.undo_stack.count()
    seen = []
    target_data = (2.0, -1.5)
    _drag(canvas, canvas.data_to_widget(head.x(), head.y()),
          canvas.data_to_widget(*target_data),
          during=lambda k: seen.append((ws.readouts().w.copy(), layer.handles.w)))
    qtbot.waitUntil(lambda: window.undo_stack.count() == before + 1)
    assert len({tuple(w) for w, _ in seen}) == 6  # the readouts followed every move
    for shown, dragged in seen:
        np.testing.assert_array_equal(shown, dragged)
    w, b = ws.start
    tol = 3 * max(canvas.pixel_size())
    np.testing.assert_allclose(w, target_data, atol=tol)
    a = layer.handles.anchor.pos()
    assert w @ np.array([a.x(), a.y()]) + b == pytest.approx(0.0, abs=1e-9)  # turned about it
    _check_readouts(ws, w, b)
    assert ws.step_count == 0 and ws.dataset.n == 80  # no point added
    # the anchor: the line moves parallel, through the point dropped on
    canvas.refresh()
    a = layer.handles.anchor.pos()
    start = canvas.data_to_widget(a.x(), a.y())
    _drag(canvas, start, start + QtCore.QPointF(30, 20))
    qtbot.waitUntil(lambda: window.undo_stack.count() == before + 2)
    w2, b2 = ws.start
    np.testing.assert_allclose(w2, w)
    assert b2 != b
    _check_readouts(ws, w2, b2)
    # undo: one step per drag
    # a click on a handle, without a move, is no undo step
    a = layer.handles.anchor.pos()
    _drag(canvas, canvas.data_to_widget(a.x(), a.y()), canvas.data_to_widget(a.x(), a.y()),
          steps=0)
    assert window.undo_stack.count() == before + 2, window.undo_stack.undoText()
    window.undo_stack.undo()
    np.testing.assert_allclose(ws.start[0], w) and ws.start[1] == b
    window.undo_stack.undo()
    np.testing.assert_allclose(ws.start[0], (1.0, 0.5))
    window.undo_stack.redo()
    np.testing.assert_allclose(ws.start[0], w)
    hand.leave()
    canvas.refresh()
    assert not layer.handles.head.isVisible() and not window.modes.is_active("handset")


def test_the_run_starts_from_the_hand_set_w_like_sklearns_coef_init(qtbot, window):
    from sklearn.linear_model import Perceptron

    hand = _ready(window)
    ws = window.workspace
    hand.enter()
    assert hand.type_weights("3, -2, 1.5")
    assert ws.readouts().status.startswith("Ready: w = w₀")
    ws.run_to_end()
    ours = ws.learner
    sk = Perceptron(shuffle=False, eta0=1.0, tol=None, penalty=None, max_iter=ours.n_epochs_)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk.fit(ws.dataset.X, ws.dataset.y, coef_init=np.array([[3.0, -2.0]]),
               intercept_init=np.array([1.5]))
    assert np.array_equal(ours.coef_, sk.coef_) and np.array_equal(ours.intercept_,
                                                                    sk.intercept_)
    # the bound from w₀, stated with its assumption, and the proof from w₀
    r = ws.readouts()
    assert r.bound_text.startswith("k = ") and r.bound_text.endswith(" from w₀")
    assert r.bound_note.startswith("From w₀ = (3.00, −2.00), b₀ = 1.50: k ≤ ")
    assert "since wₖ·w* ≥ w₀·w* + kγ and ‖wₖ‖² ≤ ‖w₀‖² + kR²" in r.bound_note
    nov = ws.novikoff
    v0 = np.array([3.0, -2.0, 1.5])
    assert r.bound == pytest.approx(theory.start_bound(v0, nov.w_star, nov.margin, nov.radius))
    assert r.k <= r.bound
    trace = ws.proof()
    assert trace.holds and trace.upper[0] == pytest.approx(v0 @ v0 + nov.radius ** 2)
    # the weight-space trajectory starts at w₀
    window.set_views_visible(True)
    view = window.views.view("weights")
    window.views.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.picture is not None)
    view.refresh()
    assert view.picture.trajectory.w[0].tolist() == [3.0, -2.0, 1.5]
    # start from here: the run replays from w₀
    hand.enter()
    hand.start_here()
    assert not hand.active and window.playback.playing
    window.playback.stop()


def test_bad_typed_weights_are_refused_with_a_message_and_nothing_lost(window):
    hand = _ready(window)
    ws = window.workspace
    hand.enter()
    hand.set_weights((1.0, 2.0), 0.5)
    count = window.undo_stack.count()
    reported = []
    window.errorReported.connect(lambda summary, detail: reported.append(summary))
    for text in ("inf, 1, 0", "1e300, 2, 0", "nan 1", "1, two, 3", "1"):
        assert not hand.type_weights(text)
    assert len(reported) == 5
    assert "finite" in reported[0] and "at most" in reported[1] and "not a number" in reported[3]
    assert window.undo_stack.count() == count
    np.testing.assert_array_equal(ws.start[0], [1.0, 2.0]) and ws.start[1] == 0.5
    with pytest.raises(ValueError, match="finite"):
        SetWeights((math.inf, 0.0))


def test_set_weights_is_a_command_of_the_vocabulary_and_undoable(window):
    _ready(window)
    ws = window.workspace
    cmd = SetWeights((2.0, -1.0), 0.75)
    assert from_dict(cmd.to_dict()) == cmd
    assert cmd.to_dict() == {"command": "set_weights", "w": [2.0, -1.0], "b": 0.75}
    assert from_dict({"command": "set_weights", "w": None}) == SetWeights(None)
    ws.step_epoch()
    step = ws.step_count
    assert window.dispatch(cmd)
    assert window.undo_stack.undoText() == cmd.text == "Set w = (2.00, −1.00), b = 0.75 by hand"
    assert ws.step_count == 0 and np.array_equal(ws.weights()[0], [2.0, -1.0])
    window.undo_stack.undo()
    assert ws.start is None and ws.step_count == step  # the run where it was


def test_freshly_generated_data_start_from_zero_and_undo_gives_w0_back(window):
    from perceptron_gui.core.commands import EditData

    _ready(window)
    ws = window.workspace
    assert window.dispatch(SetWeights((2.0, -1.0), 0.75))
    window.dispatch(EditData(ReplaceAll.from_dataset(generators.separable(40, seed=9),
                                                     "New data")))
    assert ws.start is None
    assert not ws.weights()[0].any() and ws.weights()[1] == 0.0
    window.undo_stack.undo()
    assert ws.dataset.n == 80 and np.array_equal(ws.weights()[0], [2.0, -1.0])
    window.undo_stack.redo()
    assert ws.dataset.n == 40 and ws.start is None


def test_a_demo_neither_records_nor_shows_the_handles_of_the_mode(qtbot, window):
    from perceptron_gui.core.commands import Run
    from tests.ui.canvas.helpers import legend_texts

    _ready(window)
    hw = window.hand_weights
    assert hw.enter() and window.dispatch(SetWeights((1.0, 0.5), 0.25))
    rec = window.demo_files.recorder
    rec.start()
    window.dispatch(Run("step_update"))
    draft = rec.draft.copy()
    assert "hand_handles" not in draft.start["layers"]
    rec.undo_step()
    rec.discard()
    hw.leave()
    draft.title = "Recorded in the mode"
    draft.start["layers"]["hand_handles"] = True  # as recordings made before said
    window.demos.play(draft.to_demo("recorded"))
    assert window.demos.playing
    window.canvas.refresh()
    assert not window.view_state.layer("hand_handles") and not hw.active
    assert not any(t.startswith("w by hand") for t in legend_texts(window.canvas))
    window.demos.stop()
    assert not window.view_state.layer("hand_handles")


def test_a_file_keeps_the_hand_set_start_and_an_old_file_opens(qtbot, window, tmp_path):
    hand = _ready(window)
    ws = window.workspace
    hand.set_weights((-1.25, 4.0), 2.0)
    ws.step_update()
    ws.step_update()
    path = tmp_path / "hand.json"
    save_workspace(ws, path)
    text = path.read_text()
    assert '"start": {"w": [-1.25, 4.0], "b": 2.0}' in text
    loaded = load_workspace(path)
    assert np.array_equal(loaded.start[0], [-1.25, 4.0]) and loaded.start[1] == 2.0
    assert loaded.step_count == ws.step_count
    assert np.array_equal(loaded.learner.coef_, ws.learner.coef_)
    ref = PrimalPerceptron().start(ws.dataset.X, ws.dataset.y, [-1.25, 4.0], 2.0)
    ref.seek(ws.step_count)
    assert np.array_equal(loaded.learner.coef_, ref.coef_)
    # without the field: a file of before opens from w = 0
    path.write_text(text.replace(', "start": {"w": [-1.25, 4.0], "b": 2.0}', ""))
    old = load_workspace(path)
    assert old.start is None and not old.learner.start_weights[0].any()
    # a bad start in a file is refused, naming the field
    path.write_text(text.replace("[-1.25, 4.0]", "[-1.25, 1e300]"))
    from perceptron_gui.core.io import FormatError

    with pytest.raises(FormatError, match="run.start"):
        load_workspace(path)


def test_esc_leaves_and_in_presenter_mode_the_toolbar_still_does(qtbot, window):
    hand = _ready(window)
    hand.enter()
    assert window.modes.esc_owner() == "handset"
    window.actions["leave_handset"].trigger()  # what Esc triggers
    assert not hand.active
    window.actions["presenter_mode"].trigger()
    hand.enter()
    assert window.modes.esc_owner() == "presenter"  # Esc leaves presenter mode first
    assert hand.leave_button.isEnabled()
    hand.leave_button.trigger()
    assert not hand.active and window.presenting
    window.actions["leave_presenter_mode"].trigger()


def test_learners_that_cannot_start_by_hand_leave_the_mode(window):
    hand = _ready(window)
    hand.enter()
    window.workspace.set_learner("lda")
    assert not hand.active and not hand.action.isEnabled()
    assert not hand.enter()


def test_dragging_the_point_w_in_weight_space_without_a_bias(qtbot, window):
    hand = _ready(window)
    ws = window.workspace
    ws.set_params(fit_intercept=False)
    hand.enter()
    hand.set_weights((1.0, 1.0))
    view = weights_view(qtbot, window)
    pos = view.hand.pos()
    assert view.hand.target.isVisible() and (pos.x(), pos.y()) == (1.0, 1.0)
    count = window.undo_stack.count()
    drag(view.plot, (1.0, 1.0), (-0.5, 1.5))
    qtbot.waitUntil(lambda: window.undo_stack.count() == count + 1)
    px = max(view.plot.getViewBox().viewPixelSize())
    np.testing.assert_allclose(ws.start[0], (-0.5, 1.5), atol=3 * px)
    assert ws.start[1] == 0.0
    _check_readouts(ws, ws.start[0], 0.0)
    view.refresh()
    np.testing.assert_allclose(view.picture.points[0], ws.start[0])  # w₀ of the walk
    window.undo_stack.undo()
    np.testing.assert_array_equal(ws.start[0], (1.0, 1.0))
    hand.leave()
    view.refresh()
    assert not view.hand.target.isVisible()


def test_dragging_w_in_the_chart_keeps_its_length_and_lands_on_the_point(qtbot, window):
    from perceptron_gui.core.theory.weight_space import gnomonic

    hand = _ready(window)
    ws = window.workspace
    hand.enter()
    hand.set_weights((0.5, 0.25), -0.5)
    view = weights_view(qtbot, window)
    pic = view.picture
    assert pic.chart
    p0 = pic.points[0]
    count = window.undo_stack.count()
    (x0, x1), _ = view.plot.getViewBox().viewRange()
    target = (p0[0] + 0.1 * (x1 - x0), p0[1] - 0.05 * (x1 - x0))
    drag(view.plot, tuple(p0), target)
    qtbot.waitUntil(lambda: window.undo_stack.count() == count + 1)
    w, b = ws.start
    v = np.r_[w, b / ws.params["bias_scale"]]
    assert np.linalg.norm(v) == pytest.approx(np.linalg.norm([0.5, 0.25, -0.5]))
    px = max(view.plot.getViewBox().viewPixelSize())
    np.testing.assert_allclose(gnomonic(v, pic.region.center), target, atol=3 * px)
    _check_readouts(ws, w, b)
    # a w off the chart's hemisphere (w·w* <= 0) has no point there, so no handle
    hand.set_weights(tuple(-w), -b)
    view.refresh()
    assert not np.isfinite(view.picture.points[-1]).all()
    assert not view.hand.target.isVisible()
    assert "From w₀ set by hand" in view.caption.text()


def test_a_demo_played_over_a_hand_set_start_gives_it_back(window):
    hand = _ready(window)
    ws = window.workspace
    hand.set_weights((1.25, -0.5), 0.75)
    ws.step_update()
    step = ws.step_count
    window.demos.play("bias")
    window.demos.next()
    assert ws.start is None  # the demo's own data, from w = 0
    window.demos.stop()
    assert ws.start[0].tolist() == [1.25, -0.5] and ws.start[1] == 0.75
    assert ws.step_count == step


def test_the_loss_view_follows_a_hand_set_w_from_step_0(qtbot, window):
    from perceptron_gui.ui.views.losses.functions import LOSS_NAMES, LOSSES

    hand = _ready(window)
    ws = window.workspace
    window.set_views_visible(True)
    view = window.views.view("losses")
    window.views.setCurrentWidget(view)
    hand.set_weights((2.0, -1.0), 0.5)
    ws.step_update()
    view.refresh()
    X, y = ws.dataset.X, ws.dataset.y
    z0 = y * (X @ np.array([2.0, -1.0]) + 0.5)
    for name in LOSS_NAMES:  # the risk curves start at w₀'s risks, not w = 0's
        xs, ys = view.risk_curves[name].getData()
        assert xs[0] == 0.0 and ys[0] == pytest.approx(LOSSES[name](z0).mean())
    z, _ = view.margins()  # the cases' margins: at the cursor
    np.testing.assert_allclose(z, ws.training_margins())


def test_the_window_saves_and_reopens_a_hand_set_start(qtbot, window, tmp_path):
    from tests.ui.helpers import finish

    hand = _ready(window)
    ws = window.workspace
    hand.set_weights((0.75, -1.5), 2.25)
    ws.step_update()
    step = ws.step_count
    path = tmp_path / "hand.json"
    assert finish(qtbot, window.files.save_to(path))  # through the window's snapshot
    assert not window.files.is_dirty()
    hand.set_weights(None)
    assert window.files.is_dirty() and ws.start is None
    assert finish(qtbot, window.files.open_path(path, ask=False))
    assert ws.start[0].tolist() == [0.75, -1.5] and ws.start[1] == 2.25
    assert ws.step_count == step


def test_type_w_asks_with_the_current_weights_filled_in(window, monkeypatch):
    hand = _ready(window)
    hand.enter()
    hand.set_weights((1.5, -0.25), 3.0)
    asked = []

    def fake(parent, title, label, text=""):
        asked.append(text)
        return "2, 4, -1", True

    monkeypatch.setattr(QtWidgets.QInputDialog, "getText", fake)
    assert window.actions["type_weights"].isEnabled()
    window.actions["type_weights"].trigger()
    assert asked == ["1.5, -0.25, 3.0"]
    assert window.workspace.start[0].tolist() == [2.0, 4.0] and window.workspace.start[1] == -1
    monkeypatch.setattr(QtWidgets.QInputDialog, "getText", lambda *a, **k: ("", False))
    assert not hand.ask_weights()  # cancelled: nothing changes
    assert window.workspace.start[0].tolist() == [2.0, 4.0]
    window.actions["clear_hand_weights"].trigger()
    assert window.workspace.start is None


def test_w_typed_during_a_demo_is_refused_and_stays_off_the_undo_stack(qtbot, window):
    hand = _ready(window, n=10)
    ws = window.workspace
    stack = window.undo_stack
    window.demos.play("first-updates")
    window.demos.next()
    index, count, points = stack.index(), stack.count(), ws.dataset.n
    assert not hand.type_weights("1, 2, 3")
    assert (stack.index(), stack.count(), ws.dataset.n) == (index, count, points)
    assert ws.start is None
    assert not window.actions["undo"].isEnabled()  # still the demo's: Esc first
    window.demos.stop()
    assert ws.dataset.n == 10
    while stack.canRedo():
        stack.redo()
    assert ws.dataset.n == 10 and len(np.unique(ws.dataset.X, axis=0)) == 10
