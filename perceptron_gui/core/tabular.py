"""The one reader of delimited text files: sniff the dialect, then parse once with pandas.

A table of points comes in many shapes: ``x,y,label``; scikit-learn's
``iris.csv`` (its first line counts the rows and names the classes); a pandas
``to_csv`` file (an unnamed index column); extra columns; an Excel trailing
comma; a European file (``;`` between fields, ``,`` as the decimal mark); a
TSV; columns separated by spaces. :func:`sniff` looks at the first lines and
says what it sees (encoding, delimiter, decimal mark, header, columns, which
are numeric, an index column) and guesses the x, y and label columns;
:func:`read_table` then parses the whole file once with pandas' C parser and
maps the labels to -1/+1.

Columns are named by their header, or by their position counted from 1 (in a
file without a header, and in any file as a fallback): ``x="sepal_length"``,
``x=1`` and ``x="1"`` all work. The guess: a header naming ``x``, ``y`` and
``label`` is used as it is; otherwise the label is the last column with few
distinct values (text columns first, then integer ones), and x and y are the
first two other numeric columns. When the guess fails, the error names the
options to use (``--x``, ``--y``, ``--label``).

Labels follow the rule of the CSV import: numbers are numbers (``1`` and
``1.0`` are one class), anything else is text (stripped); ``-1``/``+1`` keep
their sign, two other values are sorted and the first becomes -1, one value
becomes +1. With more than two values, ``positive=A`` alone makes A the +1
class against the rest, ``positive=A, negative=B`` keeps only those two
classes (``negative=B`` alone: B against the rest).

A row whose x, y or label is missing or not a finite number is an error naming
its line (1-based, as an editor counts), unless ``skip_bad_rows`` is given:
then the row is skipped and its line listed in the result. Line numbers count
physical lines; a quoted field spanning several lines is not accounted for.

Every error is a :class:`~perceptron_gui.core.io.FormatError` (a
:class:`ValueError`); cancelling raises :class:`~perceptron_gui.core.io.Cancelled`.
pandas is imported inside the functions that parse, never when this module is
imported, so launching the program does not pay for it.

The module is about 1,000 lines because sniffing and parsing share the dialect
rules (delimiter, decimal mark, header, index column) and the label rules: one
reader with one set of messages for the dialog, the command line and scripts.
"""

from __future__ import annotations

import contextlib
import csv
import math
import os
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .dataset import Dataset
from .io import files
from .io.files import Cancelled, FormatError

__all__ = [
    "MAX_LABEL_CHARS",
    "SNIFF_BYTES",
    "Sniffed",
    "TableResult",
    "TooManyLabels",
    "read_table",
    "sniff",
]

#: The longest label accepted, in characters.
MAX_LABEL_CHARS = 200
#: How much of the file :func:`sniff` reads.
SNIFF_BYTES = 64 * 1024
#: Rows of the preview.
PREVIEW_ROWS = 20

_SNIFF_LINES = 500  # lines of the sample that are analysed
_CHUNK_ROWS = 1 << 18  # at most this many rows parsed between progress reports (files
_CHUNK_BYTES = 4 * 2**20  # above _ONE_READ_BYTES), and about this many bytes: Cancel answers
_ONE_READ_BYTES = 64 * 2**20  # files up to this size are parsed in one call
_USECOLS_FROM = 16  # pandas' usecols costs more than parsing a few extra columns
_SHOWN_BAD = 5  # bad lines named in an error
_LOW_CARDINALITY = 20  # at most this many distinct values make a label column
_NUMERIC_SHARE = 0.8  # a column with this share of numbers is numeric (the rest are bad rows)

#: The cells pandas reads as missing (its default ``na_values``), plus the empty cell.
_NA = frozenset({
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
    "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
})

_DELIMITER_NAMES = {
    ",": ",", "comma": ",", ";": ";", "semicolon": ";", "\t": "\t", "\\t": "\t",
    "tab": "\t", " ": " ", "space": " ", "whitespace": " ", "|": "|", "pipe": "|",
}
_CANDIDATES = ("\t", ";", ",", "|", " ")
_DELIMITER_TEXT = {",": "comma", ";": "semicolon", "\t": "tab", " ": "whitespace",
                   "|": "pipe"}

Progress = Callable[[float], object]


# ============================================================================ results


class TooManyLabels(FormatError):
    """The label column holds more than two classes and none was chosen.

    Attributes
    ----------
    classes : tuple
        Every class found (after skipping bad rows), sorted.
    skipped_lines : tuple of int
        The lines that were skipped (with ``skip_bad_rows``).
    """

    def __init__(self, message: str, classes=(), skipped_lines=()):
        super().__init__(message)
        self.classes = tuple(classes)
        self.skipped_lines = tuple(skipped_lines)


