"""A numba loop built and warmed on its first use, or never (numba missing, broken or off).

The perceptron's scan (:mod:`._scan`) and SGD's steps (:mod:`._sgd`) each keep
one :class:`LazyLoop`; ``PERCEPTRON_GUI_NO_JIT`` set to anything turns both off.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np

__all__ = ["COMPILED_MIN_STRETCH", "EMPTY_ORDER", "LazyLoop", "jit_disabled", "warm_inputs"]

#: Stretches shorter than this run in numpy or Python, so a single step in the
#: window never waits for numba to load.
COMPILED_MIN_STRETCH = 2048

#: The order a loop is given for cyclic order (its ``use_order`` flag says to ignore it).
EMPTY_ORDER = np.zeros(1, dtype=np.int64)


def warm_inputs() -> tuple[np.ndarray, np.ndarray]:
    """A writable and a read-only one-sample ``X``: a read-only X has its own numba signature."""
    readonly = np.zeros((1, 2))
    readonly.flags.writeable = False
    return np.zeros((1, 2)), readonly


def jit_disabled() -> bool:
    """True when ``PERCEPTRON_GUI_NO_JIT`` turns the compiled loops off."""
    return bool(os.environ.get("PERCEPTRON_GUI_NO_JIT"))


class LazyLoop:
    """A compiled loop made by ``build()`` and run once by ``warm(loop)`` when first asked for.

    ``build`` imports numba (any exception: numba cannot be used here); ``warm``
    calls the loop on tiny inputs of every signature, so compiling (or loading
    numba's cache) happens then, not in a run.
    """

    def __init__(self, build: Callable, warm: Callable):
        self._build, self._warm = build, warm
        self._loop = None  # None: not tried; False: cannot be used

    def available(self) -> bool:
        """True when the loop can be used, building and warming it the first time."""
        if jit_disabled():
            return False
        if self._loop is None:
            try:
                loop = self._build()
                self._warm(loop)
                self._loop = loop
            except Exception:  # numba missing or broken on this platform
                self._loop = False
        return self._loop is not False

    def choose(self, stretch: int, force: str | None) -> bool:
        """Whether to run ``stretch`` steps compiled; ``force`` ("numpy", "compiled") first."""
        if force == "numpy":
            return False
        if force == "compiled":
            if not self.available():
                raise RuntimeError("the compiled loop was forced but numba is not available")
            return True
        return stretch >= COMPILED_MIN_STRETCH and self.available()

    @property
    def loaded(self) -> bool:
        """True when the loop is built already (using it costs no wait)."""
        return bool(self._loop) and not jit_disabled()

    @property
    def signatures(self) -> list:
        """The type signatures numba has compiled or loaded so far ([] before it is built)."""
        return list(self._loop.signatures) if self._loop else []

    def __call__(self, *args):
        """Run the loop (after :meth:`available` returned True)."""
        return self._loop(*args)
