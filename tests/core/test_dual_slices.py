"""A kernel run in time slices is the same run; a step at the frontier costs O(n).

The window runs "run to end" in slices of a frame's budget: the learner stops
at a deadline between two updates (a kernel update costs O(n)), so Cancel is
handled within one update.  The run must not depend on where it was cut.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from perceptron_gui.core import Workspace, generators
from perceptron_gui.core.learners import DualPerceptron, PrimalPerceptron


def circles():
    return generators.circles(120, seed=3)


def dual(**kw):
    return DualPerceptron(kernel="rbf", gamma=0.7, max_iter=30, **kw)


def log_of(learner):
    log = learner.update_log.rows()
    return log.step.copy(), log.index.copy(), log.margin.copy(), log.b.copy()


@pytest.mark.parametrize("order", ["cyclic", "random"])
def test_a_run_cut_at_every_update_is_the_same_run(order):
    ds = circles()
    whole = dual(order=order, random_state=5).fit(ds.X, ds.y)
    sliced = dual(order=order, random_state=5).start(ds.X, ds.y)
    calls = 0
    while not sliced.finished:
        taken = sliced.advance(10**9, deadline=time.perf_counter())  # time is always up
        assert taken >= 1
        calls += 1
    assert calls > whole.n_updates_ // 2  # it was cut: about once per update
    for a, b in zip(log_of(whole), log_of(sliced), strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(whole.alpha_, sliced.alpha_)
    assert (whole.step_count, whole.converged_) == (sliced.step_count, sliced.converged_)


def test_a_deadline_never_stops_a_slice_before_its_first_step():
    ds = generators.separable(200, seed=1, margin=0.05)
    for learner in (PrimalPerceptron().start(ds.X, ds.y), dual().start(ds.X, ds.y)):
        assert learner.advance(50, deadline=0.0) >= 1


def test_workspace_slices_keep_to_their_budget():
    ws = Workspace(circles(), learner="dual", params={"dual": {"kernel": "rbf", "gamma": 0.7}})
    taken = ws.advance_for(0.0)
    assert taken >= 1 and ws.step_count == taken


def test_margins_at_the_frontier_are_those_rebuilt_from_the_kernel_rows():
    ds = circles()
    stepped = dual().start(ds.X, ds.y)
    events = []
    while not stepped.finished:  # each step at the frontier: its margin read from there
        events.append(stepped.step())
    replayed = dual().fit(ds.X, ds.y)  # the cursor at the end: earlier steps rebuilt
    assert replayed.frontier == stepped.frontier
    for ev in events[:-1]:
        assert replayed.event(ev.step) == ev
    middle = len(events) // 2
    replayed.seek(middle)  # behind its frontier: the margins rebuilt from the rows
    fresh = dual().start(ds.X, ds.y)
    fresh.seek(middle)  # at its frontier: the frontier's values
    assert replayed.frontier > middle == fresh.frontier
    np.testing.assert_array_equal(replayed.training_margins(), fresh.training_margins())


def test_the_support_is_the_nonzero_alphas_at_every_cursor():
    # early in the run the support comes from sorting the few updates, later from a pass
    # over the samples: the same sorted indices either way
    ds = generators.circles(400, noise=0.3, seed=4)
    learner = dual(order="random", random_state=2).start(ds.X, ds.y)
    sizes = set()
    while not learner.finished and learner.n_updates_ < 3000:
        learner.step_update()
        sizes.add(learner.n_updates_)
        np.testing.assert_array_equal(learner.support_, np.flatnonzero(learner.alpha_))
        assert learner.support_.dtype == np.int64
    assert min(sizes) * 2 < ds.n // 8 < max(sizes)  # both ways were taken
    for step in (1, learner.step_count // 3, learner.step_count):  # and back again
        learner.seek(step)
        np.testing.assert_array_equal(learner.support_, np.flatnonzero(learner.alpha_))


def test_a_cursor_behind_the_frontier_is_rebuilt_from_kept_copies_to_the_same_bits(monkeypatch):
    from perceptron_gui.core.learners import dual as dual_module

    ds = circles()
    monkeypatch.setattr(dual_module, "SNAPSHOT_BYTES", 4 * 8 * ds.n)  # room for 4 copies
    monkeypatch.setattr(dual_module, "SNAPSHOT_MIN_WORK", 1)  # from a copy at every update
    replayed = dual().fit(ds.X, ds.y)
    k = replayed.n_updates_
    assert k > 16
    kept = replayed._snaps  # the copies' spacing is what is tested
    every = replayed._snaps.every
    assert 1 < len(kept) <= 4 and every > 1 and all(c % every == 0 for c in kept)
    steps = replayed.update_log.rows().step
    for step in [0, 1, int(steps[3]), int(steps[k // 2]) - 1, int(steps[k // 2]),
                 int(steps[-2]) + 1, replayed.frontier - 1]:
        replayed.seek(step)
        fresh = dual().start(ds.X, ds.y)
        fresh.seek(step)  # at its frontier: the values the run had there
        np.testing.assert_array_equal(replayed.training_margins(), fresh.training_margins())
        if step:
            assert replayed.event(step) == fresh.event(step)
    # a step back costs fewer kernel rows than the copies' spacing (each row counted once)
    replayed.seek(int(steps[k // 2]) - 1)
    computed = []
    original = replayed.kernel_function.__class__.__call__
    monkeypatch.setattr(type(replayed.kernel_function), "__call__",
                        lambda self, *a, **kw: (computed.append(1), original(self, *a, **kw))[1])
    replayed._rows.clear()  # no row cached: every row needed is computed
    replayed.step_back()
    replayed.training_margins()
    assert 0 < len(computed) < every


def test_a_small_run_keeps_copies_far_apart():
    # a copy at every update would cost more memory than it saves time at small n:
    # they are at least SNAPSHOT_MIN_WORK kernel values apart
    from perceptron_gui.core.learners import dual as dual_module

    ds = circles()
    learner = dual().fit(ds.X, ds.y)
    every = learner._snaps.every
    assert every >= dual_module.SNAPSHOT_MIN_WORK // ds.n > 1
    assert all(c % every == 0 for c in learner._snaps)
    assert len(learner._snaps) <= learner.n_updates_ // every