@dataclass(frozen=True)
class Sniffed:
    """What :func:`sniff` found in the first lines of a file.

    Attributes
    ----------
    encoding : str
        ``"utf-8"``, or ``"utf-8-sig"`` when the file starts with a byte-order mark.
    delimiter : str
        ``","``, ``";"``, ``"\\t"``, ``"|"``, or ``" "`` for any run of whitespace.
    decimal : str
        The decimal mark, ``"."`` or ``","``.
    header : bool
        Whether the first non-blank line names the columns.
    skip_lines : int
        Physical lines before the first data row (blank lines, the header,
        scikit-learn's count line).
    columns : tuple of str
        Column names: the header's, or ``"1"``, ``"2"``, ... without one.
    numeric : tuple of bool
        Per column, whether the non-missing values in the sample are numbers
        (at least 80 % of them: the others are then reported as bad rows).
    index_column : int or None
        0-based position of an index column (unnamed, counting 0, 1, 2, ...), not data.
    class_names : tuple of str or None
        The class names of a scikit-learn count header (``150,4,setosa,...``):
        label ``k`` in the last column is ``class_names[k]``.
    x, y, label : str or None
        The guessed columns (None when there is no guess).
    guess_error : str or None
        Why there is no guess, naming the options to use.
    preview : tuple of tuple of str
        The first :data:`PREVIEW_ROWS` data rows as text, one cell per column.
    levels : tuple
        Per column, its distinct values in the sample (sorted text) when
        there are at most 20 of them, else None: the candidate label columns.
    line_bytes : float
        Mean bytes per line in the sample (to estimate progress).
    """

    encoding: str
    delimiter: str
    decimal: str
    header: bool
    skip_lines: int
    columns: tuple[str, ...]
    numeric: tuple[bool, ...]
    index_column: int | None
    class_names: tuple[str, ...] | None
    x: str | None
    y: str | None
    label: str | None
    guess_error: str | None
    preview: tuple[tuple[str, ...], ...]
    levels: tuple[tuple[str, ...] | None, ...] = ()
    line_bytes: float = 0.0

    @property
    def delimiter_name(self) -> str:
        """The delimiter in words: ``"comma"``, ``"semicolon"``, ``"tab"``, ``"whitespace"``."""
        return _DELIMITER_TEXT.get(self.delimiter, repr(self.delimiter))

    def position(self, column) -> int:
        """0-based position of a column given by name or by 1-based position.

        Raises
        ------
        FormatError
            When no column has that name or position; the message lists the columns.
        """
        return _position(self, column)


@dataclass(frozen=True)
class TableResult:
    """What :func:`read_table` read.

    Attributes
    ----------
    dataset : Dataset
        The points, labels mapped to -1/+1.
    mapping : dict
        Original label (int, float or str) -> -1 or +1, for every label kept.
    x, y, label : str
        The names of the columns used.
    skipped_lines : tuple of int
        1-based lines of the rows skipped for a missing or non-numeric value
        (only with ``skip_bad_rows``).
    n_other : int
        Rows dropped because their label is neither ``positive`` nor ``negative``.
    sniffed : Sniffed
        The dialect the file was read with.
    """

    dataset: Dataset
    mapping: dict
    x: str
    y: str
    label: str
    skipped_lines: tuple[int, ...]
    n_other: int
    sniffed: Sniffed

    @property
    def summary(self) -> str:
        """One line for a status bar: points read, mapping, rows skipped or dropped."""
        parts = [f"{self.dataset.n:,} points ({self.x}, {self.y}; label {self.label}: "
                 + ", ".join(f"{_label_text(k)} → {v:+d}" for k, v in
                             list(self.mapping.items())[:6])
                 + (", …" if len(self.mapping) > 6 else "") + ")"]
        n = len(self.skipped_lines)
        if n:
            parts.append(f"skipped {n:,} row{'s' if n > 1 else ''} with a missing or "
                         f"non-numeric value (line{'s' if n > 1 else ''} "
                         f"{_lines_text(self.skipped_lines)})")
        if self.n_other:
            parts.append(f"left out {self.n_other:,} row{'s' if self.n_other > 1 else ''} "
                         "of other classes")
        return "; ".join(parts)


# ============================================================================ helpers


def _short(text: str, limit: int = 40) -> str:
    """``repr`` of a string cut to ``limit`` characters for a message."""
    if len(text) > limit:
        text = text[:limit] + "…"
    return repr(text)


def _label_text(key) -> str:
    return _short(key, 20) if isinstance(key, str) else repr(key)


def _lines_text(lines, shown: int = _SHOWN_BAD) -> str:
    text = ", ".join(str(n) for n in lines[:shown])
    return text + (", …" if len(lines) > shown else "")


def _report(progress: Progress | None, cancelled, fraction: float) -> None:
    if cancelled is not None and cancelled():
        raise Cancelled("loading cancelled")
    if progress is not None and progress(min(1.0, max(0.0, fraction))) is False:
        raise Cancelled("loading cancelled")


def _open_regular(path):
    """Open a regular file for reading (io.files' one check), with the size limit."""
    name = files.file_name(path)
    try:
        f = files.open_regular(name)
    except OSError as exc:
        raise FormatError(f"cannot read {name!r}: {exc.strerror or exc}") from exc
    try:
        size = os.fstat(f.fileno()).st_size
        if size > files.MAX_FILE_BYTES:
            raise FormatError(
                f"the file is {files.size_text(size)}; the limit is "
                f"{files.size_text(files.MAX_FILE_BYTES)}")
    except BaseException:
        f.close()
        raise
    return f, size


def _encoding(data: bytes) -> str:
    """``"utf-8"`` or ``"utf-8-sig"``, or FormatError saying what the bytes look like."""
    files.sniff_binary(data)  # UTF-16/32 (with or without a byte-order mark), binary files
    return "utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8"


