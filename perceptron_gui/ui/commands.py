"""The command bus: the one way a command is carried out, and the one undo step.

:data:`HANDLERS` maps a command type to ``handler(context, command) -> bool``
(True: done); a type without one is done by :meth:`Context.do`.  A context without
a window (a demo's own steps, a script's calls) uses the commands' ``execute``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

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
from ..core.scale import is_large
from .deferred import YieldingTimer
from .playback import Playback

__all__ = ["HANDLERS", "Context", "EditQueue", "UndoStep", "register_handler",
           "unregister_handler"]

_MERGE_ID = 1001

Handler = Callable[["Context", Command], bool]
#: The handler of each command type that has one (:func:`register_handler`).
HANDLERS: dict[type, Handler] = {}


def register_handler(cls: type, handler: Handler) -> Handler:
    """Carry out commands of ``cls`` (and subclasses) with ``handler``; ValueError if taken."""
    if HANDLERS.get(cls, handler) is not handler:
        raise ValueError(f"{cls.__qualname__} has a handler already; unregister it first")
    HANDLERS[cls] = handler
    return handler


def unregister_handler(cls: type) -> Handler:
    """Forget the handler of ``cls``; returns it (KeyError when it has none)."""
    return HANDLERS.pop(cls)


class UndoStep(QtGui.QUndoCommand):
    """A command and its inverse on an undo stack; steps with the same ``merge`` key merge
    (one drag, one step); ``done``: carried out already, the push's redo does nothing."""

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
    """What handlers carry commands out with: the workspace and, in the window, the window."""

    workspace: object
    window: object = None
    edits: EditQueue | None = field(default=None, init=False, repr=False)

    def __post_init__(self):
        if self.window is not None:
            object.__setattr__(self, "edits", EditQueue(self))

    @property
    def undo_stack(self) -> QtGui.QUndoStack | None:
        return None if self.window is None else self.window.undo_stack

    @property
    def playback(self) -> Playback | None:
        return None if self.window is None else self.window.playback

    def carry_out(self, command: Command) -> bool:
        """Do ``command`` with its type's handler (or :meth:`do`); whether done (ValueError:
        refused, nothing changed)."""
        if not isinstance(command, Command):
            raise ValueError(f"not a command: {command!r}")
        handler = next((HANDLERS[t] for t in type(command).__mro__ if t in HANDLERS), None)
        return (handler or Context.do)(self, command)

    def do(self, command: Command, *, change=None, merge: int | None = None,
           before: Callable[[], object] | None = None) -> bool:
        """Carry out ``command``, undoable when it has an inverse and there is an undo stack:
        the edit guards are asked about ``change`` (default: the command), then ``before``
        runs and the command is pushed with its inverse made right before it."""
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
    """A window's data edits on their way to its undo stack: a drag's move on large data
    waits for a ``YieldingTimer`` (taking turns with its redraws), replaced by a newer one."""

    def __init__(self, context: Context):
        super().__init__(context.window)
        self._window = context.window
        self._context = context
        self.drag = 0  # the serial number of the current (or next) drag
        self._pending = None
        self._timer = YieldingTimer(self, self.apply_pending, name="dragMoveTimer")

    def push(self, edit) -> bool:
        """Validate ``edit`` and push it; False (said in the status bar) when invalid."""
        w = self._window
        if isinstance(edit, MovePoints) and w.dragging and is_large(w.workspace.dataset.n):
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

#: The playback's method for each step action of the commands (``step`` is one sample).
PLAYBACK_SLOTS = {"step": Playback.step_sample, "step_update": Playback.step_update,
                  "step_epoch": Playback.step_epoch, "step_back": Playback.step_back,
                  "reset": Playback.reset, "run_to_end": Playback.run_to_end}

#: The window's own route of each built-in command type (False: refused): an edit through
#: the edit queue, w set by hand with the run stopped, a step action or a seek through the
#: playback, a switch built off the UI thread on large data, the view fitted by the canvas.
_ROUTES = {
    EditData: lambda ctx, c: ctx.edits.push(c.edit),
    SampleModel: lambda ctx, c: ctx.edits.push(c.edit()),
    SetWeights: lambda ctx, c: ctx.do(c, before=ctx.playback.stop),
    Run: lambda ctx, c: PLAYBACK_SLOTS[c.action](ctx.playback),
    Seek: lambda ctx, c: ctx.playback.seek(c.step),
    SetLearner: lambda ctx, c: ctx.workspace.request_learner(c.learner),
    SetParams: lambda ctx, c: ctx.workspace.request_params(c.learner, **c.params),
    SetViewRect: lambda ctx, c: (ctx.window.canvas.fit_view() if c.rect is None
                                 else c.execute(ctx.workspace)),
    ShowViews: lambda ctx, c: ctx.window.set_views_visible(c.shown),
}


def _window_route(ctx: Context, command: Command) -> bool:
    """A built-in command: the window's route for it (without a window, :meth:`Context.do`)."""
    if ctx.window is None:
        return ctx.do(command)
    route = next(_ROUTES[t] for t in type(command).__mro__ if t in _ROUTES)
    return route(ctx, command) is not False


for _cls in _ROUTES:
    register_handler(_cls, _window_route)
