"""The exercise mode: levels to pass by predicting updates, being the learner, playing.

A level (:data:`perceptron_gui.core.exercises.LEVELS`) puts its data and
learner in the window; the level bar keeps the goal, the hint and the score,
the panel the answer's controls: predict (click the point of the next update,
drag or type the new ``w`` and bias), be the learner (drag the line, scored
against the maximum margin), or the game.  Passed levels, attempts and best
results stay in the settings until a teacher's reset.
"""

from __future__ import annotations

import json
import math

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from ...core import exercises as ex
from ...core.commands import SetLayers, SetViewRect
from ...core.dataset import Edit
from ...core.game import game_of
from ...core.game_commands import FinishGame
from ...core.text import fmt, fmt_percent, fmt_vec, plural, run_class_names
from .. import errors, settings
from ..actions import ActionSpec
from ..modes import Mode, register_mode
from ..widgets.exercise_panel import ExercisePanel
from ..widgets.level_bar import LevelBar
from ..widgets.side_panel import Section

__all__ = ["SETTINGS_KEY", "ExerciseMode", "ExerciseUI"]

#: Where the settings keep the levels passed (and, beside it, the attempts and best scores).
SETTINGS_KEY = "exercises/passed"
_ATTEMPTS_KEY, _BEST_KEY = "exercises/attempts", "exercises/best"


#: The actions that would run the learner on by itself: in a level the student's answers
#: (or moves) move it, so these would show an update before it is predicted.
FORWARD_ACTIONS = ("step", "step_sample", "step_epoch", "play", "run_to_end")


class ExerciseMode(Mode):
    """A level being tried: the learner's controls hidden, Esc leaves it.

    A "predict" level (``kind``) also hides the timeline and the update log,
    where the next update (already computed to mark the answer) could be read;
    a "learner" level the "Now" panel and the bound's strip: the perceptron at
    w = 0 is not the student's line.
    """

    name = "exercise"
    esc = "leave_exercise"
    esc_priority = 40
    keeps_view = True  # a level sets its layers and view: the student's come back

    def __init__(self, window, kind: str = "predict"):
        super().__init__(window)
        self.kind = kind

    def hidden(self) -> list:
        learner, predict = self.kind == "learner", self.kind == "predict"
        return self.editing_hidden(
            sections=("learner", "details", *(("now", "bound") if learner else ())),
            docks=("learner", *(("updateLog",) if predict else ())),
            toolbars=("timeline",) if predict else (), actions=FORWARD_ACTIONS)

    def shown(self) -> list:
        return [self.window.side_panel.sections["exercise"], self.window.toolbars["levels"]]


register_mode(ExerciseMode)


