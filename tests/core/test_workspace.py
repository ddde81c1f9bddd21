"""The Qt-free workspace: edits, learner switching, run control, readouts and signals."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from perceptron_gui.core import Dataset, PrimalPerceptron, Workspace, generators, text, theory
from perceptron_gui.core.dataset import AddPoints, DeletePoints, MovePoints
from perceptron_gui.core.theory import certificate


class Recorder:
    def __init__(self, ws):
        self.calls = []
        ws.events.dataset_changed.connect(lambda ds: self.calls.append(("dataset", ds.n)))
        ws.events.learner_changed.connect(lambda: self.calls.append(("learner",)))
        ws.events.run_changed.connect(lambda ev: self.calls.append(("run", None if ev is None
                                                             else ev.step)))
        ws.events.message.connect(lambda text: self.calls.append(("message", text)))


def test_empty_workspace_explains_what_to_do():
    ws = Workspace()
    assert ws.problem.startswith("No points yet")
    assert not ws.running and not ws.can_step and ws.step() is None
    r = ws.readouts()
    assert r.k == 0 and math.isnan(r.training_error) and r.bound_text == "—"


def test_single_class_and_single_point_are_explained():
    ws = Workspace()
    ws.apply_edit(AddPoints([[1.0, 1.0]], [1]))
    assert "Only one class" in ws.problem and "−1" in ws.problem
    ws.set_learner("lda")
    ws.apply_edit(AddPoints([[0.0, 0.0]], [-1]))
    assert "at least 3 points" in ws.problem
    ws.apply_edit(AddPoints([[0.0, 0.0]], [-1]))  # duplicate point: still trainable
    assert ws.problem is None and ws.lda is not None


def test_all_points_identical_is_a_message_not_a_crash():
    ws = Workspace(Dataset([[1.0, 1.0]] * 4, [1, 1, -1, -1]))
    assert ws.max_margin.separable is False
    assert ws.novikoff.separable is False
    assert ws.readouts().bound_text == "not separable — no bound"
    ws.run_to_end()
    assert ws.finished and "not linearly separable" in ws.readouts().status
    ws.set_learner("lda")
    assert ws.lda is not None and ws.lda.singular_


def test_window_run_equals_core_run():
    ds = generators.separable(30, seed=3, margin=0.2)
    ws = Workspace(ds)
    while ws.step() is not None:
        pass
    core = PrimalPerceptron(random_state=0).fit(ds.X, ds.y)
    assert np.array_equal(ws.learner.coef_, core.coef_)
    assert ws.learner.intercept_[0] == core.intercept_[0]
    r = ws.readouts()
    assert r.k == core.n_updates_ and r.training_error == 0.0
    assert r.margin == pytest.approx(theory.hyperplane_margin(ds.X, ds.y, core.coef_[0],
                                                              core.intercept_[0]))
    nov = theory.novikoff(ds.X, ds.y)
    assert r.radius == nov.radius and r.gamma == nov.margin and r.bound == nov.bound
    assert r.bound_text == f"k = {core.n_updates_} ≤ (R/γ)² = {nov.bound:.2f}"
    assert r.status.startswith("Converged")


def test_edit_restarts_the_run_and_says_so():
    ws = Workspace(generators.separable(20, seed=1, margin=0.3))
    rec = Recorder(ws)
    ws.step_update()
    ws.step_update()
    assert ws.step_count > 0
    inverse = ws.apply_edit(MovePoints([0], [[0.5, 0.5]]))
    assert ws.step_count == 0 and ws.learner.n_updates_ == 0
    assert ("message", "The data changed: training restarted from w = 0.") in rec.calls
    assert isinstance(inverse, MovePoints)
    kinds = [c[0] for c in rec.calls]
    assert kinds.index("dataset") < kinds.index("message")
    assert "learner" not in kinds  # one change, one signal: dataset_changed says it all


def test_edits_recompute_theory_immediately():
    ws = Workspace(Dataset([[-1.0, 0.0], [1.0, 0.0]], [-1, 1]))
    assert ws.max_margin.margin == pytest.approx(1.0)
    ws.apply_edit(MovePoints([1], [[0.5, 0.0]]))
    assert ws.max_margin.margin == pytest.approx(0.75)
    g_before = ws.novikoff.margin
    ws.apply_edit(DeletePoints([1]))
    assert ws.novikoff is None and ws.max_margin.separable is False
    ws.apply_edit(AddPoints([[3.0, 0.0]], [1]))
    assert ws.novikoff.margin != g_before


def test_step_controls_and_end_message():
    ws = Workspace(generators.separable(16, seed=2, margin=0.4))
    rec = Recorder(ws)
    ev = ws.step()
    assert ev.step == 1 and ev.mistake  # from w = 0 every sample is a mistake
    assert ws.can_step_back
    ws.step_back()
    assert ws.step_count == 0 and not ws.can_step_back
    ws.step_epoch()
    assert ws.step_count == 16
    ws.run_to_end()
    assert ws.finished and not ws.can_step
    assert any(c[0] == "message" and c[1].startswith("Converged") for c in rec.calls)
    ws.reset()
    assert ws.step_count == 0 and ws.current_event is None
    assert ws.advance(5) == 5 and ws.step_count == 5


def test_non_separable_run_stops_at_max_epochs_with_a_message():
    ws = Workspace(generators.xor(40, seed=0), params={"primal": {"max_iter": 7}})
    assert ws.readouts().bound_text == "not separable — no bound"
    ws.run_to_end()
    assert ws.finished and not ws.learner.converged_
    assert "max_iter = 7" in ws.end_message()


def test_switching_learners_and_parameters():
    ds = generators.blobs(30, seed=4)
    ws = Workspace(ds)
    rec = Recorder(ws)
    ws.set_learner("dual")
    assert ws.learner.kernel == "linear" and ws.running
    ws.set_params(kernel="rbf", gamma=0.5)
    assert ws.capabilities.nonlinear_kernel and ws.learner.gamma == 0.5
    ws.step_update()
    assert ws.readouts().w is None and ws.proof() is None
    ws.set_learner("lda")
    assert not ws.capabilities.steps and ws.readouts().w is not None
    assert ("learner",) in rec.calls
    with pytest.raises(ValueError, match="eta0"):
        ws.set_params("primal", eta0=-1.0)
    assert ws.all_params()["primal"]["eta0"] == 1.0
    with pytest.raises(ValueError, match="unknown parameter"):
        ws.set_params(colour="red")
    with pytest.raises(ValueError, match="shrinkage"):
        ws.set_params(shrinkage=2.0)


def test_bias_toggle_changes_what_R_measures():
    ds = generators.separable(20, seed=5, margin=0.3)
    ws = Workspace(ds)
    with_bias = ws.novikoff
    assert with_bias.augmented
    ws.set_params(fit_intercept=False)
    without = ws.novikoff
    assert not without.augmented
    assert without.radius == pytest.approx(np.linalg.norm(ds.X, axis=1).max())
    assert with_bias.radius == pytest.approx(np.sqrt((np.linalg.norm(ds.X, axis=1) ** 2
                                                      + 1).max()))


def test_proof_trace_follows_the_cursor():
    ws = Workspace(generators.separable(20, seed=6, margin=0.3))
    ws.step_update()
    ws.step_update()
    trace = ws.proof()
    assert len(trace.k) == 2
    assert np.all(trace.dot >= trace.lower - 1e-12) and np.all(trace.norm2 <= trace.upper)


def test_misclassified_marks_follow_the_weights():
    ws = Workspace(generators.separable(20, seed=7, margin=0.3))
    assert len(ws.misclassified()) == 20  # w = 0: every margin is 0
    ws.run_to_end()
    assert len(ws.misclassified()) == 0


def test_kernel_training_margins_match_events():
    ws = Workspace(generators.circles(40, seed=0), learner="dual",
                   params={"dual": {"kernel": "rbf", "gamma": 0.5}})
    for _ in range(5):
        ws.step_update()
    m = ws.training_margins()
    ev = ws.step()
    assert ev.margin == m[ev.index]
    ws.step_back()
    ws.step_back()
    m2 = ws.training_margins()
    ev2 = ws.step()
    assert ev2.margin == m2[ev2.index]


def test_replace_validates_everything_before_changing_anything():
    ws = Workspace(generators.blobs(10, seed=0))
    before = (ws.dataset, ws.learner_name, ws.all_params())
    with pytest.raises(ValueError, match="eta0"):
        ws.replace(generators.xor(8, seed=0), "dual", {"primal": {"eta0": -1}})
    assert (ws.dataset, ws.learner_name, ws.all_params()) == before
    ws.replace(generators.separable(12, seed=1, margin=0.3), "primal",
               {"primal": {"bias_scale": 2.0}}, step=7)
    assert ws.step_count == 7 and ws.params["bias_scale"] == 2.0


def test_expensive_kernel_margin_can_be_deferred_to_a_worker():
    ds = generators.circles(300, seed=0)
    ws = Workspace(ds, learner="dual", params={"dual": {"kernel": "rbf", "gamma": 0.5}})
    ws.defer_expensive = True
    ws.set_dataset(ds)  # fresh caches
    placeholder = ws.novikoff
    assert placeholder.separable is None and "computing" in placeholder.reason
    assert ws.readouts().bound_text == "computing the kernel margin…"
    token, job = ws.pending_theory()
    result = job()  # what the worker runs
    arrived = []
    ws.events.theory_changed.connect(lambda: arrived.append(True))
    assert ws.provide_novikoff(token, result) and arrived == [True]
    assert ws.novikoff is result and ws.pending_theory() is None
    assert result.radius == pytest.approx(placeholder.radius)
    # a result for stale data is dropped
    ws.set_params(gamma=0.6)
    token2, job2 = ws.pending_theory()
    assert not ws.provide_novikoff(token, result)
    assert ws.provide_novikoff(token2, job2())


def test_linear_margin_of_many_points_is_deferred_and_exact_when_it_arrives():
    from perceptron_gui.core import workspace

    ds = generators.separable(workspace.EXPENSIVE_LINEAR_N + 1, seed=0, margin=0.1)
    ws = Workspace(ds)
    ws.defer_expensive = True
    ws.set_dataset(ds)
    placeholder = ws.novikoff
    assert placeholder.separable is None and placeholder.reason == workspace.COMPUTING_LINEAR
    assert ws.readouts().bound_text == workspace.COMPUTING_LINEAR
    exact = theory.novikoff_or_reason(ds.X, ds.y)
    assert placeholder.radius == pytest.approx(exact.radius, rel=1e-15)
    token, job = ws.pending_theory()
    assert ws.provide_novikoff(token, job())
    assert (ws.novikoff.radius, ws.novikoff.margin, ws.novikoff.bound) == (
        exact.radius, exact.margin, exact.bound)
    # at or below the threshold the margin is computed at once
    small = generators.separable(workspace.EXPENSIVE_LINEAR_N, seed=0, margin=0.1)
    ws.set_dataset(small)
    assert ws.pending_theory() is None and ws.novikoff.separable is True


def test_linear_margin_of_very_many_points_is_deferred_too():
    from perceptron_gui.core import workspace

    ds = generators.separable(50_000, seed=0, margin=0.1)  # the solve takes ~0.1 s here
    ws = Workspace()
    ws.defer_expensive = True
    ws.set_dataset(ds)
    assert ws.novikoff.reason == workspace.COMPUTING_LINEAR
    token, job = ws.pending_theory()
    assert ws.provide_novikoff(token, job()) and ws.novikoff.separable is True


def test_without_deferral_the_kernel_margin_is_immediate():
    ws = Workspace(generators.circles(200, seed=0), learner="dual",
                   params={"dual": {"kernel": "rbf", "gamma": 0.5}})
    assert ws.pending_theory() is None and ws.novikoff.separable is True


def test_advance_for_runs_a_time_slice_and_emits_once():
    ws = Workspace(generators.separable(2000, seed=3, margin=0.01))
    rec = Recorder(ws)
    taken = ws.advance_for(0.5)
    assert ws.finished and taken == ws.step_count  # a fast run ends in one slice
    assert [c for c in rec.calls if c[0] == "run"] == [("run", ws.step_count)]
    core = PrimalPerceptron(random_state=0).fit(ws.dataset.X, ws.dataset.y)
    assert np.array_equal(ws.learner.coef_, core.coef_)
    assert ws.advance_for(0.5) == 0


def test_lda_parameters_refresh_the_overlay_while_another_learner_runs():
    ws = Workspace(generators.blobs(40, seed=2))
    before = ws.lda.coef_.copy()
    seen = []
    ws.events.theory_changed.connect(lambda: seen.append(True))
    ws.set_params("lda", shrinkage=1.0)
    assert seen == [True] and not np.array_equal(ws.lda.coef_, before)


def test_weights_are_the_readouts_model():
    ws = Workspace(generators.blobs(40, seed=3))
    assert ws.weights() is not None and not np.any(ws.weights()[0])  # w = 0 at the start
    ws.advance(25)
    w, b = ws.weights()
    r = ws.readouts()
    np.testing.assert_array_equal(w, r.w)
    assert b == r.b and not w.flags.writeable
    np.testing.assert_array_equal(w, ws.learner.coef_[0])
    ws.set_learner("lda")  # not running: LDA's fit
    w, b = ws.weights()
    np.testing.assert_array_equal(w, ws.lda.coef_[0])
    assert b == float(ws.lda.intercept_[0]) == ws.readouts().b
    ws.set_learner("dual")
    ws.set_params("dual", kernel="rbf")
    ws.advance(5)
    assert ws.weights() is None and ws.readouts().w is None  # a kernel has no w
    assert Workspace().weights() is None  # no data, no model


@pytest.mark.parametrize("learner", ["primal", "dual", "lda"])
def test_take_over_equals_replace_and_builds_nothing(learner, monkeypatch):
    from perceptron_gui.core import workspace as workspace_module

    ds = generators.blobs(80, seed=3)
    params = {"primal": {"random_state": 4, "bias_scale": 2.0}, "dual": {"kernel": "rbf"}}
    loaded = Workspace(ds, learner=learner, params=params)
    step = 0
    if loaded.running:
        loaded.advance(37)
        step = loaded.step_count
    expected = Workspace()
    expected_heard = []
    for name in ("dataset_changed", "learner_changed", "run_changed"):
        getattr(expected.events, name).connect(lambda *a, _n=name: expected_heard.append(_n))
    expected.replace(ds, learner, loaded.all_params(), step)
    ws = Workspace(generators.blobs(30, seed=9))
    heard = []
    for name in ("dataset_changed", "learner_changed", "run_changed"):
        getattr(ws.events, name).connect(lambda *a, _n=name: heard.append(_n))
    built = []
    monkeypatch.setattr(workspace_module, "build", lambda *a, **k: built.append(a))
    ws.take_over(loaded)
    assert built == []  # the loaded learner is installed, not rebuilt (or replayed)
    assert ws.dataset is ds and ws.learner_name == learner
    assert ws.all_params() == expected.all_params() and ws.step_count == step
    got, want = ws.readouts(), expected.readouts()
    for f in dataclasses.fields(want):
        a, b = getattr(got, f.name), getattr(want, f.name)
        if isinstance(b, np.ndarray):
            assert np.array_equal(a, b, equal_nan=True), f.name
        else:
            assert a == b or (a != a and b != b), f.name  # noqa: PLR0124 - NaN
    assert heard == ["dataset_changed"]  # one signal, whatever the step
    assert heard == expected_heard


def test_a_separable_run_out_of_epochs_says_it_needs_more_epochs():
    """It said "the data are not linearly separable (or need more epochs)" while the
    readout beside it said separable with γ > 0."""
    ds = generators.separable(40, seed=0, margin=0.01)
    for learner, params in [("primal", {"max_iter": 2}),
                            ("dual", {"max_iter": 2, "kernel": "rbf", "gamma": 0.01})]:
        ws = Workspace(ds, learner=learner, params={learner: params})
        ws.run_to_end()
        assert ws.finished and not ws.learner.converged_
        readouts = ws.readouts()
        assert readouts.separable and readouts.gamma > 0
        message = ws.end_message()
        assert "not separable" not in message and "(certified: γ = " in message
        assert "needs more epochs" in message and len(message) < 300
        assert f"(R/γ)² = {text.fmt(ws.novikoff.bound)} updates" in message
        assert f"{ws.learner.n_updates_:,} made" in message
        assert readouts.status == message


def test_a_run_out_of_epochs_says_when_separability_is_unknown(monkeypatch):
    monkeypatch.setattr(certificate, "KERNEL_MARGIN_MAX_N", 10)
    ws = Workspace(generators.xor(40, seed=0), learner="dual",
                   params={"dual": {"max_iter": 1, "kernel": "rbf"}})
    ws.run_to_end()
    assert ws.novikoff.separable is None and not ws.learner.converged_
    message = ws.end_message()
    assert "is not known (the kernel margin is not computed above 10 points" in message
    assert "not separable" not in message and len(message) < 300


def test_a_non_separable_run_out_of_epochs_says_more_epochs_would_not_help():
    ws = Workspace(generators.xor(40, seed=0), params={"primal": {"max_iter": 7}})
    ws.run_to_end()
    assert ws.end_message().endswith("the data are not linearly separable, so more epochs "
                                     "would not help.")
