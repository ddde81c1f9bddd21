"""The weight-space view: every case a line through weight space, the feasible region, the walk.

One plot with a 1:1 aspect: without a bias the plane ``(w_1, w_2)``; with a
bias the gnomonic chart centred on ``w*``, or, under the loss landscape, the
slice at the current ``b``.  One file: the three charts share the plot, its
range and the hover (``view_state.hovered``: the canvas rings the case's point).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from ....core.commands import Seek
from ....core.text import fmt, fmt_count
from ....core.theory.weight_space import feasible_slice
from ... import style
from ...widgets import Guard
from ...widgets.canvas.legend import rgba
from ...wording import problem_text
from ..base import REFRESH_MS, View
from ..case_hover import CaseHover
from ..plots.items import Titles, new_plot_widget, note_font, style_axes, title_css
from .geometry import Picture, picture, region_and_star, segments, ticks, view_box
from .hand import SWITCH as HAND_SWITCH
from .hand import HandPoint
from .layers import GenerousLayer, LandscapeLayer
from .marks import StarMarks
from .scenes import Scenes
from .texts import NO_RUN_MESSAGE, caption_text, not_linear_text

__all__ = ["FINDING_TEXT", "MAX_LINES", "NO_RUN_MESSAGE", "WeightSpaceView"]

#: The most case lines drawn: past it, the region's, the last case's and a sample.
MAX_LINES = 1500
#: Cases up to which the generously feasible region is cut on the UI thread (a few ms).
GENEROUS_AT_ONCE = 5_000
#: Cases up to which the feasible region and the slice at b are found at once on the UI
#: thread (about 20 ms with a bias); more in a worker (:mod:`.scenes`).
SCENE_AT_ONCE = 2_000
#: Shown while a worker finds the feasible region of a new data set.
FINDING_TEXT = "Finding the feasible region of {n} cases…"
#: A good-side tick's length and the reach of the pointer to a line (pixels, at NORMAL).
TICK_PX = 7.0
REACH_PX = 5.0

#: The opacity (of 255) of the older part of a long walk, and the least width of its pen
#: (px; see :meth:`WeightSpaceView.restyle`).
OLD_ALPHA = 60
OLD_WIDTH = 1.2


def _slice_at(X, signs, b: float, bias_scale: float):
    """The slice of weight space at ``b`` (a worker's function: arguments by position)."""
    return feasible_slice(X, signs, b=b, bias_scale=bias_scale)


class WeightSpaceView(View):
    """Each case as a line in weight space, the feasible region and the perceptron's walk.

    ``path`` is the walk's recent part (every state marked), ``old_path`` its
    older part, faint, under the case lines (:attr:`.geometry.Picture.recent_from`).
    """

    name = "weights"
    title = "Weight space"
    refresh_ms = REFRESH_MS
    redraw_hidden = False  # a step at 10⁵ points costs milliseconds: not for a hidden tab
    object_name = "weightSpaceView"

    def __init__(self, workspace, parent=None):
        super().__init__(workspace, parent)
        self._titles = Titles()
        self._pic: Picture | None = None
        self._region = None
        self._w_star = None
        self._scenes = Scenes(self.refresh_shown, lambda: shiboken6.isValid(self.region_item))
        self._drawn = np.empty(0, np.intp)  # the cases whose lines are drawn
        self._user_range = False  # the user zoomed or panned: keep it until the scene changes
        self._setting_range = Guard()
        self._scene_key: tuple = ()

        column = self._paged("weightSpaceMessage")

        self.plot = new_plot_widget("plotWeightSpace", counts=False, min_height=160)
        item = self.plot.getPlotItem()
        item.showGrid(x=True, y=True, alpha=0.12)
        for side in ("left", "bottom"):  # "×0.001" beside a formula reads as part of it
            item.getAxis(side).enableAutoSIPrefix(False)
        vb = item.getViewBox()
        vb.setAspectLocked(True, 1.0)
        vb.disableAutoRange()
        self.region_item = QtWidgets.QGraphicsPolygonItem()
        self.region_item.setZValue(-5)
        item.addItem(self.region_item, ignoreBounds=True)
        self._generous = GenerousLayer(item, GENEROUS_AT_ONCE, self._generous_late)
        self.generous_item = self._generous.item
        self.landscape = LandscapeLayer(item)
        self._margins: tuple = ()  # (key, the margins' coefficients) of the landscape
        self.case_lines = {k: pg.PlotCurveItem(connect="pairs") for k in ("neg", "pos")}
        self.case_ticks = {k: pg.PlotCurveItem(connect="pairs") for k in ("neg", "pos")}
        for curve in (*self.case_lines.values(), *self.case_ticks.values()):
            curve.setZValue(1)
            item.addItem(curve, ignoreBounds=True)
        self.last_line = pg.PlotCurveItem(connect="pairs")
        self.hover_line = pg.PlotCurveItem(connect="pairs")
        self._marks = StarMarks(item)
        self.star, self.star_label = self._marks.star, self._marks.label
        self.far, self.far_label = self._marks.far, self._marks.far_label
        self.path = pg.PlotDataItem(symbol="o")
        self.old_path = pg.PlotCurveItem()
        self.old_path.setZValue(0.5)  # under the case lines, over the region and landscape
        item.addItem(self.old_path, ignoreBounds=True)
        self.now = pg.ScatterPlotItem(symbol="o")
        for z, curve in enumerate((self.last_line, self.star, self.star_label, self.path,
                                   self.hover_line, self.now)):
            curve.setZValue(5 + z)
            item.addItem(curve, ignoreBounds=True)
        self.hand = HandPoint(item, workspace, self.commandIssued.emit)  # Move w by hand
        self.plot.setToolTip(
            "Weight space: a point is a weight vector. Case i is the line yᵢxᵢ·w = 0 through\n"
            "it, its tick on the side where the case is classified right; the shaded region\n"
            "classifies every case. The path is the perceptron's w after each update.\n"
            "Point at a case's line to find the case on the canvas; click a state of the\n"
            "path to go to its step.")
        self.caption = QtWidgets.QLabel()
        self.caption.setObjectName("weightSpaceCaption")
        self.caption.setWordWrap(True)
        self.caption.setMargin(4)
        # the optional layers: a small menu, so the views area stays as narrow as before
        self.layers_button = QtWidgets.QToolButton(text="Layers")
        self.layers_button.setObjectName("weightSpaceLayers")
        self.layers_button.setPopupMode(QtWidgets.QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QtWidgets.QMenu(self.layers_button)
        self.landscape_box = menu.addAction("Loss landscape")
        self.landscape_box.setObjectName("weightSpaceLandscape")
        self.landscape_box.setToolTip(
            "Shade the empirical risk (the mean loss over the cases) under the learner's loss\n"
            "over (w₁, w₂); with a bias, over the slice of weight space at the current b.")
        self.generous_box = menu.addAction("Generously feasible region")
        self.generous_box.setObjectName("weightSpaceGenerous")
        self.generous_box.setToolTip(
            "The weights that classify every case with a margin of at least the length of\n"
            "its input vector (yᵢxᵢ·w ≥ ‖xᵢ‖²), Hinton's argument for convergence. A set of\n"
            "vectors, not of directions: drawn in (w₁, w₂), or in the slice at b.")
        menu.setToolTipsVisible(True)
        for action in (self.landscape_box, self.generous_box):
            action.setCheckable(True)
            action.toggled.connect(lambda _on: self.refresh())
        self.layers_button.setMenu(menu)
        self.layers_button.setToolTip("Optional layers: the loss landscape, the generously "
                                      "feasible region")
        column.addWidget(self.layers_button, 0, QtCore.Qt.AlignmentFlag.AlignLeft)
        column.addWidget(self.plot, 1)
        column.addWidget(self.caption)

        # a range fitted by refresh is drawn by refresh, once
        vb.sigRangeChanged.connect(lambda *_: None if self._setting_range
                                   else self._draw_geometry())
        vb.sigRangeChangedManually.connect(self._range_by_hand)
        self.plot.scene().sigMouseClicked.connect(self._clicked)
        self.case_hover = CaseHover(self.plot, self.case_at, workspace.view_state)
        workspace.view_state.events.hovered_changed.connect(self._draw_hover)
        workspace.view_state.events.layers_changed.connect(self._layers_changed)
        self.restyle()

    def _layers_changed(self, changed: dict) -> None:
        if HAND_SWITCH in changed:
            self.workspace_changed()

    # -- what is shown ---------------------------------------------------------------------
    @property
    def picture(self) -> Picture | None:
        """The numbers drawn (None while a message is shown)."""
        return self._pic

    @property
    def finding_scene(self) -> bool:
        """Whether a worker is finding the feasible region or the slice at b."""
        return self._scenes.finding

    # -- style -----------------------------------------------------------------------------
    def restyle(self) -> None:
        """Fonts and pens of :attr:`scale` in the current palette."""
        scale, palette = self._scale, style.current()
        self._message.setFont(note_font(scale))
        self.caption.setFont(note_font(scale))
        self.plot.setBackground(palette.background)
        style_axes(self.plot.getPlotItem(), scale)
        self._restyle_lines()
        self.region_item.setBrush(QtGui.QBrush(rgba(palette.weight_color, 60)))
        self._generous.restyle(scale)
        self.region_item.setPen(pg.mkPen(palette.weight_color, width=0))
        self.hover_line.setPen(pg.mkPen(palette.foreground, width=scale.line * 1.5,
                                        style=QtCore.Qt.PenStyle.DashLine))
        self._marks.restyle(scale)
        self.path.setPen(pg.mkPen(palette.foreground, width=max(1.0, scale.line * 0.6)))
        self.path.setSymbolSize(scale.marker * 0.45)
        self.path.setSymbolBrush(pg.mkBrush(palette.foreground))
        self.path.setSymbolPen(None)
        # wider than 1 px: Qt strokes the path as one outline, so where the old walk
        # crosses itself the faint colour does not pile up into a solid blot
        self.old_path.setPen(pg.mkPen(rgba(palette.foreground, OLD_ALPHA),
                                      width=max(OLD_WIDTH, scale.line * 0.4)))
        self.now.setSize(scale.marker * 1.3)
        self.now.setPen(pg.mkPen(palette.foreground, width=scale.line))
        self.now.setBrush(pg.mkBrush(palette.highlight_color))
        self.hand.restyle(scale)
        self._titles.clear()
        self.refresh_shown()

    def _restyle_lines(self) -> None:
        """The case lines' pens: thin, in their class's colour, fainter as they grow many."""
        scale, palette = self._scale, style.current()
        thin = max(1.0, scale.line * 0.5)
        alpha = int(min(150, max(30, 150 * (40 / max(self._drawn.size, 1)) ** 0.5)))
        for key, color in (("pos", palette.pos_color), ("neg", palette.neg_color)):
            c = rgba(color, alpha)
            self.case_lines[key].setPen(pg.mkPen(c, width=thin))
            self.case_ticks[key].setPen(pg.mkPen(c, width=thin))

    # -- drawing ----------------------------------------------------------------------------
    def hideEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().hideEvent(event)
        self.landscape.hide()  # no worker for a picture nobody sees
        self._generous.forget()
        self._stale = True

    def refresh(self) -> None:
        self.stop_pending_refresh()
        self._stale = False
        ws = self.workspace
        if not ws.capabilities.steps:
            self.set_message(ws.spec.no_steps_text)
            return
        if not ws.capabilities.linear:
            self.set_message(not_linear_text(ws))
            return
        if not ws.running or ws.training_margins() is None:
            self.set_message(problem_text(ws) or NO_RUN_MESSAGE)
            return
        learner = ws.learner
        X = learner.training_X
        if X.shape[1] != 2:
            self.set_message("Weight space is drawn for data in the plane (two features).")
            return
        region = self._current_region(ws, learner)
        if region is None:  # a worker is finding it
            self.set_message(FINDING_TEXT.format(n=fmt_count(X.shape[0])))
            return
        chart = bool(learner.fit_intercept) and not self.landscape_box.isChecked()
        if learner.fit_intercept and not chart:
            region = self._current_slice(learner)
            if region is None:  # the slice at the new b: the slice of these data drawn stays
                if not (self._pic is not None and self._pic.X is X and self._pic.slice):
                    self.set_message(FINDING_TEXT.format(n=fmt_count(X.shape[0])))
                return
        self._stack.setCurrentIndex(0)
        self.generous_box.setEnabled(not chart)
        self._pic = pic = picture(learner, region, self._w_star, loss=ws.capabilities.loss)
        key = (id(self._region), pic.chart, pic.slice)  # a new slice at each b keeps the zoom
        if key != self._scene_key:
            self._scene_key = key
            self._user_range = False
        if not self._user_range and not self.hand.holds_view(pic, *self.plot.getViewBox()
                                                              .viewRange()):
            self._fit_range(pic)  # not under the hand's drag, nor just after it
        self._draw_geometry()
        self._draw_walk()
        self._draw_hover()
        self.hand.update(pic)
        self._set_texts(ws, pic)

    def _current_region(self, ws, learner):
        """The feasible region of the run's data, or None while a worker finds it."""
        X, s = learner.training_X, learner.training_signs
        fit, c = bool(learner.fit_intercept), float(learner.bias_scale)
        key = (X, s, fit, c)
        known = None
        nov = ws.novikoff if fit and ws.capabilities.novikoff else None
        if nov is not None and nov.separable and nov.w_star is not None and nov.augmented:
            known = np.asarray(nov.w_star, np.float64)
        got = self._scene("region", key, region_and_star, (X, s, fit, c, known))
        if got is None:
            return None
        self._region, self._w_star = got[1]
        return self._region

    def _current_slice(self, learner):
        """The slice at the current bias, or None while a worker finds it."""
        X, s = learner.training_X, learner.training_signs
        c, b = float(learner.bias_scale), float(learner.intercept_[0])
        key = (X, s, c, b)
        got = self._scene("slice", key, _slice_at, (X, s, b, c))
        return None if got is None else got[1]

    def _scene(self, kind: str, key: tuple, function, args: tuple) -> tuple | None:
        """``(key, function(*args))``: at once for few cases or off screen, else (None) later."""
        offscreen = self.testAttribute(QtCore.Qt.WidgetAttribute.WA_DontShowOnScreen)
        at_once = key[0].shape[0] <= SCENE_AT_ONCE or offscreen
        return self._scenes.get(kind, key, function, args, at_once=at_once)

    def set_message(self, text: str) -> None:
        self.landscape.hide()
        self.hand.hide()
        self._marks.hide_far()
        super().set_message(text)
        self._pic = None
        self._drawn = np.empty(0, np.intp)

    def _fit_range(self, pic: Picture) -> None:
        x_range, y_range = view_box(pic)
        with self._setting_range:
            self.plot.getViewBox().setRange(xRange=x_range, yRange=y_range, padding=0)

    def show_box(self, x_range, y_range) -> None:
        """Show the box ``x_range × y_range``, kept as a zoom by hand until the scene changes."""
        self._user_range = True
        self.plot.getViewBox().setRange(xRange=x_range, yRange=y_range, padding=0)
        self.refresh()

    def _range_by_hand(self, *_):
        self._user_range = True

    @property
    def zoomed_by_hand(self) -> bool:
        """Whether the box shown was chosen by hand (a zoom, a pan, :meth:`show_box`)."""
        return self._user_range

    def hide_controls(self) -> None:
        """Hide the Layers button (a slide shows the picture, not the menu)."""
        self.layers_button.hide()

    def copy_state_from(self, other: View) -> None:
        """Take ``other``'s layers and its box if chosen by hand; the landscape at once."""
        self.landscape.synchronous = True
        self.landscape_box.setChecked(other.landscape_box.isChecked())
        self.generous_box.setChecked(other.generous_box.isChecked())
        if other.zoomed_by_hand:
            self.show_box(*other.plot.getViewBox().viewRange())
        else:
            self.refresh()

    def _px(self) -> float:
        dx, dy = self.plot.getViewBox().viewPixelSize()
        return max(dx, dy) if dx > 0 and dy > 0 else 0.0

    def _choose_lines(self, pic: Picture) -> np.ndarray:
        n = pic.region.lines.shape[0]
        if n <= MAX_LINES:
            return np.arange(n)
        extra = [pic.region.active]
        if pic.trajectory.last_case is not None:
            extra.append(np.array([pic.trajectory.last_case]))
        spread = np.linspace(0, n - 1, MAX_LINES - sum(e.size for e in extra)).round()
        return np.unique(np.concatenate([*extra, spread.astype(np.intp)]))

    def _draw_geometry(self) -> None:
        pic = self._pic
        if pic is None or self._stack.currentIndex() != 0:
            return
        vb = self.plot.getViewBox()
        (x0, x1), (y0, y1) = vb.viewRange()
        self._draw_far()
        region = pic.region
        poly = region.clipped((x0, x1), (y0, y1))
        self.region_item.setPolygon(QtGui.QPolygonF([QtCore.QPointF(*p) for p in poly.tolist()]))
        idx = self._choose_lines(pic)
        if idx.size != self._drawn.size:
            self._drawn = idx
            self._restyle_lines()
        self._drawn = idx
        L = region.lines[idx]
        segs = segments(L, (x0, x1), (y0, y1))
        tick = ticks(L, segs, TICK_PX * (self._scale.line / style.NORMAL.line) * self._px())
        signs = pic.signs[idx]
        for key, mask in (("pos", signs > 0), ("neg", signs <= 0)):
            for curve, parts in ((self.case_lines[key], segs), (self.case_ticks[key], tick)):
                P = parts[mask].reshape(-1, 2)
                P = P[np.isfinite(P).all(axis=1)]
                curve.setData(P[:, 0], P[:, 1])
        self._draw_line(self.last_line, pic.trajectory.last_case)
        self._draw_line(self.hover_line, self.workspace.view_state.hovered)
        self._marks.draw_star(pic, (x0, x1), (y0, y1), self._px(), self._scale)
        if pic.chart or not self.generous_box.isChecked():
            self._generous.hide()
        else:
            self._generous.request(pic, (x0, x1), (y0, y1))
        if self.landscape_box.isChecked():
            self.landscape.request(self._margins_of(pic), pic.loss, (x0, x1), (y0, y1))
        else:
            self.landscape.hide()

    def _margins_of(self, pic: Picture) -> np.ndarray:
        """``(A, B, C) = y (x, b)`` of each case's margin ``A w_1 + B w_2 + C`` (no bias: b = 0)."""
        key = (pic.X, pic.signs, pic.b if pic.slice else 0.0)
        if not (self._margins and self._margins[0][0] is key[0]
                and self._margins[0][1] is key[1] and self._margins[0][2] == key[2]):
            s = np.asarray(pic.signs, np.float64)
            self._margins = (key, np.column_stack([pic.X * s[:, None], s * key[2]]))
        return self._margins[1]

    def _generous_late(self) -> None:
        if self._pic is not None:
            self._set_texts(self.workspace, self._pic)

    @property
    def generous(self) -> tuple:
        """``(lines, box, polygon)``: the generously feasible region last drawn."""
        return self._generous.cut

    @property
    def cutting_generous(self) -> bool:
        """Whether a worker is cutting the generously feasible region."""
        return self._generous.cutting

    def _draw_line(self, curve, i: int | None) -> None:
        pic = self._pic
        if pic is None or i is None or not 0 <= i < pic.region.lines.shape[0]:
            curve.setData([], [])
            curve.setVisible(False)
            return
        (x0, x1), (y0, y1) = self.plot.getViewBox().viewRange()
        seg = segments(pic.region.lines[i], (x0, x1), (y0, y1))[0]
        if curve is self.last_line:
            s = pic.signs[i]
            color = style.current().pos_color if s > 0 else style.current().neg_color
            curve.setPen(pg.mkPen(color, width=self._scale.line * 1.75))
        ok = np.isfinite(seg).all()
        curve.setData(seg[:, 0] if ok else [], seg[:, 1] if ok else [])
        curve.setVisible(bool(ok))

    def _draw_walk(self) -> None:
        pic = self._pic
        P = pic.points
        j = pic.recent_from
        old, recent = P[: j + 1] if j else P[:0], P[j:]
        for curve, part in ((self.old_path, old), (self.path, recent)):
            if np.isfinite(part).any():
                curve.setData(part[:, 0], part[:, 1], connect="finite")
            else:  # w_0 = 0 alone: no direction, not on the chart
                curve.setData([], [])
        last, ok = P[-1], np.isfinite(P[-1]).all()
        self.now.setData(last[:1] if ok else [], last[1:] if ok else [])
        self._draw_far()

    def _draw_far(self) -> None:
        self._marks.draw_far(self._pic, *self.plot.getViewBox().viewRange())

    def _draw_hover(self) -> None:
        if self._pic is not None:
            self._draw_line(self.hover_line, self.workspace.view_state.hovered)

    def _set_texts(self, ws, pic: Picture) -> None:
        region = pic.region
        item = self.plot.getPlotItem()
        centre = "ū" if region.empty else "w*"
        b = pic.b
        bottom, left = "w₁", "w₂"
        if pic.slice:
            title = f"Slice at b = {fmt(b)}, c = {fmt(region.bias_scale)}"
        elif pic.chart:
            title = f"Chart around {centre}, c = {fmt(region.bias_scale)}"
            # p₂ alone on the left: upright, the formula would cover the ticks
            bottom, left = f"p₁ = w·e₁ / w·{centre}", "p₂"
        else:
            title = "Weight space (w₁, w₂)"
        item.setLabel("bottom", bottom)
        item.setLabel("left", left)
        self.star_label.setText(centre)
        style_axes(item, self._scale)
        self._titles.set(item, title, **title_css(self._scale))
        loss = self.landscape.loss if self.landscape_box.isChecked() else None
        generous = None
        if self.generous_box.isChecked() and self.generous_box.isEnabled():
            cut = self._generous.cut
            generous = bool(cut) and cut[2].shape[0] > 0
        self.caption.setText(caption_text(pic, b=b, novikoff=ws.capabilities.novikoff,
                                          landscape_loss=loss, generous=generous))

    # -- hover ------------------------------------------------------------------------------
    def _pointed(self, scene_pos) -> tuple | None:
        """``(x, y, px)`` of ``scene_pos`` on the picture (``px`` a pixel's size), or None."""
        vb = self.plot.getViewBox()
        px = self._px()
        if self._pic is None or not px > 0 or not vb.sceneBoundingRect().contains(scene_pos):
            return None
        p = vb.mapSceneToView(scene_pos)
        return p.x(), p.y(), px

    def case_at(self, scene_pos) -> int | None:
        """The case whose drawn line passes nearest ``scene_pos``, within reach (or None)."""
        at = self._pointed(scene_pos)
        if at is None or self._drawn.size == 0:
            return None
        x, y, px = at
        L = self._pic.region.lines[self._drawn]
        dist = np.abs(L[:, 0] * x + L[:, 1] * y + L[:, 2]) / np.hypot(L[:, 0], L[:, 1])
        dist[~np.isfinite(dist)] = np.inf
        j = int(np.argmin(dist))
        reach = REACH_PX * self._scale.line / style.NORMAL.line
        return int(self._drawn[j]) if dist[j] <= reach * px else None

    def state_at(self, scene_pos) -> int | None:
        """The index of the walk's state drawn under ``scene_pos`` (within a marker), or None."""
        at = self._pointed(scene_pos)
        if at is None or self._pic.points.size == 0:
            return None
        x, y, px = at
        points = self._pic.points
        d = np.hypot(points[:, 0] - x, points[:, 1] - y) / px
        d[~np.isfinite(d)] = np.inf
        j = int(np.argmin(d))
        return j if d[j] <= self._scale.marker * 0.45 / 2 + 4 else None

    def _clicked(self, event) -> None:
        """A click on a state of the walk goes to its step, as the timeline does."""
        if event.button() != QtCore.Qt.MouseButton.LeftButton or event.double():
            return
        j = self.state_at(event.scenePos())
        if j is not None:
            self.commandIssued.emit(Seek(int(self._pic.trajectory.step[j])))
