"""The weight-space view's scenes (its region, its slice at b) found once per data and kept.

A scene of many cases is found by one worker a kind, then only the newest request:
Run to end does not pile up workers.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ... import workers

__all__ = ["Scenes", "same_key"]


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """The same labels (a learner rebuilt from a hand-set start has its own copy)."""
    return a is b or (a.shape == b.shape and bool(np.array_equal(a, b)))


def same_key(a: tuple, b: tuple) -> bool:
    """Two keys ``(X, signs, *numbers)`` of the same scene: the same ``X``, equal rest."""
    return a[0] is b[0] and _same(a[1], b[1]) and a[2:] == b[2:]


class Scenes:
    """Scenes by kind, each ``(key, function(*args))``; ``found()`` is called when a worker's
    scene arrives, unless ``alive()`` says the view that asked is gone."""

    def __init__(self, found: Callable[[], None], alive: Callable[[], bool]):
        self._found = found
        self._alive = alive
        self._done: dict[str, tuple] = {}
        self._wanted: dict[str, tuple] = {}  # kind -> (key, function, args) to find next
        self._running: dict[str, tuple] = {}  # kind -> key a worker is finding

    @property
    def finding(self) -> bool:
        """True while a worker finds a scene."""
        return bool(self._running)

    def get(self, kind: str, key: tuple, function, args: tuple, *, at_once: bool):
        """``(key, function(*args))`` for ``kind``: kept, found now (``at_once``), else None."""
        got = self._done.get(kind)
        if got is not None and same_key(got[0], key):
            return got
        if at_once:
            self._done[kind] = (key, function(*args))
            return self._done[kind]
        running = self._running.get(kind)
        if running is not None and same_key(running, key):
            self._wanted.pop(kind, None)
            return None
        self._wanted[kind] = (key, function, args)
        if running is None:
            self._start(kind)
        return None

    def _start(self, kind: str) -> None:
        key, function, args = self._wanted.pop(kind)
        self._running[kind] = key
        workers.start(function, *args,
                      returned=lambda result: self._arrived(kind, key, result),
                      errored=lambda exc: self._failed(kind, exc))

    def _arrived(self, kind: str, key: tuple, result) -> None:
        if not self._alive():
            return
        self._running.pop(kind, None)
        self._done[kind] = (key, result)
        wanted = self._wanted.get(kind)
        if wanted is not None and same_key(wanted[0], key):
            del self._wanted[kind]
        if kind in self._wanted:
            self._start(kind)
        self._found()

    def _failed(self, kind: str, exc: BaseException) -> None:
        if not self._alive():
            return
        self._running.pop(kind, None)
        self._wanted.pop(kind, None)
        workers.report_error("The weight-space picture could not be drawn", exc)
