"""Workspace files and CSV: read with validation, written atomically, no Qt.

Everything a user brings in from disk goes through this module, and every
malformed input — truncated, corrupt, hand-edited wrongly, binary, absurdly
large — is answered with a :class:`FormatError` whose message names the line
(CSV) or the field (workspace files), e.g. ``"points[3].x: expected a number,
got 'abc'"`` or ``"line 7, column x: 'abc' is not a number"``. No other
exception type escapes :func:`load_workspace`, :func:`workspace_from_json`,
:func:`read_csv` or :func:`read_csv_with_mapping`, whatever the bytes (the one
exception is :class:`Cancelled`, raised only when a ``progress`` callback asks
for it). Nothing is ever unpickled or evaluated: JSON goes through :mod:`json`,
CSV through :mod:`csv` or plain string splitting, numbers through ``float``.

Loading never touches an existing workspace: :func:`load_workspace` builds a
*new* :class:`~perceptron_gui.core.workspace.Workspace`, so a failed load leaves
the one on screen exactly as it was.

A file that cannot be read at all (missing, a directory, no permission) is
also reported as a :class:`FormatError` (``"cannot read 'a.csv': No such file
or directory"``, with the :class:`OSError` as ``__cause__``), so the window
catches one type and shows its message. Files must be UTF-8 text (a
byte-order mark is accepted); recognisable binary files (PNG, JPEG, PDF, gzip,
ZIP/xlsx, pickles, ...) and anything with a NUL byte are rejected as such, and
other bytes that are not UTF-8 are reported with their offset
(``"not UTF-8 text at byte 1234 (line 57)"``, counting bytes from 0).

Workspace files (version 1)
---------------------------
UTF-8 JSON, written with one point per line so that files stay readable and
diff well::

    {
      "format": "perceptron-gui-workspace",
      "version": 1,
      "learner": "primal",
      "params": {"primal": {...}, "dual": {...}, "lda": {...}},
      "view": [-3.0, 3.0, -2.0, 2.0],
      "run": {"step": 12},
      "points": [
        {"x": 0.5, "y": -1.25, "label": 1},
        {"x": -0.75, "y": 2.0, "label": -1}
      ]
    }

==========  ========  ========================================================
field       required  meaning
==========  ========  ========================================================
format      yes       the string ``"perceptron-gui-workspace"``
version     yes       the integer ``1``
points      yes       a list of ``{"x": number, "y": number, "label": 1 | -1}``
learner     yes       ``"primal"``, ``"dual"`` or ``"lda"``
params      no        per learner, its parameters (all of them are written);
                      missing learners or parameters take the defaults of
                      :data:`~perceptron_gui.core.workspace.DEFAULT_PARAMS`
view        no        ``[x_min, x_max, y_min, y_max]`` or ``null``
run         no        ``{"step": n}``: the cursor of the run (default 0)
==========  ========  ========================================================

Unknown top-level fields (and unknown keys inside a point or ``run``) are
ignored, so a later version may add fields that this one skips. Unknown
learners or parameter names inside ``params`` are errors, because silently
dropping a parameter would change the run. Duplicate keys in any object that
is read are errors (which of the two values was meant?). Numbers must be
finite float64 values: the literals ``NaN``/``Infinity`` and values that
overflow (``1e400``) are rejected. Floats are written with :func:`repr`, the
shortest text that reads back to the same float64, so a save and a load give
the points back bit for bit (including ``-0.0``).

The run is deterministic given the data and parameters, so the file stores
only the cursor step; loading recomputes the history up to it. With
``order="random"`` this holds when ``random_state`` is an integer (the
default, 0); with ``random_state=None`` the loaded run draws a new order.

CSV files
---------
A header line naming the columns ``x``, ``y`` and ``label`` (in any order;
case and surrounding spaces are ignored), then one point per line, separated
by commas; fields may be quoted as in RFC 4180. Blank lines are skipped; a
UTF-8 byte-order mark is accepted; line ends may be ``\\n``, ``\\r\\n`` or ``\\r``.
Every other line must have exactly three fields (extra columns are an error,
not silently dropped). Coordinates are numbers as Python's :class:`float`
reads them, and must be finite. Labels may be ``-1``/``+1``, ``0``/``1``, or
any one or two distinct values (numbers or strings); they are mapped to
``-1``/``+1`` by the rule of :meth:`Dataset.from_labels
<perceptron_gui.core.dataset.Dataset.from_labels>`: labels within
``{-1, +1}`` keep their value; otherwise two labels are sorted (numerically if
all are numbers, else as strings) and the first becomes ``-1``, the second
``+1``; a single label becomes ``+1``. A file with one label only is valid (a
one-class canvas). Labels that read as the same number (``1`` and ``1.0``) are
the same class. :func:`read_csv_with_mapping` returns the mapping used.

:func:`write_csv` writes ``x,y,label`` with ``repr`` floats and ``-1``/``1``
labels; ``numpy.loadtxt(path, delimiter=",", skiprows=1)`` reads the points
back bit for bit, and so does ``pandas.read_csv(path)`` with pandas 3 (with
older pandas pass ``float_precision="round_trip"``: their default float parser
is not correctly rounded in every case, pandas-dev/pandas#17154).

Limits
------
:data:`MAX_POINTS` points per file (a million) and :data:`MAX_FILE_BYTES`
bytes per file; beyond them loading stops with a :class:`FormatError` that
states the limit. A million-row CSV reads in about two seconds (a plain
split when the file has no quotes, the :mod:`csv` module otherwise), and the
``progress`` callback lets a caller show a cancellable progress dialog; a
workspace whose stored run is long is recomputed in slices that report
progress too.

Saving
------
:func:`save_workspace` and :func:`write_csv` write to a temporary file in the
target's directory, flush and ``fsync`` it, then :func:`os.replace` it over the
target: an interrupted save (an exception, a crash, a full disk) leaves the
previous file intact and removes the temporary file when it can. Saving
raises :class:`OSError` for a file system error, and :class:`ValueError` for a
workspace that cannot be represented (e.g. a numpy random generator as
``random_state``).
"""

