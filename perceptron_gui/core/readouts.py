"""The readout panel's numbers and texts, computed from a workspace's public state."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import theory
from .game import game_of
from .learners import StepEvent
from .learners.ties import correct
from .text import (
    fmt,
    fmt_count,
    fmt_vec,
    format_multiclass_update,
    format_update,
    plural,
    run_class_names,
)
from .values import readonly

__all__ = ["Readouts", "bound_text", "compute_readouts", "fitted_run_text", "last_update_event",
           "no_bound_reason",
           "shown_error", "start_bound_of", "update_text"]


@dataclass(frozen=True)
class Readouts:
    """Every number the readout panel shows, computed by the core.

    Attributes
    ----------
    epoch, position : int
        1-based epoch of the cursor and position of the last examined sample
        in it (0 before the first step).
    k, epoch_mistakes : int
        Updates so far, and in the current epoch.
    training_error : float
        Fraction of samples with ``y f(x) <= 0`` (or NaN: ``inf - inf``) under
        the current weights (NaN without a run); under the learner's rule
        ``tie="positive"`` a +1 sample with ``f(x) = 0`` is right.
    w : ndarray or None
        Current weights (None without a model or when the boundary is not a line).
    margin : float
        Geometric margin of the current hyperplane on the data (NaN without
        weights or with ``w = 0``; negative when it misclassifies a sample).
    radius, gamma, bound : float
        Novikoff's R, γ and (R/γ)² for the learner's vectors (NaN when
        unavailable, ``inf`` bound when not separable); in a game
        (:func:`.game.game_of`), the rules' ``R̃``, ``γ̃`` and bound.
    separable : bool or None
        Whether the vectors the perceptron sees are linearly separable through
        the origin (None: unknown, e.g. too costly for a kernel).
    bound_text : str
        The bound as people read it, e.g. ``"k = 12 ≤ (R/γ)² = 41.3"`` or
        ``"not separable — no bound"``; from a hand-set start
        ``"k = 3 ≤ 57.21 from w₀"`` (:attr:`bound_note` says which w₀ and why).
    last_update : str
        The last update as a formula with the numbers filled in ("" if none).
    bound_note : str
        The assumption of a bound from a hand-set start, in words ("" from
        ``w = 0``): ``"since wₖ·w* ≥ w₀·w* + kγ and ‖wₖ‖² ≤ ‖w₀‖² + kR² …"``.
    """

    epoch: int
    position: int
    k: int
    epoch_mistakes: int
    training_error: float
    w: np.ndarray | None
    b: float
    margin: float
    radius: float
    gamma: float
    bound: float
    separable: bool | None
    bound_text: str
    last_update: str
    status: str
    bound_note: str = ""


def fitted_run_text(learner) -> str:
    """``": 8 updates in 3 epochs"``: the run of a perceptron fitted at once, and whether
    it ended without a mistake in an epoch ("" for a learner without updates)."""
    updates = getattr(learner, "n_updates_", None)
    if updates is None:
        return ""
    estimators = getattr(learner, "estimators_", None)
    if estimators is not None:  # one against the rest: a perceptron per class
        stuck = sum(not e.converged_ for e in estimators)
        return f": {plural(updates, 'update')}" + (
            f"; {stuck} of {len(estimators)} perceptrons never had an epoch without a "
            f"mistake" if stuck else "")
    text = f": {plural(updates, 'update')} in {plural(learner.n_epochs_, 'epoch')}"
    return text if learner.converged_ else text + ", the last with mistakes still"


def compute_readouts(ws, nov) -> Readouts:
    """The :class:`Readouts` of workspace ``ws`` with Novikoff result ``nov`` (public API only)."""
    radius = gamma = bound = math.nan
    separable = None
    if nov is not None:
        radius, separable = nov.radius, nov.separable
        gamma = nov.margin if nov.separable else math.nan
        bound = nov.bound
    k = epoch = position = epoch_mistakes = 0
    w, b = None, 0.0
    last_update = ""
    status = ws.problem or ""
    if ws.running:
        learner = ws.learner
        t = learner.step_count
        k = learner.n_updates_
        if t:
            ev = learner.event(t)
            epoch = ev.epoch + 1
            # a pass of batch gradient descent examines every sample
            position = ws.dataset.n if ev.index < 0 else ev.position + 1
            epoch_mistakes = learner.epoch_mistakes(epoch - 1)
        w = readonly(learner.coef_[0].copy()) if ws.capabilities.linear else None
        b = float(learner.intercept_[0])
        ev = last_update_event(learner)
        if ev is not None:
            last_update = update_text(ws, ev)
        if learner.finished:
            status = ws.end_message()
        elif t == 0 and ws.starts_by_hand and ws.start is not None:
            status = ("Ready: w = w₀, set by hand. Step to examine the first sample, "
                      "or Move w by hand.")
        elif t == 0:
            status = "Ready: w = 0. Step to examine the first sample."
        else:
            status = (f"Epoch {fmt_count(epoch)}, sample {fmt_count(position)} "
                      f"of {fmt_count(ws.dataset.n)}.")
    elif ws.has_model:  # a learner fitted at once
        learner = ws.learner
        if ws.capabilities.linear:
            w, b = ws.weights()
        status = f"{ws.spec.display_name} fitted" + (
            " (singular covariance regularised)" if getattr(learner, "singular_", False)
            else fitted_run_text(learner))
    margins = ws.training_margins()
    error = math.nan if margins is None else float(np.mean(~correct(
        margins, ws.dataset.y, ws.capabilities.tie == "positive")))
    margin = math.nan
    finite = w is not None and np.isfinite(w).all() and math.isfinite(b)
    if finite and np.any(w != 0) and ws.dataset.n:
        margin = ws.margin_data().hyperplane_margin(w, b)  # prepared once per data set
    no_bound = no_bound_reason(ws.capabilities, ws.params)
    text = no_bound or bound_text(nov, k, ws.capabilities.steps)
    note = ""
    from_start = start_bound_of(ws, nov)
    game = game_of(ws)
    if game is not None and not no_bound:
        # in a game the bound is the rules' (R̃/γ̃)², not that of the points played so far
        # (a few points have a wider margin than the band allows: a smaller, wrong ceiling)
        radius, gamma, bound, separable = game.R_tilde, game.gamma_tilde, game.bound, True
        text = f"{_k_against(k, bound)} (R/γ)² = {fmt(bound)}"
    elif from_start is not None and not no_bound:
        bound, text, note = from_start
        text = text.replace("k ≤", _k_against(k, bound), 1)
    return Readouts(
        epoch=epoch, position=position, k=k, epoch_mistakes=epoch_mistakes,
        training_error=error, w=w, b=b, margin=margin, radius=radius, gamma=gamma,
        bound=bound, separable=separable, bound_text=text,
        last_update=last_update, status=status, bound_note=note,
    )


def _k_against(k: int, bound: float) -> str:
    return f"k = {fmt_count(k)} {'≤' if k <= bound else '>'}"


def shown_error(ws, readouts: Readouts) -> tuple[float, int]:
    """The training error the panels show: ``(fraction, points wrong)``.

    The model drawn is the one measured: while the Gaussians are shaped by
    hand, the shaped model's, else the learner's (``readouts``: ``ws.readouts()``).
    """
    model = ws.view_state.shaping
    data = ws.dataset
    if model is None or data.n == 0:
        return readouts.training_error, int(ws.misclassified().size)
    wrong = int(np.count_nonzero(data.y * model.decision_function(data.X) <= 0))
    return wrong / data.n, wrong


def start_bound_of(ws, nov) -> tuple[float, str, str] | None:
    """Novikoff's bound from the hand-set start of ``ws``'s run, or None (from 0, or none).

    Returns ``(bound, text, note)``: the most updates from ``w₀``
    (:func:`~.theory.start_bound`), ``"k ≤ … from w₀"``, and the sentence
    ``"From w₀ = (…), b₀ = …: k ≤ …, since …"`` with the assumption it rests on.
    """
    start = ws.start
    if start is None or not ws.starts_by_hand or nov is None or not nov.separable \
            or nov.w_star is None:
        return None
    p = ws.params
    w0, b0 = start
    fit_intercept = bool(p.get("fit_intercept", True))
    b0 = b0 if fit_intercept else 0.0
    v0 = theory.augmented_start(w0, b0, nov.w_star.shape[0], fit_intercept,
                                p.get("bias_scale", 1.0))
    eta = float(p.get("eta0", 1.0))
    bound = theory.start_bound(v0, nov.w_star, nov.margin, nov.radius, eta)
    where = f"w₀ = {fmt_vec(w0)}" + (f", b₀ = {fmt(b0)}" if fit_intercept else "")
    e1, e2 = ("", "") if eta == 1 else ("η", "η²")
    value = fmt(bound) if math.isfinite(bound) else "∞"
    text = f"k ≤ {value} from w₀"
    note = (f"From {where}: k ≤ {value}, since wₖ·w* ≥ w₀·w* + k{e1}γ and "
            f"‖wₖ‖² ≤ ‖w₀‖² + k{e2}R² (here w₀·w* = {fmt(float(v0 @ nov.w_star))}, "
            f"‖w₀‖² = {fmt(float(v0 @ v0))}" + (", w₀ augmented by b₀/c" if fit_intercept
                                                  else "") + ").")
    return bound, text, note


def last_update_event(learner) -> StepEvent | None:
    """The step of the last update of a started perceptron, or None before the first."""
    k = learner.n_updates_
    return None if k == 0 else learner.event(learner.history.updates.step_of(k - 1))


def bound_text(nov, k: int, learner_steps: bool) -> str:
    """The bound as people read it, e.g. ``"k = 12 ≤ (R/γ)² = 41.3"``."""
    if nov is None:
        return "—"
    if nov.separable is None:
        return nov.reason or "bound unavailable"
    if not nov.separable:
        return "not separable — no bound"
    value = fmt(nov.bound) if math.isfinite(nov.bound) else "∞ (exceeds the largest float)"
    if not learner_steps:
        return f"(R/γ)² = {value}"
    return f"{_k_against(k, nov.bound)} (R/γ)² = {value}"


def update_text(ws, ev: StepEvent, decimals: int = 2) -> str:
    """The step ``ev`` of ``ws``'s run as the gradient of its loss (:func:`format_update`);
    a run of m classes as its two classes' updates (:func:`format_multiclass_update`)."""
    p = ws.params
    learner = ws.learner
    if hasattr(learner, "update_terms"):
        z, before, after, own, rival = learner.update_terms(ev)
        return format_multiclass_update(
            ev, z=z, W_before=before, W_after=after, own=own, rival=rival,
            names=run_class_names(ws.dataset, learner.classes_), eta0=p.get("eta0", 1.0),
            decimals=decimals)
    X = ws.dataset.X
    return format_update(
        ev, x=None if ev.index < 0 else X[ev.index], eta0=p.get("eta0", 1.0),
        bias_scale=p["bias_scale"] if p["fit_intercept"] else None, decimals=decimals,
        loss=ws.capabilities.loss, X=X, y=ws.dataset.y, tie=ws.capabilities.tie,
    )


