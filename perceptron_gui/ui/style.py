"""Colours, markers and sizes shared by every view (one place to restyle the app).

The two classes differ in colour *and* marker shape, from the Okabe–Ito palette,
which stays distinguishable under the common colour-vision deficiencies.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6 import QtGui

#: Class +1: blue circles; class −1: vermilion squares (Okabe–Ito).
POS_COLOR = "#0072B2"
NEG_COLOR = "#D55E00"
POS_SYMBOL = "o"
NEG_SYMBOL = "s"
POS_NAME = "class +1"
NEG_NAME = "class −1"

BOUNDARY_COLOR = "#222222"
WEIGHT_COLOR = "#009E73"  # bluish green: the weight vector w
DELTA_COLOR = "#CC79A7"  # reddish purple: the added vector eta*y*x
GHOST_COLOR = "#999999"  # the previous boundary
HIGHLIGHT_COLOR = "#F0E442"  # yellow ring: the sample being examined
MISTAKE_COLOR = "#000000"  # black cross: currently misclassified
MAXMARGIN_COLOR = "#56B4E9"  # sky blue: maximum-margin hyperplane
RADIUS_COLOR = "#888888"
LDA_COLOR = "#6A3D9A"
POS_REGION = (0, 114, 178, 28)  # RGBA of the shaded decision regions
NEG_REGION = (213, 94, 0, 28)
BACKGROUND = "w"
FUTURE_TEXT_COLOR = "#9a9a9a"  # update-log rows computed but after the cursor
FUTURE_TICK_COLOR = "#c8c8c8"  # timeline ticks of updates after the cursor
FOREGROUND = "#333333"


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


#: Families tried, in order, after the system's fixed font, for text whose columns must align.
FIXED_FAMILIES = ("DejaVu Sans Mono", "Liberation Mono", "Noto Mono", "Monospace")


def fixed_font(point_size: float | None = None) -> QtGui.QFont:
    """A font that Qt confirms is fixed-pitch, for formulas whose columns must align.

    Parameters
    ----------
    point_size : float, optional
        The size in points; the font's default when omitted.

    Returns
    -------
    QtGui.QFont
        The system's fixed font if ``QFontInfo`` confirms a fixed pitch, else the
        first of :data:`FIXED_FAMILIES` that it confirms, else the system's fixed font.

    Notes
    -----
    A font request is matched against the fonts installed, so the family asked
    for is not always the family drawn: with ``fonts-noto-mono`` installed, Debian's
    ``monospace`` resolves to Noto Sans Mono, which Qt reports as not fixed-pitch.
    """
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
