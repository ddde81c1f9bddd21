"""The theory cache: what the workspace derives from its data and run, computed once; no Qt.

Derived quantities are computed on first use after each change, so a drag
that edits the data many times a second pays only for what is shown.  Two
memos: :attr:`TheoryCache.per_model` lives as long as the learner (its
:attr:`~TheoryCache.version` counted), :attr:`~TheoryCache.per_data` as long as
the data set.
"""

from __future__ import annotations

import numpy as np

from . import theory
from .document import Document
from .learners.lda import LDA
from .learners.registry import Capabilities, on_classes
from .learners.ties import mistakes
from .run import Run
from .switch import fit, margins_of, novikoff_job, placeholder
from .values import readonly

__all__ = ["TheoryCache", "EXPENSIVE_KERNEL_N", "EXPENSIVE_LINEAR_N", "OVERLAY"]

#: Kernel margin problems above this many samples are handed to a worker when
#: :attr:`TheoryCache.defer_expensive` is set (the window sets it); below it the
#: solve takes a few milliseconds and is done at once.
EXPENSIVE_KERNEL_N = 150
#: Linear margin problems of more than this many samples are handed to the
#: worker too (with :attr:`TheoryCache.defer_expensive`), so that an edit is drawn
#: before its certified margin is known (at 10⁶ points it takes seconds).
EXPENSIVE_LINEAR_N = 500
#: The learner whose fit the overlay of class means and 2σ ellipses draws, beside
#: any learner in use (:attr:`TheoryCache.lda`).
OVERLAY = "lda"


def _once(memo: dict, key, compute):
    if key not in memo:
        memo[key] = compute()
    return memo[key]


