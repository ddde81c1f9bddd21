"""The exercise's panel: the answer's controls, announced by signals the mode marks."""

from __future__ import annotations

import math

from PySide6 import QtCore, QtWidgets

from .float_box import spin_box

__all__ = ["ExercisePanel"]


def _form(title: str, rows) -> tuple[QtWidgets.QGroupBox, QtWidgets.QFormLayout]:
    form = QtWidgets.QFormLayout()
    form.setRowWrapPolicy(QtWidgets.QFormLayout.RowWrapPolicy.WrapLongRows)
    for row in rows:
        form.addRow(*row)
    box = QtWidgets.QGroupBox(title)
    box.setLayout(form)
    return box, form


class ExercisePanel(QtWidgets.QWidget):
    """The controls of a predict or a learner level, the result and the score.

    Signals
    -------
    answered(object, float, float, float)
        Predict: the point's number (1-based; None for a pass) and the new ``w₁, w₂, b``.
    answeredClass(object, int)
        Predict with m classes' weights: the point's number and the label of the class
        that scored as much (whose ``w`` loses ``x̃``).
    guessChanged(float, float, float)
        Predict: the ``w₁, w₂, b`` typed so far (the canvas draws them).
    sampleChanged(int)
        Predict: the point's number typed (1-based).
    lineChanged(float, float, float)
        Be the learner: the line ``w·x + b = 0`` set (``w = (cos θ, sin θ)``).
    scoreRequested()
        Be the learner: score the line.
    """

    answered = QtCore.Signal(object, float, float, float)
    answeredClass = QtCore.Signal(object, int)
    guessChanged = QtCore.Signal(float, float, float)
    sampleChanged = QtCore.Signal(int)
    lineChanged = QtCore.Signal(float, float, float)
    scoreRequested = QtCore.Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("exercisePanel")
        self.result = QtWidgets.QLabel(objectName="exerciseResult")
        self.score = QtWidgets.QLabel()
        for label in (self.result, self.score):
            label.setWordWrap(True)
            label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)

        # predict the next update: which point, which w and b
        self.sample = QtWidgets.QSpinBox()
        self.sample.setMinimum(1)
        self.w1, self.w2, self.b = (spin_box(-1e6, 1e6, 0.1) for _ in range(3))
        self.sample.setToolTip("Click the point on the canvas, or type its number")
        for box in (self.w1, self.w2, self.b):
            box.setToolTip("Drag w's head (and the line) on the canvas, or type")
            box.valueChanged.connect(self._guess)
        self.sample.valueChanged.connect(self.sampleChanged)
        self.rival = QtWidgets.QComboBox(objectName="exerciseRival")
        self.rival.setToolTip("The class that scores at least as much as the point's own "
                              "(the first, when several do): its w loses x̃")
        self.check = QtWidgets.QPushButton("Check my answer")
        self.check.clicked.connect(self._answer)
        self.predict_box, self._predict_form = _form("The next update", (
            ("Point #", self.sample), ("Class that loses x̃", self.rival), ("New w₁", self.w1),
            ("New w₂", self.w2), ("New b", self.b), (self.check,)))

        # be the learner: a line by its normal's angle and its offset
        self.angle = spin_box(-360.0, 360.0, 2.0, 1)
        self.angle.setWrapping(True)
        self.offset = spin_box(-1e3, 1e3, 0.05)
        for box in (self.angle, self.offset):
            box.valueChanged.connect(self._line)
        self.score_button = QtWidgets.QPushButton("Score my line")
        self.score_button.clicked.connect(self.scoreRequested)
        self.angle.setToolTip("Turn the line by dragging w's head on the canvas, or type")
        self.offset.setToolTip("Move the line by dragging its handle on the canvas, or type")
        self.learner_box, _ = _form("Your line w·x + b = 0", (
            ("Normal w at (°)", self.angle), ("Offset b", self.offset), (self.score_button,)))

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        for widget in (self.predict_box, self.learner_box, self.result, self.score):
            layout.addWidget(widget)

    def show_level(self, level, n_points: int, batch: bool, w, b: float,
                   bias: bool = True, classes=None) -> None:
        """Show the controls of ``level``'s kind (without ``bias``, "New b" is not asked;
        with ``classes``, ``(label, name)`` pairs, the class that loses x̃ instead of w)."""
        self.predict_box.setVisible(level.kind == "predict")
        self.learner_box.setVisible(level.kind == "learner")
        self.sample.setMaximum(max(1, n_points))
        self.sample.setEnabled(not batch)
        self.sample.setSpecialValueText("a pass" if batch else "")
        self.rival.clear()
        for label, name in classes or ():
            self.rival.addItem(name, int(label))
        self._predict_form.setRowVisible(self.rival, classes is not None)
        for box in (self.w1, self.w2):
            self._predict_form.setRowVisible(box, classes is None)
        self._predict_form.setRowVisible(self.b, bias and classes is None)
        self.set_w(w, b)
        self.result.setText("")
        self.score.setText("")

    def set_w(self, w, b: float) -> None:
        """Put the current ``w, b`` in the answer's boxes (the student edits them)."""
        if w is not None:
            self.w1.setValue(float(w[0]))
            self.w2.setValue(float(w[1]))
        self.b.setValue(float(b))

    def show_guess(self, w, b: float) -> None:
        """Follow a drag on the canvas: ``w, b`` in the boxes, announcing nothing."""
        with QtCore.QSignalBlocker(self.w1), QtCore.QSignalBlocker(self.w2), \
                QtCore.QSignalBlocker(self.b):
            self.set_w(w, b)

    def show_sample(self, number: int) -> None:
        """Follow a click on the canvas: the point ``number`` (1-based), announcing nothing."""
        with QtCore.QSignalBlocker(self.sample):
            self.sample.setValue(int(number))

    def show_line(self, w, b: float) -> None:
        """Follow a drag on the canvas: the line ``w·x + b = 0`` as its angle and offset."""
        norm = math.hypot(float(w[0]), float(w[1]))
        if not norm > 0:
            return
        with QtCore.QSignalBlocker(self.angle), QtCore.QSignalBlocker(self.offset):
            self.angle.setValue(math.degrees(math.atan2(float(w[1]), float(w[0]))))
            self.offset.setValue(float(b) / norm)

    def set_line(self, angle_deg: float, offset: float) -> None:
        """Put a line in the controls (and announce it)."""
        self.angle.setValue(angle_deg)
        self.offset.setValue(offset)
        self._line()

    def _answer(self) -> None:
        sample = self.sample.value() if self.sample.isEnabled() else None
        if self.rival.count():
            self.answeredClass.emit(sample, int(self.rival.currentData()))
        else:
            self.answered.emit(sample, self.w1.value(), self.w2.value(), self.b.value())

    def _guess(self, *_args) -> None:
        self.guessChanged.emit(self.w1.value(), self.w2.value(), self.b.value())

    def _line(self, *_args) -> None:
        t = math.radians(self.angle.value())
        self.lineChanged.emit(math.cos(t), math.sin(t), self.offset.value())
