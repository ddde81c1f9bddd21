"""What the layout tests measure in a window: clipped text, plots outside their panes,
points under the legend or past the canvas's edge, toolbars that overflow, the canvas's
share of the window."""

from __future__ import annotations

import re

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

#: The longest readable tick.
MAX_TICK = 8
_COUNT_AXIS = re.compile(r"updates|mistakes|step|epoch", re.IGNORECASE)


def _plain(text: str, rich: bool) -> str:
    if rich or ("<" in text and ">" in text):
        doc = QtGui.QTextDocument()
        doc.setHtml(text)
        return doc.toPlainText()
    return text


def is_shown(widget: QtWidgets.QWidget, win) -> bool:
    if not widget.isVisibleTo(win) or not widget.isVisible() or widget.width() <= 0:
        return False
    # inside a scroll area the part scrolled away is not clipped
    return True


def clipped(win) -> list[str]:
    """Descriptions of every visible text of ``win`` that does not fit its widget."""
    bad = []
    for label in win.findChildren(QtWidgets.QLabel):
        if not is_shown(label, win) or not label.text():
            continue
        rich = label.textFormat() == QtCore.Qt.TextFormat.RichText
        text = _plain(label.text(), rich)
        if not text.strip():
            continue
        rect = label.contentsRect()
        if label.wordWrap():
            need = label.heightForWidth(label.width())
            if need > label.height() + 1:
                bad.append(f"{label.objectName() or text[:30]!r}: wrapped text needs "
                           f"{need} px, has {label.height()}")
        else:
            fm = label.fontMetrics()
            wide = max(fm.horizontalAdvance(line) for line in text.splitlines() or [""])
            if wide > rect.width() + 1:
                bad.append(f"{label.objectName() or text[:30]!r}: {wide} px wide text in "
                           f"{rect.width()} px")
    for button in win.findChildren(QtWidgets.QAbstractButton):
        if not is_shown(button, win) or not button.text():
            continue
        if isinstance(button, QtWidgets.QToolButton) and button.toolButtonStyle() == \
                QtCore.Qt.ToolButtonStyle.ToolButtonIconOnly:
            continue
        hint = button.sizeHint().width()
        if isinstance(button, QtWidgets.QToolButton) and button.arrowType() != \
                QtCore.Qt.ArrowType.NoArrow:
            hint = button.fontMetrics().horizontalAdvance(button.text()) + 16
        if hint > button.width() + 1:
            bad.append(f"button {button.text()!r}: needs {hint} px, has {button.width()}")
    for combo in win.findChildren(QtWidgets.QComboBox):
        if not is_shown(combo, win) or not combo.currentText():
            continue
        opt = QtWidgets.QStyleOptionComboBox()
        combo.initStyleOption(opt)
        field = combo.style().subControlRect(QtWidgets.QStyle.ComplexControl.CC_ComboBox, opt,
                                             QtWidgets.QStyle.SubControl.SC_ComboBoxEditField,
                                             combo)
        wide = combo.fontMetrics().horizontalAdvance(combo.currentText())
        if wide > field.width() + 2:
            bad.append(f"combo {combo.currentText()!r}: {wide} px in {field.width()}")
    for bar in win.findChildren(QtWidgets.QTabBar):
        if not is_shown(bar, win):
            continue
        for i in range(bar.count()):
            wide = bar.fontMetrics().horizontalAdvance(bar.tabText(i).replace("&", ""))
            if wide > bar.tabRect(i).width():
                bad.append(f"tab {bar.tabText(i)!r}: {wide} px in {bar.tabRect(i).width()}")
    for bar in win.findChildren(QtWidgets.QProgressBar):
        if not is_shown(bar, win) or not bar.isTextVisible() or not bar.text():
            continue
        opt = QtWidgets.QStyleOptionProgressBar()
        bar.initStyleOption(opt)
        room = bar.style().subElementRect(QtWidgets.QStyle.SubElement.SE_ProgressBarLabel,
                                          opt, bar).width()
        wide = bar.fontMetrics().horizontalAdvance(bar.text())
        if wide > room:
            bad.append(f"progress {bar.text()!r}: {wide} px in {room}")
    for dock in win.findChildren(QtWidgets.QDockWidget):
        if is_shown(dock, win):
            wide = dock.fontMetrics().horizontalAdvance(dock.windowTitle()) + 40
            if wide > dock.width():
                bad.append(f"dock {dock.windowTitle()!r}: {wide} px in {dock.width()}")
    return bad


