"""Workspace files: written one point per line, read back with validation.

The format is specified in ``docs/workspace-format.md``. Writing and reading
stay in one module because each field's reader mirrors its writer.
"""

from __future__ import annotations

import itertools
import json
import math
import numbers
from collections.abc import Iterator

import numpy as np

from .. import game as games
from ..dataset import Dataset
from ..document import check_start
from ..game_commands import check_shown
from ..learners import registry
from ..learners.params import upgrade_names
from ..learners.registry import DEFAULT_PARAMS, LEARNERS
from ..values import BINARY, check_classes, check_names
from ..viewstate import check_rect
from ..workspace import Workspace
from . import files
from .files import (
    FormatError,
    Progress,
    atomic_write_bytes,
    decode,
    guard_reader,
    loads_json,
    read_bytes,
    report_progress,
    short_repr,
)
from .jsonvalues import (
    Constant,
    DupDict,
    boolean,
    checking_hook,
    describe,
    integer,
    number,
    require,
    strict_object,
)
from .runstep import restore_step

#: The ``"format"`` field of every workspace file.
FORMAT_TAG = "perceptron-gui-workspace"
#: The schema version of a file of two classes, −1 and +1 (what every version reads).
FORMAT_VERSION = 1
#: The version of a file with other classes: ``"classes"`` lists them (version 1 reads
#: none); this program reads both.
CLASSES_VERSION = 2


#: Points read, written (or freed) per slice: each C-level loop over Python objects holds
#: the GIL, so a worker reading 10⁶ points would stall the UI thread for ~50 ms per loop.
_CHUNK = 2**16


def _json_value(value, path: str):
    """A parameter value as plain JSON data (numpy scalars and arrays converted)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"{path}: {value!r} cannot be saved (numbers must be finite)")
        return value
    if isinstance(value, (list, tuple)):
        return [_json_value(v, f"{path}[{i}]") for i, v in enumerate(value)]
    raise ValueError(f"{path}: a {type(value).__name__} cannot be saved in a workspace file")


def _point_chunks(dataset: Dataset, indent: str) -> Iterator[str]:
    """The point lines, joined by a comma and a line end, :data:`_CHUNK` points per string."""
    X, y = dataset.X, dataset.y
    for start in range(0, dataset.n, _CHUNK):  # in slices: see _CHUNK
        stop = start + _CHUNK
        xs, ys = X[start:stop, 0].tolist(), X[start:stop, 1].tolist()
        labels = y[start:stop].tolist()
        yield ",\n".join(f'{indent}{{"x": {x!r}, "y": {y!r}, "label": {label}}}'
                          for x, y, label in zip(xs, ys, labels, strict=True))


def workspace_to_json(workspace: Workspace) -> str:
    """The JSON text of a workspace file, one point per line.

    A parameter without a JSON form (a numpy ``Generator``) raises ValueError. A
    ``view`` the loader would reject is written as ``null`` rather than failing
    the save: it is only a display hint, and the data matter more.
    """
    return "".join(_json_pieces(workspace))


def workspace_json_chunks(workspace: Workspace) -> Iterator[bytes]:
    """The text of :func:`workspace_to_json`, UTF-8, in pieces of at most :data:`_CHUNK` points.

    The head is formatted (and validated) by this call; the points as the pieces
    are taken, so a worker never holds the GIL for long (joining or encoding the
    text of 10⁶ points at once takes ~0.1 s each).
    """
    pieces = _json_pieces(workspace)
    head = next(pieces)  # the head, validated now
    return (piece.encode("utf-8") for piece in itertools.chain([head], pieces))


def _json_pieces(workspace: Workspace) -> Iterator[str]:
    """The file's text in pieces: the head, then the points in slices."""
    params = {
        key: {name: _json_value(v, f"params.{key}.{name}") for name, v in values.items()}
        for key, values in workspace.all_params().items()
        if key in registry.BUILTIN or key == workspace.learner_name  # see _params
    }
    try:  # the view as check_rect accepts it, or None
        view = list(check_rect(workspace.view) or ()) or None
    except ValueError:
        view = None
    head = {
        "format": FORMAT_TAG,
        "version": FORMAT_VERSION if workspace.dataset.is_binary else CLASSES_VERSION,
        "learner": workspace.learner_name,
        "params": params,
        "view": "\0view",
        "run": "\0run",
    }
    game = games.game_of(workspace)
    if game is not None:  # a game being played: its rules (its moves are the points)
        head["game"] = game.rules()
    feature_names, class_names = workspace.dataset.names
    if feature_names is not None:
        head["feature_names"] = list(feature_names)
    classes = workspace.dataset.classes
    if not workspace.dataset.is_binary:
        head["classes"] = list(classes)
    if class_names is not None:
        head["class_names"] = dict(zip(_label_keys(classes), class_names, strict=True))
    text = json.dumps(head, indent=2, allow_nan=False, ensure_ascii=False)
    # short lists and objects on one line each
    text = text.replace('"\\u0000view"', json.dumps(view, allow_nan=False))
    run = {"step": int(workspace.step_count)}
    if workspace.start is not None:  # the weights set by hand the run starts from
        w0, b0 = workspace.start
        run["start"] = {"w": [float(v) for v in w0], "b": float(b0)}
    text = text.replace('"\\u0000run"', json.dumps(run, allow_nan=False))
    text = text[: text.rfind("}")].rstrip()  # reopen the object to append the points
    dataset = workspace.dataset
    if dataset.n == 0:
        yield text + ',\n  "points": []\n}\n'
        return
    yield text + ',\n  "points": [\n'
    for i, chunk in enumerate(_point_chunks(dataset, "    ")):
        yield chunk if i == 0 else ",\n" + chunk
    yield "\n  ]\n}\n"


