"""The weight-space view's scenes (its region, its slice at b) found once per data and kept.

A scene of many cases is found by one worker a kind, then only the newest request:
Run to end does not pile up workers.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...widgets.canvas.newest import NewestJob

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
        self._jobs: dict[str, NewestJob] = {}  # kind -> its worker, the newest request only
        self._asked: dict[str, tuple] = {}  # kind -> the key last asked of a worker

    @property
    def finding(self) -> bool:
        """True while a worker finds a scene."""
        return any(job.busy for job in self._jobs.values())

    def get(self, kind: str, key: tuple, function, args: tuple, *, at_once: bool):
        """``(key, function(*args))`` for ``kind``: kept, found now (``at_once``), else None."""
        got = self._done.get(kind)
        if got is not None and same_key(got[0], key):
            return got
        if at_once:
            self._done[kind] = (key, function(*args))
            return self._done[kind]
        job = self._jobs.get(kind)
        if job is None:
            job = self._jobs[kind] = NewestJob(lambda request: request[2:], self._arrived,
                                               self._alive, stale=self._keep)
        asked = self._asked.get(kind)
        if not (job.busy and asked is not None and same_key(asked, key)):
            self._asked[kind] = key
            job.request((kind, key, function, args))
        return None

    def _keep(self, request: tuple, result) -> None:
        self._done[request[0]] = (request[1], result)

    def _arrived(self, request: tuple, result) -> None:
        self._keep(request, result)
        self._found()
