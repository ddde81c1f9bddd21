"""The game's commands: start, a move, undo a move, finish, leave (no Qt).

The game's points are the workspace's data in the order played, and the
primal perceptron makes one pass over them, so the run's step k is move k.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from . import dataset as ds
from . import game as games
from .commands import Command, register
from .learners.losses import PERCEPTRON
from .learners.registry import DEFAULT_PARAMS
from .learners.ties import DEFAULT_TIE

__all__ = ["GAME_PARAMS", "check_shown", "StartGame", "PlayMove", "UndoMove", "FinishGame",
           "LeaveGame"]


#: The primal perceptron's parameters in the game: one pass in the order played.
GAME_PARAMS = {"eta0": 1.0, "bias_scale": 1.0, "loss": PERCEPTRON.name, "order": "cyclic",
               "max_iter": 1}
#: The learner that plays B: the primal perceptron.
_GAME_LEARNER = "primal"


def _game(workspace) -> games.PerceptronGame:
    game = games.game_of(workspace)
    if game is None:
        raise ValueError("no game is being played (Play ▸ New game starts one)")
    return game


def check_shown(workspace, game: games.PerceptronGame) -> None:
    """Raise ValueError unless ``workspace`` runs ``game`` as :func:`_show_game` sets it up.

    A file whose learner's parameters differ from the game's would show one
    count of mistakes in the game and another in the readouts.
    """
    params = workspace.all_params().get(_GAME_LEARNER)
    if workspace.learner_name != _GAME_LEARNER or params is None:
        raise ValueError(f"the game is played by the learner {_GAME_LEARNER!r}, "
                         f"not {workspace.learner_name!r}")
    wanted = {**GAME_PARAMS, "fit_intercept": game.fit_intercept}
    for name, value in wanted.items():
        if params.get(name) != value:
            raise ValueError(f"the game's rules need {name} = {value!r}, but the learner's "
                             f"parameters say {params.get(name)!r}")


def _show_game(workspace, game: games.PerceptronGame, step: int | None = None) -> None:
    """The workspace shows the game: its points in order, the run at move ``step``."""
    X, y = game.points
    params = workspace.all_params()  # every learner's kept; the primal one set for the game
    params[_GAME_LEARNER] = dict(params[_GAME_LEARNER], **GAME_PARAMS,
                                 fit_intercept=game.fit_intercept, tie=game.tie)
    step = len(y) if step is None else step
    workspace.replace(ds.Dataset(X, y), _GAME_LEARNER, params, step=step)


@register
@dataclass(frozen=True)
class StartGame(Command):
    """Start the game (:class:`~.game.PerceptronGame`'s arguments): no points, ``w = 0``."""

    R: float
    gamma: float
    u: tuple | None = None
    offset: float = 0.0
    fit_intercept: bool = False
    seed: int | None = None
    hidden: bool = False
    tie: str = DEFAULT_TIE
    name: ClassVar[str] = "start_game"

    def __post_init__(self):
        if self.u is not None:
            object.__setattr__(self, "u", tuple(float(v) for v in self.u))
        self.make()  # the rules checked now

    def make(self) -> games.PerceptronGame:
        """The game these rules describe (ValueError when they are invalid)."""
        return games.PerceptronGame(self.R, self.gamma, self.u, offset=self.offset,
                                    fit_intercept=self.fit_intercept, seed=self.seed,
                                    hidden=self.hidden, tie=self.tie)

    def execute(self, workspace) -> None:
        game = self.make()
        games.attach(workspace, game)
        _show_game(workspace, game)

    @property
    def text(self) -> str:
        return f"New game: R = {self.R:g}, γ = {self.gamma:g}"


@register
@dataclass(frozen=True)
class PlayMove(Command):
    """Player A plays the point ``x`` (a :class:`~.game.RuleBroken` changes nothing)."""

    x: tuple
    name: ClassVar[str] = "play_move"

    def __post_init__(self):
        try:
            x1, x2 = (float(v) for v in self.x)
        except (TypeError, ValueError):
            raise ValueError(f"play_move takes a point (x₁, x₂); got {self.x!r}") from None
        object.__setattr__(self, "x", (x1, x2))

    def execute(self, workspace) -> None:
        game = _game(workspace)
        game.play(self.x)
        _show_game(workspace, game)

    @property
    def text(self) -> str:
        return f"Play ({self.x[0]:g}, {self.x[1]:g})"


@register
@dataclass(frozen=True)
class UndoMove(Command):
    """Take the game's last move back (its point and B's update)."""

    name: ClassVar[str] = "undo_move"
    text: ClassVar[str] = "Undo the last move"

    def execute(self, workspace) -> None:
        game = _game(workspace)
        try:
            game.undo()
        except IndexError:
            raise ValueError("no move to undo") from None
        _show_game(workspace, game)


@register
@dataclass(frozen=True)
class FinishGame(Command):
    """End the game: no more moves; the result is stated and ``u`` revealed."""

    name: ClassVar[str] = "finish_game"
    text: ClassVar[str] = "End the game"

    def execute(self, workspace) -> None:
        game = _game(workspace)
        game.finish()
        workspace.seek(len(game.history))  # the result is the last move's


@register
@dataclass(frozen=True)
class LeaveGame(Command):
    """Leave the game: ``keep`` its points as an ordinary data set, or clear them."""

    keep: bool = True
    name: ClassVar[str] = "leave_game"

    def __post_init__(self):
        if not isinstance(self.keep, bool):
            raise ValueError(f"leave_game takes keep true or false; got {self.keep!r}")

    def execute(self, workspace) -> None:
        game = games.detach(workspace)
        dataset = workspace.dataset if (self.keep and game is not None) else ds.Dataset()
        learner, params = workspace.learner_name, workspace.all_params()
        default = DEFAULT_PARAMS[learner].get("max_iter")  # the game ran one pass
        if game is not None and default is not None:
            params[learner] = dict(params[learner], max_iter=default)
        workspace.replace(dataset, learner, params)

    @property
    def text(self) -> str:
        return "Keep the points as data" if self.keep else "Leave the game"
