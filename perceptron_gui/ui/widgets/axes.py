"""Axes whose tick labels read well at every range: short, and never a negative count.

pyqtgraph's axis writes ``22.43857835407230`` for a collapsed range and ``−0.5`` on a
count axis around 0.  Every label comes from the core's one tick formatter
(:func:`~perceptron_gui.core.text.fmt_tick`): ``12,500``, ``10⁵``, ``8 × 10⁷`` alike.
"""

from __future__ import annotations

import math

import pyqtgraph as pg

from ...core.text import fmt_count, fmt_power, fmt_tick
from .. import style

__all__ = ["MAX_CHARS", "ReadableAxis", "count_label", "log_ticks", "size_for_labels", "style_axes",
           "value_label"]

#: The longest tick label an axis writes.
MAX_CHARS = 8


def _int_label(value: int) -> str:
    """``1``, ``10``, …, ``10,000``, then ``10⁵``, ``10⁶``, …"""
    return fmt_count(value) if value < 100_000 else fmt_power(value, 0)


def log_ticks(top: float) -> list[list[tuple[float, str]]]:
    """Ticks of a log10 axis from 1 to ``10**top`` as counts: powers of ten, 2 and 5 times them
    (labelled up to two decades)."""
    decades = max(1, math.ceil(top))
    major = [(float(j), _int_label(10**j)) for j in range(decades + 1)]
    label_minor = decades <= 2
    minor = [(math.log10(m * 10**j), fmt_count(m * 10**j) if label_minor else "")
             for j in range(decades) for m in (2, 5)]
    return [major, minor]


def count_label(value: float) -> str:
    """A whole count, short: ``950``, ``12,345``, ``99,999``, then ``10⁵``, ``1.5 × 10⁶``."""
    n = round(value)
    return fmt_count(n) if abs(n) < 100_000 else fmt_tick(n, 1.0, MAX_CHARS)


def value_label(value: float, spacing: float) -> str:
    """A real tick value with the decimals ``spacing`` needs, at most :data:`MAX_CHARS` long."""
    return fmt_tick(value, spacing, MAX_CHARS)


def style_axes(plot: pg.PlotItem, font_pt: float, titles=("", "")) -> None:
    """The pens, tick font (``font_pt``) and ``titles`` of ``plot``'s bottom and left axes."""
    foreground = style.current().foreground
    font = style.font(font_pt)
    css = {"color": foreground, "font-size": f"{font_pt:g}pt"}
    for name, title in zip(("bottom", "left"), titles, strict=True):
        axis = plot.getAxis(name)
        axis.setPen(pg.mkPen(foreground))
        axis.setTextPen(pg.mkPen(foreground))
        axis.setStyle(tickFont=font)
        axis.set_title(title, css)


def size_for_labels(plot: pg.PlotItem) -> None:
    """Size ``plot``'s left axis for the tick labels it shows now, as its paint does."""
    axis = plot.getAxis("left")
    picture = pg.QtGui.QPicture()
    painter = pg.QtGui.QPainter(picture)
    painter.setFont(axis.style["tickFont"] or painter.font())
    axis.generateDrawSpecs(painter)
    painter.end()


