"""The table of losses: each loss's facts in one place, and no other module naming a loss."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import numpy as np
import pytest

from perceptron_gui.core.learners import losses, registry
from perceptron_gui.core.learners.losses import MARGIN_LOSSES, TRAINABLE, loss_for
from tests.package_source import PACKAGE, modules, nodes

TABLE = Path(losses.__file__).resolve()
NAMES = {loss.name for loss in MARGIN_LOSSES}


def loss_strings(source: str, rel: str = "<module>") -> list[tuple[int, str]]:
    """``(line, name)`` of every string constant in ``source`` that is a loss's name.

    A piece of an f-string (``f"perceptron{suffix}"``, a file name) is text, not a value.
    """
    walked = nodes(source, rel)
    pieces = {id(v) for node in walked if isinstance(node, ast.JoinedStr)
              for v in node.values}
    return [(node.lineno, node.value) for node in walked
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value in NAMES and id(node) not in pieces]


def test_the_check_catches_a_loss_named_by_string():
    hinge = next(loss.name for loss in TRAINABLE if loss.kink is not None and not loss.novikoff)
    source = f'"""A module about the {hinge} loss."""\nx = {{{hinge!r}: 1.0}}\ny = "{hinge}s"\n'
    source += f'z = f"{hinge}{{y}}"\nif loss == {hinge!r}:\n    pass\n'
    assert loss_strings(source) == [(2, hinge), (5, hinge)]


def test_no_module_outside_the_table_names_a_loss():
    found = {}
    for rel, source in modules().items():
        if PACKAGE / rel == TABLE:
            continue
        hits = loss_strings(source, rel)
        if hits:
            found[rel] = hits
    assert found == {}, f"loss names outside {TABLE.name}: {found}"


def test_loss_names_are_defined_once():
    defined = []
    for rel, source in modules().items():
        for node in nodes(source, rel):
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                defined += [Path(rel).name for t in targets
                            if isinstance(t, ast.Name) and t.id == "LOSS_NAMES"]
    assert len(defined) == 1, defined


@pytest.mark.parametrize("loss", MARGIN_LOSSES, ids=lambda loss: loss.name)
def test_each_loss_is_found_by_its_name_and_its_pull_is_minus_its_slope(loss):
    assert loss_for(loss.name) is loss
    z = np.array([-30.0, -2.5, -0.25, 0.3, 1.7, 2.5, 40.0])  # away from any kink or step
    h = 1e-6
    slope = (loss.value(z + h) - loss.value(z - h)) / (2 * h)
    np.testing.assert_allclose(loss.pull(z), -slope, atol=1e-6)
    assert loss.legend == f"{loss.label}  {loss.formula}"


@pytest.mark.parametrize("loss", TRAINABLE, ids=lambda loss: loss.name)
def test_a_steps_derivative_is_the_pull_times_minus_y_and_bends_at_the_kink(loss):
    assert TRAINABLE[loss.code] is loss
    p = np.linspace(-4.0, 4.0, 161)
    for y in (-1.0, 1.0):
        s = np.full_like(p, y)
        scalar = np.array([loss.dloss(float(v), y) for v in p])
        np.testing.assert_allclose(loss.dloss_array(p, s), scalar, rtol=1e-15, atol=0)
        np.testing.assert_allclose(scalar, -y * loss.pull(y * p), rtol=1e-12, atol=1e-15)
    if loss.kink is None:
        assert math.isnan(loss.threshold) and np.all(loss.pull(p) > 0)
    else:  # the update threshold: a case pulls exactly when its margin is at or below it
        assert loss.threshold == loss.kink
        assert loss.pull(np.array([loss.kink])) == 1
        assert loss.pull(np.array([loss.kink + 1e-9])) == 0
        assert loss.value(np.array([loss.kink]))[0] == 0.0


def test_the_learner_capabilities_carry_the_loss_and_its_facts():
    spec = registry.get(registry.DEFAULT)
    for loss in TRAINABLE:
        for order in ("cyclic", "batch"):
            caps = spec.caps({"loss": loss.name, "order": order})
            assert caps.loss is loss
            assert caps.novikoff == (loss.novikoff and order != "batch")
            assert caps.posteriors == loss.probabilities
            assert (caps.tie is not None) == loss.ties
    choices = spec.param("loss").choices
    assert choices == tuple((loss.name, loss.label) for loss in TRAINABLE)


def test_unknown_loss_is_refused():
    with pytest.raises(ValueError, match="unknown loss 'squared'"):
        loss_for("squared")
