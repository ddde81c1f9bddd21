"""A learner switch on many points is built in the worker; the canvas shows the old one meanwhile.

At 10⁵ points the window asks the workspace for a switch (``request_learner``)
and the theory worker builds it (LDA fitted, the perceptron started); until
it is ready the canvas, the readouts and the run are the old learner's, and
the panel shows the choice.  What arrives is exactly what a synchronous switch
makes; a switch overtaken by a newer one is dropped.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.core.learners.lda import LDA
from perceptron_gui.core.switch import Switch
from tests.ui.helpers import settle

N = 100_000


@pytest.fixture
def gate(monkeypatch):
    """Switches wait in their worker until the gate opens (so the test sees the meantime)."""
    opened = threading.Event()
    run = Switch.run

    def held(self):
        assert opened.wait(60)
        return run(self)

    monkeypatch.setattr(Switch, "run", held)
    yield opened
    opened.set()


@pytest.fixture
def large(qtbot, window):
    window.push_edit(ReplaceAll.from_dataset(generators.blobs(N, seed=3, distance=3.0)))
    qtbot.waitUntil(lambda: not window.theory_worker.busy, timeout=60_000)
    for _ in range(3):
        window.actionStep.trigger()
    settle(qtbot, window)  # drawn and laid out, the theory computed
    return window


def select(window, key: str) -> None:
    selector = window.learner_panel.selector
    selector.setCurrentIndex(selector.findData(key))


def boundary(window):
    x, y = window.canvas.layer("boundary").items["boundary"].getData()
    return np.array(x, dtype=float), np.array(y, dtype=float)


def test_the_old_learner_is_shown_until_lda_is_ready(qtbot, large, gate):
    window, ws = large, large.workspace
    before, steps, line = ws.learner, ws.step_count, boundary(large)
    text = window.readouts.values()["k"]
    select(window, "lda")
    assert ws.pending_switch is not None and window.theory_worker.busy
    qtbot.wait(300)  # the event loop runs: repaints, the readouts' timer
    assert ws.learner is before and ws.learner_name == "primal" and ws.step_count == steps
    np.testing.assert_array_equal(boundary(window)[0], line[0])
    assert window.readouts.values()["k"] == text
    assert window.learner_panel.selector.currentData() == "lda"  # the choice is shown
    assert window.actionStep.isEnabled()
    gate.set()
    qtbot.waitUntil(lambda: ws.learner_name == "lda", timeout=60_000)
    qtbot.waitUntil(lambda: not window.theory_worker.busy, timeout=60_000)
    exact = LDA(**ws.params).fit(ws.dataset.X, ws.dataset.y)
    np.testing.assert_array_equal(ws.learner.coef_, exact.coef_)
    np.testing.assert_array_equal(ws.learner.intercept_, exact.intercept_)
    window.canvas.refresh()
    x, y = boundary(window)
    w, b = exact.coef_[0], exact.intercept_[0]
    scale = np.abs(w[0] * x) + np.abs(w[1] * y) + abs(b)
    assert np.all(np.abs(w[0] * x + w[1] * y + b) <= 1e-9 * scale)  # the LDA line is drawn


def test_lda_of_the_switch_matches_scikit_learn(qtbot, large):
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    ws = large.workspace
    select(large, "lda")
    qtbot.waitUntil(lambda: ws.learner_name == "lda", timeout=60_000)
    sk = LinearDiscriminantAnalysis(solver="lsqr").fit(ws.dataset.X, ws.dataset.y)
    np.testing.assert_allclose(ws.learner.coef_, sk.coef_ * (N - 2) / N, rtol=1e-9)


def test_a_switch_overtaken_by_another_is_dropped(qtbot, large, gate):
    window, ws = large, large.workspace
    installed = []
    ws.events.learner_changed.connect(lambda: installed.append(ws.learner_name))
    select(window, "lda")
    select(window, "dual")
    box = window.learner_panel.control("dual", "kernel")
    box.setCurrentIndex(box.findData("rbf"))
    assert ws.learner_name == "primal"
    gate.set()
    qtbot.waitUntil(lambda: not window.theory_worker.busy, timeout=60_000)
    assert installed == ["dual"] and ws.params["kernel"] == "rbf"
    assert window.learner_panel.selector.currentData() == "dual"
    window.actionStep.trigger()
    assert ws.step_count >= 1


def test_small_data_still_switch_at_once(qtbot, window):
    window.push_edit(ReplaceAll.from_dataset(generators.blobs(200, seed=0)))
    select(window, "lda")
    assert window.workspace.learner_name == "lda" and window.workspace.pending_switch is None


def test_a_long_background_computation_shows_a_busy_bar(qtbot, large, gate):
    from perceptron_gui.ui.features.theory_worker import PROGRESS_AFTER_MS

    window = large
    bar = window.theory_worker.progress
    assert not bar.isVisible()
    select(window, "lda")
    qtbot.waitUntil(bar.isVisible, timeout=PROGRESS_AFTER_MS + 5000)
    assert bar.maximum() == 0  # busy, no fraction
    gate.set()
    qtbot.waitUntil(lambda: not window.theory_worker.busy, timeout=60_000)
    qtbot.waitUntil(lambda: not bar.isVisible(), timeout=5000)


@pytest.mark.parametrize("key", ["qda", "naive_bayes"])
def test_a_generative_learner_is_fitted_and_scored_off_the_ui_thread(qtbot, large, monkeypatch,
                                                                     key):
    """QDA's and naive Bayes's fit and their margins on every point are the worker's."""
    from perceptron_gui.core.learners import registry

    window, ws = large, large.workspace
    cls = registry.get(key).cls
    threads = []
    for name in ("fit", "decision_function"):
        real = getattr(cls, name)

        def spy(self, *args, _real=real, _name=name):
            threads.append((_name, len(args[0]), threading.current_thread()))
            return _real(self, *args)

        monkeypatch.setattr(cls, name, spy)
    select(window, key)
    assert ws.pending_switch is not None
    qtbot.waitUntil(lambda: ws.learner_name == key, timeout=60_000)
    qtbot.waitUntil(lambda: not window.theory_worker.busy, timeout=60_000)
    window.canvas.refresh()
    assert {name for name, n, _ in threads if n == N} == {"fit", "decision_function"}
    on_ui = [(name, n) for name, n, t in threads if t is threading.main_thread() and n == N]
    assert on_ui == []  # the grid of the contour is the UI thread's; never all N points
    margins = ws.training_margins()
    np.testing.assert_array_equal(margins, ws.dataset.y * ws.learner.decision_function(
        ws.dataset.X))
    assert ws.readouts().training_error == pytest.approx(np.mean(margins <= 0))
