"""Each learner parameter's one validated range, shared by files, notebook API and controls.

Every way a value arrives (a file, a demo, :func:`perceptron_gui.show`, a
control) meets the same :func:`check`, and the learner panel builds its
controls from the same :class:`ParamSpec`: a control holds every value the core
accepts.  The ranges are what the arithmetic allows, never what a lesson needs.
"""

from __future__ import annotations

import math
import numbers
import sys
from dataclasses import dataclass, replace

import numpy as np

from ..values import short
from .losses import TRAINABLE
from .ties import TIE_TEXTS, TIE_TIP, TIES

__all__ = ["ParamSpec", "PRIMAL", "DUAL", "MULTICLASS", "LDA_PARAMS", "QDA_PARAMS", "NB_PARAMS",
           "check", "check_all", "FLOAT_MIN", "FLOAT_MAX"]

#: Smallest positive value of a float parameter (above it, 323 decimals hold every float64).
FLOAT_MIN = 1e-300
FLOAT_MAX = sys.float_info.max
#: ``bias_scale``'s range: its square, the bias step, is a normal float64.
SCALE_MIN, SCALE_MAX = 1e-150, 1e150
#: Largest value of an integer parameter: what a 32-bit spin box holds.
INT_MAX = 2**31 - 1


@dataclass(frozen=True)
class ParamSpec:
    """One parameter of a learner: what it is, the values it takes, how it is edited.

    Attributes
    ----------
    key, label, tip : str
        The ``__init__`` keyword (``"max_iter"``), a control's label and tooltip.
    kind : {"bool", "float", "int", "choice", "priors", "shrinkage"}
        ``"priors"`` is None or ``[1 - p, p]`` with ``p`` in the range;
        ``"shrinkage"`` None, ``"auto"`` or a number in the range.
    low, high : float
        The closed range of a number (for ``"priors"``: of ``p``).
    decimals, step : int, float
        Significant digits a control shows, and a spin box's step.
    choices : tuple of (value, text)
        The values of a ``"choice"`` and the text people read.
    needs : tuple
        ``(other key, values)``: the parameter matters (is enabled) only then.
    optional : bool
        None is also accepted (a seed: a fresh one each run).
    """

    key: str
    label: str
    kind: str
    tip: str
    low: float = 0.0
    high: float = 1.0
    decimals: int = 3
    step: float = 0.1
    choices: tuple = ()
    needs: tuple = ()
    optional: bool = False

    def range_text(self) -> str:
        """The range as a message says it, e.g. ``"a positive integer (at most 1,000,000)"``."""
        if self.kind == "bool":
            return "True or False"
        if self.kind == "choice":
            values = [repr(v) for v, _ in self.choices]
            return " or ".join(values) if len(values) == 2 else "one of " + ", ".join(values)
        if self.kind == "priors":
            return f"None or 2 positive numbers summing to 1, each in [{self.low:g}, {self.high:g}]"
        if self.kind == "shrinkage":
            return f"in [{self.low:g}, {self.high:g}], None or 'auto'"
        if self.kind == "int":
            sign = {1: "a positive ", 0: "a non-negative "}.get(int(self.low))
            text = (f"{sign}integer (at most {int(self.high):,})" if sign
                    else f"an integer in [{int(self.low):,}, {int(self.high):,}]")
        elif self.low <= -FLOAT_MAX and self.high >= FLOAT_MAX:
            text = "a finite number"
        elif self.low > 0 and self.high >= FLOAT_MAX:
            text = f"a positive finite number (at least {self.low:g})"
        elif self.low > 0:
            text = f"a positive number in [{self.low:g}, {self.high:g}]"
        else:
            text = f"a number in [{self.low:g}, {self.high:g}]"
        return f"None or {text}" if self.optional else text