class ExerciseUI(QtCore.QObject):
    """The Exercises menu, the panel and the marking; ``passed`` carries a level's key."""

    passed = QtCore.Signal(str)

    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("exercises")
        self.window = window
        self._scale = 1.0  # the length of the student's w when a level starts
        self.progress = ex.Progress(settings.value(SETTINGS_KEY, "texts", []),
                                    settings.value(_ATTEMPTS_KEY, "json", {}),
                                    settings.value(_BEST_KEY, "json", {}))
        self.bar = LevelBar(ex.LEVELS)
        self.bar.levelRequested.connect(self.start)
        window.add_toolbar(self.bar, QtCore.Qt.ToolBarArea.TopToolBarArea, new_row=True,
                           key="levels")
        self.bar.setVisible(False)
        self._section: Section | None = None  # made when first needed
        window.canvas.selectionChanged.connect(self._picked)
        self._menu()
        window.edit_guards.insert(0, self._guard)
        window.commandDispatched.connect(self._dispatched)

    @property
    def section(self) -> Section:
        """The side panel's (hidden) section of the answer's controls, made when first
        needed: a window where no level is tried does not build them."""
        if self._section is None:
            panel = ExercisePanel()
            panel.answered.connect(self.answer)
            panel.answeredClass.connect(self.answer_class)
            panel.lineChanged.connect(self.set_line)
            panel.scoreRequested.connect(self.score_line)
            panel.guessChanged.connect(self._typed)
            panel.sampleChanged.connect(lambda n: self._choose(n - 1))
            self._section = self.window.side_panel.add_section("exercise", "Exercise", panel)
            self._section.setVisible(False)
        return self._section

    @property
    def panel(self) -> ExercisePanel:
        """The answer's controls (made with :attr:`section`)."""
        return self.section.content

    # -- the menu --------------------------------------------------------------------------
    def _menu(self) -> None:
        w = self.window
        parent = w.menus.get("play")
        self.menu = QtWidgets.QMenu("E&xercises", w, objectName="menuExercises")
        if parent is None:
            w.add_menu("exercises", self.menu, before="help")
        else:
            parent.addSeparator()
            parent.addMenu(self.menu)
        make = w.actions.make
        self.level_actions: dict[str, QtGui.QAction] = {}
        for i, level in enumerate(ex.LEVELS, 1):  # checked: passed (a click starts it)
            action = make(ActionSpec(f"exercise_{level.key.replace('-', '_')}",
                                     f"&{i}. {level.title}", lambda k=level.key: self.start(k),
                                     tip=level.goal))
            action.setCheckable(True)
            self.menu.addAction(action)
            self.level_actions[level.key] = action
        self.menu.addSeparator()
        self.menu.addAction(make(ActionSpec(
            "exercise_reset", "&Reset the levels passed", self.reset,
            tip="Forget which levels were passed (for a new student)")))
        make(ActionSpec("leave_exercise", "Leave the exercise…", self.ask_leave, ("Esc",),
                        "Ask, then leave the level: your own data and settings come back"))
        self._ticks()

    def _ticks(self) -> None:
        for key, action in self.level_actions.items():
            action.setChecked(key in self.progress.passed)

    # -- a level ---------------------------------------------------------------------------
    @property
    def attempt(self):
        """The level being tried, or None."""
        return ex.attempt_of(self.window.workspace)

    def start(self, key: str) -> None:
        """Try the level ``key``: its data and learner, the mode, the panel."""
        w = self.window
        w.playback.stop()
        level = next(lv for lv in ex.LEVELS if lv.key == key)
        section = self.section  # made before the mode shows it
        w.modes.enter("exercise", kind=level.kind)  # the view, the layers kept for leaving
        w.dispatch(ex.StartExercise(key))
        w.undo_stack.clear()  # the data are the level's now
        w.dispatch(SetViewRect(None))
        attempt = self.attempt
        ws = w.workspace
        batch = attempt.predict is not None and not attempt.predict.asks_sample()
        wb = ws.weights()
        classes = None
        if attempt.predict is not None and attempt.predict.asks_rival:
            labels = ws.learner.classes_
            classes = list(zip(labels.tolist(), run_class_names(ws.dataset, labels),
                               strict=True))
        self.panel.show_level(attempt.level, ws.dataset.n, batch,
                              None if wb is None else wb[0], 0.0 if wb is None else wb[1],
                              bias=bool(ws.params.get("fit_intercept", True)), classes=classes)
        attempt.dragged.connect(self._dragged)
        if attempt.level.kind == "learner":
            X = ws.dataset.X
            self._scale = 0.5 * float(np.max(np.hypot(X[:, 0], X[:, 1]))) if len(X) else 1.0
            self.panel.set_line(30.0, 0.0)
        elif attempt.level.kind == "predict":
            self._reset_guess()
        section.set_expanded(True)
        number = self.progress.started(attempt.level)
        self._save()
        self.bar.show_level(key, self.progress, number)
        w.show_message(f"Exercise: {attempt.level.goal}", 15000)

    def leave(self) -> None:
        """Stop the exercise: the data, learner settings, layers and view from before it."""
        w = self.window
        if self.attempt is None and not w.modes.is_active("exercise"):
            return
        w.dispatch(ex.LeaveExercise())
        w.modes.leave("exercise")  # the layers and the view from before the first level
        w.canvas.refresh()

    def ask_leave(self) -> bool:
        """Leave the level after the student says so (a stray Esc ends nothing); True when left."""
        if self.attempt is None and not self.window.modes.is_active("exercise"):
            return False
        b = QtWidgets.QMessageBox.StandardButton
        title = self.attempt.level.title if self.attempt is not None else "the exercise"
        answer = errors.ask(self.window, "Leave the level?",
                            f"Leave “{title}”? Your own data and learner settings come "
                            "back; this level's answers so far are not kept.",
                            b.Yes | b.Cancel, b.Cancel)
        if answer != b.Yes:
            return False
        self.leave()
        return True

    def reset(self) -> None:
        """Forget the levels passed (a teacher's reset)."""
        self.progress.reset()
        self._save()
        self.window.show_message("The levels passed are forgotten.")

    def _save(self) -> None:
        store = QtCore.QSettings()
        store.setValue(SETTINGS_KEY, list(self.progress.passed))
        store.setValue(_ATTEMPTS_KEY, json.dumps(self.progress.attempts))
        store.setValue(_BEST_KEY, json.dumps(self.progress.best))
        self._ticks()
        attempt = self.attempt
        self.bar.show_progress(self.progress, None if attempt is None else attempt.level.key)

    def _record(self, result: float) -> bool:
        """Record ``result`` for the level tried; True when it passes the level."""
        attempt = self.attempt
        attempt.result = result
        passed = self.progress.record(attempt.level, result)
        self._save()
        if passed:
            nxt = self.progress.next_level()
            title = "" if nxt is None else nxt.title.rstrip(".?!")
            tail = f" Next: {title}." if nxt is not None else " Every level is passed."
            self.panel.score.setText((self.panel.score.text() + " Level passed!" + tail).strip())
            self.window.show_message(f"Level passed: {attempt.level.title}.{tail}", 15000)
            self.passed.emit(attempt.level.key)
        return passed

    # -- answers -------------------------------------------------------------------------
    def answer(self, sample, w1: float, w2: float, b: float) -> None:
        """Mark a prediction of the next update, then show the update."""
        exercise = self._open_prediction()
        if exercise is None:
            return
        mark = exercise.answer(None if sample is None else int(sample) - 1, (w1, w2), b)
        parts = []
        if mark.sample_ok is not None:
            parts.append(("Right point" if mark.sample_ok else "Not that point") +
                         f": the update came from point {mark.sample + 1}.")
        if mark.w_ok is not None:
            parts.append(("Right" if mark.w_ok else "Not quite") +
                         f": w = {fmt_vec(mark.w)}, b = {fmt(mark.b)}.")
        self.panel.result.setText(" ".join(parts))
        self.panel.score.setText(f"{exercise.right} of {exercise.asked} right.")
        self._reset_guess(frame=False)
        passed = self._record(exercise.right)
        if passed or exercise.over:  # answered: the data's own frame again
            self.window.dispatch(SetViewRect(None))
        else:
            self._frame_answers(self.attempt.guess[:2], refit=True)

    def answer_class(self, sample, rival: int) -> None:
        """Mark a prediction of the multiclass perceptron's next update (its point and the
        class that scored as much), then show the update."""
        exercise = self._open_prediction()
        if exercise is None:
            return
        mark = exercise.answer(None if sample is None else int(sample) - 1, rival=rival)
        names = dict(zip(self.window.workspace.learner.classes_.tolist(),
                         run_class_names(self.window.workspace.dataset,
                                         self.window.workspace.learner.classes_), strict=True))
        parts = [("Right point" if mark.sample_ok else "Not that point") +
                 f": the update came from point {mark.sample + 1}.",
                 ("Right class" if mark.rival_ok else "Not that class") +
                 f": {names[mark.rival]} scored as much, so its w lost x̃."]
        self.panel.result.setText(" ".join(parts))
        self.panel.score.setText(f"{exercise.right} of {exercise.asked} right.")
        self.attempt.chosen = None
        self.window.canvas.refresh()
        self._record(exercise.right)

    def _open_prediction(self):
        """The prediction being answered, or None (the panel says so when its run ended)."""
        attempt = self.attempt
        if attempt is None or attempt.predict is None:
            return None
        if attempt.predict.over:
            self.panel.result.setText("The run has ended: no update is left.")
            return None
        return attempt.predict

    def _reset_guess(self, frame: bool = True) -> None:
        """The next guess starts from the current ``w, b``, no point picked (``frame``: the
        view grown to hold every ``w`` the update can make)."""
        attempt = self.attempt
        if attempt.predict is not None and attempt.predict.asks_rival:  # no w to guess
            attempt.chosen = None
            self.window.canvas.refresh()
            return
        wb = self.window.workspace.weights()
        w, b = (np.zeros(2), 0.0) if wb is None else (np.asarray(wb[0], float), float(wb[1]))
        attempt.guess = (float(w[0]), float(w[1]), b)
        attempt.chosen = None
        self.panel.show_guess(w, b)
        if frame:
            self._frame_answers(w)
        self.window.canvas.refresh()

    def _frame_answers(self, w, refit: bool = False) -> None:
        """Grow the view to hold every ``w`` the next update can make, so it can be dragged.

        An update adds at most ``η R`` to ``w`` (``R = max ‖x‖``; a pass of batch
        descent averages such steps), so the new ``w``'s head lies in the disk of
        radius ``‖w‖ + η R`` about the origin.  ``refit``: grow the data's frame,
        not the view shown, so that the frames of earlier questions do not add up.
        """
        ws = self.window.workspace
        X = ws.dataset.X
        if not len(X):
            return
        if refit:
            self.window.dispatch(SetViewRect(None))
        eta = float(ws.params.get("eta0", 1.0))
        r = 1.05 * (math.hypot(float(w[0]), float(w[1]))
                    + eta * float(np.max(np.hypot(X[:, 0], X[:, 1]))))
        (x0, x1), (y0, y1) = self.window.canvas.view_rect()
        if x0 <= -r and x1 >= r and y0 <= -r and y1 >= r:
            return
        self.window.dispatch(SetViewRect((min(x0, -r), max(x1, r), min(y0, -r), max(y1, r))))

    def _of_kind(self, kind: str):
        """The level being tried if it is of ``kind``, else None."""
        attempt = self.attempt
        return attempt if attempt is not None and attempt.level.kind == kind else None

    def _typed(self, w1: float, w2: float, b: float) -> None:
        attempt = self._of_kind("predict")
        if attempt is not None:
            attempt.guess = (w1, w2, b)
            self.window.canvas.refresh()

    def _choose(self, index: int) -> None:
        attempt = self._of_kind("predict")
        if attempt is not None:
            attempt.chosen = int(index)
            self.window.canvas.refresh()

    def _picked(self, selection) -> None:
        """A click selected a point: in a predict level, it is the answer's point."""
        if self._of_kind("predict") is not None and len(selection) == 1:
            self.panel.show_sample(int(selection[0]) + 1)
            self._choose(int(selection[0]))

    def _dragged(self, w, b: float, _final: bool) -> None:
        attempt = self.attempt
        if attempt is None:
            return
        if attempt.level.kind == "learner":
            self.panel.show_line(w, b)
        else:
            self.panel.show_guess(w, b)
        self.window.canvas.refresh()

    def set_line(self, w1: float, w2: float, b: float) -> None:
        """The student's line, drawn at once."""
        attempt = self._of_kind("learner")
        if attempt is None:
            return
        old = attempt.line  # the panel sets a unit w: keep the length drawn on the canvas
        scale = math.hypot(old[0], old[1]) if old is not None else self._scale
        attempt.line = (w1 * scale, w2 * scale, b * scale)
        self.window.canvas.refresh()

    def score_line(self) -> None:
        """Compare the student's line with the maximum margin, and show that one."""
        attempt = self.attempt
        if attempt is None or attempt.line is None:
            return
        ws = self.window.workspace
        s = ex.learner_score(ws.dataset.X, ws.dataset.y, attempt.line[:2], attempt.line[2])
        if not s.separates:
            text = (f"Your line gets a point wrong (its worst margin is {fmt(s.margin)}); "
                    f"the largest margin is {fmt(s.best)}.")
        else:
            text = (f"Your margin is {fmt(s.margin)}; the largest is {fmt(s.best)} "
                    f"({fmt_percent(100 * s.ratio)} of it).")
        self.panel.result.setText(text)
        self.panel.score.setText("")
        self.window.dispatch(SetLayers({"max_margin": True}))  # both shown
        self._record(s.ratio if s.separates else 0.0)

    # -- following the window --------------------------------------------------------------
    def _guard(self, edit) -> bool:
        """While a level is tried (not a game level), its data stay as it set them."""
        if self.attempt is None or game_of(self.window.workspace) is not None \
                or not isinstance(edit, Edit):
            return True
        self.window.report_error(f"Not done in the exercise: {edit.text}. The data are the "
                                 "level's; leave the exercise (Esc) to edit them.",
                                 dialog=False)
        return False

    def _dispatched(self, command) -> None:
        attempt = self.attempt
        if isinstance(command, FinishGame) and attempt is not None and \
                attempt.level.kind == "game":
            game = game_of(self.window.workspace)
            if game is not None:
                self.panel.result.setText(f"You forced {plural(game.mistakes, 'mistake')}.")
                self._record(game.mistakes)
