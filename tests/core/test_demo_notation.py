"""One notation in every shipped demo: Unicode subscripts, and numbers as the window writes them.

The readouts and the update log write ``αᵢ``, ``yᵢ``, ``xᵢ``, ``zᵢ``, ``wₖ``
and ``x₁``; a caption beside them must not write ``α_i`` or ``w_k``.  A
count or quantity of four digits or more has thousands separators
(``29,740``, ``2,017.4``), as :func:`~perceptron_gui.core.text.fmt_count` and
:func:`~perceptron_gui.core.text.fmt` write them: never ``29 740`` or ``2668``.
"""

from __future__ import annotations

import re

import pytest

from perceptron_gui.core import demos

#: An ASCII subscript: a letter (or ‖, α…) then "_" then an index letter or digit.
_ASCII_SUBSCRIPT = re.compile(r"(?<![A-Za-z_])[A-Za-zα-ω‖]_(?:[ikjn0-9]\b|\{)")
#: A number of four or more digits without separators, or with a space as separator.
_UNGROUPED = re.compile(r"(?<![\d.,])\d{4,}(?![\d])|\b\d{1,3} \d{3}\b")


def _texts(name):
    demo = demos.load_demo(name)
    yield "description", demo.description
    for i, step in enumerate(demo.steps, 1):
        yield f"step {i}", step.caption


def test_the_patterns_catch_what_they_should():
    assert _ASCII_SUBSCRIPT.search("w = Σ α_i y_i x_i") and _ASCII_SUBSCRIPT.search("w_k·w*")
    assert not _ASCII_SUBSCRIPT.search("max_iter = 1,000 and αᵢ, wₖ·w*, x₁²")
    assert _UNGROUPED.search("(R/γ)² = 29 740") and _UNGROUPED.search("after 2668 updates")
    assert not _UNGROUPED.search("(R/γ)² = 29,740 and 2,017.4 and 0.0155 and 548.7")


@pytest.mark.parametrize("name", demos.list_demos())
def test_captions_use_the_windows_notation(name):
    for where, text in _texts(name):
        # parameter names such as max_iter are code, not subscripts
        assert not _ASCII_SUBSCRIPT.search(text.replace("max_iter", "")), (name, where, text)
        assert not _UNGROUPED.search(text), (name, where, text)
