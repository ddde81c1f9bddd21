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


#: Words of the course's Chinese text (seed 004): "linear decision boundary", "margin".
CHINESE = "线性决策边界 与 间隔"


def _boxes(text: str, font: QtGui.QFont) -> list[str]:
    """The fonts that draw some of ``text`` as an empty box (glyph 0), with Qt's fallbacks."""
    layout = QtGui.QTextLayout(text, font)
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    runs = layout.glyphRuns()
    assert runs, text
    return [run.rawFont().familyName() for run in runs if 0 in run.glyphIndexes()]


def test_the_glyph_check_sees_an_empty_box(qapp):
    assert _boxes("\U000f0000", QtGui.QFont())  # a private-use character: no font has it
    assert not _boxes("w = (1.2, −0.4)", QtGui.QFont())


def test_a_chinese_caption_is_drawn_in_glyphs_not_boxes(qtbot, window):
    """With the README's CJK font installed, the caption bar draws seed 004's words."""
    import os

    writing = QtGui.QFontDatabase.WritingSystem.SimplifiedChinese
    if not QtGui.QFontDatabase.families(writing) and os.environ.get("CI") != "true":
        pytest.skip("no font with Chinese glyphs installed (the README's apt line has one)")
    for font in (window.demos.caption_bar.font(), QtGui.QFont()):
        assert _boxes(CHINESE, font) == [], QtGui.QFontInfo(font).family()
