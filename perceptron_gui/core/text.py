"""Numbers and formulas as people read them (unicode minus, the update written out).

The window, the update log and the exports all format through here, so the
same number reads the same everywhere: one formatter per kind of number
(a count, a quantity, a percentage, a tick label), never ``1.137e+08``.
"""

from __future__ import annotations

import math

import numpy as np

from .learners.losses import PERCEPTRON, Loss

__all__ = ["fmt", "fmt_vec", "fmt_percent", "fmt_count", "fmt_rate", "fmt_power",
           "fmt_tick", "fmt_short", "either", "plural", "axis_titles", "class_name", "class_label",
           "format_update", "format_multiclass_update", "pass_terms", "run_class_names",
           "MINUS", "TIMES"]

MINUS = "\u2212"
#: The sign of a power of ten: ``1.14 × 10⁸``, with narrow no-break spaces (a number is
#: never broken across two lines).
TIMES = "\u202f×\u202f10"
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
#: Where a quantity leaves fixed notation for a power of ten.
LARGE = 1e6


def fmt_power(x: float, decimals: int = 2) -> str:
    """``x`` as a mantissa times a power of ten: ``1.14 × 10⁸``, ``−3.10 × 10⁻⁷``.

    ``decimals=0`` writes a whole mantissa (``8 × 10⁷``, a tick label), and a
    mantissa of 1 reads ``10⁵``.
    """
    x = float(x)
    if not math.isfinite(x) or x == 0:
        return fmt(x, decimals)
    mantissa, exponent = f"{x:.{max(decimals, 0)}e}".split("e")
    power = "10" + str(int(exponent)).translate(_SUPERSCRIPT)
    if decimals == 0 and mantissa in ("1", "-1"):
        return (MINUS if x < 0 else "") + power
    return mantissa.replace("-", MINUS) + TIMES[:-2] + power


def fmt(x: float, decimals: int = 2, *, grouping: bool = True) -> str:
    """A quantity with ``decimals`` decimals and a true minus sign: ``22,133.78``.

    Thousands are separated by commas (``grouping=False`` leaves them out, as
    inside a vector, whose components a comma separates); from 10⁶ up, or
    below what ``decimals`` show, a power of ten (``1.14 × 10⁸``,
    ``3.10 × 10⁻⁷``) so that no digit that matters is hidden; ``inf`` reads
    ``∞`` and NaN ``—``.
    """
    x = float(x)
    if math.isnan(x):
        return "—"
    if math.isinf(x):
        return "∞" if x > 0 else MINUS + "∞"
    ax = abs(x)
    if ax != 0 and (ax >= LARGE or ax < 10.0 ** (-decimals)):
        return fmt_power(x, max(decimals, 1))
    return _fixed(x, decimals, grouping)


def fmt_short(x: float, digits: int = 3) -> str:
    """A quantity in at most ``digits`` significant digits, trailing zeros dropped: ``1``,
    ``0.15``, ``12,300``; a power of ten below 10⁻³ and from 10⁶ (``2 × 10³⁰⁸``)."""
    x = float(x)
    if not math.isfinite(x) or x == 0:
        return fmt(x, 0)
    ax = abs(x)
    if 1e-3 <= ax < LARGE:
        places = digits - 1 - math.floor(math.log10(ax))  # negative: round to tens, hundreds
        text = f"{round(x, places):,.{max(places, 0)}f}"
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return text.replace("-", MINUS)
    mantissa = f"{x:.{digits - 1}e}".split("e")[0].rstrip("0").rstrip(".")
    return fmt_power(x, max(len(mantissa.split(".")[1]) if "." in mantissa else 0, 0))


def fmt_tick(value: float, spacing: float, max_chars: int = 8) -> str:
    """A plot axis's tick label: the notations of :func:`fmt`, as short as the spacing allows.

    ``0``; fixed with the decimals ``spacing`` needs and thousands separators
    (``12,500``, ``0.25``); a power of ten when that would be longer than
    ``max_chars`` or at 10⁵ and beyond (``10⁵``, ``8 × 10⁷``, ``2.5 × 10⁻⁶``).
    """
    value, spacing = float(value), abs(float(spacing or 0.0))
    if value == 0 or (spacing and abs(value) < spacing * 1e-6):
        return "0"
    places = min(3, max(0, math.ceil(-math.log10(spacing)))) if spacing else 2
    text = f"{value:,.{places}f}"
    if abs(value) >= 1e5 or len(text) > max_chars or float(text.replace(",", "")) == 0:
        mantissa = f"{value:.1e}".split("e")[0]
        return fmt_power(value, 0 if mantissa.endswith(".0") else 1)
    return text.replace("-", MINUS)


