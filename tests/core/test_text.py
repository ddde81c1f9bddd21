"""Numbers as people read them: percentages, vectors, counts, plurals, speeds."""

from __future__ import annotations

import pytest

from perceptron_gui.core.text import fmt_count, fmt_percent, fmt_rate, fmt_vec, plural


@pytest.mark.parametrize(("p", "text"), [
    (0.09, "0.09 %"), (0.001, "< 0.01 %"), (1e-9, "< 0.01 %"), (0.0, "0 %"),
    (12.345, "12.3 %"), (100.0, "100 %"), (0.5, "0.50 %"),
])
def test_percent_is_never_scientific(p, text):
    assert fmt_percent(p) == text
    assert "e" not in fmt_percent(p)


@pytest.mark.parametrize(("v", "text"), [
    ((1.05, 9.791e-3), "(1.05, 0.0098)"),
    ((1.2, -0.4), "(1.20, −0.40)"),
    ((0.0, 0.0), "(0.00, 0.00)"),
    ((1.05, 3.1e-7), "(1.05e+00, 3.10e−07)"),
    ((-0.5, 2e6), "(−5.00e−01, 2.00e+06)"),
])
def test_a_vector_keeps_one_notation(v, text):
    assert fmt_vec(v) == text


def test_vector_components_agree_on_notation():
    for v in [(1.0, 1e-3), (1e-5, 3.0), (123456.0, 0.5), (7e6, 1.0), (0.0, 1e-12)]:
        parts = fmt_vec(v)[1:-1].split(", ")
        assert len({"e" in part for part in parts}) == 1, parts


def test_counts_and_plurals():
    assert fmt_count(5000) == "5,000"
    assert fmt_count(1234567) == "1,234,567"
    assert plural(1, "update") == "1 update"
    assert plural(0, "update") == "0 updates"
    assert plural(2000, "epoch") == "2,000 epochs"
    assert plural(2, "class", "classes") == "2 classes"


@pytest.mark.parametrize(("r", "text"), [
    (5000, "5,000 steps/s"), (1, "1 step/s"), (2.5, "2.5 steps/s"), (0.25, "0.25 steps/s"),
    (12.4, "12 steps/s"), (100000, "100,000 steps/s"),
])
def test_speed(r, text):
    assert fmt_rate(r) == text
