r"""The update log of a perceptron run as table rows, a CSV file and a LaTeX table; no Qt.

A run stores one record per *update* (a step that was a mistake, see
:class:`~perceptron_gui.core.learners._run.UpdateLog`).  This module turns that
log into what people read and what they put on slides:

- :func:`update_rows` / :func:`update_row`: one :class:`UpdateRow` per update,
  with the formula written out by :func:`~perceptron_gui.core.text.format_update`
  (the same text the readout panel shows);
- :func:`log_to_csv`: every number of every update, in columns that numpy and
  pandas read back bit for bit (floats written as their shortest round-trip
  ``repr``);
- :func:`log_to_latex`: a ``tabular`` with booktabs rules, numbers in math mode
  and the update typeset, e.g.
  ``$w \leftarrow (1.20, -0.40) + (+1)\cdot(0.50, 2.00) = (1.70, 1.60)$``;
  at most :data:`LATEX_MAX_ROWS` rows (a longer table is refused:
  :func:`latex_window` proposes the rows around the cursor).

Both files are produced as :class:`Block` s of text (:func:`csv_blocks`,
:func:`latex_blocks`), a few thousand rows at a time with a count of the rows
done, so that a log of millions of updates is never held as one text and a
writer (:func:`write_blocks`) reports progress and stops when asked.  The
module reads the update log in one place only, :func:`_update_rows`.

The module is one file because the rows, the CSV file and the LaTeX
table share that one reader and its chunks (the values before each update,
the dual's ``α`` carried from block to block): split, the reading of the log
would be spread over files again.

Every function takes a :class:`~perceptron_gui.core.workspace.Workspace` with a
perceptron run, or a started :class:`PrimalPerceptron` / :class:`DualPerceptron`.
Rows cover the *computed* run, which may extend past the cursor (a run scrubbed
back); :attr:`UpdateRow.future` tells which.
"""

from __future__ import annotations

import io as _stdio
import math
import os
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from .text import MINUS, TIMES, fmt, format_update, pass_terms

__all__ = [
    "Block",
    "LATEX_MAX_ROWS",
    "ROWS_PER_BLOCK",
    "UpdateRow",
    "n_updates",
    "update_row",
    "update_rows",
    "csv_columns",
    "csv_blocks",
    "log_to_csv",
    "latex_blocks",
    "latex_window",
    "log_to_latex",
    "latex_escape",
    "write_blocks",
    "write_text",
]


@dataclass(frozen=True)
class UpdateRow:
    """One update of a perceptron run, with its formula written out.

    Attributes
    ----------
    k : int
        Update number, 1-based (the ``k`` of Novikoff's bound after this update).
    step : int
        1-based step of the run at which the update happened.
    epoch : int
        1-based epoch of that step.
    sample : int
        Index of the examined sample in the data (0-based; the formula, like the
        window, numbers samples from 1: ``α[sample + 1]``); -1 for a pass of
        batch gradient descent (then ``label`` is 0 and ``x`` is NaN).
    label : int
        Its label ``y``, -1 or +1.
    x : ndarray of shape (n_features,)
        The sample.
    margin : float
        Its functional margin ``y f(x)`` *before* the update (``<= 0``).
    w_before, w_after : ndarray of shape (n_features,) or None
        Weights before and after (None for a non-linear kernel).
    b_before, b_after : float
        Bias before and after.
    alpha_before : int or None
        For the dual learner, ``α[sample]`` before the update (after: one more).
    formula : str
        :func:`~perceptron_gui.core.text.format_update` of the update: the ``w``
        line (or ``α[i] ← α[i] + 1``) and, with a bias, the ``b`` line.
    future : bool
        True when the update lies after the cursor (computed, not yet shown).
    """

    k: int
    step: int
    epoch: int
    sample: int
    label: int
    x: np.ndarray
    margin: float
    w_before: np.ndarray | None
    b_before: float
    w_after: np.ndarray | None
    b_after: float
    alpha_before: int | None
    formula: str
    future: bool


# --------------------------------------------------------------------------- the log


@dataclass(frozen=True)
class _Updates:
    """Rows ``k0 <= u < k1`` of an update log, and how many rows it holds."""

    total: int
    step: np.ndarray
    index: np.ndarray
    margin: np.ndarray
    b: np.ndarray
    w: np.ndarray | None
    start: tuple = (None, 0.0)  # (w0, b0) before the first update (w0 None: a kernel run)


