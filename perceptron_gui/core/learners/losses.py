"""The table of losses of the margin ``z = y·f(x)`` (as scikit-learn's ``sklearn/_loss``).

:func:`loss_for` finds a :class:`Loss` by its scikit-learn name (the ``loss``
parameter); :data:`TRAINABLE` are the losses a step follows, in the compiled
loop's order; :data:`MARGIN_LOSSES` adds the 0–1 loss the views compare.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["HINGE", "LOG_LOSS", "Loss", "MARGIN_LOSSES", "PERCEPTRON", "TRAINABLE",
           "ZERO_ONE", "expit", "loss_for"]


@dataclass(frozen=True)
class Loss:
    """One loss of the margin ``z = y·f(x)``.

    Attributes
    ----------
    name : str
        scikit-learn's name (``SGDClassifier(loss=...)``): the ``loss`` parameter's value.
    label, formula, update, color : str
        How people see it: ``"hinge"``, ``"max(0, 1 − z)"``, when a step moves
        ``w`` (``"update when z ≤ 1"``), its colour in the loss view.
    value, pull : callable
        ``ℓ(z)`` and ``−ℓ'(z)`` of an array of margins (the pull of a case on
        ``w`` towards ``y·x``: 1 or 0 for a kinked loss, ``σ(−z)`` for the logistic).
    kink : float or None
        Where a piecewise-linear loss bends: also its update threshold (a step
        moves ``w`` exactly when ``z ≤ kink``: the perceptron's engine runs it).
    code : int or None
        Its index in the compiled loop (:mod:`._sgd`); None: no step follows it.
    dloss, dloss_array : callable or None
        ``∂ℓ/∂p`` at the decision value ``p`` and label ``y`` (±1), of floats and
        of arrays, operation for operation as scikit-learn computes it.
    novikoff, ties, probabilities : bool
        Novikoff's bound counts its updates; the rule for a point on the
        boundary (``tie``) applies to it; a model trained with it has
        ``predict_proba``.
    """

    name: str
    label: str
    formula: str
    update: str
    color: str
    value: Callable[[np.ndarray], np.ndarray]
    pull: Callable[[np.ndarray], np.ndarray]
    kink: float | None = None
    code: int | None = None
    dloss: Callable[[float, float], float] | None = None
    dloss_array: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
    novikoff: bool = False
    ties: bool = False
    probabilities: bool = False

    @property
    def legend(self) -> str:
        """Its name and formula for a legend: ``"hinge  max(0, 1 − z)"``."""
        return f"{self.label}  {self.formula}"

    @property
    def words(self) -> str:
        """``"the hinge loss"``, as a sentence names it."""
        return f"the {self.label} loss"

    @property
    def tip(self) -> str:
        """One line of the parameter's tip: ``"hinge max(0, 1 − z): update when z ≤ 1"``."""
        return f"{self.label} {self.formula}: {self.update}"

    @property
    def threshold(self) -> float:
        """The margin at or below which a step updates (:attr:`kink`; NaN: every step)."""
        return math.nan if self.kink is None else self.kink


def _as_margins(z) -> np.ndarray:
    return np.asarray(z, dtype=np.float64)


def expit(x: np.ndarray) -> np.ndarray:
    """The logistic sigmoid ``1 / (1 + e^(−x))``, without overflow at either end."""
    x = _as_margins(x)
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _dloss_log(p: float, y: float) -> float:
    # scikit-learn's cgradient_half_binomial with the label t in {0, 1}
    t = 0.5 * (y + 1.0)
    if p > -37.0:
        e = math.exp(-p)
        return ((1.0 - t) - t * e) / (1.0 + e)
    return math.exp(p) - t


def _kinked(kink: float) -> dict:
    """``dloss`` and ``dloss_array`` of a loss whose derivative is ``-y`` up to ``kink``, else 0."""
    def dloss(p: float, y: float) -> float:
        return -y if p * y <= kink else 0.0

    def dloss_array(p: np.ndarray, s: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore", invalid="ignore"):
            return np.where(p * s <= kink, -s, 0.0)
    return {"kink": kink, "dloss": dloss, "dloss_array": dloss_array}


def _dloss_log_array(p: np.ndarray, s: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        t = 0.5 * (s + 1.0)
        high = p > -37.0
        e = np.exp(-np.where(high, p, 0.0))
        return np.where(high, ((1.0 - t) - t * e) / (1.0 + e), np.exp(np.minimum(p, -37.0)) - t)


ZERO_ONE = Loss(
    "zero_one", "0–1", "[z ≤ 0]", "a count of mistakes, not followed by a step", "#8A8A8A",
    value=lambda z: (_as_margins(z) <= 0).astype(np.float64),
    pull=lambda z: np.zeros_like(_as_margins(z)),
)
PERCEPTRON = Loss(
    "perceptron", "perceptron", "max(0, −z)", "update when z ≤ 0", "#009E73",
    value=lambda z: np.maximum(0.0, -_as_margins(z)),
    pull=lambda z: (_as_margins(z) <= 0.0).astype(np.float64),
    code=0, novikoff=True, ties=True, **_kinked(0.0),
)
HINGE = Loss(
    "hinge", "hinge", "max(0, 1 − z)", "update when z ≤ 1", "#CC79A7",
    value=lambda z: np.maximum(0.0, 1.0 - _as_margins(z)),
    pull=lambda z: (_as_margins(z) <= 1.0).astype(np.float64),
    code=1, **_kinked(1.0),
)
LOG_LOSS = Loss(
    "log_loss", "logistic", "log(1 + e⁻ᶻ)", "every sample, scaled by σ(−z)", "#E69F00",
    value=lambda z: np.logaddexp(0.0, -_as_margins(z)),
    pull=lambda z: expit(-_as_margins(z)),
    code=2, dloss=_dloss_log, dloss_array=_dloss_log_array, probabilities=True,
)

#: The losses a step can follow, in the order of their :attr:`Loss.code`.
TRAINABLE: tuple[Loss, ...] = (PERCEPTRON, HINGE, LOG_LOSS)
#: The losses the views compare, in legend order: the 0–1 loss and :data:`TRAINABLE`.
MARGIN_LOSSES: tuple[Loss, ...] = (ZERO_ONE, *TRAINABLE)

_BY_NAME = {loss.name: loss for loss in MARGIN_LOSSES}


def loss_for(name: str) -> Loss:
    """The :class:`Loss` called ``name`` (scikit-learn's name); ValueError for another."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown loss {name!r}; expected one of "
                         f"{tuple(_BY_NAME)}") from None
