"""Reading the points: the chosen columns parsed once with pandas' C parser.

A row whose x, y or label is missing or not a finite number is an error naming
its line (1-based, as an editor counts), unless ``skip_bad_rows`` is given:
then the row is skipped and its line listed in the result. Line numbers count
physical lines; a quoted field spanning several lines is not accounted for.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...dataset import Dataset
from ...values import class_names_of
from ..files import (
    Cancelled,
    FormatError,
    Progress,
    guard_reader,
    open_limited,
    report_progress,
    short_repr,
)
from .dialect import Sniffed, sniff
from .labels import TooManyLabels, class_signs, label_keys

__all__ = ["Progress", "TableResult", "read_table"]

#: Files up to this size are parsed in one call; larger ones in chunks of at most
#: _CHUNK_ROWS rows and about _CHUNK_BYTES bytes, with progress (and Cancel) between.
_ONE_READ_BYTES = 64 * 2**20
_CHUNK_ROWS = 1 << 18
_CHUNK_BYTES = 4 * 2**20
_USECOLS_FROM = 16  # pandas' usecols costs more than parsing a few extra columns
SHOWN_BAD = 5  # bad lines named in an error


@dataclass(frozen=True)
class TableResult:
    """What :func:`read_table` read.

    ``mapping`` maps each label kept to its sign; ``skipped_lines`` are the
    1-based lines skipped with ``skip_bad_rows``; ``n_other`` rows had a label
    neither ``positive`` nor ``negative``.
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
                 + ", ".join(f"{short_repr(k, 20) if isinstance(k, str) else repr(k)} → {v:+d}"
                             for k, v in list(self.mapping.items())[:6])
                 + (", …" if len(self.mapping) > 6 else "") + ")"]
        if self.skipped_lines:
            parts.append(f"skipped {_bad_rows(self.skipped_lines, len(self.skipped_lines))}")
        if self.n_other:
            parts.append(f"left out {self.n_other:,} row{'s' if self.n_other > 1 else ''} "
                         "of other classes")
        return "; ".join(parts)


def _bad_rows(lines, n: int) -> str:
    """``"3 rows with a missing or non-numeric value (lines 4, 7, …)"``: ``n`` rows, some
    of their ``lines``."""
    s = "s" if n > 1 else ""
    shown = ", ".join(str(k) for k in lines[:SHOWN_BAD])
    more = ", …" if n > SHOWN_BAD else ""
    return f"{n:,} row{s} with a missing or non-numeric value (line{s} {shown}{more})"


def _report(progress: Progress | None, cancelled, fraction: float) -> None:
    if cancelled is not None and cancelled():
        raise Cancelled("loading cancelled")
    report_progress(progress, fraction)


def _choose(sn: Sniffed, x, y, label, positive=None, negative=None) -> tuple[int, int, int]:
    """Positions of the x, y and label columns: the given ones, the rest guessed.

    Without a label column, ``positive`` / ``negative`` pick the column whose
    values (in the sample) include them, if the guessed one does not.
    """
    chosen = {}
    for role, given in (("x", x), ("y", y), ("label", label)):
        if given is not None:
            chosen[role] = sn.position(given)
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
        return f"{short_repr(str(raw).strip())} is not a number"
    if math.isnan(value):
        return "missing value"
    if isinstance(raw, str):
        return f"{short_repr(raw.strip())} is not a finite number"
    return "infinity, or a number beyond the range of float64, is not allowed"


def _not_utf8(name: str, encoding: str) -> FormatError:
    """The error for a file not UTF-8 beyond its sniffed start, naming the first bad byte."""
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
                        for i in where[:SHOWN_BAD - len(first_bad)].tolist():
                            for role, raw, vals, nn in (("x", cx, fx, nx), ("y", cy, fy, ny)):
                                if not math.isfinite(vals[i]):
                                    first_bad.append(
                                        (n + i, role, _cell_problem(raw.iloc[i], vals[i], nn[i])))
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