class TheoryCache:
    """The quantities derived from a document and its run, each computed once.

    With ``defer_expensive`` a margin on many samples (:data:`EXPENSIVE_KERNEL_N`,
    :data:`EXPENSIVE_LINEAR_N`) is not computed on access; ``version`` counts the
    models installed, so a deferred result handed out for an older one is stale.
    """

    def __init__(self, document: Document, run: Run) -> None:
        self.document = document
        self.run = run
        self.defer_expensive = False
        self.per_model: dict = {}
        self.per_data: dict = {}
        self.version = 0

    def install(self, per_model: dict) -> None:
        """Start the memo of a new model from ``per_model`` (a new :attr:`version`)."""
        self.per_model = per_model
        self.version += 1

    def forget_data(self) -> None:
        """The data set changed: drop what depended on it alone."""
        self.per_data = {}

    @property
    def capabilities(self) -> Capabilities:
        """What the learner in use can do with its parameters, on these data: with more than
        two classes it has no one line (``linear`` False), no arrow and no Novikoff bound."""
        doc = self.document
        return _once(self.per_model, "capabilities", lambda: on_classes(
            doc.spec.caps(doc.current), doc.dataset.is_binary))

    @property
    def novikoff(self) -> theory.NovikoffResult | None:
        """Novikoff's R, γ and bound for the vectors the current perceptron sees.

        A deferred problem gives a placeholder (``separable=None``, the exact
        radius) until :meth:`provide_novikoff` delivers the result.
        """
        if "novikoff" not in self.per_model:
            job = self._novikoff_job()
            if job is None:
                self.per_model["novikoff"] = None
            elif self.deferred(job):
                return _once(self.per_model, "placeholder", lambda: placeholder(
                    job, radius=self.document.dataset.radius()))
            else:
                self.per_model["novikoff"] = job()
        return self.per_model["novikoff"]

    def _novikoff_job(self):
        doc = self.document  # has_both_classes is O(n): once per model
        return _once(self.per_model, "novikoff_job",
                     lambda: novikoff_job(doc.dataset, doc.learner_name, doc.params))

    def deferred(self, job) -> bool:
        """Whether ``job`` (a margin problem) goes to the worker rather than being run now."""
        if not self.defer_expensive:
            return False
        n = self.document.dataset.n
        if job.keywords["kernel"] is None:
            return EXPENSIVE_LINEAR_N < n
        return EXPENSIVE_KERNEL_N < n <= theory.KERNEL_MARGIN_MAX_N

    def pending_theory(self):
        """``(token, job)`` for a worker to run now (``job()`` reads only immutable arrays)."""
        if "novikoff" in self.per_model:
            return None
        job = self._novikoff_job()
        return None if job is None or not self.deferred(job) else (self.version, job)

    def provide_novikoff(self, token: int, result) -> bool:
        """Install a deferred result; ignored (returns False) if the data or
        parameters changed since ``token`` was handed out."""
        if token != self.version or "novikoff" in self.per_model:
            return False
        self.per_model["novikoff"] = result
        return True

    # -- what depends on the data alone -------------------------------------------------
    @property
    def max_margin(self) -> theory.MaxMarginResult | None:
        """The maximum-margin hyperplane (with bias) of the data, or None without data (or
        with more than two classes: one line separates two)."""
        ds = self.document.dataset
        return _once(self.per_data, "max_margin",
                     lambda: theory.max_margin(ds.X, ds.y) if ds.n and ds.is_binary else None)

    def margin_data(self) -> theory.MarginData | None:
        """The samples prepared for the margin of a hyperplane on them (None without data, or
        with more than two classes).

        Made once per data set: the readouts ask for the margin of a new
        hyperplane after every update.
        """
        ds = self.document.dataset
        return _once(self.per_data, "margin_data",
                     lambda: theory.MarginData(ds.X, ds.y) if ds.n and ds.is_binary else None)

    @property
    def lda(self) -> LDA | None:
        """LDA fitted on the data (with the LDA parameters), or None when it cannot be (the
        overlay's line separates two classes)."""
        if not self.document.dataset.is_binary:
            return None
        return _once(self.per_model, "overlay", lambda: self.fit_memo(OVERLAY))[0]

    def forget_overlay(self) -> None:
        """The overlay's parameters changed: fit it again when next asked."""
        self.per_model.pop("overlay", None)

    def fit_memo(self, key: str):
        """``(fitted learner or None, why not)`` for learner ``key`` fitted at once on the data."""
        doc = self.document
        doc.check_learner_key(key)
        result = self.fitted(key, doc.params[key])
        if result is not None:
            return result
        result = fit(doc.dataset, key, doc.params[key])
        self.per_data[("fit", key)] = (dict(doc.params[key]), result)
        return result

    def fitted(self, key: str, params: dict):
        """The memo of learner ``key`` fitted with ``params`` on the data, or None."""
        memo = self.per_data.get(("fit", key))
        return memo[1] if memo is not None and memo[0] == params else None

    # -- what depends on the run -----------------------------------------------------
    def proof(self) -> theory.ProofTrace | None:
        """The proof's quantities along the run up to the cursor (at the log's ``samples``)."""
        nov = self.novikoff
        if not (self.run.running and self.capabilities.proof) or nov is None \
                or not nov.separable:
            return None
        learner = self.run.learner
        k = learner.n_updates_
        points = learner.history.updates.samples(k)  # every update up to a few thousand
        p = self.document.current
        w0, b0 = learner.start_weights if hasattr(learner, "start_weights") else (None, 0.0)
        return theory.proof_trace(
            points.w, points.b, k=points.index, w_star=nov.w_star, gamma=nov.margin,
            radius=nov.radius,
            eta0=p.get("eta0", 1.0), fit_intercept=p["fit_intercept"],
            bias_scale=p["bias_scale"], w0=w0, b0=b0,
        )

    def memo(self, name: str, state: tuple, compute):
        """``compute()``, cached under ``name`` for as long as ``state`` holds.

        The canvas, the readout panel and the plots each ask for the same
        numbers after a step: they are computed once per cursor position.
        ``state`` holds objects (compared by identity) and ints.
        """
        hit = self.per_model.get(name)
        if hit is not None and all(a is b or (isinstance(a, (int, np.integer)) and a == b)
                                   for a, b in zip(hit[0], state, strict=True)):
            return hit[1]
        value = compute()
        self.per_model[name] = (state, value)
        return value

    def training_margins(self) -> np.ndarray | None:
        """Functional margins ``y f(x)`` of every sample, read-only, once per weights."""
        return self.memo("training_margins", self.run.weights_state(), self._training_margins)

    def _training_margins(self) -> np.ndarray | None:
        run = self.run
        if run.problem is not None:
            return None
        if not run.steps:
            return margins_of(run.learner, self.document.dataset)
        return readonly(run.learner.training_margins()) if run.running else None

    def misclassified(self) -> np.ndarray:
        """Indices of the samples with ``y f(x) <= 0`` now (empty without a model; read-only).

        Under ``tie="positive"`` a sample with ``y f(x) = 0`` is wrong only when
        its label is −1.
        """
        return self.memo("misclassified", self.run.weights_state(), self._misclassified)

    def _misclassified(self) -> np.ndarray:
        m = self.training_margins()
        positive = self.capabilities.tie == "positive"
        return readonly(np.empty(0, np.int64) if m is None
                        else np.flatnonzero(mistakes(m, self.document.dataset.y, positive)))
