"""The learners the workspace offers, each described by its spec: what it can do, not its name.

Callers read a learner's :class:`Capabilities`, never its name (as scikit-learn's
read an estimator's tags): a new learner is one class and one :func:`register`
(docs/architecture.md, "A learner"); :func:`unregister` takes it back (a
workspace using it falls back to :data:`DEFAULT`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ..kernels import Kernel, make_kernel
from ..registry import Registry
from ..signal import signal
from .dual import DualPerceptron
from .lda import LDA
from .losses import PERCEPTRON, Loss, loss_for
from .multiclass_perceptron import MulticlassPerceptron
from .naive_bayes import GaussianNB
from .one_vs_rest import OneVsRestPerceptron
from .params import DUAL, LDA_PARAMS, MULTICLASS, NB_PARAMS, PRIMAL, QDA_PARAMS, ParamSpec
from .primal import PrimalPerceptron
from .qda import QDA
from .ties import DEFAULT_TIE, condition

__all__ = ["BUILTIN", "DEFAULT", "DEFAULT_PARAMS", "LEARNERS", "READOUTS", "REGISTRY",
           "Capabilities", "LearnerSpec", "changed", "get", "multiclass", "on_classes",
           "register", "stepping", "unregister", "withdrawing"]

#: The readout sections a learner may show beside the classifier's and the status.
READOUTS = ("run", "bound", "update", "class_model")


@dataclass(frozen=True)
class Capabilities:
    """What a learner with given parameters can do: what the window shows of it.

    Attributes
    ----------
    steps : bool
        It has the step API (a run the timeline scrubs); False: ``fit`` at once.
    linear : bool, default=True
        Its boundary is ``w·x + b = 0`` (``coef_``, ``intercept_``); False: the
        zero contour of ``decision_function``, drawn with its regions.
    novikoff, dual_coef, posteriors : bool, default=False
        Novikoff's bound and the proof apply to its run; it has ``alpha_`` and
        ``support_``; it has ``predict_proba``.
    readouts : frozenset of str, default=frozenset()
        The readout sections that apply (:data:`READOUTS`).
    class_model : bool, default=False
        It has ``means_``, ``covariance_``, ``priors_``: the means and their 2σ
        ellipses are drawn.
    arrow_from_means : bool, default=False
        Its ``w`` has no natural length: the arrow starts at the midpoint of
        the means, sized to the view.
    start : bool, default=False
        Its run can start from a hand-set ``w0, b0`` (``coef_init``, ``intercept_init``).
    tie : {"mistake", "positive"} or None, default=None
        Its rule for a point on the boundary (:mod:`.ties`); None: ``y f(x) <= 0``
        is wrong.
    loss : Loss, default=PERCEPTRON
    multiclass : bool, default=False
        It learns more than two classes (and the window draws them).
    claims : bool, default=False
        With m classes it is m binary learners, one per class against the rest: each
        one's line is drawn, and where none or several claim a point.
    class_lines : bool, default=False
        With m classes its scores are linear, ``w_k·x + b_k`` up to a term common to
        every class (``coef_``, ``intercept_`` of shape (m, d), (m,)): each class's
        region is a convex polygon (set by :func:`on_classes` for a linear learner).
    """

    steps: bool
    linear: bool = True
    novikoff: bool = False
    dual_coef: bool = False
    posteriors: bool = False
    kernel: Kernel | None = None
    readouts: frozenset = frozenset()
    class_model: bool = False
    arrow_from_means: bool = False
    start: bool = False
    tie: str | None = None
    loss: Loss = PERCEPTRON
    multiclass: bool = False
    claims: bool = False
    class_lines: bool = False

    @property
    def mistake_condition(self) -> str | None:
        """The mistake condition of its rule as the window writes it (None without a rule)."""
        return None if self.tie is None else condition(self.tie)

    @property
    def nonlinear_kernel(self) -> bool:
        """Whether the boundary is a contour of a non-linear kernel's ``f``."""
        return self.kernel is not None and not self.linear

    @property
    def proof(self) -> bool:
        """Whether the proof's two inequalities can be traced (Novikoff's bound, a line)."""
        return self.novikoff and self.linear

    def __post_init__(self):
        unknown = set(self.readouts) - set(READOUTS)
        if unknown:
            raise ValueError(f"unknown readout section(s) {sorted(unknown)}; "
                             f"expected some of {READOUTS}")


