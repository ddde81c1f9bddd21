"""The game mode: play Novikoff's mistake-bound game against the perceptron, or watch.

The student is player A (:mod:`perceptron_gui.core.game`): they set the rules
(``R``, the hidden separator ``u`` and its margin ``γ``), then click points.  A
move takes two beats: B's prediction at once, the label (:class:`PlayMove`, the
run's step ``k`` is move ``k``) a beat later.  "Let the computer play" makes the
greedy adversary player A.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore, QtWidgets

from ...core import game as games
from ...core import game_rules
from ...core.commands import SetViewRect
from ...core.dataset import AddPoints, Edit
from ...core.game import RuleBroken, game_of
from ...core.game_commands import FinishGame, LeaveGame, PlayMove, StartGame, UndoMove
from ...core.learners.ties import DEFAULT_TIE
from ...core.text import fmt, fmt_vec
from ..actions import ActionSpec
from ..deferred import YieldingTimer
from ..modes import Mode, register_mode
from ..widgets import signed
from ..widgets.game_panel import GamePanel
from ..widgets.side_panel import Section

__all__ = ["COMPUTER_CAPTION", "GameMode", "GameUI"]

#: What the computer player does, claiming no optimality it does not have.
COMPUTER_CAPTION = (
    "The computer plays A greedily: within the rules it picks a point B gets wrong that "
    "leaves w as far from u as it can (at the band's edge, nearly orthogonal to w). It "
    "looks one move ahead only, so it is not optimal; no player can force more than the "
    "bound.")


class GameMode(Mode):
    """The game being played: the learner's controls and the data's undo hidden, Esc leaves."""

    name = "game"
    esc = "leave_game"
    esc_priority = 30
    #: the game's R is its rule; the data's max ‖x‖ would confuse
    layers = {"radius": False}

    def hidden(self) -> list:
        return self.editing_hidden(sections=("learner", "now", "details"), docks=("learner",),
                                   actions=("undo", "redo"))

    def shown(self) -> list:
        return [self.window.side_panel.sections["game"]]


register_mode(GameMode)


class GameUI(QtCore.QObject):
    """The Play menu, the game's panel and the two beats of a move (see the module).

    A click is a move through the game's own edit guard, first among the
    window's guards (before the timeline's question about later steps);
    ``reveal_ms`` and ``computer_ms`` are the beats before the label and
    between the computer's moves.  ``predictionShown`` carries B's prediction
    (the point, ±1) before its label, ``revealed`` the label's :class:`Move`.
    """

    predictionShown = QtCore.Signal(tuple, int)
    revealed = QtCore.Signal(object)
    refused = QtCore.Signal(str)
    rulesRefused = QtCore.Signal(str)
    ended = QtCore.Signal(str)

    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("game")
        self.window = window
        self.reveal_ms = 700
        self.computer_ms = 500
        self._moment = ""
        self._by_computer: set[int] = set()  # the moves the computer made (1-based)
        self._dragged_from: float | None = None  # R when a drag of the rules began
        # a period that is the job itself (the beat of a reveal), on the yielding timer
        self._reveal_timer = YieldingTimer(self, self._reveal, name="gameRevealTimer")
        self._computer_timer = YieldingTimer(self, self._computer_step, name="gameComputerTimer")
        self._actions()
        self._section: Section | None = None  # made when first needed
        # a game arrives (New game, a file, a demo): then the data and the run are
        # followed while it lasts (nothing is called on an edit or a step without a game:
        # the signal budget, and a long run's ticks)
        games.changed.connect(self._game_changed)
        game_rules.requested.connect(self._rules_dragged)
        game_rules.refused.connect(self._rules_refused)
        self._following = False
        ws = window.workspace  # the window keeps its workspace
        self._followed = (ws.events.dataset_changed, ws.events.run_changed)
        window.edit_guards.insert(0, self.intercept)
        window.commandDispatched.connect(self._dispatched)
        self._enable()
        self.sync()

    @property
    def section(self) -> Section:
        """The side panel's (hidden) section of the game's panel, made when first needed: a
        window that never plays does not build it."""
        if self._section is None:
            panel = GamePanel(self.window.actions)
            panel.rulesChanged.connect(self._rules_changed)
            panel.hideRequested.connect(self.hide_u)
            # above the exercise's section, as when both were made with the window
            self._section = self.window.side_panel.add_section("game", "The game", panel,
                                                               before="exercise")
            self._section.setVisible(False)
        return self._section

    @property
    def panel(self) -> GamePanel:
        """The game's panel (made with :attr:`section`)."""
        return self.section.content

    # -- actions ---------------------------------------------------------------------------
    def _actions(self) -> None:
        w = self.window
        menu = QtWidgets.QMenu("&Play", w, objectName="menuPlay")
        # beside Run (Demos keeps its place before Help)
        self.menu = w.add_menu("play", menu, before="demos" if "demos" in w.menus else "help")
        w.actions.provide("game", lambda: self.game)

        def on(c) -> bool:
            return c["game"] is not None

        for spec in (
                ActionSpec("play_new_game", "&New game", self.new_game, menu="play",
                           tip="Play Novikoff's game: you choose the points, the perceptron "
                               "predicts them", name="play_new_game"),
                ActionSpec("play_computer", "Let the &computer play", self.set_computer,
                           ("Ctrl+Shift+G",), "The computer plays A, greedily, one move at a "
                           "time", menu="play", checkable=True, name="play_computer"),
                # the recorder's Undo step takes Ctrl+Z back while a game is recorded
                ActionSpec("play_undo_move", "&Undo move", self.undo, ("Ctrl+Z",),
                           "Take the last move back", menu="play", name="play_undo_move",
                           when=lambda c: on(c) and bool(c["game"].history)
                           and "recording" not in c["modes"]),
                ActionSpec("play_end_game", "&End the game", self.finish,
                           tip="State the result and reveal u", menu="play",
                           name="play_end_game", when=lambda c: on(c) and not c["game"].finished),
                ActionSpec("play_leave", "&Leave the game", lambda: self.leave(True),
                           tip="Leave the game with its points as an ordinary data set "
                               "(nothing is lost)", menu="play", name="play_leave", when=on),
                # Esc, when the modes give it to this one (presenter mode's Esc comes first)
                ActionSpec("leave_game", "Leave the game, keeping the points",
                           lambda: self.leave(True), ("Esc",), "Leave the game (Esc)",
                           name="leave_game")):
            action = w.actions.make(spec)
            if spec.id == "play_computer":
                self.computer_action = action  # checked: the computer plays A
                self.menu.addSeparator()

    # -- the game's life -----------------------------------------------------------------
    @property
    def game(self):
        """The game played in the window, or None."""
        return game_of(self.window.workspace)

    def new_game(self, **rules) -> None:
        """Start a game on the rules given (else the panel's): no points, ``w = 0``."""
        self._restart({**self.panel.rules(), **rules})

    def hide_u(self) -> None:
        """Start again with ``u`` drawn at random and hidden until the end."""
        import secrets  # here: its hmac and OpenSSL cost launch about 10 ms

        game = self.game
        rules = self.panel.rules() if game is None else {**game_rules.rules_of(game),
                                                          "tie": game.tie}
        self._restart({**rules, "u": None, "seed": secrets.randbelow(2**31), "hidden": True})

    def _start(self, command: StartGame, fit: bool = True) -> None:
        self.stop()
        self._by_computer.clear()
        self._moment = ""
        self.window.playback.stop()
        self.window.dispatch(command)
        self.window.undo_stack.clear()  # the data's history is not the game's
        if fit:  # the circle and w, with room for the legend; followed while w grows
            self.window.dispatch(SetViewRect(None))

    def _rules_changed(self, rules: dict) -> None:
        game = self.game
        if game is None or game.history:
            return
        try:
            self._restart(rules)
        except ValueError as exc:
            self.window.report_error(f"Those rules cannot be played: {exc}", dialog=False)
            self.sync()

    def _rules_dragged(self, workspace, rules: dict, final: bool) -> None:
        """A rule handle dragged: a new game on its rules, the view kept until the drag ends
        (then fitted again if ``R`` changed)."""
        game = self.game
        if workspace is not self.window.workspace or game is None or game.history:
            return
        if self._dragged_from is None:
            self._dragged_from = game.R
        self._restart({**rules, "tie": game.tie}, fit=final and rules["R"] != self._dragged_from)
        if final:
            self._dragged_from = None

    def _restart(self, r: dict, fit: bool = True) -> None:
        """A new game on rules ``r`` (a panel's or a handle's: ``u`` at ``angle`` degrees)."""
        u = r["u"] if "u" in r else _unit(r["angle"])
        self._start(StartGame(r["R"], r["gamma"], None if u is None else tuple(u),
                              r.get("offset", 0.0), r["fit_intercept"], r.get("seed"),
                              r.get("hidden", False), r.get("tie", DEFAULT_TIE)), fit=fit)

    def _rules_refused(self, workspace, reason: str) -> None:
        if workspace is self.window.workspace:
            self.window.show_message(f"Refused: {reason}")
            self.rulesRefused.emit(reason)

    def stop(self) -> None:
        """Stop the computer and drop a guess not yet revealed."""
        self._reveal_timer.stop()
        self._computer_timer.stop()
        if self.computer_action.isChecked():
            with QtCore.QSignalBlocker(self.computer_action):
                self.computer_action.setChecked(False)
        game = self.game
        if game is not None and game.pending is not None:
            game.pending = None
            self.window.canvas.refresh()

    # -- a move in two beats ---------------------------------------------------------------
    def intercept(self, edit) -> bool:
        """The mode's edit guard: a click adding a point is a move; other edits wait."""
        if self.game is None or not isinstance(edit, Edit):
            return True
        if isinstance(edit, AddPoints) and edit.X.shape[0] == 1:
            self.propose(edit.X[0])
        else:
            self.window.report_error(
                f"Not done in the game: {edit.text}. Points are moves here; take one back "
                "with Play ▸ Undo move, or leave the game.", dialog=False)
        return False

    def propose(self, x) -> bool:
        """Player A shows ``x``: B's prediction now, the label after ``reveal_ms``; False when
        the point is refused (the reason is drawn beside it)."""
        game = self.game
        if game is None:
            return False
        if self._reveal_timer.isActive():  # the previous move's label first
            self._reveal_timer.stop()
            self._reveal()
        ws = self.window.workspace
        moves = len(game.history)
        reason = None
        if ws.running and ws.step_count < moves:
            reason = (f"you are looking at move {ws.step_count} of {moves}: go to the last "
                      "move to play on (or undo moves)")
        try:
            if reason is not None:
                raise RuleBroken(reason)
            prediction = game.propose(x)
        except RuleBroken as exc:
            game.refused = (tuple(float(v) for v in np.asarray(x, float)[:2]), exc.reason)
            game.pending = None
            self.window.canvas.refresh()
            self.window.show_message(f"Refused: {exc.reason}")
            self.refused.emit(exc.reason)
            return False
        point = game.pending[0]
        self._moment = (f"A plays ({fmt(point[0])}, {fmt(point[1])}); B predicts "
                        + (signed(prediction) if prediction else "nothing (w·x = 0)") + " …")
        self._show()
        self.window.canvas.refresh()
        self.predictionShown.emit(point, prediction)
        self._reveal_timer.start(self.reveal_ms)
        return True

    def _reveal(self) -> None:
        game = self.game
        if game is None or game.pending is None:
            return
        point, _prediction = game.pending
        self.window.dispatch(PlayMove(point))
        move = game.history[-1]
        if self.computer_action.isChecked():
            self._by_computer.add(len(game.history))
        if move.mistake:
            self._moment = (f"The label is {signed(move.label)}: a mistake. "
                            f"B updates w ← w + y x = {fmt_vec(move.w_after)}.")
        else:
            self._moment = f"The label is {signed(move.label)}: B was right; w stays."
        self._show()
        self.revealed.emit(move)
        if self.computer_action.isChecked():
            self._computer_timer.start(self.computer_ms)

    # -- the computer ----------------------------------------------------------------------
    def set_computer(self, on: bool) -> None:
        """Let the computer play A (move by move), or take the points back."""
        game = self.game
        if on and (game is None or game.finished):
            self.new_game()
            self.computer_action.setChecked(True)
            return
        if on:
            self.window.show_message(COMPUTER_CAPTION, 20000)
            self._computer_timer.start(0)
        else:
            self._computer_timer.stop()

    def _computer_step(self) -> None:
        game = self.game
        if game is None or not self.computer_action.isChecked() or self._reveal_timer.isActive():
            return
        x = game.adversary_move()
        if x is None:
            self.stop()
            self.finish()
            return
        self.propose(x)

    # -- undo, the end, leaving ------------------------------------------------------------
    def undo(self) -> None:
        """Take the last move back (its point and B's update)."""
        game = self.game
        if game is None or not game.history:
            return
        self.stop()
        self._by_computer.discard(len(game.history))
        self._moment = ""
        self.window.dispatch(UndoMove())

    def finish(self) -> None:
        """End the game: the result stated in the text's terms, and ``u`` revealed."""
        game = self.game
        if game is None:
            return
        self.stop()
        self.window.dispatch(FinishGame())
        n = len(game.history)
        player = ("The computer" if n and len(self._by_computer) == n
                  else "You" if not self._by_computer else "You and the computer")
        text = game.summary(player)
        if player == "The computer":
            text += " No legal point fools B any more."
        self._moment = ""
        self.panel.show_result(text + " Play ▸ Leave keeps the points as a data set.")
        self.window.show_message(text, 20000)
        self.sync()
        self.ended.emit(text)

    def leave(self, keep: bool) -> None:
        """Leave the game, keeping its points as an ordinary data set or not."""
        if self.game is None:
            return
        self.stop()
        self.window.dispatch(LeaveGame(keep))

    # -- following the workspace -----------------------------------------------------------
    def _dispatched(self, command) -> None:
        if isinstance(command, (FinishGame, UndoMove)):
            self.sync()

    def _game_changed(self, workspace) -> None:
        if workspace is self.window.workspace:
            self.sync()

    def _follow(self, on: bool) -> None:  # while a game is played (a demo's moves)
        if on != self._following:
            for signal in self._followed:
                (signal.connect if on else signal.disconnect)(self.sync)
            self._following = on

    def sync(self, *_args) -> None:
        """Enter or leave the mode with the game; show the score at the run's cursor."""
        game = self.game
        modes = self.window.modes
        self._follow(game is not None)
        if game is None:
            if modes.is_active("game"):
                self.stop()
                modes.leave("game")
                self._enable()
            return
        if not modes.is_active("game"):
            section = self.section  # made before the mode shows it
            modes.enter("game")  # its section shown, the R circle hidden
            section.set_expanded(True)
        if not game.finished:
            self.panel.show_result("")
        self._show()
        self._enable()

    def _show(self) -> None:
        game = self.game
        if game is None:
            return
        ws = self.window.workspace
        moves = len(game.history)
        at = min(ws.step_count, moves) if ws.running else moves
        moment = self._moment if at == moves else f"Looking back at move {at} of {moves}."
        self.panel.show_game(game, at, moment)

    def _enable(self) -> None:
        self.window.actions.update()
        self.window.modes.update_esc()


def _unit(degrees: float) -> tuple[float, float]:
    angle = math.radians(degrees)
    return math.cos(angle), math.sin(angle)