def fmt_vec(v, decimals: int = 2) -> str:
    """A vector as ``(a, b, …)``, every component in the same notation.

    Fixed notation when every magnitude allows it, a small component with the
    decimals that show two significant digits (``(1.05, 0.0098)``); when one
    is 10⁶ or more, or a nonzero one below 10⁻⁴, all in scientific notation
    (``(1.05 × 10⁰, 3.10 × 10⁻⁷)``): one vector, one format.  No thousands
    separators: a comma separates the components.
    """
    values = [float(c) for c in np.ravel(v)]
    finite = [abs(c) for c in values if math.isfinite(c)]
    nonzero = [c for c in finite if c != 0]
    if nonzero and (max(nonzero) >= LARGE or min(nonzero) < 1e-4):
        digits = max(decimals, 1)
        parts = [fmt_power(c, digits) if math.isfinite(c) and c != 0 else fmt(c, digits)
                 for c in values]
    else:
        parts = []
        for c in values:
            places = decimals
            if c != 0 and math.isfinite(c) and abs(c) < 10.0 ** (-decimals + 1):
                places = max(decimals, 1 - math.floor(math.log10(abs(c))))
            parts.append(_fixed(c, places))
    return "(" + ", ".join(parts) + ")"


def _fixed(x: float, decimals: int, grouping: bool = False) -> str:
    """``x`` in fixed notation with a true minus and no ``−0.00``."""
    if not math.isfinite(x):
        return fmt(x)
    text = f"{x:{',' if grouping else ''}.{decimals}f}"
    if text.startswith("-") and float(text.replace(",", "")) == 0:
        text = text[1:]
    return text.replace("-", MINUS)


def fmt_percent(p: float) -> str:
    """A percentage (``p`` in percent) as people read it: never in scientific notation.

    ``0 %``; below 1 two significant digits (``0.50 %``, ``0.047 %``,
    ``0.0012 %``), below 0.0001 it reads ``< 0.0001 %``; below 100 one decimal
    (``12.5 %``), else none (``100 %``).
    """
    p = float(p)
    if math.isnan(p):
        return "—"
    if p == 0:
        return "0 %"
    if 0 < abs(p) < 1e-4:
        return ("< 0.0001 %" if p > 0 else f"> {MINUS}0.0001 %")
    if abs(p) < 1:
        decimals = 1 - math.floor(math.log10(abs(p)))
        text = _fixed(p, decimals)
        if abs(float(text.replace(MINUS, "-"))) >= 1:  # 0.996 rounds up to 1.0
            return _fixed(p, 1) + " %"
        return text + " %"
    decimals = 1 if abs(p) < 100 else 0
    return _fixed(p, decimals) + " %"


def fmt_count(n) -> str:
    """An integer with thousands separators: ``1,234,567``."""
    return f"{int(n):,}".replace("-", MINUS)


