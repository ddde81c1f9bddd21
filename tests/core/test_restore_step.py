"""A workspace file's ``run.step``: refused before any work when too far, cancelled promptly."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from perceptron_gui.core import Workspace
from perceptron_gui.core.io import Cancelled, FormatError, runstep, workspacefile
from perceptron_gui.core.learners import PrimalPerceptron

XOR = [{"x": 0, "y": 0, "label": 1}, {"x": 1, "y": 1, "label": 1},
       {"x": 0, "y": 1, "label": -1}, {"x": 1, "y": 0, "label": -1}]


def xor_file(step: int, max_epochs: int) -> str:
    return json.dumps({"format": "perceptron-gui-workspace", "version": 1, "points": XOR,
                       "learner": "primal", "params": {"primal": {"max_epochs": max_epochs}},
                       "run": {"step": step}})


@pytest.fixture
def advances(monkeypatch):
    """The cursor after each ``Workspace.advance`` while a file is read."""
    seen = []
    original = Workspace.advance

    def advance(self, *args, **kwargs):
        taken = original(self, *args, **kwargs)
        seen.append(self.step_count)
        return taken

    monkeypatch.setattr(Workspace, "advance", advance)
    return seen


def test_a_step_too_far_to_recompute_is_refused_before_any_work(advances):
    # four XOR points, 10⁶ epochs, step 3.5·10⁶ (about 27 s of work by the estimate)
    with pytest.raises(FormatError) as info:
        workspacefile.workspace_from_json(xor_file(3_500_000, 10**6))
    text = str(info.value)
    assert advances == []
    assert text.startswith("run.step: step 3,500,000 on 4 points would take")
    assert "limit is 20 s" in text and len(text) < 300


def test_the_issue_s_file_is_refused_by_the_range_of_max_epochs(advances):
    # four XOR points, 10⁹ epochs, step 10⁸: ran for minutes to 1.7 GB before
    with pytest.raises(FormatError) as info:
        workspacefile.workspace_from_json(xor_file(10**8, 10**9))
    assert advances == []
    assert "max_epochs" in str(info.value) and "1,000,000" in str(info.value)


def test_the_limit_holds_for_a_million_epochs_of_a_million_points():
    worst = runstep.restore_seconds(10**12, 10**6, kernel=False)
    assert worst > 100 * runstep.RESTORE_SECONDS
    # and a position within it stays within it on the largest data sets too
    assert runstep.restore_seconds(10**8, 10**6, kernel=False) <= 20


def test_a_huge_step_gets_a_short_message():
    with pytest.raises(FormatError) as info:
        workspacefile.workspace_from_json(xor_file(10**4000, 10))
    text = str(info.value)
    assert len(text) < 300 and "beyond the longest possible run" in text and "e4000" in text


def test_cancel_answers_within_a_slice_of_the_run(advances, monkeypatch):
    # a slice ends at its deadline after the stretch it is scanning: with no time
    # at all, after the first epoch (4 steps), whatever the machine's speed
    monkeypatch.setattr(runstep, "_SLICE_SECONDS", 0.0)
    with pytest.raises(Cancelled):
        workspacefile.workspace_from_json(
            xor_file(200_000, 10**6), progress=lambda f: f < 0.9 or not advances)
    assert len(advances) == 1 and 0 < advances[0] <= 4


def test_a_restored_step_is_the_computed_one():
    step = 12_345
    ws = workspacefile.workspace_from_json(xor_file(step, 10**6))
    ref = PrimalPerceptron(max_epochs=10**6).start(
        np.array([[0, 0], [1, 1], [0, 1], [1, 0]], float), np.array([1, 1, -1, -1]))
    ref.seek(step)
    assert ws.step_count == step and ws.learner.n_updates_ == ref.n_updates_
    assert ws.learner.coef_.tobytes() == ref.coef_.tobytes()


def test_a_linear_run_stops_at_its_deadline_even_with_short_epochs():
    X = np.array([[0, 0], [1, 1], [0, 1], [1, 0]], float)
    learner = PrimalPerceptron(max_epochs=10**5).start(X, np.array([1, 1, -1, -1]))
    taken = learner.advance(10**9, deadline=time.perf_counter())  # time is already up
    assert 1 <= taken <= 4  # one epoch's stretch at most, not the whole run
