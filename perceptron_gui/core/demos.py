"""Narrated demos: data files that drive a workspace step by step, with captions.

A demo is a JSON file in :data:`DEMO_DIR` (``resources/demos/``).  It holds a
data set, a learner with its parameters, and a list of steps; each step is an
*action* on the workspace (take a step, run to the next update, set a
parameter, move a point, show a layer ...) with a *caption* that tells the
story, and optional *checks*: the numbers the caption states, written as named
claims that :meth:`DemoPlayer.check` verifies against the workspace.  The
tests run every shipped demo to its end and assert every check, so a caption
never states a number the program does not show.

:class:`DemoPlayer` drives a :class:`~perceptron_gui.core.workspace.Workspace`
(no Qt).  The run is deterministic, so going back (:meth:`DemoPlayer.prev`,
:meth:`DemoPlayer.goto`) resets the workspace to the demo's start and replays
the steps before the target: exact and cheap.

Demo files (version 1)
----------------------
::

    {
      "format": "perceptron-gui-demo",
      "version": 1,
      "order": 1,
      "title": "First updates",
      "description": "Six points, one sample at a time.",
      "data": {"points": [{"x": 3, "y": 1, "label": 1}, ...]},
      "learner": "primal",
      "params": {"primal": {"fit_intercept": true}},
      "layers": {"max_margin": false},
      "steps": [
        {"action": "step", "caption": "Sample 1 ...", "checks": {"updates": 1}},
        {"action": "set_param", "bias_scale": 5, "caption": "..."},
        {"action": "show", "layer": "radius", "caption": "..."}
      ]
    }

============  ========  ========================================================
field         required  meaning
============  ========  ========================================================
format        yes       the string ``"perceptron-gui-demo"``
version       yes       the integer ``1``
title         yes       a non-empty string (the menu entry)
description   yes       a string: the menu's tooltip and the caption before
                        the first step
order         no        an integer: position in the menu (default: after the
                        numbered ones, by name)
data          yes       ``{"points": [{"x", "y", "label": 1 | -1}, ...]}`` or a
                        generator spec ``{"generator": NAME, "seed": INT, ...}``
                        (the generators of :mod:`~perceptron_gui.core.datasets`;
                        a seed is required, so the data are always the same)
learner       yes       ``"primal"``, ``"dual"`` or ``"lda"``
params        no        ``{learner: {parameter: value}}`` over the defaults of
                        :data:`~perceptron_gui.core.workspace.DEFAULT_PARAMS`
layers        no        ``{layer: true | false}``: canvas layers at the start
steps         yes       a non-empty list of steps
============  ========  ========================================================

A step is an object with ``action``, ``caption`` (a non-empty string), optional
``checks`` and the action's arguments, written beside them:

================  =============================================================
action            arguments
================  =============================================================
``step``          none: examine the next sample
``step_update``   none: run to the next update
``step_epoch``    none: run to the end of the epoch
``run_to_end``    none: run to convergence or ``max_epochs``
``reset``         none: back to ``w = 0``
``set_param``     ``learner`` (optional, default: the one in use) and one or
                  more ``parameter: value``
``set_learner``   ``learner``
``add_point``     ``x``, ``y``, ``label``
``move_point``    ``index``, ``x``, ``y``
``replace_data``  ``points`` or ``generator`` with its parameters, as ``data``
``show``/``hide`` ``layer``: a layer name or a list of names (:data:`LAYER_NAMES`)
``note``          none: the caption only
================  =============================================================

Every field is checked when the file is loaded; a malformed file raises
:class:`DemoError` naming the file and the field, e.g.
``"margin.json: steps[3].checks.updates: expected an integer >= 0, got 'x'"``.
Unknown fields are errors too (a misspelt ``"captoin"`` would otherwise vanish
silently).  The steps are simulated on load as far as the data and parameters
go, so a ``move_point`` index out of range or an invalid parameter value is
reported before the demo is played.

Checks
------
Each check is ``"name": expected``.  Numbers are compared *to the digits
written*: ``"bound": 22.96`` passes when the value is within ``0.005`` of
22.96, ``"gamma": 0.8`` within ``0.05`` of 0.8; an integer (``"b": 2``) must
match exactly (to rounding).  Vectors compare component by component.  The
comparisons ``*_decreased``/``*_increased`` are against the previous step that
checked the same quantity (``updates_increased`` against the last step with an
``updates`` check, say).  Each entry of :data:`CHECKS` documents itself:

=========================  =====================================================
run                        ``updates`` (k), ``epoch``, ``epoch_mistakes``,
                           ``converged``, ``mistakes_every_epoch``,
                           ``training_error``, ``w``, ``b``
last step                  ``last_sample``, ``last_mistake``, ``last_margin``
                           (``y (w·x + b)`` before it), ``last_update_sample``
Novikoff                   ``separable``, ``radius`` (R), ``gamma`` (γ),
                           ``bound`` ((R/γ)²), ``bound_finite``,
                           ``updates_le_bound``, ``max_margin``
the proof at the last      ``proof_dot`` (w_k·w*), ``proof_k_gamma`` (kγ),
update                     ``proof_norm2`` (‖w_k‖²), ``proof_k_r2`` (kR²),
                           ``proof_holds`` (both inequalities at every update)
comparisons                ``gamma_decreased``, ``bound_increased``,
                           ``updates_increased``
dual                       ``alpha``, ``alpha_sum``, ``same_updates_as_primal``
                           (a primal run on the same data makes the same
                           updates: steps, samples, w and b)
LDA                        ``lda_training_error``, ``lda_mean_pos``,
                           ``lda_mean_neg``
=========================  =====================================================

Counts and the sample numbers are 1-based where people read them (``epoch``,
``last_sample``), as in the readout panel.
"""

