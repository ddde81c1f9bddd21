"""The rule for a point on the boundary: a mistake, or class +1.

The course texts disagree on :math:`\\operatorname{sign}(0)`.  Seeds 001 and
003 (and scikit-learn) count :math:`y\\,f(x) \\le 0` as a mistake; seeds 002 and
004 set :math:`\\operatorname{sign}(0) = +1` and a mistake :math:`y\\,\\hat y < 0`,
so a point on the boundary is right for +1 and a mistake for −1.  This module
is the one place both rules are written, as arithmetic and as text.  A NaN
margin is neither correct nor a mistake; Novikoff's bound holds under both (a
mistake has :math:`y\\,f(x) \\le 0` under both, all the proof uses).
"""

from __future__ import annotations

import numpy as np

__all__ = ["CONDITIONS", "DEFAULT_TIE", "TIES", "TIE_TEXTS", "TIE_TIP", "condition", "correct",
           "mistakes", "predicts_positive"]

#: The rules, by the value of the parameter ``tie``: a point on the boundary is
#: ``"mistake"`` (whatever its class) or of class +1 (``"positive"``).
TIES = ("mistake", "positive")

#: The rule a learner follows unless told: scikit-learn's (seeds 001 and 003).
DEFAULT_TIE = "mistake"

#: What a control offering the rule says of each: "a point on the boundary is ...".
TIE_TEXTS = {"mistake": "a mistake", "positive": "class +1"}

#: The mistake condition as the window writes it, by rule.
CONDITIONS = {
    "mistake": "mistake: y·f(x) ≤ 0",
    "positive": "mistake: y·ŷ < 0, sign(0) = +1",
}

#: What the parameter's control says of the two rules, quoting the course texts.
TIE_TIP = (
    "A point exactly on the boundary, f(x) = w·x + b = 0, is\n"
    "a mistake: seeds 001 and 003 (and scikit-learn): a mistake when y·f(x) ≤ 0,\n"
    "  \"if yᵢ⟨wₖ, xᵢ⟩ ≤ 0 then wₖ₊₁ ← wₖ + yᵢxᵢ\" (seed 003);\n"
    "class +1: seeds 002 and 004: sign(0) = +1, \"sign(x) = +1 if x ≥ 0 and\n"
    "  sign(x) = −1 if x < 0\", and \"if yᵢŷᵢ < 0 … B has made a mistake\" (seed 002):\n"
    "  a +1 point on the boundary is right, a −1 point is a mistake.\n"
    "Novikoff's bound holds under both rules."
)


def condition(tie: str) -> str:
    """The mistake condition of rule ``tie`` as the window writes it (:data:`CONDITIONS`)."""
    return CONDITIONS[tie]


def correct(z, s, positive: bool) -> np.ndarray:
    """Whether each margin ``z = y f(x)`` of label ``s`` is right: ``z > 0`` (or ``positive``)."""
    z = np.asarray(z, dtype=np.float64)
    ok = z > 0.0
    if positive:
        ok |= (z == 0.0) & (np.asarray(s) > 0)
    return ok


def mistakes(z, s, positive: bool) -> np.ndarray:
    """Whether each sample is a mistake: ``z <= 0``, or under ``positive`` ``y ŷ < 0``."""
    z = np.asarray(z, dtype=np.float64)
    wrong = z <= 0.0
    if positive:
        wrong &= ~((z == 0.0) & (np.asarray(s) > 0))
    return wrong


def predicts_positive(f, positive: bool) -> np.ndarray:
    """Whether the decision values ``f`` predict +1: ``f > 0`` (``positive``: ``f >= 0``)."""
    f = np.asarray(f, dtype=np.float64)
    return f >= 0.0 if positive else f > 0.0
