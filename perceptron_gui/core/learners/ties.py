"""The rule for a point on the boundary: a mistake, or class +1.

The course texts disagree on :math:`\\operatorname{sign}(0)`.  Seeds 001 and
003 (and scikit-learn's ``Perceptron``) count a sample with
:math:`y\\,f(x) \\le 0` as a mistake, so a point on the boundary is a mistake
whatever its class.  Seeds 002 and 004 define :math:`\\operatorname{sign}(0) =
+1` and a mistake as :math:`y\\,\\hat y < 0`: a point on the boundary is
predicted +1, right for a +1 point and a mistake for a −1 point.

The perceptron learners take the rule as their parameter ``tie``
(:data:`TIES`, default :data:`DEFAULT_TIE`); this module is the one place
both rules are written, as arithmetic (:func:`correct`, :func:`mistakes`,
:func:`predicts_positive`) and as the text people read (:data:`CONDITIONS`).
A margin that is NaN is neither correct nor a mistake under either rule.
Novikoff's bound holds under both: a mistake has :math:`y\\,f(x) \\le 0` under
both, which is all the proof uses.
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
    """Whether each sample is classified correctly, from its margin ``z = y f(x)`` and label ``s``.

    ``z > 0``, or under ``positive`` (``tie="positive"``, ``sign(0) = +1``)
    also ``z == 0`` for a +1 sample.  A NaN margin is not correct.
    """
    z = np.asarray(z, dtype=np.float64)
    ok = z > 0.0
    if positive:
        ok |= (z == 0.0) & (np.asarray(s) > 0)
    return ok


def mistakes(z, s, positive: bool) -> np.ndarray:
    """Whether each sample is a mistake: ``z <= 0``, or under ``positive`` ``y ŷ < 0``.

    Under ``positive`` (``sign(0) = +1``) a sample with ``z == 0`` is a mistake
    only when its label is −1.  A NaN margin is not a mistake (nor correct).
    """
    z = np.asarray(z, dtype=np.float64)
    wrong = z <= 0.0
    if positive:
        wrong &= ~((z == 0.0) & (np.asarray(s) > 0))
    return wrong


def predicts_positive(f, positive: bool) -> np.ndarray:
    """Whether the decision values ``f`` predict class +1.

    ``f > 0``, or ``f >= 0`` under ``positive`` (``sign(0) = +1``).
    """
    f = np.asarray(f, dtype=np.float64)
    return f >= 0.0 if positive else f > 0.0
