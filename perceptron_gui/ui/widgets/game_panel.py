"""The game's panel: the rules, the scoreboard, the moves, announced by signals the mode takes."""

from __future__ import annotations

import math

from PySide6 import QtCore, QtWidgets

from ...core.learners.ties import DEFAULT_TIE, TIE_TEXTS, TIE_TIP, TIES, condition
from ...core.text import fmt, plural
from .float_box import spin_box

__all__ = ["GamePanel", "proof_lines"]


def proof_lines(game, moves: int) -> tuple[str, str, str]:
    """The scoreboard's three lines after ``moves`` moves: the score and the proof's two."""
    p = game.proof(moves)
    k = p["k"]
    tilde = "̃" if game.fit_intercept else ""
    bound = round(game.bound) if abs(game.bound - round(game.bound)) < 1e-9 else fmt(game.bound)
    score = (f"Mistakes forced: {k} in {plural(moves, 'move')}; the bound "
             f"(R{tilde}/γ{tilde})² = {bound}")
    if game.hidden and not game.finished:
        progress = f"Progress w{tilde}·u{tilde} ≥ kγ{tilde}: hidden with u until the end"
    else:
        holds = "≥" if p["dot"] >= p["k_gamma"] - 1e-9 * max(1.0, p["k_gamma"]) else "<"
        progress = (f"Progress: w{tilde}·u{tilde} = {fmt(p['dot'])} {holds} "
                    f"kγ{tilde} = {fmt(p['k_gamma'])}")
    holds = "≤" if p["norm2"] <= p["k_r2"] * (1 + 1e-9) else ">"
    growth = (f"Slow growth: ‖w{tilde}‖² = {fmt(p['norm2'])} {holds} "
              f"kR{tilde}² = {fmt(p['k_r2'])}")
    return score, progress, growth


def rules_line(game) -> str:
    """The rules in one line: ``Rules: R = 1, γ = 0.2, u at 35°`` (B's rule unless the default)."""
    u = ("u hidden" if game.hidden and not game.finished
         else f"u at {fmt(math.degrees(math.atan2(game.u[1], game.u[0])), 1)}°")
    bias = f", c = {fmt(game.offset)}, with the bias" if game.fit_intercept else ""
    # the textbook's rule goes without saying; seed 002's is named
    rule = "" if game.tie == DEFAULT_TIE else f"; {condition(game.tie)}"
    return f"Rules: R = {fmt(game.R)}, γ = {fmt(game.gamma)}, {u}{bias}{rule}"


