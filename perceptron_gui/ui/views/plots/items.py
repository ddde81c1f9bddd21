"""The small pieces every live plot draws with: the plot widget, notes, titles, points."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from ... import style
from ...widgets.axes import ReadableAxis
from ...widgets.canvas.legend import rgba

__all__ = ["Note", "Titles", "axes", "axis_css", "fast", "fit_item", "fit_to_view",
           "new_plot_widget", "note_font", "plain", "restyle_part", "set_points", "span",
           "style_axes", "title_css"]

#: The finished epochs' bars.  The other colours are the palette's, read when drawn:
#: ``weight_color`` for quantities of ``w_k``, ``radius_color`` for those of R (the
#: ceiling (R/γ)², the line kR²), ``maxmargin_color`` for kγ, ``highlight_color`` now.
BAR_COLOR = "#7F8FA6"


def span(text: str, color: str) -> str:
    """``text`` in bold and ``color`` (rich text for a plot title)."""
    return f"<span style='color: {color}; font-weight: bold'>{text}</span>"


def axes(x_counts: bool = True, y_counts: bool = True) -> dict:
    """Readable left and bottom axes for a new plot."""
    return {"left": ReadableAxis("left", counts=y_counts),
            "bottom": ReadableAxis("bottom", counts=x_counts)}


def fit_item(view: pg.GraphicsView) -> None:
    """Make ``view``'s item as large as the view, or its new minimum if that is larger.

    pyqtgraph sets the item's geometry to the view's on a resize only, and Qt
    clamps it to the item's minimum then: laid out while a long title or large
    tick labels held it wide, the item stayed wider than its view (its right
    part cut) after they shrank.
    """
    item = view.centralWidget
    if item is None:
        return
    layout = QtWidgets.QGraphicsWidget.layout(item)  # pyqtgraph's attribute hides it
    if layout is not None:
        layout.activate()
    item.setGeometry(view.range)


class _FitToView(QtCore.QObject):
    """Fits a plot view's item to the view each time the item's layout changes."""

    def __init__(self, view: pg.GraphicsView):
        super().__init__(view)
        self._view = view
        view.centralWidget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QtCore.QEvent.Type.LayoutRequest:
            fit_item(self._view)
        return False


def fit_to_view(view: pg.GraphicsView) -> pg.GraphicsView:
    """``view``, whose item :func:`fit_item` fits again at each change of its layout (a
    layout of plots, whose minimum changes when one of its plots' does)."""
    _FitToView(view)
    return view


def new_plot_widget(name: str, *, counts: bool = True, y_counts: bool | None = None,
                    min_height: int = 120) -> pg.PlotWidget:
    """A :func:`plain` plot widget named ``name``, its axes readable (of counts: ``counts``)."""
    y_counts = counts if y_counts is None else y_counts
    # no context menu on the view box: the plots show none, and building it costs ~4 ms
    widget = pg.PlotWidget(background=style.current().background, axisItems=axes(counts, y_counts),
                           viewBox=pg.ViewBox(enableMenu=False))
    widget.setObjectName(name)
    widget.setMinimumHeight(min_height)
    plain(widget.getPlotItem())
    return widget


def plain(plot: pg.PlotItem) -> None:
    """No context menu, no auto-range button, room for the bottom axis's last tick label."""
    plot.setMenuEnabled(False)
    plot.hideButtons()
    plot.setContentsMargins(0, 0, 14, 0)


def fast(plot: pg.PlotItem) -> pg.PlotItem:
    """Downsample (peak: keeps every jump visible) and clip to the view, on the PlotItem:
    ``addItem`` overwrites an item's own ``setDownsampling`` with its mode."""
    plot.setDownsampling(auto=True, mode="peak")
    plot.setClipToView(True)
    return plot


def set_points(item: pg.PlotDataItem, x, y, symbol_size: float = 7.0) -> None:
    """``item.setData(x, y)``, one point drawn as a symbol (a zero-length line draws nothing)."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    single = x.size == 1
    if single != (item.opts["symbol"] is not None):
        pen = item.opts["pen"]
        color = (pg.mkPen(pen).color() if pen is not None
                 else QtGui.QColor(style.current().foreground))
        item.setSymbol("o" if single else None)
        item.setSymbolSize(symbol_size)
        item.setSymbolBrush(pg.mkBrush(color))
        item.setSymbolPen(pg.mkPen(color))
    item.setData(x, y)


class Titles:
    """Set a plot's title only when it changed (a new title re-lays out the plot)."""

    def __init__(self):
        self._shown: dict[int, tuple] = {}

    def set(self, plot: pg.PlotItem, text: str, **css) -> None:
        key = (text, tuple(sorted(css.items())))
        if self._shown.get(id(plot)) != key:
            self._shown[id(plot)] = key
            plot.setTitle(text, **css)
            view = plot.getViewWidget()
            if isinstance(view, pg.GraphicsView):
                fit_item(view)  # a shorter title may let the plot shrink into its view
            plot.update()  # repaint the whole item: a shorter title leaves no fragment

    def clear(self) -> None:
        self._shown.clear()


class Note(pg.TextItem):
    """A text fixed in a ViewBox's pixel frame (unaffected by pan and zoom), at "corner"
    (top left, where a rising curve leaves room), "center" or "bottom" (right)."""

    def __init__(self, viewbox: pg.ViewBox):
        super().__init__("", color=style.current().foreground)
        self.restyle()
        self._vb = viewbox
        self._where = "center"
        self.setParentItem(viewbox)
        self.setZValue(100)
        self.setVisible(False)
        viewbox.sigResized.connect(self._place)

    def restyle(self) -> None:
        """Text and a translucent box in the active palette's colours."""
        self.setColor(style.current().foreground)
        self.fill = pg.mkBrush(rgba(style.current().background, 220))
        self.update()

    def _place(self, *_):
        rect = self._vb.boundingRect()
        # the view box clips its children: a note wider than it wraps between its words
        self.textItem.setTextWidth(-1)
        room = rect.width() - 12
        if room > 0 and self.textItem.boundingRect().width() > room:
            self.textItem.setTextWidth(room)
        self.updateTextPos()
        anchor, pos = {"corner": ((0.0, 0.0), rect.topLeft() + QtCore.QPointF(6, 4)),
                       "bottom": ((1.0, 1.0), rect.bottomRight() - QtCore.QPointF(6, 2)),
                       }.get(self._where, ((0.5, 0.5), rect.center()))
        self.setAnchor(anchor)
        self.setPos(pos)

    def show_text(self, text: str, where: str = "center") -> None:
        """Show ``text`` at ``where`` (hide the note when ``text`` is empty)."""
        if text != self.toPlainText():
            self.setText(text)
            self._where = None  # a new text: placed (and wrapped) again
        if where != self._where or not self.isVisible():
            self._where = where
            self._place()
        self.setVisible(bool(text))


def axis_css(scale: style.Scale) -> dict:
    """The CSS of an axis label at ``scale``."""
    return {"color": style.current().foreground, "font-size": f"{scale.font_pt * 0.9:g}pt"}


def fitting_title(plot: pg.PlotItem, scale: style.Scale, *texts: str) -> str:
    """The first of ``texts`` whose title fits across ``plot`` at ``scale`` (else the last)."""
    metrics = QtGui.QFontMetricsF(style.font(scale.font_pt))
    # the widget's width, not the plot's: a title wider than the widget widens the plot
    scene = plot.scene()
    views = scene.views() if scene is not None else []
    width = views[0].viewport().width() if views else plot.width()
    left = plot.getAxis("left")
    # the title sits over the view box's column, right of the left axis
    room = width - (left.width() if left.isVisible() else 0) - 16
    return next((text for text in texts[:-1] if metrics.horizontalAdvance(text) <= room), texts[-1])


def title_css(scale: style.Scale) -> dict:
    """The CSS of a plot title at ``scale``."""
    return {"color": style.current().foreground, "size": f"{scale.font_pt:g}pt"}


def style_axes(plot: pg.PlotItem, scale: style.Scale) -> None:
    """Fonts and pens of ``plot``'s left and bottom axes at ``scale``."""
    tick = style.font(scale.font_pt * 0.85)
    css = axis_css(scale)
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.setStyle(tickFont=tick)
        axis.setPen(style.current().foreground)
        axis.setTextPen(style.current().foreground)
        axis.setLabel(axis.labelText, axis.labelUnits, **css)


def note_font(scale: style.Scale) -> QtGui.QFont:
    """The font of the notes and messages at ``scale``."""
    return style.font(scale.font_pt * 0.9)


def restyle_part(widget, note: Note, scale: style.Scale, *plots: pg.PlotItem) -> QtGui.QFont:
    """A live plot's axes, ``note`` and background at ``scale`` and palette; the notes' font."""
    for plot in plots:
        style_axes(plot, scale)
    font = note_font(scale)
    note.setFont(font)
    note.restyle()
    widget.setBackground(style.current().background)
    return font