def no_bound_reason(caps, params: dict, short: bool = False) -> str:
    """Why Novikoff's bound says nothing about a run, or "" when it applies (or no run).

    Decided by the capabilities; the parameters only word the sentence.
    ``short`` gives a headline ("No Novikoff bound: the hinge loss").
    """
    if not caps.steps or caps.novikoff:
        return ""
    if caps.multiclass:  # the multiclass perceptron: its bound is another theorem's
        if short:
            return "No Novikoff bound: one wₖ a class"
        return ("Novikoff's bound is about one separator w of two classes; this run keeps "
                "one wₖ for each class (its own bound, 2R²/γ² with the multiclass margin, "
                "is derived in docs/multiclass.md): the bound does not apply.")
    loss = caps.loss
    what = []
    if not loss.novikoff:
        what.append(f"uses {loss.words}")
    if params.get("order") == "batch":
        what.append("is batch gradient descent (a step sums a whole pass)")
    if not what:
        what.append("does not make the perceptron's updates")
    if short:
        names = [] if loss.novikoff else [loss.words]
        if params.get("order") == "batch":
            names.append("batch gradient descent")
        return "No Novikoff bound: " + (" and ".join(names) or "not the perceptron's run")
    return ("Novikoff's bound is about the perceptron's updates; this run "
            + " and ".join(what) + ": the bound does not apply.")


def no_bound_end_text(learner, caps) -> str:
    """How a run without Novikoff's bound ended (converged, or stopped at ``max_iter``).

    No certificate of separability says whether more epochs would help, only
    what the loss asks of a case.
    """
    loss = caps.loss
    z = "μ" if caps.multiclass else "z"  # the multiclass margin: own score − best other
    below = None if loss.kink is None else f"{z} > {fmt(loss.kink, 0)}"
    steps = plural(learner.step_count, "step")
    if learner.n_updates_ != learner.step_count:  # the steps that moved w: the updates
        steps += f", {plural(learner.n_updates_, 'update')},"
    epochs = plural(learner.n_epochs_, "epoch")
    moved = "any wₖ" if caps.multiclass else "w"
    if learner.converged_:
        every = f": every case has {below}" if below else ""
        return f"Converged: {steps} in {epochs}; the last epoch did not move {moved}{every}."
    why = ("the logistic loss moves w on every case, so it stops only at max_iter"
           if below is None else f"some case still had {z} ≤ {below[-1]} in every epoch")
    return f"Stopped after max_iter = {epochs} ({steps.rstrip(',')}): {why}."