def _decode(data: bytes, encoding: str, complete: bool) -> str:
    offset = 3 if encoding == "utf-8-sig" else 0
    if not complete:
        cut = data.rfind(b"\n")
        if cut < 0:
            raise FormatError(
                f"line 1 is longer than {SNIFF_BYTES:,} bytes; this is not a table of points")
        data = data[:cut + 1]
    return files.decode_utf8(data, offset)


def _is_number(cell: str, decimal: str = ".") -> bool:
    text = cell.strip()
    if decimal == "," and "." not in text:
        text = text.replace(",", ".", 1)
    try:
        float(text)
    except ValueError:
        return False
    return "_" not in text  # float() accepts 1_000; pandas does not


def _missing(cell: str) -> bool:
    return cell.strip() in _NA


def _split(lines: list[str], delimiter: str) -> list[list[str]]:
    if delimiter == " ":
        return [line.split() for line in lines]
    try:
        return list(csv.reader(lines, delimiter=delimiter))
    except csv.Error:
        return [line.split(delimiter) for line in lines]


def _mode(values: list[int]) -> tuple[int, float]:
    """The most common value and its share."""
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    best = max(counts, key=lambda v: (counts[v], v))
    return best, counts[best] / len(values)


_DECIMAL_COMMA = re.compile(r"^\s*[+-]?\d*,\d+([eE][+-]?\d+)?\s*$")
_DECIMAL_POINT = re.compile(r"^\s*[+-]?\d*\.\d+([eE][+-]?\d+)?\s*$")


def _score(rows: list[list[str]], delimiter: str) -> tuple:
    """How well a delimiter splits the sample: (consistent share, clean share, width)."""
    data = rows[1:] if len(rows) > 1 else rows
    width, share = _mode([len(r) for r in data])
    if width < 2:
        return (0.0, 0.0, width)
    others = [c for c in _CANDIDATES if c != delimiter and c != " "]
    cells = [c for r in data for c in r]
    clean = sum(
        1 for c in cells
        if not any(o in c for o in others) or (delimiter != "," and _DECIMAL_COMMA.match(c))
    ) / max(1, len(cells))
    return (round(share, 2), round(clean, 2), width)


def _delimiter(lines: list[str]) -> str:
    best, best_score = None, None
    for d in _CANDIDATES:
        score = _score(_split(lines, d), d)
        if score[2] >= 2 and (best_score is None or score[:2] > best_score[:2]):
            best, best_score = d, score
    if best is None:
        raise FormatError(
            "could not find the columns: no comma, semicolon, tab or whitespace separates "
            "the fields consistently; name the delimiter with --delimiter")
    return best


def _normalise_delimiter(delimiter) -> str:
    if delimiter in _DELIMITER_NAMES:
        return _DELIMITER_NAMES[delimiter]
    if isinstance(delimiter, str) and len(delimiter) == 1 and not delimiter.isalnum() \
            and delimiter not in "\"'.\r\n":
        return delimiter
    raise FormatError(
        f"--delimiter {delimiter!r} is not a delimiter; use one of: comma, semicolon, tab, "
        "whitespace, or a single punctuation character")


def _counts_from(column: list[str]) -> bool:
    """Whether a column of cells counts 0, 1, 2, ... (or 1, 2, 3, ...)."""
    try:
        values = [int(c.strip()) for c in column]
    except ValueError:
        return False
    return bool(values) and values[0] in (0, 1) and \
        values == list(range(values[0], values[0] + len(values)))


def _count_header(first: list[str], data: list[list[str]], width: int) -> tuple | None:
    """The class names of scikit-learn's count line ``n_samples,n_features,names...``."""
    if len(first) < 3 or not all(c.strip().isdigit() for c in first[:2]):
        return None
    names = tuple(c.strip() for c in first[2:])
    if any(_is_number(n) or not n for n in names) or int(first[1]) + 1 != width:
        return None
    last = [r[-1].strip() for r in data if len(r) == width]
    if not last or not all(c.isdigit() and int(c) < len(names) for c in last):
        return None
    return names


# ============================================================================ sniff


def _read_head(path_or_bytes) -> tuple[bytes, bool]:
    if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
        data = bytes(path_or_bytes)
        return data[:SNIFF_BYTES], len(data) <= SNIFF_BYTES
    f, _ = _open_regular(path_or_bytes)
    try:
        with f:
            data = f.read(SNIFF_BYTES + 1)
    except OSError as exc:
        raise FormatError(f"cannot read {os.fspath(path_or_bytes)!r}: "
                          f"{exc.strerror or exc}") from exc
    return data[:SNIFF_BYTES], len(data) <= SNIFF_BYTES


def sniff(path_or_bytes, *, delimiter=None, header: bool | None = None) -> Sniffed:
    """Look at the first lines of a delimited text file.

    Parameters
    ----------
    path_or_bytes : str, os.PathLike or bytes
        A file (only its first :data:`SNIFF_BYTES` bytes are read), or its
        content.
    delimiter : str, optional
        Force the delimiter: ``","``, ``";"``, ``"\\t"``, ``" "`` (any
        whitespace), or one of the words ``comma``, ``semicolon``, ``tab``,
        ``whitespace``. By default it is detected.
    header : bool, optional
        Whether the first non-blank line names the columns. By default it is
        detected (and scikit-learn's count line recognised).

    Returns
    -------
    Sniffed
        The dialect, the columns, the guess and a preview.

    Raises
    ------
    FormatError
        For a file that is not UTF-8 text (naming what it looks like: UTF-16,
        UTF-32, an image, ...), is empty, is not a regular file (refused before
        it is opened, so a FIFO does not block) or cannot be read.
    """
    return _guarded(_sniff, path_or_bytes, delimiter, header)


