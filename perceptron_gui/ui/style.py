"""Colours, markers and sizes shared by every view (one place to restyle the app).

The classes differ in colour *and* marker shape: the two of a binary problem in
blue and vermilion from the Okabe–Ito palette, which stays distinguishable under
the common colour-vision deficiencies; up to eight classes each with a shape of
its own, as no eight colours stay apart for every viewer.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

from PySide6 import QtGui

from . import colormap

#: The marker of each class, by its place in the data set's ``listed_classes`` (the two
#: of a binary problem: +1 a disc, −1 a square).
CLASS_SYMBOLS = ("o", "s", "t", "d", "star", "h", "t1", "p")
#: Each marker's size against the disc's: pyqtgraph's triangles, diamond and star fill much
#: less of their box, and would look like smaller (less important) points.
CLASS_SYMBOL_SIZES = (1.0, 1.0, 1.2, 1.3, 1.5, 1.1, 1.2, 1.1)
POS_SYMBOL, NEG_SYMBOL = CLASS_SYMBOLS[:2]
POS_NAME = "class +1"
NEG_NAME = "class −1"


@dataclass(frozen=True)
class Palette:
    """The colours of one colour scheme (``name``: "light" or "dark").

    Read a colour from the active palette (``style.current().pos_color``) in the
    restyle path, to follow a change of scheme.  Every colour drawn on
    :attr:`background` keeps a WCAG contrast of 3:1 with it, but the translucent
    :attr:`highlight_color`, whose ring is drawn in :attr:`foreground`.
    """

    name: str
    background: str
    foreground: str
    pos_color: str
    neg_color: str
    mixed_color: str  # a raster pixel holding points of both classes: a neutral grey
    boundary_color: str
    weight_color: str  # bluish green: the weight vector w
    delta_color: str  # reddish purple: the added vector eta*y*x
    ghost_color: str  # the previous boundary (drawn with alpha GHOST_ALPHA)
    highlight_color: str  # yellow ring: the sample being examined
    mistake_color: str  # cross: currently misclassified
    maxmargin_color: str  # sky blue: maximum-margin hyperplane
    radius_color: str
    lda_color: str
    pos_region: tuple  # RGBA of the shaded decision regions
    neg_region: tuple
    future_text_color: str  # update-log rows computed but after the cursor
    future_tick_color: str  # timeline ticks of updates after the cursor
    more_class_colors: tuple = ()  # the third class's colour onwards (to the eighth)

    @property
    def class_colors(self) -> tuple:
        """The colour of each class by its place in ``listed_classes``: +1's, −1's, then
        :attr:`more_class_colors`."""
        return (self.pos_color, self.neg_color, *self.more_class_colors)

    @property
    def dark(self) -> bool:
        """Whether this is a dark scheme (light marks on a dark background)."""
        return self.name == "dark"


#: Today's colours, for slides and light desktops (exports always use it by default).
LIGHT = Palette(
    name="light", background="w", foreground="#333333",
    pos_color="#0072B2", neg_color="#D55E00", mixed_color="#8A8A8A", boundary_color="#222222",
    weight_color="#00966D", delta_color="#CC79A7", ghost_color="#707070",
    highlight_color="#F0E442", mistake_color="#000000", maxmargin_color="#3A8FC0",
    radius_color="#888888", lda_color="#6A3D9A",
    pos_region=(0, 114, 178, 28), neg_region=(213, 94, 0, 28),
    future_text_color="#9a9a9a", future_tick_color="#c8c8c8",
    more_class_colors=("#24A824", "#6D172E", "#67621E", "#A8248E", "#2424A8", "#15655A"),
)

#: Light marks on a dark grey: the same hues, lightened where they would sink into it (the
#: classes' colours hold 4.5:1 against both region tints: orange on the brown tint read
#: poorly at 3.6:1).
DARK = Palette(
    name="dark", background="#1c1f24", foreground="#d8d8d8",
    pos_color="#4AA3EC", neg_color="#EE7733", mixed_color="#A0A0A0", boundary_color="#E6E6E6",
    weight_color="#1DB589", delta_color="#CC79A7", ghost_color="#9A9A9A",
    highlight_color="#F0E442", mistake_color="#FFFFFF", maxmargin_color="#56B4E9",
    radius_color="#9C9C9C", lda_color="#B49AE0",
    pos_region=(47, 143, 216, 40), neg_region=(213, 94, 0, 32),
    future_text_color="#7a7a7a", future_tick_color="#4d525a",
    more_class_colors=("#42D742", "#D74269", "#CCD185", "#D742D7", "#5A6DE0", "#74E2E2"),
)

PALETTES = {"light": LIGHT, "dark": DARK}

#: The alpha the previous boundary is drawn with (the contrast test composites it).
GHOST_ALPHA = 200

_current = [LIGHT]


def current() -> Palette:
    """The active palette (:data:`LIGHT` until :func:`use` chooses another)."""
    return _current[0]


def use(palette: Palette) -> None:
    """Make ``palette`` the active one; views pick it up when they restyle."""
    _current[0] = palette


@contextmanager
def using(palette: Palette):
    """Make ``palette`` active inside a ``with`` block (exports draw in the light scheme)."""
    before = _current[0]
    _current[0] = palette
    try:
        yield palette
    finally:
        _current[0] = before


def contrast(a, b) -> float:
    """The WCAG 2 contrast ratio of two opaque colours (1 to 21: :func:`.colormap.contrast`)."""
    def rgb(color) -> tuple:
        c = QtGui.QColor({"w": "#ffffff", "k": "#000000"}.get(color, color)
                         if isinstance(color, str) else color)  # pyqtgraph's "w", "k"
        return c.red(), c.green(), c.blue()

    return float(colormap.contrast(rgb(a), rgb(b)))


@dataclass
class Scale:
    """Sizes that presenter mode enlarges (markers, lines, fonts)."""

    marker: float = 10.0
    line: float = 2.0
    font_pt: float = 10.0

    def scaled(self, factor: float) -> Scale:
        return Scale(self.marker * factor, self.line * factor, self.font_pt * factor)


NORMAL = Scale()
PRESENTER = NORMAL.scaled(2.0)

#: The width of a pane that holds the views' titles, legends and axes at the normal sizes (px).
VIEWS_NORMAL_PX = 260


def pane_scale(scale: Scale, width: float) -> Scale:
    """The sizes for views in a pane ``width`` pixels wide drawn at ``scale``: smaller in
    proportion to a narrower pane, never below the normal sizes."""
    want = scale.font_pt / NORMAL.font_pt
    factor = round(min(want, max(1.0, width / VIEWS_NORMAL_PX)), 1)
    return scale if factor >= want else NORMAL.scaled(factor)


def font(point_size: float, like: QtGui.QFont | None = None, *, bold: bool = False) -> QtGui.QFont:
    """A copy of ``like`` (default: the application's font) at ``point_size``, bold if asked."""
    out = QtGui.QFont() if like is None else QtGui.QFont(like)
    out.setPointSizeF(point_size)
    if bold:
        out.setBold(True)
    return out


#: Families tried, in order, after the system's fixed font, for text whose columns must align.
FIXED_FAMILIES = ("DejaVu Sans Mono", "Liberation Mono", "Noto Mono", "Monospace")


def fixed_font(point_size: float | None = None) -> QtGui.QFont:
    """A font that ``QFontInfo`` confirms is fixed-pitch, for formulas whose columns align
    (with ``fonts-noto-mono``, Debian's ``monospace`` is Noto Sans Mono, not fixed-pitch)."""
    system = QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont)
    candidates = [system]
    for family in FIXED_FAMILIES:
        font = QtGui.QFont(family)
        font.setStyleHint(QtGui.QFont.StyleHint.TypeWriter)
        font.setFixedPitch(True)
        candidates.append(font)
    for font in candidates:
        if point_size is not None:
            font.setPointSizeF(point_size)
        if QtGui.QFontInfo(font).fixedPitch():
            return font
    return system
