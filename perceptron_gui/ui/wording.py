"""What the window says about a data problem: the core's facts in the UI's gestures.

The core names a problem; only the Qt layer knows that a click adds a point.  The
readouts, the plots and the status bar all word it through :func:`problem_text`.
"""

from __future__ import annotations

import re

from ..core.game import game_of
from ..core.learners import registry
from ..core.text import MINUS, either
from ..core.workspace import DataProblem

__all__ = ["problem_text"]

NO_POINTS = ("No points yet: click to add a point, right-click for the other class "
             "(or pick a generator or a demo).")

GAME_START = ("The game: click inside the circle, outside the band; B predicts the label, "
              "then it is revealed.")


def problem_text(workspace) -> str:
    """Why ``workspace``'s learner cannot run, with what to do about it ("" when it can)."""
    kind = workspace.problem_kind
    if kind is None:
        return ""
    in_game = game_of(workspace) is not None  # the labels are the game's, not clicks'
    if kind is DataProblem.NO_POINTS:
        return GAME_START if in_game else NO_POINTS
    if kind is DataProblem.ONE_CLASS and not workspace.dataset.is_binary:
        return (f"{(workspace.problem or '').rstrip('.')}: choose another class (its key) and "
                "click.")
    if kind is DataProblem.ONE_CLASS:
        have, other = ("+1", f"{MINUS}1") if workspace.dataset.n_pos else (f"{MINUS}1", "+1")
        if in_game:
            return (f"Only class {have} so far: the game draws B's w; the run's timeline "
                    f"and readouts start with a point of class {other}.")
        return (f"Only class {have} so far: add a point of class {other} "
                "(right-click adds the other class).")
    if kind is DataProblem.LDA_TOO_FEW:
        return f"{(workspace.problem or '').rstrip('.')}: click to add another."
    if kind is DataProblem.LDA_FAILED:
        return f"{workspace.spec.display_name} cannot be fitted: {_labelled(workspace)}"
    if kind is DataProblem.EMPTY_CLASS:
        return (f"{(workspace.problem or '').rstrip('.')}: click to add one (its key chooses "
                "it), or Edit ▸ Remove the active class.")
    if kind is DataProblem.TWO_CLASSES:
        names = [registry.get(key).display_name for key in registry.multiclass()]
        choose = f"choose {either(names)}, " if names else ""
        return (f"{(workspace.problem or '').rstrip('.')}: {choose}remove classes down to "
                "two (Edit ▸ Remove the active class), or import two of them.")
    return workspace.problem or ""


def _labelled(workspace) -> str:
    """The learner's message with each parameter it names (``reg_param``) given, the first
    time, the label the learner panel shows it by: "Regularisation r (reg_param)"."""
    text = workspace.problem or ""
    for spec in workspace.spec.params:
        found = re.search(rf"\b{re.escape(spec.key)}\b", text)
        if found:
            text = f"{text[:found.start()]}{spec.label} ({spec.key}){text[found.end():]}"
    return text