def _guarded(func, *args):
    """Run a reader; turn any unforeseen exception into a FormatError (a backstop)."""
    try:
        return func(*args)
    except (FormatError, Cancelled):
        raise
    except RecursionError:
        raise FormatError("the file is nested too deeply to read") from None
    except MemoryError:
        raise FormatError("the file is too large to read into memory") from None
    except Exception as exc:
        raise FormatError(
            f"internal error while reading the table ({type(exc).__name__}: {exc}); "
            "please report this with the file") from exc


def _sniff(path_or_bytes, delimiter, forced_header: bool | None = None) -> Sniffed:
    data, complete = _read_head(path_or_bytes)
    if not data.strip():
        raise FormatError("the file is empty")
    encoding = _encoding(data)
    text = _decode(data, encoding, complete)
    physical = text.splitlines()
    numbered = [(i, line) for i, line in enumerate(physical) if line.strip()][:_SNIFF_LINES]
    if not numbered:
        raise FormatError("the file is empty")
    lines = [line for _, line in numbered]
    if lines[0].lstrip().startswith(("{", "[{", "[[")):
        raise FormatError("this is JSON (a workspace file?), not a table of points; open a "
                          "workspace with File ▸ Open")
    sep = _normalise_delimiter(delimiter) if delimiter is not None else _delimiter(lines)
    rows = _split(lines, sep)
    first, data_rows = rows[0], rows[1:]
    width = _mode([len(r) for r in data_rows])[0] if data_rows else len(first)

    cells = [c for r in rows for c in r]
    decimal = "."
    if sep != "," and any(_DECIMAL_COMMA.match(c) for c in cells) \
            and not any(_DECIMAL_POINT.match(c) for c in cells):
        decimal = ","

    def numeric_column(j: int, rows_) -> bool:
        values = [r[j] for r in rows_ if j < len(r) and not _missing(r[j])]
        numbers = sum(_is_number(v, decimal) for v in values)
        return bool(values) and numbers >= _NUMERIC_SHARE * len(values)

    class_names = _count_header(first, data_rows, width) \
        if data_rows and forced_header is None else None
    first_is_number = [_is_number(c, decimal) for c in first]
    if forced_header is not None:
        header = bool(forced_header)
    elif class_names is not None:
        header = False
    elif any(first_is_number):
        header = any(not num and not _missing(c) and numeric_column(j, data_rows)
                     for j, (c, num) in enumerate(zip(first, first_is_number, strict=True)))
    else:
        header = True
    skip = numbered[0][0] + 1 if header or class_names else numbered[0][0]
    body = data_rows if header or class_names else rows
    n_columns = max([width] + ([len(first)] if header else []))
    index_column = None
    if header:
        names = [c.strip() for c in first]
        if len(names) == width - 1:  # R's write.csv and pandas with index_label=False
            names = [""] + names
        names += [""] * (n_columns - len(names))
        if names[0] in ("", "Unnamed: 0") and _counts_from([r[0] for r in body if r]):
            index_column = 0
    else:
        names = [str(k + 1) for k in range(n_columns)]
    numeric = tuple(numeric_column(j, body) for j in range(n_columns))
    preview = tuple(tuple(r) for r in body[:PREVIEW_ROWS])
    draft = Sniffed(
        encoding=encoding, delimiter=sep, decimal=decimal, header=header, skip_lines=skip,
        columns=tuple(names), numeric=numeric, index_column=index_column,
        class_names=class_names, x=None, y=None, label=None, guess_error=None,
        preview=preview, levels=tuple(_levels(body, j) for j in range(n_columns)),
        line_bytes=len(text.encode()) / max(1, len(physical)))
    guess, problem = _guess(draft)
    return Sniffed(**{**draft.__dict__, **guess, "guess_error": problem})


def _levels(body: list[list[str]], j: int) -> tuple[str, ...] | None:
    """The distinct values of a column in the sample if they are few (a label), else None."""
    values = {r[j].strip() for r in body if j < len(r) and not _missing(r[j])}
    few = 1 <= len(values) <= _LOW_CARDINALITY and \
        (len(values) <= 2 or len(values) <= len(body) / 2)
    return tuple(sorted(values)) if few else None


