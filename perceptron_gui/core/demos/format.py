"""Demo files: where they are, how they are listed, loaded and validated.

The format is specified in ``docs/demo-format.md``.
"""

from __future__ import annotations

import json
import math
import numbers
from dataclasses import dataclass, field
from pathlib import Path

from ..dataset import Dataset
from ..io import files
from ..io.workspacefile import FORMAT_TAG as WORKSPACE_FORMAT
from ..resources import shipped_dir
from .reader import DemoError, Reader, UnknownDemoError, describe
from .steps import ACTIONS, MAX_CAPTION_CHARS, DemoStep, Simulation, caption_text, parse_step

__all__ = ["ACTIONS", "DEMO_DIR", "FORMAT", "MAX_CAPTION_CHARS", "MAX_STEPS", "MAX_TITLE_CHARS",
           "VERSION", "VERSIONS", "Demo", "DemoStep", "demo_title", "list_demos", "load_demo",
           "parse_demo"]

FORMAT = "perceptron-gui-demo"
#: The version this program writes: 2 added steps that are any command
#: (``{"command": {...}}``), placeholders in captions and ``views``.
VERSION = 2
VERSIONS = (1, 2)
#: The longest title (it is a menu entry and the caption bar's first line).
MAX_TITLE_CHARS = 100
#: The most steps in a demo (going back replays the steps before the target).
MAX_STEPS = 1_000
_TOP_FIELDS = ("format", "version", "order", "title", "description", "data", "learner",
               "params", "layers", "views", "steps")
MAX_VIEWS = 8


@dataclass(frozen=True)
class Demo:
    """A demo as loaded from its file.

    Attributes
    ----------
    name : str
        The file stem, used by ``--demo NAME``.
    params : dict
        ``{learner: {parameter: value}}`` over the defaults.
    views : tuple of str
        The views beside the canvas the demo uses (``"plots"``), shown while it plays.
    data_spec : dict or None
        ``data`` as written in the file (a generator spec stays one when the
        demo is written back); None when built in memory.
    views_shown : bool or None
        Whether the views are shown at the start (None: as they were).
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
    version: int = VERSION
    data_spec: dict | None = None
    views: tuple = ()
    views_shown: bool | None = None

    def __len__(self) -> int:
        return len(self.steps)


#: The folder of the shipped demos (``resources/demos``).
DEMO_DIR: Path = shipped_dir("demos")


def demo_files(folder: Path | None = None) -> list[Path]:
    folder = DEMO_DIR if folder is None else Path(folder)
    return [p for p in folder.glob("*.json") if p.is_file()] if folder.is_dir() else []


def _order_of(path: Path) -> float:
    """The file's ``order`` field, or +inf when missing or unreadable (listed last)."""
    value = _field(path, "order")
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        return math.inf
    return float(value)


def demo_title(path: Path) -> str | None:
    """The ``title`` of the demo file ``path`` for a menu, or None when unreadable."""
    title = _field(Path(path), "title")
    return title if isinstance(title, str) and title.strip() else None


def list_demos(folder: Path | None = None) -> list[str]:
    """Names of the demos (file stems), in menu order: by ``order``, then by name (a file
    too broken to read its ``order`` last, so that choosing it shows its error)."""
    files = demo_files(folder)
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
    """Load and validate a demo by name (in :data:`DEMO_DIR`; else UnknownDemoError) or path."""
    path = _resolve(name_or_path, folder)
    return parse_demo(_read_text(path), name=path.stem, source=path.name)


def _read_text(path: Path) -> str:
    """The text of a demo file: a regular file (never a FIFO or device), UTF-8."""
    try:
        with files.open_regular(str(path)) as f:
            data = f.read(files.MAX_FILE_BYTES + 1)
        if len(data) > files.MAX_FILE_BYTES:
            raise files.FormatError(
                f"the file is larger than {files.size_text(files.MAX_FILE_BYTES)}, the limit")
        return files.decode(data)
    except files.FormatError as exc:
        raise DemoError(f"{path.name}: {exc}") from None
    except OSError as exc:
        raise DemoError(f"{path.name}: cannot read: {exc.strerror or exc}") from exc