from __future__ import annotations

import json
import math
import numbers
import sys
import sysconfig
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import datasets
from .dataset import AddPoints, Dataset, MovePoints
from .learners.perceptron import PrimalPerceptron
from .workspace import DEFAULT_PARAMS, LEARNERS, Workspace

__all__ = [
    "DEMO_DIR",
    "FORMAT",
    "VERSION",
    "ACTIONS",
    "CHECKS",
    "LAYER_NAMES",
    "Demo",
    "DemoStep",
    "DemoError",
    "UnknownDemoError",
    "DemoPlayer",
    "list_demos",
    "load_demo",
    "parse_demo",
]

FORMAT = "perceptron-gui-demo"
VERSION = 1

#: The canvas layers a demo can show or hide (the keys of ``ui.canvas.LAYERS``;
#: a UI test checks that the two lists agree).
LAYER_NAMES = (
    "boundary", "regions", "weight", "delta", "ghost", "highlight", "mistakes",
    "margin_band", "max_margin", "radius", "alpha", "lda", "legend",
)

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
    "replace_data": ((), ()),
    "show": (("layer",), ()),
    "hide": (("layer",), ()),
    "note": ((), ()),
}
_RUN_ACTIONS = ("step", "step_update", "step_epoch", "run_to_end", "reset")
_TOP_FIELDS = ("format", "version", "order", "title", "description", "data", "learner",
               "params", "layers", "steps")
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
        Path(__file__).resolve().parents[2] / "resources" / "demos",
        Path(sysconfig.get_path("data")) / "share" / "perceptron-gui" / "demos",
        Path(sys.prefix) / "share" / "perceptron-gui" / "demos",
    ]
    for path in candidates:
        if path.is_dir():
            return path
    return candidates[0]


#: The folder of the shipped demos (``resources/demos``).
DEMO_DIR: Path = _find_demo_dir()


class DemoError(ValueError):
    """A demo file is malformed (or cannot be read); the message names the file and field."""


class UnknownDemoError(DemoError):
    """No demo has the given name; the message lists the names there are."""


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
    """

    action: str
    args: dict = field(default_factory=dict)
    caption: str = ""
    checks: dict = field(default_factory=dict)


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

    def __len__(self) -> int:
        return len(self.steps)


# --------------------------------------------------------------------------- finding


def _demo_files(folder: Path | None = None) -> list[Path]:
    folder = DEMO_DIR if folder is None else Path(folder)
    if not folder.is_dir():
        return []
    return [p for p in folder.glob("*.json") if p.is_file()]


def _order_of(path: Path) -> float:
    """The file's ``order`` field, or +inf when missing or unreadable (listed last)."""
    try:
        value = json.loads(path.read_text(encoding="utf-8")).get("order")
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
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DemoError(f"{path.name}: cannot read: {exc.strerror or exc}") from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DemoError(f"{path.name}: not UTF-8 text (byte {exc.start})") from exc
    return parse_demo(text, name=path.stem, source=path.name)


# --------------------------------------------------------------------------- validation