def _update_rows(learner, k0: int, k1: int) -> _Updates:
    """The updates ``k0 <= u < k1`` of ``learner``'s run (clipped to those computed).

    The module's one reader of the update log: every number it writes comes
    through here, a slice at a time, so that the log's storage can change
    behind this one function.  ``w`` is None for a non-linear kernel run.
    """
    log = learner.history.updates
    total = len(log)
    k1 = min(max(0, int(k1)), total)
    k0 = min(max(0, int(k0)), k1)
    rows = log.rows(k0, k1)
    return _Updates(total=total, step=rows.step, index=rows.index, margin=rows.margin,
                    b=rows.b, w=rows.w, start=log.state_after(0))


# --------------------------------------------------------------------------- the source


class _Source:
    """A perceptron run resolved from a workspace or a learner."""

    def __init__(self, source):
        learner = getattr(source, "learner", source) if hasattr(source, "running") else source
        if hasattr(source, "running") and not source.running:
            raise ValueError("no perceptron run: the workspace has no primal or dual run")
        if not getattr(learner, "started", False) or not hasattr(learner, "history"):
            raise ValueError(
                f"expected a Workspace with a perceptron run or a started perceptron, "
                f"got {type(source).__name__}"
            )
        self.learner = learner
        self.X = learner.training_X
        self.s = learner.training_signs
        self.n = self.X.shape[0]
        self.dual = hasattr(learner, "kernel")
        self.has_w = _update_rows(learner, 0, 0).w is not None
        self.eta0 = float(getattr(learner, "eta0", 1.0))
        self.bias_scale = float(learner.bias_scale) if learner.fit_intercept else None
        self.loss = getattr(learner, "loss", "perceptron")
        self.tie = getattr(learner, "tie", None)
        # steps per epoch: a pass of batch gradient descent is one step
        self.per = 1 if getattr(learner, "order", None) == "batch" else self.n
        #: ``(w0, b0)`` before the first update (``w0`` None for a kernel run)
        self.start = _update_rows(learner, 0, 0).start

    def cases(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(x, y)`` of the rows' samples; a pass (index -1) has x NaN and y 0."""
        index = np.asarray(index)
        one = index >= 0
        x = np.full((index.size, self.X.shape[1]), np.nan)
        x[one] = self.X[index[one]]
        return x, np.where(one, self.s[np.maximum(index, 0)], 0).astype(np.int64)

    def count(self) -> int:
        """Updates computed so far (rows of the log, possibly past the cursor)."""
        return _update_rows(self.learner, 0, 0).total

    def rows(self, k0: int, k1: int) -> _Updates:
        """Rows ``k0 <= u < k1`` of the log."""
        return _update_rows(self.learner, k0, k1)

    def bounds(self, start: int | None, stop: int | None, upto_cursor: bool) -> tuple[int, int]:
        """Rows ``k0 <= u < k1`` asked for, clipped to the computed (or shown) run."""
        m = self.count()
        if upto_cursor:
            m = min(m, int(self.learner.n_updates_))
        if stop is not None:
            m = min(m, max(0, int(stop)))
        k0 = min(max(0, int(start or 0)), m)
        return k0, m


def n_updates(source) -> int:
    """Number of updates computed so far (rows of the log, possibly past the cursor)."""
    return _Source(source).count()


def update_row(source, u: int, *, decimals: int = 2) -> UpdateRow:
    """The ``u``-th update (0-based row; update number ``k = u + 1``).

    Parameters
    ----------
    source : Workspace or PrimalPerceptron or DualPerceptron
        A workspace with a perceptron run, or a started perceptron.
    u : int
        Row of the update log, ``0 <= u < n_updates(source)``.
    decimals : int, default=2
        Decimals of the numbers in :attr:`UpdateRow.formula`.

    Returns
    -------
    UpdateRow
    """
    return _row(_Source(source), u, decimals)


def _row(src: _Source, u: int, decimals: int) -> UpdateRow:
    here = src.rows(u, u + 1)
    if not 0 <= u < here.total:
        raise IndexError(f"update row {u} out of range (0..{here.total - 1})")
    step = int(here.step[0])
    ev = src.learner.event(step)
    x = src.cases(np.array([ev.index]))[0][0]
    alpha = int(src.learner.alpha_after(u)[ev.index]) if src.dual else None
    text = format_update(ev, x=x, eta0=src.eta0, bias_scale=src.bias_scale, decimals=decimals,
                         loss=src.loss, X=src.X, y=src.s, tie=src.tie)
    return UpdateRow(
        k=u + 1, step=step, epoch=ev.epoch + 1, sample=ev.index, label=ev.label, x=x,
        margin=ev.margin, w_before=ev.w_before, b_before=ev.b_before, w_after=ev.w_after,
        b_after=ev.b_after, alpha_before=alpha, formula=text,
        future=step > src.learner.step_count,
    )


#: Rows read from the log at a time by the exports.
ROWS_PER_BLOCK = 8192


@dataclass(frozen=True)
class _Chunk:
    """Rows ``lo <= u < lo + len(step)`` with the values before each update worked out."""

    lo: int
    step: np.ndarray
    index: np.ndarray
    margin: np.ndarray
    w_before: np.ndarray | None
    w_after: np.ndarray | None
    b_before: np.ndarray
    b_after: np.ndarray
    alpha_before: np.ndarray | None


def _chunks(src: _Source, k0: int, k1: int, size: int = ROWS_PER_BLOCK) -> Iterator[_Chunk]:
    """Rows ``k0 <= u < k1`` in chunks of ``size``, each with its values before the update.

    The weights before an update are the weights after the previous one
    (zero before the first); ``α`` of a sample before an update counts the
    earlier updates of that sample, carried from chunk to chunk.
    """
    d = src.X.shape[1]
    counts = None
    if src.dual:
        counts = np.array(src.learner.alpha_after(k0), dtype=np.int64)
    for lo in range(k0, k1, size):
        hi = min(k1, lo + size)
        rows = src.rows(max(0, lo - 1), hi)  # with the row before, for the values before
        first = 1 if lo > 0 else 0
        b_after = rows.b[first:]
        w0, b0 = src.start  # the state before the first update: 0, or a hand-set start
        b_before = rows.b[:-1] if first else np.r_[b0, rows.b[:-1]]
        w_after = w_before = None
        if rows.w is not None:
            w_after = rows.w[first:]
            w_before = rows.w[:-1] if first else np.vstack([
                np.zeros((1, d)) if w0 is None else w0[None], rows.w[:-1]])
        index = rows.index[first:]
        alpha = None
        if counts is not None:
            alpha = counts[index] + _alpha_before(index)
            counts += np.bincount(index, minlength=src.n)
        yield _Chunk(lo=lo, step=rows.step[first:], index=index, margin=rows.margin[first:],
                     w_before=w_before, w_after=w_after, b_before=b_before, b_after=b_after,
                     alpha_before=alpha)


def _log_rows(src: _Source, k0: int, k1: int, size: int = ROWS_PER_BLOCK
              ) -> Iterator[list[UpdateRow]]:
    """Rows ``k0 <= u < k1`` without formulas, read straight from the log, a list per chunk.

    The same numbers as :func:`_row`, without building a step event per row:
    the fast path of the exports.
    """
    t = src.learner.step_count
    for c in _chunks(src, k0, k1, size):
        step, index = c.step.tolist(), c.index.tolist()
        margin, b0, b1 = c.margin.tolist(), c.b_before.tolist(), c.b_after.tolist()
        alphas = None if c.alpha_before is None else c.alpha_before.tolist()
        xs, ys = src.cases(c.index)
        yield [
            UpdateRow(
                k=c.lo + r + 1, step=step[r], epoch=(step[r] - 1) // src.per + 1, sample=i,
                label=int(ys[r]), x=xs[r], margin=margin[r],
                w_before=None if c.w_before is None else c.w_before[r], b_before=b0[r],
                w_after=None if c.w_after is None else c.w_after[r], b_after=b1[r],
                alpha_before=None if alphas is None else alphas[r], formula="",
                future=step[r] > t,
            )
            for r, i in enumerate(index)
        ]


def update_rows(source, *, start: int = 0, stop: int | None = None, upto_cursor: bool = False,
                decimals: int = 2) -> Iterator[UpdateRow]:
    """The updates of the run as :class:`UpdateRow`, one at a time (lazily).

    Parameters
    ----------
    source : Workspace or PrimalPerceptron or DualPerceptron
        A workspace with a perceptron run, or a started perceptron.
    start, stop : int, optional
        Rows ``start <= u < stop`` of the update log (default: all computed).
    upto_cursor : bool, default=False
        Only the updates at or before the cursor (the ones the canvas has shown).
    decimals : int, default=2
        Decimals of the formulas.

    Yields
    ------
    UpdateRow
    """
    src = _Source(source)
    k0, k1 = src.bounds(start, stop, upto_cursor)
    for u in range(k0, k1):
        yield _row(src, u, decimals)


# --------------------------------------------------------------------------- blocks


@dataclass(frozen=True)
class Block:
    """A piece of an exported file and how far the export is.

    Attributes
    ----------
    text : str
        The next piece of the file.
    done, total : int
        Rows (updates, or points) written with this piece, and in the whole file.
    """

    text: str
    done: int
    total: int


def write_blocks(path, blocks, progress=None) -> int:
    """Write ``blocks`` (UTF-8) to ``path`` atomically; returns the rows written.

    Parameters
    ----------
    path : str or path-like
        The file; it is replaced only once every block is written (a temporary
        file in the same folder, then :func:`os.replace`).
    blocks : iterable of Block
    progress : callable, optional
        ``progress(done, total)`` after each block; ``False`` stops the write.

    Raises
    ------
    Cancelled
        When ``progress`` returned False: no file is left behind and any
        previous file at ``path`` is intact.
    OSError
        When the file cannot be written (the previous file is intact).
    """
    from .io import Cancelled

    written = [0]

    def encoded():
        for block in blocks:
            yield block.text
            written[0] = block.done
            if progress is not None and progress(block.done, block.total) is False:
                raise Cancelled("export cancelled")
        # asked once more after the last block, before the file replaces the old one
        if progress is not None and progress(written[0], written[0]) is False:
            raise Cancelled("export cancelled")

    _atomic(path, encoded())
    return written[0]


# --------------------------------------------------------------------------- CSV


def csv_columns(source) -> list[str]:
    """The header of :func:`log_to_csv` for this run.

    ``k, step, epoch, sample, y`` (samples numbered from 1, as the window and
    ``α[i]`` number them; -1 for a pass of batch descent, which sums every
    sample), the sample ``x1..xd``, ``margin`` (before the update), then
    ``w1_before..wd_before, b_before, w1_after..wd_after, b_after`` (no ``w``
    columns for a non-linear kernel), and for the dual learner ``alpha_before,
    alpha_after`` of the sample.
    """
    src = _Source(source)
    return _csv_columns(src)


def _csv_columns(src: _Source) -> list[str]:
    d = src.X.shape[1]
    cols = ["k", "step", "epoch", "sample", "y"]
    cols += [f"x{j + 1}" for j in range(d)]
    cols.append("margin")
    if src.has_w:
        cols += [f"w{j + 1}_before" for j in range(d)]
    cols.append("b_before")
    if src.has_w:
        cols += [f"w{j + 1}_after" for j in range(d)]
    cols.append("b_after")
    if src.dual:
        cols += ["alpha_before", "alpha_after"]
    return cols


def _alpha_before(index: np.ndarray) -> np.ndarray:
    """For each row, how many earlier rows have the same sample (vectorised)."""
    m = index.size
    out = np.zeros(m, np.int64)
    if m == 0:
        return out
    order = np.argsort(index, kind="stable")
    srt = index[order]
    starts = np.r_[0, np.flatnonzero(np.diff(srt)) + 1]
    lengths = np.diff(np.r_[starts, m])
    out[order] = np.arange(m) - np.repeat(starts, lengths)
    return out


def csv_blocks(source, *, start: int = 0, stop: int | None = None, upto_cursor: bool = False,
               rows_per_block: int = ROWS_PER_BLOCK) -> Iterator[Block]:
    """The CSV file of :func:`log_to_csv` as :class:`Block` s: the header, then rows.

    Parameters
    ----------
    source : Workspace or PrimalPerceptron or DualPerceptron
        A workspace with a perceptron run, or a started perceptron.
    start, stop : int, optional
        Rows ``start <= u < stop`` of the update log (default: all computed).
    upto_cursor : bool, default=False
        Only the updates at or before the cursor.
    rows_per_block : int, default=ROWS_PER_BLOCK
        Rows read and written per block.

    Yields
    ------
    Block
    """
    src = _Source(source)
    k0, k1 = src.bounds(start, stop, upto_cursor)
    return _csv_blocks(src, k0, k1, rows_per_block)


def _csv_blocks(src: _Source, k0: int, k1: int, size: int) -> Iterator[Block]:
    total = k1 - k0
    yield Block(",".join(_csv_columns(src)) + "\n", 0, total)
    for c in _chunks(src, k0, k1, size):
        m = c.step.size
        xs, ys = src.cases(c.index)
        number = np.where(c.index >= 0, c.index + 1, -1)  # from 1, as the window numbers
        ints = np.column_stack([np.arange(c.lo + 1, c.lo + m + 1), c.step,
                                (c.step - 1) // src.per + 1, number, ys])
        floats = [xs, c.margin.reshape(-1, 1)]
        if c.w_after is not None:
            floats += [c.w_before, c.b_before.reshape(-1, 1), c.w_after,
                       c.b_after.reshape(-1, 1)]
        else:
            floats += [c.b_before.reshape(-1, 1), c.b_after.reshape(-1, 1)]
        head = ints.astype(np.int64).tolist()
        body = np.hstack(floats).astype(np.float64).tolist()
        end = None
        if c.alpha_before is not None:
            end = np.column_stack([c.alpha_before, c.alpha_before + 1]).tolist()
        lines = []
        for r in range(m):
            cells = [str(v) for v in head[r]] + [repr(v) for v in body[r]]
            if end is not None:
                cells += [str(v) for v in end[r]]
            lines.append(",".join(cells))
        yield Block("\n".join(lines) + "\n", c.lo - k0 + m, total)


def log_to_csv(source, path_or_file, *, start: int = 0, stop: int | None = None,
               upto_cursor: bool = False, progress=None) -> int:
    """Write the update log as CSV, one row per update, with a header.

    Floats are written as Python's shortest round-trip ``repr``, so
    ``numpy.loadtxt(path, delimiter=",", skiprows=1)`` and ``pandas.read_csv``
    give back the core's numbers bit for bit.  Columns: see :func:`csv_columns`.

    Parameters
    ----------
    source : Workspace or PrimalPerceptron or DualPerceptron
        A workspace with a perceptron run, or a started perceptron.
    path_or_file : str, path-like or text file
        A path is written atomically (:func:`write_blocks`); an open text file
        is written to as is.
    start, stop : int, optional
        Write only rows ``start <= u < stop`` (updates ``start + 1`` to ``stop``).
    upto_cursor : bool, default=False
        Write only the updates at or before the cursor.
    progress : callable, optional
        ``progress(done, total)`` in updates after each block; ``False``
        cancels (:class:`~perceptron_gui.core.io.Cancelled`, nothing written
        to a path).

    Returns
    -------
    int
        The number of updates written.
    """
    blocks = csv_blocks(source, start=start, stop=stop, upto_cursor=upto_cursor)
    if not hasattr(path_or_file, "write"):
        return write_blocks(path_or_file, blocks, progress)
    done = 0
    for block in blocks:
        path_or_file.write(block.text)
        done = block.done
        if progress is not None and progress(block.done, block.total) is False:
            from .io import Cancelled

            raise Cancelled("export cancelled")
    return done

# --------------------------------------------------------------------------- LaTeX

#: Superscript digits (and minus) back to plain ones: a power of ten of :func:`fmt` in LaTeX.
_PLAIN_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")

_TEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    MINUS: r"\textminus{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
}


def latex_escape(text: str) -> str:
    r"""``text`` made safe for LaTeX text mode (``&`` becomes ``\&``, ``−`` ``\textminus{}``…)."""
    return "".join(_TEX_SPECIAL.get(ch, ch) for ch in str(text))


def _tex_num(x: float, decimals: int) -> str:
    """A number for math mode: ``-`` is a true minus there; ``1.2e+06`` as a power of ten."""
    x = float(x)
    if math.isnan(x):
        return r"\mathrm{NaN}"
    if math.isinf(x):
        return r"\infty" if x > 0 else r"-\infty"
    text = fmt(x, decimals, grouping=False).replace(MINUS, "-")
    if TIMES[:-2] in text:
        mant, power = text.split(TIMES[:-2])
        exp = int(power[2:].translate(_PLAIN_DIGITS) or "0")
        text = rf"{mant}\times 10^{{{exp}}}"
    return text


def _tex_vec(v, decimals: int) -> str:
    return "(" + ", ".join(_tex_num(c, decimals) for c in np.ravel(v)) + ")"


def _tex_sign(y: int) -> str:
    return "(+1)" if y > 0 else "(-1)"


def _tex_formula(row: UpdateRow, src: _Source, decimals: int) -> str:
    """The update of ``row`` in LaTeX math, mirroring :func:`format_update`."""
    eta = "" if src.eta0 == 1 else rf"{_tex_num(src.eta0, decimals)}\cdot"
    sign = _tex_sign(row.label)
    gradient = src.loss != "perceptron" or row.sample < 0  # a step that may not move w
    if gradient and row.b_after == row.b_before and (
            row.w_before is None or np.array_equal(row.w_before, row.w_after)):
        return "no update"
    parts = []
    if row.sample < 0 and row.w_before is not None:  # a pass of batch descent: its sum
        _, total, sum_y = pass_terms(row.w_before, row.b_before, src.X, src.s, src.loss)
        sign = _tex_num(sum_y, decimals)
        parts.append(rf"w \leftarrow {_tex_vec(row.w_before, decimals)} + {eta}"
                     rf"{_tex_vec(total, decimals)} = {_tex_vec(row.w_after, decimals)}")
    elif src.loss == "log_loss":  # every case, scaled by sigma(-z)
        eta += rf"\sigma({_tex_num(-row.margin, decimals)})\cdot"
    if not parts and row.w_before is not None:
        parts.append(
            rf"w \leftarrow {_tex_vec(row.w_before, decimals)} + {eta}{sign}\cdot"
            rf"{_tex_vec(row.x, decimals)} = {_tex_vec(row.w_after, decimals)}"
        )
    elif not parts:
        i = row.sample + 1  # numbered from 1, as the window numbers samples
        parts.append(rf"\alpha_{{{i}}} \leftarrow \alpha_{{{i}}} + 1 = {row.alpha_before + 1}")
    if src.bias_scale is not None:
        c2 = _tex_num(src.bias_scale**2, decimals)
        parts.append(
            rf"b \leftarrow {_tex_num(row.b_before, decimals)} + {eta}{sign}\cdot{c2}"
            rf" = {_tex_num(row.b_after, decimals)}"
        )
    return ", ".join(f"${p}$" for p in parts)


#: Column headers of the LaTeX table (text mode with math where it is math).
LATEX_HEADER = (r"$k$", "step", "epoch", r"sample $i$", r"$y_i$", r"$y_i f(x_i)$ before",
                "update")


#: The most rows a LaTeX table of the update log may have (about 40 printed pages):
#: a longer log is exported as a range of updates (:func:`latex_window`).
LATEX_MAX_ROWS = 2000


def latex_window(source, rows: int = LATEX_MAX_ROWS) -> tuple[int, int]:
    """The rows ``(start, stop)`` of at most ``rows`` updates around the cursor.

    The window is centred on the last update at or before the cursor and
    shifted to lie inside the computed log; a log of at most ``rows``
    updates gives ``(0, n_updates)``.
    """
    src = _Source(source)
    m = src.count()
    rows = max(1, int(rows))
    if m <= rows:
        return 0, m
    here = min(m, int(src.learner.n_updates_))
    start = min(max(0, here - rows // 2), m - rows)
    return start, start + rows


def latex_blocks(source, *, start: int = 0, stop: int | None = None, upto_cursor: bool = False,
                 decimals: int = 2, caption: str | None = None, label: str | None = None,
                 max_rows: int = LATEX_MAX_ROWS, rows_per_block: int = 512) -> Iterator[Block]:
    r"""The LaTeX table of :func:`log_to_latex` as :class:`Block` s.

    Takes the arguments of :func:`log_to_latex`, and ``rows_per_block``.

    Raises
    ------
    ValueError
        At once (before any block), when the rows asked for are more than
        ``max_rows``: the message says how many and to choose a range.
    """
    src = _Source(source)
    k0, k1 = src.bounds(start, stop, upto_cursor)
    if k1 - k0 > max_rows:
        raise ValueError(
            f"{k1 - k0:,} updates are too many for a LaTeX table (at most {max_rows:,} rows): "
            f"export a range of updates, or the CSV file")
    return _latex_blocks(src, k0, k1, decimals, caption, label, rows_per_block)


def _latex_blocks(src: _Source, k0: int, k1: int, decimals: int, caption, label,
                  size: int) -> Iterator[Block]:
    total = k1 - k0
    floating = caption is not None or label is not None
    head = "% update log exported by perceptron-gui; needs \\usepackage{booktabs}\n"
    if floating:
        head += "\\begin{table}\n\\centering\n"
    head += "\\begin{tabular}{rrrrrrl}\n\\toprule\n"
    head += " & ".join(LATEX_HEADER) + " \\\\\n\\midrule\n"
    yield Block(head, 0, total)
    for rows in _log_rows(src, k0, k1, size):
        lines = []
        for row in rows:
            cells = [
                str(row.k), str(row.step), str(row.epoch),
                *((str(row.sample + 1), f"${'+1' if row.label > 0 else '-1'}$")
                  if row.sample >= 0
                  else ("all", "")), f"${_tex_num(row.margin, decimals)}$",
                _tex_formula(row, src, decimals),
            ]
            lines.append(" & ".join(cells) + " \\\\\n")
        yield Block("".join(lines), rows[-1].k - k0, total)
    tail = "\\bottomrule\n\\end{tabular}\n"
    if floating:
        if caption is not None:
            tail += f"\\caption{{{latex_escape(caption)}}}\n"
        if label is not None:
            tail += f"\\label{{{latex_escape(label)}}}\n"
        tail += "\\end{table}\n"
    yield Block(tail, total, total)


def log_to_latex(source, *, start: int = 0, stop: int | None = None,
                 upto_cursor: bool = False, decimals: int = 2, caption: str | None = None,
                 label: str | None = None, max_rows: int = LATEX_MAX_ROWS) -> str:
    r"""The update log as a LaTeX ``tabular`` with booktabs rules.

    Numbers are in math mode (so ``-`` is a true minus), the update formula is
    typeset, e.g. ``$w \leftarrow (1.20, -0.40) + (+1)\cdot(0.50, 2.00) =
    (1.70, 1.60)$, $b \leftarrow 0.00 + (+1)\cdot1.00 = 1.00$``; for a kernel
    run the dual form ``$\alpha_{3} \leftarrow \alpha_{3} + 1 = 2$``.

    Parameters
    ----------
    source : Workspace or PrimalPerceptron or DualPerceptron
        A workspace with a perceptron run, or a started perceptron.
    start, stop : int, optional
        Only rows ``start <= u < stop`` (updates ``start + 1`` to ``stop``).
    upto_cursor : bool, default=False
        Only the updates at or before the cursor.
    decimals : int, default=2
        Decimals shown.
    caption, label : str, optional
        With either, the tabular is wrapped in a ``table`` float with this
        ``\caption`` (escaped) and ``\label``.
    max_rows : int, default=LATEX_MAX_ROWS
        The most rows the table may have.

    Returns
    -------
    str
        The LaTeX source; it needs ``\usepackage{booktabs}``.

    Raises
    ------
    ValueError
        When the rows asked for are more than ``max_rows`` (a table of
        millions of rows is not a table): choose ``start`` and ``stop``
        (:func:`latex_window` gives the rows around the cursor).
    """
    out = _stdio.StringIO()
    for block in latex_blocks(source, start=start, stop=stop, upto_cursor=upto_cursor,
                              decimals=decimals, caption=caption, label=label,
                              max_rows=max_rows):
        out.write(block.text)
    return out.getvalue()


# --------------------------------------------------------------------------- files


def _atomic(path, chunks) -> None:
    from .io import atomic_write_bytes  # the project's one atomic writer

    atomic_write_bytes(os.fspath(path), (chunk.encode("utf-8") for chunk in chunks))


def write_text(path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically: an interrupted write leaves the old file."""
    _atomic(path, [text])