def either(names) -> str:
    """``"LDA"``, ``"LDA or QDA"``, ``"LDA, QDA or naive Bayes"``."""
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def plural(n, noun: str, plural_noun: str | None = None) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is 1: ``1 update``, ``2,000 updates``."""
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


def class_name(class_names, sign: int) -> str:
    """The name of class ``sign`` (±1): ``"setosa"`` from ``class_names`` (the names of
    −1 and +1, as :attr:`Dataset.class_names`), else ``"class +1"``."""
    if class_names is not None:
        return class_names[1 if sign > 0 else 0]
    return "class +1" if sign > 0 else f"class {MINUS}1"


def class_label(class_names, sign: int, limit: int = 24) -> str:
    """A class with its sign, for a legend: ``"setosa (−1)"`` (cut to ``limit``
    characters with ``…``), or ``"class −1"`` when the data name no classes."""
    if class_names is None:
        return class_name(None, sign)
    name = class_name(class_names, sign)
    if len(name) > limit:
        name = name[: limit - 1] + "…"
    return f"{name} ({'+1' if sign > 0 else MINUS + '1'})"


def axis_titles(dataset) -> tuple[str, str]:
    """What the canvas's x and y axes say: the data's feature names, or ``("", "")``."""
    names = dataset.feature_names
    return (names[0], names[1]) if names is not None else ("", "")


def format_update(event, *, x=None, eta0: float = 1.0, bias_scale: float | None = 1.0,
                  decimals: int = 2, loss: Loss = PERCEPTRON, X=None, y=None,
                  tie: str | None = None) -> str:
    """The update made by a step, written as the gradient of that case's loss, with its numbers.

    Parameters
    ----------
    event : StepEvent
        A step; ``event.index == -1`` is a pass of batch gradient descent.  The
        dual form numbers samples from 1, as the window does: ``α[1]`` is the
        first sample's coefficient.
    eta0 : float, default=1.0
        η; written as a factor only when it is not 1.
    bias_scale : float or None, default=1.0
        c, the constant feature; None when there is no bias.
    X, y : array-like, optional
        The training samples and their ±1 labels, for a pass of batch descent.
    tie : {"mistake", "positive"} or None, default=None
        Under ``"positive"`` (``sign(0) = +1``) a perceptron step is written
        with its condition first, and a +1 point on the boundary says why it
        is no mistake.

    Returns
    -------
    str
        e.g. ``"w ← (1.20, −0.40) + (+1)·(0.50, 2.00) = (1.70, 1.60)"`` and, with a
        bias, a second line ``"b ← 0.00 + (+1)·1.00 = 1.00"`` (the added term is
        ``η·y·c²``).

    Notes
    -----
    With ``z = y·f(x)`` the step is ``w ← w − η ∂ℓ/∂w = w + η·g·y·x``, ``g`` the
    loss's pull (:attr:`.Loss.pull`: 1 at ``z ≤`` its kink, else ``σ(−z)``).  A
    pass of batch gradient descent adds ``η Σ_i`` of these terms over the cases.
    """
    if event.index < 0 and event.w_before is not None:
        return _format_pass(event, X, y, eta0, bias_scale, decimals, loss)
    below = loss.kink
    positive = tie == "positive" and loss.ties
    if positive:
        from .learners.ties import condition  # the learners load only when a run is written
    if not event.mistake:
        if positive and event.margin == 0:
            return f"no update: f(x) = 0, so ŷ = sign(0) = +1 = y ({condition('positive')})"
        if below is None:
            return f"no update: σ(−z) = 0 at y·f(x) = {fmt(event.margin, decimals)}"
        return f"no update: y·f(x) = {fmt(event.margin, decimals)} > {fmt(below, 0)}"
    eta = "" if eta0 == 1 else f"{fmt(eta0, decimals)}·"
    pull = fmt(float(loss.pull(event.margin)), decimals)
    if below is None:  # the logistic loss: every case, scaled by σ(−z)
        eta += f"{pull}·"
    sign = "(+1)" if event.label > 0 else f"({MINUS}1)"
    lines = []
    if positive:
        lines.append(f"{condition('positive')} (y·f(x) = {fmt(event.margin, decimals)}, "
                     f"y = {'+1' if event.label > 0 else MINUS + '1'})")
    if below is None:
        lines.append(f"σ(−z) = σ({fmt(-event.margin, decimals)}) = {pull}")
    if event.w_before is not None and x is not None:
        lines.append(
            f"w ← {fmt_vec(event.w_before, decimals)} + {eta}{sign}·{fmt_vec(x, decimals)}"
            f" = {fmt_vec(event.w_after, decimals)}"
        )
    else:
        i = event.index + 1  # samples are numbered from 1 wherever people read them
        lines.append(f"α[{i}] ← α[{i}] + 1")
    if bias_scale is not None:
        lines.append(_b_line(event, eta + sign, bias_scale, decimals))
    return "\n".join(lines)


def format_multiclass_update(event, *, z, W_before, W_after, own: int, rival: int,
                             names, eta0: float = 1.0, decimals: int = 2) -> str:
    """The multiclass perceptron's step ``event`` with its numbers.

    ``z`` is the sample as the run sees it, ``x̃ = (x, c)`` (``x`` without a bias);
    ``W_before``, ``W_after`` every class's ``w̃ₖ`` (rows in the order of ``names``);
    ``own`` and ``rival`` the rows of the sample's class and of the class that scored
    as much (``ŷ``).  A mistake reads, with η = 1::

        μ = w_setosa·x̃ − w_versicolor·x̃ = 0.00 ≤ 0
        w_setosa ← (0.00, 0.00, 0.00) + (1.40, 0.20, 1.00) = (1.40, 0.20, 1.00)
        w_versicolor ← (0.00, 0.00, 0.00) − (1.40, 0.20, 1.00) = (−1.40, −0.20, −1.00)
    """
    first, second = names[own], names[rival]
    mu = fmt(event.margin, decimals)
    if not event.mistake:
        return f"no update: μ = w_{first}·x̃ − w_{second}·x̃ = {mu} > 0"
    eta = "" if eta0 == 1 else f"{fmt(eta0, decimals)}·"
    x = fmt_vec(z, decimals)
    return "\n".join([
        f"μ = w_{first}·x̃ − w_{second}·x̃ = {mu} ≤ 0",
        f"w_{first} ← {fmt_vec(W_before[own], decimals)} + {eta}{x}"
        f" = {fmt_vec(W_after[own], decimals)}",
        f"w_{second} ← {fmt_vec(W_before[rival], decimals)} {MINUS} {eta}{x}"
        f" = {fmt_vec(W_after[rival], decimals)}",
    ])


def run_class_names(dataset, classes) -> list[str]:
    """Each class's name as a subscript (``w_setosa``): its name, else its label (``+1``)."""
    names = dataset.class_names
    if names is not None:
        return [names[dataset.classes.index(int(c))] for c in classes]
    return [(f"+{int(c)}" if c > 0 else f"{MINUS}{-int(c)}") if dataset.is_binary else str(int(c))
            for c in classes]