def _plots(win):
    """(widget, plot item, name) of every shown pyqtgraph plot: a PlotWidget's, or each of a
    GraphicsLayoutWidget's (the proof's two)."""
    for widget in win.findChildren(pg.GraphicsView):
        if not is_shown(widget, win):
            continue
        name = widget.objectName() or type(widget).__name__
        if isinstance(widget, pg.PlotWidget):
            yield widget, widget.getPlotItem(), name
        elif isinstance(widget, pg.GraphicsLayoutWidget):
            for i, item in enumerate(widget.ci.items):
                if isinstance(item, pg.PlotItem):
                    yield widget, item, f"{name}[{i}]"


def plot_problems(win) -> list[str]:
    """View boxes, axes or titles outside their widget, long ticks, negative counts."""
    bad = []
    for widget, plot, name in _plots(win):
        area = QtCore.QRectF(widget.viewport().rect()).adjusted(-1, -1, 1, 1)
        items = [("view box", plot.getViewBox())]
        items += [(f"axis {k}", plot.getAxis(k)) for k in ("left", "bottom")
                  if plot.getAxis(k).isVisible()]
        title = plot.titleLabel
        if title.isVisible() and title.text:  # its text across: whole, never past the edge
            rect = widget.mapFromScene(title.item.sceneBoundingRect()).boundingRect()
            if rect.left() < area.left() or rect.right() > area.right():
                bad.append(f"{name}: title {title.text!r} {rect} across {area.toRect()}")
        for what, item in items:
            rect = widget.mapFromScene(item.sceneBoundingRect()).boundingRect()
            if not area.contains(QtCore.QRectF(rect)):
                bad.append(f"{name}: {what} {rect} outside {area.toRect()}")
        for key in ("left", "bottom"):
            axis = plot.getAxis(key)
            if not axis.isVisible():
                continue
            lo, hi = axis.range
            length = axis.geometry().height() if key == "left" else axis.geometry().width()
            if length <= 0 or not (hi > lo):
                continue
            label = axis.labelText or ""
            for spacing, values in axis.tickValues(lo, hi, length):
                shown = [v for v in values if lo <= v <= hi]
                strings = axis.tickStrings(shown, axis.scale, spacing)
                for v, s in zip(shown, strings, strict=False):
                    if len(s.replace("−", "-")) > MAX_TICK:
                        bad.append(f"{name} {key}: tick {s!r}")
                    if _COUNT_AXIS.search(label) and v < -1e-9 and not axis.logMode:
                        bad.append(f"{name} {key} ({label}): negative count tick {s!r}")
    return bad


def points_px(win):
    """The data points (a sample of 20,000 at most) in scene pixels, and the marker radius."""
    from perceptron_gui.ui import style

    canvas = win.canvas
    vb = canvas.getViewBox()
    X = win.workspace.dataset.X
    X = X[::max(1, -(-len(X) // 20_000))]
    (x0, x1), (y0, y1) = vb.viewRange()
    area = vb.sceneBoundingRect()
    px = area.left() + (X[:, 0] - x0) * area.width() / (x1 - x0)
    py = area.top() + (y1 - X[:, 1]) * area.height() / (y1 - y0)
    scale = style.PRESENTER if win.presenting else style.NORMAL
    return px, py, area, scale.marker / 2


def legend_covers(win) -> list[str]:
    """Data points under the canvas's legend (a marker's radius counts)."""
    legend = win.canvas.legend
    if not legend.isVisible() or not win.workspace.dataset.n:
        return []
    px, py, _area, r = points_px(win)
    rect = legend.sceneBoundingRect()
    under = ((px >= rect.left() - r) & (px <= rect.right() + r)
             & (py >= rect.top() - r) & (py <= rect.bottom() + r))
    n = int(under.sum())
    return [f"{n} points under the legend at {rect}"] if n else []


def points_outside(win) -> list[str]:
    """Data points whose centre lies past the edge of the canvas's data area (fitted views)."""
    if not win.workspace.dataset.n:
        return []
    px, py, area, _r = points_px(win)
    out = ((px < area.left()) | (px > area.right()) | (py < area.top()) | (py > area.bottom()))
    n = int(out.sum())
    return [f"{n} points past the canvas's edge {area}"] if n else []


def canvas_share(win) -> float:
    """The canvas's data area as a share of the window's area."""
    rect = win.canvas.getViewBox().sceneBoundingRect()
    return rect.width() * rect.height() / (win.width() * win.height())


def toolbar_overflow(win) -> list[str]:
    """Actions of the toolbars that are hidden or outside their toolbar."""
    bad = []
    for tb in win.findChildren(QtWidgets.QToolBar):
        if not tb.isVisible():
            continue
        for act in tb.actions():
            if act.isSeparator() or not act.isVisible():
                continue
            widget = tb.widgetForAction(act)
            if widget is None or not widget.isVisible() or not tb.rect().contains(
                    widget.geometry()):
                bad.append(f"{tb.objectName()}: {act.iconText() or act.objectName()}")
    return bad