class GamePanel(QtWidgets.QWidget):
    """The rules (editable until the first move), the scoreboard and the game's buttons.

    Signals
    -------
    rulesChanged(dict)
        ``R``, ``gamma``, ``angle`` (u's, in degrees), ``offset``, ``fit_intercept``,
        ``tie`` (B's rule on its boundary).
    hideRequested()
        Pick ``u`` at random and hide it until the end.
    """

    rulesChanged = QtCore.Signal(dict)
    hideRequested = QtCore.Signal()

    def __init__(self, actions: dict, parent=None):
        super().__init__(parent)
        self.setObjectName("gamePanel")
        form = QtWidgets.QFormLayout()
        form.setRowWrapPolicy(QtWidgets.QFormLayout.RowWrapPolicy.WrapLongRows)
        self.R = self._spin(0.1, 1e3, 1.0, 0.1, "R: every point lies within R of the origin")
        self.gamma = self._spin(0.001, 1e3, 0.25, 0.05,
                                "γ: the hidden u separates every point with margin γ "
                                "(no point in the band |u·x| < γ)")
        self.angle = self._spin(-360.0, 360.0, 30.0, 5.0, "u's direction, in degrees")
        self.angle.setDecimals(1)
        self.angle.setWrapping(True)
        self.offset = self._spin(-1e3, 1e3, 0.0, 0.05, "β: the separator is u·x + β = 0 "
                                 "(with the bias only)")
        self.bias = QtWidgets.QCheckBox("B has a bias")
        self.bias.setToolTip("The perceptron learns w·x + b: the bound uses the augmented "
                             "vectors, R̃ = √(R² + 1) and γ̃ = γ/√(1 + β²)")
        form.addRow("Radius R", self.R)
        form.addRow("Margin γ", self.gamma)
        form.addRow("u at (°)", self.angle)
        form.addRow("Offset β", self.offset)
        form.addRow(self.bias)
        self.tie = QtWidgets.QComboBox(objectName="gameTie")
        for tie in TIES:
            self.tie.addItem(TIE_TEXTS[tie], tie)
        self.tie.setToolTip("B's rule for a point on its boundary, w·x̃ = 0.\n" + TIE_TIP)
        form.addRow("On B's boundary", self.tie)
        self.hide_button = QtWidgets.QPushButton("Random u, hidden")
        self.hide_button.setToolTip("The game draws u's direction and keeps it (and the band) "
                                    "hidden until the end; a refused point still says why")
        self.hide_button.clicked.connect(self.hideRequested)
        form.addRow(self.hide_button)
        self.rules_box = QtWidgets.QGroupBox("Rules, before the first move")
        self.rules_box.setLayout(form)
        for box in (self.R, self.gamma, self.angle, self.offset):
            box.valueChanged.connect(self._emit_rules)
        self.bias.toggled.connect(self._emit_rules)
        self.tie.currentIndexChanged.connect(self._emit_rules)

        # the rules once set: one line, not a form
        self.rules_text = QtWidgets.QLabel(objectName="gameRules")
        self.score = QtWidgets.QLabel(objectName="gameScore")
        self.progress, self.growth = QtWidgets.QLabel(), QtWidgets.QLabel()
        self.moment = QtWidgets.QLabel(objectName="gameMoment")
        self.result = QtWidgets.QLabel(objectName="gameResult")
        font = self.score.font()
        font.setBold(True)
        for label in (self.score, self.result):
            label.setFont(font)
        for label in (self.rules_text, self.score, self.progress, self.growth, self.moment,
                      self.result):
            label.setWordWrap(True)
            label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QtWidgets.QVBoxLayout()
        buttons.setSpacing(2)
        for key in ("play_undo_move", "play_computer", "play_end_game", "play_new_game",
                    "play_leave"):
            button = QtWidgets.QToolButton()
            button.setDefaultAction(actions[key])
            button.setToolButtonStyle(QtCore.Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding,
                                 QtWidgets.QSizePolicy.Policy.Fixed)
            button.setMinimumWidth(1)  # the panel's width is the side panel's, not the text's
            buttons.addWidget(button)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.rules_box)
        layout.addWidget(self.rules_text)
        for label in (self.score, self.progress, self.growth, self.moment, self.result):
            layout.addWidget(label)
        layout.addLayout(buttons)

    @staticmethod
    def _spin(lo, hi, value, step, tip) -> QtWidgets.QDoubleSpinBox:
        box = spin_box(lo, hi, step, tip=tip)
        box.setValue(value)
        box.setKeyboardTracking(False)
        return box

    def rules(self) -> dict:
        """The rules as set in the form."""
        return {"R": self.R.value(), "gamma": self.gamma.value(), "angle": self.angle.value(),
                "offset": self.offset.value() if self.bias.isChecked() else 0.0,
                "fit_intercept": self.bias.isChecked(), "tie": self.tie.currentData()}

    def _emit_rules(self, *_args) -> None:
        self.offset.setEnabled(self.bias.isChecked())
        self.rulesChanged.emit(self.rules())

    def show_game(self, game, moves: int, moment: str = "") -> None:
        """Show ``game`` after ``moves`` moves (the run's cursor) and what just happened."""
        editable = not game.history
        self.rules_box.setVisible(editable)
        self.rules_text.setVisible(not editable)
        self.rules_text.setText(rules_line(game))
        boxes = (self.R, self.gamma, self.angle, self.offset, self.bias, self.tie)
        for box in boxes:
            box.blockSignals(True)
        self.R.setValue(game.R)
        self.gamma.setValue(game.gamma)
        self.bias.setChecked(game.fit_intercept)
        self.tie.setCurrentIndex(self.tie.findData(game.tie))
        self.offset.setValue(game.offset)
        self.offset.setEnabled(game.fit_intercept and editable)
        hidden = game.hidden and not game.finished
        self.angle.setEnabled(editable and not hidden)
        self.angle.setSpecialValueText("hidden" if hidden else "")
        self.angle.setValue(self.angle.minimum() if hidden
                            else math.degrees(math.atan2(game.u[1], game.u[0])))
        for box in boxes:
            box.blockSignals(False)
        for label, text in zip((self.score, self.progress, self.growth),
                               proof_lines(game, moves), strict=True):
            label.setText(text)
        self.moment.setText(moment)
        self.moment.setVisible(bool(moment))

    def show_result(self, text: str) -> None:
        """The end of the game, stated (empty: not over)."""
        self.result.setText(text)
        self.result.setVisible(bool(text))
