"""Demo files: where they are, how they are listed, loaded and validated.

The format is specified in ``docs/demo-format.md``.
"""

from __future__ import annotations

import json
import math
import numbers
import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path

from ..commands import Command, EditData, Run, SetLayers, SetLearner, SetParams
from ..dataset import AddPoints, Dataset, DeletePoints, FlipLabels, MovePoints, Relabel, ReplaceAll
from ..io import files
from ..io.workspacefile import FORMAT_TAG as WORKSPACE_FORMAT
from ..learners import registry
from ..learners.params import upgrade_names
from ..learners.registry import DEFAULT_PARAMS, LEARNERS
from ..workspace import Workspace
from .checks import CHECKS
from .reader import DemoError, Reader, UnknownDemoError, describe, join_path

FORMAT = "perceptron-gui-demo"
VERSION = 1
#: The longest title (it is a menu entry and the caption bar's first line).
MAX_TITLE_CHARS = 100
#: The longest description or caption: 300 characters of words fill the caption
#: bar of a 1280 × 800 window at its smallest font (a bar holds lines, not a page).
MAX_CAPTION_CHARS = 300
#: The most steps in a demo (going back replays the steps before the target).
MAX_STEPS = 1_000


#: Actions and their arguments: name -> (required arguments, optional arguments).
#: ``set_param`` also takes any parameter of the learner.
ACTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "step": ((), ()),
    "step_update": ((), ()),
    "step_epoch": ((), ()),
    "run_to_end": ((), ()),
    "reset": ((), ()),
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
}
_RUN_ACTIONS = ("step", "step_update", "step_epoch", "run_to_end", "reset")
_TOP_FIELDS = ("format", "version", "order", "title", "description", "data", "learner",
               "params", "layers", "views", "steps")
#: The most views a demo may name.
MAX_VIEWS = 8
_STEP_FIELDS = ("action", "caption", "checks")


def _find_demo_dir() -> Path:
    """Where the shipped demos are.

    In a source checkout and an editable install (``pip install -e .``) the
    package sits next to ``resources/``, so the demos are
    ``perceptron_gui/../resources/demos``.  A wheel built with
    ``[tool.setuptools.data-files] "share/perceptron-gui/demos" =
    ["resources/demos/*.json"]`` installs them under the environment's data
    prefix, ``<prefix>/share/perceptron-gui/demos``, the second place looked at.
    """
    candidates = [
        Path(__file__).resolve().parents[3] / "resources" / "demos",
        Path(sysconfig.get_path("data")) / "share" / "perceptron-gui" / "demos",
        Path(sys.prefix) / "share" / "perceptron-gui" / "demos",
    ]
    for path in candidates:
        if path.is_dir():
            return path
    return candidates[0]


@dataclass(frozen=True)
class DemoStep:
    """One step of a demo.

    Attributes
    ----------
    action : str
        One of :data:`ACTIONS`.
    args : dict
        The action's arguments (``{}`` for most run actions).
    caption : str
        What the caption bar shows after this step.
    checks : dict
        Named numeric claims of the caption (see :data:`CHECKS`), ``{}`` if none.
    command : Command or None
        What the step does, in the window's command vocabulary
        (:mod:`perceptron_gui.core.commands`); None for a ``note``.
    """

    action: str
    args: dict = field(default_factory=dict)
    caption: str = ""
    checks: dict = field(default_factory=dict)
    command: Command | None = None


@dataclass(frozen=True)
class Demo:
    """A demo as loaded from its file.

    Attributes
    ----------
    name : str
        The file stem, used by ``--demo NAME``.
    title, description : str
        The menu entry and its tooltip (also the caption before the first step).
    dataset : Dataset
        The data at the start.
    learner : str
        Learner key at the start.
    params : dict
        ``{learner: {parameter: value}}`` over the defaults.
    steps : tuple of DemoStep
    layers : dict
        ``{layer: bool}``: canvas layers set at the start.
    views : tuple of str
        The views beside the canvas the demo uses (``"plots"``): the window
        shows them while it plays, in presenter mode too.
    order : int or None
        Position in the menu.
    source : str
        The file it came from (for messages).
    """

    name: str
    title: str
    description: str
    dataset: Dataset
    learner: str
    params: dict
    steps: tuple
    layers: dict = field(default_factory=dict)
    order: int | None = None
    source: str = ""
    views: tuple = ()

    def __len__(self) -> int:
        return len(self.steps)


# --------------------------------------------------------------------------- finding


#: The folder of the shipped demos (``resources/demos``).
DEMO_DIR: Path = _find_demo_dir()


