"""A workspace file's ``run.step``: left at the start when too far, cancelled promptly."""

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


def xor_file(step: int, max_iter: int) -> str:
    return json.dumps({"format": "perceptron-gui-workspace", "version": 1, "points": XOR,
                       "learner": "primal", "params": {"primal": {"max_iter": max_iter}},
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


def blobs_file(n: int, step: int, max_iter: int) -> str:
    X = np.random.default_rng(0).normal(size=(n, 2))
    points = [{"x": float(a), "y": float(b), "label": 1 if i % 2 else -1}
              for i, (a, b) in enumerate(X)]
    return json.dumps({"format": "perceptron-gui-workspace", "version": 1, "points": points,
                       "learner": "primal", "params": {"primal": {"max_iter": max_iter}},
                       "run": {"step": step}})


def test_a_step_too_far_to_recompute_opens_the_file_at_the_start_with_a_note(advances):
    # 10⁴ points at step 10⁹: about 113 s of work by the estimate. Before, such a
    # file was recomputed for as long as it took; a file the program saved itself
    # must still open, with its points and parameters, and say where its run is.
    ws = workspacefile.workspace_from_json(blobs_file(10_000, 10**9, 10**6))
    assert advances == [] and ws.step_count == 0 and ws.dataset.n == 10_000
    assert ws.params["max_iter"] == 10**6
    note = ws.open_note
    assert note.startswith("The run opens at its start: its stored position, step "
                           "1,000,000,000 on 10,000 points, could take up to")
    assert "limit is 60 s" in note and len(note) < 300
    # a position within the limit is recomputed, with no note
    near = workspacefile.workspace_from_json(blobs_file(100, 5_000, 1000))
    assert near.step_count == 5_000 and near.open_note is None


def test_the_issue_s_file_is_refused_by_the_range_of_max_epochs(advances):
    # four XOR points, 10⁹ epochs, step 10⁸: ran for minutes to 1.7 GB before
    with pytest.raises(FormatError) as info:
        workspacefile.workspace_from_json(xor_file(10**8, 10**9))
    assert advances == []
    assert "max_iter" in str(info.value) and "1,000,000" in str(info.value)


def test_the_limit_holds_for_a_million_epochs_of_a_million_points():
    worst = runstep.restore_seconds(10**12, 10**6, kernel=False)
    assert worst > 100 * runstep.RESTORE_SECONDS
    # and a position within it stays within it on the largest data sets too
    assert runstep.restore_seconds(10**8, 10**6, kernel=False) <= runstep.RESTORE_SECONDS


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
    ref = PrimalPerceptron(max_iter=10**6).start(
        np.array([[0, 0], [1, 1], [0, 1], [1, 0]], float), np.array([1, 1, -1, -1]))
    ref.seek(step)
    assert ws.step_count == step and ws.learner.n_updates_ == ref.n_updates_
    assert ws.learner.coef_.tobytes() == ref.coef_.tobytes()


def test_a_linear_run_stops_at_its_deadline_even_with_short_epochs():
    X = np.array([[0, 0], [1, 1], [0, 1], [1, 0]], float)
    learner = PrimalPerceptron(max_iter=10**5).start(X, np.array([1, 1, -1, -1]))
    taken = learner.advance(10**9, deadline=time.perf_counter())  # time is already up
    assert 1 <= taken <= 4  # one epoch's stretch at most, not the whole run
