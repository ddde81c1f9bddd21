"""Both palettes keep every colour drawn on the canvas legible (WCAG contrast ≥ 3:1)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtGui

from perceptron_gui.ui import colormap, style

#: The palette's colours drawn as marks on the canvas background (lines, arrows, points, text).
ON_CANVAS = ("pos_color", "neg_color", "mixed_color", "boundary_color", "weight_color",
             "delta_color", "mistake_color", "maxmargin_color", "radius_color", "lda_color",
             "foreground")
PALETTES = [style.LIGHT, style.DARK]


def _over(color, alpha: int, background) -> QtGui.QColor:
    """``color`` drawn with ``alpha`` over the opaque ``background``."""
    c, b = QtGui.QColor(color), QtGui.QColor(_opaque(background))
    a = alpha / 255.0
    return QtGui.QColor(*(round(x * a + y * (1 - a)) for x, y in zip(
        (c.red(), c.green(), c.blue()), (b.red(), b.green(), b.blue()), strict=True)))


def _opaque(color) -> str:
    return {"w": "#ffffff", "k": "#000000"}.get(color, color)


@pytest.mark.parametrize("palette", PALETTES, ids=lambda p: p.name)
@pytest.mark.parametrize("field", ON_CANVAS)
def test_every_canvas_colour_contrasts_3_to_1_with_the_background(palette, field):
    color = getattr(palette, field)
    assert style.contrast(color, _opaque(palette.background)) >= 3.0, (palette.name, field)


@pytest.mark.parametrize("palette", PALETTES, ids=lambda p: p.name)
def test_the_translucent_ghost_boundary_keeps_3_to_1(palette):
    ghost = _over(palette.ghost_color, style.GHOST_ALPHA, palette.background)
    assert style.contrast(ghost, _opaque(palette.background)) >= 3.0


@pytest.mark.parametrize("palette", PALETTES, ids=lambda p: p.name)
@pytest.mark.parametrize("field", ("pos_color", "neg_color", "boundary_color", "weight_color"))
def test_marks_stay_legible_on_the_tinted_regions(palette, field):
    for region in (palette.pos_region, palette.neg_region):
        tint = _over(QtGui.QColor(*region[:3]).name(), region[3], palette.background)
        assert style.contrast(getattr(palette, field), tint) >= 3.0, (palette.name, field)


@pytest.mark.parametrize("palette", PALETTES, ids=lambda p: p.name)
def test_the_two_classes_differ_in_shape_and_in_colour(palette):
    assert style.POS_SYMBOL != style.NEG_SYMBOL
    pos, neg = QtGui.QColor(palette.pos_color), QtGui.QColor(palette.neg_color)
    # blue against vermilion: hues far apart, which the colour-vision deficiencies keep
    assert abs(pos.hueF() - neg.hueF()) > 0.3


def test_contrast_is_the_wcag_ratio():
    assert style.contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert style.contrast("w", "#ffffff") == pytest.approx(1.0)
    assert style.contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


def test_the_colours_are_read_from_the_active_palette():
    assert style.current() is style.LIGHT and style.current().pos_color == style.LIGHT.pos_color
    with style.using(style.DARK):
        assert style.current().pos_color == style.DARK.pos_color
        assert style.current().background == style.DARK.background
    assert style.current().background == "w"
    style.use(style.DARK)
    try:
        assert style.current() is style.DARK
    finally:
        style.use(style.LIGHT)
    assert not hasattr(style, "POS_COLOR")  # colours are the palette's, not the module's


#: The least contrast of a class's marker against either region tint. Light: WCAG's 3:1
#: for graphics. Dark: 4.5:1, as orange on the brown tint read poorly at 3.6:1 (issue 20).
MARKER_ON_TINT = {"light": 3.0, "dark": 4.5}


@pytest.mark.parametrize("palette", PALETTES, ids=lambda p: p.name)
def test_the_class_markers_stand_out_on_both_region_tints(palette):
    ratios = {}
    for field in ("pos_color", "neg_color"):
        for name in ("pos_region", "neg_region"):
            region = getattr(palette, name)
            tint = _over(QtGui.QColor(*region[:3]).name(), region[3], palette.background)
            ratios[field, name] = style.contrast(getattr(palette, field), tint)
            # the tint still shows on the background
            assert style.contrast(tint, _opaque(palette.background)) >= 1.1, (name, tint)
    assert min(ratios.values()) >= MARKER_ON_TINT[palette.name], ratios


#: The colours a class's markers must keep apart from (CIELAB ΔE): the lines and marks
#: drawn over the points.
OVER_POINTS = ("boundary_color", "weight_color", "mistake_color", "ghost_color",
               "highlight_color", "radius_color", "mixed_color")


def _delta_e(a, b) -> float:
    lab = [colormap.srgb_to_lab(np.array([[QtGui.QColor(_opaque(c)).red(),
                                           QtGui.QColor(_opaque(c)).green(),
                                           QtGui.QColor(_opaque(c)).blue()]], float))[0]
           for c in (a, b)]
    return float(np.linalg.norm(lab[0] - lab[1]))


@pytest.mark.parametrize("palette", PALETTES, ids=lambda p: p.name)
def test_every_class_has_a_shape_and_a_legible_colour_of_its_own(palette):
    colors = palette.class_colors
    assert len(colors) == len(style.CLASS_SYMBOLS) == 8
    assert len(set(style.CLASS_SYMBOLS)) == 8  # the shape tells the classes apart for every viewer
    assert colors[:2] == (palette.pos_color, palette.neg_color)  # two classes: as ever
    assert (style.POS_SYMBOL, style.NEG_SYMBOL) == style.CLASS_SYMBOLS[:2] == ("o", "s")
    for i, color in enumerate(colors):
        assert style.contrast(color, _opaque(palette.background)) >= 3.0, (i, color)
        for other in colors[i + 1:]:
            assert _delta_e(color, other) >= 35, (color, other)
        for role in OVER_POINTS:
            assert _delta_e(color, getattr(palette, role)) >= 15, (color, role)


def test_a_class_keeps_its_hue_in_both_schemes():
    for light, dark in zip(style.LIGHT.class_colors, style.DARK.class_colors, strict=True):
        hue = [QtGui.QColor(c).hsvHueF() for c in (light, dark)]
        gap = abs(hue[0] - hue[1])
        assert min(gap, 1 - gap) < 0.09, (light, dark)


def _inked_area(symbol: str, size: float) -> float:
    """The pixels pyqtgraph's ``symbol`` fills at ``size`` (drawn 100 px per unit)."""
    from pyqtgraph.graphicsItems.ScatterPlotItem import Symbols

    image = QtGui.QImage(400, 400, QtGui.QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QtGui.QPainter(image)
    painter.translate(200, 200)
    painter.scale(100 * size, 100 * size)
    painter.fillPath(Symbols[symbol], QtGui.QColor("black"))
    painter.end()
    alpha = np.frombuffer(bytes(image.constBits()), np.uint8).reshape(400, 400, 4)[:, :, 3]
    return float(np.count_nonzero(alpha > 127))


def test_no_class_marker_looks_much_smaller_or_larger_than_the_disc():
    areas = [_inked_area(symbol, size) for symbol, size
             in zip(style.CLASS_SYMBOLS, style.CLASS_SYMBOL_SIZES, strict=True)]
    ratios = np.array(areas) / areas[0]
    assert ratios[:2].tolist() == [1.0, pytest.approx(4 / np.pi, rel=0.02)]  # disc, square
    assert ratios.min() >= 0.75 and ratios.max() <= 1.3, ratios