class ReadableAxis(pg.AxisItem):
    """An axis with short tick labels (``counts``: whole, non-negative, decades in log mode)."""

    def __init__(self, orientation: str, *, counts: bool = False, **kwargs):
        super().__init__(orientation, **kwargs)
        self.counts = counts
        self._finest: float | None = None  # the finest tick spacing drawn (tickValues)
        self._into_cache = False  # the picture was drawn for the axis's pixel cache
        self.enableAutoSIPrefix(False)  # the labels carry their own power of ten

    @property
    def title(self) -> str:
        """The axis's title as shown (``""`` when it shows none)."""
        return self.labelText if self.label.isVisible() else ""

    def set_title(self, title: str, css: dict) -> None:
        """Show ``title`` in the style ``css`` (font size, colour); ``""``: no title."""
        if title:
            self.setLabel(title, **css)
        elif self.label.isVisible():
            self.showLabel(False)

    def resizeEvent(self, ev=None) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(ev)
        if self.orientation == "bottom" and self.label.isVisible():
            # pyqtgraph nudges the title 5 px below the axis: the picture's edge (an
            # export's) cut its descenders off ("petal_length" lost its p, g and _)
            over = self.label.pos().y() + self.label.boundingRect().height() - self.size().height()
            if over > 0:
                self.label.setPos(self.label.pos().x(), self.label.pos().y() - over)

    def paint(self, p, opt, widget) -> None:
        # into the axis's pixel cache (a transparent pixmap; an export paints onto an image)
        # ticks and grid lines, which never overlap, come out the same written as blended,
        # ten times faster when translucent; the opaque axis line then goes over them
        fast = isinstance(p.device(), pg.QtGui.QPixmap) and bool(self.cacheMode().value)
        if fast != self._into_cache:
            self._into_cache, self.picture = fast, None
        super().paint(p, opt, widget)

    def drawPicture(self, p, axis, ticks, texts) -> None:  # noqa: N802 - pyqtgraph's name
        if self._into_cache:
            p.setRenderHint(p.RenderHint.Antialiasing, False)
            p.setCompositionMode(p.CompositionMode.CompositionMode_Source)
            for pen, p1, p2 in ticks:
                p.setPen(pen)
                p.drawLine(p1, p2)
            p.setCompositionMode(p.CompositionMode.CompositionMode_SourceOver)
        super().drawPicture(p, axis, [] if self._into_cache else ticks, texts)

    def tickValues(self, minVal: float, maxVal: float, size: float):  # noqa: N802 - Qt's name
        lo, hi = sorted((minVal, maxVal))
        if self.logMode and self.counts:
            major, minor = log_ticks(max(hi, 0.0))
            keep = [v for v, _ in major if lo <= v <= hi]
            return [(1.0, keep), (None, [v for v, _ in minor if lo <= v <= hi])]
        if not self.counts:
            levels = super().tickValues(lo, hi, size)
            # the labelled levels (pyqtgraph labels the major and at most the next one)
            # take the finer one's decimals ("4.0, 4.5, 5.0", not "4, 4.5, 5"):
            # pyqtgraph asks for each level's strings apart
            shown = [sp for sp, vals in levels[:2] if sp and vals]
            self._finest = min(shown) if shown else None
            return levels
        levels = []
        for spacing, values in super().tickValues(lo, hi, size):
            if spacing is not None and spacing < 1:
                continue
            whole = [v for v in values if v >= -1e-9 and abs(v - round(v)) < 1e-6]
            levels.append((spacing, [float(round(v)) for v in whole]))
        if not any(values for _, values in levels):
            levels = [(1.0, [float(v) for v in range(max(0, math.ceil(lo)),
                                                      math.floor(hi) + 1)][:20])]
        return levels

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - Qt's name
        if self.logMode and self.counts:
            label_minor = math.ceil(max(self.range)) <= 2
            return [_int_label(10 ** round(v)) if abs(v - round(v)) < 1e-9
                    else fmt_count(round(10**v)) if label_minor else "" for v in values]
        if self.counts:
            return [count_label(v * scale) for v in values]
        finest = self._finest
        spacing = min(spacing or 1.0, finest) if finest else (spacing or 1.0)
        return [value_label(v * scale, spacing * scale) for v in values]

    def shown_ticks(self) -> list[str]:
        """The tick labels this axis draws for its current range and length."""
        vertical = self.orientation in ("left", "right")
        length = self.geometry().height() if vertical else self.geometry().width()
        lo, hi = self.range
        strings = []
        for spacing, values in self.tickValues(lo, hi, max(length, 1.0)):
            strings.extend(s for s in self.tickStrings(values, self.scale, spacing) if s)
        return strings
