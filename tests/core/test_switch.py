"""A learner switch on a large data set is built off the UI thread and installed at once.

``Workspace.request_learner`` / ``request_params`` return a pending
:class:`~perceptron_gui.core.switch.Switch` (the workspace unchanged), a worker
runs ``switch.run()``, and ``commit_switch`` installs it unless a newer
request, a data edit or a synchronous change came after it.  What it installs
is what ``set_learner`` / ``set_params`` would have made, bit for bit.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from perceptron_gui.core import Workspace, generators, scale, switch, workspace
from perceptron_gui.core.dataset import AddPoints, Dataset
from perceptron_gui.core.learners.registry import DEFAULT_PARAMS
from perceptron_gui.core.switch import Switch

N = 600


@pytest.fixture
def large(monkeypatch):
    """A deferring workspace whose data count as large (the threshold lowered)."""
    monkeypatch.setattr(scale, "LARGE_N", N - 1)
    ws = Workspace(generators.blobs(N, seed=4))
    ws.defer_expensive = True
    return ws


def signals(ws) -> list:
    seen = []
    for name in ("learner_changed", "switch_changed", "theory_changed"):
        getattr(ws.events, name).connect(lambda *a, _n=name: seen.append(_n))
    return seen


def same_as_sync(ws) -> Workspace:
    """A workspace that made the same choice synchronously."""
    ref = Workspace(ws.dataset, learner=ws.learner_name, params=ws.all_params())
    ref.defer_expensive = ws.defer_expensive
    return ref


def test_small_data_switch_at_once():
    ws = Workspace(generators.blobs(40, seed=0))
    ws.defer_expensive = True
    assert ws.request_learner("lda") is None
    assert ws.learner_name == "lda" and ws.pending_switch is None
    assert ws.request_params(shrinkage="auto") is None
    assert ws.params["shrinkage"] == "auto"


def test_without_a_worker_the_switch_is_at_once(monkeypatch):
    monkeypatch.setattr(scale, "LARGE_N", 10)
    ws = Workspace(generators.blobs(40, seed=0))  # defer_expensive is False
    assert ws.request_learner("dual") is None and ws.learner_name == "dual"


def test_the_old_learner_stays_until_the_switch_is_committed(large):
    ws = large
    ws.step_update()
    learner, steps = ws.learner, ws.step_count
    seen = signals(ws)
    switch = ws.request_learner("lda")
    assert isinstance(switch, Switch) and ws.pending_switch is switch
    assert seen == ["switch_changed"]
    assert ws.learner_name == "primal" and ws.learner is learner and ws.step_count == steps
    assert (switch.learner_name, switch.dataset) == ("lda", ws.dataset)
    switch.run()
    assert ws.learner is learner  # building changes nothing in the workspace
    assert ws.commit_switch(switch)
    assert seen == ["switch_changed", "learner_changed"]  # installing it is one change
    assert ws.learner_name == "lda" and ws.pending_switch is None
    ref = same_as_sync(ws)
    np.testing.assert_array_equal(ws.learner.coef_, ref.learner.coef_)
    np.testing.assert_array_equal(ws.learner.intercept_, ref.learner.intercept_)
    np.testing.assert_array_equal(ws.training_margins(), ref.training_margins())
    assert ws.readouts().margin == ref.readouts().margin
    assert ws.readouts().status == ref.readouts().status


def test_lda_from_a_switch_matches_scikit_learn(large):
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    ws = large
    ws.commit_switch(ws.request_learner("lda").run())
    X, y = ws.dataset.X, ws.dataset.y
    sk = LinearDiscriminantAnalysis(solver="lsqr").fit(X, y)
    factor = (N - 2) / N  # sklearn's covariance divides by n, ours by n - 2
    np.testing.assert_allclose(ws.learner.coef_, sk.coef_ * factor, rtol=1e-9)
    np.testing.assert_array_equal(np.sign(ws.learner.decision_function(X)),
                                  np.sign(sk.decision_function(X)))


def test_built_in_another_thread_while_the_old_learner_steps(large):
    ws = large
    switch = ws.request_params("dual", kernel="rbf", gamma=0.5)
    assert switch is None  # the dual is not in use: its parameters change at once
    switch = ws.request_learner("dual")
    worker = threading.Thread(target=switch.run)
    worker.start()
    for _ in range(50):  # the UI thread keeps using the old learner meanwhile
        ws.step()
    worker.join()
    assert ws.learner_name == "primal" and ws.step_count == 50
    assert ws.commit_switch(switch)
    assert ws.learner_name == "dual" and ws.params["kernel"] == "rbf" and ws.step_count == 0
    ref = same_as_sync(ws)
    ws.step_update()
    ref.step_update()
    assert ws.current_event == ref.current_event
    np.testing.assert_array_equal(ws.training_margins(), ref.training_margins())
    assert ws.readouts().bound_text == ref.readouts().bound_text


def test_a_newer_request_makes_the_older_stale(large):
    ws = large
    first = ws.request_learner("lda")
    second = ws.request_learner("dual")
    assert ws.pending_switch is second
    assert not ws.commit_switch(first.run())
    assert ws.learner_name == "primal"
    assert ws.commit_switch(second.run()) and ws.learner_name == "dual"


def test_requests_add_up_while_one_is_pending(large):
    ws = large
    ws.request_learner("dual")
    switch = ws.request_params(kernel="poly", degree=2)  # the dual's, though primal is in use
    assert switch.learner_name == "dual" and switch.params["dual"]["kernel"] == "poly"
    assert ws.params == workspace.DEFAULT_PARAMS["primal"]
    assert ws.commit_switch(switch.run())
    assert ws.learner_name == "dual" and (ws.params["kernel"], ws.params["degree"]) == ("poly", 2)


def test_asking_for_the_learner_in_use_drops_the_pending_switch(large):
    ws = large
    switch = ws.request_learner("lda")
    seen = signals(ws)
    assert ws.request_learner("primal") is None
    assert ws.pending_switch is None and seen == ["switch_changed"]
    assert not ws.commit_switch(switch.run()) and ws.learner_name == "primal"


def test_a_data_edit_builds_the_requested_learner_for_the_new_data(large):
    ws = large
    old = ws.request_learner("lda")
    ws.apply_edit(AddPoints([[0.0, 0.0]], 1))
    new = ws.pending_switch
    assert new is not old and new.learner_name == "lda" and new.dataset is ws.dataset
    assert not ws.commit_switch(old.run())
    assert ws.commit_switch(new.run()) and ws.learner.n_features_in_ == 2
    np.testing.assert_array_equal(ws.learner.coef_, same_as_sync(ws).learner.coef_)


@pytest.mark.parametrize("change", ["set_learner", "set_params", "replace"])
def test_a_synchronous_change_drops_the_pending_switch(large, change):
    ws = large
    switch = ws.request_learner("lda")
    {"set_learner": lambda: ws.set_learner("dual"),
     "set_params": lambda: ws.set_params(eta0=0.5),
     "replace": lambda: ws.replace(ws.dataset, "primal", {})}[change]()
    assert ws.pending_switch is None
    assert not ws.commit_switch(switch.run())
    assert ws.learner_name != "lda"


def test_invalid_values_are_refused_at_once(large):
    ws = large
    with pytest.raises(ValueError, match="gamma"):
        ws.request_params("dual", gamma=-1.0)
    with pytest.raises(ValueError, match="unknown"):
        ws.request_params(nonsense=1)
    assert ws.pending_switch is None


def test_a_failed_build_is_dropped_with_a_message(large):
    ws = large
    messages = []
    ws.events.message.connect(messages.append)
    switch = ws.request_learner("dual")
    assert ws.drop_switch(switch, "overflow")
    assert ws.pending_switch is None and ws.learner_name == "primal"
    assert messages == ["Not changed: cannot use these parameters on this data: overflow"]
    assert not ws.drop_switch(switch, "again")


def test_the_switch_precomputes_what_the_first_frame_reads(large):
    ws = large
    switch = ws.request_learner("dual").run()
    ws.commit_switch(switch)
    assert ws.novikoff.reason == workspace.COMPUTING_LINEAR  # deferred: its placeholder
    token, job = ws.pending_theory()
    assert ws.provide_novikoff(token, job())
    ref = same_as_sync(ws)
    ref.defer_expensive = False
    assert (ws.novikoff.radius, ws.novikoff.bound) == (ref.novikoff.radius, ref.novikoff.bound)


def test_lda_and_the_maximum_margin_are_kept_across_learner_switches():
    ws = Workspace(generators.separable(60, seed=2, margin=0.2))
    mm, lda = ws.max_margin, ws.lda
    ws.set_learner("dual")
    assert ws.max_margin is mm and ws.lda is lda
    ws.set_params("lda", shrinkage="auto")
    assert ws.lda is not lda and ws.max_margin is mm
    ws.apply_edit(AddPoints([[0.0, 0.0]], 1))
    assert ws.max_margin is not mm


@pytest.mark.parametrize("scale", [1e-300, 1e-150, 1.0, 1e150, 1e300])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_the_placeholder_radius_from_the_cached_one_is_the_exact_radius(scale, fit_intercept):
    rng = np.random.default_rng(11)
    X = rng.normal(size=(400, 2)) * scale * np.array([3.0, 0.2])
    ds = Dataset(X, np.where(X[:, 0] > 0, 1, -1))
    params = {key: dict(values) for key, values in DEFAULT_PARAMS.items()}
    params["primal"].update(fit_intercept=fit_intercept, bias_scale=2.5 * scale)
    job = switch.novikoff_job(ds, "primal", params)
    cached = switch.placeholder(job, radius=ds.radius()).radius
    assert cached == pytest.approx(switch.placeholder(job).radius, rel=1e-15)
    assert cached == pytest.approx(job().radius, rel=1e-15)
