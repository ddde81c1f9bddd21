"""The command bus: the one way a command is carried out, and the one undo step.

:data:`HANDLERS` maps a command type to its handler, ``handler(context,
command) -> bool`` (True: done); :func:`register_handler` adds one.  A command
with no handler of its own is done by :meth:`Context.do`: pushed on the undo
stack with its inverse (:meth:`Command.inverse <perceptron_gui.core.commands.Command.inverse>`)
when it has one and the context has an undo stack, else carried out by its
own ``execute``.  The window (``MainWindow.dispatch``), the demo player, the
recorder and the notebook API all go through :meth:`Context.carry_out`; a
context without a window (a demo's own steps, a script's synchronous calls)
uses the commands' own ``execute`` for the built-in types, which need the
window's undo stack, playback or workers.

:class:`UndoStep` is the only undo command: it wraps a command and its
inverse (redo carries the command out, undo its inverse); consecutive steps
with the same merge key (the moves of one drag) merge into one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6 import QtCore, QtGui

from ..core.commands import (
    Command,
    EditData,
    Run,
    SampleModel,
    Seek,
    SetLearner,
    SetParams,
    SetViewRect,
    SetWeights,
    ShowViews,
)
from ..core.dataset import MovePoints
from .deferred import YieldingTimer
from .playback import Playback

__all__ = ["HANDLERS", "Context", "EditQueue", "UndoStep", "register_handler",
           "unregister_handler", "route_step_actions"]

_MERGE_ID = 1001
#: With more points than this, a drag's moves are applied on a YieldingTimer, only the
#: newest position: each move restarts the run on all the points.
DEFERRED_MOVES_N = 20_000

Handler = Callable[["Context", Command], bool]
#: The handler of each command type that has one (:func:`register_handler`).
HANDLERS: dict[type, Handler] = {}


def register_handler(cls: type, handler: Handler) -> Handler:
    """Carry out commands of type ``cls`` (and its subclasses) with ``handler``; returns it.

    Raises
    ------
    ValueError
        When another handler has ``cls`` already (:func:`unregister_handler` it first).
    """
    if HANDLERS.get(cls, handler) is not handler:
        raise ValueError(f"{cls.__qualname__} has a handler already; unregister it first")
    HANDLERS[cls] = handler
    return handler


def unregister_handler(cls: type) -> Handler:
    """Forget the handler of ``cls``; returns it (KeyError when it has none)."""
    return HANDLERS.pop(cls)


class UndoStep(QtGui.QUndoCommand):
    """A command and its inverse on the undo stack: redo carries out one, undo the other.

    Parameters
    ----------
    workspace : Workspace
        What both carry out on.
    command, inverse : Command
        The change and what undoes it (made from the state before it).
    merge : int or None
        Steps with the same key merge (:meth:`Command.merge`): one drag, one step.
    done : bool
        The command is carried out already: the push's first redo does nothing.
    text : str, optional
        The Edit menu's text (default: the command's).
    """

    def __init__(self, workspace, command: Command, inverse: Command, *,
                 merge: int | None = None, done: bool = False, text: str | None = None):
        super().__init__(command.text if text is None else text)
        self._workspace = workspace
        self.command = command
        self.inverse = inverse
        self.merge = merge
        self._done = done

    def redo(self) -> None:
        if self._done:
            self._done = False
        else:
            self.command.execute(self._workspace)

    def undo(self) -> None:
        self.inverse.execute(self._workspace)

    def id(self) -> int:
        return _MERGE_ID if self.merge is not None else -1

    def mergeWith(self, other: QtGui.QUndoCommand) -> bool:
        if not isinstance(other, UndoStep) or other.merge is None or other.merge != self.merge:
            return False
        merged = self.command.merge(other.command)
        if merged is None:
            return False
        self.command = merged  # our inverse stays: undo gives back the state before the drag
        self.setText(merged.text)
        return True


@dataclass(frozen=True)
class Context:
    """What handlers carry commands out with: the workspace and, in the window, the window.

    ``window`` (a :class:`~.window_api.WindowAPI`) gives the undo stack, the
    playback, the edit guards and the messages; None: the workspace alone.
    """

    workspace: object
    window: object = None

    @property
    def undo_stack(self) -> QtGui.QUndoStack | None:
        return None if self.window is None else self.window.undo_stack

    @property
    def playback(self) -> Playback | None:
        return None if self.window is None else self.window.playback

    def carry_out(self, command: Command) -> bool:
        """Do ``command`` with its type's handler (or :meth:`do`); True when done.

        Raises
        ------
        ValueError
            For a command the workspace or the view state refuses (nothing
            changed), and for an object that is not a command.
        """
        if not isinstance(command, Command):
            raise ValueError(f"not a command: {command!r}")
        handler = next((HANDLERS[t] for t in type(command).__mro__ if t in HANDLERS), None)
        return (handler or Context.do)(self, command)

    def do(self, command: Command, *, change=None, merge: int | None = None,
           before: Callable[[], object] | None = None) -> bool:
        """Carry out ``command``: undoable when it has an inverse and there is an undo stack.

        An undoable command is first asked for its inverse (a ValueError then
        changes nothing), then the edit guards are asked about ``change``
        (default: the command), then ``before`` runs and the command is
        pushed with the inverse made from the state right before it.
        """
        ws, stack = self.workspace, self.undo_stack
        if stack is None or command.inverse(ws) is None:
            command.execute(ws)
            return True
        change = command if change is None else change
        if not all(guard(change) for guard in self.window.edit_guards):
            return False
        if before is not None:
            before()
        stack.push(UndoStep(ws, command, command.inverse(ws), merge=merge))
        return True


class EditQueue(QtCore.QObject):
    """The window's data edits on their way to the undo stack (``window.push_edit``).

    A move of a drag on more than :data:`DEFERRED_MOVES_N` points waits for a
    :class:`~.deferred.YieldingTimer` (taking turns with the redraws it
    causes), replaced by any newer move meanwhile; the moves of one drag
    merge into one undo step.
    """

    def __init__(self, window):
        super().__init__(window)
        self._window = window
        self._context = Context(window.workspace, window)
        self.drag = 0  # the serial number of the current (or next) drag
        self._pending = None
        self._timer = YieldingTimer(self, self.apply_pending, name="dragMoveTimer")

    def push(self, edit) -> bool:
        """Validate ``edit`` and push it; False (said in the status bar) when invalid."""
        w = self._window
        if isinstance(edit, MovePoints) and w.dragging and w.workspace.dataset.n > DEFERRED_MOVES_N:
            self._pending = edit
            if not self._timer.isActive():
                self._timer.start()
            return True
        self.apply_pending()  # the edits in the order they came
        return self._push(edit)

    def _push(self, edit) -> bool:
        try:
            return self._context.do(EditData(edit), change=edit,
                                    merge=self.drag if isinstance(edit, MovePoints) else None)
        except ValueError as exc:
            self._window.report_error(f"Not done: {exc}", dialog=False)
            return False

    def apply_pending(self) -> None:
        """Apply a drag's newest move now, if one waits."""
        self._timer.stop()
        edit, self._pending = self._pending, None
        if edit is not None:
            self._push(edit)

    def end_drag(self) -> None:
        """The drag ended: its last move is applied; the next move starts a new undo step."""
        self.apply_pending()
        self.drag += 1


