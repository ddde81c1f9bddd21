"""The window's side of the commands: the undo commands, and the door's routing.

Undo commands each wrap one core edit of the data set.
The command only calls :meth:`Workspace.apply_edit`, which returns the inverse
edit; undo applies that inverse (Orange Paint Data's pattern).  An edit the
window already validated arrives with its result (:class:`Applied`), and its
first redo installs that result instead of applying the edit a second time.  Consecutive
moves of the same points within one drag merge into a single undo step.

:func:`carry_out` routes a :mod:`~perceptron_gui.core.commands` command to the
part of the window that does it (``MainWindow.dispatch`` calls it).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6 import QtGui

from ..core.commands import (
    Command,
    EditData,
    Run,
    SampleModel,
    Seek,
    SetLayers,
    SetLearner,
    SetParams,
    SetViewRect,
    SetWeights,
    ShowViews,
)
from ..core.dataset import Dataset, Edit, MovePoints
from .playback import Playback

__all__ = ["Applied", "EditCommand", "StartCommand", "carry_out", "route_step_actions"]

_MOVE_ID = 1001


@dataclass(frozen=True)
class Applied:
    """An edit applied once, to validate it: the data it applied to, the result, the inverse."""

    base: Dataset
    result: Dataset
    inverse: Edit

    @classmethod
    def of(cls, edit: Edit, dataset: Dataset) -> Applied:
        """Apply ``edit`` to ``dataset`` (ValueError when it is invalid)."""
        result, inverse = edit.apply(dataset)
        return cls(dataset, result, inverse)


class EditCommand(QtGui.QUndoCommand):
    """A data-set edit on the undo stack.

    Parameters
    ----------
    workspace : Workspace
        The workspace the edit applies to.
    edit : Edit
        The core edit (already validated against the current data set).
    drag : int or None
        For a move made by a drag, the drag's serial number: moves with the
        same serial merge, so one drag is one undo step.
    applied : Applied, optional
        The edit's result computed by the validation: the first redo installs
        it when the data are still ``applied.base``.
    """

    def __init__(self, workspace, edit: Edit, drag: int | None = None,
                 applied: Applied | None = None):
        super().__init__(edit.text)
        self._workspace = workspace
        self._edit = edit
        self._inverse: Edit | None = None
        self._drag = drag if isinstance(edit, MovePoints) else None
        self._step_before: int | None = None
        self._start_before = None  # the start set by hand before the edit (an undo's)
        self._applied = applied

    @property
    def drag(self) -> int | None:
        """The serial number of the drag that made this move (None: not a drag)."""
        return self._drag

    @property
    def edit(self) -> Edit:
        """The (possibly merged) edit this command applies."""
        return self._edit

    @property
    def command(self) -> EditData:
        """The edit as a command of the vocabulary (what a recorder or a script replays)."""
        return EditData(self._edit)

    def redo(self) -> None:
        if self._step_before is None:
            self._step_before = self._workspace.step_count
            self._start_before = self._workspace.start
        applied, self._applied = self._applied, None
        if applied is not None and self._workspace.dataset is applied.base:
            self._workspace.set_dataset(applied.result, start=None if self._edit.replaces_data
                                        else ...)
            self._inverse = applied.inverse
        else:
            self._inverse = self._workspace.apply_edit(self._edit)

    def undo(self) -> None:
        self._workspace.apply_edit(self._inverse, start=self._start_before)
        # the run is deterministic: the same data and step give back the same state
        if self._step_before:
            self._workspace.seek(self._step_before)

    def id(self) -> int:
        return _MOVE_ID if self._drag is not None else -1

    def mergeWith(self, other: QtGui.QUndoCommand) -> bool:
        if not isinstance(other, EditCommand) or other.drag is None or other.drag != self._drag:
            return False
        merged = self._edit.merge(other.edit)
        if merged is None:
            return False
        # keep our inverse: undo restores the positions from before the drag
        self._edit = merged
        self.setText(merged.text)
        return True


class StartCommand(QtGui.QUndoCommand):
    """Setting ``w`` by hand (:class:`~perceptron_gui.core.commands.SetWeights`) on the undo stack.

    Made when the command is pushed: it keeps the start and the step from
    before (``workspace.committed_start``: before the previews of the drag
    that made it), so undo gives back that start and that step of its run.
    """

    def __init__(self, workspace, command: SetWeights):
        super().__init__(command.text)
        self._workspace = workspace
        self._command = command
        self._before, self._step_before = workspace.committed_start

    @property
    def command(self) -> SetWeights:
        """The command this undo step carries out."""
        return self._command

    def redo(self) -> None:
        self._workspace.set_start(self._command.w, self._command.b)

    def undo(self) -> None:
        before = self._before
        self._workspace.set_start(*(before if before is not None else (None, 0.0)))
        if self._step_before:
            self._workspace.seek(self._step_before)


# ------------------------------------------------------------------------- the door

#: The playback's method for each step action of the commands (``step`` is one sample).
PLAYBACK_SLOTS = {"step": Playback.step_sample, "step_update": Playback.step_update,
                  "step_epoch": Playback.step_epoch, "step_back": Playback.step_back,
                  "reset": Playback.reset, "run_to_end": Playback.run_to_end}
#: The window's step actions by id, and the step action of each.
STEP_ACTIONS = {"step_sample": "step", "step": "step_update", "step_epoch": "step_epoch",
                "step_back": "step_back", "reset": "reset", "run_to_end": "run_to_end"}


def carry_out(window, command: Command) -> bool:
    """Do ``command`` in ``window`` (:meth:`MainWindow.dispatch`'s routing); True when done.

    A data edit goes through ``window.push_edit`` (the undo stack and the
    edit guards; False when refused), a step action through the playback
    (which stops a play first), a seek stops the playback and moves the
    cursor, a learner or parameter change is requested from the workspace
    (built off the UI thread on large data), and the view's commands write
    the view state, which the canvas, the View menu and the views follow.
    Any other :class:`~perceptron_gui.core.commands.Command` is carried out by
    its own ``execute(window.workspace)``.

    Raises
    ------
    ValueError
        For a command the workspace or the view state refuses (an unknown
        learner or layer, an invalid parameter value); nothing changed; and
        for an object that is not a command.
    """
    ws = window.workspace
    if isinstance(command, EditData):
        return window.push_edit(command.edit)
    if isinstance(command, SampleModel):
        return window.push_edit(command.edit())
    if isinstance(command, SetWeights):
        if not all(guard(command) for guard in window.edit_guards):
            return False  # a demo's or a game's own w, say: the guard said why
        window.playback.stop()
        window.undo_stack.push(StartCommand(ws, command))
        return True
    if isinstance(command, Run):
        PLAYBACK_SLOTS[command.action](window.playback)
    elif isinstance(command, Seek):
        window.playback.seek(command.step)
    elif isinstance(command, SetLearner):
        ws.request_learner(command.learner)
    elif isinstance(command, SetParams):
        ws.request_params(command.learner, **command.params)
    elif isinstance(command, SetLayers):
        ws.view_state.set_layers(**command.switches)
    elif isinstance(command, SetViewRect):
        if command.rect is None:
            window.canvas.fit_view()  # the view state follows the canvas
        else:
            ws.view_state.set_rect(command.rect)
    elif isinstance(command, ShowViews):
        window.set_views_visible(command.shown)
    elif isinstance(command, Command):
        command.execute(ws)  # a command with no route of its own (one a test defines)
    else:
        raise ValueError(f"not a command: {command!r}")
    return True


def route_step_actions(window) -> None:
    """Let the playback's step actions speak commands: each goes through ``window.dispatch``."""
    for act_id, action in STEP_ACTIONS.items():
        act = window.actions[act_id]
        act.triggered.disconnect()  # the playback's own slot: the command calls it
        act.triggered.connect(lambda _=False, a=action: window.dispatch(Run(a)))
