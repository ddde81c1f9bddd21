"""The commands: every user intent as a small, serialisable value (no Qt).

A gesture, a menu entry, a key, a demo step and a recorded demo all say what
they want as a :class:`Command`, with ``from_dict(c.to_dict()) == c``; the
window, the demo player, the recorder and the notebook API carry them out
through one bus (:mod:`perceptron_gui.ui.commands`).

The run actions carry the workspace's names, which are the demo format's
(``step`` examines one sample); the window's step actions map onto them
(``step_sample`` -> ``step``, ``step`` -> ``step_update``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

import numpy as np

from . import class_edits
from . import dataset as ds
from .registry import Registry
from .values import check_integer
from .viewstate import check_rect

__all__ = ["Command", "EditData", "Run", "Seek", "SetLearner", "SetParams", "SetLayers",
           "SetViewRect", "ShowViews", "SampleModel", "SetWeights", "Restore", "COMMANDS",
           "register", "unregister", "RUN_ACTIONS", "EDIT_KINDS", "from_dict"]

#: Each step action as the window's menus name it.
_RUN_TEXTS = {"step": "Step one sample", "step_update": "Step to the next update",
              "step_epoch": "Step to the end of the epoch", "step_back": "Step back",
              "reset": "Reset to the start", "run_to_end": "Run to the end"}
#: The step actions (the workspace's methods of the same names).
RUN_ACTIONS = tuple(_RUN_TEXTS)

#: Each data edit by its name in a command's dictionary.
EDIT_KINDS: dict[str, type] = {
    "add": ds.AddPoints,
    "insert": ds.InsertPoints,
    "delete": ds.DeletePoints,
    "move": ds.MovePoints,
    "relabel": ds.Relabel,
    "flip": ds.FlipLabels,
    "clear": ds.Clear,
    "replace": ds.ReplaceAll,
    "add_class": class_edits.AddClass,
    "rename_class": class_edits.RenameClass,
    "name_classes": class_edits.SetClassNames,
    "remove_class": class_edits.RemoveClass,
}
_EDIT_NAMES = {kind: name for name, kind in EDIT_KINDS.items()}


def _json(value):
    return [_json(v) for v in value] if isinstance(value, tuple) else value


class Command:
    """Base of the commands: a frozen dataclass with a :attr:`name` (its dictionary's).

    Tuples become JSON lists; subclasses override :meth:`_args` /
    :meth:`from_args` when their fields are not plain JSON otherwise, and
    :meth:`inverse` when they can be undone.
    """

    name: ClassVar[str] = ""

    def to_dict(self) -> dict:
        """``{"command": name, **arguments}``, JSON-ready (lists, numbers, strings)."""
        return {"command": self.name, **self._args()}

    def _args(self) -> dict:
        return {f.name: _json(getattr(self, f.name)) for f in fields(self)}  # type: ignore[arg-type]

    @classmethod
    def from_args(cls, args: dict) -> Command:
        return cls(**args)

    def execute(self, workspace) -> None:
        """Carry the command out on ``workspace`` (and its ``view_state``), without a window."""
        raise NotImplementedError

    def inverse(self, workspace) -> Command | None:
        """The command that undoes this one, asked before it is carried out (None: not undoable)."""
        return None

    def merge(self, later: Command) -> Command | None:
        """This command and ``later`` as one undo step, or None when they do not merge."""
        return None

    @property
    def text(self) -> str:
        """A short description for people (``"Move 3 points"``, ``"Step to next update"``)."""
        return self.name


#: Every command class by its name (``"edit"``, ``"run"`` ...): :func:`register` adds one.
COMMANDS: Registry[type[Command]] = Registry.of_subclasses("command", Command)
#: Make a command class known by its :attr:`~Command.name` (a decorator): TypeError
#: for a class that is not a :class:`Command`, ValueError for a name empty or taken.
register = COMMANDS.register
#: Forget the command class registered under a name (KeyError: none); returns it.
unregister = COMMANDS.unregister


def from_dict(data: dict) -> Command:
    """The command a :meth:`Command.to_dict` dictionary describes (ValueError: invalid)."""
    if not isinstance(data, dict) or not isinstance(data.get("command"), str):
        raise ValueError(f"a command is an object with a 'command' name; got {data!r}")
    name = data["command"]
    if name not in COMMANDS:
        raise ValueError(f"unknown command {name!r}; expected one of {', '.join(COMMANDS)}")
    args = {k: v for k, v in data.items() if k != "command"}
    try:
        return COMMANDS[name].from_args(args)
    except TypeError as exc:  # a missing or unknown argument
        raise ValueError(f"command {name!r}: {exc}") from None


def _sorted_pairs(command: Command, field: str, what: str) -> tuple:
    """Set ``field`` of ``command`` (a dict or pairs) to its ``(name, value)`` pairs, sorted."""
    value = getattr(command, field)
    items = value.items() if isinstance(value, dict) else value
    pairs = tuple(sorted(((str(k), v) for k, v in items), key=lambda kv: kv[0]))
    if not pairs:
        raise ValueError(f"{command.name} needs at least one {what}")
    object.__setattr__(command, field, pairs)
    return pairs


def _points(X: np.ndarray) -> list:
    return [[float(x), float(y)] for x, y in X.tolist()]


#: The array fields of the edits, as JSON lists.
_AS_JSON = {"indices": lambda a: [int(i) for i in a], "X": _points,
            "y": lambda a: [int(v) for v in a]}


@register
@dataclass(frozen=True, eq=False)
class EditData(Command):
    """A data edit: ``{"command": "edit", "edit": "move", "indices": [3], "X": [[1.0, 2.0]]}``."""

    edit: ds.Edit
    name: ClassVar[str] = "edit"

    def __post_init__(self):
        if type(self.edit) not in _EDIT_NAMES:
            raise ValueError(f"EditData takes one of the data set's edits; got {self.edit!r}")

    def __eq__(self, other) -> bool:
        if not isinstance(other, EditData):
            return NotImplemented
        return self.edit == other.edit

    __hash__ = None  # type: ignore[assignment]

    def _args(self) -> dict:
        out: dict = {"edit": _EDIT_NAMES[type(self.edit)]}
        for f in fields(self.edit):
            value = getattr(self.edit, f.name)
            if f.name in _AS_JSON:
                out[f.name] = _AS_JSON[f.name](value)
            elif f.init and value not in (None, ""):  # an index, a description, names
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_args(cls, args: dict) -> EditData:
        args = dict(args)
        kind = args.pop("edit", None)
        if kind not in EDIT_KINDS:
            raise ValueError(f"unknown edit {kind!r}; expected one of {', '.join(EDIT_KINDS)}")
        edit_type = EDIT_KINDS[kind]
        if edit_type is ds.ReplaceAll:
            X = np.asarray(args.pop("X"), dtype=float).reshape(-1, 2)
            return cls(ds.ReplaceAll(X, args.pop("y"), **args))
        return cls(edit_type(**args))

    def _applied(self, dataset: ds.Dataset) -> tuple:
        """``(result, inverse edit)`` of the edit on ``dataset``, kept until :meth:`execute`."""
        kept = self.__dict__.get("_kept")
        if kept is None or kept[0] is not dataset:
            kept = (dataset, *self.edit.apply(dataset))
            object.__setattr__(self, "_kept", kept)
        return kept[1:]

    def inverse(self, workspace) -> Restore:
        """The inverse edit, with the run's start and step from before (ValueError: invalid)."""
        return Restore(self._applied(workspace.dataset)[1], workspace.start, workspace.step_count)

    def execute(self, workspace) -> None:
        kept = self.__dict__.pop("_kept", None)
        if kept is not None and kept[0] is workspace.dataset:  # applied by inverse() already
            workspace.set_dataset(kept[1], start=None if self.edit.replaces_data else ...)
        else:
            workspace.apply_edit(self.edit)

    def merge(self, later: Command) -> EditData | None:
        merged = self.edit.merge(later.edit) if isinstance(later, EditData) else None
        return None if merged is None else EditData(merged)

    @property
    def text(self) -> str:
        return self.edit.text


@register
@dataclass(frozen=True)
class Run(Command):
    """A step action: one of :data:`RUN_ACTIONS` (``step`` examines one sample)."""

    action: str
    name: ClassVar[str] = "run"

    def __post_init__(self):
        if self.action not in RUN_ACTIONS:
            raise ValueError(f"unknown step action {self.action!r}; expected one of "
                             f"{', '.join(RUN_ACTIONS)}")

    def execute(self, workspace) -> None:
        getattr(workspace, self.action)()

    @property
    def text(self) -> str:
        return _RUN_TEXTS[self.action]


@register
@dataclass(frozen=True)
class Seek(Command):
    """Put the run's cursor at step ``step`` (0: the start)."""

    step: int
    name: ClassVar[str] = "seek"

    def __post_init__(self):
        step = check_integer(self.step, "seek takes an integer step >= 0")
        object.__setattr__(self, "step", step)

    def execute(self, workspace) -> None:
        workspace.seek(self.step)

    @property
    def text(self) -> str:
        return f"Go to step {self.step}"


@register
@dataclass(frozen=True)
class SetLearner(Command):
    """Switch to the learner ``learner`` (a key of the learner registry)."""

    learner: str
    name: ClassVar[str] = "set_learner"

    def __post_init__(self):
        if not isinstance(self.learner, str) or not self.learner:
            raise ValueError(f"set_learner takes a learner's name; got {self.learner!r}")

    def execute(self, workspace) -> None:
        workspace.set_learner(self.learner)

    @property
    def text(self) -> str:
        return f"Learner {self.learner}"


@register
@dataclass(frozen=True)
class SetParams(Command):
    """Set parameters ``values`` of ``learner`` (None: the learner in use).

    ``values`` is kept as a sorted tuple of ``(name, value)`` pairs, so the
    command is immutable.
    """

    values: tuple
    learner: str | None = None
    name: ClassVar[str] = "set_params"

    def __post_init__(self):
        _sorted_pairs(self, "values", "parameter")

    @property
    def params(self) -> dict:
        """The parameters as ``{name: value}``."""
        return dict(self.values)

    def _args(self) -> dict:
        out: dict = {"values": self.params}
        if self.learner is not None:
            out["learner"] = self.learner
        return out

    def execute(self, workspace) -> None:
        workspace.set_params(learner=self.learner, **self.params)

    @property
    def text(self) -> str:
        return "Set " + ", ".join(f"{k} = {v}" for k, v in self.values)


@register
@dataclass(frozen=True)
class SetLayers(Command):
    """Switch canvas layers on or off: ``layers`` as sorted ``(name, on)`` pairs."""

    layers: tuple
    name: ClassVar[str] = "set_layers"

    def __post_init__(self):
        for key, on in _sorted_pairs(self, "layers", "layer"):
            if not isinstance(on, bool):
                raise ValueError(f"layer {key!r}: expected true or false, got {on!r}")

    @property
    def switches(self) -> dict:
        """The switches as ``{name: on}``."""
        return dict(self.layers)

    def _args(self) -> dict:
        return {"layers": self.switches}

    def execute(self, workspace) -> None:
        workspace.view_state.set_layers(**self.switches)

    @property
    def text(self) -> str:
        return ", ".join(f"{'show' if on else 'hide'} {k}" for k, on in self.layers).capitalize()


@register
@dataclass(frozen=True)
class SetViewRect(Command):
    """Show the data rectangle ``rect = (x_min, x_max, y_min, y_max)``; None: fit the data."""

    rect: tuple | None = None
    name: ClassVar[str] = "set_view_rect"

    def __post_init__(self):
        if self.rect is not None:
            object.__setattr__(self, "rect", check_rect(self.rect))

    def execute(self, workspace) -> None:
        workspace.view_state.set_rect(self.rect)

    @property
    def text(self) -> str:
        return "Fit the view" if self.rect is None else "Show " + ", ".join(
            f"{v:g}" for v in self.rect)


@register
@dataclass(frozen=True)
class ShowViews(Command):
    """Show (True) or hide (False) the views beside the canvas."""

    shown: bool
    name: ClassVar[str] = "show_views"

    def __post_init__(self):
        if not isinstance(self.shown, bool):
            raise ValueError(f"show_views takes true or false; got {self.shown!r}")

    def execute(self, workspace) -> None:
        workspace.view_state.set_views_shown(self.shown)

    @property
    def text(self) -> str:
        return "Show the views" if self.shown else "Hide the views"


@register
@dataclass(frozen=True)
class SampleModel(Command):
    """Replace the data by ``n`` points drawn from a Gaussian model (seeded).

    The model is stored by its axes as nested lists, so the command is plain
    JSON and the same command draws the same points.
    """

    means: tuple
    angles: tuple
    scales: tuple
    priors: tuple
    n: int
    seed: int
    name: ClassVar[str] = "sample_model"

    def __post_init__(self):
        model = self.model()  # ValueError for a model that is not one
        for name in ("means", "angles", "scales", "priors"):
            value = getattr(model, name)
            object.__setattr__(self, name, tuple(map(tuple, value)) if value.ndim == 2
                               else tuple(float(v) for v in value))
        object.__setattr__(self, "seed", check_integer(self.seed, "seed must be an integer >= 0"))
        n = check_integer(self.n, "sampling takes an integer n of at least 2 points", 2)
        object.__setattr__(self, "n", ds.check_size(n))  # before a sample of that size is drawn

    @classmethod
    def of(cls, model, n: int, seed: int) -> SampleModel:
        """The command that samples ``n`` points from ``model`` with ``seed``."""
        return cls(model.means, model.angles, model.scales, model.priors, n, seed)

    def model(self):
        """The :class:`~.learners.gaussian_model.GaussianModel` sampled."""
        from .learners.gaussian_model import GaussianModel

        return GaussianModel(self.means, self.angles, self.scales, self.priors)

    def edit(self) -> ds.ReplaceAll:
        """The data edit: all points replaced by the sample."""
        X, y = self.model().sample(self.n, self.seed)
        return ds.ReplaceAll(X, y, description=self.text)

    def execute(self, workspace) -> None:
        workspace.apply_edit(self.edit())

    @property
    def text(self) -> str:
        return f"Sample {self.n:,} points from the model (seed {self.seed})"


@register
@dataclass(frozen=True)
class SetWeights(Command):
    """Set ``w`` and ``b`` by hand: the run restarts from ``w₀ = w, b₀ = b``.

    ``w`` is two numbers, or None for ``w = 0, b = 0`` (so is ``w = (0, 0),
    b = 0``); checked when made (finite, at most :data:`~.document.HAND_W_MAX`).
    One drag of the line is one command, at the release.
    """

    w: tuple | None
    b: float = 0.0
    name: ClassVar[str] = "set_weights"

    def __post_init__(self):
        from .document import check_start

        start = check_start(self.w, self.b)
        w = None if start is None else (float(start[0][0]), float(start[0][1]))
        object.__setattr__(self, "w", w)
        object.__setattr__(self, "b", 0.0 if start is None else float(start[1]))

    def execute(self, workspace) -> None:
        workspace.set_start(self.w, self.b)

    def inverse(self, workspace) -> Restore:
        """The start and step from before (before the previews of the drag that made it)."""
        start, step = workspace.committed_start
        return Restore(None, start, step)

    @property
    def text(self) -> str:
        if self.w is None:
            return "Start from w = 0"
        from .text import fmt, fmt_vec

        return f"Set w = {fmt_vec(self.w)}, b = {fmt(self.b)} by hand"


@dataclass(frozen=True, eq=False)
class Restore(Command):
    """An undo (unregistered): the data edited back by ``edit`` (None: kept), then the
    run's ``start`` and ``step`` (the run is deterministic: the same state)."""

    edit: ds.Edit | None
    start: tuple | None
    step: int = 0

    def execute(self, workspace) -> None:
        if self.edit is not None:
            workspace.apply_edit(self.edit, start=self.start)
        else:
            workspace.set_start(*(self.start if self.start is not None else (None, 0.0)))
        if self.step:
            workspace.seek(self.step)