def _demo_files(folder: Path | None = None) -> list[Path]:
    folder = DEMO_DIR if folder is None else Path(folder)
    if not folder.is_dir():
        return []
    return [p for p in folder.glob("*.json") if p.is_file()]


def _order_of(path: Path) -> float:
    """The file's ``order`` field, or +inf when missing or unreadable (listed last)."""
    try:
        value = _read_json(path).get("order")
    except (OSError, ValueError, AttributeError):
        return math.inf
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        return math.inf
    return float(value)


def list_demos(folder: Path | None = None) -> list[str]:
    """Names of the demos (file stems), in menu order: by ``order``, then by name.

    A file too broken to read its ``order`` is listed last, so that choosing it
    shows its error rather than hiding it.
    """
    files = _demo_files(folder)
    return [p.stem for p in sorted(files, key=lambda p: (_order_of(p), p.stem))]


def _resolve(name_or_path, folder: Path | None = None) -> Path:
    if isinstance(name_or_path, Path):
        return name_or_path
    text = str(name_or_path)
    if text.endswith(".json") or "/" in text or "\\" in text:
        return Path(text)
    folder = DEMO_DIR if folder is None else Path(folder)
    path = folder / f"{text}.json"
    if not path.is_file():
        names = list_demos(folder)
        known = ", ".join(names) if names else f"none in {folder}"
        raise UnknownDemoError(f"unknown demo {text!r}; known demos: {known}")
    return path


def load_demo(name_or_path, folder: Path | None = None) -> Demo:
    """Load and validate a demo by name (in :data:`DEMO_DIR`) or by path.

    Parameters
    ----------
    name_or_path : str or Path
        A demo name such as ``"novikoff-proof"``, or the path of a ``.json`` file.
    folder : Path, optional
        Where to look names up (default :data:`DEMO_DIR`).

    Raises
    ------
    UnknownDemoError
        No demo has that name (the message lists the known names).
    DemoError
        The file cannot be read or is malformed (the message names the file and
        the field).
    """
    path = _resolve(name_or_path, folder)
    return parse_demo(_read_text(path), name=path.stem, source=path.name)


def _read_text(path: Path) -> str:
    """The text of a demo file: a regular file (never a FIFO or device), UTF-8.

    Binary files, other encodings and bytes that are not UTF-8 get the same
    messages as workspace files (:func:`perceptron_gui.core.io.files.decode`).
    """
    try:
        with files.open_regular(str(path)) as f:
            data = f.read(files.MAX_FILE_BYTES + 1)
    except files.FormatError as exc:
        raise DemoError(f"{path.name}: {exc}") from None
    except OSError as exc:
        raise DemoError(f"{path.name}: cannot read: {exc.strerror or exc}") from exc
    if len(data) > files.MAX_FILE_BYTES:
        raise DemoError(f"{path.name}: the file is larger than "
                        f"{files.size_text(files.MAX_FILE_BYTES)}, the limit")
    try:
        return files.decode(data)
    except files.FormatError as exc:
        raise DemoError(f"{path.name}: {exc}") from None


def _read_json(path: Path):
    """A demo file's JSON value, for listing (any failure is an OSError or a ValueError)."""
    return files.loads_json(_read_text(path))


def _no_duplicates(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"duplicate key {key!r}")
        obj[key] = value
    return obj


def _no_constants(name):
    raise ValueError(f"{name} is not a number this format accepts")


def parse_demo(text: str, name: str = "demo", source: str | None = None) -> Demo:
    """Validate the text of a demo file and build the :class:`Demo`.

    Parameters
    ----------
    text : str
        The JSON text.
    name : str, default="demo"
        The demo's name (its file stem).
    source : str, optional
        The file name used in messages (default ``name + ".json"``).

    Raises
    ------
    DemoError
        With a message naming ``source`` and the offending field (and, as a
        backstop, for any failure not foreseen, as "internal error").
    """
    source = source or f"{name}.json"
    try:
        return _parse_demo(text, name, source)
    except DemoError:
        raise
    except RecursionError:
        raise DemoError(f"{source}: nested too deeply to read") from None
    except MemoryError:
        raise DemoError(f"{source}: too large to read into memory") from None
    except Exception as exc:
        raise DemoError(f"{source}: internal error while reading the demo "
                        f"({type(exc).__name__}: {exc}); please report this with the file"
                        ) from exc


