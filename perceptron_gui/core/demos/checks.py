"""The named numeric claims a demo caption makes, and how each is measured.

A check compares a measured value *to the digits written* (see
``docs/demo-format.md``); :data:`CHECKS` maps each name to its :class:`Check`.
One module, one table: every quantity a caption may claim is a row of it, with the
few lines that measure it beside it (the weight-space ones live in ``weight_checks``).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .. import game as games
from ..learners.losses import PERCEPTRON
from ..learners.primal import PrimalPerceptron
from ..text import pass_terms
from . import weight_checks as wsc
from .reader import Reader, describe

if TYPE_CHECKING:
    from .player import DemoPlayer


def _decimals_tolerance(expected: float | int) -> float:
    """Half a unit in the last digit written: 22.96 -> 0.005, 0.8 -> 0.05, 3 -> exact."""
    if isinstance(expected, numbers.Integral):
        return 1e-9 * max(1.0, abs(float(expected)))
    text = repr(float(expected)).lower()
    mantissa, _, exponent = text.partition("e")
    decimals = len(mantissa.partition(".")[2]) - (int(exponent) if exponent else 0)
    return 0.5 * 10.0 ** (-decimals) * (1 + 1e-9)


def _close(value, expected) -> bool:
    value = float(value)
    return math.isfinite(value) and abs(value - float(expected)) <= _decimals_tolerance(expected)


@dataclass(frozen=True)
class Check:
    """A named claim: how to read its expected value and how to measure it.

    ``kind`` is ``"bool"`` (equal), ``"count"`` (equal integers), ``"number"``
    (to the digits written), ``"vector"`` (the same, per component) or
    ``"probe"``: ``[x₁, x₂, value]``, a value at a point of the plane, whose
    ``measure(p, point)`` takes the point too, or ``"probes"``: ``[x₁, x₂, v₁, …]``,
    a vector there (one value a class).  ``percent`` marks a quantity written in
    percent (``"training_error_percent": 32.5`` for 32.5 %).
    """

    kind: str
    measure: Callable
    doc: str
    percent: bool = False

    def validate(self, r: Reader, value, where: str) -> None:
        if self.kind == "bool":
            r.boolean(value, where)
        elif self.kind == "count":
            r.integer(value, where, minimum=0)
        elif self.kind == "number":
            r.number(value, where)
        else:
            size_ok = {"probe": lambda n: n == 3, "probes": lambda n: n >= 3}.get(
                self.kind, lambda n: n > 0)
            if not isinstance(value, list) or not size_ok(len(value)):
                expected = {"probe": "[x1, x2, value]", "probes": "[x1, x2, v1, v2, ...]"}.get(
                    self.kind, "a list of numbers")
                raise r.fail(where, f"expected {expected}, got {describe(value)}")
            for i, v in enumerate(value):
                r.number(v, f"{where}[{i}]")

    def evaluate(self, player, expected):
        """The measured value to compare with ``expected`` (a probe's at its point)."""
        if self.kind in ("probe", "probes"):
            return self.measure(player, (float(expected[0]), float(expected[1])))
        return self.measure(player)

    def failure(self, name: str, measured, expected) -> str | None:
        """None when the claim holds, else a one-line description."""
        if measured is None:
            return f"{name}: not available here (expected {_show(expected)})"
        if self.kind == "bool":
            ok = bool(measured) == expected
        elif self.kind == "count":
            ok = int(measured) == expected
        elif self.kind == "number":
            ok = _close(measured, expected)
        elif self.kind == "probe":
            ok = _close(measured, expected[2])
            measured = [*expected[:2], float(measured)]
        elif self.kind == "probes":
            m = np.ravel(measured)
            ok = m.shape[0] == len(expected) - 2 and all(map(_close, m, expected[2:]))
            measured = [*expected[:2], *(float(v) for v in m)]
        else:
            m = np.ravel(measured)
            ok = m.shape[0] == len(expected) and all(map(_close, m, expected))
            measured = [float(v) for v in m]
        return None if ok else f"{name}: expected {_show(expected)}, got {_show(measured)}"


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


def _running(p: DemoPlayer):
    return p.workspace.learner if p.workspace.running else None


def _proof_last(p, attr):
    trace = p.workspace.proof()
    return None if trace is None or trace.k.size == 0 else float(getattr(trace, attr)[-1])


def _event(p):
    return p.workspace.current_event


#: Updates compared at once between two runs' logs.
_BLOCK = 2**16

_COMPARED = {
    "gamma_decreased": ("gamma", "gamma", "gamma_decreased"),
    "bound_increased": ("bound", "bound", "bound_increased", "bound_finite"),
    "updates_increased": ("updates", "updates", "updates_increased"),
}


def _compare(p, name, relation):
    """``relation(now, then)`` against the previous step that checked the same quantity."""
    key, *names = _COMPARED[name]
    then = p.previous_mark(names)
    if then is None:
        return None
    now = p.snapshot()[key]
    return None if math.isnan(now) or math.isnan(then[key]) else relation(now, then[key])


def _last_update_sample(p):
    learner = _running(p)
    if learner is None or learner.n_updates_ == 0:
        return None
    k = learner.n_updates_
    return int(learner.history.updates.rows(k - 1, k).index[0]) + 1


def _mistakes_every_epoch(p):
    learner = _running(p)
    if learner is None or learner.step_count == 0:
        return None
    mpe = learner.mistakes_per_epoch()
    complete = learner.step_count // p.workspace.dataset.n
    return bool(complete > 0 and np.all(mpe[:complete] > 0))


def _same_updates_as_primal(p):
    """The dual run's updates (steps, samples, w, b) equal a primal run's on the same data."""
    ws = p.workspace
    if not (ws.capabilities.dual_coef and ws.running):
        return None
    dual = ws.learner
    q = ws.params
    if q["kernel"] != "linear":
        return False
    primal = PrimalPerceptron(
        fit_intercept=q["fit_intercept"], bias_scale=q["bias_scale"], eta0=1.0,
        order=q["order"], random_state=q["random_state"], max_iter=q["max_iter"])
    primal.start(ws.dataset.X, ws.dataset.y)
    primal.seek(dual.step_count)
    k = dual.n_updates_
    if primal.n_updates_ != k:
        return False
    a, b = dual.history.updates, primal.history.updates
    same = all(np.array_equal(ra.step, rb.step) and np.array_equal(ra.index, rb.index)
               for ra, rb in ((a.rows(u, u + _BLOCK), b.rows(u, u + _BLOCK))
                              for u in range(0, k, _BLOCK)))
    return bool(same
                and np.allclose(dual.coef_, primal.coef_, rtol=1e-12, atol=1e-12)
                and np.allclose(dual.intercept_, primal.intercept_, rtol=1e-12, atol=1e-12))


def _margins(p):
    return p.workspace.training_margins() if _running(p) else None


def _risk(p):
    """The empirical risk (1/n) Σ ℓ(z_i) under the run's own loss, at the cursor."""
    z = _margins(p)
    return None if z is None else float(np.mean(p.workspace.capabilities.loss.value(z)))


def _w_path(p):
    """The length of the path of w so far: Σ_t ||w_t − w_{t−1}|| over the updates, from w₀."""
    learner = _running(p)
    if learner is None or not p.workspace.capabilities.linear:
        return None
    log, k = learner.history.updates, learner.n_updates_
    total, last = 0.0, log.state_after(0)[0]  # the run's start: 0, or w₀ set by hand
    for u in range(0, k, _BLOCK):
        w = log.rows(u, min(k, u + _BLOCK)).w
        total += float(np.linalg.norm(np.diff(np.vstack([last, w]), axis=0), axis=1).sum())
        last = w[-1]
    return total


def _last_pass_cases(p):
    """How many cases the last pass of batch gradient descent summed (None for a sample step)."""
    ev = _event(p)
    if ev is None or ev.index >= 0 or ev.w_before is None:
        return None
    ds = p.workspace.dataset
    return pass_terms(ev.w_before, ev.b_before, ds.X, ds.y, p.workspace.capabilities.loss)[0]


def _margin_exceeds_perceptron(p):
    """The geometric margin now is larger than a perceptron-loss run's at its end."""
    ws = p.workspace
    now = ws.readouts().margin if _running(p) else math.nan
    if not math.isfinite(now) or "loss" not in ws.params:
        return None
    other = ws.spec.create(dict(ws.params, loss=PERCEPTRON.name)).fit(ws.dataset.X, ws.dataset.y)
    w, b = other.coef_[0], float(other.intercept_[0])
    theirs = float(np.min(ws.dataset.y * (ws.dataset.X @ w + b)) / np.linalg.norm(w))
    return bool(now > theirs)


def _lda(p):
    return p.workspace.lda


def _lda_error(p):
    lda = _lda(p)
    if lda is None:
        return None
    ds = p.workspace.dataset
    return float(np.mean(ds.y * lda.decision_function(ds.X) <= 0))


def _lda_mean(p, label):
    lda = _lda(p)
    return None if lda is None else np.asarray(lda.means_)[list(lda.classes_).index(label)]


def _model(p):
    """The learner in use when it is fitted (not a run) or learns m classes (a run's learner
    at its cursor), and the data allow it; else None."""
    ws = p.workspace
    return ws.learner if ws.has_model and (not ws.capabilities.steps or ws.multiclass) else None


def _posterior(model, point):
    """``P(y = +1 | x)`` of ``model`` at ``point`` (None without a point or a model)."""
    if model is None or point is None or not hasattr(model, "predict_proba"):
        return None
    proba = model.predict_proba(np.array([point], dtype=np.float64))[0]
    return float(proba[list(model.classes_).index(1)])


def _at(model, point, measure):
    """``measure(model, X)`` at ``point`` alone, its one row (None without a model)."""
    if model is None or point is None:
        return None
    with np.errstate(all="ignore"):
        return np.ravel(measure(model, np.array([point], dtype=np.float64))[0])


def _predicted(model, point):
    """The class ``model`` picks at ``point``, as a number (None without a model)."""
    label = _at(model, point, lambda m, X: m.predict(X))
    return None if label is None else float(label[0])


def _fitted_run(p, attr):
    """``attr`` of the perceptron fitted at once (None for another learner or a run)."""
    model = None if p.workspace.capabilities.steps else _model(p)
    return getattr(model, attr) if model is not None and hasattr(model, attr) else None


def _claims(model, point):
    """How many of one-vs-rest's learners claim ``point`` (None for another learner)."""
    if model is None or not hasattr(model, "claims"):
        return None
    return _at(model, point, lambda m, X: m.claims(X))[0]


def _class_covariance(p, label):
    """``[Σ₁₁, Σ₁₂, Σ₂₂]`` of the fitted learner's class ``label`` (its pooled one for LDA)."""
    model = _model(p)
    if model is None or not p.workspace.capabilities.class_model:
        return None
    cov = np.asarray(model.covariance_, dtype=np.float64)
    if cov.ndim == 3:
        cov = cov[list(model.classes_).index(label)]
    return np.array([cov[0, 0], cov[0, 1], cov[1, 1]]) if cov.shape == (2, 2) else None


def _finite_or_none(value):
    return None if value is None or not math.isfinite(value) else value


def _readout(attr):
    return lambda p: _finite_or_none(getattr(p.workspace.readouts(), attr))


def _percent(fraction):
    """A fraction in percent, as the readouts write it (None stays None)."""
    fraction = _finite_or_none(fraction)
    return None if fraction is None else 100.0 * float(fraction)


def _game(p, measure):
    """``measure(game)`` of the game played in the demo, or None without one."""
    game = games.game_of(p.workspace)
    return None if game is None else measure(game)


#: Every check a demo step may state, by name.
CHECKS: dict[str, Check] = {
    # counts of the run
    "updates": Check("count", lambda p: p.workspace.readouts().k if p.workspace.running else None,
                     "k, the number of updates so far"),
    "epoch": Check("count", lambda p: p.workspace.readouts().epoch if _running(p) else None,
                   "the current epoch, 1-based (0 before the first step)"),
    "epoch_mistakes": Check(
        "count", lambda p: p.workspace.readouts().epoch_mistakes if _running(p) else None,
        "updates made in the current epoch so far"),
    "alpha_sum": Check(
        "count",
        lambda p: int(np.sum(p.workspace.learner.alpha_))
        if p.workspace.capabilities.dual_coef and _running(p) else None,
        "sum of the dual learner's αᵢ (mistakes per sample)"),
    "alpha": Check(
        "vector", lambda p: np.asarray(p.workspace.learner.alpha_, dtype=float)
        if p.workspace.capabilities.dual_coef and _running(p) else None,
        "the dual learner's αᵢ, one per point"),
    # the state of the run
    "converged": Check("bool", lambda p: _running(p) and _running(p).converged_,
                       "the run ended with an epoch without a mistake"),
    "last_mistake": Check("bool", lambda p: _event(p) and _event(p).mistake,
                          "the last examined sample was a mistake (an update)"),
    "last_sample": Check("count", lambda p: _event(p) and _event(p).index + 1,
                         "1-based number of the last examined sample"),
    "last_update_sample": Check("count", _last_update_sample,
                                "1-based number of the sample of the last update"),
    "last_margin": Check("number", lambda p: _event(p) and _event(p).margin,
                         "y (w·x + b) of the last examined sample, before its step"),
    "w": Check("vector", lambda p: p.workspace.readouts().w, "the current weights w"),
    "b": Check("number", lambda p: p.workspace.readouts().b if _running(p) or
               not p.workspace.capabilities.steps else None, "the current bias b"),
    "training_error": Check("number", _readout("training_error"),
                            "fraction of points misclassified now"),
    "training_error_percent": Check("number", lambda p: _percent(
        p.workspace.readouts().training_error), "the training error now, in percent",
        percent=True),
    "mistakes_every_epoch": Check("bool", _mistakes_every_epoch,
                                  "every completed epoch made at least one update"),
    # Novikoff
    "separable": Check("bool", _readout("separable"),
                       "the vectors the perceptron sees are linearly separable"),
    "radius": Check("number", _readout("radius"), "Novikoff's R = max ‖x̃ᵢ‖"),
    "gamma": Check("number", _readout("gamma"),
                   "Novikoff's γ, the best margin of a separator through the origin of the x̃ᵢ"),
    "bound": Check("number", _readout("bound"), "Novikoff's bound (R/γ)²"),
    "bound_finite": Check("bool", lambda p: math.isfinite(p.workspace.readouts().bound),
                          "the bound is a finite number (the data are separable)"),
    "updates_le_bound": Check(
        "bool", lambda p: _running(p) and p.workspace.readouts().k <= p.workspace.readouts()
        .bound, "k ≤ (R/γ)²"),
    "proof_holds": Check(
        "bool", lambda p: None if p.workspace.proof() is None else p.workspace.proof().holds,
        "both inequalities of the proof hold at every update so far"),
    **{f"proof_{name}": Check("number", lambda p, attr=attr: _proof_last(p, attr), doc)
       for name, attr, doc in (
           ("dot", "dot", "wₖ·w* at the last update"),
           ("k_gamma", "lower", "k γ at the last update (the proof: wₖ·w* ≥ kγ)"),
           ("norm2", "norm2", "‖wₖ‖² at the last update"),
           ("k_r2", "upper", "k R² at the last update (the proof: ‖wₖ‖² ≤ kR²)"))},
    "max_margin": Check(
        "number", lambda p: p.workspace.max_margin.margin
        if p.workspace.max_margin is not None and p.workspace.max_margin.separable else None,
        "the margin of the maximum-margin hyperplane (half the widest gap)"),
    # comparisons with the previous step that checked the same quantity
    "gamma_decreased": Check("bool", lambda p: _compare(p, "gamma_decreased", lambda a, b: a < b),
                             "γ is smaller than at the previous step that checked γ"),
    "bound_increased": Check("bool", lambda p: _compare(p, "bound_increased", lambda a, b: a > b),
                             "(R/γ)² is larger than at the previous step that checked it"),
    "updates_increased": Check(
        "bool", lambda p: _compare(p, "updates_increased", lambda a, b: a > b),
        "k is larger than at the previous step that checked k"),
    # primal and dual
    "same_updates_as_primal": Check(
        "bool", _same_updates_as_primal,
        "the dual run made the same updates (steps, samples, w, b) as a primal run"),
    # losses and orders (gradient descent)
    "steps": Check("count", lambda p: _running(p) and _running(p).step_count,
                   "steps taken (a pass of batch gradient descent is one step)"),
    "risk": Check("number", _risk,
                  "the empirical risk (1/n) Σ ℓ(yᵢ f(xᵢ)) under the run's loss, now"),
    "w_path": Check("number", _w_path,
                    "the length of the path of w so far, from its start (w = 0 or w₀)"),
    "last_pass_cases": Check("count", _last_pass_cases,
                             "cases the last pass of batch gradient descent summed"),
    "margin": Check("number", _readout("margin"),
                    "the geometric margin minᵢ yᵢ f(xᵢ) / ‖w‖ of the current w, b"),
    "min_functional_margin": Check(
        "number", lambda p: None if _margins(p) is None else float(np.min(_margins(p))),
        "the smallest functional margin minᵢ yᵢ f(xᵢ) now"),
    "functional_margins_ge_1": Check(
        "bool", lambda p: None if _margins(p) is None else bool(np.all(_margins(p) >= 1)),
        "every functional margin yᵢ f(xᵢ) is at least 1"),
    "margin_exceeds_perceptron": Check(
        "bool", _margin_exceeds_perceptron,
        "the geometric margin is larger than a perceptron-loss run's, run to its end"),
    # the mistake-bound game (core.game)
    "game_moves": Check("count", lambda p: _game(p, lambda g: len(g.history)),
                        "moves played in the game"),
    "game_mistakes": Check("count", lambda p: _game(p, lambda g: g.mistakes),
                           "B's mistakes in the game"),
    "game_bound": Check("number", lambda p: _game(p, lambda g: g.bound),
                        "the game's bound (R/γ)² (augmented with the bias)"),
    **{f"game_{key}": Check("number", lambda p, key=key: _game(p, lambda g: g.proof()[key]),
                            doc)
       for key, doc in (("dot", "wₖ·u in the game (the proof: ≥ kγ)"),
                        ("k_gamma", "k γ in the game"),
                        ("norm2", "‖wₖ‖² in the game (the proof: ≤ kR²)"),
                        ("k_r2", "k R² in the game"))},
    "game_margin": Check("number", lambda p: _game(p, lambda g: g.margin()),
                         "the margin with which B's w separates the points played"),
    "game_last_mistake": Check(
        "bool", lambda p: _game(p, lambda g: bool(g.history) and g.history[-1].mistake),
        "B got the last move wrong (and updated)"),
    "game_can_fool": Check("bool", lambda p: _game(p, lambda g: g.can_fool()),
                           "some legal point is still a mistake for B"),
    # LDA
    "lda_training_error": Check("number", _lda_error,
                                "fraction of points LDA misclassifies"),
    "lda_training_error_percent": Check("number", lambda p: _percent(_lda_error(p)),
                                        "LDA's training error, in percent", percent=True),
    "lda_mean_pos": Check("vector", lambda p: _lda_mean(p, 1), "LDA's mean of class +1"),
    "lda_mean_neg": Check("vector", lambda p: _lda_mean(p, -1), "LDA's mean of class −1"),
    "lda_w": Check("vector", lambda p: None if _lda(p) is None else _lda(p).coef_[0],
                   "LDA's w (its line w·x + b = 0, beside any learner)"),
    "lda_b": Check("number", lambda p: None if _lda(p) is None else float(_lda(p).intercept_[0]),
                   "LDA's b"),
    "lda_posterior_at": Check("probe", lambda p, point=None: _posterior(_lda(p), point),
                              "[x₁, x₂, P]: LDA's P(y = +1 | x) at the point (x₁, x₂)"),
    # the learner in use, fitted at once (LDA, QDA, naive Bayes)
    "posterior_at": Check("probe", lambda p, point=None: _posterior(_model(p), point),
                          "[x₁, x₂, P]: the fitted learner's P(y = +1 | x) at the point (x₁, x₂)"),
    "covariance_pos": Check("vector", lambda p: _class_covariance(p, 1),
                            "[Σ₁₁, Σ₁₂, Σ₂₂]: the fitted learner's covariance of class +1"),
    "covariance_neg": Check("vector", lambda p: _class_covariance(p, -1),
                            "[Σ₁₁, Σ₁₂, Σ₂₂]: the fitted learner's covariance of class −1"),
    # more than two classes (seed 003: pick the class of the largest δₖ(x))
    "n_classes": Check("count", lambda p: p.workspace.dataset.n_classes,
                       "the number of classes in the data"),
    "class_scores_at": Check(
        "probes", lambda p, point=None: _at(_model(p), point, lambda m, X: m.decision_function(X)),
        "[x₁, x₂, δ₁, …, δₘ]: the fitted learner's class scores δₖ(x) at the point, "
        "in the order of the classes"),
    "class_posteriors_at": Check(
        "probes", lambda p, point=None: _at(_model(p), point, lambda m, X: m.predict_proba(X)),
        "[x₁, x₂, P₁, …, Pₘ]: the fitted learner's P(Cₖ | x) at the point, in the order "
        "of the classes"),
    "predicted_class_at": Check(
        "probe", lambda p, point=None: _predicted(_model(p), point),
        "[x₁, x₂, k]: the class the fitted learner picks at the point (its label)"),
    "fitted_updates": Check(
        "count", lambda p: _fitted_run(p, "n_updates_"),
        "the updates the perceptron fitted at once made (one-vs-rest: all of its perceptrons')"),
    "fitted_converged": Check(
        "bool", lambda p: _fitted_run(p, "converged_"),
        "the perceptron fitted at once ended with an epoch without a mistake (one-vs-rest: "
        "every one of its perceptrons did)"),
    "claims_at": Check(
        "probe", lambda p, point=None: _claims(_model(p), point),
        "[x₁, x₂, c]: how many of one-vs-rest's perceptrons claim the point (fₖ(x) > 0): "
        "0 is a gap, 2 or more an overlap"),
    "class_means": Check("vector", lambda p: None if _model(p) is None
                         else np.ravel(_model(p).means_),
                         "[μ₁₁, μ₁₂, μ₂₁, …]: the fitted learner's class means, class by class"),
    # weight space (weight_checks.py): the feasible region and the walk w₀ … wₖ
    "feasible": Check("bool", lambda p: None if wsc.region(p) is None else not wsc.region(p).empty,
                      "some weight vector classifies every case (the feasible region of "
                      "weight space is not empty)"),
    "region_sides": Check("count", wsc.region_sides,
                          "the cases whose lines bound the feasible region (2 for a cone, "
                          "the polygon's sides in the chart)"),
    "cone_angle": Check("number", wsc.cone_angle,
                        "the opening of the feasible cone in degrees (no bias)"),
    "cone_edges": Check("vector", wsc.cone_edges,
                        "[e₁, e₂]: both unit edges of the feasible cone (no bias), "
                        "counter-clockwise"),
    "w_feasible": Check("bool", wsc.w_feasible,
                        "the current wₖ lies in the feasible region (classifies every case)"),
    "w_in_chart": Check("bool", wsc.w_in_chart,
                        "wₖ·w* > 0: the current wₖ is on the chart centred on w* (with a bias)"),
    "w_repeats": Check("bool", wsc.w_repeats,
                       "the current wₖ equals an earlier state of the walk, exactly"),
    "cycle_updates": Check("count", wsc.cycle_updates,
                           "updates since the walk was last at the current wₖ"),
}
