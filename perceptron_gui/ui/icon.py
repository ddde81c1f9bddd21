"""The application's icon (``resources/icons/perceptron-gui.svg``, in a checkout or a
wheel), and the toolbar's own glyphs, drawn in the colour scheme's text colour."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from ..core.resources import shipped_dir

__all__ = ["ICON_FILE", "app_icon", "epoch_icon", "glyph_color", "glyph_icon"]

#: The icon's SVG file.
ICON_FILE: Path = shipped_dir("icons") / "perceptron-gui.svg"


def app_icon() -> QtGui.QIcon:
    """The window and application icon (two classes of points and a separating line)."""
    return QtGui.QIcon(str(ICON_FILE))


#: How far a disabled glyph goes from the disabled text's colour toward the button's:
#: as faint as the style's own disabled icons beside it, in either scheme.
DISABLED_FADE = 0.7


def glyph_color(mode: QtGui.QIcon.Mode = QtGui.QIcon.Mode.Normal) -> QtGui.QColor:
    """The colour a glyph is drawn in now: the palette's button text; disabled, faded toward
    the button's colour (the disabled text alone looked enabled on the dark scheme)."""
    palette = QtWidgets.QApplication.palette()
    if mode != QtGui.QIcon.Mode.Disabled:
        return palette.color(QtGui.QPalette.ColorGroup.Active,
                             QtGui.QPalette.ColorRole.ButtonText)
    text = palette.color(QtGui.QPalette.ColorGroup.Disabled, QtGui.QPalette.ColorRole.ButtonText)
    button = palette.color(QtGui.QPalette.ColorGroup.Disabled, QtGui.QPalette.ColorRole.Button)
    t = DISABLED_FADE
    return QtGui.QColor.fromRgbF(*(a + t * (b - a) for a, b in zip(
        text.getRgbF()[:3], button.getRgbF()[:3], strict=True)))


class _EpochEngine(QtGui.QIconEngine):
    """Two chevrons and a bar, "run to the end of the epoch", in :func:`glyph_color` read
    when painted (the style's own icon, a dark chevron, vanished on the dark scheme)."""

    def paint(self, painter: QtGui.QPainter, rect: QtCore.QRect, mode, state) -> None:
        painter.save()
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        color = glyph_color(mode)
        side = min(rect.width(), rect.height())
        x0 = rect.x() + (rect.width() - side) / 2
        y0 = rect.y() + (rect.height() - side) / 2
        pen = QtGui.QPen(color, max(1.5, side / 9), QtCore.Qt.PenStyle.SolidLine,
                         QtCore.Qt.PenCapStyle.RoundCap, QtCore.Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        top, bottom, mid = y0 + side * 0.22, y0 + side * 0.78, y0 + side * 0.5
        for left in (0.14, 0.42):
            path = QtGui.QPainterPath(QtCore.QPointF(x0 + side * left, top))
            path.lineTo(x0 + side * (left + 0.24), mid)
            path.lineTo(x0 + side * left, bottom)
            painter.drawPath(path)
        painter.drawLine(QtCore.QPointF(x0 + side * 0.84, top),
                         QtCore.QPointF(x0 + side * 0.84, bottom))
        painter.restore()

    def pixmap(self, size: QtCore.QSize, mode, state) -> QtGui.QPixmap:
        pixmap = QtGui.QPixmap(size)
        pixmap.fill(QtCore.Qt.GlobalColor.transparent)
        painter = QtGui.QPainter(pixmap)
        self.paint(painter, QtCore.QRect(QtCore.QPoint(0, 0), size), mode, state)
        painter.end()
        return pixmap

    def clone(self) -> QtGui.QIconEngine:
        return _EpochEngine()


def epoch_icon() -> QtGui.QIcon:
    """The Step epoch action's icon, drawn in the scheme's text colour."""
    return QtGui.QIcon(_EpochEngine())


class _GlyphEngine(QtGui.QIconEngine):
    """Another icon's shape (its opaque pixels) filled with :func:`glyph_color` when painted."""

    def __init__(self, source: QtGui.QIcon):
        super().__init__()
        self._source = source

    def paint(self, painter: QtGui.QPainter, rect: QtCore.QRect, mode, state) -> None:
        painter.drawPixmap(rect, self.pixmap(rect.size(), mode, state))

    def pixmap(self, size: QtCore.QSize, mode, state) -> QtGui.QPixmap:
        shape = self._source.pixmap(size, QtGui.QIcon.Mode.Normal, state)
        out = QtGui.QPixmap(shape.size())
        out.setDevicePixelRatio(shape.devicePixelRatio())
        out.fill(QtCore.Qt.GlobalColor.transparent)
        painter = QtGui.QPainter(out)
        painter.drawPixmap(0, 0, shape)
        painter.setCompositionMode(QtGui.QPainter.CompositionMode.CompositionMode_SourceIn)
        painter.fillRect(QtCore.QRectF(0, 0, out.width(), out.height()), glyph_color(mode))
        painter.end()
        return out

    def clone(self) -> QtGui.QIconEngine:
        return _GlyphEngine(self._source)


def glyph_icon(source: QtGui.QIcon) -> QtGui.QIcon:
    """``source``'s shape in the scheme's text colour (:func:`glyph_color`), read when drawn."""
    return QtGui.QIcon(_GlyphEngine(source))
