"""Live numbers in captions: ``{k}``, ``{bound}`` ... filled in as the demo plays.

Each placeholder is measured by the check of the same quantity in
:data:`~.checks.CHECKS`, so the number shown is the one a check would verify.
A number typed into a caption is a claim: :func:`quantities_matching` names
the quantities it agrees with, so an editor can offer to attach the right check.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..text import fmt, fmt_count, fmt_percent, fmt_vec
from .checks import CHECKS

if TYPE_CHECKING:
    from .player import DemoPlayer

__all__ = ["PLACEHOLDERS", "Placeholder", "UNAVAILABLE", "Here", "fill", "is_percent",
           "literal_numbers", "measure", "missing_values", "placeholders_in",
           "quantities_matching", "states", "typed_value", "unknown_placeholders"]

#: What a placeholder shows when its quantity does not exist at that step.
UNAVAILABLE = "—"


@dataclass(frozen=True)
class Placeholder:
    """A quantity a caption may name in braces; ``label`` names it in the caption box's menu."""

    check: str
    label: str
    write: Callable


def _quantity(value) -> str:
    return fmt(float(value))


#: Every placeholder by the name written between braces.
PLACEHOLDERS: dict[str, Placeholder] = {
    "k": Placeholder("updates", "k, the number of updates", fmt_count),
    "steps": Placeholder("steps", "steps taken", fmt_count),
    "epoch": Placeholder("epoch", "the current epoch", fmt_count),
    "bound": Placeholder("bound", "Novikoff's bound (R/γ)²", _quantity),
    "gamma": Placeholder("gamma", "Novikoff's margin γ", _quantity),
    "R": Placeholder("radius", "Novikoff's radius R", _quantity),
    "margin": Placeholder("margin", "the geometric margin of w, b", _quantity),
    "error": Placeholder("training_error", "the training error",
                         lambda v: fmt_percent(100.0 * float(v))),
    "w": Placeholder("w", "the weights w", lambda v: fmt_vec(np.ravel(v))),
    "b": Placeholder("b", "the bias b", _quantity),
    "risk": Placeholder("risk", "the empirical risk under the run's loss", _quantity),
}

_FIELD = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")
#: A number as people type it: 3, -2.5, 0.047, 1,234.5 (not inside a word such as x1),
#: and a percentage: the number with its "%" (10 %, 32.5%).
_NUMBER = re.compile(r"(?:(?<![\w.])[-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])"
                     r"|(?<![\w.])[-−]?\d+(?:\.\d+)?(?![\w]))(?:[ \u00a0\u202f]?%)?")
_PERCENT = re.compile(r"[ \u00a0\u202f]?%$")


def placeholders_in(caption: str) -> list[str]:
    """The names written between single braces in ``caption``, in order."""
    return [m.group(1) for m in _FIELD.finditer(caption) if m.group(1) is not None]


def unknown_placeholders(caption: str) -> list[str]:
    """The names in braces that are not placeholders (each once, in order)."""
    return list(dict.fromkeys(n for n in placeholders_in(caption) if n not in PLACEHOLDERS))


def _measure(name: str, player: DemoPlayer):
    value = measure(PLACEHOLDERS[name].check, player)
    finite = value is None or np.ndim(value) or math.isfinite(float(value))
    return value if finite else None


def fill(caption: str, player: DemoPlayer) -> str:
    """``caption`` with each placeholder replaced by its value now (``{{`` is a brace).

    A quantity that does not exist at that step shows :data:`UNAVAILABLE`; an
    unknown name is left as written.
    """

    def one(match: re.Match) -> str:
        text = match.group(0)
        if text in ("{{", "}}"):
            return text[0]
        name = match.group(1)
        if name not in PLACEHOLDERS:
            return text
        value = _measure(name, player)
        return UNAVAILABLE if value is None else PLACEHOLDERS[name].write(value)

    return _FIELD.sub(one, caption)


def missing_values(caption: str, player: DemoPlayer) -> list[str]:
    """The placeholders of ``caption`` whose quantity does not exist now."""
    return [name for name in dict.fromkeys(placeholders_in(caption))
            if name in PLACEHOLDERS and _measure(name, player) is None]


def literal_numbers(caption: str) -> list[tuple[str, float]]:
    """The numbers typed in ``caption`` (outside placeholders): ``(as written, value)``.

    Thousands separators and the typographic minus are read ("22,134",
    "−0.5"); digits inside a word ("x1", "w₄") are not numbers.  A percentage
    keeps its sign in the text ("10 %") and its value is the number typed (10).
    """
    plain = _FIELD.sub(lambda m: " " * len(m.group(0)), caption)
    return [(m.group(0), float(_digits(m.group(0)))) for m in _NUMBER.finditer(plain)]


def is_percent(text: str) -> bool:
    """Whether the typed number ``text`` is a percentage ("10 %", "32.5%")."""
    return _PERCENT.search(text) is not None


def _digits(text: str) -> str:
    return _PERCENT.sub("", text).replace(",", "").replace("−", "-")


def typed_value(text: str):
    """The typed number as a check's expected value: an int when written without a point
    ("32.5 %" -> 32.5)."""
    clean = _digits(text)
    return int(clean) if "." not in clean else float(clean)


def states(text: str, name: str) -> bool:
    """Whether the typed number ``text`` can state the check ``name``.

    A percentage states only a quantity in percent, and a plain number never
    does; a number with a point never states a count.
    """
    check = CHECKS[name]
    if check.kind not in ("number", "count") or check.percent != is_percent(text):
        return False
    return check.kind != "count" or isinstance(typed_value(text), int)


@dataclass(frozen=True)
class Here:
    """A workspace to measure now, as a player would (for a recorder: the live window).

    The comparisons with earlier steps need a :class:`~.player.DemoPlayer`.
    """

    workspace: object


def measure(name: str, source) -> object | None:
    """The check ``name`` measured on ``source`` (a player or :class:`Here`), or None."""
    try:
        value = CHECKS[name].measure(source)
    except (ValueError, ArithmeticError, IndexError, AttributeError):
        return None
    return None if value is None or isinstance(value, bool) and CHECKS[name].kind != "bool" \
        else value


def quantities_matching(text: str, player: DemoPlayer) -> list[str]:
    """The checks the number ``text`` can state (:func:`states`) whose value now agrees
    with it to the digits written."""
    expected = typed_value(text)
    return [name for name, check in CHECKS.items()
            if states(text, name) and (measured := measure(name, player)) is not None
            and check.failure(name, measured, expected) is None]