class _Reader:
    """Validation helpers that raise :class:`DemoError` naming ``source`` and the field."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, where: str, problem: str) -> DemoError:
        return DemoError(f"{self.source}: {where}: {problem}" if where
                         else f"{self.source}: {problem}")

    def object(self, value, where: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected an object, got {_describe(value)}")
        return value

    def fields(self, obj: dict, where: str, allowed, required=()) -> None:
        for key in required:
            if key not in obj:
                raise self.fail(where, f"missing field {key!r}")
        unknown = [k for k in obj if k not in allowed]
        if unknown:
            raise self.fail(_join(where, unknown[0]),
                            f"unknown field; expected one of {', '.join(allowed)}")

    def string(self, value, where: str, empty: bool = False) -> str:
        if not isinstance(value, str):
            raise self.fail(where, f"expected a string, got {_describe(value)}")
        if not empty and not value.strip():
            raise self.fail(where, "must not be empty")
        return value

    def number(self, value, where: str) -> float:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise self.fail(where, f"expected a number, got {_describe(value)}")
        value = float(value)
        if not math.isfinite(value):
            raise self.fail(where, f"expected a finite number, got {value!r}")
        return value

    def integer(self, value, where: str, minimum: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            cond = "an integer" if minimum is None else f"an integer >= {minimum}"
            raise self.fail(where, f"expected {cond}, got {_describe(value)}")
        if minimum is not None and value < minimum:
            raise self.fail(where, f"expected an integer >= {minimum}, got {value}")
        return int(value)

    def boolean(self, value, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"expected true or false, got {_describe(value)}")
        return value

    def label(self, value, where: str) -> int:
        if isinstance(value, bool) or value not in (1, -1):
            raise self.fail(where, f"expected 1 or -1, got {_describe(value)}")
        return int(value)

    def learner(self, value, where: str) -> str:
        if not isinstance(value, str) or value not in LEARNERS:
            raise self.fail(where, f"expected one of {', '.join(map(repr, LEARNERS))}, "
                                   f"got {_describe(value)}")
        return value

    def layer(self, value, where: str) -> str:
        if not isinstance(value, str) or value not in LAYER_NAMES:
            raise self.fail(where, f"unknown layer {_describe(value)}; expected one of "
                                   f"{', '.join(LAYER_NAMES)}")
        return value

    def dataset(self, spec: dict, where: str) -> Dataset:
        """A data set from ``{"points": [...]}`` or ``{"generator": NAME, "seed": INT, ...}``."""
        if "points" in spec and "generator" in spec:
            raise self.fail(where, "give either 'points' or 'generator', not both")
        if "points" in spec:
            self.fields(spec, where, ("points",))
            points = spec["points"]
            pw = _join(where, "points")
            if not isinstance(points, list) or not points:
                raise self.fail(pw, f"expected a non-empty list of points, "
                                    f"got {_describe(points)}")
            X = np.empty((len(points), 2))
            y = np.empty(len(points), np.int64)
            for i, point in enumerate(points):
                w = f"{pw}[{i}]"
                self.object(point, w)
                self.fields(point, w, ("x", "y", "label"), ("x", "y", "label"))
                X[i] = self.number(point["x"], f"{w}.x"), self.number(point["y"], f"{w}.y")
                y[i] = self.label(point["label"], f"{w}.label")
            return Dataset(X, y)
        if "generator" not in spec:
            raise self.fail(where, "missing field 'points' or 'generator'")
        name = spec["generator"]
        if not isinstance(name, str) or name not in datasets.GENERATORS:
            raise self.fail(_join(where, "generator"),
                            f"unknown generator {_describe(name)}; expected one of "
                            f"{', '.join(datasets.GENERATORS)}")
        params = {k: v for k, v in spec.items() if k != "generator"}
        if "seed" not in params:
            raise self.fail(where, "missing field 'seed' (an integer, so the data are "
                                   "the same every time)")
        self.integer(params["seed"], _join(where, "seed"), minimum=0)
        allowed = datasets.generator_parameters(name)
        for key in params:
            if key not in allowed:
                raise self.fail(_join(where, key), f"unknown parameter of generator "
                                                   f"{name!r}; expected one of "
                                                   f"{', '.join(allowed)}")
        try:
            return datasets.generate(name, **params)
        except (TypeError, ValueError) as exc:
            raise self.fail(where, str(exc)) from exc


def _join(where: str, key) -> str:
    return f"{where}.{key}" if where else str(key)


def _describe(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return repr(value)


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
        With a message naming ``source`` and the offending field.
    """
    source = source or f"{name}.json"
    r = _Reader(source)
    try:
        raw = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise r.fail("", f"invalid JSON at line {exc.lineno}, column {exc.colno}: "
                         f"{exc.msg}") from exc
    except ValueError as exc:
        raise r.fail("", f"invalid JSON: {exc}") from exc
    top = r.object(raw, "top level")
    r.fields(top, "", _TOP_FIELDS, ("format", "version", "title", "description", "data",
                                    "learner", "steps"))
    if top["format"] != FORMAT:
        raise r.fail("format", f"expected {FORMAT!r}, got {_describe(top['format'])}")
    version = r.integer(top["version"], "version", minimum=1)
    if version != VERSION:
        raise r.fail("version", f"version {version} is not supported (this program reads "
                                f"version {VERSION})")
    title = r.string(top["title"], "title")
    description = r.string(top["description"], "description", empty=True)
    order = r.integer(top["order"], "order") if "order" in top else None
    dataset = r.dataset(r.object(top["data"], "data"), "data")
    learner = r.learner(top["learner"], "learner")
    params: dict = {}
    for key, values in r.object(top.get("params", {}), "params").items():
        r.learner(key, f"params.{key}")
        params[key] = dict(r.object(values, f"params.{key}"))
        for pname in params[key]:
            if pname not in DEFAULT_PARAMS[key]:
                raise r.fail(f"params.{key}.{pname}",
                             f"unknown parameter of {LEARNERS[key]}; expected one of "
                             f"{', '.join(DEFAULT_PARAMS[key])}")
    layers = {}
    for key, value in r.object(top.get("layers", {}), "layers").items():
        r.layer(key, f"layers.{key}")
        layers[key] = r.boolean(value, f"layers.{key}")

    sim = _Simulation(r, dataset, learner, params)
    steps_raw = top["steps"]
    if not isinstance(steps_raw, list) or not steps_raw:
        raise r.fail("steps", f"expected a non-empty list of steps, got {_describe(steps_raw)}")
    steps = tuple(_parse_step(r, sim, s, f"steps[{i}]") for i, s in enumerate(steps_raw))
    return Demo(name=name, title=title, description=description, dataset=dataset,
                learner=learner, params=params, steps=steps, layers=layers, order=order,
                source=source)


