"""The document: the data set, the learner chosen and every learner's parameters; no Qt.

A :class:`Document` validates a change before anything changes; it announces
nothing (the workspace does, once per change).
"""

from __future__ import annotations

import math

import numpy as np

from .dataset import Dataset
from .learners import registry
from .learners.registry import DEFAULT_PARAMS, LEARNERS, LearnerSpec
from .values import readonly

__all__ = ["Document", "HAND_W_MAX", "check_start"]

#: The largest ``|w_j|`` or ``|b|`` a hand-set start may have: beyond it the
#: perceptron's steps (about R each) would be invisible, and ``||w||²`` near
#: overflow.
HAND_W_MAX = 1e9


def check_start(w, b=0.0) -> tuple[np.ndarray, float] | None:
    """A hand-set start ``(w0, b0)`` checked: two finite numbers and a bias, not huge.

    ``w0`` comes back read-only; None stands for ``w = 0, b = 0``.
    """
    if w is None:
        return None
    try:
        w0 = np.array(w, dtype=np.float64).ravel()
        b0 = float(b)
    except (TypeError, ValueError):
        raise ValueError(f"w must be two numbers and b one; got w = {w!r}, b = {b!r}") from None
    if w0.shape != (2,):
        raise ValueError(f"w must be two numbers (w₁, w₂); got {w0.size}")
    if not (np.isfinite(w0).all() and math.isfinite(b0)):
        raise ValueError("w and b must be finite numbers (not inf or NaN)")
    if max(float(np.abs(w0).max()), abs(b0)) > HAND_W_MAX:
        raise ValueError(f"w and b set by hand are at most {HAND_W_MAX:.0e} in size; "
                         f"got w = ({w0[0]:.4g}, {w0[1]:.4g}), b = {b0:.4g}")
    return (readonly(w0 + 0.0), b0 + 0.0) if np.any(w0) or b0 else None


class Document:
    """The data set, the learner in use, every learner's parameters, the start set by hand.

    ``params`` are the document's own dictionaries: read them, change them
    through the workspace.
    """

    def __init__(self, dataset: Dataset | None = None, learner: str = registry.DEFAULT,
                 params: dict | None = None) -> None:
        self.dataset = dataset if dataset is not None else Dataset()
        self.params = {key: dict(values) for key, values in DEFAULT_PARAMS.items()}
        for key, values in (params or {}).items():
            self.check_learner_key(key)
            self.params[key].update(values)
        self.check_learner_key(learner)
        self.learner_name = learner
        self.start: tuple[np.ndarray, float] | None = None

    @property
    def spec(self) -> LearnerSpec:
        """The registry's spec of the learner in use."""
        return registry.get(self.learner_name)

    @property
    def current(self) -> dict:
        """The parameters of the learner in use (the document's own dictionary)."""
        return self.params[self.learner_name]

    def copy_params(self) -> dict:
        """A copy of the parameters of every learner."""
        return {key: dict(values) for key, values in self.params.items()}

    def check_learner_key(self, key: str) -> None:
        """ValueError for an unknown learner; a learner registered since gets its defaults."""
        spec = registry.get(key)
        if key not in self.params:
            self.params[key] = dict(spec.defaults)

    def trial(self, key: str, values: dict, base: dict | None = None) -> dict:
        """``base`` (default: the parameters of ``key``) updated by ``values``, checked."""
        self.check_learner_key(key)
        current = self.params[key] if base is None else base
        unknown = set(values) - set(current)
        if unknown:
            raise ValueError(f"unknown parameter(s) for {LEARNERS[key]}: {sorted(unknown)}")
        trial = dict(current, **values)
        registry.get(key).validate(trial)
        return trial

    def merged(self, learner: str, params: dict) -> dict:
        """The defaults updated by ``params`` for every learner, all checked (a loaded file's)."""
        self.check_learner_key(learner)
        merged = {key: dict(values) for key, values in DEFAULT_PARAMS.items()}
        for key, values in params.items():
            self.check_learner_key(key)
            base = merged.setdefault(key, dict(registry.get(key).defaults))
            merged[key] = self.trial(key, values, base=base)
        return merged

    def replace(self, dataset: Dataset, learner: str, params: dict,
                start: tuple | None = None) -> None:
        """Take ``dataset``, ``learner``, ``params`` and ``start`` (already checked) as they are."""
        self.dataset = dataset
        self.learner_name = learner
        self.params = params
        self.start = start