def save_workspace(workspace: Workspace, path, progress: Progress | None = None) -> None:
    """Save a workspace to ``path`` atomically, in pieces (:func:`workspace_json_chunks`).

    ``progress(fraction)`` is called after each piece; returning ``False``
    raises Cancelled. A cancelled or failed save (OSError, or ValueError)
    leaves any previous file at ``path`` intact.
    """
    chunks = workspace_json_chunks(workspace)  # fails before touching the disk
    if progress is not None:
        n = workspace.dataset.n
        pieces = 2 + -(-n // _CHUNK) if n else 1  # the head, the points, the end
        chunks = _reporting(chunks, pieces, progress)
    atomic_write_bytes(path, chunks)


def _reporting(chunks: Iterator[bytes], pieces: int, progress: Progress) -> Iterator[bytes]:
    for done, chunk in enumerate(chunks, 1):
        yield chunk
        report_progress(progress, done / pieces, "saving")
    report_progress(progress, 1.0, "saving")


def _label_keys(classes: tuple) -> list[str]:
    """The classes' keys in ``class_names``: ``"-1"`` and ``"+1"``, or ``"0"``, ``"1"`` …"""
    return ["-1", "+1"] if classes == BINARY else [str(c) for c in classes]


def _classes(doc: dict, version: int) -> tuple:
    """``classes``: absent (−1 and +1), or in a version-2 file 2 to 8 increasing integers."""
    value = doc.get("classes")
    if value is None:
        return BINARY
    if version < CLASSES_VERSION:
        raise FormatError(f"classes: a version {version} file has the classes −1 and +1 only")
    if not isinstance(value, list):
        raise FormatError(f"classes: expected a list of integers, got {describe(value)}")
    for i, v in enumerate(value):
        if isinstance(v, bool) or not isinstance(v, int):
            raise FormatError(f"classes[{i}]: expected an integer label, got {describe(v)}")
    try:
        return check_classes(value)
    except ValueError as exc:
        raise FormatError(f"classes: {exc}") from None


def _points(value, progress: Progress | None, classes: tuple = BINARY) -> Dataset:
    """The data set of a ``points`` list (fast path; the slow path names the culprit)."""
    if not isinstance(value, list):
        raise FormatError(f"points: expected a list, got {describe(value)}")
    n = len(value)
    if n > files.MAX_POINTS:
        raise FormatError(f"points: the file has {n:,} points; the limit is {files.MAX_POINTS:,}")
    if n == 0:
        return Dataset(classes=classes)
    try:
        X = np.empty((n, 2))
        y = np.empty(n, dtype=np.int64)
        num = {int, float}
        for start in range(0, n, _CHUNK):  # in slices: see _CHUNK
            report_progress(progress, 0.8 + 0.1 * start / n)
            part = value[start : start + _CHUNK]
            if set(map(type, part)) != {dict}:
                raise LookupError
            xs = [p["x"] for p in part]
            ys = [p["y"] for p in part]
            labels = [p["label"] for p in part]
            if not (set(map(type, xs)) <= num and set(map(type, ys)) <= num
                    and set(map(type, labels)) <= num and set(labels) <= set(classes)):
                raise LookupError
            X[start : start + len(part), 0] = xs
            X[start : start + len(part), 1] = ys
            y[start : start + len(part)] = labels
        if not np.isfinite(X).all():
            raise LookupError
        report_progress(progress, 0.9)
        # in the reader's thread, not the UI thread
        return Dataset(X, y, classes=classes).summarize()
    except (LookupError, OverflowError, TypeError, ValueError):
        pass
    # Something is wrong: find the first culprit, in file order, and name it.
    for i, point in enumerate(value):
        path = f"points[{i}]"
        point = strict_object(point, path)
        number(require(point, "x", path), f"{path}.x")
        number(require(point, "y", path), f"{path}.y")
        label = require(point, "label", path)
        if isinstance(label, Constant):
            raise FormatError(f"{path}.label: {label.name} is not allowed")
        if isinstance(label, bool) or not isinstance(label, (int, float)) \
                or label not in classes:
            if classes != BINARY:
                raise FormatError(f"{path}.label: expected one of the classes "
                                  f"{', '.join(map(str, classes))}, got {describe(label)}")
            raise FormatError(f"{path}.label: expected 1 or -1, got {describe(label)}"
                              + _more_classes(value))
    raise AssertionError("points rejected by the fast path but not by the slow one")


def _more_classes(points: list) -> str:
    """``"; ..."`` saying that the labels hold more than two classes, or ``""``."""
    values = set()
    for p in points:
        label = p.get("label") if isinstance(p, dict) else None
        if isinstance(label, (int, float)) and not isinstance(label, bool):
            values.add(label)
            if len(values) > 2:
                break
    if len(values) <= 2:
        return ""
    return ("; the labels take more than two values, and a file of more classes lists them "
            "in \"classes\" (version 2)")


def _param_value(key: str, name: str, value, path: str):
    """Check a parameter's JSON type (the learner then checks its range)."""
    if isinstance(value, Constant):
        raise FormatError(f"{path}: {value.name} is not allowed")
    if isinstance(value, DupDict):
        raise FormatError(f"{path}: duplicate key {value.duplicates[0]!r}")
    if isinstance(value, str) and len(value) > files.MAX_LABEL_CHARS:
        raise FormatError(f"{path}: a text of {len(value):,} characters is too long "
                          f"(at most {files.MAX_LABEL_CHARS})")
    default = DEFAULT_PARAMS[key][name]
    try:
        kind = registry.get(key).param(name).kind
    except KeyError:  # a parameter without a spec: checked by its default's type
        kind = None
    if name == "random_state":
        if value is not None:
            integer(value, path)
    elif kind == "priors":
        if value is not None:
            if not isinstance(value, list):
                raise FormatError(f"{path}: expected null or a list of 2 numbers, got "
                                  f"{describe(value)}")
            value = [number(v, f"{path}[{i}]") for i, v in enumerate(value)]
    elif kind == "shrinkage":
        if value is not None and value != "auto":
            if isinstance(value, str):
                raise FormatError(f"{path}: expected null, a number or 'auto', got "
                                  f"{describe(value)}")
            number(value, path)
    elif isinstance(default, bool):
        boolean(value, path)
    elif isinstance(default, int):
        integer(value, path)
    elif isinstance(default, float):
        number(value, path)
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise FormatError(f"{path}: expected a string, got {describe(value)}")
    elif not (value is None or isinstance(value, (bool, int, float, str))):
        raise FormatError(f"{path}: unexpected {describe(value)}")
    return value


def _params(value) -> dict:
    """The ``params`` object, type-checked and validated learner by learner.

    The parameters of a learner not registered here are skipped: a file stores
    them only when it was the learner in use, which the caller has checked.
    """
    if value is None:
        return {}
    params = strict_object(value, "params")
    result: dict = {}
    for key, values in params.items():
        path = f"params.{key}"
        if key not in LEARNERS:
            continue  # another learner's, unused by this file: nothing here could use them
        values = strict_object(values, path)
        try:
            values, former = upgrade_names(values)
        except ValueError as exc:
            raise FormatError(f"{path}: {exc}") from None
        unknown = sorted(set(values) - set(DEFAULT_PARAMS[key]))
        if unknown:
            raise FormatError(f"{path}: unknown parameter {unknown[0]!r} for {LEARNERS[key]}")
        checked = {
            name: _param_value(key, name, v, f"{path}.{former.get(name, name)}")
            for name, v in values.items()
        }
        exc = _probe(key, checked)
        if exc is not None:
            name = str(exc).split(" ", 1)[0]
            if name not in checked:  # find the culprit by trying one parameter at a time
                name = next((n for n in checked if _probe(key, {n: checked[n]}) is not None), "")
            field = f"{path}.{former.get(name, name)}" if name else path
            if isinstance(exc, ValueError):
                raise FormatError(f"{field}: {exc}")
            reason = exc.args[-1] if exc.args and isinstance(exc.args[-1], str) else str(exc)
            value = describe(checked[name]) if name else "a value"
            raise FormatError(f"{field}: {value} cannot be used ({reason})")
        result[key] = checked
    return result


# Three points of both classes: enough for every learner to start (LDA needs 3).
_PROBE_X = ((0.0, 0.0), (1.0, 1.0), (2.0, 0.0))


def _probe(key: str, values: dict) -> Exception | None:
    """Set ``values`` on a small workspace running learner ``key``; its error, or None.

    Values that pass the type checks but break the arithmetic (a ``bias_scale``
    whose square overflows) are caught here and named.
    """
    try:
        Workspace(Dataset(_PROBE_X, (-1, 1, 1)), learner=key).set_params(key, **values)
    except (ValueError, TypeError, ArithmeticError) as exc:
        return exc
    return None


def _names(doc: dict, labels: tuple = BINARY) -> tuple:
    features = doc.get("feature_names")
    classes = doc.get("class_names")
    if classes is not None:
        classes = strict_object(classes, "class_names")
        keys = _label_keys(labels)
        if set(classes) != set(keys):
            wanted = ", ".join(f'"{k}": name' for k in keys)
            raise FormatError(f"class_names: expected {{{wanted}}}, got keys {sorted(classes)}")
        classes = tuple(classes[k] for k in keys)
    out = []
    for key, value, count in (("feature_names", features, 2),
                              ("class_names", classes, len(labels))):
        if value is not None and not (isinstance(value, (list, tuple)) and len(value) == count
                                      and all(isinstance(v, str) for v in value)):
            raise FormatError(f"{key}: expected {'two' if count == 2 else count} strings, got "
                              f"{describe(value)}")
        try:
            out.append(check_names(value, key, count))
        except ValueError as exc:
            raise FormatError(str(exc)) from None
    return tuple(out)


def _view(value):
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 4:
        raise FormatError(f"view: expected null or [x_min, x_max, y_min, y_max], got "
                          f"{describe(value)}")
    view = tuple(number(v, f"view[{i}]") for i, v in enumerate(value))
    if not (view[0] < view[1] and view[2] < view[3]):
        raise FormatError("view: expected x_min < x_max and y_min < y_max")
    return view


def _start(value) -> tuple:
    """``run.start``: ``{"w": [w1, w2], "b": b}``, the weights set by hand (checked)."""
    obj = strict_object(value, "run.start")
    w = require(obj, "w", "run.start")
    if not isinstance(w, list) or len(w) != 2:
        raise FormatError(f"run.start.w: expected [w1, w2], got {describe(w)}")
    w = [number(v, f"run.start.w[{i}]") for i, v in enumerate(w)]
    b = number(obj.get("b", 0.0), "run.start.b")
    try:
        check_start(w, b)
    except ValueError as exc:
        raise FormatError(f"run.start: {exc}") from None
    return w, b


def parse_workspace_json(text: str, progress: Progress | None = None,
                         share: tuple[float, float] = (0.5, 0.8)):
    """The JSON value of a workspace file's text, or FormatError naming the line.

    ``NaN``, the infinities and repeated keys are kept for
    :func:`workspace_from_document` to name; ``progress`` gets fractions in ``share``.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text or text.isspace():  # not strip(): a copy of the whole text
        raise FormatError("the file is empty")
    try:
        return loads_json(text, parse_constant=Constant,
                          object_pairs_hook=checking_hook(text, progress, share))
    except json.JSONDecodeError as exc:
        truncated = exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")
        hint = " (the file ends too early: truncated?)" if truncated else ""
        raise FormatError(
            f"line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}{hint}"
        ) from None
    except FormatError:
        raise
    except MemoryError:
        raise FormatError("invalid JSON: too large or nested too deeply to read") from None
    except ValueError as exc:  # a backstop: the hooks raise nothing
        raise FormatError(f"invalid JSON: {exc}") from None


def _workspace_from_text(text: str, progress: Progress | None) -> Workspace:
    doc = parse_workspace_json(text, progress)
    report_progress(progress, 0.8)
    try:
        return workspace_from_document(doc, progress)
    finally:  # the points freed in slices (10⁶ dicts at once hold the GIL ~0.1 s)
        points = doc.get("points") if isinstance(doc, dict) else None
        while isinstance(points, list) and points:
            del points[-_CHUNK:]


def workspace_from_document(doc, progress: Progress | None = None) -> Workspace:
    """A new workspace from a value of :func:`parse_workspace_json`; FormatError names the field."""
    if not isinstance(doc, dict):
        raise FormatError(f"not a workspace file: expected a JSON object, got {describe(doc)}")
    doc = strict_object(doc, "the top level")
    if "format" not in doc:
        raise FormatError(f"format: missing; this is not a {FORMAT_TAG} file")
    if doc["format"] != FORMAT_TAG:
        raise FormatError(f"format: expected {FORMAT_TAG!r}, got {describe(doc['format'])}; "
                          "this is not a workspace file")
    version = integer(require(doc, "version", ""), "version")
    if version not in (FORMAT_VERSION, CLASSES_VERSION):
        raise FormatError(f"unsupported version {version}; this program reads versions "
                          f"{FORMAT_VERSION} and {CLASSES_VERSION}")
    classes = _classes(doc, version)
    dataset = _points(require(doc, "points", ""), progress, classes)
    learner = require(doc, "learner", "")
    if not isinstance(learner, str):
        raise FormatError(f"learner: expected one of {sorted(LEARNERS)}, got {describe(learner)}")
    if learner not in LEARNERS:
        raise FormatError(
            f"learner: the file uses the learner {short_repr(learner)}, which is not "
            f"registered in this program (registered: {', '.join(sorted(LEARNERS))})"
        )
    params = _params(doc.get("params"))
    view = _view(doc.get("view"))
    dataset = dataset.with_names(*_names(doc, classes))
    step = 0
    start = None
    if doc.get("run") is not None:
        run = strict_object(doc["run"], "run")
        if "step" in run:
            step = integer(run["step"], "run.step")
            if step < 0:
                raise FormatError(f"run.step: expected a step >= 0, got {describe(step)}")
        if run.get("start") is not None:
            start = _start(run["start"])
    workspace = Workspace()
    try:
        workspace.replace(dataset, learner, params, start=start)
    except (ValueError, TypeError, OverflowError) as exc:  # checked above; a backstop
        raise FormatError(f"params: {exc}") from None
    if step:
        restore_step(workspace, learner, step, progress)
    workspace.view = view
    if doc.get("game") is not None:
        try:
            game = games.PerceptronGame.from_rules(doc["game"], dataset.X, dataset.y)
            check_shown(workspace, game)
        except ValueError as exc:
            raise FormatError(f"game: {exc}") from None
        games.attach(workspace, game)
    report_progress(progress, 1.0)
    return workspace


def workspace_from_json(text: str, progress: Progress | None = None) -> Workspace:
    """A new workspace from the JSON text of a workspace file, its run at the stored step."""
    if not isinstance(text, str):
        raise FormatError(f"expected the file's text as a str, got {type(text).__name__}")
    return guard_reader("workspace", _workspace_from_text, text, progress)


def load_workspace(path, progress: Progress | None = None) -> Workspace:
    """Load a workspace file into a new :class:`Workspace`.

    ``progress(fraction)`` returning ``False`` (not None) raises Cancelled; a
    malformed or unreadable file raises FormatError naming the field or reason.
    """

    def run():
        data = read_bytes(path, progress, 0.5)
        if not data:
            raise FormatError("the file is empty")
        return _workspace_from_text(decode(data), progress)

    return guard_reader("workspace file", run)