def _b_line(event, factor: str, bias_scale: float, decimals: int) -> str:
    """``b ← b + factor·c² = b'``: the bias's update."""
    return (f"b ← {fmt(event.b_before, decimals)} + {factor}·"
            f"{fmt(float(bias_scale) ** 2, decimals)} = {fmt(event.b_after, decimals)}")


def pass_terms(w, b: float, X, y, loss: Loss = PERCEPTRON):
    """The terms a pass of batch gradient descent sums, at weights ``w`` and bias ``b``.

    Returns ``(m, sum_w, sum_y)``: the cases with a non-zero pull ``g_i``
    (:attr:`.Loss.pull` of ``z_i``), ``Σ_i g_i y_i x_i`` (the step is
    ``w ← w + η·sum_w``) and ``Σ_i g_i y_i`` (the bias moves by ``η·sum_y·c²``).
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    z = y * (X @ np.asarray(w, dtype=np.float64) + float(b))
    g = loss.pull(z)
    m = int(np.count_nonzero(g))
    gy = g * y
    return m, gy @ X, float(gy.sum())


def _format_pass(event, X, y, eta0, bias_scale, decimals, loss) -> str:
    """A pass of batch gradient descent: the sum, its count of cases, and the step."""
    below = loss.kink
    what = ("Σ σ(−zᵢ)·yᵢ·xᵢ over all {m} cases" if below is None
            else f"Σ yᵢ·xᵢ over the {{m}} cases with zᵢ ≤ {fmt(below, 0)}")
    eta = "" if eta0 == 1 else f"{fmt(eta0, decimals)}·"
    if X is None or y is None:
        if not event.mistake:
            return "no update: the pass sums no term"
        m, total, sum_y = None, None, None
    else:
        m, total, sum_y = pass_terms(event.w_before, event.b_before, X, y, loss)
    if m is not None and not event.mistake:
        if below is None:
            return f"no update: every σ(−zᵢ) is 0 ({plural(m, 'case')} summed)"
        return (f"no update: every case has zᵢ > {fmt(below, 0)} "
                f"(0 of {plural(len(y), 'case')} summed)")
    lines = []
    if total is not None:
        lines.append(f"{what.format(m=fmt_count(m))} = {fmt_vec(total, decimals)}")
        shown = fmt_vec(total, decimals)
    else:
        shown = "Σ"
    lines.append(f"w ← {fmt_vec(event.w_before, decimals)} + {eta}{shown}"
                 f" = {fmt_vec(event.w_after, decimals)}")
    if bias_scale is not None:
        sy = "Σ yᵢ" if sum_y is None else fmt(sum_y, decimals)
        lines.append(_b_line(event, eta + sy, bias_scale, decimals))
    return "\n".join(lines)