@dataclass(frozen=True)
class LearnerSpec:
    """How the workspace makes, checks and shows one kind of learner.

    Attributes
    ----------
    key, display_name : str
        The name in files, demos and the API (``"primal"``), and the one people see.
    cls : type
        The estimator: keyword-only parameters, ``validate_params()``, and the
        step API (:class:`~.stepper.Stepper`) or ``fit(X, y)`` (ValueError when
        it cannot) and ``decision_function``.
    defaults : dict
        Every parameter with the value the workspace starts with.
    params : tuple of ParamSpec
        Each parameter's kind, range, label and tip (:mod:`.params`), from
        which the learner panel builds its form.
    capabilities : Capabilities or callable
        Or a function of the parameters returning them.
    min_points, too_few : int, str
        The fewest points it trains on (with both classes), and why.
    no_steps : str, default=""
        What a learner fitted at once is fitted from (:attr:`no_steps_text`).
    """

    key: str
    display_name: str
    cls: type
    defaults: dict
    params: tuple[ParamSpec, ...] = ()
    capabilities: Capabilities | Callable[[dict], Capabilities] = field(
        default=Capabilities(steps=False))
    min_points: int = 1
    too_few: str = ""
    no_steps: str = ""

    def param(self, key: str) -> ParamSpec:
        """The spec of parameter ``key``; KeyError for an unknown one."""
        for spec in self.params:
            if spec.key == key:
                return spec
        raise KeyError(key)

    def caps(self, params: dict | None = None) -> Capabilities:
        """The :class:`Capabilities` with ``params`` (default: :attr:`defaults`)."""
        if isinstance(self.capabilities, Capabilities):
            return self.capabilities
        return self.capabilities(dict(self.defaults, **(params or {})))

    @property
    def no_steps_text(self) -> str:
        """What the run's plots say instead of plotting."""
        source = f", from {self.no_steps}" if self.no_steps else ""
        return (f"{self.display_name} is fitted at once{source}: there is no run to step "
                "through or plot.")

    def create(self, params: dict):
        """A new, unfitted learner with ``params`` (every parameter, as in :attr:`defaults`)."""
        return self.cls(**params)

    def validate(self, params: dict) -> None:
        """Raise ValueError naming the first invalid value of ``params``."""
        self.create(params).validate_params()

    def fit(self, X, y, params: dict) -> tuple[object | None, str | None]:
        """The learner fitted at once on ``X, y``, and None; or None and why it cannot be."""
        try:
            return self.create(params).fit(X, y), None
        except ValueError as exc:
            return None, str(exc)


def on_classes(caps: Capabilities, binary: bool) -> Capabilities:
    """``caps`` on data of two classes (``binary``), or of more: then a multiclass learner
    scores each class (no one line ``w·x + b``, no arrow, no Novikoff bound of one separator)."""
    if binary or not caps.multiclass:  # a learner of two classes says why it cannot run
        return caps
    return dataclasses.replace(caps, linear=False, novikoff=False, arrow_from_means=False,
                               start=False, class_lines=caps.linear or caps.class_lines)


_PERCEPTRON_READOUTS = frozenset({"run", "bound", "update"})
#: A run without Novikoff's bound of one separator (the multiclass perceptron).
_RUN_READOUTS = frozenset({"run", "update"})


def _primal_caps(params: dict) -> Capabilities:
    """Novikoff's bound counts the perceptron loss's mistakes one sample a step (not batch)."""
    loss = loss_for(params["loss"])
    return Capabilities(steps=True, novikoff=loss.novikoff and params["order"] != "batch",
                        posteriors=loss.probabilities, readouts=_PERCEPTRON_READOUTS,
                        start=True, tie=params.get("tie", DEFAULT_TIE) if loss.ties else None,
                        loss=loss)


def _dual_caps(params: dict) -> Capabilities:
    kernel = make_kernel(params["kernel"], degree=params["degree"], gamma=params["gamma"],
                         coef0=params["coef0"])
    return Capabilities(steps=True, linear=kernel.name == "linear", novikoff=True,
                        dual_coef=True, kernel=kernel, readouts=_PERCEPTRON_READOUTS,
                        tie=params.get("tie", DEFAULT_TIE))


def _one_vs_rest_caps(params: dict) -> Capabilities:
    """A perceptron per class, fitted at once: with two classes the primal perceptron's line."""
    loss = loss_for(params["loss"])
    return Capabilities(steps=False, multiclass=True,
                        claims=True, tie=params.get("tie", DEFAULT_TIE) if loss.ties else None,
                        loss=loss)


_CLASS_MODEL = frozenset({"class_model"})


def _nb_caps(params: dict) -> Capabilities:
    """Pooled variances make naive Bayes's log-odds linear: then it has a line, w and b."""
    linear = bool(params["shared_variance"])
    return Capabilities(steps=False, linear=linear, posteriors=True, readouts=_CLASS_MODEL,
                        class_model=True, arrow_from_means=linear, multiclass=True)


def _check(spec: LearnerSpec) -> None:
    if not isinstance(spec, LearnerSpec):
        raise TypeError(f"expected a LearnerSpec, got {type(spec).__name__}")
    if spec.key in REGISTRY:
        raise ValueError(f"a learner {spec.key!r} is already registered")
    unknown = {p.key for p in spec.params} - set(spec.defaults)
    if unknown:
        raise ValueError(f"parameter spec(s) without a default: {sorted(unknown)}")
    spec.caps()  # its capabilities with the defaults: raises now, not in the window


#: Learner key -> spec, in the order the learner menu lists them.
REGISTRY: Registry[LearnerSpec] = Registry("learner", lambda spec: spec.key, _check)