def read_table(path, *, x=None, y=None, label=None, positive=None, negative=None,
               delimiter=None, header: bool | None = None, skip_bad_rows: bool = False,
               max_rows: int = 1_000_000, progress: Progress | None = None,
               cancelled: Callable[[], bool] | None = None,
               summarize: bool = False, all_classes: bool = False) -> TableResult:
    """Read points from a delimited text file (CSV, TSV, ...).

    Parameters
    ----------
    x, y, label : str or int, optional
        The columns, by header name or by 1-based position; guessed when not given.
    delimiter : str, optional
        As :func:`.sniff` takes it; default: detected.
    positive, negative : str or number, optional
        The +1 and -1 classes, as :mod:`.labels` applies them; with two labels
        they override the default mapping.
    all_classes : bool, default=False
        Keep three to eight labels as classes ``0 … m − 1`` (sorted) when neither
        ``positive`` nor ``negative`` is given; else more than two labels are refused.
    skip_bad_rows : bool, default=False
        Skip rows with a missing or non-numeric x, y or label, or with too
        many fields, and list their lines in the result, instead of failing.
    progress, cancelled : callable, optional
        ``progress(fraction)`` is called after the sniff, between chunks and at
        the end; it returning ``False``, or ``cancelled()`` True, cancels.
    summarize : bool, default=False
        Also compute :meth:`Dataset.summarize` (a reader in a worker).

    Notes
    -----
    A file of up to 64 MB is parsed in one call, which pandas runs about twice
    as fast as in chunks; a larger file in chunks of about 4 MB, so that Cancel
    answers within a few tens of milliseconds however wide the rows.
    """
    result = guard_reader("table", _read_table, path, x, y, label, positive, negative, delimiter,
                          header, skip_bad_rows, max_rows, progress, cancelled, all_classes)
    if summarize:
        result.dataset.summarize()
    return result


def _read_table(path, x, y, label, positive, negative, delimiter, header, skip_bad_rows,
                max_rows, progress, cancelled, all_classes=False) -> TableResult:
    sn = sniff(path, delimiter=delimiter, header=header)
    _report(progress, cancelled, 0.02)
    cols = _choose(sn, x, y, label, positive, negative)
    ix, iy, il = cols
    f, size = open_limited(path)  # checked again (a regular file), kept for line numbers
    with f:
        try:
            fx, fy, labels, bad, first_bad, ragged = _parse(
                os.fspath(path), size, sn, cols, skip_bad_rows=skip_bad_rows,
                max_rows=max_rows, progress=progress, cancelled=cancelled)
        except MemoryError:
            raise FormatError("the file is too large to read into memory") from None
        import pandas as pd

        codes, uniques = pd.factorize(labels)
        keys, problems = label_keys(uniques, sn.class_names)
        invalid = [k for k, p in enumerate(problems) if p is not None]
        long = [k for k in invalid if problems[k].startswith("a label of")]
        if long:
            row = int(np.flatnonzero(np.isin(codes, long))[0])
            line = _row_lines(f, sn, np.array([row]), ragged)[0]
            raise FormatError(f"line {line}, column {sn.columns[il]!r}: "
                              f"{problems[codes[row]]}")
        if invalid:
            extra = np.flatnonzero(np.isin(codes, invalid))
            for i in extra[:SHOWN_BAD].tolist():
                first_bad.append((i, "label", problems[codes[i]]))
            bad = np.union1d(bad, extra)
        if len(bad) and not skip_bad_rows:
            first_bad.sort()
            row, column, problem = first_bad[0]
            name = {"x": sn.columns[ix], "y": sn.columns[iy], "label": sn.columns[il]}[column]
            lines = _row_lines(f, sn, bad[:SHOWN_BAD], ragged)
            raise FormatError(f"line {lines[0]}, column {name!r}: {problem}; "
                              f"{_bad_rows(lines, len(bad))}; skip them with --skip-bad-rows")
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
        signs = class_signs(classes, positive, negative, sn.columns[il],
                            all_classes=all_classes)
    except TooManyLabels as exc:
        raise TooManyLabels(str(exc), classes, skipped) from None
    other = np.iinfo(np.int64).min  # a row of a class left out (0 is a class of several)
    table = np.full(len(keys), other, dtype=np.int64)
    for k, key in enumerate(keys):
        table[k] = signs.get(key, other) if problems[k] is None else other
    yv = table[codes]
    keep_class = yv != other
    n_other = int(len(yv) - np.count_nonzero(keep_class))
    X = np.empty((len(fx), 2))
    X[:, 0], X[:, 1] = fx, fy
    if n_other:
        X, yv = X[keep_class], yv[keep_class]
    if not len(yv):
        raise FormatError("no rows with the chosen labels")
    mapping = {c: signs[c] for c in classes if c in signs}
    _report(progress, cancelled, 1.0)
    named = sn.header and all(sn.columns[i].strip() for i in (ix, iy))
    label_col = sn.columns[il].strip() if sn.header else ""
    several = sorted(set(mapping.values())) if len(set(mapping.values())) > 2 else None
    dataset = Dataset(X, yv, class_names=class_names_of(mapping, label_col), feature_names=(
        (sn.columns[ix][:200], sn.columns[iy][:200]) if named else None), classes=several)
    return TableResult(dataset=dataset, mapping=mapping, x=sn.columns[ix],
                       y=sn.columns[iy], label=sn.columns[il], skipped_lines=tuple(skipped),
                       n_other=n_other, sniffed=sn)