def _guess(sn: Sniffed) -> tuple[dict, str | None]:
    """The default x, y, label columns, or why there are none."""
    names = sn.columns
    usable = [j for j in range(len(names)) if j != sn.index_column]
    twice = [j for j in usable if names[j] and names.index(names[j]) != j]
    if twice:
        first = names.index(names[twice[0]])
        return {"x": None, "y": None, "label": None}, (
            f"the header names column {names[first]!r} twice (columns {first + 1} and "
            f"{twice[0] + 1}); name the columns by position, e.g. --x 1 --y 2 --label 3")
    lower = {names[j].lower(): j for j in usable}
    if all(k in lower for k in ("x", "y", "label")):
        return {"x": names[lower["x"]], "y": names[lower["y"]],
                "label": names[lower["label"]]}, None

    label = None
    if sn.class_names is not None:
        label = len(names) - 1
    else:
        text_cols, int_cols = [], []
        for j in usable:
            values = sn.levels[j]
            if values is None:
                continue
            if not sn.numeric[j]:
                text_cols.append(j)
            elif all(_is_number(v, sn.decimal) and float(v.replace(",", ".")).is_integer()
                     for v in values):
                int_cols.append(j)
        label = (text_cols or int_cols or [None])[-1]
    coords = [j for j in usable if sn.numeric[j] and j != label]
    guess = {"label": None if label is None else names[label]}
    if len(coords) >= 2:
        guess.update(x=names[coords[0]], y=names[coords[1]])
    shown = ", ".join(repr(names[j]) for j in usable[:12])
    if label is None:
        return guess, (f"no column looks like a label (a column with few distinct values) "
                       f"among {shown}; name it with --label")
    if len(coords) < 2:
        return guess, (f"found {len(coords)} numeric column(s) besides the label among "
                       f"{shown}; name the coordinates with --x and --y")
    return guess, None


def _position(sn: Sniffed, column) -> int:
    if isinstance(column, (int, np.integer)) and not isinstance(column, bool):
        k = int(column)
        if 1 <= k <= len(sn.columns):
            return k - 1
    else:
        text = str(column)
        if text in sn.columns and text:
            return sn.columns.index(text)
        folded = [c.strip().lower() for c in sn.columns]
        if text.strip().lower() in folded and text.strip():
            return folded.index(text.strip().lower())
        if text.strip().isdigit() and 1 <= int(text) <= len(sn.columns):
            return int(text) - 1
    listing = ", ".join(
        f"{k + 1}" + (f" ({c!r})" if sn.header and c else "")
        for k, c in enumerate(sn.columns[:20]))
    raise FormatError(f"no column {column!r}; the columns are {listing}"
                      + (", …" if len(sn.columns) > 20 else ""))


# ============================================================================ read


def _choose(sn: Sniffed, x, y, label, positive=None, negative=None) -> tuple[int, int, int]:
    """Positions of the x, y and label columns: the given ones, the rest guessed.

    Without a label column, ``positive`` / ``negative`` pick the column whose
    values (in the sample) include them, if the guessed one does not.
    """
    chosen = {}
    for role, given in (("x", x), ("y", y), ("label", label)):
        if given is not None:
            chosen[role] = _position(sn, given)
    missing = [r for r in ("x", "y", "label") if r not in chosen]
    if missing:
        taken = set(chosen.values())
        guess = {r: getattr(sn, r) for r in ("x", "y", "label")}
        wanted = [str(v).strip().lower() for v in (positive, negative) if v is not None]
        if "label" in missing and wanted:
            holding = [j for j, lv in enumerate(sn.levels)
                       if lv is not None and j not in taken and j != sn.index_column
                       and all(w in {v.lower() for v in lv} for w in wanted)]
            if holding and guess["label"] not in [sn.columns[j] for j in holding]:
                guess["label"] = sn.columns[holding[-1]]
        free_numeric = [j for j in range(len(sn.columns))
                        if sn.numeric[j] and j != sn.index_column and j not in taken
                        and (guess["label"] is None or "label" in chosen
                             or j != sn.columns.index(guess["label"]))]
        for role in missing:
            if role == "label":
                if guess["label"] is None or sn.columns.index(guess["label"]) in taken:
                    raise FormatError(sn.guess_error or "cannot guess the label column; "
                                      "name it with --label")
                chosen[role] = sn.columns.index(guess["label"])
            elif guess[role] is not None and sn.columns.index(guess[role]) not in taken \
                    and sn.columns.index(guess[role]) not in chosen.values():
                chosen[role] = sn.columns.index(guess[role])
            else:
                spare = [j for j in free_numeric if j not in chosen.values()]
                if not spare:
                    raise FormatError(
                        sn.guess_error or f"cannot guess the {role} column; name the "
                        "coordinates with --x and --y")
                chosen[role] = spare[0]
    ix, iy, il = chosen["x"], chosen["y"], chosen["label"]
    if len({ix, iy, il}) < 3:
        raise FormatError(
            f"x, y and label must be three different columns; got {sn.columns[ix]!r}, "
            f"{sn.columns[iy]!r} and {sn.columns[il]!r}")
    return ix, iy, il


def _floats(series, decimal: str):
    """A column as float64 and a mask of its cells that are not numbers (missing excluded)."""
    import pandas as pd

    if series.dtype.kind in "iuf":
        return series.to_numpy(dtype=np.float64), np.zeros(len(series), dtype=bool)
    if series.dtype.kind == "b":
        return np.full(len(series), np.nan), series.notna().to_numpy()
    text = series.astype(object)
    if decimal == ",":
        text = text.str.replace(",", ".", regex=False)
    try:
        values = pd.to_numeric(text, errors="coerce").to_numpy(dtype=np.float64)
    except (OverflowError, ValueError):  # an integer too long for pandas' converter
        values = np.array([_float_or_nan(c) for c in text], dtype=np.float64)
    not_number = np.isnan(values) & series.notna().to_numpy()
    return values, not_number