class _Simulation:
    """Follows the data, learner and parameters through the steps while loading.

    Catches what only shows in context: a point index out of range, an invalid
    parameter value, a run step while the learner is LDA.
    """

    def __init__(self, r: _Reader, dataset: Dataset, learner: str, params: dict):
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
                raise self.r.fail(_join(where, name),
                                  f"unknown parameter of {LEARNERS[key]}; expected one of "
                                  f"{', '.join(DEFAULT_PARAMS[key])}")
        try:
            self.probe.set_params(learner=key, **values)
        except (TypeError, ValueError) as exc:
            raise self.r.fail(where, str(exc)) from exc

    def edit(self, edit, where: str) -> None:
        try:
            self.dataset, _ = edit.apply(self.dataset)
        except ValueError as exc:
            raise self.r.fail(where, str(exc)) from exc


def _parse_step(r: _Reader, sim: _Simulation, raw, where: str) -> DemoStep:
    step = r.object(raw, where)
    if "action" not in step:
        raise r.fail(where, "missing field 'action'")
    action = step["action"]
    if not isinstance(action, str) or action not in ACTIONS:
        raise r.fail(f"{where}.action", f"unknown action {_describe(action)}; expected one "
                                        f"of {', '.join(ACTIONS)}")
    if "caption" not in step:
        raise r.fail(where, "missing field 'caption'")
    caption = r.string(step["caption"], f"{where}.caption")
    args = {k: v for k, v in step.items() if k not in _STEP_FIELDS}
    required, optional = ACTIONS[action]
    for key in required:
        if key not in args:
            raise r.fail(where, f"missing argument {key!r} of action {action!r}")
    if action not in ("set_param", "replace_data"):
        for key in args:
            if key not in required + optional:
                expected = ", ".join(_STEP_FIELDS + required + optional)
                raise r.fail(_join(where, key), f"unknown field for action {action!r}; "
                                                f"expected one of {expected}")
    if action in _RUN_ACTIONS and sim.learner == "lda":
        raise r.fail(f"{where}.action", f"{action!r} needs a perceptron, but the learner "
                                        "at this point is 'lda'")
    if action == "set_param":
        key = r.learner(args["learner"], f"{where}.learner") if "learner" in args else None
        values = {k: v for k, v in args.items() if k != "learner"}
        if not values:
            raise r.fail(where, "set_param needs at least one parameter")
        sim.set_params(key, values, where)
    elif action == "set_learner":
        sim.probe.set_learner(r.learner(args["learner"], f"{where}.learner"))
    elif action == "add_point":
        x = r.number(args["x"], f"{where}.x")
        y = r.number(args["y"], f"{where}.y")
        label = r.label(args["label"], f"{where}.label")
        args = {"x": x, "y": y, "label": label}
        sim.edit(AddPoints([x, y], label), where)
    elif action == "move_point":
        index = r.integer(args["index"], f"{where}.index", minimum=0)
        if index >= sim.dataset.n:
            raise r.fail(f"{where}.index", f"no point {index}: the data have "
                                           f"{sim.dataset.n} points at this step")
        x = r.number(args["x"], f"{where}.x")
        y = r.number(args["y"], f"{where}.y")
        args = {"index": index, "x": x, "y": y}
        sim.edit(MovePoints([index], [x, y]), where)
    elif action == "replace_data":
        sim.dataset = r.dataset(args, where)
    elif action in ("show", "hide"):
        names = args["layer"]
        if isinstance(names, list):
            if not names:
                raise r.fail(f"{where}.layer", "expected a layer name or a non-empty list")
            for i, n in enumerate(names):
                r.layer(n, f"{where}.layer[{i}]")
        else:
            r.layer(names, f"{where}.layer")
    checks = dict(r.object(step.get("checks", {}), f"{where}.checks"))
    for name, expected in checks.items():
        cw = f"{where}.checks.{name}"
        if name not in CHECKS:
            raise r.fail(cw, f"unknown check; expected one of {', '.join(CHECKS)}")
        CHECKS[name].validate(r, expected, cw)
    return DemoStep(action=action, args=args, caption=caption, checks=checks)


