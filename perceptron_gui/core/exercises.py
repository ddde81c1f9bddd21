"""Exercises, Qt-free: predict the next update, be the learner, and levels to pass.

Watching a run teaches less than answering it, so the program asks.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from . import commands, game_commands
from . import game as games
from .dataset import Dataset
from .generators import generate
from .learners.registry import DEFAULT_PARAMS
from .signal import signal
from .text import fmt_percent, plural
from .theory.hard_margin import max_margin

__all__ = ["LEVELS", "Answer", "Attempt", "Level", "LearnerScore", "LeaveExercise",
           "PredictTheUpdate", "Progress", "StartExercise", "attempt_of", "learner_score",
           "level"]


@dataclass(frozen=True)
class Answer:
    """An answer marked against the truth (``*_ok`` None: not asked).

    Attributes
    ----------
    sample : int
        The true point (0-based; -1 for a pass of batch descent, not asked).
    w, b : tuple of float or None, float
        The true ``w`` and ``b`` after the update (``w`` None, not asked: a
        non-linear kernel).
    error : float
        ``‖(w, b) − (w_true, b_true)‖ / max(1, ‖(w_true, b_true)‖)``.
    rival_ok, rival : bool or None, int or None
        The multiclass perceptron: whether the class named is the one that scored
        as much (``ŷ``, whose ``w`` loses ``x̃``), and that class's label.
    """

    sample_ok: bool | None
    w_ok: bool | None
    sample: int
    w: tuple | None
    b: float
    error: float
    rival_ok: bool | None = None
    rival: int | None = None

    @property
    def correct(self) -> bool:
        """Everything asked was right."""
        return self.sample_ok is not False and self.w_ok is not False and \
            self.rival_ok is not False


class PredictTheUpdate:
    """Predict, then reveal: the student answers each update before it is shown.

    ``tolerance`` is the relative error of ``(w, b)`` accepted (rounding while
    typing).
    """

    def __init__(self, workspace, tolerance: float = 0.05):
        if not workspace.capabilities.steps or not workspace.running:
            raise ValueError("predicting the next update needs a learner that steps "
                             "on data it can run on")
        self.workspace = workspace
        self.tolerance = float(tolerance)
        self.asked = self.right = 0

    def _peek(self):
        ws = self.workspace
        here = ws.step_count
        event = ws.step_update()
        ws.seek(here)
        return event

    @property
    def over(self) -> bool:
        """No update is left (the run ended)."""
        return self._peek() is None

    @property
    def asks_rival(self) -> bool:
        """Whether the class that scored as much is asked (the multiclass perceptron: its
        two classes' moves follow from it; no w is asked)."""
        caps = self.workspace.capabilities
        return caps.multiclass and caps.steps

    def asks_sample(self) -> bool:
        """Whether the point is asked (not for a pass of batch descent)."""
        event = self._peek()
        return event is not None and event.index >= 0

    def answer(self, sample: int | None, w=None, b: float = 0.0,
               rival: int | None = None) -> Answer:
        """Mark ``sample`` and ``(w, b)`` (or, with m classes' weights, the ``rival`` class
        by its label) against the next update, then step to it."""
        ws = self.workspace
        event = ws.step_update()
        if event is None:
            raise ValueError("no update is left: the run has ended")
        rival_ok = true_rival = None
        if self.asks_rival:  # the class whose w lost x̃ (no w: there is one per class)
            learner = ws.learner
            true_rival = int(learner.classes_[learner.rival(learner.weights_after(event.k - 1),
                                                            event.index)])
            rival_ok = rival is not None and int(rival) == true_rival
        sample_ok = None if event.index < 0 else (sample is not None
                                                  and int(sample) == event.index)
        true_w = None if event.w_after is None else np.asarray(event.w_after, dtype=float)
        w_ok, error = None, math.nan
        if true_w is not None:
            truth = np.append(true_w, float(event.b_after))
            given = np.append(np.asarray(w if w is not None else np.full_like(true_w, np.nan),
                                         dtype=float).reshape(-1), float(b))
            error = float(np.linalg.norm(given - truth) / max(1.0, np.linalg.norm(truth)))
            w_ok = bool(error <= self.tolerance)
        result = Answer(sample_ok, w_ok, int(event.index),
                        None if true_w is None else tuple(float(v) for v in true_w),
                        float(event.b_after), error, rival_ok, true_rival)
        self.asked += 1
        self.right += int(result.correct)
        return result


@dataclass(frozen=True)
class LearnerScore:
    """The student's line against the maximum margin.

    ``margin`` is ``min_i y_i (w·x_i + b) / ‖w‖``; ``best`` the maximum margin
    (0 when the data are not separable); ``ratio = margin / best`` (NaN then).
    """

    margin: float
    best: float
    ratio: float

    @property
    def separates(self) -> bool:
        """The student's line puts every point on its side."""
        return self.margin > 0


def learner_score(X, y, w, b: float) -> LearnerScore:
    """Score the line ``w·x + b = 0`` on ``(X, y)`` against the maximum margin."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y).reshape(-1)
    w = np.asarray(w, dtype=float).reshape(-1)
    norm = float(np.hypot(*w)) if w.shape == (2,) else 0.0
    if not (math.isfinite(norm) and norm > 0):
        raise ValueError("a line needs a nonzero finite w")
    if not len(y):
        raise ValueError("no points to separate")
    margin = float(np.min(y * (X @ w + float(b))) / norm)
    best = max_margin(X, y)
    return LearnerScore(margin, best.margin if best.separable else 0.0,
                        margin / best.margin if best.separable else math.nan)


@dataclass(frozen=True)
class Level:
    """One level: what to do, a hint on request, and when it is passed.

    Attributes
    ----------
    key : str
        Its id (the settings remember passed levels by it).
    kind : {"predict", "learner", "game"}
    data, params : dict
        The level's generator and its arguments, or its ``points``, ``labels``,
        ``classes`` and ``class_names`` (a game: its rules), and the learner's
        parameters with its ``"learner"`` key.
    target : float
        What passes: answers right in a row (``predict``), the ratio to the
        maximum margin (``learner``), mistakes forced (``game``).
    """

    key: str
    title: str
    goal: str
    hint: str
    kind: str
    data: dict
    params: dict
    target: float

    def show(self, workspace) -> None:
        """Put the level's data and learner in ``workspace`` (a game level: its game)."""
        if self.kind == "game":
            game_commands.StartGame(self.data["R"], self.data["gamma"], seed=0,
                                    hidden=False).execute(workspace)
            return
        spec = dict(self.data)
        if "points" in spec:  # points written out, with their classes' names
            dataset = Dataset(np.array(spec["points"], dtype=np.float64),
                              np.array(spec["labels"]), classes=tuple(spec["classes"]),
                              class_names=tuple(spec["class_names"]))
        else:
            dataset = generate(spec.pop("generator"), **spec)
        params = dict(self.params)
        learner = params.pop("learner", workspace.learner_name)
        everything = workspace.all_params()  # the level's learner from its defaults:
        everything[learner] = dict(DEFAULT_PARAMS[learner], **params)  # not a game's pass
        workspace.replace(dataset, learner, everything)

    def passed(self, result: float) -> bool:
        """Whether ``result`` (right answers, the margin ratio, mistakes) passes."""
        return bool(math.isfinite(result) and result >= self.target)

    def score_text(self, result: float) -> str:
        """``result`` against the pass mark, as the level bar says it ("2 of 3 right")."""
        if self.kind == "predict":
            return f"{int(result)} of {int(self.target)} right"
        if self.kind == "learner":
            return f"{fmt_percent(100 * result)} of the largest margin " \
                   f"(pass: {fmt_percent(100 * self.target)})"
        return f"{plural(int(result), 'mistake')} forced (pass: {int(self.target)})"


#: Three groups of six points side by side (the demo one-vs-rest-gaps's).
_THREE_GROUPS = [[-2.1, -0.6], [-2.8, 0.3], [-3.2, 0.5], [-3.9, 0.5], [-3.4, 2.1], [-2.9, 0.4],
                 [-0.1, -0.5], [-0.5, -0.4], [0.2, -0.3], [0.4, -0.3], [0.0, 0.5], [0.2, -0.4],
                 [2.9, 0.6], [3.9, 0.3], [2.9, 0.9], [2.6, 0.3], [3.4, 0.7], [3.0, 0.7]]

#: The levels, easiest first: few points and a wide margin; then a narrow
#: margin, the bias, the dual's view, a pass of gradient descent, non-separable data;
#: last, three classes.
LEVELS: tuple[Level, ...] = (
    Level("predict-wide", "Which point, which w?",
          "Predict the next 3 updates of the perceptron without bias.",
          "A point is a mistake when y (w·x) ≤ 0; then w ← w + y x.",
          "predict", {"generator": "separable", "n": 10, "margin": 0.6, "seed": 1},
          {"learner": "primal", "fit_intercept": False}, 3),
    Level("learner-wide", "Be the learner",
          "Draw a line with at least 80 % of the largest margin.",
          "The best line crosses halfway between the closest points of the two classes' "
          "convex hulls, at right angles to the segment joining them.",
          "learner", {"generator": "separable", "n": 12, "margin": 1.0, "seed": 5}, {}, 0.8),
    Level("predict-bias", "The bias moves too",
          "Predict the next 3 updates with the bias feature: b ← b + y.",
          "With the bias the perceptron sees x̃ = (x, 1): b changes by y on every mistake.",
          "predict", {"generator": "separable", "n": 10, "margin": 0.5, "seed": 1},
          {"learner": "primal", "fit_intercept": True}, 3),
    Level("predict-dual", "The dual's count",
          "Predict the next 3 updates of the dual perceptron: its point, and w = Σ αⱼ yⱼ xⱼ.",
          "A mistake on point i adds 1 to αᵢ, so w gains yᵢxᵢ and b gains yᵢ, as the "
          "primal's would.",
          "predict", {"generator": "separable", "n": 10, "margin": 0.5, "seed": 2},
          {"learner": "dual", "kernel": "linear"}, 3),
    Level("game-narrow", "Fool the perceptron",
          "In the game with R = 1 and γ = 0.2, force at least 6 mistakes.",
          "Play at the band's edge, on the side B gets wrong, nearly orthogonal to w.",
          "game", {"R": 1.0, "gamma": 0.2}, {}, 6),
    Level("learner-narrow", "A narrow gap",
          "Draw a line with at least 90 % of the largest margin, on a narrow gap.",
          "Find the two or three points that touch the widest band: they fix it.",
          "learner", {"generator": "separable", "n": 30, "margin": 0.3, "seed": 11}, {}, 0.9),
    Level("predict-batch", "A whole pass at once",
          "Predict 2 passes of batch gradient descent on data no line separates.",
          "A pass adds η Σ yᵢxᵢ to w and η Σ yᵢ to b (η = 1 here), summed over the "
          "points with yᵢ(w·xᵢ + b) ≤ 0.",
          "predict", {"generator": "overlapping", "n": 10, "seed": 0},
          {"learner": "primal", "order": "batch", "fit_intercept": True}, 2),
    Level("predict-multiclass", "Three classes, two moves",
          "Predict the next 3 updates of the multiclass perceptron: the point, and the class "
          "that scores as much as the point's own.",
          "Each class k scores wₖ·x̃ with x̃ = (x, 1). A point of class y is a mistake when "
          "another class scores at least as much (the first such when they tie); then w_y "
          "gains x̃ and that class's w loses it.",
          "predict", {"points": _THREE_GROUPS, "labels": [0] * 6 + [1] * 6 + [2] * 6,
                      "classes": [0, 1, 2], "class_names": ["left", "middle", "right"]},
          {"learner": "multiclass_perceptron"}, 3),
)


class Progress:
    """Which levels are passed, each level's attempts and best score (kept in settings).

    What the settings give back is filtered: unknown keys, bad counts and
    results that are not finite numbers are dropped.
    """

    def __init__(self, passed=(), attempts=None, best=None):
        known = {level.key for level in LEVELS}
        self._passed = [k for k in dict.fromkeys(str(k) for k in passed) if k in known]
        self.attempts: dict[str, int] = {
            k: n for k, n in dict(attempts or {}).items()
            if k in known and isinstance(n, int) and not isinstance(n, bool) and n > 0}
        self.best: dict[str, float] = {
            k: float(v) for k, v in dict(best or {}).items()
            if k in known and isinstance(v, (int, float)) and not isinstance(v, bool)
            and math.isfinite(v)}

    def started(self, level: Level) -> int:
        """An attempt at ``level`` begins; returns its number (1 for the first)."""
        self.attempts[level.key] = self.attempts.get(level.key, 0) + 1
        return self.attempts[level.key]

    @property
    def passed(self) -> tuple[str, ...]:
        """The keys of the levels passed, in the order they were passed."""
        return tuple(self._passed)

    def record(self, level: Level, result: float) -> bool:
        """Record ``result`` for ``level``; True when it passes (and is remembered)."""
        ok = level.passed(result)
        if math.isfinite(result) and result > self.best.get(level.key, -math.inf):
            self.best[level.key] = float(result)
        if ok and level.key not in self._passed:
            self._passed.append(level.key)
        return ok

    def next_level(self) -> Level | None:
        """The first level not passed yet (None: all passed)."""
        return next((lv for lv in LEVELS if lv.key not in self._passed), None)

    def reset(self) -> None:
        """Forget every level passed, the attempts and the scores (a teacher's reset)."""
        self._passed.clear()
        self.attempts.clear()
        self.best.clear()


def level(key: str) -> Level:
    """The level ``key`` (ValueError naming the known ones)."""
    for lv in LEVELS:
        if lv.key == key:
            return lv
    raise ValueError(f"no level {key!r}; the levels: {', '.join(lv.key for lv in LEVELS)}")


class Attempt:
    """A level being tried on a workspace: the student's line, the exercise, the result.

    Attributes
    ----------
    line : tuple or None
        ``(w₁, w₂, b)``: the student's line, once drawn (``learner`` levels).
    guess, chosen : tuple or None, int or None
        The next ``(w₁, w₂, b)`` the student predicts, as far as set, and the
        point picked as the next update's (``predict`` levels).
    before : tuple or None
        ``(dataset, learner, params, start, step)``: the workspace before the
        first level of a row of levels, put back by :class:`LeaveExercise`;
        None when a game was played on the workspace before.
    """

    def __init__(self, level: Level, workspace):
        self.level = level
        self.line: tuple | None = None
        self.guess: tuple | None = None
        self.chosen: int | None = None
        self.result: float | None = None
        self.before: tuple | None = None
        self.predict = PredictTheUpdate(workspace) if level.kind == "predict" else None
        self.dragged = signal(object, float, bool, name="dragged")

    def drag(self, w, b: float, final: bool = False) -> None:
        """The student dragged the line to ``w·x + b = 0``: keep it and announce it."""
        value = (float(w[0]), float(w[1]), float(b))
        if self.level.kind == "learner":
            self.line = value
        else:
            self.guess = value
        self.dragged.emit(np.array(value[:2]), value[2], bool(final))


_ATTEMPTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def attempt_of(workspace) -> Attempt | None:
    """The level being tried on ``workspace``, or None."""
    return _ATTEMPTS.get(workspace)


@commands.register
@dataclass(frozen=True)
class StartExercise(commands.Command):
    """Try the level ``key``: its data and learner replace the workspace's."""

    key: str
    name: ClassVar[str] = "start_exercise"

    def __post_init__(self):
        level(self.key)  # known, or ValueError

    def execute(self, workspace) -> None:
        lv = level(self.key)
        old = _ATTEMPTS.get(workspace)
        before = old.before if old is not None else None
        if before is None and games.game_of(workspace) is None:
            before = (workspace.dataset, workspace.learner_name, workspace.all_params(),
                      workspace.start, workspace.step_count)
        if lv.kind != "game":
            games.detach(workspace)  # a game level tried before ends here
        lv.show(workspace)
        attempt = Attempt(lv, workspace)
        attempt.before = before
        _ATTEMPTS[workspace] = attempt

    @property
    def text(self) -> str:
        return f"Exercise: {level(self.key).title}"


@commands.register
@dataclass(frozen=True)
class LeaveExercise(commands.Command):
    """Stop trying the level: the data, learner, parameters and start from before it.

    A level's settings end with it (``order="batch"`` ...); a game level leaves
    its points as the game does.
    """

    name: ClassVar[str] = "leave_exercise"
    text: ClassVar[str] = "Leave the exercise"

    def execute(self, workspace) -> None:
        attempt = _ATTEMPTS.pop(workspace, None)
        if attempt is None or attempt.before is None or games.game_of(workspace) is not None:
            return
        dataset, learner, params, start, step = attempt.before
        workspace.replace(dataset, learner, params, step=step, start=start)