def _float_or_nan(cell) -> float:
    try:
        return float(str(cell).strip())
    except (ValueError, OverflowError):
        return math.nan


def _cell_problem(raw, value: float, not_number: bool) -> str:
    if not_number:
        return f"{_short(str(raw).strip())} is not a number"
    if math.isnan(value):
        return "missing value"
    if isinstance(raw, str):
        return f"{_short(raw.strip())} is not a finite number"
    return "infinity, or a number beyond the range of float64, is not allowed"


def _not_utf8(name: str, encoding: str) -> FormatError:
    """The error for a file that is not UTF-8 beyond its sniffed start: its first bad byte
    and line, found by decoding the file again piece by piece (each piece ends a line)."""
    where = ""
    try:
        with open(name, "rb") as f:
            start, lines, rest = 0, 0, b""
            if encoding == "utf-8-sig":
                start = len(f.read(3))
            while True:
                block = f.read(4 * 2**20)
                data = rest + block
                cut = len(data) if not block else data.rfind(b"\n") + 1
                piece, rest = data[:cut], data[cut:]
                try:
                    piece.decode("utf-8")
                except UnicodeDecodeError as exc:
                    line = lines + piece.count(b"\n", 0, exc.start) + 1
                    where = f" at byte {start + exc.start:,} (line {line:,})"
                    break
                start, lines = start + len(piece), lines + piece.count(b"\n")
                if not block:
                    break
    except OSError:
        pass
    return FormatError(f"not UTF-8 text{where}; save the file as UTF-8")


def _parse(name: str, size: int, sn: Sniffed, cols: tuple[int, int, int], *,
           skip_bad_rows: bool, max_rows: int, progress, cancelled):
    """Parse the columns with pandas' C reader, in chunks; returns arrays and bad-row info."""
    import pandas as pd
    from pandas.errors import ParserError, ParserWarning

    ix, iy, il = cols
    kwargs = dict(
        sep=r"\s+" if sn.delimiter == " " else sn.delimiter, decimal=sn.decimal,
        header=0 if sn.header or sn.class_names else None,
        names=list(range(len(sn.columns))), engine="c",
        usecols=sorted(cols) if len(sn.columns) >= _USECOLS_FROM else None,
        encoding=sn.encoding, skip_blank_lines=True,
        on_bad_lines="warn" if skip_bad_rows else "error",
    )
    xs, ys, labels, bad_rows, first_bad = [], [], [], [], []
    expected = max(1.0, size / max(1.0, sn.line_bytes))
    ragged: list[int] = []
    n = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if size <= _ONE_READ_BYTES:
                reader = contextlib.nullcontext([pd.read_csv(name, **kwargs)])
            else:
                rows = min(_CHUNK_ROWS, max(1024, int(_CHUNK_BYTES / max(1.0, sn.line_bytes))))
                reader = pd.read_csv(name, chunksize=rows, **kwargs)
            with reader as chunks:
                for chunk in chunks:
                    m = len(chunk)
                    if n + m > max_rows:
                        raise FormatError(
                            f"the file has more than {max_rows:,} data rows; the limit is "
                            f"{max_rows:,}")
                    cx, cy, cl = chunk[ix], chunk[iy], chunk[il]
                    fx, nx = _floats(cx, sn.decimal)
                    fy, ny = _floats(cy, sn.decimal)
                    bad = ~np.isfinite(fx) | ~np.isfinite(fy) | cl.isna().to_numpy()
                    if bad.any():
                        where = np.flatnonzero(bad)
                        bad_rows.append(where + n)
                        for i in where[:_SHOWN_BAD - len(first_bad)].tolist():
                            for name, raw, vals, nn in (("x", cx, fx, nx), ("y", cy, fy, ny)):
                                if not math.isfinite(vals[i]):
                                    first_bad.append(
                                        (n + i, name, _cell_problem(raw.iloc[i], vals[i], nn[i])))
                                    break
                            else:
                                first_bad.append((n + i, "label", "missing value"))
                    xs.append(fx)
                    ys.append(fy)
                    labels.append(cl)
                    n += m
                    _report(progress, cancelled, 0.05 + 0.85 * min(1.0, n / expected))
        except ParserError as exc:
            found = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", str(exc))
            if found:
                want, line, got = found.groups()
                raise FormatError(
                    f"line {line}: expected {want} columns, got {got}; skip such rows with "
                    "--skip-bad-rows") from None
            if "EOF inside string" in str(exc):
                raise FormatError(
                    'a quoted field is never closed (a " without its closing ")') from None
            raise FormatError(f"cannot parse the file: {exc}") from None
        except UnicodeDecodeError:
            raise _not_utf8(name, sn.encoding) from None
        except pd.errors.EmptyDataError:
            xs = []
        for w in caught:
            if issubclass(w.category, ParserWarning):
                ragged += [int(k) for k in re.findall(r"Skipping line (\d+)", str(w.message))]
    if not xs:
        raise FormatError("no data rows in the file")
    label = pd.concat(labels, ignore_index=True) if len(labels) > 1 else labels[0]
    bad = np.concatenate(bad_rows) if bad_rows else np.empty(0, dtype=np.int64)
    return (np.concatenate(xs), np.concatenate(ys), label.reset_index(drop=True), bad,
            first_bad, sorted(ragged))


