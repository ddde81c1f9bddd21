"""One step of a demo file: its actions, and reading and validating it in context.

:func:`parse_step` follows the data, the learner and its parameters through
the steps (:class:`Simulation`), so that a point index out of range or a run
step under a learner that does not step is caught when the file is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..commands import (
    Command,
    EditData,
    Run,
    SampleModel,
    Seek,
    SetLayers,
    SetLearner,
    SetParams,
    SetWeights,
    from_dict,
)
from ..dataset import AddPoints, Dataset, DeletePoints, FlipLabels, MovePoints, Relabel, ReplaceAll
from ..io import files
from ..learners import registry
from ..workspace import Workspace
from .captions import PLACEHOLDERS, unknown_placeholders
from .checks import CHECKS
from .game_steps import GAME_ACTIONS, GAME_COMMANDS, game_command, game_step
from .reader import Reader, describe, join_path

__all__ = ["ACTIONS", "MAX_CAPTION_CHARS", "MAX_DEMO_POINTS", "MAX_RUN_STEPS", "RUN_ACTIONS",
           "DemoStep", "Simulation", "caption_text", "parse_step"]

#: The longest description or caption: 300 characters of words fill the caption
#: bar of a 1280 × 800 window at its smallest font (a bar holds lines, not a page).
MAX_CAPTION_CHARS = 300
#: The most points a demo's data hold over all its steps: the start's, plus
#: those each step adds or draws (going back replays the steps, so a demo's
#: data are bounded as a whole, not one step at a time).
MAX_DEMO_POINTS = 2 * files.MAX_POINTS
#: The most run steps a demo's seeks ask for in all (``perceptron-gui render``'s
#: budget for every run step of a demo; 10⁷ steps on 10⁶ points take about 2 s).
MAX_RUN_STEPS = 10_000_000
#: The run actions a step may name (a recorded Run command is written as its action).
RUN_ACTIONS = ("step", "step_update", "step_epoch", "run_to_end", "reset")
#: Actions and their arguments: name -> (required arguments, optional arguments).
#: ``set_param`` also takes any parameter of the learner.
ACTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    **{action: ((), ()) for action in RUN_ACTIONS},
    "set_param": ((), ("learner",)),
    "set_learner": (("learner",), ()),
    "add_point": (("x", "y", "label"), ()),
    "move_point": (("index", "x", "y"), ()),
    "delete": (("index",), ()),
    "relabel": (("index", "label"), ()),
    "flip": (("index",), ()),
    "replace_data": ((), ()),
    "show": (("layer",), ()),
    "hide": (("layer",), ()),
    "note": ((), ()),
    **GAME_ACTIONS,  # the mistake-bound game (game_steps.py)
}
_STEP_FIELDS = ("action", "caption", "checks")
_COMMAND_STEP_FIELDS = ("command", "caption", "checks")


@dataclass(frozen=True)
class DemoStep:
    """One step of a demo.

    ``action`` is one of :data:`ACTIONS`, or ``"command"`` (version 2) with the
    command's dictionary as ``args``; ``command`` is None for a ``note``.
    """

    action: str
    args: dict = field(default_factory=dict)
    caption: str = ""
    checks: dict = field(default_factory=dict)
    command: Command | None = None

    @property
    def text(self) -> str:
        """What the step does, for people ("Step to next update", "Note")."""
        return self.command.text if self.command is not None else "Note"


def caption_text(r: Reader, value, where: str, version: int, empty: bool = False) -> str:
    """A caption (or the description): a string; from version 2 its placeholders are known."""
    text = r.string(value, where, empty=empty, max_chars=MAX_CAPTION_CHARS)
    if version >= 2:
        unknown = unknown_placeholders(text)
        if unknown:
            raise r.fail(where, f"unknown placeholder {{{unknown[0]}}}; expected one of "
                                f"{', '.join('{' + n + '}' for n in PLACEHOLDERS)} (write "
                                "{{ and }} for literal braces)")
    return text


class Simulation:
    """Follows the data, learner and parameters through the steps while loading."""

    def __init__(self, r: Reader, dataset: Dataset, learner: str, params: dict):
        self.r = r
        self.dataset = dataset
        self.points = dataset.n
        self.seeks = 0
        self.probe = Workspace()
        try:
            self.probe.replace(Dataset(), learner, params)
        except ValueError as exc:
            raise r.fail("params", str(exc)) from exc

    @property
    def learner(self) -> str:
        return self.probe.learner_name

    def set_params(self, key: str | None, values: dict, where: str) -> dict:
        """Set ``values`` (:meth:`Reader.params`) on the probe; returns them."""
        key = key or self.learner
        values = self.r.params(key, values, where)
        try:
            self.probe.set_params(learner=key, **values)
        except (TypeError, ValueError) as exc:
            raise self.r.fail(where, str(exc)) from exc
        return values

    def edit(self, edit, where: str) -> None:
        """Apply ``edit`` to the data followed."""
        if self.dataset.n >= files.MAX_POINTS and isinstance(edit, AddPoints):
            raise self.r.fail(where, f"the data would have more than {files.MAX_POINTS:,} "
                                     "points, the limit")
        try:
            new, _ = edit.apply(self.dataset)
        except ValueError as exc:
            raise self.r.fail(where, str(exc)) from exc
        self.replace(new, where, isinstance(edit, ReplaceAll))

    def replace(self, dataset: Dataset, where: str, whole: bool = True) -> None:
        """The data now ``dataset``: all of it new (``whole``) or the points it gained."""
        self.count_points(dataset.n if whole else max(0, dataset.n - self.dataset.n), where)
        self.dataset = dataset

    def count_points(self, n: int, where: str) -> None:
        """Count ``n`` new points of a step toward :data:`MAX_DEMO_POINTS`."""
        self.points += n
        if self.points > MAX_DEMO_POINTS:
            raise self.r.fail(where, f"the demo's data reach {self.points:,} points over its "
                                     f"steps, more than the limit of {MAX_DEMO_POINTS:,}")

    def seek(self, step: int, where: str) -> None:
        """Count a seek to ``step`` toward :data:`MAX_RUN_STEPS`."""
        self.seeks += step
        if self.seeks > MAX_RUN_STEPS:
            raise self.r.fail(where, f"the demo's seeks ask for {self.seeks:,} run steps, "
                                     f"more than the limit of {MAX_RUN_STEPS:,}")


def parse_step(r: Reader, sim: Simulation, raw, where: str, version: int) -> DemoStep:
    step = r.object(raw, where)
    if "command" in step:
        if version < 2:
            raise r.fail(f"{where}.command", "a step written as a command needs version 2")
        if "action" in step:
            raise r.fail(where, "give either 'action' or 'command', not both")
        return _parse_command_step(r, sim, step, where, version)
    if "action" not in step:
        raise r.fail(where, "missing field 'action' (or, from version 2, 'command')")
    action = step["action"]
    if not isinstance(action, str) or action not in ACTIONS:
        raise r.fail(f"{where}.action", f"unknown action {describe(action)}; expected one "
                                        f"of {', '.join(ACTIONS)}")
    if "caption" not in step:
        raise r.fail(where, "missing field 'caption'")
    caption = caption_text(r, step["caption"], f"{where}.caption", version, empty=version >= 2)
    args = {k: v for k, v in step.items() if k not in _STEP_FIELDS}
    required, optional = ACTIONS[action]
    for key in required:
        if key not in args:
            raise r.fail(where, f"missing argument {key!r} of action {action!r}")
    if action not in ("set_param", "replace_data"):
        for key in args:
            if key not in required + optional:
                expected = ", ".join(_STEP_FIELDS + required + optional)
                raise r.fail(join_path(where, key), f"unknown field for action {action!r}; "
                                                f"expected one of {expected}")
    if action in RUN_ACTIONS and not registry.get(sim.learner).caps().steps:
        raise r.fail(f"{where}.action", f"{action!r} needs a perceptron, but the learner "
                                        f"at this point is {sim.learner!r}")
    command: Command | None = None
    if action in RUN_ACTIONS:
        command = Run(action)
    elif action == "set_param":
        key = r.learner(args["learner"], f"{where}.learner") if "learner" in args else None
        values = {k: v for k, v in args.items() if k != "learner"}
        if not values:
            raise r.fail(where, "set_param needs at least one parameter")
        command = SetParams(values, key)
    elif action == "set_learner":
        command = SetLearner(r.learner(args["learner"], f"{where}.learner"))
    elif action == "add_point":
        x, y = (r.number(args[k], f"{where}.{k}") for k in "xy")
        label = r.label(args["label"], f"{where}.label", sim.dataset.classes)
        args = {"x": x, "y": y, "label": label}
        command = EditData(AddPoints([x, y], label))
    elif action == "move_point":
        index = _indices(r, sim, args["index"], f"{where}.index", single=True)[0]
        x, y = (r.number(args[k], f"{where}.{k}") for k in "xy")
        args = {"index": index, "x": x, "y": y}
        command = EditData(MovePoints([index], [x, y]))
    elif action in ("delete", "relabel", "flip"):
        indices = _indices(r, sim, args["index"], f"{where}.index")
        args = {**args, "index": indices[0] if isinstance(args["index"], int) else indices}
        if action == "relabel":
            args["label"] = r.label(args["label"], f"{where}.label", sim.dataset.classes)
            command = EditData(Relabel(indices, args["label"]))
        else:
            command = EditData((DeletePoints if action == "delete" else FlipLabels)(indices))
    elif action == "replace_data":
        command = EditData(ReplaceAll.from_dataset(r.dataset(args, where), "Replace data"))
    elif action in ("show", "hide"):
        many = isinstance(args["layer"], list)
        names = args["layer"] if many else [args["layer"]]
        if not names:
            raise r.fail(f"{where}.layer", "expected a layer name or a non-empty list")
        for i, name in enumerate(names):
            r.layer(name, f"{where}.layer[{i}]" if many else f"{where}.layer")
        command = SetLayers({name: action == "show" for name in names})
    elif action in GAME_ACTIONS:
        command = game_step(r, sim, action, args, where)
    if command is not None:
        command = _simulate(r, sim, command, where)
    checks = _checks(r, step, where)
    return DemoStep(action=action, args=args, caption=caption, checks=checks, command=command)


def _checks(r: Reader, step: dict, where: str) -> dict:
    checks = dict(r.object(step.get("checks", {}), f"{where}.checks"))
    for name, expected in checks.items():
        cw = f"{where}.checks.{name}"
        if name not in CHECKS:
            raise r.fail(cw, f"unknown check; expected one of {', '.join(CHECKS)}")
        CHECKS[name].validate(r, expected, cw)
    return checks


def _parse_command_step(r: Reader, sim: Simulation, step: dict, where: str,
                        version: int) -> DemoStep:
    """A version-2 step written as a command: ``{"command": {"command": "run", ...}}``."""
    r.fields(step, where, _COMMAND_STEP_FIELDS, ("command", "caption"))
    caption = caption_text(r, step["caption"], f"{where}.caption", version, empty=True)
    cw = f"{where}.command"
    raw = r.object(step["command"], cw)
    try:
        command = from_dict(raw)
    except (ValueError, TypeError, KeyError) as exc:
        raise r.fail(cw, str(exc).strip("'\"")) from None
    command = _simulate(r, sim, command, cw)
    checks = _checks(r, step, where)
    if isinstance(command, Run) and command.action in RUN_ACTIONS:
        # the same step as the action of that name (a player runs a long run_to_end in slices)
        return DemoStep(action=command.action, caption=caption, checks=checks, command=command)
    return DemoStep(action="command", args=command.to_dict(), caption=caption, checks=checks,
                    command=command)


def _simulate(r: Reader, sim: Simulation, command: Command, where: str) -> Command:
    """Carry ``command`` out on what ``sim`` follows, as the player will; returns it
    (a :class:`SetParams` with its parameters under their current names)."""
    if isinstance(command, EditData):
        sim.edit(command.edit, where)
    elif isinstance(command, Run):
        if not registry.get(sim.learner).caps().steps:
            raise r.fail(where, f"{command.action!r} needs a learner that steps, but the "
                                f"learner at this point is {sim.learner!r}")
    elif isinstance(command, SetLearner):
        sim.probe.set_learner(r.learner(command.learner, f"{where}.learner"))
    elif isinstance(command, SetParams):
        key = r.learner(command.learner, f"{where}.learner") if command.learner else None
        return SetParams(sim.set_params(key, command.params, where), command.learner)
    elif isinstance(command, SetLayers):
        for name in command.switches:
            r.layer(name, f"{where}.layers")
    elif isinstance(command, SampleModel):
        sim.count_points(command.n, where)  # before the sample is drawn
        sim.dataset = command.edit().apply(sim.dataset)[0]
    elif isinstance(command, Seek):
        sim.seek(command.step, f"{where}.step")
    elif isinstance(command, SetWeights):
        command.execute(sim.probe)
    elif isinstance(command, GAME_COMMANDS):
        game_command(r, sim, command, where)
    return command


def _indices(r: Reader, sim: Simulation, value, where: str, single: bool = False) -> list:
    """Point indices of a step: an integer, or (unless ``single``) a non-empty list of
    distinct integers, each naming a point the data have at this step."""
    many = isinstance(value, list) and not single
    values = value if many else [value]
    if not values:
        raise r.fail(where, "expected an index or a non-empty list of indices")
    where_of = (lambda i: f"{where}[{i}]") if many else (lambda _i: where)
    indices = [r.integer(v, where_of(i), minimum=0) for i, v in enumerate(values)]
    for i, index in enumerate(indices):
        if index >= sim.dataset.n:
            raise r.fail(where_of(i), f"no point {index}: the data have "
                                      f"{sim.dataset.n} points at this step")
        if index in indices[:i]:
            raise r.fail(where_of(i), f"point {index} is named twice")
    return indices