def _real(value) -> float | None:
    """``value`` as a float when it is a real number (not a bool, not a string), else None."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    try:
        return float(value)
    except (OverflowError, ValueError, TypeError):
        return math.inf


def check(spec: ParamSpec, value) -> None:
    """Raise ValueError naming the parameter and its range (a generator seed: the learner's)."""
    if value is None and (spec.optional or spec.kind in ("priors", "shrinkage")):
        return
    ok = True
    if spec.kind == "bool":
        ok = isinstance(value, (bool, np.bool_))
    elif spec.kind == "choice":
        ok = isinstance(value, str) and value in {v for v, _ in spec.choices}
    elif spec.kind == "int":
        if spec.optional and not isinstance(value, (numbers.Integral, bool, str, float)):
            return  # a random generator: the learner checks its type
        ok = (isinstance(value, numbers.Integral) and not isinstance(value, bool)
              and spec.low <= int(value) <= spec.high)
    elif spec.kind in ("float", "shrinkage"):
        if spec.kind == "shrinkage" and value == "auto" and isinstance(value, str):
            return
        x = _real(value)
        ok = x is not None and spec.low <= x <= spec.high
    elif spec.kind == "priors":
        ok = _priors_ok(spec, value)
    if not ok:
        raise ValueError(f"{spec.key} must be {spec.range_text()}, got {short(value)}")


def _priors_ok(spec: ParamSpec, value) -> bool:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        return False
    try:
        if len(value) != 2:
            return False
        p = [_real(v) for v in value]
    except TypeError:
        return False
    if any(v is None for v in p):
        return False
    return (all(spec.low <= v <= spec.high for v in p)
            and math.isclose(p[0] + p[1], 1.0, rel_tol=0.0, abs_tol=1e-8))


def check_all(specs: tuple, estimator) -> None:
    """:func:`check` each parameter of ``specs`` as set on ``estimator``, in order."""
    for spec in specs:
        check(spec, getattr(estimator, spec.key))


# ============================================================================ the specs

_BIAS = ParamSpec("fit_intercept", "Bias", "bool",
                  "Learn a bias b: the boundary is w·x + b = 0, the perceptron seeing x̃ = (x, c).\n"
                  "Off: the boundary passes through the origin.")
_SCALE = ParamSpec("bias_scale", "Bias scale c", "float",
                   "The constant feature c of x̃ = (x, c). Each update moves b by η·y·c²,\n"
                   "and R, γ and the bound are of the augmented vectors x̃.",
                   SCALE_MIN, SCALE_MAX, 6, 0.1, needs=("fit_intercept", (True,)))
_ORDER = ParamSpec("order", "Order", "choice",
                   "cyclic: visit the samples in order every epoch (the textbook algorithm).\n"
                   "random: a fresh permutation per epoch, drawn from the seed.",
                   choices=(("cyclic", "cyclic"), ("random", "random")))
_SEED = ParamSpec("random_state", "Seed", "int", "Seed of the random visiting order.",
                  0, INT_MAX, needs=("order", ("random",)), optional=True)
#: The primal learner's orders: the perceptron's two, stochastic gradient descent's
#: uniform draws and batch gradient descent.
_PRIMAL_ORDER = ParamSpec(
    "order", "Order", "choice", _ORDER.tip + "\n"
    "uniform: SGD; each step draws one sample uniformly, with replacement (n steps an epoch).\n"
    "batch: gradient descent; one step sums the gradient over every sample (a pass).",
    choices=_ORDER.choices + (("uniform", "uniform (SGD)"), ("batch", "batch (GD)")))
_PRIMAL_SEED = replace(_SEED, tip="Seed of the random visiting order or of the uniform draws.",
                      needs=("order", ("random", "uniform")))
_TIE = ParamSpec("tie", "On boundary", "choice", TIE_TIP,
                 choices=tuple((tie, TIE_TEXTS[tie]) for tie in TIES))
#: The primal rule for a point on the boundary: the perceptron loss's (hinge and
#: logistic count margins, not signs).
_PRIMAL_TIE = replace(_TIE, needs=("loss", tuple(loss.name for loss in TRAINABLE if loss.ties)))
_EPOCHS = ParamSpec("max_iter", "Max epochs", "int",
                    "Give up after this many epochs (non-separable data never converge).",
                    1, 1_000_000)

#: Parameters renamed to scikit-learn's names (``Perceptron``, ``SGDClassifier``), by
#: their former names: files and demos written with these still open.
FORMER_NAMES = {"max_epochs": "max_iter", "learning_rate": "eta0"}


def upgrade_names(values: dict) -> tuple[dict, dict]:
    """``values`` renamed from :data:`FORMER_NAMES`, and ``{today's name: former name}``.

    ValueError when a parameter is given under both names.
    """
    upgraded, former = {}, {}
    for name, value in values.items():
        new = FORMER_NAMES.get(name, name)
        if new != name:
            if new in values:
                raise ValueError(f"{name!r} is the former name of {new!r}: give one of them")
            former[new] = name
        upgraded[new] = value
    return upgraded, former


#: The primal perceptron's parameters, in the order the panel shows them.
PRIMAL = (
    _BIAS, _SCALE,
    ParamSpec("eta0", "Learning rate η", "float",
              "η > 0: each step is w ← w − η·∂ℓ/∂w (the perceptron: w ← w + η·y·x).\n"
              "From w = 0 the perceptron's η scales w and b but does not change\n"
              "which samples are mistakes; with the hinge and logistic losses it does.",
              FLOAT_MIN, FLOAT_MAX, 6, 0.1),
    ParamSpec("loss", "Loss", "choice",
              "The loss ℓ of the margin z = y·f(x) whose gradient each step follows:\n"
              + ";\n".join(loss.tip for loss in TRAINABLE) + ".",
              choices=tuple((loss.name, loss.label) for loss in TRAINABLE)),
    _PRIMAL_TIE, _PRIMAL_ORDER, _PRIMAL_SEED, _EPOCHS,
)

#: The multiclass perceptron's parameters, in the order the panel shows them.
MULTICLASS = (
    replace(_BIAS, tip="Learn a bias bₖ for each class: class k scores wₖ·x + bₖ, the "
                       "perceptron seeing x̃ = (x, c).\nOff: every score is 0 at the origin."),
    replace(_SCALE, tip="The constant feature c of x̃ = (x, c): bₖ = c·wₖ₀, and R and the "
                        "bound are of the augmented vectors x̃."),
    ParamSpec("eta0", "Learning rate η", "float",
              "η > 0: on a mistake w_y ← w_y + η·x̃ and w_ŷ ← w_ŷ − η·x̃ (ŷ: the class that "
              "scored as much).\nFrom W = 0, η scales every wₖ and does not change which "
              "samples are mistakes.",
              FLOAT_MIN, FLOAT_MAX, 6, 0.1),
    _ORDER, _SEED, _EPOCHS,
)

#: The dual perceptron's parameters, in the order the panel shows them.
DUAL = (
    ParamSpec("kernel", "Kernel", "choice",
              "K(a, b): linear a·b; polynomial (γ a·b + r)^d; RBF exp(−γ‖a − b‖²).",
              choices=(("linear", "linear"), ("poly", "polynomial"), ("rbf", "RBF"))),
    ParamSpec("degree", "Degree d", "int", "Degree of the polynomial kernel.", 1, 100,
              needs=("kernel", ("poly",))),
    ParamSpec("gamma", "Kernel γ", "float", "Scale of the polynomial and RBF kernels.",
              FLOAT_MIN, FLOAT_MAX, 6, 0.1, needs=("kernel", ("poly", "rbf"))),
    ParamSpec("coef0", "Kernel r", "float", "Constant of the polynomial kernel.",
              -FLOAT_MAX, FLOAT_MAX, 6, 0.5, needs=("kernel", ("poly",))),
    _TIE, _BIAS, _SCALE, _ORDER, _SEED, _EPOCHS,
)

_PRIORS = ParamSpec("priors", "Prior π₊ of class +1", "priors",
                    "Priors π± = n±/n (the maximum-likelihood estimate), or set π₊ by hand.\n"
                    "The log-odds gain ln(π₊/π₋).", 0.001, 0.999, 3, 0.05)

#: LDA's parameters (its form: a "from class counts" box and π₊; a shrinkage mode and a).
LDA_PARAMS = (
    replace(_PRIORS, tip=_PRIORS.tip.replace("The log-odds gain", "b gains")),
    ParamSpec("shrinkage", "Shrinkage intensity a", "shrinkage",
              "Shrink the pooled covariance towards (tr S / d)·I:\n"
              "S' = (1 − a)·S + a·(tr S / d)·I.", 0.0, 1.0, 3, 0.05),
)

#: QDA's parameters: the priors and scikit-learn's ``reg_param``.
QDA_PARAMS = (
    _PRIORS,
    ParamSpec("reg_param", "Regularisation r", "float",
              "Each class's covariance Σₖ becomes (1 − r)·Σₖ + r·I\n"
              "(scikit-learn's reg_param): r > 0 makes a singular Σₖ invertible.",
              0.0, 1.0, 3, 0.05),
)

#: Gaussian naive Bayes's parameters: the priors, ``var_smoothing`` and pooling.
NB_PARAMS = (
    _PRIORS,
    ParamSpec("var_smoothing", "Variance smoothing", "float",
              "ε = var_smoothing · (the largest variance of a feature over all the data)\n"
              "is added to every variance (scikit-learn's var_smoothing).",
              0.0, FLOAT_MAX, 6, 1e-9),
    ParamSpec("shared_variance", "Shared variances", "bool",
              "Pool each feature's variance over the classes: the log-odds are then\n"
              "w·x + b, a linear classifier (the boundary is a line)."),
)
