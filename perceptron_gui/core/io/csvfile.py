"""CSV files of labeled points (``x, y, label``): read with validation, written atomically.

The format is specified in ``docs/csv-format.md``.
"""

from __future__ import annotations

import csv
import io as _io
import math
from collections.abc import Callable
from itertools import repeat

import numpy as np

from ..dataset import Dataset
from . import files
from .files import (
    FormatError,
    Progress,
    atomic_write_bytes,
    decode,
    guard_reader,
    read_bytes,
    report_progress,
    short_repr,
)

_ROWS_PER_REPORT = 65_536  # CSV rows parsed between progress reports (slow path)


_COLUMNS = ("x", "y", "label")


def _header(cells: list[str], line: int) -> tuple[int, int, int]:
    """Positions of x, y, label in a header row, or FormatError."""
    names = [c.strip().lower() for c in cells]
    if sorted(names) == sorted(_COLUMNS):
        return names.index("x"), names.index("y"), names.index("label")
    shown = short_repr(",".join(cells), 60)
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
        return f"{short_repr(stripped)} is not a number"
    if math.isnan(value):
        return "NaN is not allowed"
    if math.isinf(value):
        if "inf" in stripped.lower():
            return "infinity is not allowed"
        return f"{short_repr(stripped)} is beyond the range of float64"
    return None


class _Rows:
    """The data rows of a CSV file as three columns of strings, with line numbers."""

    def __init__(self, xs, ys, labels, line_of: Callable[[int], int]):
        self.xs, self.ys, self.labels, self.line_of = xs, ys, labels, line_of


def _too_many(n: int) -> FormatError:
    return FormatError(f"the file has {n:,} data rows; the limit is {files.MAX_POINTS:,}")


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
    if len(data) > files.MAX_POINTS:
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
            if count <= files.MAX_POINTS:
                rows.append(row)
                lines.append(start)
            if count % _ROWS_PER_REPORT == 0:
                report_progress(progress, lo + (hi - lo) * stream.tell() / length)
    except csv.Error as exc:
        raise FormatError(f"line {reader.line_num}: {exc}") from None
    if header is None:
        raise FormatError("the file is empty")
    if not rows:
        raise FormatError(f"no data rows after the header (line {header[1]})")
    if count > files.MAX_POINTS:
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
            problem = f"{short_repr(column[i])} could not be read"
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
    cap = files.MAX_LABEL_CHARS
    long = [r for r in raw if len(r) > cap and len(r.strip()) > cap]
    if long:
        i = min(column.index(r) for r in long)
        raise FormatError(f"line {rows.line_of(i)}, column label: a label of "
                          f"{len(column[i].strip()):,} characters is too long (at most {cap})")
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
                        f"{short_repr(cell.strip())} after {short_repr(str(seen[0]))} and "
                        f"{short_repr(str(seen[1]))}; a data set has at most two classes"
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
    report_progress(progress, 0.7)
    X = _coordinates(rows)
    report_progress(progress, 0.9)
    y, mapping = _labels(rows)
    dataset = Dataset(X, y)
    report_progress(progress, 1.0)
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
        data = read_bytes(path, progress, 0.3)
        if not data:
            raise FormatError("the file is empty")
        return _csv_from_text(decode(data), progress)

    return guard_reader("CSV file", run)


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

    atomic_write_bytes(path, (chunk.encode("utf-8") for chunk in chunks()))
