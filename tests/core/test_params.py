"""Each learner parameter has one validated range in the core, met by every way in."""

from __future__ import annotations

import json
import math

import pytest

from perceptron_gui.core import Dataset, Workspace
from perceptron_gui.core.io import FormatError, workspace_from_json, workspace_to_json
from perceptron_gui.core.learners import params, registry
from perceptron_gui.viewer import _check_learner

POINTS = Dataset([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]], [-1, 1, 1])


def _numeric(spec):
    return spec.kind in ("int", "float")


@pytest.mark.parametrize("key", sorted(registry.REGISTRY))
def test_every_parameter_has_a_spec_and_its_default_is_in_range(key):
    spec = registry.get(key)
    assert [p.key for p in spec.params] == list(spec.defaults)
    for p in spec.params:
        params.check(p, spec.defaults[p.key])


@pytest.mark.parametrize(("key", "name"), [
    (key, p.key) for key, spec in sorted(registry.REGISTRY.items())
    for p in spec.params if _numeric(p)
])
def test_values_beyond_the_range_are_refused_naming_the_parameter_and_range(key, name):
    spec = registry.get(key)
    p = spec.param(name)
    if p.kind == "int":
        outside = [int(p.high) + 1, int(p.low) - 1, 2**31, 10**400, 1.5]
    else:
        outside = [math.inf, math.nan, p.low / 2 if p.low > 0 else -math.inf, "1.5"]
    for value in outside:
        with pytest.raises(ValueError) as info:
            spec.validate(dict(spec.defaults, **{name: value}))
        message = str(info.value)
        assert message.startswith(f"{name} must be ") and len(message) < 300
        assert p.range_text() in message
    for value in (p.low, p.high):  # the ends are in
        spec.validate(dict(spec.defaults, **{name: int(value) if p.kind == "int" else value}))


@pytest.mark.parametrize("name", ["max_iter", "random_state"])
def test_a_value_beyond_32_bits_is_a_value_error_everywhere(name):
    with pytest.raises(ValueError, match=f"^{name} must be"):
        registry.get("primal").create({name: 2**31}).fit([[0.0], [1.0]], [0, 1])
    with pytest.raises(ValueError, match=f"^{name} must be"):
        Workspace(POINTS).set_params(**{name: 2**31})
    with pytest.raises(ValueError, match=f"^{name} must be"):
        _check_learner("dual", {name: 2**31})  # what perceptron_gui.show and set_learner call
    doc = json.loads(workspace_to_json(Workspace(POINTS)))
    doc["params"]["primal"][name] = 2**31
    with pytest.raises(FormatError, match=rf"params\.primal\.{name}: {name} must be"):
        workspace_from_json(json.dumps(doc))


def test_lda_priors_and_shrinkage_ranges():
    lda = registry.get("lda")
    with pytest.raises(ValueError, match=r"^priors must be None or 2 positive numbers"):
        lda.validate({"priors": [1e-6, 1 - 1e-6], "shrinkage": None})
    with pytest.raises(ValueError, match=r"shrinkage must be in \[0, 1\]"):
        lda.validate({"priors": None, "shrinkage": 2.0})
    lda.validate({"priors": [0.001, 0.999], "shrinkage": 1.0})


def test_messages_stay_short_for_hostile_values():
    spec = registry.get("dual")
    for value in (10**400, "x" * 10_000, list(range(10_000))):
        with pytest.raises(ValueError) as info:
            spec.validate(dict(spec.defaults, degree=value))
        assert len(str(info.value)) < 200
