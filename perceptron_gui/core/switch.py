"""What a workspace builds for one data set, learner and parameters, and a switch built off-thread.

:func:`build` reads only immutable inputs and changes nothing shared, so it may
run in a worker (a :class:`Switch`) as well as on the UI thread.
"""

from __future__ import annotations

import enum
import functools
import math
import re
from dataclasses import dataclass, field

import numpy as np

from . import theory
from .class_edits import class_text
from .dataset import Dataset
from .learners import registry
from .values import readonly

__all__ = ["DataProblem", "Model", "Switch", "build", "describe_problem",
           "find_data_problem", "fit", "fitted_margins", "margins_of", "novikoff_job",
           "placeholder"]

#: The message shown while a deferred kernel margin is being computed.
COMPUTING = "computing the kernel margin…"
#: The message shown while a deferred linear margin is being computed.
COMPUTING_LINEAR = "computing the margin…"


class DataProblem(enum.Enum):
    """Why a learner cannot run on the data: a fact for the UI to put in its words."""

    NO_POINTS = "no_points"
    ONE_CLASS = "one_class"
    #: Fewer points than the learner needs (:attr:`LearnerSpec.min_points
    #: <perceptron_gui.core.learners.registry.LearnerSpec.min_points>`; LDA's
    #: pooled covariance divides by n − 2).
    LDA_TOO_FEW = "lda_too_few"
    #: A learner fitted at once could not be fitted for another reason (its
    #: ``fit`` raised ValueError: :attr:`Model.problem` says why).
    LDA_FAILED = "lda_failed"
    #: More than two classes for a learner that learns two (:attr:`Capabilities.multiclass
    #: <perceptron_gui.core.learners.registry.Capabilities.multiclass>` False).
    TWO_CLASSES = "two_classes"
    #: A class of more than two with no point yet (just added, or its points deleted):
    #: a learner of m classes estimates every class from its points.
    EMPTY_CLASS = "empty_class"


def find_data_problem(dataset: Dataset, learner: str = registry.DEFAULT) -> DataProblem | None:
    """Why ``learner`` cannot be trained on ``dataset``, or None (a failed fit is not tried)."""
    if not dataset.is_binary and not registry.get(learner).caps().multiclass:
        return DataProblem.TWO_CLASSES
    if dataset.n == 0:
        return DataProblem.NO_POINTS
    if not dataset.has_both_classes:
        return DataProblem.ONE_CLASS
    if not dataset.is_binary and min(dataset.class_counts()) == 0:
        return DataProblem.EMPTY_CLASS
    return DataProblem.LDA_TOO_FEW if dataset.n < registry.get(learner).min_points else None


def describe_problem(problem: DataProblem | None, dataset: Dataset,
                     learner: str = registry.DEFAULT) -> str | None:
    """A problem stated plainly (no gestures: how to add a point is the UI's to say)."""
    if problem is DataProblem.NO_POINTS:
        return "No points yet: add points of both classes."
    if problem is DataProblem.ONE_CLASS and not dataset.is_binary:
        have = next((c for c, k in zip(dataset.classes, dataset.class_counts(), strict=True)
                     if k), None)
        if have is None:
            return "No points yet: add points of every class."
        return f"Only class {class_text(dataset, have)} so far: add points of the others."
    if problem is DataProblem.ONE_CLASS:
        other = "−1" if dataset.n_pos else "+1"
        return f"Only one class so far: add a point of class {other}."
    if problem is DataProblem.TWO_CLASSES:
        return (f"{registry.get(learner).display_name} learns two classes, −1 and +1; these "
                f"data have {dataset.n_classes}.")
    if problem is DataProblem.EMPTY_CLASS:
        empty = [c for c, k in zip(dataset.classes, dataset.class_counts(), strict=True) if not k]
        names = ", ".join(class_text(dataset, c) for c in empty)
        return (f"No points of class {names} yet: {registry.get(learner).display_name} "
                "learns every class from its points.")
    if problem is DataProblem.LDA_TOO_FEW:
        spec = registry.get(learner)
        return spec.too_few or f"{spec.display_name} needs at least {spec.min_points} points."
    return None


def fit(dataset: Dataset, learner_name: str, params: dict) -> tuple[object | None, str | None]:
    """``(fitted learner, None)``, or ``(None, why)`` when its ``fit`` raised ValueError."""
    return registry.get(learner_name).fit(dataset.X, dataset.y, params)


@dataclass(eq=False)
class Model:
    """The learner for one data set and parameters, started, fitted, or why it cannot run.

    ``cache`` holds the derived quantities computed so far.
    """

    learner: object
    problem_kind: DataProblem | None
    problem: str | None
    cache: dict = field(default_factory=dict)


def build(dataset: Dataset, learner_name: str, params: dict, fitted=None,
          start: tuple | None = None) -> Model:
    """The learner ``learner_name`` with its ``params``, started (or fitted) on ``dataset``.

    ``params`` holds every learner's parameters (not changed); ``fitted`` is
    :func:`fit`'s answer already computed; the hand-set ``start`` is used by a
    learner whose capabilities allow it (``b0`` dropped without an intercept).
    """
    spec = registry.get(learner_name)
    learner = spec.create(params[learner_name])
    kind = find_data_problem(dataset, learner_name)
    model = Model(learner, kind, describe_problem(kind, dataset, learner_name))
    if kind is None and spec.caps().steps:
        p = params[learner_name]
        if start is not None and spec.caps(p).start:
            w0, b0 = start
            learner.start(dataset.X, dataset.y, w0, b0 if p.get("fit_intercept", True) else 0.0)
        else:
            learner.start(dataset.X, dataset.y)
    elif kind is None:
        done, why = fitted if fitted is not None else fit(dataset, learner_name,
                                                            params[learner_name])
        model.cache["fit"] = (done, why)
        if done is None:
            model.problem_kind, model.problem = DataProblem.LDA_FAILED, named(why, dataset)
        else:
            model.learner = done
    return model


