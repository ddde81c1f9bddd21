"""The demo steps of the mistake-bound game: its rules, a chosen move, the computer's.

Each action becomes the command a person's gesture makes in the game mode;
``start_game`` takes the ``angle`` of ``u`` in degrees.
"""

from __future__ import annotations

import math

from .. import game as games
from ..commands import Command
from ..game_commands import FinishGame, LeaveGame, PlayMove, StartGame, UndoMove
from ..learners.ties import DEFAULT_TIE, TIES
from .reader import DemoError, Reader

__all__ = ["GAME_ACTIONS", "GAME_COMMANDS", "game_command", "game_step"]

#: The game's actions and their arguments: name -> (required, optional).
GAME_ACTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "start_game": (("R", "gamma"), ("angle", "offset", "fit_intercept", "tie")),
    "play_move": (("x", "y"), ()),
    "computer_move": ((), ()),
    "finish_game": ((), ()),
}

#: The game's commands, as a version-2 step may name them.
GAME_COMMANDS = (StartGame, PlayMove, UndoMove, FinishGame, LeaveGame)


def game_command(r: Reader, sim, command: Command, where: str) -> Command:
    """Carry a game's ``command`` out on ``sim.probe`` now, as the player will.

    A move without a game, or one the rules refuse, is named when the demo is
    read rather than when the step is played.
    """
    if not isinstance(command, (StartGame, LeaveGame)) and games.game_of(sim.probe) is None:
        raise r.fail(where, f"{command.name!r} needs a game: start one first "
                            "(command 'start_game')")
    try:
        command.execute(sim.probe)
    except ValueError as exc:  # the game's rules
        raise r.fail(where, str(exc)) from None
    sim.replace(sim.probe.dataset, where, whole=False)
    return command


def game_step(r: Reader, sim, action: str, args: dict, where: str) -> Command:
    """A game step's command (:func:`game_command` carries it out).

    ``computer_move`` becomes the adversary's move there, fixed when the demo is loaded.
    """
    game = games.game_of(sim.probe)
    if action != "start_game" and game is None:
        raise r.fail(f"{where}.action", f"{action!r} needs a game: start one first "
                                        "(action 'start_game')")
    try:
        if action == "start_game":
            angle = math.radians(r.number(args.get("angle", 0.0), f"{where}.angle"))
            fit = r.boolean(args.get("fit_intercept", False), f"{where}.fit_intercept")
            command: Command = StartGame(r.number(args["R"], f"{where}.R"),
                                         r.number(args["gamma"], f"{where}.gamma"),
                                         (math.cos(angle), math.sin(angle)),
                                         r.number(args.get("offset", 0.0), f"{where}.offset"),
                                         fit, tie=r.choice(args.get("tie", DEFAULT_TIE),
                                                           f"{where}.tie", TIES))
        elif action == "finish_game":
            command = FinishGame()
        else:
            if action == "play_move":
                x = (r.number(args["x"], f"{where}.x"), r.number(args["y"], f"{where}.y"))
            else:
                x = game.adversary_move()
                if x is None:
                    raise ValueError("no legal point fools B any more: the game is over")
            command = PlayMove(tuple(x))
    except DemoError:  # an argument's own message, naming its field
        raise
    except ValueError as exc:  # the game's rules
        raise r.fail(where, str(exc)) from None
    return command
