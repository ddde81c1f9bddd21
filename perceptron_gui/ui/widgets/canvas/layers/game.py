"""The mistake-bound game on the canvas: the rules, B's guess, a refusal and its reason.

The circle of radius ``R``, the band ``|u·x + c| < γ`` and ``u`` (unless hidden),
the point proposed with B's prediction, a refused point with the reason; B's
boundary and ``w`` while one class only allows no run.  Before the first move
three handles set the rules (:mod:`perceptron_gui.core.game_rules`); a refused
drag says why, and its handle goes back.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from .....core import game_rules
from .....core.game import RuleBroken, game_of
from .... import style
from ... import Guard, signed
from ..geometry import unit_normal
from ..items import Lines, add_handle, style_handle, style_scatter
from .base import Layer, LegendEntry, line_rows
from .draw import (
    ARROW_Z,
    add_band,
    arrow_head_style,
    font,
    rgba,
    set_arrow,
    set_band,
    set_line,
    show,
    style_band,
)

__all__ = ["GameLayer"]

#: The unit disk as points, ring by ring (the legend keeps clear of the playing area).
_DISK = np.concatenate([np.zeros((1, 2))] + [
    np.column_stack((r * np.cos(a), r * np.sin(a)))
    for i, r in enumerate(np.linspace(0.125, 1.0, 8), start=1)
    for a in [np.linspace(0.0, 2 * np.pi, 8 * i, endpoint=False)]])

#: The view holds the circle grown by this factor: on a landscape canvas the legend then
#: finds a corner off the disk (else the canvas grows a band above for it).
_ROOM = 1.25

_TIPS = {"u": "Drag to turn u (the hidden separator's normal)",
         "gamma": "Drag to widen or narrow the forbidden band |u·x| < γ",
         "R": "Drag to set the radius R every point lies within"}


class GameLayer(Layer):
    """The game's rules and its moment: the circle, the band, u, B's guess, a refusal."""

    name = "game"
    redraw_on = "event"  # the pending guess and a refusal change without the run
    switches = ("game",)
    caption_words = {"circle": ("circle",), "band": ("band_fill", "band_edges"),
                     "arrow": ("u_head", "w_head")}
    item_names = ("circle", "band_fill", "band_edges", "separator", "u_line", "u_head",
                  "u_label", "b_line", "w_line", "w_head", "w_label", "guess", "guess_label",
                  "refused", "refused_label", "hint", "rule_note",
                  *(f"rule_{name}" for name in game_rules.HANDLES))

    def needed(self, frame) -> bool:
        """Made for a game played (its rules are drawn before the first point), or data."""
        return self._played(frame) is not None or super().needed(frame)

    def create(self, view_box) -> None:
        self._u_shown = None  # u drawn at the last redraw (hidden until the end, or not)
        self.circle = self.add("circle", QtWidgets.QGraphicsEllipseItem(), -16)
        self.circle.setBrush(QtGui.QBrush(QtCore.Qt.BrushStyle.NoBrush))
        self.band_fill, self.band_edges = add_band(self, -23, -21)
        self.separator = self.add("separator", Lines(), -20)
        self.u_line = self.add("u_line", Lines(), ARROW_Z - 1)
        self.u_head = self.add("u_head", pg.ArrowItem(), ARROW_Z - 0.9)
        self.u_label = self.add("u_label", pg.TextItem("u", anchor=(-0.3, 0.5)), ARROW_Z - 0.9)
        self.b_line = self.add("b_line", Lines(), -5)
        self.w_line = self.add("w_line", Lines(), ARROW_Z)
        self.w_head = self.add("w_head", pg.ArrowItem(), ARROW_Z + 0.1)
        self.w_label = self.add("w_label", pg.TextItem("w", anchor=(-0.3, 0.5)), ARROW_Z + 0.1)
        self.guess = self.add("guess", pg.ScatterPlotItem(), 25)
        self.guess_label = self.add("guess_label", pg.TextItem(anchor=(0.0, 1.2)), 26)
        self.refused = self.add("refused", pg.ScatterPlotItem(), 25)
        self.refused_label = self.add("refused_label", pg.TextItem(anchor=(0.5, -0.4)), 26)
        self.hint = self.add("hint", pg.TextItem(anchor=(0.5, 1.0)), 30)
        self._workspace = None
        self._placing = Guard()  # the layer moves the handles itself: not a drag
        self._refused_last = False  # the drag's last position was refused
        self._view = (-1.0, 1.0, -1.0, 1.0)  # the view of the last redraw
        self.handles: dict[str, pg.TargetItem] = {}
        for name in game_rules.HANDLES:
            handle = self.handles[name] = add_handle(
                self, f"rule_{name}", 31, "o" if name != "gamma" else "s", _TIPS[name])
            handle.sigPositionChanged.connect(lambda item, n=name: self._dragged(n, item, False))
            handle.sigPositionChangeFinished.connect(
                lambda item, n=name: self._dragged(n, item, True))
        self.rule_note = self.add("rule_note", pg.TextItem(anchor=(0.5, -0.5)), 30.5)  # under them

    def apply_scale(self, scale) -> None:
        pal = style.current()
        self.scale = scale
        self.circle.setPen(pg.mkPen(pal.foreground, width=scale.line * 0.8,
                                    style=QtCore.Qt.PenStyle.DashLine))
        self.band_pen = style_band(self.band_fill, self.band_edges, pal.maxmargin_color, 45,
                                   pg.mkPen(pal.maxmargin_color, width=scale.line * 0.7,
                                            style=QtCore.Qt.PenStyle.DashLine))
        self.separator.setPen(pg.mkPen(pal.maxmargin_color, width=scale.line * 0.7,
                                       style=QtCore.Qt.PenStyle.DotLine))
        self.u_line.setPen(pg.mkPen(pal.maxmargin_color, width=scale.line * 1.1))
        self.b_line.setPen(pg.mkPen(pal.boundary_color, width=scale.line))
        self.w_line.setPen(pg.mkPen(pal.weight_color, width=scale.line * 1.25))
        for head, color in ((self.u_head, pal.maxmargin_color), (self.w_head, pal.weight_color)):
            head.setStyle(pen=pg.mkPen(pal.background, width=1), brush=color,
                          **arrow_head_style(scale.line))
        plain, bold = font(scale.font_pt), font(scale.font_pt, bold=True)
        for item, color in ((self.u_label, pal.maxmargin_color), (self.guess_label, None),
                            (self.w_label, pal.weight_color),
                            (self.refused_label, pal.foreground), (self.hint, pal.foreground),
                            (self.rule_note, pal.foreground)):
            item.setFont(bold if item is not self.hint else plain)
            if color is not None:
                item.setColor(color)
        for name, handle in self.handles.items():
            style_handle(handle, pal.maxmargin_color if name != "R" else pal.foreground,
                         pal.foreground, pal.highlight_color, scale.line, scale.marker * 1.3)
        for label in (self.refused_label, self.guess_label, self.hint, self.rule_note):
            label.fill = pg.mkBrush(rgba(pal.background, 215))  # readable over the lines
        self.refused.setData([], [])
        style_scatter(self.refused, "x", scale.marker * 1.6, pal.mistake_color,
                      pg.mkPen(pal.background, width=1))

    def update(self, frame) -> None:
        game = self._played(frame)
        if not self.drawing(game is not None):
            return
        ws = self._workspace = frame.workspace
        self._view = frame.view
        r = game.R
        self.circle.setRect(QtCore.QRectF(-r, -r, 2 * r, 2 * r))
        self.circle.setVisible(True)
        self._rules(game, frame)
        self._learner(game, frame, own=not ws.running)
        self._marks(game)
        self._place_handles(game)
        if not game.history and game.pending is None and game.refused is None:
            if game.hidden:
                self.hint.setText("Click inside the circle, outside the band:\n"
                                  "B predicts the label, then it is revealed.")
            else:
                self.hint.setText("Click inside the circle, outside the band: B predicts, "
                                  "then the label is revealed.\nBefore the first move, "
                                  "drag the handles to set u, γ and R.")
            x0, x1, y0, y1 = frame.view  # at the view's foot, whatever the type's size
            self.hint.setPos((x0 + x1) / 2, y0 + 0.01 * (y1 - y0))
            self.hint.setVisible(True)
        else:
            self.hint.setVisible(False)

    def _rules(self, game, frame) -> None:
        shown = not game.hidden or game.finished
        if shown != self._u_shown:  # u revealed at the end: its legend row too, at once
            self._u_shown = shown
            self.changed()
        if not shown:
            show(False, self.band_fill, self.band_edges, self.separator, self.u_line,
                 self.u_head, self.u_label)
            return
        u, c = game.u, game.offset
        set_band(self.band_fill, self.band_edges, (u, -c), game.gamma, frame.rect)
        set_line(self.separator, (u, -c), frame.rect)
        foot = -c * u
        tip = u * game.R if -c < game.R else foot + u * 0.5 * game.R  # u's head on the circle
        set_arrow(self.u_line, self.u_head, foot, tip, frame.pixel_size)
        self.u_label.setPos(float(tip[0]), float(tip[1]))
        show(True, self.u_line, self.u_label)

    def _learner(self, game, frame, own: bool) -> None:
        """B's boundary and w when the run cannot draw them (one class so far)."""
        k = frame.workspace.step_count if frame.workspace.running else len(game.history)
        w = game.w_after(min(k, len(game.history)))
        b = float(w[2]) if game.fit_intercept else 0.0
        hyper = unit_normal(w[:2], b) if own else None
        if hyper is None:
            show(False, self.b_line, self.w_line, self.w_head, self.w_label)
            return
        set_line(self.b_line, hyper, frame.rect)
        set_arrow(self.w_line, self.w_head, np.zeros(2), np.asarray(w[:2]), frame.pixel_size)
        self.w_label.setPos(float(w[0]), float(w[1]))
        show(True, self.w_line, self.w_label)

    def _marks(self, game) -> None:
        """B's pending guess and the click the rules refused, each where it was clicked."""
        show(game.pending is not None, self.guess, self.guess_label)
        show(game.refused is not None, self.refused, self.refused_label)
        if game.pending is not None:
            (x1, x2), p = game.pending
            pal = style.current()
            color = {1: pal.pos_color, -1: pal.neg_color}.get(p, pal.mixed_color)
            self.guess.setData([x1], [x2], symbol={1: "o", -1: "s"}.get(p, "d"),
                               size=self.scale.marker * 1.5, brush=pg.mkBrush(None),
                               pen=pg.mkPen(color, width=self.scale.line))
            text = f"B predicts {signed(p)}" if p else "B has no opinion (w·x = 0): a mistake"
            self.guess_label.setText(text + "  …")
            self.guess_label.setColor(color)
            self.guess_label.setPos(x1, x2)
        if game.refused is not None:
            (x1, x2), reason = game.refused
            self.refused.setData([x1], [x2])
            self.refused_label.setText("Refused: " + reason.replace(" (", "\n("))
            self.refused_label.setPos(x1, x2)

    def rules_editable(self, game) -> bool:
        """Whether the rules may be dragged: before the first move, ``u`` shown."""
        return (game is not None and not game.history and not game.hidden and not game.finished)

    def _place_handles(self, game) -> None:
        if not self.rules_editable(game):
            show(False, self.rule_note, *self.handles.values())
            return
        with self._placing:
            for name, (x, y) in game_rules.handle_points(game).items():
                self.handles[name].setPos(x, y)
                self.handles[name].setVisible(True)

    def _dragged(self, name: str, item, final: bool) -> None:
        ws = self._workspace
        game = None if ws is None else game_of(ws)
        if self._placing or not self.rules_editable(game):
            return
        if final and self._refused_last:  # released where it was put back: the last rules
            self._refused_last = False
            game_rules.requested.emit(ws, game_rules.rules_of(game), True)
            return
        p = item.pos()
        try:
            rules = game_rules.dragged_rules(game, name, (p.x(), p.y()))
        except RuleBroken as exc:
            self.rule_note.setText("Refused: " + exc.reason.replace(": ", ":\n", 1)
                                   .replace("; ", ";\n"))
            x0, x1, y0, y1 = self._view
            # beside the pointer, on the side of the view's centre: never off the view
            self.rule_note.setAnchor((1.1 if p.x() > (x0 + x1) / 2 else -0.1,
                                      1.1 if p.y() < (y0 + y1) / 2 else -0.1))
            self.rule_note.setPos(p.x(), p.y())
            self.rule_note.setVisible(True)
            self._refused_last = not final
            self._place_handles(game)  # back to where the rules put it
            game_rules.refused.emit(ws, exc.reason)
            return
        self._refused_last = False
        self.rule_note.setVisible(False)
        game_rules.requested.emit(ws, rules, final)

    def handle_at(self, name: str) -> QtCore.QPointF:
        """Where the rule handle ``name`` is drawn, in data coordinates."""
        return self.handles[name].pos()

    def showing(self, frame) -> bool:
        """While a game is played (its rules are drawn with or without a run)."""
        return self._played(frame) is not None

    def _played(self, frame):
        game = game_of(frame.workspace)
        return game if game is not None and frame.switches["game"] else None

    def keep_in_view(self, frame):
        """The circle's four extremes (with room, :data:`_ROOM`), w's head and the head
        before the last update (the update arrow runs between them)."""
        game = self._played(frame)
        if game is None:
            return None
        r = _ROOM * game.R
        ws = frame.workspace
        k = min(ws.step_count if ws.running else len(game.history), len(game.history))
        heads = [game.w_after(k)[:2]] + ([game.w_after(k - 1)[:2]] if k else [])
        return np.array([(r, 0.0), (-r, 0.0), (0.0, r), (0.0, -r), *heads], dtype=float)

    def keep_clear(self, frame):
        """The disk of radius R, where the student clicks: the legend stays off it."""
        game = self._played(frame)
        return None if game is None else game.R * _DISK

    def legend_entries(self, frame) -> list[LegendEntry]:
        game = self._played(frame)  # (the legend reads HTML: no "<" in its text)
        return line_rows(game is not None and (not game.hidden or game.finished)
                         and ("game_u", "separator u, forbidden band 2γ wide", self.band_pen))