def named(message: str, dataset: Dataset) -> str:
    """A learner's ``message`` with the classes of m it numbers ("class 3") by their names
    (the learners see labels; the data set knows what they are called)."""
    if dataset.is_binary or dataset.class_names is None:
        return message

    def name(match) -> str:
        label = int(match.group(2))
        if label not in dataset.classes:
            return match.group(0)
        return f"{match.group(1)}lass {class_text(dataset, label)}"

    return re.sub(r"\b([Cc])lass (\d+)\b", name, message)


def margins_of(learner, dataset: Dataset) -> np.ndarray:
    """Functional margins ``y f(x)`` of every sample under a fitted learner (read-only).

    With more than two classes, the multiclass margin: a sample's own class's
    score less the largest other one (``<= 0``: a mistake, as ``y f(x) <= 0``).
    """
    with np.errstate(over="ignore", invalid="ignore"):  # inf − inf: NaN, as a run sees it
        scores = learner.decision_function(dataset.X)
        if dataset.is_binary:
            return readonly(dataset.y * scores)
        return readonly(class_margins(scores, np.searchsorted(learner.classes_, dataset.y)))


def class_margins(scores: np.ndarray, own: np.ndarray) -> np.ndarray:
    """``scores[i, own[i]] - max_{k != own[i]} scores[i, k]`` for scores of shape (n, m)."""
    scores = np.array(scores, dtype=np.float64)
    rows = np.arange(len(own))
    mine = scores[rows, own].copy()
    scores[rows, own] = -np.inf
    return mine - scores.max(axis=1)


def fitted_margins(learner, dataset: Dataset) -> dict:
    """The margins and misclassified samples of a learner fitted at once, as the memo keeps them.

    A worker hands the UI thread its first frame's O(n) numbers ready (QDA at
    10⁶ points takes tens of ms).
    """
    m = margins_of(learner, dataset)
    idx = readonly(np.flatnonzero(m <= 0))
    state = (learner, 0)
    return {"training_margins": (state, m), "misclassified": (state, idx)}


def novikoff_job(dataset: Dataset, learner_name: str, params: dict):
    """A ``job()`` (any thread) for Novikoff's R, γ and bound, or None (no bound, one class)."""
    p = params[learner_name]
    caps = registry.get(learner_name).caps(p)
    if not caps.novikoff or not dataset.is_binary or not dataset.has_both_classes:
        return None
    return functools.partial(
        theory.novikoff_or_reason, dataset.X, dataset.y,
        fit_intercept=p["fit_intercept"], bias_scale=p["bias_scale"],
        kernel=None if caps.linear else caps.kernel,
    )


def placeholder(job, radius: float | None = None) -> theory.NovikoffResult:
    """What the readouts show while ``job`` runs: the exact radius, the rest unknown.

    ``radius``, the cached ``max ||x_i||`` of the job's points, gives a linear
    job's radius ``hypot(radius, c)`` with no pass over the points.
    """
    kernel = job.keywords["kernel"]
    X = job.args[0]
    c = job.keywords["bias_scale"] if job.keywords["fit_intercept"] else 0.0
    if kernel is None and radius is not None:
        radius = math.hypot(radius, c)
    elif kernel is None:  # scaled, so that no square overflows
        s = max(float(np.abs(X).max()), c)
        r2 = np.einsum("ij,ij->i", X / s, X / s).max() + (c / s) ** 2
        radius = s * math.sqrt(float(r2))
    else:
        radius = float(np.sqrt(np.max(kernel.diagonal(X)) + c * c))
    nan = math.nan
    return theory.NovikoffResult(
        radius=radius, margin=nan, bound=nan, separable=None, w_star=None, upper=nan,
        lower=nan, augmented=bool(job.keywords["fit_intercept"]),
        reason=COMPUTING if kernel is not None else COMPUTING_LINEAR)


class Switch:
    """A change of learner or parameters, built in a worker and installed at once.

    ``params`` are every learner's parameters after the switch.
    """

    def __init__(self, dataset: Dataset, learner_name: str, params: dict, fitted=None,
                 margin_data=None, defers=None, start=None):
        self.dataset = dataset
        self.start = start
        self.learner_name = learner_name
        self.params = {key: dict(values) for key, values in params.items()}
        self.model: Model | None = None
        self.margin_data = margin_data
        self._fitted = fitted
        self._defers = defers

    def run(self) -> Switch:
        """Build the model and what its first frame reads, each O(n) (any thread; ``self``)."""
        model = build(self.dataset, self.learner_name, self.params, fitted=self._fitted,
                      start=self.start)
        job = model.cache["novikoff_job"] = novikoff_job(self.dataset, self.learner_name,
                                                          self.params)
        if job is not None and model.problem is None:
            if self._defers is not None and not self._defers(job):
                model.cache["novikoff"] = job()
            else:
                model.cache["placeholder"] = placeholder(job, radius=self.dataset.radius())
        if model.problem is None and not registry.get(self.learner_name).caps(
                self.params[self.learner_name]).steps:
            model.cache.update(fitted_margins(model.learner, self.dataset))
        if self.margin_data is None and self.dataset.n:
            self.margin_data = theory.MarginData(self.dataset.X, self.dataset.y)
        self.model = model
        return self
