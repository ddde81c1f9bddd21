"""Sniffing a delimited text file: its dialect, its columns and a guess of x, y and label.

The guess: a header naming ``x``, ``y`` and ``label`` is used as it is;
otherwise the label is the last column with few distinct values (text
columns first, then integer ones), and x and y are the first two other
numeric columns.
"""

from __future__ import annotations

import csv
import os
import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

from .. import files
from ..files import FormatError

__all__ = ["PREVIEW_ROWS", "SNIFF_BYTES", "Sniffed", "sniff"]

#: How much of the file :func:`sniff` reads.
SNIFF_BYTES = 64 * 1024
#: Rows of the preview.
PREVIEW_ROWS = 20

_SNIFF_LINES = 500  # lines of the sample that are analysed
_LOW_CARDINALITY = 20  # at most this many distinct values make a label column
_NUMERIC_SHARE = 0.8  # a column with this share of numbers is numeric (the rest are bad rows)


#: The cells pandas reads as missing (its default ``na_values``), plus the empty cell.
_NA = frozenset({
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
    "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
})


#: Each delimiter in words (``" "`` is any run of whitespace).
_DELIMITER_TEXT = {",": "comma", ";": "semicolon", "\t": "tab", " ": "whitespace", "|": "pipe"}
#: What ``--delimiter`` accepts: a delimiter, its words, ``\\t`` and "space".
_DELIMITER_NAMES = {**{d: d for d in _DELIMITER_TEXT},
                    **{word: d for d, word in _DELIMITER_TEXT.items()}, "\\t": "\t", "space": " "}
_CANDIDATES = ("\t", ";", ",", "|", " ")


@dataclass(frozen=True)
class Sniffed:
    """What :func:`sniff` found in the first lines of a file.

    Attributes
    ----------
    encoding : str
        ``"utf-8"``, or ``"utf-8-sig"`` after a byte-order mark.
    delimiter : str
        ``","``, ``";"``, ``"\\t"``, ``"|"``, or ``" "`` for any run of whitespace.
    skip_lines : int
        Physical lines before the first data row (blank lines, the header,
        scikit-learn's count line).
    columns : tuple of str
        The header's names, or ``"1"``, ``"2"``, ... without one.
    numeric : tuple of bool
        Per column, whether at least 80 % of the non-missing values in the
        sample are numbers (the others are then reported as bad rows).
    index_column : int or None
        0-based position of an index column (unnamed, counting 0, 1, 2, ...).
    class_names : tuple of str or None
        The class names of a scikit-learn count header (``150,4,setosa,...``).
    x, y, label, guess_error : str or None
        The guessed columns, or why there is no guess (naming the options).
    levels : tuple
        Per column, its few distinct values in the sample (sorted text), else None.
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
        """0-based position of a column given by name or by 1-based position (FormatError,
        listing the columns, for none)."""
        if isinstance(column, (int, np.integer)) and not isinstance(column, bool):
            k = int(column)
            if 1 <= k <= len(self.columns):
                return k - 1
        else:
            text = str(column)
            if text in self.columns and text:
                return self.columns.index(text)
            folded = [c.strip().lower() for c in self.columns]
            if text.strip().lower() in folded and text.strip():
                return folded.index(text.strip().lower())
            if text.strip().isdigit() and 1 <= int(text) <= len(self.columns):
                return int(text) - 1
        listing = ", ".join(
            f"{k + 1}" + (f" ({c!r})" if self.header and c else "")
            for k, c in enumerate(self.columns[:20]))
        raise FormatError(f"no column {column!r}; the columns are {listing}"
                          + (", …" if len(self.columns) > 20 else ""))


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
    """The most common value (the largest of a tie) and its share."""
    counts = Counter(values)
    best = max(counts, key=lambda v: (counts[v], v))
    return best, counts[best] / len(values)


_DECIMAL_COMMA = re.compile(r"^\s*[+-]?\d*,\d+([eE][+-]?\d+)?\s*$")

_DECIMAL_POINT = re.compile(r"^\s*[+-]?\d*\.\d+([eE][+-]?\d+)?\s*$")


def _numbers_run_together(cell: str) -> bool:
    """A cell such as ``"2.5   3.5"``: numbers that whitespace separates, not one value."""
    parts = cell.split()
    return len(parts) > 1 and all(_is_number(p) for p in parts)


def _score(rows: list[list[str]], delimiter: str) -> tuple:
    """How well a delimiter splits the sample: (consistent share, clean share, width).

    A cell is not clean when it holds another candidate delimiter, several
    numbers that whitespace separates (``"2.5   3.5"``), or when its column is
    empty on every row (runs of the delimiter, ``"1\t\t2"``).
    """
    data = rows[1:] if len(rows) > 1 else rows
    width, share = _mode([len(r) for r in data])
    if width < 2:
        return (0.0, 0.0, width)
    others = [c for c in _CANDIDATES if c != delimiter and c != " "]
    empty = set()
    if delimiter != " ":
        empty = {j for j in range(width)
                 if all(j >= len(r) or not r[j].strip() for r in data)}
    cells = [(j, c) for r in data for j, c in enumerate(r)]
    clean = sum(
        1 for j, c in cells
        if (not any(o in c for o in others) or (delimiter != "," and _DECIMAL_COMMA.match(c)))
        and j not in empty and not (delimiter != " " and _numbers_run_together(c))
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


def _read_head(path_or_bytes) -> tuple[bytes, bool]:
    if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
        data = bytes(path_or_bytes)
        return data[:SNIFF_BYTES], len(data) <= SNIFF_BYTES
    f, _ = files.open_limited(path_or_bytes)
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
        A file (only its first :data:`SNIFF_BYTES` bytes are read), or its content.
    delimiter : str, optional
        ``","``, ``";"``, ``"\\t"``, ``" "`` (any whitespace), or one of the
        words ``comma``, ``semicolon``, ``tab``, ``whitespace``; default: detected.
    header : bool, optional
        Whether the first non-blank line names the columns; default: detected.
    """
    return files.guard_reader("table", _sniff, path_or_bytes, delimiter, header)


def _sniff(path_or_bytes, delimiter, forced_header: bool | None = None) -> Sniffed:
    data, complete = _read_head(path_or_bytes)
    if not data.strip():
        raise FormatError("the file is empty")
    files.sniff_binary(data)  # UTF-16/32 (with or without a byte-order mark), binary files
    encoding = "utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8"
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
    """The few distinct values of a column in the sample (a label), else None."""
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
