"""Recording a demo: every command the window carries out becomes a step with a caption.

A drag's moves are one step, a run that plays and pauses a seek to where it
stopped.  While recording, Ctrl+Z and Ctrl+Shift+Z undo and redo *recorded
steps*: the window goes back to the state before the step.  *Stop and save*
plays the draft off the UI thread and saves nothing until every claim holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6 import QtCore, QtWidgets

from ...core.commands import (
    EditData,
    Run,
    Seek,
    SetLayers,
    SetParams,
    SetViewRect,
    ShowViews,
)
from ...core.dataset import Dataset, MovePoints
from ...core.game_commands import StartGame
from ...core.text import plural
from .. import errors, workers
from ..actions import ActionSpec
from ..modes import Mode, register_mode
from ..widgets import Guard

if TYPE_CHECKING:
    from ...core.demos.draft import DemoDraft
    from ..widgets.caption_box import CaptionBox
    from ..widgets.save_demo_dialog import SaveDemoDialog

__all__ = ["DemoRecorder", "Recording"]


class Recording(Mode):
    """A demo being recorded (:class:`DemoRecorder`): nothing hidden, Esc left alone."""

    name = "recording"


register_mode(Recording)


@dataclass(frozen=True)
class _Snapshot:
    """The window before a recorded step: enough to go back to it."""

    dataset: Dataset
    learner: str
    params: dict
    step: int
    layers: dict
    views: bool
    rect: tuple | None
    undo: int = 0  # the undo stack's index: a step that pushed an undo step is undone by it

    @classmethod
    def of(cls, window) -> _Snapshot:
        ws, view = window.workspace, window.view_state
        return cls(ws.dataset, ws.learner_name, ws.all_params(), ws.step_count,
                   view.layers(), view.views_shown, view.rect, window.undo_stack.index())


class DemoRecorder(QtCore.QObject):
    """The demo recorder of a window, its ``bar`` under the canvas (``recordingBar``).

    ``recorded`` carries the number of steps after one was recorded, undone
    or redone; ``handed_over`` the draft given to the demo editor;
    ``saved`` the saved ``DemoEntry``.
    """

    recorded = QtCore.Signal(int)
    handed_over = QtCore.Signal(object)
    saved = QtCore.Signal(object)

    def __init__(self, window, demos):
        super().__init__(window)
        self.setObjectName("demoRecorder")
        self._window = window
        self._demos = demos  # its library keeps the saved demos
        self.draft: DemoDraft | None = None
        self._before: list[_Snapshot] = []  # the window before each recorded step
        self._redo: list = []  # (command, caption, checks) of undone steps
        self._quiet = Guard()  # the recorder's own changes are not recorded
        self._last_step = 0  # the run's position after the last recorded step
        self._drag = None  # the drag whose moves the last step holds
        self._validating = None
        #: the Save dialog while it is open (titles the checked recording)
        self.save_dialog: SaveDemoDialog | None = None
        self._state_after: _Snapshot | None = None
        self._was_playing = self._was_running = False  # the playback, last seen
        self._build_actions()
        self.bar: QtWidgets.QFrame | None = None  # built on the first recording
        self.caption_box: CaptionBox | None = None
        window.commandDispatched.connect(self._on_command)
        window.playback.stateChanged.connect(self._on_playback)
        self._update()

    # -- construction -----------------------------------------------------------------
    def _build_actions(self) -> None:
        self._window.actions.provide("recorded_steps", self._steps)
        make = self._window.actions.make
        (self.actionRecord, self.actionSave, self.actionDiscard, self.actionUndoStep,
         self.actionRedoStep, self.actionNote, self.actionEdit) = (
            make(ActionSpec(id_, text, slot, keys, tip, when=when))
            for id_, text, slot, keys, tip, when in (
                ("record_demo", "&Record a new demo", self.start, (),
                 "Record what you do from here as a demo: each step gets a caption", None),
                ("recording_save", "&Stop and save…", self.stop_and_save, (),
                 "Check every step's numbers, then save the demo in your demos", None),
                ("recording_discard", "&Discard the recording", self.discard, (),
                 "Stop recording without saving (the window stays as it is)", None),
                ("recording_undo", "Undo step", self.undo_step, ("Ctrl+Z",),
                 "Remove the last recorded step and go back to before it (Ctrl+Z)",
                 lambda c: c["recorded_steps"][0] > 0),
                ("recording_redo", "Redo step", self.redo_step, ("Ctrl+Shift+Z",),
                 "Record the step undone last again (Ctrl+Shift+Z)",
                 lambda c: c["recorded_steps"][1] > 0),
                ("recording_note", "Add a caption step", self.add_note, (),
                 "A step that changes nothing and only says something", None),
                ("recording_edit", "&Edit the captions…", self.edit_captions, (),
                 "Stop recording and open the steps in the demo editor: fix any step's "
                 "caption there, checked at its own step, without undoing the later ones",
                 None)))

    def _steps(self) -> tuple[int, int]:
        """(steps recorded, steps undone that Redo step records again)."""
        return (0, 0) if self.draft is None else (len(self.draft.steps), len(self._redo))

    def _build_bar(self) -> None:  # by the first recording: the demos load lazily
        from ..widgets.caption_box import CaptionBox

        w = self._window
        self.bar = QtWidgets.QFrame(objectName="recordingBar")
        self.bar.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
        self.status = QtWidgets.QLabel(objectName="recordingStatus")
        self.status.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.caption_box = CaptionBox(self._measured, self.bar)
        buttons = QtWidgets.QVBoxLayout()
        for act in (self.actionUndoStep, self.actionRedoStep, self.actionNote,
                    self.actionEdit, self.actionSave, self.actionDiscard):
            button = QtWidgets.QToolButton(objectName=f"button_{act.objectName()}")
            button.setDefaultAction(act)
            button.setToolButtonStyle(QtCore.Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding,
                                 QtWidgets.QSizePolicy.Policy.Fixed)
            buttons.addWidget(button)
        buttons.addStretch(1)
        middle = QtWidgets.QVBoxLayout()
        middle.addWidget(self.status)
        middle.addWidget(self.caption_box)
        layout = QtWidgets.QHBoxLayout(self.bar)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addLayout(middle, 1)
        layout.addLayout(buttons)
        w.add_below_canvas(self.bar)
        self.bar.setVisible(False)

    # -- state ----------------------------------------------------------------------------
    @property
    def recording(self) -> bool:
        """True while a demo is being recorded."""
        return self.draft is not None

    @property
    def step_count(self) -> int:
        """Steps recorded so far (0 when not recording)."""
        return len(self.draft.steps) if self.draft is not None else 0

    def _measured(self):
        from ...core.demos.captions import Here

        return Here(self._window.workspace) if self.draft is not None else None

    # -- commands ---------------------------------------------------------------------------
    def start(self) -> bool:
        """Start recording from the window as it is; False (with a message) if it cannot."""
        w = self._window
        if self.draft is not None:
            return False
        if w.modes.is_active("demo"):
            w.report_error("Not recording", "Stop the demo that plays first (Esc): a "
                           "recording starts from your own work.", dialog=False)
            return False
        if w.workspace.dataset.n == 0:
            w.report_error("Not recording", "Place some points first: a demo starts from "
                           "data.", dialog=False)
            return False
        from ...core.demos.draft import DemoDraft

        w.playback.stop()
        if self.bar is None:
            self._build_bar()
        self.draft = DemoDraft.from_workspace(w.workspace, title="")
        self._before, self._redo = [], []
        self._last_step = w.workspace.step_count
        self._drag = None
        self._state_after = _Snapshot.of(w)
        w.modes.enter("recording")
        self.caption_box.set_step("", {})
        self.bar.setVisible(True)
        self._update()
        w.show_message("Recording: what you do now becomes the demo's steps. Caption each "
                       "step below; Stop and save when done.", 10000)
        return True

    def add_note(self) -> None:
        """Add a step that only shows a caption (the next caption goes there)."""
        if self.draft is not None:
            self._record(None, _Snapshot.of(self._window))

    def undo_step(self) -> None:
        """Remove the last recorded step; the window goes back to the state before it."""
        draft = self.draft
        if draft is None or not draft.steps:
            return
        self._commit_caption()
        step = draft.steps[-1]
        before = self._before.pop()
        draft.delete(len(draft.steps))
        self._redo.append(step)
        self._restore(before, undo_edit=self._window.undo_stack.index() > before.undo)
        self._drag = None
        self._after_change()

    def redo_step(self) -> None:
        """Carry out the step undone last again, and record it."""
        if self.draft is None or not self._redo:
            return
        step = self._redo.pop()
        redo, self._redo = self._redo, []
        command = _command_of(step)
        if command is None:
            self._commit_caption()
            self._before.append(_Snapshot.of(self._window))
            self.draft.steps.append(step)
        else:
            self._window.dispatch(command)
            if self.draft.steps:
                self.draft.steps[-1].caption = step.caption
                self.draft.steps[-1].checks = dict(step.checks)
        self._redo = redo
        self._after_change()

    def _has_steps(self, title: str) -> bool:
        if self.draft is None or self._validating is not None:
            return False
        self._commit_caption()
        if not self.draft.steps:
            self._window.report_error(title, "The recording has no step yet: "
                                      "do something, or Discard.", dialog=False)
        return bool(self.draft.steps)

    def stop_and_save(self) -> None:
        """Check the recording off the UI thread, then ask for its title and save it."""
        if not self._has_steps("Nothing to save"):
            return
        draft = self.draft.copy()
        check = draft.copy()
        check.title = draft.title or "Recorded demo"  # its title is asked for after
        self._window.show_message("Checking every step of the recording…")
        self.actionSave.setEnabled(False)
        self._validating = workers.start(
            check.validate, returned=lambda problems: self._validated(draft, problems),
            errored=lambda exc: self._failed("The recording could not be checked", exc))

    def edit_captions(self) -> None:
        """End the recording in the demo editor, where any step's caption can be fixed."""
        if not self._has_steps("Nothing to edit"):
            return
        draft = self.draft.copy()
        draft.title = draft.title or "Recorded demo"
        self._end("The recording is in the demo editor: fix any step's caption, then Save.")
        self.handed_over.emit(draft)

    def discard(self) -> None:
        """Stop recording without saving; the window stays as it is."""
        if self.draft is None:
            return
        self._commit_caption()
        b = QtWidgets.QMessageBox.StandardButton
        if self.draft.steps and errors.ask(
                self._window, "Discard the recording?",
                f"The {self.step_count} recorded steps and their captions are not kept.",
                b.Discard | b.Cancel, b.Cancel) != b.Discard:
            return
        self._end("Recording discarded.")

    # -- recording ------------------------------------------------------------------------
    def _on_command(self, command) -> None:
        if self.draft is None or self._quiet:
            return
        if self._merges(command):
            last = self.draft.steps[-1]
            merged = type(last).of_command(command, last.caption)
            merged.checks = last.checks
            self.draft.steps[-1] = merged
            self._state_after = _Snapshot.of(self._window)
            self._last_step = self._window.workspace.step_count
            self._update()
            return
        self._drag = self._window.current_drag if _is_move(command) else None
        self._record(command)

    def _record(self, command, before: _Snapshot | None = None) -> None:
        """Record ``command`` (None: a note) as a new step after the window ``before``."""
        self._commit_caption()
        self._before.append(self._state_after if before is None else before)
        if command is None:
            self.draft.add_note("")
        else:
            self.draft.record(command)
        self._redo.clear()
        self._after_change()

    def _merges(self, command) -> bool:
        """Whether ``command`` only carries the last step further (it replaces it).

        A move of the same drag's points (a drag is one step: where it ended),
        a seek after a seek (the timeline dragged), a view rectangle after a
        view rectangle, a game's rules after its rules (a handle dragged), the
        same parameters of the same learner set again (a spin box stepped).
        """
        if not self.draft.steps or "command" not in self.draft.steps[-1].data:
            return False
        last = _command_of(self.draft.steps[-1])
        if _is_move(command):
            return (self._drag is not None and self._drag == self._window.current_drag
                    and _is_move(last)
                    and list(last.edit.indices) == list(command.edit.indices))
        if isinstance(command, (Seek, SetViewRect)):
            return type(last) is type(command)
        if isinstance(command, StartGame):  # the rules set again before a move (a handle
            return isinstance(last, StartGame)  # dragged, a spin box): the last ones stand
        if isinstance(command, SetParams):
            return (isinstance(last, SetParams) and last.learner == command.learner
                    and set(last.params) == set(command.params))
        return False

    def _on_playback(self) -> None:
        """A play that stopped is recorded where it stopped (before the command that stopped
        it: the played steps come first); a run to the end in slices ends in its own step."""
        playback = self._window.playback
        was_playing, was_running = self._was_playing, self._was_running
        self._was_playing, self._was_running = playback.playing, playback.running_to_end
        if self.draft is None or self._quiet:
            return
        ws = self._window.workspace
        if was_playing and not playback.playing and ws.step_count != self._last_step:
            self._record(Seek(ws.step_count))
        elif was_running and not playback.running_to_end:
            self._last_step = ws.step_count
            self._state_after = _Snapshot.of(self._window)

    def _after_change(self) -> None:
        self._state_after = _Snapshot.of(self._window)
        self._last_step = self._window.workspace.step_count
        step = self.draft.steps[-1] if self.draft.steps else None
        self.caption_box.set_step(step.caption if step else self.draft.description,
                                  step.checks if step else {})
        self._update()
        self.recorded.emit(self.step_count)

    def _commit_caption(self) -> None:
        draft = self.draft
        if draft is None:
            return
        if draft.steps:
            draft.steps[-1].caption = self.caption_box.caption()
            draft.steps[-1].checks = self.caption_box.checks()
        else:
            draft.description = self.caption_box.caption()

    def _restore(self, snap: _Snapshot, undo_edit: bool) -> None:  # recording nothing
        w, ws = self._window, self._window.workspace
        with self._quiet:
            w.playback.stop()
            if undo_edit and w.undo_stack.canUndo():
                w.undo_stack.undo()
            if (ws.learner_name, ws.all_params()) != (snap.learner, snap.params):
                ws.replace(ws.dataset, snap.learner, snap.params, step=snap.step,
                           start=ws.start)  # the same data: the start set by hand stays
            elif ws.step_count != snap.step:
                w.dispatch(Seek(snap.step))
            changed = {k: v for k, v in snap.layers.items() if w.view_state.layers().get(k) != v}
            if changed:
                w.dispatch(SetLayers(changed))
            if w.view_state.views_shown != snap.views:
                w.dispatch(ShowViews(snap.views))
            if w.view_state.rect != snap.rect:
                w.dispatch(SetViewRect(snap.rect))

    # -- saving -------------------------------------------------------------------------------
    def _validated(self, draft: DemoDraft, problems: list) -> None:
        self._validating = None
        self._update()
        w = self._window
        if self.draft is None:
            return
        if problems:
            text = "\n".join(f"• {p}" for p in problems[:12])
            more = f"\n… and {len(problems) - 12} more" if len(problems) > 12 else ""
            w.report_error("Not saved: a step states what the program does not show",
                           text + more + "\n\nFix the caption or its quantity, then Stop "
                           "and save again. A step before the last: Edit the captions… "
                           "opens every step in the demo editor, nothing undone.")
            return
        from ..widgets.save_demo_dialog import SaveDemoDialog

        self.save_dialog = SaveDemoDialog(w, draft, draft.unchecked_numbers())
        self.save_dialog.accepted.connect(lambda d=draft: self._save(d))
        self.save_dialog.finished.connect(self._dialog_closed)
        self.save_dialog.open()

    def _dialog_closed(self, _result=None) -> None:
        dialog, self.save_dialog = self.save_dialog, None
        if dialog is not None:
            dialog.deleteLater()

    def _save(self, draft: DemoDraft) -> None:  # under the dialog's title, in a worker
        dialog = self.save_dialog
        draft.title, draft.description = dialog.title(), dialog.description()
        library = self._demos.library
        self._validating = workers.start(
            lambda: library.save(draft, validate=False), returned=self._written,
            errored=lambda exc: self._failed("The demo was not saved", exc))
        self._update()

    def _written(self, entry) -> None:
        self._validating = None
        self._end(f"Saved “{entry.title}” in your demos (Demos menu).")
        self.saved.emit(entry)

    def _failed(self, title: str, exc: BaseException) -> None:
        self._validating = None
        self._update()
        self._window.report_error(title, exc)

    def _end(self, message: str) -> None:
        self.draft = None
        self._before, self._redo = [], []
        if self.bar is not None:
            self.bar.setVisible(False)
        self._window.modes.leave("recording")
        self._update()
        self._window.show_message(message)
        self.recorded.emit(0)

    # -- the window --------------------------------------------------------------------------
    def _update(self) -> None:
        on = self.draft is not None
        self.actionRecord.setEnabled(not on)
        for act in (self.actionSave, self.actionDiscard, self.actionNote, self.actionEdit):
            act.setEnabled(on and self._validating is None)
        self._window.actions.update()
        if on:
            n = self.step_count
            what = (f"step {n}: {self.draft.steps[-1].text}" if n
                    else "the start (its caption is the demo's description)")
            self.status.setText(f"<b style='color:#c0392b'>● Recording</b> — "
                                f"{plural(n, 'step')}; caption of {what}")


def _is_move(command) -> bool:
    return isinstance(command, EditData) and isinstance(command.edit, MovePoints)


def _command_of(step):
    """The command a draft step carries out (None for a note or a non-command action)."""
    from ...core.commands import from_dict

    if "command" in step.data:
        return from_dict(step.data["command"])
    action = step.data.get("action")
    if action in ("step", "step_update", "step_epoch", "run_to_end", "reset"):
        return Run(action)
    return None