from __future__ import annotations

import csv
import io as _io
import json
import math
import numbers
import os
import secrets
import stat
from collections.abc import Callable, Iterable
from itertools import repeat

import numpy as np

from .dataset import Dataset
from .workspace import DEFAULT_PARAMS, LEARNERS, Workspace

__all__ = [
    "FORMAT_TAG",
    "FORMAT_VERSION",
    "MAX_FILE_BYTES",
    "MAX_POINTS",
    "Cancelled",
    "FormatError",
    "load_workspace",
    "read_csv",
    "read_csv_with_mapping",
    "save_workspace",
    "workspace_from_json",
    "workspace_to_json",
    "write_csv",
]

#: The ``"format"`` field of every workspace file.
FORMAT_TAG = "perceptron-gui-workspace"
#: The schema version this program writes and reads.
FORMAT_VERSION = 1
#: The most points a workspace or CSV file may hold.
MAX_POINTS = 1_000_000
#: The largest file read, in bytes (256 MiB: a million points need under 100 MB).
MAX_FILE_BYTES = 256 * 2**20

_CHUNK = 4 * 2**20  # bytes read between progress reports
_ROWS_PER_REPORT = 65_536  # CSV rows parsed between progress reports (slow path)
_STEPS_PER_REPORT = 2**20  # run steps recomputed between progress reports

Progress = Callable[[float], object]


class FormatError(ValueError):
    """A file (or text) that is not a valid workspace or CSV file.

    The message says what is wrong and where: the line for CSV
    (``"line 5: expected 3 columns, got 4"``), the field path for workspace
    files (``"points[2].x: NaN is not allowed"``). A file that cannot be read at
    all (missing, a directory, no permission) is reported the same way
    (``"cannot read 'a.csv': No such file or directory"``), with the
    :class:`OSError` as ``__cause__``, so a caller needs to catch one type.
    """


class Cancelled(Exception):  # noqa: N818 - the name says what happened, as asked
    """Raised when a ``progress`` callback returned ``False``: the load was cancelled."""


# ============================================================================ helpers


def _report(progress: Progress | None, fraction: float) -> None:
    """Call ``progress(fraction)``; raise :class:`Cancelled` if it returned False."""
    if progress is not None and progress(min(1.0, max(0.0, fraction))) is False:
        raise Cancelled("loading cancelled")


def _short(text: str, limit: int = 40) -> str:
    """``repr`` of a string cut to ``limit`` characters for a message."""
    if len(text) > limit:
        text = text[:limit] + "…"
    return repr(text)


def _size_text(n: int) -> str:
    return f"{n / 2**20:,.1f} MB" if n >= 2**20 else f"{n:,} bytes"


# Binary formats recognised by their first bytes, for a clear message.
_MAGIC = [
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"%PDF-", "a PDF document"),
    (b"\x1f\x8b", "a gzip-compressed file"),
    (b"PK\x03\x04", "a ZIP archive (or an .xlsx/.ods spreadsheet)"),
    (b"BZh", "a bzip2-compressed file"),
    (b"\xfd7zXZ\x00", "an xz-compressed file"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"\x7fELF", "an executable program"),
    (b"\xd0\xcf\x11\xe0", "an old Microsoft Office document"),
]


def _sniff_binary(data: bytes) -> None:
    """Raise FormatError for a recognisable binary file or one with NUL bytes."""
    for magic, what in _MAGIC:
        if data.startswith(magic):
            raise FormatError(f"this is {what}, not a text file")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise FormatError("the file is UTF-16 text; save it as UTF-8")
    if len(data) >= 2 and data[0] == 0x80 and data[1] <= 5:
        raise FormatError("this is a Python pickle, not a text file (pickles are never loaded)")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise FormatError(f"binary data (a NUL byte) at byte {nul}; this is not a text file")


