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
  ``$w \leftarrow (1.20, -0.40) + (+1)\cdot(0.50, 2.00) = (1.70, 1.60)$``.

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

from .text import MINUS, fmt, format_update

__all__ = [
    "UpdateRow",
    "n_updates",
    "update_row",
    "update_rows",
    "csv_columns",
    "log_to_csv",
    "log_to_latex",
    "latex_escape",
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
        Index of the misclassified sample in the data (0-based; the formula, like the
        window, numbers samples from 1: ``α[sample + 1]``).
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
        self.log = learner.history.updates
        self.X = learner.training_X
        self.s = learner.training_signs
        self.n = self.X.shape[0]
        self.dual = hasattr(learner, "kernel")
        self.learning_rate = float(getattr(learner, "learning_rate", 1.0))
        self.bias_scale = float(learner.bias_scale) if learner.fit_intercept else None

    def stop(self, stop: int | None, upto_cursor: bool) -> int:
        m = len(self.log)
        if upto_cursor:
            m = min(m, int(self.learner.n_updates_))
        if stop is not None:
            m = min(m, max(0, int(stop)))
        return m


def n_updates(source) -> int:
    """Number of updates computed so far (rows of the log, possibly past the cursor)."""
    return len(_Source(source).log)


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


def _row(src: _Source, u: int, decimals: int, alpha: int | None = None,
         formula: bool = True) -> UpdateRow:
    log = src.log
    if not 0 <= u < len(log):
        raise IndexError(f"update row {u} out of range (0..{len(log) - 1})")
    step = log.step_of(u)
    ev = src.learner.event(step)
    x = src.X[ev.index]
    if src.dual and alpha is None:
        alpha = int(src.learner.alpha_after(u)[ev.index])
    text = format_update(ev, x=x, learning_rate=src.learning_rate,
                         bias_scale=src.bias_scale, decimals=decimals) if formula else ""
    return UpdateRow(
        k=u + 1, step=step, epoch=ev.epoch + 1, sample=ev.index, label=ev.label, x=x,
        margin=ev.margin, w_before=ev.w_before, b_before=ev.b_before, w_after=ev.w_after,
        b_after=ev.b_after, alpha_before=alpha if src.dual else None, formula=text,
        future=step > src.learner.step_count,
    )


def _log_rows(src: _Source, m: int) -> Iterator[UpdateRow]:
    """The first ``m`` rows without formulas, read straight from the log's arrays.

    The same numbers as :func:`_row` (the weights before an update are the
    weights after the previous one), without building a step event per row:
    the fast path of the exports.
    """
    log = src.log.rows(0, m)
    step = log.step[:m].tolist()
    index = log.index[:m].tolist()
    margin = log.margin[:m].tolist()
    b = log.b[:m].tolist()
    w = log.w
    zero = np.zeros(src.X.shape[1])
    alphas = _alpha_before(np.asarray(log.index[:m])).tolist() if src.dual else None
    t = src.learner.step_count
    for u in range(m):
        i = index[u]
        yield UpdateRow(
            k=u + 1, step=step[u], epoch=(step[u] - 1) // src.n + 1, sample=i,
            label=int(src.s[i]), x=src.X[i], margin=margin[u],
            w_before=None if w is None else (w[u - 1] if u else zero),
            b_before=b[u - 1] if u else 0.0,
            w_after=None if w is None else w[u], b_after=b[u],
            alpha_before=None if alphas is None else alphas[u], formula="",
            future=step[u] > t,
        )


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
    m = src.stop(stop, upto_cursor)
    for u in range(max(0, int(start)), m):
        yield _row(src, u, decimals)


# --------------------------------------------------------------------------- CSV


def csv_columns(source) -> list[str]:
    """The header of :func:`log_to_csv` for this run.

    ``k, step, epoch, sample, label``, the sample ``x1..xd``, ``margin`` (before
    the update), then ``w1_before..wd_before, b_before, w1_after..wd_after,
    b_after`` (no ``w`` columns for a non-linear kernel), and for the dual
    learner ``alpha_before, alpha_after`` of the sample.
    """
    src = _Source(source)
    return _csv_columns(src)


def _csv_columns(src: _Source) -> list[str]:
    d = src.X.shape[1]
    cols = ["k", "step", "epoch", "sample", "label"]
    cols += [f"x{j + 1}" for j in range(d)]
    cols.append("margin")
    has_w = src.log.rows(0, 0).w is not None
    if has_w:
        cols += [f"w{j + 1}_before" for j in range(d)]
    cols.append("b_before")
    if has_w:
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


def _csv_lines(src: _Source, m: int, chunk: int = 8192) -> Iterator[str]:
    log = src.log.rows(0, m)
    yield ",".join(_csv_columns(src)) + "\n"
    step = log.step[:m]
    index = log.index[:m]
    ints = [np.arange(1, m + 1), step, (step - 1) // src.n + 1, index, src.s[index]]
    floats = [src.X[index], log.margin[:m].reshape(-1, 1)]
    b_after = log.b[:m]
    b_before = np.r_[0.0, b_after[:-1]] if m else b_after
    if log.w is not None:
        w_after = log.w[:m]
        w_before = np.vstack([np.zeros((1, w_after.shape[1])), w_after[:-1]]) if m else w_after
        floats += [w_before, b_before.reshape(-1, 1), w_after, b_after.reshape(-1, 1)]
    else:
        floats += [b_before.reshape(-1, 1), b_after.reshape(-1, 1)]
    tail = []
    if src.dual:
        a = _alpha_before(np.asarray(index))
        tail = [a, a + 1]
    for lo in range(0, m, chunk):
        hi = min(m, lo + chunk)
        head = np.column_stack([c[lo:hi] for c in ints]).astype(np.int64).tolist()
        body = np.hstack([f[lo:hi] for f in floats]).astype(np.float64).tolist()
        end = np.column_stack([c[lo:hi] for c in tail]).tolist() if tail else None
        buf = []
        for r in range(hi - lo):
            cells = [str(v) for v in head[r]] + [repr(v) for v in body[r]]
            if end is not None:
                cells += [str(v) for v in end[r]]
            buf.append(",".join(cells))
        yield "\n".join(buf) + "\n"


def log_to_csv(source, path_or_file, *, stop: int | None = None,
               upto_cursor: bool = False) -> int:
    """Write the update log as CSV, one row per update, with a header.

    Floats are written as Python's shortest round-trip ``repr``, so
    ``numpy.loadtxt(path, delimiter=",", skiprows=1)`` and ``pandas.read_csv``
    give back the core's numbers bit for bit.  Columns: see :func:`csv_columns`.

    Parameters
    ----------
    source : Workspace or PrimalPerceptron or DualPerceptron
        A workspace with a perceptron run, or a started perceptron.
    path_or_file : str, path-like or text file
        A path is written atomically (a temporary file in the same folder,
        then :func:`os.replace`); an open text file is written to as is.
    stop : int, optional
        Write only the first ``stop`` updates.
    upto_cursor : bool, default=False
        Write only the updates at or before the cursor.

    Returns
    -------
    int
        The number of updates written.
    """
    src = _Source(source)
    m = src.stop(stop, upto_cursor)
    lines = _csv_lines(src, m)
    if hasattr(path_or_file, "write"):
        for chunk in lines:
            path_or_file.write(chunk)
    else:
        _atomic(path_or_file, lines)
    return m


# --------------------------------------------------------------------------- LaTeX

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
    text = fmt(x, decimals).replace(MINUS, "-")
    if "e" in text:
        mant, exp = text.split("e")
        text = rf"{mant}\times 10^{{{int(exp)}}}"
    return text


def _tex_vec(v, decimals: int) -> str:
    return "(" + ", ".join(_tex_num(c, decimals) for c in np.ravel(v)) + ")"


def _tex_sign(y: int) -> str:
    return "(+1)" if y > 0 else "(-1)"


def _tex_formula(row: UpdateRow, src: _Source, decimals: int) -> str:
    """The update of ``row`` in LaTeX math, mirroring :func:`format_update`."""
    eta = "" if src.learning_rate == 1 else rf"{_tex_num(src.learning_rate, decimals)}\cdot"
    sign = _tex_sign(row.label)
    parts = []
    if row.w_before is not None:
        parts.append(
            rf"w \leftarrow {_tex_vec(row.w_before, decimals)} + {eta}{sign}\cdot"
            rf"{_tex_vec(row.x, decimals)} = {_tex_vec(row.w_after, decimals)}"
        )
    else:
        i = row.sample
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


def log_to_latex(source, *, stop: int | None = None, upto_cursor: bool = False,
                 decimals: int = 2, caption: str | None = None,
                 label: str | None = None) -> str:
    r"""The update log as a LaTeX ``tabular`` with booktabs rules.

    Numbers are in math mode (so ``-`` is a true minus), the update formula is
    typeset, e.g. ``$w \leftarrow (1.20, -0.40) + (+1)\cdot(0.50, 2.00) =
    (1.70, 1.60)$, $b \leftarrow 0.00 + (+1)\cdot1.00 = 1.00$``; for a kernel
    run the dual form ``$\alpha_{3} \leftarrow \alpha_{3} + 1 = 2$``.

    Parameters
    ----------
    source : Workspace or PrimalPerceptron or DualPerceptron
        A workspace with a perceptron run, or a started perceptron.
    stop : int, optional
        Only the first ``stop`` updates.
    upto_cursor : bool, default=False
        Only the updates at or before the cursor.
    decimals : int, default=2
        Decimals shown.
    caption, label : str, optional
        With either, the tabular is wrapped in a ``table`` float with this
        ``\caption`` (escaped) and ``\label``.

    Returns
    -------
    str
        The LaTeX source; it needs ``\usepackage{booktabs}``.
    """
    src = _Source(source)
    m = src.stop(stop, upto_cursor)
    out = _stdio.StringIO()
    floating = caption is not None or label is not None
    out.write("% update log exported by perceptron-gui; needs \\usepackage{booktabs}\n")
    if floating:
        out.write("\\begin{table}\n\\centering\n")
    out.write("\\begin{tabular}{rrrrrrl}\n\\toprule\n")
    out.write(" & ".join(LATEX_HEADER) + " \\\\\n\\midrule\n")
    for row in _log_rows(src, m):
        cells = [
            str(row.k), str(row.step), str(row.epoch), str(row.sample),
            f"${'+1' if row.label > 0 else '-1'}$", f"${_tex_num(row.margin, decimals)}$",
            _tex_formula(row, src, decimals),
        ]
        out.write(" & ".join(cells) + " \\\\\n")
    out.write("\\bottomrule\n\\end{tabular}\n")
    if floating:
        if caption is not None:
            out.write(f"\\caption{{{latex_escape(caption)}}}\n")
        if label is not None:
            out.write(f"\\label{{{latex_escape(label)}}}\n")
        out.write("\\end{table}\n")
    return out.getvalue()


# --------------------------------------------------------------------------- files


def _atomic(path, chunks) -> None:
    from .io import atomic_write_bytes  # the project's one atomic writer

    atomic_write_bytes(os.fspath(path), (chunk.encode("utf-8") for chunk in chunks))


def write_text(path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically: an interrupted write leaves the old file."""
    _atomic(path, [text])
