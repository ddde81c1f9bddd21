"""A run's memory is bounded: a log over its budget keeps checkpoints and replays, exactly.

Each test runs the same learner twice, once under a small budget (the log
thins) and once under the default one (every row kept, the reference), and
checks that every query answers the same bits.
"""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pytest

from perceptron_gui.core import Workspace, generators, report
from perceptron_gui.core.learners import DualPerceptron, PrimalPerceptron, _log, _scan
from perceptron_gui.core.readouts import last_update_event

#: Data at large scale (`make test` runs these too).
pytestmark = pytest.mark.slow

BUDGET = 2**20  # 1 MiB


def same_event(a, b) -> bool:
    if a is None or b is None:
        return a is b
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if not (isinstance(x, np.ndarray) and isinstance(y, np.ndarray)
                    and x.tobytes() == y.tobytes()):
                return False
        elif x != y and not (x != x and y != y):
            return False
    return True


def bounded(monkeypatch, make, X, y, budget=BUDGET, slice_steps=20_000):
    """``make()`` started on X, y under ``budget``, run to the end in slices: (learner, peak)."""
    monkeypatch.setattr(_log, "LOG_BYTES", budget)
    learner = make().start(X, y)
    monkeypatch.undo()
    peak = 0
    while not learner.finished:
        learner.advance(slice_steps)
        peak = max(peak, learner.update_log.nbytes)
    return learner, peak


def overlapping():
    return generators.overlapping(2000, seed=1)


def test_a_long_non_separable_run_stays_under_a_small_budget_and_answers_exactly(monkeypatch):
    ds = overlapping()

    def make():
        return PrimalPerceptron(max_iter=300)

    small, peak = bounded(monkeypatch, make, ds.X, ds.y)
    ref = make().fit(ds.X, ds.y)
    log, ref_log = small.update_log, ref.update_log
    assert ref_log.nbytes > 8 * BUDGET  # the run would need far more than the budget
    assert log.thinned and peak <= BUDGET
    assert len(log) == len(ref_log) > 100_000
    assert small.coef_.tobytes() == ref.coef_.tobytes()
    rng = np.random.default_rng(0)
    for step in rng.integers(1, ref.step_count + 1, 60).tolist():
        assert same_event(small.seek(step), ref.seek(step))
        assert small.coef_.tobytes() == ref.coef_.tobytes()
        assert small.intercept_.tobytes() == ref.intercept_.tobytes()
        assert small.n_updates_ == ref.n_updates_
        assert same_event(small.event(step), ref.event(step))
        assert np.array_equal(small.mistakes_per_epoch(), ref.mistakes_per_epoch())
        assert same_event(small.step_back(), ref.step_back())
        assert same_event(small.step_update(), ref.step_update())
        assert log.count_before(step) == ref_log.count_before(step)
    for k0 in rng.integers(0, len(log), 20).tolist():
        a, b = log.rows(k0, k0 + 3000), ref_log.rows(k0, k0 + 3000)
        for x, z in zip(a, b, strict=True):
            assert x.tobytes() == z.tobytes()
    assert log.nbytes <= BUDGET