# --------------------------------------------------------------------------- checks


def _decimals_tolerance(expected: float | int) -> float:
    """Half a unit in the last digit written: 22.96 -> 0.005, 0.8 -> 0.05, 3 -> exact."""
    if isinstance(expected, numbers.Integral):
        return 1e-9 * max(1.0, abs(float(expected)))
    text = repr(float(expected)).lower()
    mantissa, _, exponent = text.partition("e")
    decimals = len(mantissa.partition(".")[2]) - (int(exponent) if exponent else 0)
    return 0.5 * 10.0 ** (-decimals) * (1 + 1e-9)


def _close(value, expected) -> bool:
    value = float(value)
    return math.isfinite(value) and abs(value - float(expected)) <= _decimals_tolerance(expected)


@dataclass(frozen=True)
class Check:
    """A named claim: how to read its expected value and how to measure it.

    ``kind`` is ``"bool"`` (equal), ``"count"`` (equal integers), ``"number"``
    (to the digits written) or ``"vector"`` (the same, per component).
    """

    kind: str
    measure: Callable
    doc: str

    def validate(self, r: _Reader, value, where: str) -> None:
        if self.kind == "bool":
            r.boolean(value, where)
        elif self.kind == "count":
            r.integer(value, where, minimum=0)
        elif self.kind == "number":
            r.number(value, where)
        else:
            if not isinstance(value, list) or not value:
                raise r.fail(where, f"expected a list of numbers, got {_describe(value)}")
            for i, v in enumerate(value):
                r.number(v, f"{where}[{i}]")

    def failure(self, name: str, measured, expected) -> str | None:
        """None when the claim holds, else a one-line description."""
        if measured is None:
            return f"{name}: not available here (expected {_show(expected)})"
        if self.kind == "bool":
            ok = bool(measured) == expected
        elif self.kind == "count":
            ok = int(measured) == expected
        elif self.kind == "number":
            ok = _close(measured, expected)
        else:
            m = np.ravel(measured)
            ok = m.shape[0] == len(expected) and all(map(_close, m, expected))
            measured = [float(v) for v in m]
        if ok:
            return None
        return f"{name}: expected {_show(expected)}, got {_show(measured)}"


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


def _running(p: DemoPlayer):
    return p.workspace.learner if p.workspace.running else None


def _updates(p):
    return p.workspace.readouts().k if p.workspace.running else None