def _row_lines(f, sn: Sniffed, rows: np.ndarray, ragged: list[int]) -> list[int]:
    """1-based file lines of the given data rows (blank and skipped lines not counted)."""
    import io as _io

    wanted = np.sort(rows)
    out = []
    if not len(wanted):
        return out
    f.seek(0)
    text = _io.TextIOWrapper(f, encoding=sn.encoding, newline=None, errors="replace")
    skip_set = set(ragged)
    row, k = 0, 0
    for number, line in enumerate(text, start=1):
        if number <= sn.skip_lines or not line.strip() or number in skip_set:
            continue
        while k < len(wanted) and wanted[k] == row:
            out.append(number)
            k += 1
        if k == len(wanted):
            break
        row += 1
    text.detach()
    return out


def _label_keys(uniques, class_names) -> tuple[list, list]:
    """Class key of each unique raw label (today's CSV rule) and the invalid ones' reasons."""
    raw = list(uniques)
    problems = [None] * len(raw)
    numeric = all(isinstance(v, (int, float, np.integer, np.floating)) for v in raw)
    if not numeric:
        texts = [str(v).strip() for v in raw]
        try:
            values = [float(t) for t in texts]
            numeric = all("_" not in t for t in texts)
        except ValueError:
            values = None
        if numeric and values is not None:
            raw = values
        else:
            for k, t in enumerate(texts):
                if not t:
                    problems[k] = "missing value"
                elif len(t) > MAX_LABEL_CHARS:
                    problems[k] = (f"a label of {len(t):,} characters is too long "
                                   f"(at most {MAX_LABEL_CHARS})")
            return texts, problems
    keys = []
    for k, v in enumerate(raw):
        try:
            v = float(v)
        except OverflowError:  # an integer beyond float64 (pandas keeps it a Python int)
            problems[k] = f"a number of {len(str(v).lstrip('-')):,} digits is not a label"
            keys.append(str(v))
            continue
        if not math.isfinite(v):
            problems[k] = "infinity is not a label"
            keys.append(v)
            continue
        key = int(v) if v.is_integer() else v
        if class_names is not None and isinstance(key, int) and 0 <= key < len(class_names):
            key = class_names[key]
        keys.append(key)
    return keys, problems


def _match_class(value, classes: list, option: str, column: str):
    if value is None:
        return None
    text = str(value).strip()
    if text in classes:
        return text
    for c in classes:
        if isinstance(c, str) and c.lower() == text.lower():
            return c
    try:
        number = float(text)
    except ValueError:
        number = None
    if number is not None:
        key = int(number) if number.is_integer() else number
        if key in classes and not isinstance(key, bool):
            return key
    shown = ", ".join(_short(str(c), 30) for c in classes[:12])
    raise FormatError(f"{option} {value!r}: no such label in column {column!r}; the labels "
                      f"are {shown}" + (", …" if len(classes) > 12 else ""))


def _signs(classes: list, positive, negative, column: str) -> dict:
    pos = _match_class(positive, classes, "--positive", column)
    neg = _match_class(negative, classes, "--negative", column)
    if pos is not None and neg is not None:
        if pos == neg:
            raise FormatError(f"--positive and --negative are the same label {pos!r}")
        return {pos: 1, neg: -1}
    if pos is not None:
        return {c: 1 if c == pos else -1 for c in classes}
    if neg is not None:
        return {c: -1 if c == neg else 1 for c in classes}
    if len(classes) > 2:
        shown = ", ".join(_short(str(c), 30) for c in classes[:12])
        more = ", …" if len(classes) > 12 else ""
        raise TooManyLabels(
            f"column {column!r} has {len(classes)} labels ({shown}{more}); choose two with "
            "--positive A --negative B, or one against the rest with --positive A",
            classes=classes)
    _, found = Dataset.from_labels(np.zeros((len(classes), 2)), classes)
    return {c: int(found[c]) for c in classes}