def _decode(data: bytes) -> str:
    """Decode UTF-8 (with an optional byte-order mark) or raise FormatError."""
    _sniff_binary(data)
    offset = 0
    if data.startswith(b"\xef\xbb\xbf"):
        offset = 3
    try:
        return data[offset:].decode("utf-8")
    except UnicodeDecodeError as exc:
        pos = exc.start + offset
        line = data.count(b"\n", 0, pos) + 1
        raise FormatError(
            f"not UTF-8 text at byte {pos} (line {line}); save the file as UTF-8"
        ) from None


def _read_bytes(path, progress: Progress | None, share: float) -> bytes:
    """Read a whole file (at most MAX_FILE_BYTES), reporting progress in [0, share]."""
    try:
        name = os.fspath(path)
    except TypeError as exc:
        raise FormatError(f"not a file path: {path!r}") from exc
    try:
        with open(name, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_FILE_BYTES:
                raise FormatError(
                    f"the file is {_size_text(size)}; the limit is {_size_text(MAX_FILE_BYTES)}"
                )
            chunks: list[bytes] = []
            total = 0
            _report(progress, 0.0)
            while True:
                chunk = f.read(_CHUNK)
                if not chunk:
                    break
                if not chunks:
                    _sniff_binary(chunk[:4096])  # fail fast on a binary file
                chunks.append(chunk)
                total += len(chunk)
                if total > MAX_FILE_BYTES:  # a growing file or a device
                    raise FormatError(
                        f"the file is larger than {_size_text(MAX_FILE_BYTES)}, the limit"
                    )
                if size:
                    _report(progress, share * min(1.0, total / size))
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise FormatError(f"cannot read {name!r}: {reason}") from exc
    return b"".join(chunks)


# ============================================================================ atomic save


def _atomic_write(path, chunks: Iterable[str]) -> None:
    """Write text chunks (UTF-8) to ``path`` atomically (see :func:`atomic_write_bytes`)."""
    atomic_write_bytes(path, (chunk.encode("utf-8") for chunk in chunks))


def atomic_write_bytes(path, chunks: Iterable[bytes]) -> None:
    """Write byte chunks to ``path`` atomically.

    The data go to a new file in the same directory, which is flushed and
    fsync'ed and then renamed over ``path`` with :func:`os.replace` (atomic on
    POSIX and Windows). On any exception the temporary file is removed and
    ``path`` is untouched. A symbolic link is followed: its target is replaced.
    """
    target = os.path.realpath(os.fspath(path))
    directory = os.path.dirname(target) or "."
    base = os.path.basename(target)
    while True:
        tmp = os.path.join(directory, f".{base}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                         0o666)
        except FileExistsError:
            continue
        break
    try:
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        try:  # keep the permissions of the file being replaced
            os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
        except OSError:
            pass
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename itself durable (POSIX); best effort
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


# ============================================================================ workspace: write


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


def _point_lines(dataset: Dataset, indent: str) -> Iterable[str]:
    xs = dataset.X[:, 0].tolist()
    ys = dataset.X[:, 1].tolist()
    labels = dataset.y.tolist()
    for x, y, label in zip(xs, ys, labels, strict=True):
        yield f'{indent}{{"x": {x!r}, "y": {y!r}, "label": {label}}}'


def _saved_view(view) -> list[float] | None:
    """The view as the loader accepts it, or None (the view is only a display hint)."""
    if view is None:
        return None
    try:
        values = [float(v) for v in view]
    except (TypeError, ValueError, OverflowError):
        return None
    if len(values) != 4 or not all(math.isfinite(v) for v in values):
        return None
    if not (values[0] < values[1] and values[2] < values[3]):
        return None
    return values


def workspace_to_json(workspace: Workspace) -> str:
    """Serialize a workspace to the JSON text of a workspace file.

    Parameters
    ----------
    workspace : Workspace
        The workspace to describe: its points, learner, every learner's
        parameters, ``view`` and the run's cursor step.

    Returns
    -------
    str
        The file's text (see the module documentation for the schema), with one
        point per line.

    Raises
    ------
    ValueError
        For a parameter that has no JSON form (e.g. a numpy ``Generator``).

    Notes
    -----
    A ``view`` that the loader would reject (not four finite numbers with
    ``x_min < x_max`` and ``y_min < y_max``) is written as ``null`` rather than
    failing the save: it is only a display hint, and the data matter more.
    """
    params = {
        key: {name: _json_value(v, f"params.{key}.{name}") for name, v in values.items()}
        for key, values in workspace.all_params().items()
    }
    view = _saved_view(workspace.view)
    head = {
        "format": FORMAT_TAG,
        "version": FORMAT_VERSION,
        "learner": workspace.learner_name,
        "params": params,
        "view": "\0view",
        "run": "\0run",
    }
    text = json.dumps(head, indent=2, allow_nan=False, ensure_ascii=False)
    # short lists and objects on one line each
    text = text.replace('"\\u0000view"', json.dumps(view, allow_nan=False))
    text = text.replace('"\\u0000run"', json.dumps({"step": int(workspace.step_count)}))
    text = text[: text.rfind("}")].rstrip()  # reopen the object to append the points
    if workspace.dataset.n == 0:
        return text + ',\n  "points": []\n}\n'
    points = ",\n".join(_point_lines(workspace.dataset, "    "))
    return f'{text},\n  "points": [\n{points}\n  ]\n}}\n'


def save_workspace(workspace: Workspace, path) -> None:
    """Save a workspace to ``path`` atomically (see :func:`workspace_to_json`).

    An interrupted save leaves any previous file at ``path`` intact.

    Raises
    ------
    OSError
        When the file cannot be written (nothing is changed at ``path``).
    ValueError
        For a workspace that cannot be represented (nothing is written).
    """
    text = workspace_to_json(workspace)  # fails before touching the disk
    _atomic_write(path, [text])


# ============================================================================ workspace: read


class _Constant:
    """What ``NaN``/``Infinity``/``-Infinity`` parse to: rejected where they are used."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name


class _DupDict(dict):
    """A JSON object that had repeated keys (the last value kept, as json does)."""

    duplicates: list


def _object_hook(pairs):
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set = set()
        dups = []
        for key, _ in pairs:
            if key in seen and key not in dups:
                dups.append(key)
            seen.add(key)
        obj = _DupDict(obj)
        obj.duplicates = dups
    return obj


def _describe(value) -> str:
    """A JSON value as a message shows it."""
    if isinstance(value, _Constant):
        return value.name
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _short(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() < 200:
            return str(value)
        return f"an integer of about {int(value.bit_length() * math.log10(2)) + 1} digits"
    return type(value).__name__


def _object(value, path: str) -> dict:
    if not isinstance(value, dict):
        raise FormatError(f"{path}: expected an object, got {_describe(value)}")
    if isinstance(value, _DupDict):
        raise FormatError(f"{path}: duplicate key {value.duplicates[0]!r}")
    return value


def _require(obj: dict, key: str, path: str):
    if key not in obj:
        where = f"{path}.{key}" if path else key
        raise FormatError(f"{where}: missing")
    return obj[key]


def _number(value, path: str) -> float:
    """A finite float64 from a JSON number, or FormatError naming ``path``."""
    if isinstance(value, _Constant):
        raise FormatError(f"{path}: {value.name} is not allowed")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise FormatError(f"{path}: expected a number, got {_describe(value)}")
    try:
        result = float(value)
    except OverflowError:
        result = math.inf
    if not math.isfinite(result):
        raise FormatError(f"{path}: {_describe(value) if isinstance(value, int) else 'the number'}"
                          " is beyond the range of float64")
    return result


def _integer(value, path: str) -> int:
    if isinstance(value, _Constant):
        raise FormatError(f"{path}: {value.name} is not allowed")
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"{path}: expected an integer, got {_describe(value)}")
    return value


def _points(value, progress: Progress | None) -> Dataset:
    """The data set of a ``points`` list (fast path; the slow path names the culprit)."""
    if not isinstance(value, list):
        raise FormatError(f"points: expected a list, got {_describe(value)}")
    n = len(value)
    if n > MAX_POINTS:
        raise FormatError(f"points: the file has {n:,} points; the limit is {MAX_POINTS:,}")
    if n == 0:
        return Dataset()
    try:
        if set(map(type, value)) != {dict}:
            raise LookupError
        xs = [p["x"] for p in value]
        ys = [p["y"] for p in value]
        labels = [p["label"] for p in value]
        num = {int, float}
        if not (set(map(type, xs)) <= num and set(map(type, ys)) <= num
                and set(map(type, labels)) <= num and set(labels) <= {1, -1}):
            raise LookupError
        X = np.empty((n, 2))
        X[:, 0] = xs
        X[:, 1] = ys
        if not np.isfinite(X).all():
            raise LookupError
        _report(progress, 0.9)
        return Dataset(X, np.array(labels, dtype=np.int64))
    except (LookupError, OverflowError, TypeError, ValueError):
        pass
    # Something is wrong: find the first culprit, in file order, and name it.
    for i, point in enumerate(value):
        path = f"points[{i}]"
        point = _object(point, path)
        _number(_require(point, "x", path), f"{path}.x")
        _number(_require(point, "y", path), f"{path}.y")
        label = _require(point, "label", path)
        if isinstance(label, _Constant):
            raise FormatError(f"{path}.label: {label.name} is not allowed")
        if isinstance(label, bool) or not isinstance(label, (int, float)) or label not in (1, -1):
            raise FormatError(f"{path}.label: expected 1 or -1, got {_describe(label)}")
    raise AssertionError("points rejected by the fast path but not by the slow one")


def _param_value(key: str, name: str, value, path: str):
    """Check a parameter's JSON type (the learner then checks its range)."""
    if isinstance(value, _Constant):
        raise FormatError(f"{path}: {value.name} is not allowed")
    if isinstance(value, _DupDict):
        raise FormatError(f"{path}: duplicate key {value.duplicates[0]!r}")
    default = DEFAULT_PARAMS[key][name]
    if name == "random_state":
        if value is not None:
            _integer(value, path)
    elif name == "priors":
        if value is not None:
            if not isinstance(value, list):
                raise FormatError(f"{path}: expected null or a list of 2 numbers, got "
                                  f"{_describe(value)}")
            value = [_number(v, f"{path}[{i}]") for i, v in enumerate(value)]
    elif name == "shrinkage":
        if value is not None and value != "auto":
            if isinstance(value, str):
                raise FormatError(f"{path}: expected null, a number or 'auto', got "
                                  f"{_describe(value)}")
            _number(value, path)
    elif isinstance(default, bool):
        if not isinstance(value, bool):
            raise FormatError(f"{path}: expected true or false, got {_describe(value)}")
    elif isinstance(default, int):
        _integer(value, path)
    elif isinstance(default, float):
        _number(value, path)
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise FormatError(f"{path}: expected a string, got {_describe(value)}")
    elif not (value is None or isinstance(value, (bool, int, float, str))):
        raise FormatError(f"{path}: unexpected {_describe(value)}")
    return value


def _params(value) -> dict:
    """The ``params`` object, type-checked and validated learner by learner."""
    if value is None:
        return {}
    params = _object(value, "params")
    result: dict = {}
    for key, values in params.items():
        path = f"params.{key}"
        if key not in LEARNERS:
            raise FormatError(f"{path}: unknown learner; expected one of {sorted(LEARNERS)}")
        values = _object(values, path)
        unknown = sorted(set(values) - set(DEFAULT_PARAMS[key]))
        if unknown:
            raise FormatError(f"{path}: unknown parameter {unknown[0]!r} for {LEARNERS[key]}")
        checked = {
            name: _param_value(key, name, v, f"{path}.{name}") for name, v in values.items()
        }
        exc = _probe(key, checked)
        if exc is not None:
            name = str(exc).split(" ", 1)[0]
            if name not in checked:  # find the culprit by trying one parameter at a time
                name = next((n for n in checked if _probe(key, {n: checked[n]}) is not None), "")
            field = f"{path}.{name}" if name else path
            if isinstance(exc, ValueError):
                raise FormatError(f"{field}: {exc}")
            reason = exc.args[-1] if exc.args and isinstance(exc.args[-1], str) else str(exc)
            value = _describe(checked[name]) if name else "a value"
            raise FormatError(f"{field}: {value} cannot be used ({reason})")
        result[key] = checked
    return result


# Three points of both classes: enough for every learner to start (LDA needs 3).
_PROBE_X = ((0.0, 0.0), (1.0, 1.0), (2.0, 0.0))


def _probe(key: str, values: dict) -> Exception | None:
    """Set ``values`` on a small workspace running learner ``key``; its error, or None.

    This runs the learner's own validation and its start on data, so values
    that pass the type checks but break the arithmetic (a ``bias_scale`` whose
    square overflows) are caught here and named.
    """
    try:
        Workspace(Dataset(_PROBE_X, (-1, 1, 1)), learner=key).set_params(key, **values)
    except (ValueError, TypeError, ArithmeticError) as exc:
        return exc
    return None


def _view(value):
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 4:
        raise FormatError(f"view: expected null or [x_min, x_max, y_min, y_max], got "
                          f"{_describe(value)}")
    view = tuple(_number(v, f"view[{i}]") for i, v in enumerate(value))
    if not (view[0] < view[1] and view[2] < view[3]):
        raise FormatError("view: expected x_min < x_max and y_min < y_max")
    return view


def _parse_json(text: str):
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise FormatError("the file is empty")
    try:
        return json.loads(text, parse_constant=_Constant, object_pairs_hook=_object_hook)
    except json.JSONDecodeError as exc:
        truncated = exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")
        hint = " (the file ends too early: truncated?)" if truncated else ""
        raise FormatError(
            f"line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}{hint}"
        ) from None
    except RecursionError:
        raise FormatError("invalid JSON: nested too deeply") from None
    except MemoryError:
        raise FormatError("invalid JSON: too large or nested too deeply to read") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise FormatError(f"invalid JSON: {exc}") from None


def _workspace_from_text(text: str, progress: Progress | None) -> Workspace:
    doc = _parse_json(text)
    _report(progress, 0.8)
    if not isinstance(doc, dict):
        raise FormatError(
            f"not a workspace file: expected a JSON object, got {_describe(doc)}"
        )
    doc = _object(doc, "the top level")
    if "format" not in doc:
        raise FormatError(f"format: missing; this is not a {FORMAT_TAG} file")
    if doc["format"] != FORMAT_TAG:
        raise FormatError(
            f"format: expected {FORMAT_TAG!r}, got {_describe(doc['format'])}; "
            "this is not a workspace file"
        )
    version = _integer(_require(doc, "version", ""), "version")
    if version != FORMAT_VERSION:
        raise FormatError(
            f"unsupported version {version}; this program reads version {FORMAT_VERSION}"
        )
    dataset = _points(_require(doc, "points", ""), progress)
    learner = _require(doc, "learner", "")
    if not isinstance(learner, str) or learner not in LEARNERS:
        raise FormatError(
            f"learner: expected one of {sorted(LEARNERS)}, got {_describe(learner)}"
        )
    params = _params(doc.get("params"))
    view = _view(doc.get("view"))
    step = 0
    if doc.get("run") is not None:
        run = _object(doc["run"], "run")
        if "step" in run:
            step = _integer(run["step"], "run.step")
            if step < 0:
                raise FormatError(f"run.step: expected a step >= 0, got {step}")
    workspace = Workspace()
    try:
        workspace.replace(dataset, learner, params)
    except (ValueError, TypeError, OverflowError) as exc:  # checked above; a backstop
        raise FormatError(f"params: {exc}") from None
    if step:
        if not workspace.running:
            raise FormatError(
                f"run.step: step {step} but no run is possible: {workspace.problem}"
                if workspace.problem else f"run.step: step {step} but {learner!r} does not step"
            )
        max_epochs = workspace.params["max_epochs"]
        if step > max_epochs * dataset.n:
            raise FormatError(
                f"run.step: step {step} is beyond the longest possible run "
                f"(max_epochs × points = {max_epochs * dataset.n})"
            )
        # Recompute the run up to the step in slices, so a long run reports
        # progress and can be cancelled.
        while workspace.step_count < step:
            if not workspace.advance(min(_STEPS_PER_REPORT, step - workspace.step_count)):
                break
            _report(progress, 0.9 + 0.1 * workspace.step_count / step)
        if workspace.step_count != step:
            raise FormatError(
                f"run.step: the run ends at step {workspace.step_count}, before step {step}"
            )
    workspace.view = view
    _report(progress, 1.0)
    return workspace


def _guard(kind: str, func, *args):
    """Run a reader; turn any unforeseen exception into a FormatError (a backstop).

    Every error the readers foresee is already a FormatError with a precise
    message; this keeps the promise that nothing else escapes, while the
    message ("internal error") makes such a case easy to spot and report.
    """
    try:
        return func(*args)
    except (FormatError, Cancelled):
        raise
    except RecursionError:
        raise FormatError(f"the {kind} is nested too deeply to read") from None
    except MemoryError:
        raise FormatError(f"the {kind} is too large to read into memory") from None
    except Exception as exc:
        raise FormatError(
            f"internal error while reading the {kind} ({type(exc).__name__}: {exc}); "
            "please report this with the file"
        ) from exc


def workspace_from_json(text: str, progress: Progress | None = None) -> Workspace:
    """Build a new workspace from the JSON text of a workspace file.

    Parameters
    ----------
    text : str
        The file's text (see the module documentation for the schema).
    progress : callable, optional
        As for :func:`load_workspace`.

    Returns
    -------
    Workspace
        A new workspace with the file's points, learner, parameters, view, and
        the run advanced to the stored step.

    Raises
    ------
    FormatError
        For anything that is not a valid version-1 workspace file; the message
        names the field, e.g. ``"points[3].x: expected a number, got 'abc'"``.
    Cancelled
        When ``progress`` returned False.
    """
    if not isinstance(text, str):
        raise FormatError(f"expected the file's text as a str, got {type(text).__name__}")
    return _guard("workspace", _workspace_from_text, text, progress)


def load_workspace(path, progress: Progress | None = None) -> Workspace:
    """Load a workspace file into a new :class:`Workspace`.

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.
    progress : callable, optional
        ``progress(fraction)`` with ``fraction`` in [0, 1], called while the
        file is read and checked and while the run is recomputed up to the
        stored step; returning ``False`` cancels (any other value, including
        None, continues).

    Returns
    -------
    Workspace
        A new workspace (an existing one is never touched).

    Raises
    ------
    FormatError
        For a malformed file, and for a file that cannot be read (missing, a
        directory, no permission), with a message naming the field or reason.
    Cancelled
        When ``progress`` returned False.
    """

    def run():
        data = _read_bytes(path, progress, 0.5)
        if not data:
            raise FormatError("the file is empty")
        return _workspace_from_text(_decode(data), progress)

    return _guard("workspace file", run)


# ============================================================================ CSV


_COLUMNS = ("x", "y", "label")


def _header(cells: list[str], line: int) -> tuple[int, int, int]:
    """Positions of x, y, label in a header row, or FormatError."""
    names = [c.strip().lower() for c in cells]
    if sorted(names) == sorted(_COLUMNS):
        return names.index("x"), names.index("y"), names.index("label")
    shown = _short(",".join(cells), 60)
    hint = ""
    if len(cells) == 1 and (";" in cells[0] or "\t" in cells[0]):
        hint = " (columns must be separated by commas)"
    elif all(_is_number(c) for c in cells):
        hint = " (the first line must name the columns)"
    elif len(cells) != 3:
        hint = f" ({len(cells)} columns)"
    raise FormatError(f"line {line}: expected the header x,y,label, got {shown}{hint}")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _cell_problem(text: str) -> str | None:
    """Why a coordinate cell is not a finite number, or None."""
    stripped = text.strip()
    if not stripped:
        return "empty value"
    try:
        value = float(stripped)
    except ValueError:
        return f"{_short(stripped)} is not a number"
    if math.isnan(value):
        return "NaN is not allowed"
    if math.isinf(value):
        if "inf" in stripped.lower():
            return "infinity is not allowed"
        return f"{_short(stripped)} is beyond the range of float64"
    return None


class _Rows:
    """The data rows of a CSV file as three columns of strings, with line numbers."""

    def __init__(self, xs, ys, labels, line_of: Callable[[int], int]):
        self.xs, self.ys, self.labels, self.line_of = xs, ys, labels, line_of


def _too_many(n: int) -> FormatError:
    return FormatError(f"the file has {n:,} data rows; the limit is {MAX_POINTS:,}")


def _rows_fast(text: str) -> _Rows:
    """Split a CSV text without any quote character (plain string splitting)."""
    lines = text.split("\n")
    h = 0
    while h < len(lines) and not lines[h].strip():
        h += 1
    if h == len(lines):
        raise FormatError("the file is empty")
    cols = _header(lines[h].split(","), h + 1)
    data = lines[h + 1:]
    first = h + 2  # line number of data[0]
    while data and not data[-1].strip():
        data.pop()
    kept = None
    commas = np.fromiter(map(str.count, data, repeat(",")), np.int64, len(data))
    bad = np.flatnonzero(commas != 2).tolist()
    if bad:
        blank = []
        for i in bad:
            if data[i].strip():
                raise FormatError(
                    f"line {first + i}: expected 3 columns, got {data[i].count(',') + 1}"
                )
            blank.append(i)
        kept = np.delete(np.arange(len(data)), blank)
        blank_set = set(blank)
        data = [line for i, line in enumerate(data) if i not in blank_set]
    if not data:
        raise FormatError(f"no data rows after the header (line {h + 1})")
    if len(data) > MAX_POINTS:
        raise _too_many(len(data))
    cells = ",".join(data).split(",")
    columns = [cells[k::3] for k in range(3)]

    def line_of(i: int) -> int:
        return first + (i if kept is None else int(kept[i]))

    return _Rows(columns[cols[0]], columns[cols[1]], columns[cols[2]], line_of)


def _rows_csv(text: str, progress: Progress | None, lo: float, hi: float) -> _Rows:
    """Split a CSV text with the csv module (quoted fields)."""
    stream = _io.StringIO(text, newline="")
    reader = csv.reader(stream, strict=True)
    length = max(1, len(text))
    header = None
    rows: list[list[str]] = []
    lines: list[int] = []
    count = 0
    prev = 0
    try:
        for row in reader:
            start = prev + 1
            prev = reader.line_num
            if not row or (len(row) == 1 and not row[0].strip()):
                continue  # a blank line
            if header is None:
                header = (_header(row, start), start)
                continue
            if len(row) != 3:
                raise FormatError(f"line {start}: expected 3 columns, got {len(row)}")
            count += 1
            if count <= MAX_POINTS:
                rows.append(row)
                lines.append(start)
            if count % _ROWS_PER_REPORT == 0:
                _report(progress, lo + (hi - lo) * stream.tell() / length)
    except csv.Error as exc:
        raise FormatError(f"line {reader.line_num}: {exc}") from None
    if header is None:
        raise FormatError("the file is empty")
    if not rows:
        raise FormatError(f"no data rows after the header (line {header[1]})")
    if count > MAX_POINTS:
        raise _too_many(count)
    ix, iy, il = header[0]
    return _Rows([r[ix] for r in rows], [r[iy] for r in rows], [r[il] for r in rows],
                 lines.__getitem__)


def _coordinates(rows: _Rows) -> np.ndarray:
    n = len(rows.xs)
    X = np.empty((n, 2))
    first_bad = []
    for k, (name, column) in enumerate((("x", rows.xs), ("y", rows.ys))):
        try:
            X[:, k] = np.array(column, dtype=np.float64)
            finite = np.isfinite(X[:, k])
            bad = None if finite.all() else int(np.argmin(finite))
        except (ValueError, OverflowError):
            bad = next(i for i, c in enumerate(column) if _cell_problem(c) is not None)
        if bad is not None:
            first_bad.append((bad, k, name, column))
    if first_bad:
        i, _, name, column = min(first_bad, key=lambda t: (t[0], t[1]))
        problem = _cell_problem(column[i])
        if problem is None:  # pragma: no cover - numpy and float() agree
            problem = f"{_short(column[i])} could not be read"
        raise FormatError(f"line {rows.line_of(i)}, column {name}: {problem}")
    return X


def _labels(rows: _Rows) -> tuple[np.ndarray, dict]:
    """Labels mapped to -1/+1 (the rule of Dataset.from_labels) and the mapping."""
    column = rows.labels
    raw = set(column)
    empty = [r for r in raw if not r.strip()]
    if empty:
        i = min(column.index(r) for r in empty)
        raise FormatError(f"line {rows.line_of(i)}, column label: empty value")
    values = {}
    for r in raw:
        try:
            values[r] = float(r)
        except ValueError:
            break
    if len(values) == len(raw):  # every label is a number: classes are numbers
        bad = [r for r, v in values.items() if not math.isfinite(v)]
        if bad:
            i = min(column.index(r) for r in bad)
            what = "NaN" if math.isnan(values[column[i]]) else "infinity"
            raise FormatError(f"line {rows.line_of(i)}, column label: {what} is not a label")
        keys = {r: int(v) if v.is_integer() else v for r, v in values.items()}
    else:  # otherwise every label is text ("1" and "dog" are two strings)
        keys = {r: r.strip() for r in raw}
    classes = sorted(set(keys.values()))
    if len(classes) > 2:
        seen: list = []
        for i, cell in enumerate(column):
            key = keys[cell]
            if key not in seen:
                seen.append(key)
                if len(seen) == 3:
                    raise FormatError(
                        f"line {rows.line_of(i)}, column label: a third label "
                        f"{_short(cell.strip())} after {_short(str(seen[0]))} and "
                        f"{_short(str(seen[1]))}; a data set has at most two classes"
                    )
    _, found = Dataset.from_labels(np.zeros((len(classes), 2)), classes)
    mapping = {key: int(found[key]) for key in classes}
    sign = {r: mapping[k] for r, k in keys.items()}
    y = np.array([sign[c] for c in column], dtype=np.int64)
    return y, mapping


def _csv_from_text(text: str, progress: Progress | None = None, *, fast: bool = True
                   ) -> tuple[Dataset, dict]:
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise FormatError("the file is empty")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if fast and '"' not in text:
        rows = _rows_fast(text)
    else:
        rows = _rows_csv(text, progress, 0.3, 0.7)
    _report(progress, 0.7)
    X = _coordinates(rows)
    _report(progress, 0.9)
    y, mapping = _labels(rows)
    dataset = Dataset(X, y)
    _report(progress, 1.0)
    return dataset, mapping


def read_csv_with_mapping(path, progress: Progress | None = None) -> tuple[Dataset, dict]:
    """Read a CSV file of points and return the data set and the label mapping.

    Parameters
    ----------
    path : str or os.PathLike
        A UTF-8 text file with a header ``x,y,label`` (see the module docs).
    progress : callable, optional
        ``progress(fraction)`` with ``fraction`` in [0, 1], called while the
        file is read and parsed; returning ``False`` cancels.

    Returns
    -------
    dataset : Dataset
        The points, labels mapped to -1/+1.
    mapping : dict
        Original label (an int, a float or a str) -> -1 or +1, e.g.
        ``{0: -1, 1: 1}`` or ``{"cat": -1, "dog": 1}``; labels already in
        {-1, +1} map to themselves.

    Raises
    ------
    FormatError
        For a malformed or unreadable file; the message names the line, e.g.
        ``"line 7, column x: 'abc' is not a number"``.
    Cancelled
        When ``progress`` returned False.
    """

    def run():
        data = _read_bytes(path, progress, 0.3)
        if not data:
            raise FormatError("the file is empty")
        return _csv_from_text(_decode(data), progress)

    return _guard("CSV file", run)


def read_csv(path, progress: Progress | None = None) -> Dataset:
    """Read a CSV file of points into a :class:`Dataset` (see :func:`read_csv_with_mapping`)."""
    return read_csv_with_mapping(path, progress)[0]


def write_csv(dataset: Dataset, path) -> None:
    """Write a data set as CSV (``x,y,label``), atomically.

    Coordinates are written with :func:`repr`, the shortest decimal text that
    reads back to the same float64, and labels as ``-1``/``1``, so
    :func:`read_csv`, ``numpy.loadtxt(path, delimiter=",", skiprows=1)`` and
    ``pandas.read_csv(path)`` (pandas 3; older pandas with
    ``float_precision="round_trip"``) give the points back bit for bit.

    Raises
    ------
    ValueError
        For an empty data set (:func:`read_csv` rejects a file without data
        rows, so none is written).
    OSError
        When the file cannot be written (any previous file stays intact).
    """
    if dataset.n == 0:
        raise ValueError("the data set is empty: there is nothing to write")
    xs = dataset.X[:, 0].tolist()
    ys = dataset.X[:, 1].tolist()
    labels = dataset.y.tolist()

    def chunks():
        yield "x,y,label\n"
        for start in range(0, len(xs), 8192):
            stop = start + 8192
            yield "".join(
                f"{x!r},{y!r},{label}\n"
                for x, y, label in zip(xs[start:stop], ys[start:stop], labels[start:stop],
                                       strict=True)
            )

    _atomic_write(path, chunks())