def _proof_last(p, attr):
    trace = p.workspace.proof()
    if trace is None or trace.k.size == 0:
        return None
    return float(getattr(trace, attr)[-1])


def _event(p):
    return p.workspace.current_event


#: For each comparison check, the checks whose steps count as its previous check point.
_COMPARED = {
    "gamma_decreased": ("gamma", "gamma", "gamma_decreased"),
    "bound_increased": ("bound", "bound", "bound_increased", "bound_finite"),
    "updates_increased": ("updates", "updates", "updates_increased"),
}


def _compare(p, name, relation):
    """``relation(now, then)`` against the previous step that checked the same quantity."""
    key, *names = _COMPARED[name]
    then = p._previous_mark(names)
    if then is None:
        return None
    now = p._snapshot()[key]
    if math.isnan(now) or math.isnan(then[key]):
        return None
    return relation(now, then[key])


def _last_update_sample(p):
    learner = _running(p)
    if learner is None or learner.n_updates_ == 0:
        return None
    return int(learner.history.updates.index[learner.n_updates_ - 1]) + 1


def _mistakes_every_epoch(p):
    learner = _running(p)
    if learner is None or learner.step_count == 0:
        return None
    mpe = learner.mistakes_per_epoch()
    complete = learner.step_count // p.workspace.dataset.n
    return bool(complete > 0 and np.all(mpe[:complete] > 0))


def _same_updates_as_primal(p):
    """The dual run's updates (steps, samples, w, b) equal a primal run's on the same data."""
    ws = p.workspace
    if ws.learner_name != "dual" or not ws.running:
        return None
    dual = ws.learner
    q = ws.params
    if q["kernel"] != "linear":
        return False
    primal = PrimalPerceptron(
        fit_intercept=q["fit_intercept"], bias_scale=q["bias_scale"], learning_rate=1.0,
        order=q["order"], random_state=q["random_state"], max_epochs=q["max_epochs"])
    primal.start(ws.dataset.X, ws.dataset.y)
    primal.seek(dual.step_count)
    k = dual.n_updates_
    if primal.n_updates_ != k:
        return False
    a, b = dual.history.updates, primal.history.updates
    return bool(np.array_equal(a.step[:k], b.step[:k])
                and np.array_equal(a.index[:k], b.index[:k])
                and np.allclose(dual.coef_, primal.coef_, rtol=1e-12, atol=1e-12)
                and np.allclose(dual.intercept_, primal.intercept_, rtol=1e-12, atol=1e-12))


def _lda(p):
    return p.workspace.lda


def _lda_error(p):
    lda = _lda(p)
    if lda is None:
        return None
    ds = p.workspace.dataset
    return float(np.mean(ds.y * lda.decision_function(ds.X) <= 0))


def _lda_mean(p, label):
    lda = _lda(p)
    if lda is None:
        return None
    return np.asarray(lda.means_)[list(lda.classes_).index(label)]


def _readout(attr):
    return lambda p: getattr(p.workspace.readouts(), attr)


def _finite_or_none(value):
    return None if value is None or not math.isfinite(value) else value


