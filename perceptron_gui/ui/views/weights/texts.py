"""What the weight-space view says (no Qt): its caption, and why it draws nothing."""

from __future__ import annotations

from ....core.learners.losses import Loss
from ....core.text import fmt, fmt_count, plural
from .geometry import RECENT_UPDATES, Picture

__all__ = ["NO_RUN_MESSAGE", "caption_text", "not_linear_text"]

NO_RUN_MESSAGE = "Weight space fills in as the perceptron runs: add points of both classes."


def not_linear_text(ws) -> str:
    """What the view says for a kernel that is not linear, or for one w a class."""
    if ws.capabilities.kernel is None:  # the multiclass perceptron
        return ("The multiclass perceptron keeps one wₖ for each class: weight space, the "
                "plane of one w, is drawn for the perceptrons of two classes.")
    return (f"The {ws.capabilities.kernel.name} kernel's weights live in its feature space, "
            "not in the plane of (w₁, w₂): weight space is drawn for the linear kernel and the "
            "primal perceptron.")


def caption_text(pic: Picture, *, b: float, novikoff: bool, landscape_loss: Loss | None,
                 generous: bool | None = None) -> str:
    """The caption of ``pic``: which plane, what the shading and the walk mean; ``generous``:
    whether the generously feasible region shows (None: not asked for)."""
    region, tr = pic.region, pic.trajectory
    k = int(tr.count[-1])
    parts = []
    if region.empty:
        parts.append(f"No feasible region: {region.reason}.")
        if novikoff:
            parts.append("No w classifies every case, so the perceptron never settles: "
                         "its walk cycles.")
        if pic.chart:
            parts.append("Chart centred on ū, the mean direction of the yᵢx̃ᵢ; "
                         "states with w·ū ≤ 0 are off it.")
    elif pic.slice:
        parts.append(f"The slice of weight space at the current bias b = {fmt(b)}: each "
                     "case is a line y(x·w + b) = 0, the shaded region classifies every "
                     "case at this b. Each wₖ is drawn at its (w₁, w₂).")
    elif pic.chart:
        parts.append("Chart of directions centred on w*, p = (w·e₁, w·e₂) / w·w*: each case "
                     "is a line, the shaded polygon every direction that classifies all cases.")
        if novikoff and tr.w[0].any():  # a run from a start set by hand
            parts.append("From w₀ set by hand, wₖ·w* ≥ w₀·w* + kηγ: wₖ is on it once "
                         "that is > 0 (w₀ only if w₀·w* > 0).")
        elif novikoff:
            parts.append("Every wₖ with k ≥ 1 is on it: wₖ·w* ≥ kηγ > 0.")
        parts.append("Another bias scale c moves the lines.")
    else:
        parts.append("Each case i is a line yᵢxᵢ·w = 0, ticked on its good side; "
                     "the shaded cone classifies every case; the arrow is w*.")
    if generous is not None:
        parts.append("Hatched: the generously feasible region (yᵢxᵢ·w ≥ ‖xᵢ‖²)." if generous
                     else "The generously feasible region (yᵢxᵢ·w ≥ ‖xᵢ‖²) is not in this "
                     "view.")
    if landscape_loss is not None:
        parts.append(f"Shading: the mean {landscape_loss.label} loss "
                     "over the cases (yellow is high).")
    if pic.recent_from:
        parts.append(f"The walk of the last {plural(RECENT_UPDATES, 'update')} is drawn "
                     "in full, the older walk faint.")
    last = tr.last_case
    parts.append(plural(k, "update")
                 + (f"; the last on case {fmt_count(last + 1)} (its line thick)."
                    if last is not None else "."))
    return " ".join(parts)