def _field(path: Path, key: str):
    """The field ``key`` of a demo file, for listing; None when the file cannot say."""
    try:
        return files.loads_json(_read_text(path)).get(key)
    except (OSError, ValueError, AttributeError):  # DemoError is a ValueError
        return None


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

    DemoError names ``source`` (default ``name + ".json"``) and the offending field.
    """
    source = source or f"{name}.json"
    return files.guard_reader("demo", _parse_demo, text, name, source,
                              fail=lambda message: DemoError(f"{source}: {message}"))


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
    if version not in VERSIONS:
        raise r.fail("version", f"version {version} is not supported (this program reads "
                                f"versions {', '.join(map(str, VERSIONS))})")
    title = r.string(top["title"], "title", max_chars=MAX_TITLE_CHARS)
    description = caption_text(r, top["description"], "description", version, empty=True)
    order = r.integer(top["order"], "order") if "order" in top else None
    data_spec = dict(r.object(top["data"], "data"))
    first = top["steps"][0] if isinstance(top["steps"], list) and top["steps"] else None
    if data_spec == {"points": []} and isinstance(first, dict) \
            and first.get("action") == "start_game":
        dataset = Dataset()  # a game's demo: the game starts from no points
    else:
        dataset = r.dataset(data_spec, "data")
    learner = r.learner(top["learner"], "learner")
    params: dict = {}
    for key, values in r.object(top.get("params", {}), "params").items():
        r.learner(key, f"params.{key}")
        params[key] = r.params(key, dict(r.object(values, f"params.{key}")), f"params.{key}")
    layers = {}
    for key, value in r.object(top.get("layers", {}), "layers").items():
        r.layer(key, f"layers.{key}")
        layers[key] = r.boolean(value, f"layers.{key}")
    views, views_shown = (), None
    if isinstance(top.get("views"), list):  # the views the demo uses: shown while it plays
        views = _views(r, top["views"])
    elif "views" in top:  # version 2: whether the views are shown at the start
        if version < 2:
            raise r.fail("views", f"expected a list of view names, got {describe(top['views'])}")
        views_shown = r.boolean(top["views"], "views")

    sim = Simulation(r, dataset, learner, params)
    steps_raw = top["steps"]
    if not isinstance(steps_raw, list) or not steps_raw:
        raise r.fail("steps", f"expected a non-empty list of steps, got {describe(steps_raw)}")
    if len(steps_raw) > MAX_STEPS:
        raise r.fail("steps", f"{len(steps_raw):,} steps are more than the limit of "
                              f"{MAX_STEPS:,}")
    steps = tuple(parse_step(r, sim, s, f"steps[{i}]", version)
                  for i, s in enumerate(steps_raw))
    try:  # every text is written back as UTF-8 (import, export, the recorder)
        json.dumps(top, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise r.fail("", "a text holds a lone surrogate (a \\ud800 … \\udfff escape "
                         "alone), which is not text") from None
    return Demo(name=name, title=title, description=description, dataset=dataset,
                learner=learner, params=params, steps=steps, layers=layers, order=order,
                source=source, version=version, data_spec=data_spec, views=views,
                views_shown=views_shown)


def _views(r, raw) -> tuple:
    """The ``views`` field as a list: distinct view names (``"plots"``)."""
    if len(raw) > MAX_VIEWS:
        raise r.fail("views", f"{len(raw)} views are more than the limit of {MAX_VIEWS}")
    names = tuple(r.string(v, f"views[{i}]", max_chars=40) for i, v in enumerate(raw))
    for i, name in enumerate(names):
        if not name.isidentifier():
            raise r.fail(f"views[{i}]", f"a view name is a word such as 'plots'; got {name!r}")
        if name in names[:i]:
            raise r.fail(f"views[{i}]", f"{name!r} is named twice")
    return names