#: Every check a demo step may state, by name.
CHECKS: dict[str, Check] = {
    # counts of the run
    "updates": Check("count", _updates, "k, the number of updates so far"),
    "epoch": Check("count", lambda p: p.workspace.readouts().epoch if _running(p) else None,
                   "the current epoch, 1-based (0 before the first step)"),
    "epoch_mistakes": Check(
        "count", lambda p: p.workspace.readouts().epoch_mistakes if _running(p) else None,
        "updates made in the current epoch so far"),
    "alpha_sum": Check(
        "count",
        lambda p: int(np.sum(p.workspace.learner.alpha_))
        if p.workspace.learner_name == "dual" and _running(p) else None,
        "sum of the dual learner's alpha_i (mistakes per sample)"),
    "alpha": Check(
        "vector", lambda p: np.asarray(p.workspace.learner.alpha_, dtype=float)
        if p.workspace.learner_name == "dual" and _running(p) else None,
        "the dual learner's alpha_i, one per point"),
    # the state of the run
    "converged": Check("bool", lambda p: _running(p) and _running(p).converged_,
                       "the run ended with an epoch without a mistake"),
    "last_mistake": Check("bool", lambda p: _event(p) and _event(p).mistake,
                          "the last examined sample was a mistake (an update)"),
    "last_sample": Check("count", lambda p: _event(p) and _event(p).index + 1,
                         "1-based number of the last examined sample"),
    "last_update_sample": Check("count", _last_update_sample,
                                "1-based number of the sample of the last update"),
    "last_margin": Check("number", lambda p: _event(p) and _event(p).margin,
                         "y (w·x + b) of the last examined sample, before its step"),
    "w": Check("vector", lambda p: p.workspace.readouts().w, "the current weights w"),
    "b": Check("number", lambda p: p.workspace.readouts().b if _running(p) or
               p.workspace.learner_name == "lda" else None, "the current bias b"),
    "training_error": Check("number", lambda p: _finite_or_none(
        p.workspace.readouts().training_error), "fraction of points misclassified now"),
    "mistakes_every_epoch": Check("bool", _mistakes_every_epoch,
                                  "every completed epoch made at least one update"),
    # Novikoff
    "separable": Check("bool", _readout("separable"),
                       "the vectors the perceptron sees are linearly separable"),
    "radius": Check("number", lambda p: _finite_or_none(p.workspace.readouts().radius),
                    "Novikoff's R = max ||z_i||"),
    "gamma": Check("number", lambda p: _finite_or_none(p.workspace.readouts().gamma),
                   "Novikoff's γ, the best margin of a separator through the origin of the z_i"),
    "bound": Check("number", lambda p: _finite_or_none(p.workspace.readouts().bound),
                   "Novikoff's bound (R/γ)²"),
    "bound_finite": Check("bool", lambda p: math.isfinite(p.workspace.readouts().bound),
                          "the bound is a finite number (the data are separable)"),
    "updates_le_bound": Check(
        "bool", lambda p: _running(p) and p.workspace.readouts().k <= p.workspace.readouts()
        .bound, "k <= (R/γ)²"),
    "proof_holds": Check(
        "bool", lambda p: None if p.workspace.proof() is None else p.workspace.proof().holds,
        "both inequalities of the proof hold at every update so far"),
    "proof_dot": Check("number", lambda p: _proof_last(p, "dot"), "w_k·w* at the last update"),
    "proof_k_gamma": Check("number", lambda p: _proof_last(p, "lower"),
                           "k γ at the last update (the proof: w_k·w* >= k γ)"),
    "proof_norm2": Check("number", lambda p: _proof_last(p, "norm2"),
                         "||w_k||² at the last update"),
    "proof_k_r2": Check("number", lambda p: _proof_last(p, "upper"),
                        "k R² at the last update (the proof: ||w_k||² <= k R²)"),
    "max_margin": Check(
        "number", lambda p: p.workspace.max_margin.margin
        if p.workspace.max_margin is not None and p.workspace.max_margin.separable else None,
        "the margin of the maximum-margin hyperplane (half the widest gap)"),
    # comparisons with the previous step that checked the same quantity
    "gamma_decreased": Check("bool", lambda p: _compare(p, "gamma_decreased", lambda a, b: a < b),
                             "γ is smaller than at the previous step that checked γ"),
    "bound_increased": Check("bool", lambda p: _compare(p, "bound_increased", lambda a, b: a > b),
                             "(R/γ)² is larger than at the previous step that checked it"),
    "updates_increased": Check(
        "bool", lambda p: _compare(p, "updates_increased", lambda a, b: a > b),
        "k is larger than at the previous step that checked k"),
    # primal and dual
    "same_updates_as_primal": Check(
        "bool", _same_updates_as_primal,
        "the dual run made the same updates (steps, samples, w, b) as a primal run"),
    # LDA
    "lda_training_error": Check("number", _lda_error,
                                "fraction of points LDA misclassifies"),
    "lda_mean_pos": Check("vector", lambda p: _lda_mean(p, 1), "LDA's mean of class +1"),
    "lda_mean_neg": Check("vector", lambda p: _lda_mean(p, -1), "LDA's mean of class −1"),
}


# --------------------------------------------------------------------------- player