@pytest.mark.parametrize("backend", ["numpy", "compiled"])
def test_a_replay_is_bit_identical_with_either_scan(monkeypatch, backend):
    if backend == "compiled" and not _scan.compiled_available():
        pytest.skip("numba not available")
    ds = generators.xor(600, seed=2)

    def make():
        return PrimalPerceptron(order="random", random_state=4, max_iter=200)

    monkeypatch.setattr(_scan, "FORCE", backend)
    small, peak = bounded(monkeypatch, make, ds.X, ds.y, budget=2**16, slice_steps=7_000)
    ref = make().fit(ds.X, ds.y)
    assert small.update_log.thinned and peak <= 2**16
    a, b = small.update_log.rows(), ref.update_log.rows()
    for x, z in zip(a, b, strict=True):
        assert x.tobytes() == z.tobytes()


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_the_dual_run_is_bounded_too_and_alpha_stays_exact(monkeypatch, kernel):
    ds = generators.overlapping(300, seed=3)

    def make():
        return DualPerceptron(kernel=kernel, max_iter=60, order="random", random_state=1)

    budget = 2**15
    small, peak = bounded(monkeypatch, make, ds.X, ds.y, budget=budget, slice_steps=3_000)
    ref = make().fit(ds.X, ds.y)
    assert small.update_log.thinned and peak <= budget < ref.update_log.nbytes
    rng = np.random.default_rng(1)
    for step in rng.integers(1, ref.step_count + 1, 12).tolist():
        assert same_event(small.seek(step), ref.seek(step))
        assert np.array_equal(small.alpha_, ref.alpha_)
        assert np.array_equal(small.support_, ref.support_)
        assert small.training_margins().tobytes() == ref.training_margins().tobytes()
        k = small.n_updates_
        assert np.array_equal(small.alpha_after(k // 2), ref.alpha_after(k // 2))
        assert same_event(small.step_back(), ref.step_back())


def test_consumers_read_a_thinned_log_exactly(monkeypatch):
    ds = overlapping()

    def make():
        return PrimalPerceptron(max_iter=100)

    small, _ = bounded(monkeypatch, make, ds.X, ds.y)
    ref = make().fit(ds.X, ds.y)
    assert small.update_log.thinned
    for u in (0, 1, len(ref.update_log) // 3, len(ref.update_log) - 1):
        a, b = report.update_row(small, u), report.update_row(ref, u)
        assert (a.step, a.sample, a.margin, a.b_after, a.formula) == (
            b.step, b.sample, b.margin, b.b_after, b.formula)
        assert a.w_after.tobytes() == b.w_after.tobytes()
    for step in (ref.step_count // 2, ref.step_count):
        small.seek(step), ref.seek(step)
        assert same_event(last_update_event(small), last_update_event(ref))
        # the plots' points are exact: after step s the run had made c updates, with w, b
        pts = small.update_log.samples(small.n_updates_)
        assert len(pts.step) <= 4096 and pts.index[-1] == small.n_updates_
        for s, c, w, b in list(zip(pts.step, pts.index, pts.w, pts.b, strict=True))[::301]:
            assert ref.update_log.count_before(int(s)) == c
            w_ref, b_ref = ref.update_log.state_after(int(c))
            assert w.tobytes() == w_ref.tobytes() and b == b_ref
    # the timeline's marks: exact after the last checkpoint, at checkpoint resolution before
    steps = np.linspace(0, ref.step_count, 500).astype(np.int64)
    got = small.update_log.counts_before(steps)
    want = np.array([ref.update_log.count_before(int(t)) for t in steps])
    assert np.all(got <= want) and got[-1] == want[-1]


def test_a_pickled_thinned_run_rewinds_exactly(monkeypatch):
    ds = generators.xor(500, seed=5)

    def make():
        return PrimalPerceptron(max_iter=200)

    small, _ = bounded(monkeypatch, make, ds.X, ds.y, budget=2**16)
    ref = make().fit(ds.X, ds.y)
    copy = pickle.loads(pickle.dumps(small))
    assert copy.update_log.thinned
    for step in (1, ref.step_count // 3, ref.step_count - 1):
        assert same_event(copy.seek(step), ref.seek(step))


def test_the_workspace_proof_is_bounded_and_exact_at_its_points():
    ws = Workspace(generators.separable(400, seed=2, margin=0.01))
    ws.run_to_end()
    trace = ws.proof()
    k = ws.learner.n_updates_
    assert trace is not None and trace.k[-1] == k and len(trace.k) == min(k, 4096)
    assert trace.holds
    # each point is the run's own w_k (augmented with b_k / c), read from the log
    nov = ws.novikoff
    for j in (0, len(trace.k) // 2, len(trace.k) - 1):
        w, b = ws.learner.update_log.state_after(int(trace.k[j]))
        v = np.r_[w, b]  # bias_scale c = 1
        np.testing.assert_allclose([trace.norm2[j], trace.dot[j]], [v @ v, v @ nov.w_star],
                                   rtol=1e-14)  # the same w_k; sums may round apart


def test_a_replay_rebuilds_at_most_a_block_of_rows(monkeypatch):
    # over a long run the checkpoints are halved many times: no segment may grow past
    # the budget's share (a seek into it caches it), old ones included
    ds = generators.overlapping(300, seed=7)

    def make():
        return PrimalPerceptron(max_iter=1500)

    budget = 2**16
    small, _ = bounded(monkeypatch, make, ds.X, ds.y, budget=budget, slice_steps=5_000)
    log = small.update_log
    assert log.thinned and len(log) < budget**2 / (16 * 48 * 40)  # within the stated bound
    # a smallest segment cost above a block's worth of updates left 343 rows here
    assert 0 < log.max_replay_rows <= budget // 8 // 48
    for step in (1, 10, 500, 2_000, small.step_count // 10, small.step_count // 2):
        small.seek(step)
        small.step_back()
        assert log.nbytes <= budget


def test_a_dual_learner_fitted_again_forgets_the_copies_of_alpha_of_its_last_run():
    # the copies of alpha (every 2**14 updates) outlived start(): a second fit read
    # the first run's copies and predicted with the wrong alpha
    from perceptron_gui.core import generators

    a, b = generators.overlapping(300, seed=1), generators.overlapping(300, seed=7)

    def make():
        return DualPerceptron(kernel="rbf", gamma=0.5, max_iter=600)

    def at(learner, k):
        learner.seek(learner.update_log.step_of(k - 1))

    learner = make().fit(a.X, a.y)
    assert len(learner.update_log) > 20_000
    at(learner, 15_000)
    at(learner, 20_000)
    learner.fit(b.X, b.y)
    fresh = make().fit(b.X, b.y)
    at(learner, 17_000)
    at(fresh, 17_000)
    assert np.array_equal(learner.alpha_, fresh.alpha_)
    assert np.array_equal(learner.decision_function(b.X), fresh.decision_function(b.X))


def test_a_kernel_run_has_its_training_samples_from_its_first_step():
    from perceptron_gui.core import generators

    data = generators.circles(40, seed=0)
    learner = DualPerceptron(kernel="rbf").fit(data.X, data.y)
    assert learner.X_fit_ is learner.training_X and not hasattr(learner, "coef_")


def test_the_first_rows_past_each_cost_mark_are_those_of_the_whole_log():
    # found a block at a time; the oracle works the costs out for every row at once
    rng = np.random.default_rng(0)
    for _ in range(300):
        block, n = int(rng.integers(1, 50)), int(rng.integers(1, 400))
        store = _log._Store(2, block)
        steps = np.cumsum(rng.integers(1, 30, n))
        k = 0
        while k < n:
            buffers = store.free(n - k)
            m = len(buffers[0])
            buffers[0][:] = steps[k : k + m]
            store.commit(m)
            k += m
        quantum = int(rng.integers(1, 200))
        cost = steps + _log.UPDATE_COST * np.arange(1, n + 1)
        marks = np.arange(quantum, int(cost[-1]) + 1, quantum)
        expected = np.unique(np.searchsorted(cost, marks, side="left"))
        np.testing.assert_array_equal(_log._first_rows_past(store, quantum),
                                      expected[expected < n])


def test_the_samples_end_at_the_kth_update_however_few_are_asked(monkeypatch):
    ds = overlapping()
    ref = PrimalPerceptron(max_iter=20).fit(ds.X, ds.y)
    small, _ = bounded(monkeypatch, lambda: PrimalPerceptron(max_iter=20), ds.X, ds.y)
    for learner in (ref, small):
        log = learner.update_log
        for k in (1, 2, len(log) // 2, len(log)):
            for m in (1, 2, 7):
                pts = log.samples(k, m)
                assert len(pts.index) <= m and pts.index[-1] == k  # the k-th update last
                w, b = ref.update_log.state_after(k)
                assert pts.w[-1].tobytes() == w.tobytes() and pts.b[-1] == b
