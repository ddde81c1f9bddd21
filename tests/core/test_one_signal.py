"""One change of the workspace emits one signal, the one that says the most.

The workspace is a facade over its document, its run and its theory cache
(``core/document.py``, ``core/run.py``, ``core/theory_cache.py``); the views
subscribe to its signals.  A data edit or an opened file is ``dataset_changed``
alone (the learner was rebuilt and the run restarted with it), a change of
learner or parameters ``learner_changed`` alone, a move of the cursor
``run_changed`` alone, and a pending switch made or dropped ``switch_changed``.
"""

from __future__ import annotations

import pytest

from perceptron_gui.core import Workspace, generators, scale
from perceptron_gui.core.dataset import AddPoints, Dataset
from perceptron_gui.core.document import Document
from perceptron_gui.core.run import Run
from perceptron_gui.core.signal import signal


def heard(ws) -> list[str]:
    """The changes ``ws`` announces from now on, by name (every signal but the notices)."""
    seen: list[str] = []
    for name in (name for name in ws.events if name != "message"):
        getattr(ws.events, name).connect(lambda *a, _n=name: seen.append(_n))
    return seen


def test_each_change_emits_exactly_one_signal():
    ws = Workspace(generators.separable(30, seed=2, margin=0.2))
    seen = heard(ws)
    ws.apply_edit(AddPoints((0.1, 0.2), 1))
    assert seen == ["dataset_changed"]
    ws.step_update()
    assert seen[1:] == ["run_changed"]
    ws.set_learner("dual")
    assert seen[2:] == ["learner_changed"]
    ws.set_params(kernel="rbf")
    assert seen[3:] == ["learner_changed"]
    ws.set_params("lda", shrinkage="auto")  # the overlay beside the dual perceptron
    assert seen[4:] == ["theory_changed"]
    ws.replace(generators.blobs(40, seed=1), "primal", {}, step=5)
    assert seen[5:] == ["dataset_changed"] and ws.step_count == 5
    ws.reset()
    assert seen[6:] == ["run_changed"]


def test_a_change_that_changes_nothing_is_silent():
    ws = Workspace(generators.separable(30, seed=2, margin=0.2))
    seen = heard(ws)
    ws.set_learner("primal")
    ws.set_params(max_iter=ws.params["max_iter"])
    assert seen == []


@pytest.fixture
def large(monkeypatch):
    monkeypatch.setattr(scale, "LARGE_N", 99)
    ws = Workspace(generators.blobs(100, seed=4))
    ws.defer_expensive = True
    return ws


def test_a_pending_switch_goes_with_the_change_that_ends_it(large):
    ws = large
    seen = heard(ws)
    switch = ws.request_learner("lda")
    assert seen == ["switch_changed"]
    ws.apply_edit(AddPoints((0.0, 0.0), 1))  # remade on the new data, said once
    assert seen[1:] == ["dataset_changed"] and ws.pending_switch is not switch
    ws.set_learner("dual")  # drops it and rebuilds: one signal
    assert seen[2:] == ["learner_changed"] and ws.pending_switch is None
    switch = ws.request_learner("lda")
    ws.set_learner("dual")  # drops it and changes nothing else
    assert seen[3:] == ["switch_changed", "switch_changed"]
    switch = ws.request_learner("lda")
    switch.run()
    assert ws.commit_switch(switch)
    assert seen[5:] == ["switch_changed", "learner_changed"]


def test_document_checks_before_anything_changes():
    doc = Document(Dataset(), "primal")
    before = doc.copy_params()
    with pytest.raises(ValueError, match="unknown parameter"):
        doc.trial("primal", {"no_such": 1})
    with pytest.raises(ValueError):
        doc.trial("primal", {"max_iter": -3})
    with pytest.raises(ValueError):
        doc.merged("primal", {"dual": {"kernel": "no such kernel"}})
    assert doc.copy_params() == before
    assert doc.trial("primal", {"max_iter": 7})["max_iter"] == 7
    assert doc.params["primal"]["max_iter"] == before["primal"]["max_iter"]


def test_a_run_without_a_learner_stays_still():
    moved: list = []
    run = Run(signal(object, name="run_changed"), signal(str, name="message"),
              describe_end=lambda: "ended")
    run.run_changed.connect(moved.append)
    assert not run.running and run.step() is None and run.seek(3) is None
    assert run.advance(10) == 0 and run.step_count == 0 and run.current_event is None
    assert moved == []