class DemoPlayer:
    """Plays a demo on a workspace: next, previous, go to a step (no Qt).

    Parameters
    ----------
    workspace : Workspace
        Set at once to the demo's data, learner and parameters
        (:meth:`Workspace.replace`); the caller keeps whatever it had before if
        it wants it back.
    demo : Demo

    Attributes
    ----------
    index : int
        Number of steps applied so far, ``0 .. len(demo.steps)``.
    layers : dict
        ``{layer: bool}`` set by the demo's start and its steps so far (layers
        it never mentioned are absent: the UI leaves them as they were).
    """

    def __init__(self, workspace: Workspace, demo: Demo):
        self.workspace = workspace
        self.demo = demo
        self._reset()

    # -- navigation --------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.demo.steps)

    @property
    def at_end(self) -> bool:
        """True when every step has been applied."""
        return self.index >= len(self.demo.steps)

    @property
    def current(self) -> DemoStep | None:
        """The last applied step (None at the start)."""
        return self.demo.steps[self.index - 1] if self.index else None

    @property
    def caption(self) -> str:
        """The current step's caption (the demo's description before the first step)."""
        step = self.current
        return step.caption if step is not None else self.demo.description

    def next(self) -> DemoStep | None:
        """Apply the next step and return it (None, with nothing done, at the end)."""
        if self.at_end:
            return None
        step = self.demo.steps[self.index]
        self._apply(step)
        return step

    def prev(self) -> DemoStep | None:
        """Go back one step; returns the step now current (None at the start)."""
        if self.index == 0:
            return None
        self.goto(self.index - 1)
        return self.current

    def goto(self, i: int) -> None:
        """Restore exactly the state after step ``i`` (0: the demo's start).

        Going forward applies the steps in between; going back resets to the
        start and replays steps ``0 .. i-1`` (the run is deterministic).
        """
        i = int(i)
        if not 0 <= i <= len(self.demo.steps):
            raise IndexError(f"step {i} is out of range 0..{len(self.demo.steps)}")
        if i < self.index:
            self._reset()
        while self.index < i:
            self._apply(self.demo.steps[self.index])

    def restart(self) -> None:
        """Back to the demo's start (step 0)."""
        self.goto(0)

    def run_all(self) -> list[str]:
        """Apply every remaining step, checking each; returns the failures.

        Each failure reads ``"step 3 (run_to_end): updates: expected 4, got 5"``.
        """
        failures = []
        while not self.at_end:
            step = self.next()
            failures += [f"step {self.index} ({step.action}): {f}" for f in self.check(step)]
        return failures

    # -- checks -----------------------------------------------------------------------
    def check(self, step: DemoStep) -> list[str]:
        """Evaluate ``step``'s claims against the workspace now; returns the failures.

        Meant for the current step, right after it was applied (comparisons
        such as ``gamma_decreased`` look at the previous step that checked γ).
        """
        failures = []
        for name, expected in step.checks.items():
            check = CHECKS[name]
            failure = check.failure(name, check.measure(self), expected)
            if failure:
                failures.append(failure)
        return failures

    def measure(self) -> dict:
        """Every check's measured value now (for writing captions; None: not available)."""
        return {name: check.measure(self) for name, check in CHECKS.items()}

    # -- internals ----------------------------------------------------------------------
    def _reset(self) -> None:
        demo = self.demo
        self.workspace.replace(demo.dataset, demo.learner, demo.params)
        self.index = 0
        self.layers = dict(demo.layers)
        self._marks: list[tuple[int, dict, frozenset]] = []

    def _snapshot(self) -> dict:
        r = self.workspace.readouts()
        return {"gamma": r.gamma, "bound": r.bound, "updates": r.k, "radius": r.radius}

    def _previous_mark(self, names) -> dict | None:
        """The snapshot of the latest earlier step that checked one of ``names``."""
        for index, snap, checked in reversed(self._marks):
            if index < self.index and checked.intersection(names):
                return snap
        return None

    def _apply(self, step: DemoStep) -> None:
        ws = self.workspace
        a, args = step.action, step.args
        if a in ("step", "step_update", "step_epoch", "run_to_end", "reset"):
            getattr(ws, a)()
        elif a == "set_param":
            values = {k: v for k, v in args.items() if k != "learner"}
            ws.set_params(learner=args.get("learner"), **values)
        elif a == "set_learner":
            ws.set_learner(args["learner"])
        elif a == "add_point":
            ws.apply_edit(AddPoints([args["x"], args["y"]], args["label"]))
        elif a == "move_point":
            ws.apply_edit(MovePoints([args["index"]], [args["x"], args["y"]]))
        elif a == "replace_data":
            ws.set_dataset(_Reader(self.demo.source).dataset(args, "replace_data"))
        elif a in ("show", "hide"):
            names = args["layer"] if isinstance(args["layer"], list) else [args["layer"]]
            for name in names:
                self.layers[name] = a == "show"
        self.index += 1
        if step.checks:
            self._marks.append((self.index, self._snapshot(), frozenset(step.checks)))
