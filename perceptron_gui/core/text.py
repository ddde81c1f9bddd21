"""Numbers and formulas as people read them (unicode minus, the update written out).

The window, the update log and the exports all format through here, so the
same number reads the same everywhere.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["fmt", "fmt_vec", "fmt_sign", "fmt_percent", "fmt_count", "fmt_rate", "plural",
           "format_update"]

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
    """A vector as ``(a, b, …)``, every component in the same notation.

    Fixed notation when every magnitude allows it: each component keeps
    ``decimals`` decimals, and a small one gets the decimals that show two
    significant digits (``(1.05, 0.0098)``).  When a component is 10⁶ or more,
    or a nonzero one is below 10⁻⁴, all of them are written in scientific
    notation (``(1.05e+00, 3.10e−07)``): one vector, one format.
    """
    values = [float(c) for c in np.ravel(v)]
    finite = [abs(c) for c in values if math.isfinite(c)]
    nonzero = [c for c in finite if c != 0]
    if nonzero and (max(nonzero) >= 1e6 or min(nonzero) < 1e-4):
        digits = max(decimals, 1)
        parts = [f"{c:.{digits}e}".replace("-", MINUS) if math.isfinite(c) else fmt(c)
                 for c in values]
    else:
        parts = []
        for c in values:
            places = decimals
            if c != 0 and math.isfinite(c) and abs(c) < 10.0 ** (-decimals + 1):
                places = max(decimals, 1 - math.floor(math.log10(abs(c))))
            parts.append(_fixed(c, places))
    return "(" + ", ".join(parts) + ")"


def _fixed(x: float, decimals: int) -> str:
    """``x`` in fixed notation with a true minus and no ``−0.00``."""
    if not math.isfinite(x):
        return fmt(x)
    text = f"{x:.{decimals}f}"
    if text.startswith("-") and float(text) == 0:
        text = text[1:]
    return text.replace("-", MINUS)


def fmt_percent(p: float) -> str:
    """A percentage (``p`` in percent) as people read it: never in scientific notation.

    ``0 %``; below 0.01 it reads ``< 0.01 %``; below 1 two decimals
    (``0.09 %``), below 100 one (``12.5 %``), else none (``100 %``).
    """
    p = float(p)
    if math.isnan(p):
        return "—"
    if p == 0:
        return "0 %"
    if 0 < abs(p) < 0.01:
        return ("< 0.01 %" if p > 0 else f"> {MINUS}0.01 %")
    decimals = 2 if abs(p) < 1 else 1 if abs(p) < 100 else 0
    return _fixed(p, decimals) + " %"


def fmt_count(n) -> str:
    """An integer with thousands separators: ``1,234,567``."""
    return f"{int(n):,}".replace("-", MINUS)


def plural(n, noun: str, plural_noun: str | None = None) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is 1: ``1 update``, ``2,000 updates``.

    Parameters
    ----------
    n : int
        The count (written with thousands separators).
    noun : str
        The singular.
    plural_noun : str, optional
        The plural when it is not ``noun + "s"`` (e.g. ``"classes"``).
    """
    word = noun if int(n) == 1 else (plural_noun or noun + "s")
    return f"{fmt_count(n)} {word}"


def fmt_rate(per_second: float, unit: str = "step") -> str:
    """A speed such as ``5,000 steps/s`` or ``2.5 steps/s`` (never ``5e+03``)."""
    r = float(per_second)
    if r >= 10 or r == int(r):
        number = fmt_count(round(r))
        one = round(r) == 1
    else:
        number = _fixed(r, 1 if r >= 1 else 2)
        one = False
    return f"{number} {unit if one else unit + 's'}/s"


def fmt_sign(y: float) -> str:
    """A label as ``(+1)`` or ``(−1)``."""
    return "(+1)" if y > 0 else f"({MINUS}1)"


def format_update(event, *, x=None, eta0: float = 1.0, bias_scale: float | None = 1.0,
                  decimals: int = 2) -> str:
    """The update made by a step, written out with its numbers.

    Parameters
    ----------
    event : StepEvent
        A step that was a mistake (for another step the text says so).  The
        dual form names the sample from 1, as the window does: ``α[1]`` is
        the first sample's coefficient.
    x : array-like, optional
        The examined sample (needed for the primal formula).
    eta0 : float, default=1.0
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
    eta = "" if eta0 == 1 else f"{fmt(eta0, decimals)}·"
    sign = fmt_sign(event.label)
    lines = []
    if event.w_before is not None and x is not None:
        lines.append(
            f"w ← {fmt_vec(event.w_before, decimals)} + {eta}{sign}·{fmt_vec(x, decimals)}"
            f" = {fmt_vec(event.w_after, decimals)}"
        )
    else:
        i = event.index + 1  # samples are numbered from 1 wherever people read them
        lines.append(f"α[{i}] ← α[{i}] + 1")
    if bias_scale is not None:
        c2 = float(bias_scale) ** 2
        lines.append(
            f"b ← {fmt(event.b_before, decimals)} + {eta}{sign}·{fmt(c2, decimals)}"
            f" = {fmt(event.b_after, decimals)}"
        )
    return "\n".join(lines)
