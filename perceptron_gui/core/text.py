"""Numbers and formulas as people read them (unicode minus, the update written out).

The window, the update log and the exports all format through here, so the
same number reads the same everywhere.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["fmt", "fmt_vec", "fmt_sign", "format_update"]

MINUS = "\u2212"


def fmt(x: float, decimals: int = 2) -> str:
    """A number with ``decimals`` decimals and a true minus sign.

    Very large or very small magnitudes switch to scientific notation so that
    no digit that matters is hidden; ``inf`` reads ``∞`` and NaN ``—``.
    """
    x = float(x)
    if math.isnan(x):
        return "—"
    if math.isinf(x):
        return "∞" if x > 0 else MINUS + "∞"
    ax = abs(x)
    if ax != 0 and (ax >= 1e6 or ax < 10.0 ** (-decimals)):
        text = f"{x:.{max(decimals, 1) + 1}e}"
    else:
        text = f"{x:.{decimals}f}"
        if text.startswith("-") and float(text) == 0:
            text = text[1:]  # no "−0.00"
    return text.replace("-", MINUS)


def fmt_vec(v, decimals: int = 2) -> str:
    """A vector as ``(a, b, …)``."""
    return "(" + ", ".join(fmt(c, decimals) for c in np.ravel(v)) + ")"


def fmt_sign(y: float) -> str:
    """A label as ``(+1)`` or ``(−1)``."""
    return "(+1)" if y > 0 else f"({MINUS}1)"


def format_update(event, *, x=None, learning_rate: float = 1.0, bias_scale: float | None = 1.0,
                  decimals: int = 2) -> str:
    """The update made by a step, written out with its numbers.

    Parameters
    ----------
    event : StepEvent
        A step that was a mistake (for another step the text says so).
    x : array-like, optional
        The examined sample (needed for the primal formula).
    learning_rate : float, default=1.0
        η; written as a factor only when it is not 1.
    bias_scale : float or None, default=1.0
        c, the constant feature; None when there is no bias.
    decimals : int, default=2
        Decimals shown.

    Returns
    -------
    str
        e.g. ``"w ← (1.20, −0.40) + (+1)·(0.50, 2.00) = (1.70, 1.60)"`` and, with a
        bias, a second line ``"b ← 0.00 + (+1)·1.00 = 1.00"`` (the added term is
        ``η·y·c²``).
    """
    if not event.mistake:
        return f"no update: y·f(x) = {fmt(event.margin, decimals)} > 0"
    eta = "" if learning_rate == 1 else f"{fmt(learning_rate, decimals)}·"
    sign = fmt_sign(event.label)
    lines = []
    if event.w_before is not None and x is not None:
        lines.append(
            f"w ← {fmt_vec(event.w_before, decimals)} + {eta}{sign}·{fmt_vec(x, decimals)}"
            f" = {fmt_vec(event.w_after, decimals)}"
        )
    else:
        lines.append(f"α[{event.index}] ← α[{event.index}] + 1")
    if bias_scale is not None:
        c2 = float(bias_scale) ** 2
        lines.append(
            f"b ← {fmt(event.b_before, decimals)} + {eta}{sign}·{fmt(c2, decimals)}"
            f" = {fmt(event.b_after, decimals)}"
        )
    return "\n".join(lines)
