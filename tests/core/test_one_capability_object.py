"""What a learner can do is answered by one object: its spec's ``Capabilities``."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_gui.core import Dataset, Workspace
from perceptron_gui.core.learners import registry
from perceptron_gui.core.learners.registry import Capabilities, LearnerSpec

#: What the workspace and the spec answered besides the capabilities, once.
FORMER = {Workspace: ("learner_steps", "linear", "kernel", "is_kernel"), LearnerSpec: ("steps",)}


@pytest.mark.parametrize("cls", list(FORMER), ids=lambda cls: cls.__name__)
def test_no_second_door_to_a_capability(cls):
    assert [name for name in FORMER[cls] if hasattr(cls, name)] == []


@pytest.mark.parametrize("key", list(registry.REGISTRY))
def test_the_workspace_answers_from_its_spec_capabilities(key):
    rng = np.random.default_rng(1)
    ws = Workspace(Dataset(rng.normal(size=(12, 2)), np.r_[np.ones(6), -np.ones(6)]),
                   learner=key)
    caps = ws.capabilities
    assert isinstance(caps, Capabilities)
    assert caps == registry.get(key).caps(ws.params)
    assert caps.nonlinear_kernel == (caps.kernel is not None and not caps.linear)
    assert (key in registry.stepping()) == registry.get(key).caps().steps


def test_a_kernel_contour_only_for_a_nonlinear_kernel():
    dual = registry.get("dual")
    assert not dual.caps({"kernel": "linear"}).nonlinear_kernel
    assert dual.caps({"kernel": "rbf"}).nonlinear_kernel