def _parse_demo(text: str, name: str, source: str) -> Demo:
    r = Reader(source)
    try:
        raw = files.loads_json(text, object_pairs_hook=_no_duplicates,
                               parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise r.fail("", f"invalid JSON at line {exc.lineno}, column {exc.colno}: "
                         f"{exc.msg}") from exc
    except MemoryError:
        raise r.fail("", "invalid JSON: too large or nested too deeply to read") from None
    except ValueError as exc:  # FormatError from loads_json, or a hook's complaint
        raise r.fail("", str(exc) if isinstance(exc, files.FormatError)
                     else f"invalid JSON: {exc}") from None
    top = r.object(raw, "top level")
    if top.get("format") == WORKSPACE_FORMAT:
        raise DemoError(f"{source}: a workspace file, not a demo: open it with File ▸ "
                        "Open, or on the command line without --demo")
    r.fields(top, "", _TOP_FIELDS, ("format", "version", "title", "description", "data",
                                    "learner", "steps"))
    if top["format"] != FORMAT:
        raise r.fail("format", f"expected {FORMAT!r}, got {describe(top['format'])}")
    version = r.integer(top["version"], "version", minimum=1)
    if version != VERSION:
        raise r.fail("version", f"version {version} is not supported (this program reads "
                                f"version {VERSION})")
    title = r.string(top["title"], "title", max_chars=MAX_TITLE_CHARS)
    description = r.string(top["description"], "description", empty=True,
                           max_chars=MAX_CAPTION_CHARS)
    order = r.integer(top["order"], "order") if "order" in top else None
    dataset = r.dataset(r.object(top["data"], "data"), "data")
    learner = r.learner(top["learner"], "learner")
    params: dict = {}
    for key, values in r.object(top.get("params", {}), "params").items():
        r.learner(key, f"params.{key}")
        given = dict(r.object(values, f"params.{key}"))
        try:
            params[key], _former = upgrade_names(given)
        except ValueError as exc:
            raise r.fail(f"params.{key}", str(exc)) from None
        for pname in params[key]:
            if pname not in DEFAULT_PARAMS[key]:
                raise r.fail(f"params.{key}.{pname}",
                             f"unknown parameter of {LEARNERS[key]}; expected one of "
                             f"{', '.join(DEFAULT_PARAMS[key])}")
    layers = {}
    for key, value in r.object(top.get("layers", {}), "layers").items():
        r.layer(key, f"layers.{key}")
        layers[key] = r.boolean(value, f"layers.{key}")

    views = _views(r, top.get("views", []))

    sim = _Simulation(r, dataset, learner, params)
    steps_raw = top["steps"]
    if not isinstance(steps_raw, list) or not steps_raw:
        raise r.fail("steps", f"expected a non-empty list of steps, got {describe(steps_raw)}")
    if len(steps_raw) > MAX_STEPS:
        raise r.fail("steps", f"{len(steps_raw):,} steps are more than the limit of "
                              f"{MAX_STEPS:,}")
    steps = tuple(_parse_step(r, sim, s, f"steps[{i}]") for i, s in enumerate(steps_raw))
    return Demo(name=name, title=title, description=description, dataset=dataset,
                learner=learner, params=params, steps=steps, layers=layers, order=order,
                source=source, views=views)


def _views(r, raw) -> tuple:
    """The ``views`` field: a list of distinct view names (``"plots"``)."""
    if not isinstance(raw, list):
        raise r.fail("views", f"expected a list of view names, got {describe(raw)}")
    if len(raw) > MAX_VIEWS:
        raise r.fail("views", f"{len(raw)} views are more than the limit of {MAX_VIEWS}")
    names = tuple(r.string(v, f"views[{i}]", max_chars=40) for i, v in enumerate(raw))
    for i, name in enumerate(names):
        if not name.isidentifier():
            raise r.fail(f"views[{i}]", f"a view name is a word such as 'plots'; got {name!r}")
        if name in names[:i]:
            raise r.fail(f"views[{i}]", f"{name!r} is named twice")
    return names


class _Simulation:
    """Follows the data, learner and parameters through the steps while loading.

    Catches what only shows in context: a point index out of range, an invalid
    parameter value, a run step while the learner is LDA.
    """

    def __init__(self, r: Reader, dataset: Dataset, learner: str, params: dict):
        self.r = r
        self.dataset = dataset
        self.probe = Workspace()
        try:
            self.probe.replace(Dataset(), learner, params)
        except ValueError as exc:
            raise r.fail("params", str(exc)) from exc

    @property
    def learner(self) -> str:
        return self.probe.learner_name

    def set_params(self, key: str | None, values: dict, where: str) -> None:
        key = key or self.learner
        for name in values:
            if name not in DEFAULT_PARAMS[key]:
                raise self.r.fail(join_path(where, name),
                                  f"unknown parameter of {LEARNERS[key]}; expected one of "
                                  f"{', '.join(DEFAULT_PARAMS[key])}")
        try:
            self.probe.set_params(learner=key, **values)
        except (TypeError, ValueError) as exc:
            raise self.r.fail(where, str(exc)) from exc

    def edit(self, edit, where: str) -> EditData:
        """Apply ``edit`` to the data followed; returns its command."""
        if self.dataset.n >= files.MAX_POINTS and isinstance(edit, AddPoints):
            raise self.r.fail(where, f"the data would have more than {files.MAX_POINTS:,} "
                                     "points, the limit")
        try:
            self.dataset, _ = edit.apply(self.dataset)
        except ValueError as exc:
            raise self.r.fail(where, str(exc)) from exc
        return EditData(edit)


def _parse_step(r: Reader, sim: _Simulation, raw, where: str) -> DemoStep:
    step = r.object(raw, where)
    if "action" not in step:
        raise r.fail(where, "missing field 'action'")
    action = step["action"]
    if not isinstance(action, str) or action not in ACTIONS:
        raise r.fail(f"{where}.action", f"unknown action {describe(action)}; expected one "
                                        f"of {', '.join(ACTIONS)}")
    if "caption" not in step:
        raise r.fail(where, "missing field 'caption'")
    caption = r.string(step["caption"], f"{where}.caption", max_chars=MAX_CAPTION_CHARS)
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
    if action in _RUN_ACTIONS and not registry.get(sim.learner).steps:
        raise r.fail(f"{where}.action", f"{action!r} needs a perceptron, but the learner "
                                        f"at this point is {sim.learner!r}")
    command: Command | None = None
    if action in _RUN_ACTIONS:
        command = Run(action)
    elif action == "set_param":
        key = r.learner(args["learner"], f"{where}.learner") if "learner" in args else None
        try:
            values, _former = upgrade_names({k: v for k, v in args.items() if k != "learner"})
        except ValueError as exc:
            raise r.fail(where, str(exc)) from None
        if not values:
            raise r.fail(where, "set_param needs at least one parameter")
        sim.set_params(key, values, where)
        command = SetParams(values, key)
    elif action == "set_learner":
        command = SetLearner(r.learner(args["learner"], f"{where}.learner"))
        sim.probe.set_learner(command.learner)
    elif action == "add_point":
        x = r.number(args["x"], f"{where}.x")
        y = r.number(args["y"], f"{where}.y")
        label = r.label(args["label"], f"{where}.label")
        args = {"x": x, "y": y, "label": label}
        command = sim.edit(AddPoints([x, y], label), where)
    elif action == "move_point":
        index = _indices(r, sim, args["index"], f"{where}.index", single=True)[0]
        x = r.number(args["x"], f"{where}.x")
        y = r.number(args["y"], f"{where}.y")
        args = {"index": index, "x": x, "y": y}
        command = sim.edit(MovePoints([index], [x, y]), where)
    elif action in ("delete", "relabel", "flip"):
        indices = _indices(r, sim, args["index"], f"{where}.index")
        args = {**args, "index": indices[0] if isinstance(args["index"], int) else indices}
        if action == "delete":
            edit = DeletePoints(indices)
        elif action == "flip":
            edit = FlipLabels(indices)
        else:
            args["label"] = r.label(args["label"], f"{where}.label")
            edit = Relabel(indices, args["label"])
        command = sim.edit(edit, where)
    elif action == "replace_data":
        sim.dataset = r.dataset(args, where)
        command = EditData(ReplaceAll.from_dataset(sim.dataset, "Replace data"))
    elif action in ("show", "hide"):
        names = args["layer"]
        if isinstance(names, list):
            if not names:
                raise r.fail(f"{where}.layer", "expected a layer name or a non-empty list")
            for i, n in enumerate(names):
                r.layer(n, f"{where}.layer[{i}]")
        else:
            r.layer(names, f"{where}.layer")
            names = [names]
        command = SetLayers({name: action == "show" for name in names})
    checks = dict(r.object(step.get("checks", {}), f"{where}.checks"))
    for name, expected in checks.items():
        cw = f"{where}.checks.{name}"
        if name not in CHECKS:
            raise r.fail(cw, f"unknown check; expected one of {', '.join(CHECKS)}")
        CHECKS[name].validate(r, expected, cw)
    return DemoStep(action=action, args=args, caption=caption, checks=checks, command=command)


def _indices(r: Reader, sim: _Simulation, value, where: str, single: bool = False) -> list:
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
