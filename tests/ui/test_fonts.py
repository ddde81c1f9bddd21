"""The formula font is one that Qt confirms is fixed-pitch, whatever fonts are installed."""

import pytest
from PySide6 import QtGui

from perceptron_gui.ui import style


def test_fixed_font_is_fixed_pitch_at_the_size_asked(qapp):
    for size in (style.NORMAL.font_pt, style.PRESENTER.font_pt):
        info = QtGui.QFontInfo(style.fixed_font(size))
        assert info.fixedPitch(), info.family()
        assert info.pointSizeF() == pytest.approx(size, rel=0.1)


def test_a_proportional_system_font_is_passed_over(qapp, monkeypatch):
    proportional = QtGui.QFont("DejaVu Sans")
    assert not QtGui.QFontInfo(proportional).fixedPitch()
    monkeypatch.setattr(QtGui.QFontDatabase, "systemFont", lambda _which: QtGui.QFont(proportional))
    info = QtGui.QFontInfo(style.fixed_font(12))
    assert info.fixedPitch()
    assert info.family() != "DejaVu Sans"


def test_columns_of_the_formula_font_align(qapp):
    metrics = QtGui.QFontMetricsF(style.fixed_font(11))
    assert metrics.horizontalAdvance("iiii") == pytest.approx(metrics.horizontalAdvance("WWWW"))
