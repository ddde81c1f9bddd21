r"""The update log of a perceptron run as a LaTeX table; no Qt.

At most :data:`LATEX_MAX_ROWS` rows: a longer table is refused, and
:func:`latex_window` proposes the rows around the cursor.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from .report import Block, RunSource, UpdateRow, log_rows
from .text import MINUS, TIMES, fmt, pass_terms

__all__ = ["LATEX_HEADER", "LATEX_MAX_ROWS", "latex_blocks", "latex_escape", "latex_window",
           "log_to_latex"]

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


def _tex_formula(row: UpdateRow, src: RunSource, decimals: int) -> str:
    """The update of ``row`` in LaTeX math, mirroring :func:`format_update`."""
    eta = "" if src.eta0 == 1 else rf"{_tex_num(src.eta0, decimals)}\cdot"
    sign = "(+1)" if row.label > 0 else "(-1)"
    gradient = not src.loss.novikoff or row.sample < 0  # a step that may not move w
    if gradient and row.b_after == row.b_before and (
            row.w_before is None or np.array_equal(row.w_before, row.w_after)):
        return "no update"
    parts = []
    if row.sample < 0 and row.w_before is not None:  # a pass of batch descent: its sum
        _, total, sum_y = pass_terms(row.w_before, row.b_before, src.X, src.s, src.loss)
        sign = _tex_num(sum_y, decimals)
        parts.append(rf"w \leftarrow {_tex_vec(row.w_before, decimals)} + {eta}"
                     rf"{_tex_vec(total, decimals)} = {_tex_vec(row.w_after, decimals)}")
    elif src.loss.kink is None:  # every case, scaled by sigma(-z)
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


def _tex_multiclass(row: UpdateRow, src: RunSource, decimals: int) -> str:
    """The multiclass perceptron's update of ``row``: the two classes' w̃ it moved."""
    eta = "" if src.eta0 == 1 else rf"{_tex_num(src.eta0, decimals)}\cdot"
    classes = [int(c) for c in src.learner.classes_]
    z = _tex_vec(src.learner.augmented_X[row.sample], decimals)
    parts = []
    for q, sign in ((classes.index(row.label), "+"), (classes.index(row.rival), "-")):
        w = rf"w_{{\mathrm{{{latex_escape(src.names[q])}}}}}"
        parts.append(rf"{w} \leftarrow {_tex_vec(row.w_before[q], decimals)} {sign} {eta}{z}"
                     rf" = {_tex_vec(row.w_after[q], decimals)}")
    return ", ".join(f"${p}$" for p in parts)


#: Column headers of the LaTeX table (text mode with math where it is math).
LATEX_HEADER = (r"$k$", "step", "epoch", r"sample $i$", r"$y_i$", r"$y_i f(x_i)$ before",
                "update")


#: The most rows a LaTeX table of the update log may have (about 40 printed pages):
#: a longer log is exported as a range of updates (:func:`latex_window`).
LATEX_MAX_ROWS = 2000


def latex_window(source, rows: int = LATEX_MAX_ROWS) -> tuple[int, int]:
    """The rows ``(start, stop)`` of at most ``rows`` updates, centred on the cursor's update."""
    src = RunSource(source)
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

    Takes the arguments of :func:`log_to_latex`, and ``rows_per_block``; the
    ValueError for too many rows comes at once, before any block.
    """
    src = RunSource(source)
    k0, k1 = src.bounds(start, stop, upto_cursor)
    if k1 - k0 > max_rows:
        raise ValueError(
            f"{k1 - k0:,} updates are too many for a LaTeX table (at most {max_rows:,} rows): "
            f"export a range of updates, or the CSV file")
    return _latex_blocks(src, k0, k1, decimals, caption, label, rows_per_block)


def _latex_blocks(src: RunSource, k0: int, k1: int, decimals: int, caption, label,
                  size: int) -> Iterator[Block]:
    total = k1 - k0
    floating = caption is not None or label is not None
    head = "% update log exported by perceptron-gui; needs \\usepackage{booktabs}\n"
    if floating:
        head += "\\begin{table}\n\\centering\n"
    head += "\\begin{tabular}{rrrrrrl}\n\\toprule\n"
    header = LATEX_HEADER if not src.multiclass else (
        *LATEX_HEADER[:5], r"$\mu_i$ before", *LATEX_HEADER[6:])  # own score − best other
    head += " & ".join(header) + " \\\\\n\\midrule\n"
    yield Block(head, 0, total)
    for rows in log_rows(src, k0, k1, size):
        lines = []
        for row in rows:
            y = (f"${'+1' if row.label > 0 else '-1'}$" if not src.multiclass
                 else latex_escape(src.names[list(src.learner.classes_).index(row.label)]))
            cells = [
                str(row.k), str(row.step), str(row.epoch),
                *((str(row.sample + 1), y) if row.sample >= 0 else ("all", "")),
                f"${_tex_num(row.margin, decimals)}$",
                (_tex_multiclass if src.multiclass else _tex_formula)(row, src, decimals),
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
    run the dual form ``$\alpha_{3} \leftarrow \alpha_{3} + 1 = 2$``.  With
    ``caption`` or ``label`` the tabular is wrapped in a ``table`` float.
    ValueError for more than ``max_rows`` rows.
    """
    return "".join(block.text for block in latex_blocks(
        source, start=start, stop=stop, upto_cursor=upto_cursor, decimals=decimals,
        caption=caption, label=label, max_rows=max_rows))
