"""GIF frames: the caption strip under the canvas, and the writer with one shared palette.
"""

from __future__ import annotations

import io
import math
import re

from PySide6 import QtCore, QtGui

from ... import style
from .common import ExportError, qimage_bytes


def _caption_font(scale: style.Scale) -> QtGui.QFont:
    font = QtGui.QFont()
    font.setPixelSize(max(9, round(scale.font_pt * 1.15 * 96 / 72)))
    return font


def _lines(texts, width: int, scale: style.Scale) -> tuple[int, QtGui.QFontMetrics]:
    """The most lines one of ``texts`` wraps into in a strip ``width`` pixels wide."""
    metrics = QtGui.QFontMetrics(_caption_font(scale))
    pad = metrics.height() // 2
    inner = max(1, width - 2 * pad - metrics.horizontalAdvance("00 / 00") - pad)
    flags = int(QtCore.Qt.TextFlag.TextWordWrap)
    return max((math.ceil(metrics.boundingRect(QtCore.QRect(0, 0, inner, 10 ** 6), flags,
                                               text).height() / metrics.lineSpacing())
                for text in texts), default=0), metrics


def caption_height(texts, width: int, scale: style.Scale, max_lines: int = 4,
                   min_lines: int = 1) -> int:
    """Height of a caption strip that fits the longest of ``texts`` (in min..max lines)."""
    lines, metrics = _lines(texts, width, scale)
    return min(max(lines, min_lines), max_lines) * metrics.lineSpacing() + metrics.height() // 2 * 2


def caption_scale(texts, width: int, scale: style.Scale, max_lines: int = 4) -> style.Scale:
    """``scale``, or the largest smaller font (a point at a time, not below the normal) at
    which the longest of ``texts`` fits ``max_lines``: one caption size for every frame."""
    texts = list(texts)
    pt = scale.font_pt
    while True:
        at = scale if pt == scale.font_pt else style.NORMAL.scaled(pt / style.NORMAL.font_pt)
        if pt <= style.NORMAL.font_pt or _lines(texts, width, at)[0] <= max_lines:
            return at
        pt = max(style.NORMAL.font_pt, pt - 1.0)


