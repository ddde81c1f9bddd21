"""Load the compiled loops (numba) ahead of the first long run: the perceptron's and SGD's.

Importing numba and loading the loop from its on-disk cache take about 0.4 s
(a compile, about 0.65 s, on the first run after installing).  The application
calls :func:`warm_up` in a background thread soon after its window shows, so
the first "run to end" does not stall for it.
"""

from __future__ import annotations

import gc

import numpy as np

__all__ = ["warm_up"]


def warm_up() -> None:
    """Load the compiled loops for the window's argument types (blocking; never raises).

    Garbage collection is off meanwhile: a collection on this thread would free
    other threads' cyclic garbage (Qt wrappers included) from the wrong thread.
    Then everything alive is frozen (:func:`gc.freeze`): numba's objects live as
    long as the process, and the first collection would walk them all at once,
    holding the GIL and stalling the UI thread.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        _load_compiled_loop()
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def _load_compiled_loop() -> None:
    try:
        from . import _scan, multiclass_perceptron
        from .losses import HINGE, PERCEPTRON
        from .primal import PrimalPerceptron

        if not _scan.compiled_available():
            return
        # an epoch long enough for the compiled loops, run the way the window runs
        # (read-only data, start + run_to_end): the perceptron's scan, then the SGD loop
        n = _scan.COMPILED_MIN_STRETCH
        X = np.column_stack([np.linspace(-1.0, 1.0, n), np.ones(n)])
        y = np.where(X[:, 0] > 0, 1, -1)
        X.flags.writeable = y.flags.writeable = False
        for loss in (PERCEPTRON, HINGE):
            learner = PrimalPerceptron(max_iter=1, loss=loss.name)
            learner.start(X, y)
            learner.run_to_end()
        multiclass_perceptron.compiled_scan_available()  # its run's scan
    except Exception:  # noqa: BLE001 - a failed warm-up only means the first run loads it
        pass