#: Emitted with the key after :func:`register` or :func:`unregister` changed the registry.
changed = REGISTRY.changed

#: Emitted with the key by :func:`unregister` while the learner is still registered,
#: so whoever uses it lets go of it while every spec it knew is still found.
withdrawing = signal(str, name="withdrawing")

#: The key of the learner a new workspace starts with.
DEFAULT = "primal"


def register(spec: LearnerSpec) -> None:
    """Offer the learner ``spec`` everywhere (menu, files, demos, API); ValueError if taken."""
    REGISTRY.register(spec)


def unregister(key: str) -> LearnerSpec:
    """Withdraw learner ``key`` (ValueError if unknown or the default); returns its spec."""
    get(key)  # ValueError for an unknown key
    if key == DEFAULT:
        raise ValueError(f"the default learner {key!r} cannot be unregistered")
    withdrawing.emit(key)
    return REGISTRY.unregister(key)


def get(key: str) -> LearnerSpec:
    """The spec of learner ``key``; ValueError for an unknown key."""
    try:
        return REGISTRY[key]
    except (KeyError, TypeError):
        raise ValueError(f"unknown learner {key!r}; expected one of {sorted(REGISTRY)}") from None


def multiclass() -> list[str]:
    """The keys of the learners that learn more than two classes, in registry order."""
    return [key for key, spec in REGISTRY.items() if spec.caps().multiclass]


def stepping() -> list[str]:
    """The keys of the learners that step, in registry order."""
    return [key for key, spec in REGISTRY.items() if spec.caps().steps]


class _View(Mapping):
    """A read-only mapping ``key -> value(spec)`` that follows :data:`REGISTRY` live."""

    def __init__(self, value: Callable[[LearnerSpec], object]):
        self._value = value

    def __getitem__(self, key):
        return self._value(REGISTRY[key])

    def __iter__(self) -> Iterator[str]:
        return iter(list(REGISTRY))

    def __len__(self) -> int:
        return len(REGISTRY)

    def __repr__(self) -> str:
        return repr(dict(self))


#: Learner keys and the names people see (a live view of the registry).
LEARNERS: Mapping[str, str] = _View(lambda spec: spec.display_name)

#: Default parameters of each learner in the window, read-only (a live view; a
#: fixed seed, so a random order is reproducible from the start).
DEFAULT_PARAMS: Mapping[str, Mapping] = _View(lambda spec: MappingProxyType(spec.defaults))


for _spec in (
    LearnerSpec("primal", "Primal perceptron", PrimalPerceptron,
                PrimalPerceptron.default_params(random_state=0), params=PRIMAL,
                capabilities=_primal_caps),
    LearnerSpec("dual", "Dual perceptron", DualPerceptron,
                DualPerceptron.default_params(random_state=0), params=DUAL,
                capabilities=_dual_caps),
    LearnerSpec("one_vs_rest", "One-vs-rest perceptron", OneVsRestPerceptron,
                OneVsRestPerceptron.default_params(random_state=0), params=PRIMAL,
                capabilities=_one_vs_rest_caps,
                no_steps="one perceptron per class against the rest, each trained to its "
                         "end"),
    LearnerSpec("multiclass_perceptron", "Multiclass perceptron", MulticlassPerceptron,
                MulticlassPerceptron.default_params(), params=MULTICLASS,
                capabilities=Capabilities(steps=True, linear=False, multiclass=True,
                                          class_lines=True, readouts=_RUN_READOUTS)),
    LearnerSpec(
        "lda", "LDA", LDA, LDA.default_params(), params=LDA_PARAMS,
        capabilities=Capabilities(steps=False, posteriors=True,
                                  readouts=_CLASS_MODEL, class_model=True,
                                  arrow_from_means=True, multiclass=True),
        min_points=3,
        too_few="LDA needs at least 3 points (its pooled covariance divides by n − 2).",
        no_steps="the class means and the pooled covariance",
    ),
    LearnerSpec(
        "qda", "QDA", QDA, QDA.default_params(), params=QDA_PARAMS,
        capabilities=Capabilities(steps=False, linear=False, posteriors=True,
                                  readouts=_CLASS_MODEL, class_model=True,
                                  multiclass=True),
        min_points=6,
        too_few=("QDA needs at least 6 points (3 of each class: in the plane a class's "
                 "covariance is invertible only from 3 points not on a line)."),
        no_steps="each class's mean and covariance",
    ),
    LearnerSpec(
        "naive_bayes", "Gaussian naive Bayes", GaussianNB, GaussianNB.default_params(),
        params=NB_PARAMS,
        capabilities=_nb_caps,
        min_points=2,
        too_few="Gaussian naive Bayes needs at least 2 points (one of each class).",
        no_steps="each class's means and variances",
    ),
):
    register(_spec)
del _spec

#: The keys of the learners this program ships (files store their parameters).
BUILTIN: tuple[str, ...] = tuple(REGISTRY)
