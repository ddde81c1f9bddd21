"""Numbers as people read them: percentages, vectors, counts, plurals, speeds."""

from __future__ import annotations

import pytest

from perceptron_gui.core.text import (
    TIMES,
    class_label,
    class_name,
    fmt,
    fmt_count,
    fmt_percent,
    fmt_rate,
    fmt_short,
    fmt_tick,
    fmt_vec,
    plural,
)

X = TIMES[:-2]  # " × " with narrow no-break spaces


@pytest.mark.parametrize(("p", "text"), [
    (0.09, "0.090 %"), (0.047, "0.047 %"), (0.001, "0.0010 %"), (1e-9, "< 0.0001 %"),
    (0.0, "0 %"), (12.345, "12.3 %"), (100.0, "100 %"), (0.5, "0.50 %"), (0.996, "1.0 %"),
])
def test_percent_is_never_scientific(p, text):
    assert fmt_percent(p) == text
    assert "e" not in fmt_percent(p)


@pytest.mark.parametrize(("v", "text"), [
    ((1.05, 9.791e-3), "(1.05, 0.0098)"),
    ((1.2, -0.4), "(1.20, −0.40)"),
    ((0.0, 0.0), "(0.00, 0.00)"),
    ((1.05, 3.1e-7), f"(1.05{X}10⁰, 3.10{X}10⁻⁷)"),
    ((-0.5, 2e6), f"(−5.00{X}10⁻¹, 2.00{X}10⁶)"),
])
def test_a_vector_keeps_one_notation(v, text):
    assert fmt_vec(v) == text


def test_vector_components_agree_on_notation():
    for v in [(1.0, 1e-3), (1e-5, 3.0), (123456.0, 0.5), (7e6, 1.0), (0.0, 1e-12)]:
        parts = fmt_vec(v)[1:-1].split(", ")
        # an exact zero reads 0.00 in either notation
        assert len({X in part for part in parts if part != "0.00"}) == 1, parts


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


@pytest.mark.parametrize(("x", "decimals", "text"), [
    (22133.78, 2, "22,133.78"), (1.137e8, 2, f"1.14{X}10⁸"), (-3.1e-7, 2, f"−3.10{X}10⁻⁷"),
    (999_999.5, 1, "999,999.5"), (1e6, 2, f"1.00{X}10⁶"), (-0.0, 2, "0.00"), (5.0, 0, "5"),
    (float("inf"), 2, "∞"), (float("nan"), 2, "—"),
])
def test_a_quantity_has_one_notation(x, decimals, text):
    assert fmt(x, decimals) == text
    assert "e+" not in text and "e−" not in text


def test_a_quantity_inside_a_vector_has_no_thousands_separator():
    assert fmt(22133.78, grouping=False) == "22133.78"
    assert fmt_vec((22133.78, 1.0)) == "(22133.78, 1.00)"


@pytest.mark.parametrize(("value", "spacing", "text"), [
    (0.0, 1.0, "0"), (12500.0, 2500.0, "12,500"), (10000.0, 5000.0, "10,000"),
    (1e5, 1e5, "10⁵"), (8e7, 1e7, f"8{X}10⁷"), (2.5e-6, 1e-6, f"2.5{X}10⁻⁶"), (0.25, 0.05, "0.25"),
    (-2.0, 1.0, "−2"), (1.5e6, 5e5, f"1.5{X}10⁶"),
])
def test_tick_labels_use_the_same_notations(value, spacing, text):
    assert fmt_tick(value, spacing) == text


def test_class_names_from_the_data():
    assert class_name(("setosa", "versicolor"), -1) == "setosa"
    assert class_name(None, 1) == "class +1"
    assert class_label(("nein", "ja"), 1) == "ja (+1)"
    assert class_label(("x" * 40, "ja"), -1) == "x" * 23 + "… (−1)"
    assert class_label(None, -1) == "class −1"


@pytest.mark.parametrize(("x", "digits", "text"), [
    (1.0, 3, "1"), (0.1, 3, "0.1"), (0.15, 3, "0.15"), (12345.6, 3, "12,300"),
    (999.9, 3, "1,000"), (-0.123456, 3, "−0.123"), (1e300, 1, "10³⁰⁰"),
    (1.7e308, 1, f"2{X}10³⁰⁸"), (2.5e-6, 3, f"2.5{X}10⁻⁶"), (1234567.0, 3, f"1.23{X}10⁶"),
])
def test_a_short_quantity_keeps_its_significant_digits(x, digits, text):
    assert fmt_short(x, digits) == text