def compose_frame(canvas_image: QtGui.QImage, caption: str, counter: str, strip: int,
                  scale: style.Scale) -> QtGui.QImage:
    """The canvas image with a caption strip of ``strip`` pixels under it."""
    w, h = canvas_image.width(), canvas_image.height() + strip
    frame = QtGui.QImage(w, h, QtGui.QImage.Format.Format_RGB32)
    frame.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(frame)
    try:
        painter.drawImage(0, 0, canvas_image)
        if strip > 0:
            font = _caption_font(scale)
            metrics = QtGui.QFontMetrics(font)
            pad = metrics.height() // 2
            painter.fillRect(0, h - strip, w, strip, QtGui.QColor("#f2f2f2"))
            painter.setPen(QtGui.QPen(QtGui.QColor("#cccccc"), 1))
            painter.drawLine(0, h - strip, w, h - strip)
            painter.setFont(font)
            counter_w = metrics.horizontalAdvance(counter) if counter else 0
            right = QtCore.QRect(w - pad - counter_w, h - strip + pad, counter_w, strip - 2 * pad)
            if counter:
                painter.setPen(QtGui.QColor("#777777"))
                painter.drawText(right, int(QtCore.Qt.AlignmentFlag.AlignRight
                                            | QtCore.Qt.AlignmentFlag.AlignTop), counter)
            painter.setPen(QtGui.QColor(style.current().foreground))
            box = QtCore.QRect(pad, h - strip + pad, w - 3 * pad - counter_w, strip - 2 * pad)
            lines = max(1, box.height() // metrics.lineSpacing())
            text = _fit_lines(caption, metrics, box.width(), lines)
            painter.drawText(box, int(QtCore.Qt.AlignmentFlag.AlignLeft
                                      | QtCore.Qt.AlignmentFlag.AlignTop
                                      | QtCore.Qt.TextFlag.TextWordWrap), text)
    finally:
        painter.end()
    return frame


def _fit_lines(text: str, metrics: QtGui.QFontMetrics, width: int, lines: int) -> str:
    """``text`` shortened with an ellipsis so that it wraps into at most ``lines`` lines."""
    flags = int(QtCore.Qt.TextFlag.TextWordWrap)

    def fits(t):
        rect = metrics.boundingRect(QtCore.QRect(0, 0, width, 10 ** 6), flags, t)
        return rect.height() <= lines * metrics.lineSpacing()

    if fits(text):
        return text
    # where the text may break: spaces, and the zero-width spaces of a long word
    cuts = [m.start() for m in re.finditer(r"\s|\u200b", text)]
    lo, hi = 0, len(cuts)
    while lo < hi:  # the longest head that fits with an ellipsis
        mid = (lo + hi + 1) // 2
        if fits(text[:cuts[mid - 1]].rstrip() + " …"):
            lo = mid
        else:
            hi = mid - 1
    return (text[:cuts[lo - 1]].rstrip() + " …") if lo else "…"


def _style_swatch(width: int) -> QtGui.QImage:
    """A strip of the style's colours and their blends with white (for the GIF palette)."""
    p = style.current()
    colors = [p.pos_color, p.neg_color, p.boundary_color, p.weight_color, p.delta_color,
              p.ghost_color, p.highlight_color, p.mistake_color, p.maxmargin_color,
              p.radius_color, p.lda_color, p.foreground]
    regions = [QtGui.QColor(*p.pos_region), QtGui.QColor(*p.neg_region)]
    cells = []
    for c in colors:
        base = QtGui.QColor(c)
        for alpha in (1.0, 0.75, 0.5, 0.25):
            cells.append(_blend(base, QtGui.QColor("white"), alpha))
            for region in regions:  # the colour over a shaded region
                cells.append(_blend(base, _blend(region, QtGui.QColor("white"),
                                                 region.alphaF()), alpha))
    for region in regions:
        cells.append(_blend(region, QtGui.QColor("white"), region.alphaF()))
    cell = max(1, width // len(cells))
    image = QtGui.QImage(max(width, cell * len(cells)), 8, QtGui.QImage.Format.Format_RGB32)
    image.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(image)
    for i, c in enumerate(cells):
        painter.fillRect(i * cell, 0, cell, 8, c)
    painter.end()
    return image


def _blend(top: QtGui.QColor, bottom: QtGui.QColor, alpha: float) -> QtGui.QColor:
    return QtGui.QColor(*(round(alpha * a + (1 - alpha) * b) for a, b in
                          zip(top.getRgb()[:3], bottom.getRgb()[:3], strict=True)))


def qimage_to_pil(image: QtGui.QImage):
    """A QImage as an RGB Pillow image (copied)."""
    from PIL import Image

    rgb = image.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    w, h, stride = rgb.width(), rgb.height(), rgb.bytesPerLine()
    data = bytes(rgb.constBits())[: stride * h]
    return Image.frombuffer("RGB", (w, h), data, "raw", "RGB", stride, 1).copy()


class GifWriter:
    """Collects frames (QImages of one size, kept PNG-compressed) and encodes a GIF with Pillow.

    *One* palette — median cut over up to :attr:`PALETTE_SAMPLES` frames and the
    style's colours — maps every frame without dithering: flat areas stay flat, no
    colour flickers.  A frame lasts ``1000 / fps`` ms, rounded by GIF to 10 ms.
    """

    PALETTE_SAMPLES = 8

    def __init__(self, fps: float):
        if not (0.01 <= fps <= 100):
            raise ExportError(f"bad frame rate {fps}: expected 0.01 to 100 frames per second")
        self.fps = float(fps)
        self.frames: list[bytes] = []
        self._size = None

    def __len__(self) -> int:
        return len(self.frames)

    def add(self, image: QtGui.QImage, caption: str | None = None) -> None:
        """Keep one frame (its caption is already drawn in it)."""
        size = (image.width(), image.height())
        if self._size is None:
            self._size = size
        elif size != self._size:
            raise ExportError(f"frame size {size} differs from the first frame's {self._size}")
        self.frames.append(qimage_bytes(image, quality=90))  # light compression: fast, lossless

    def _frame(self, i: int):
        from PIL import Image

        with Image.open(io.BytesIO(self.frames[i])) as im:
            return im.convert("RGB")

    def palette(self):
        """The shared palette, as a "P" image."""
        from PIL import Image

        n = len(self.frames)
        count = min(n, self.PALETTE_SAMPLES)
        picks = sorted({round(i * (n - 1) / max(1, count - 1)) for i in range(count)})
        w, h = self._size
        swatch = qimage_to_pil(_style_swatch(w))
        montage = Image.new("RGB", (w, h * len(picks) + swatch.size[1]), "white")
        for row, i in enumerate(picks):
            montage.paste(self._frame(i), (0, row * h))
        montage.paste(swatch, (0, h * len(picks)))
        return montage.quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                                dither=Image.Dither.NONE)

    def encode(self) -> bytes:
        """The GIF file's bytes (loops for ever)."""
        from PIL import Image

        if not self.frames:
            raise ExportError("no frames to write")
        palette = self.palette()
        frames = [self._frame(i).quantize(palette=palette, dither=Image.Dither.NONE)
                  for i in range(len(self.frames))]
        out = io.BytesIO()
        frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:],
                       duration=round(1000.0 / self.fps), loop=0, optimize=False, disposal=1)
        return out.getvalue()
