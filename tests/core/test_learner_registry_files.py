"""A learner registered for a while: workspaces follow its withdrawal, files do not need it.

A workspace using a learner that is unregistered falls back to the default
learner (one ``learner_changed`` and a message); a file stores the parameters
of the learners the program ships and of the one in use, so a file saved
while an extra learner was registered opens without it, and a file whose
learner in use is not registered is refused with a message naming it.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from perceptron_gui.core import Dataset, Workspace, scale
from perceptron_gui.core.io import FormatError, workspacefile
from perceptron_gui.core.learners import registry
from perceptron_gui.core.learners.params import ParamSpec
from perceptron_gui.core.learners.registry import Capabilities, LearnerSpec


class NearestMean:
    """The nearest class mean: ``f(x) = |x − μ₋|² − |x − μ₊|²`` (scikit-learn style)."""

    def __init__(self, *, shift=0.0):
        self.shift = shift

    def validate_params(self) -> None:
        if not (isinstance(self.shift, float) and -5.0 <= self.shift <= 5.0):
            raise ValueError(f"shift must be a number in [-5, 5], got {self.shift!r}")

    def fit(self, X, y):
        self.validate_params()
        X, y = np.asarray(X, dtype=np.float64), np.asarray(y)
        self.means_ = np.array([X[y == c].mean(axis=0) for c in (-1, 1)])
        return self

    def decision_function(self, X):
        X = np.asarray(X, dtype=np.float64)
        d = [((X - m) ** 2).sum(axis=1) for m in self.means_]
        return d[0] - d[1] + self.shift

    def predict(self, X):
        return np.where(self.decision_function(X) > 0, 1, -1)


KEY = "nearest_mean"
SPEC = LearnerSpec(KEY, "Nearest mean", NearestMean, {"shift": 0.0},
                   params=(ParamSpec("shift", "Shift", "float", "Added to f.", -5.0, 5.0, 3,
                                     0.1),),
                   capabilities=Capabilities(steps=False, linear=False))
DATA = Dataset(np.array([[0.0, 0.0], [1.0, 0.5], [3.0, 3.0], [4.0, 2.5]]),
               np.array([-1.0, -1.0, 1.0, 1.0]))


@pytest.fixture
def nearest_mean():
    registry.register(SPEC)
    try:
        yield KEY
    finally:
        if KEY in registry.REGISTRY:
            registry.unregister(KEY)


class Count:
    def __init__(self, *signals):
        self.calls: list = []
        for signal in signals:
            signal.connect(lambda *args, s=signal: self.calls.append((s, args)))


def test_a_workspace_using_an_unregistered_learner_falls_back_to_the_default(nearest_mean):
    ws = Workspace(DATA, learner=KEY)
    ws.set_params(shift=0.5)
    assert isinstance(ws.learner, NearestMean)
    seen = Count(ws.learner_changed, ws.dataset_changed, ws.switch_changed, ws.run_changed)
    messages: list[str] = []
    ws.message.connect(messages.append)
    registry.unregister(KEY)
    assert ws.learner_name == registry.DEFAULT and ws.spec is registry.get(registry.DEFAULT)
    assert ws.has_model and ws.capabilities.steps
    assert [s for s, _ in seen.calls] == [ws.learner_changed]  # one signal
    assert messages == ["Nearest mean is no longer available (unregistered): now using "
                        "Primal perceptron."]
    assert KEY not in ws.all_params()
    # registered again, it starts from its defaults
    registry.register(SPEC)
    ws.set_learner(KEY)
    assert ws.params == {"shift": 0.0}


def test_a_workspace_not_using_it_only_forgets_its_parameters(nearest_mean):
    ws = Workspace(DATA, learner="dual")
    ws.set_params(KEY, shift=1.0)
    seen = Count(ws.learner_changed, ws.dataset_changed, ws.switch_changed, ws.message)
    registry.unregister(KEY)
    assert ws.learner_name == "dual" and KEY not in ws.all_params()
    assert seen.calls == []


def test_a_file_saved_with_an_extra_learner_registered_opens_without_it(nearest_mean):
    ws = Workspace(DATA, learner="lda")
    ws.set_params(KEY, shift=2.0)  # changed, but not in use
    ws.set_params("primal", eta0=0.5)
    text = workspacefile.workspace_to_json(ws)
    assert set(json.loads(text)["params"]) == set(registry.BUILTIN)
    registry.unregister(KEY)
    loaded = workspacefile.workspace_from_json(text)
    assert loaded.learner_name == "lda" and loaded.dataset == DATA
    assert loaded.all_params()["primal"]["eta0"] == 0.5


def test_a_file_keeps_the_parameters_of_the_extra_learner_in_use(nearest_mean):
    ws = Workspace(DATA, learner=KEY)
    ws.set_params(shift=1.5)
    text = workspacefile.workspace_to_json(ws)
    assert set(json.loads(text)["params"]) == {*registry.BUILTIN, KEY}
    loaded = workspacefile.workspace_from_json(text)
    assert loaded.learner_name == KEY and loaded.params == {"shift": 1.5}
    registry.unregister(KEY)
    with pytest.raises(FormatError) as info:
        workspacefile.workspace_from_json(text)
    assert str(info.value) == (
        "learner: the file uses the learner 'nearest_mean', which is not registered in "
        f"this program (registered: {', '.join(sorted(registry.REGISTRY))})")


def test_parameters_of_a_learner_not_registered_and_not_in_use_are_skipped():
    doc = json.loads(workspacefile.workspace_to_json(Workspace(DATA)))
    doc["params"][KEY] = {"shift": 1.0}
    doc["params"]["primal"]["eta0"] = 0.25
    loaded = workspacefile.workspace_from_json(json.dumps(doc))
    assert KEY not in loaded.all_params()
    assert loaded.all_params()["primal"]["eta0"] == 0.25
    doc["params"]["primal"]["eta0"] = -1.0  # a known learner's values are still checked
    with pytest.raises(FormatError, match=r"^params\.primal\.eta0: "):
        workspacefile.workspace_from_json(json.dumps(doc))


def test_a_pending_switch_forgets_it_or_is_dropped(nearest_mean, monkeypatch):
    monkeypatch.setattr(scale, "LARGE_N", 10)  # switches in a worker
    big = Dataset(np.random.default_rng(0).normal(size=(40, 2)), np.r_[np.ones(20), -np.ones(20)])
    ws = Workspace(big, learner="primal")
    ws.defer_expensive = True
    switch = ws.request_learner("lda")
    assert switch is not None and KEY in switch.params
    registry.unregister(KEY)  # a switch to another learner stays, without its parameters
    assert ws.pending_switch is switch and KEY not in switch.params
    registry.register(SPEC)
    switch = ws.request_learner(KEY)
    assert switch is not None and switch.params[KEY] == {"shift": 0.0}
    changes: list = []
    ws.switch_changed.connect(lambda: changes.append("switch"))
    registry.unregister(KEY)  # a switch to it is dropped
    assert ws.pending_switch is None and changes == ["switch"]
    assert ws.learner_name == "primal"
