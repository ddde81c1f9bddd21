"""One registry type for every extension point, each announcing its changes the same way."""

from __future__ import annotations

import pytest

from perceptron_gui.core.registry import Registry


def _registry() -> Registry:
    def check(entry):
        if not isinstance(entry, tuple):
            raise TypeError("a tuple, please")

    return Registry("thing", lambda entry: entry[0], check)


def test_entries_come_in_order_and_each_change_is_announced():
    things = _registry()
    heard = []
    things.changed.connect(heard.append)
    a, b = ("a", 1), ("b", 2)
    assert things.register(a) is a and things.register(b) is b
    assert list(things) == ["a", "b"] and list(things.values()) == [a, b]
    assert things["a"] is a and "b" in things and len(things) == 2
    assert things.register(a) is a  # again: nothing changes, nothing is announced
    assert things.unregister("a") is a
    assert list(things.items()) == [("b", b)]
    assert heard == ["a", "b", "a"]


def test_a_taken_name_a_nameless_entry_and_a_bad_one_are_refused_unchanged():
    things = _registry()
    things.register(("a", 1))
    heard = []
    things.changed.connect(heard.append)
    with pytest.raises(ValueError, match="a thing named 'a' is registered already"):
        things.register(("a", 2))
    with pytest.raises(ValueError, match="has no name"):
        things.register(("", 2))
    with pytest.raises(TypeError, match="a tuple"):
        things.register(["c", 3])
    with pytest.raises(KeyError, match="no thing named 'z'"):
        things.unregister("z")
    assert list(things.items()) == [("a", ("a", 1))] and heard == []


def test_the_six_registries_are_one_type():
    from perceptron_gui.core import commands, viewstate
    from perceptron_gui.core.learners import registry as learners

    assert isinstance(learners.REGISTRY, Registry) and learners.changed is learners.REGISTRY.changed
    assert isinstance(commands.COMMANDS, Registry)
    assert isinstance(viewstate.LAYER_SWITCHES, Registry)