# ------------------------------------------------------------------ the window's routes

def _in_window(*types):
    """Register the decorated handler for ``types``; without a window, :meth:`Context.do`."""
    def decorate(route):
        def handler(ctx: Context, command: Command) -> bool:
            return ctx.do(command) if ctx.window is None else route(ctx, command)
        for cls in types:
            register_handler(cls, handler)
        return route
    return decorate


@_in_window(EditData)
def _edit(ctx: Context, command: EditData) -> bool:
    """Through the window's edit queue: its guards, the undo stack, a drag's deferral."""
    return ctx.window.push_edit(command.edit)


@_in_window(SampleModel)
def _sample(ctx: Context, command: SampleModel) -> bool:
    return ctx.window.push_edit(command.edit())


@_in_window(SetWeights)
def _weights(ctx: Context, command: SetWeights) -> bool:
    return ctx.do(command, before=ctx.playback.stop)


#: The playback's method for each step action of the commands (``step`` is one sample).
PLAYBACK_SLOTS = {"step": Playback.step_sample, "step_update": Playback.step_update,
                  "step_epoch": Playback.step_epoch, "step_back": Playback.step_back,
                  "reset": Playback.reset, "run_to_end": Playback.run_to_end}
#: The window's step actions by id, and the step action of each.
STEP_ACTIONS = {"step_sample": "step", "step": "step_update", "step_epoch": "step_epoch",
                "step_back": "step_back", "reset": "reset", "run_to_end": "run_to_end"}


@_in_window(Run)
def _run(ctx: Context, command: Run) -> bool:
    """Through the playback (a play stops first; a long run goes in slices)."""
    PLAYBACK_SLOTS[command.action](ctx.playback)
    return True


@_in_window(Seek)
def _seek(ctx: Context, command: Seek) -> bool:
    ctx.playback.seek(command.step)
    return True


@_in_window(SetLearner)
def _learner(ctx: Context, command: SetLearner) -> bool:
    """Requested from the workspace: built off the UI thread on large data."""
    ctx.workspace.request_learner(command.learner)
    return True


@_in_window(SetParams)
def _params(ctx: Context, command: SetParams) -> bool:
    ctx.workspace.request_params(command.learner, **command.params)
    return True


@_in_window(SetViewRect)
def _view_rect(ctx: Context, command: SetViewRect) -> bool:
    """Fitting the view is the canvas's (the view state follows it)."""
    if command.rect is None:
        ctx.window.canvas.fit_view()
    else:
        command.execute(ctx.workspace)
    return True


@_in_window(ShowViews)
def _views(ctx: Context, command: ShowViews) -> bool:
    ctx.window.set_views_visible(command.shown)
    return True


def route_step_actions(window) -> None:
    """Let the playback's step actions speak commands: each goes through ``window.dispatch``."""
    for act_id, action in STEP_ACTIONS.items():
        act = window.actions[act_id]
        act.triggered.disconnect()  # the playback's own slot: the command calls it
        act.triggered.connect(lambda _=False, a=action: window.dispatch(Run(a)))
