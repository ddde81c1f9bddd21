"""A slot is called with as many of a signal's arguments as it takes, however it is counted."""

import functools

import pytest

from perceptron_gui.core.signal import signal


class Slots:
    def __init__(self):
        self.got = []

    def none(self):
        self.got.append(())

    def one(self, a):
        self.got.append((a,))

    def two(self, a, b="default"):
        self.got.append((a, b))

    def star(self, *args):
        self.got.append(args)

    def keyword(self, a, *, k=1):
        self.got.append((a, k))

    @classmethod
    def of_class(cls, a):
        cls.seen = (a,)


def _only_a(a):
    return a


@functools.wraps(_only_a)
def _wrapped(*args):  # psygnal reads the wrapped signature: one argument
    Slots.seen = args


@pytest.mark.parametrize(("slot", "expected"), [
    ("none", ()), ("one", (1,)), ("two", (1, "x")), ("star", (1, "x")), ("keyword", (1, 1))])
def test_a_method_receives_the_arguments_it_takes(slot, expected):
    changed = signal(int, str, name="changed")
    slots = Slots()
    changed.connect(getattr(slots, slot))
    changed.emit(1, "x")
    assert slots.got == [expected]


def test_functions_class_methods_and_wrappers_receive_what_they_take():
    changed = signal(int, str, name="changed")
    got = []
    changed.connect(lambda a: got.append(a))
    changed.connect(Slots.of_class)
    changed.emit(1, "x")
    assert got == [1] and Slots.seen == (1,)
    changed.disconnect(Slots.of_class)
    changed.connect(_wrapped)
    changed.emit(2, "y")
    assert Slots.seen == (2,)


@pytest.mark.parametrize("slot", [lambda a, b, c: None, lambda a, *, k: None])
def test_a_slot_that_needs_more_than_the_signal_gives_is_refused(slot):
    changed = signal(int, str, name="changed")
    with pytest.raises(ValueError, match="Cannot connect slot|KEYWORD_ONLY"):
        changed.connect(slot)