def read_table(path, *, x=None, y=None, label=None, positive=None, negative=None,
               delimiter=None, header: bool | None = None, skip_bad_rows: bool = False,
               max_rows: int = 1_000_000, progress: Progress | None = None,
               cancelled: Callable[[], bool] | None = None,
               summarize: bool = False) -> TableResult:
    """Read points from a delimited text file (CSV, TSV, ...).

    Parameters
    ----------
    path : str or os.PathLike
        A UTF-8 text file (a byte-order mark is accepted).
    x, y, label : str or int, optional
        The columns, by header name or by 1-based position. Those not given
        are guessed (see the module documentation).
    positive, negative : str or number, optional
        With more than two labels: ``positive`` alone is the +1 class against
        the rest; with ``negative`` too only those two classes are kept
        (``negative`` alone: the -1 class against the rest). With two labels
        they override the default mapping.
    delimiter : str, optional
        Force the delimiter (see :func:`sniff`).
    header : bool, optional
        Whether the first line names the columns (default: detected).
    skip_bad_rows : bool, default=False
        Skip rows with a missing or non-numeric x, y or label, or with too
        many fields, and list their lines in the result, instead of failing.
    max_rows : int, default=1_000_000
        The most data rows read.
    progress : callable, optional
        ``progress(fraction)`` with ``fraction`` in [0, 1], called after the
        sniff, between chunks and at the end; returning ``False`` cancels.
    cancelled : callable, optional
        ``cancelled()`` returning True cancels (checked whenever progress is
        reported).
    summarize : bool, default=False
        Also compute the data set's summaries (:meth:`Dataset.summarize`:
        class counts, bounds, radius), for a reader in a worker whose result
        goes to the UI thread, which asks for all of them at once.

    Notes
    -----
    A file of up to 64 MB (a million ``x,y,label`` rows take 40 MB) is
    parsed in one call, which pandas runs about twice as fast as in chunks
    (0.08 s against 0.13 s for a million rows); a larger file is parsed in
    chunks of about 4 MB (at most 262,144 rows), with progress and
    cancellation between them, so that Cancel answers within a few tens of
    milliseconds however wide the rows.

    Returns
    -------
    TableResult

    Raises
    ------
    FormatError
        For anything that cannot be read as points; the message names the
        line, the column, or the options to use. :class:`TooManyLabels` (a
        FormatError) when the label column has more than two classes and
        neither ``positive`` nor ``negative`` is given; it carries the classes.
    Cancelled
        When cancelled.
    """
    result = _guarded(_read_table, path, x, y, label, positive, negative, delimiter, header,
                      skip_bad_rows, max_rows, progress, cancelled)
    if summarize:
        result.dataset.summarize()
    return result


def _read_table(path, x, y, label, positive, negative, delimiter, header, skip_bad_rows,
                max_rows, progress, cancelled) -> TableResult:
    sn = _sniff(path, delimiter, header)
    _report(progress, cancelled, 0.02)
    cols = _choose(sn, x, y, label, positive, negative)
    ix, iy, il = cols
    f, size = _open_regular(path)  # checked again (a regular file), kept for line numbers
    with f:
        try:
            fx, fy, labels, bad, first_bad, ragged = _parse(
                os.fspath(path), size, sn, cols, skip_bad_rows=skip_bad_rows,
                max_rows=max_rows, progress=progress, cancelled=cancelled)
        except MemoryError:
            raise FormatError("the file is too large to read into memory") from None
        import pandas as pd

        codes, uniques = pd.factorize(labels)
        keys, problems = _label_keys(uniques, sn.class_names)
        invalid = [k for k, p in enumerate(problems) if p is not None]
        long = [k for k in invalid if problems[k].startswith("a label of")]
        if long:
            row = int(np.flatnonzero(np.isin(codes, long))[0])
            line = _row_lines(f, sn, np.array([row]), ragged)[0]
            raise FormatError(f"line {line}, column {sn.columns[il]!r}: "
                              f"{problems[codes[row]]}")
        if invalid:
            extra = np.flatnonzero(np.isin(codes, invalid))
            for i in extra[:_SHOWN_BAD].tolist():
                first_bad.append((i, "label", problems[codes[i]]))
            bad = np.union1d(bad, extra)
        if len(bad) and not skip_bad_rows:
            first_bad.sort()
            row, column, problem = first_bad[0]
            name = {"x": sn.columns[ix], "y": sn.columns[iy], "label": sn.columns[il]}[column]
            lines = _row_lines(f, sn, bad[:_SHOWN_BAD], ragged)
            raise FormatError(
                f"line {lines[0]}, column {name!r}: {problem}; {len(bad):,} "
                f"row{'s' if len(bad) > 1 else ''} with a missing or non-numeric value "
                f"(line{'s' if len(bad) > 1 else ''} {_lines_text(lines)}"
                + (", …" if len(bad) > _SHOWN_BAD else "") + "); skip them with --skip-bad-rows")
        skipped = sorted(_row_lines(f, sn, bad, ragged) + ragged) if len(bad) or ragged else []
    if len(bad):
        keep = np.ones(len(fx), dtype=bool)
        keep[bad] = False
        fx, fy, codes = fx[keep], fy[keep], codes[keep]
    used = np.flatnonzero(np.bincount(codes, minlength=len(keys)))
    classes = sorted({keys[k] for k in used.tolist()})
    if not classes:
        raise FormatError("no data rows left after skipping the bad ones"
                          if len(bad) else "no data rows in the file")
    try:
        signs = _signs(classes, positive, negative, sn.columns[il])
    except TooManyLabels as exc:
        raise TooManyLabels(str(exc), classes, skipped) from None
    table = np.zeros(len(keys), dtype=np.int64)
    for k, key in enumerate(keys):
        table[k] = signs.get(key, 0) if problems[k] is None else 0
    yv = table[codes]
    keep_class = yv != 0
    n_other = int(len(yv) - np.count_nonzero(keep_class))
    X = np.empty((len(fx), 2))
    X[:, 0], X[:, 1] = fx, fy
    if n_other:
        X, yv = X[keep_class], yv[keep_class]
    if not len(yv):
        raise FormatError("no rows with the chosen labels")
    mapping = {c: signs[c] for c in classes if c in signs}
    _report(progress, cancelled, 1.0)
    return TableResult(dataset=Dataset(X, yv), mapping=mapping, x=sn.columns[ix],
                       y=sn.columns[iy], label=sn.columns[il], skipped_lines=tuple(skipped),
                       n_other=n_other, sniffed=sn)
