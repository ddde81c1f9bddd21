"""The small pieces every live plot draws with: the plot widget, notes, titles, points."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from ... import style
from ...widgets.axes import ReadableAxis
from ..base import message_label

__all__ = ["Note", "Titles", "axes", "axis_css", "fast", "fit_item", "fit_to_view",
           "keep_last_tick", "menuless_view", "message_label", "new_plot_widget", "note_font",
           "plain", "restyle_part", "set_points", "span", "style_axes", "title_css"]

BOUND_COLOR = style.current().radius_color  # the ceiling (R/γ)² and the line kR² (both from R)
GAMMA_COLOR = style.current().maxmargin_color  # the line kγ (γ, a margin)
CURVE_COLOR = style.current().weight_color  # quantities of w_k
BAR_COLOR = "#7F8FA6"
NOW_COLOR = style.current().highlight_color


def span(text: str, color: str) -> str:
    """``text`` in bold and ``color`` (rich text for a plot title)."""
    return f"<span style='color: {color}; font-weight: bold'>{text}</span>"


def axes(x_counts: bool = True, y_counts: bool = True) -> dict:
    """Readable left and bottom axes for a new plot."""
    return {"left": ReadableAxis("left", counts=y_counts),
            "bottom": ReadableAxis("bottom", counts=x_counts)}


def menuless_view() -> pg.ViewBox:
    """A view box without its context menu (the plots show none; building it costs ~4 ms)."""
    return pg.ViewBox(enableMenu=False)


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
    """A plot widget named ``name`` with readable axes (of counts; ``y_counts``: the left
    one's, default ``counts``), no menu and no buttons."""
    y_counts = counts if y_counts is None else y_counts
    widget = pg.PlotWidget(background=style.current().background, axisItems=axes(counts, y_counts),
                           viewBox=menuless_view())
    widget.setObjectName(name)
    widget.setMinimumHeight(min_height)
    plain(widget.getPlotItem())
    return widget


def plain(plot: pg.PlotItem) -> None:
    """No context menu, no auto-range button, room for the last tick label."""
    plot.setMenuEnabled(False)
    plot.hideButtons()
    keep_last_tick(plot)


def keep_last_tick(plot: pg.PlotItem) -> None:
    """Leave room on the right for the bottom axis's last tick label (else it is cut)."""
    plot.setContentsMargins(0, 0, 14, 0)


def fast(plot: pg.PlotItem) -> pg.PlotItem:
    """Downsample (peak: keeps every jump visible) and clip to the view.

    Set on the PlotItem, which imposes its mode on every PlotDataItem it holds
    (an item's own ``setDownsampling`` is overwritten by ``addItem``).
    """
    plot.setDownsampling(auto=True, mode="peak")
    plot.setClipToView(True)
    return plot


def set_points(item: pg.PlotDataItem, x, y, symbol_size: float = 7.0) -> None:
    """``item.setData(x, y)``, drawn as a point (a symbol) when it has a single one.

    A single point makes a zero-length line, which draws nothing.
    """
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
        box = pg.mkColor(style.current().background)
        box.setAlpha(220)
        self.fill = pg.mkBrush(box)
        self.update()

    def _place(self, *_):
        rect = self._vb.boundingRect()
        # the view box clips its children: a note wider than it wraps between its words
        self.textItem.setTextWidth(-1)
        room = rect.width() - 12
        if room > 0 and self.textItem.boundingRect().width() > room:
            self.textItem.setTextWidth(room)
        self.updateTextPos()
        if self._where == "corner":
            self.setAnchor((0.0, 0.0))
            self.setPos(rect.left() + 6, rect.top() + 4)
        elif self._where == "bottom":
            self.setAnchor((1.0, 1.0))
            self.setPos(rect.right() - 6, rect.bottom() - 2)
        else:
            self.setAnchor((0.5, 0.5))
            self.setPos(rect.center())

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
    font = QtGui.QFont()
    font.setPointSizeF(scale.font_pt)
    metrics = QtGui.QFontMetricsF(font)
    # the widget's width, not the plot's: a title wider than the widget widens the plot
    scene = plot.scene()
    views = scene.views() if scene is not None else []
    width = views[0].viewport().width() if views else plot.width()
    left = plot.getAxis("left")
    # the title sits over the view box's column, right of the left axis
    room = width - (left.width() if left.isVisible() else 0) - 16
    for text in texts[:-1]:
        if metrics.horizontalAdvance(text) <= room:
            return text
    return texts[-1]


def title_css(scale: style.Scale) -> dict:
    """The CSS of a plot title at ``scale``."""
    return {"color": style.current().foreground, "size": f"{scale.font_pt:g}pt"}


def style_axes(plot: pg.PlotItem, scale: style.Scale) -> None:
    """Fonts and pens of ``plot``'s left and bottom axes at ``scale``."""
    tick = QtGui.QFont()
    tick.setPointSizeF(scale.font_pt * 0.85)
    css = axis_css(scale)
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.setStyle(tickFont=tick)
        axis.setPen(style.current().foreground)
        axis.setTextPen(style.current().foreground)
        axis.setLabel(axis.labelText, axis.labelUnits, **css)


def note_font(scale: style.Scale) -> QtGui.QFont:
    """The font of the notes and messages at ``scale``."""
    font = QtGui.QFont()
    font.setPointSizeF(scale.font_pt * 0.9)
    return font


def restyle_part(widget, note: Note, scale: style.Scale, *plots: pg.PlotItem) -> QtGui.QFont:
    """A live plot's ``plots`` axes, ``note`` and ``widget``'s background at ``scale`` in the
    current palette; returns the notes' font."""
    for plot in plots:
        style_axes(plot, scale)
    font = note_font(scale)
    note.setFont(font)
    note.restyle()
    widget.setBackground(style.current().background)
    return font
