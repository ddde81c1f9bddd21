"""The "Generate synthetic data…" dialog: pick a generator, tune it, preview it, hand one
undoable edit to the window."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

if TYPE_CHECKING:
    from ..window_api import WindowAPI

from ...core import generators
from ...core.dataset import AddPoints, ReplaceAll
from ...core.text import fmt_count, plural
from .. import style
from ..deferred import YieldingTimer
from . import Guard

__all__ = ["GeneratorDialog", "open_generator_dialog", "SPECS"]

#: The largest n offered (the preview and the canvas stay quick).
MAX_N = 100_000

#: How each parameter is edited: label, minimum, maximum, decimals, step, tooltip.
SPECS = {
    "n": ("Points n", 2, MAX_N, 0, 10, "Number of points; half of them (rounded down) are −1."),
    "noise": ("Noise", 0.0, 10.0, 3, 0.05,
              "Spread of the points (its unit depends on the generator: see its description)."),
    "seed": ("Seed", 0, 2**31 - 1, 0, 1, "Seed of the random generator: the same seed gives "
             "the same points."),
    "distance": ("Distance", 0.0, 20.0, 2, 0.25, "Distance between the two class centres."),
    "margin": ("Margin γ", 0.0, 5.0, 3, 0.05,
               "Every point is at least this far from the generating line."),
    "angle": ("Angle (°)", -1.0, 360.0, 1, 5.0,
              "Direction of the generating line's normal w; 'random' draws it from the seed."),
    "offset": ("Offset", -5.0, 5.0, 2, 0.25, "Signed distance of the line from the origin."),
    "factor": ("Inner/outer radius", 0.0, 0.99, 2, 0.05,
               "Radius of the inner circle over that of the outer one (< 1)."),
}
_COMMON = ("n", "noise", "seed")


class GeneratorDialog(QtWidgets.QDialog):
    """Choose a generator and its parameters with a live ``preview`` of ``window``'s new data."""

    def __init__(self, window: WindowAPI, parent=None):
        super().__init__(parent if parent is not None else window)
        self.setObjectName("generatorDialog")
        self.setWindowTitle("Generate synthetic data")
        self._window = window
        self._values: dict[str, dict] = {name: self._defaults(name)
                                         for name in generators.GENERATORS}
        self._controls: dict[str, QtWidgets.QWidget] = {}
        self._dataset = None
        self._syncing = Guard()

        self.generator = QtWidgets.QComboBox(objectName="generatorChoice")
        for name in generators.GENERATORS:
            self.generator.addItem(generators.TITLES[name], name)
        self.generator.setAccessibleName("Generator")
        self.generator.setToolTip("The kind of data set to generate; its description is below.")
        self.description = QtWidgets.QLabel(objectName="generatorDescription")
        self.description.setWordWrap(True)
        self.form = QtWidgets.QFormLayout(objectName="generatorForm")
        self.form.addRow("Generator", self.generator)
        self.form.addRow(self.description)
        for key in SPECS:
            self._add_control(key)
        self.error = QtWidgets.QLabel(objectName="generatorError")
        self.error.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {style.current().neg_color};")
        self.summary = QtWidgets.QLabel(objectName="generatorSummary")

        self.preview = pg.PlotWidget(objectName="generatorPreview",
                                     background=style.current().background)
        self.preview.setMinimumSize(260, 240)
        self.preview.setAspectLocked(True)
        self.preview.setMenuEnabled(False)
        self.preview.setMouseEnabled(False, False)
        self.preview.hideButtons()
        self.preview.setAccessibleName("Preview of the generated points")
        self.preview.setToolTip("The points that Replace or Add would put on the canvas\n"
                                "(circles: class +1, squares: class −1, as on the canvas).")
        for axis in ("bottom", "left"):
            self.preview.getAxis(axis).setPen(style.current().foreground)
            self.preview.getAxis(axis).setTextPen(style.current().foreground)
        axis_pen = pg.mkPen(style.current().foreground, width=1, style=QtCore.Qt.PenStyle.DotLine)
        for angle in (0, 90):  # the axes through the origin, as on the canvas
            self.preview.addItem(pg.InfiniteLine(pos=0, angle=angle, pen=axis_pen))
        edge = pg.mkPen("w", width=0.5)
        self._scatter = {
            1: pg.ScatterPlotItem(symbol=style.POS_SYMBOL, size=6, brush=style.current().pos_color,
                                  pen=edge, name=style.POS_NAME),
            -1: pg.ScatterPlotItem(symbol=style.NEG_SYMBOL, size=6, brush=style.current().neg_color,
                                   pen=edge, name=style.NEG_NAME),
        }
        for item in self._scatter.values():
            self.preview.addItem(item)

        buttons = QtWidgets.QDialogButtonBox(objectName="generatorButtons")
        box = QtWidgets.QDialogButtonBox
        self.replaceButton, self.addButton, close = (
            self._button(buttons, *spec) for spec in (
                ("&Replace", box.AcceptRole, "generatorReplace", "Replace the points",
                 "Replace the points on the canvas (undoable)"),
                ("&Add to canvas", box.ActionRole, "generatorAdd", "Add to canvas",
                 "Add these points to those on the canvas (undoable)"),
                (None, box.Cancel, "generatorCancel", "Cancel",
                 "Close without changing the points")))
        self.replaceButton.setDefault(True)
        self.replaceButton.clicked.connect(self.replace)
        self.addButton.clicked.connect(self.add)
        close.clicked.connect(self.reject)

        side = QtWidgets.QWidget(objectName="generatorControls")
        side.setFixedWidth(290)  # the same for every generator: the preview does not jump
        left = QtWidgets.QVBoxLayout(side)
        left.setContentsMargins(0, 0, 0, 0)
        left.addLayout(self.form)
        left.addWidget(self.error)
        left.addStretch(1)
        right = QtWidgets.QVBoxLayout()
        right.addWidget(self.preview, 1)
        right.addWidget(self.summary)
        top = QtWidgets.QHBoxLayout()
        top.addWidget(side)
        top.addLayout(right, 1)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(top, 1)
        layout.addWidget(buttons)

        self._timer = YieldingTimer(self, self.update_preview, name="generatorPreviewTimer")
        self.generator.currentIndexChanged.connect(self._on_generator)
        self._on_generator()
        self.resize(720, 420)

    @staticmethod
    def _button(buttons, text, role, name: str, accessible: str, tip: str):
        button = buttons.addButton(role) if text is None else buttons.addButton(text, role)
        button.setObjectName(name)
        button.setAccessibleName(accessible)
        button.setToolTip(tip)
        return button

    @staticmethod
    def _defaults(name: str) -> dict:
        values = dict(generators.generator_parameters(name))
        if values.get("seed") is None:
            values["seed"] = 0
        return values

    def _add_control(self, key: str) -> None:
        label, low, high, decimals, step, tip = SPECS[key]
        if decimals == 0:
            w = QtWidgets.QSpinBox(objectName=f"gen_{key}")
            w.setRange(int(low), int(high))
        else:
            w = QtWidgets.QDoubleSpinBox(objectName=f"gen_{key}")
            w.setDecimals(decimals)
            w.setRange(low, high)
        w.setSingleStep(step)
        w.setToolTip(tip)
        w.setAccessibleName(label.rstrip(":"))
        if key == "angle":
            w.setSpecialValueText("random")
        w.valueChanged.connect(lambda _v, k=key: self._on_value(k))
        name = QtWidgets.QLabel(label)
        name.setToolTip(tip)
        name.setBuddy(w)
        self.form.addRow(name, w)
        self._controls[key] = w

    @property
    def name(self) -> str:
        """The chosen generator's name."""
        return self.generator.currentData()

    def set_generator(self, name: str) -> None:
        """Choose the generator ``name`` (one of ``generators.GENERATORS``)."""
        index = self.generator.findData(name)
        if index < 0:
            raise ValueError(f"unknown generator {name!r}")
        self.generator.setCurrentIndex(index)

    def control(self, key: str) -> QtWidgets.QWidget:
        """The spin box of parameter ``key`` (for tests and scripts)."""
        return self._controls[key]

    def parameters(self) -> dict:
        """The chosen generator's keyword arguments as the controls set them."""
        return {key: math.radians(value) if key == "angle" and value is not None else value
                for key, value in self._values[self.name].items()}

    def dataset(self):
        """The data set the dialog would produce now (None when the values are invalid)."""
        return self._dataset

    def _on_generator(self, *_args) -> None:
        name = self.name
        self.description.setText(generators.DESCRIPTIONS[name])
        values = self._values[name]
        with self._syncing:
            for key, control in self._controls.items():
                shown = key in values
                self.form.setRowVisible(control, shown)
                if not shown:
                    continue
                value = values[key]
                if key == "angle":
                    control.setValue(control.minimum() if value is None else value)
                else:
                    control.setValue(value)
        self._timer.start()

    def _on_value(self, key: str) -> None:
        if self._syncing:
            return
        control = self._controls[key]
        value = control.value()
        if key == "angle":
            value = None if value == control.minimum() else float(value)
        elif isinstance(control, QtWidgets.QSpinBox):
            value = int(value)
        else:
            value = float(value)
        self._values[self.name][key] = value
        self._timer.start()

    def update_preview(self) -> None:
        """Generate with the current values and redraw the preview (synchronously)."""
        self._timer.stop()
        try:
            data = generators.generate(self.name, **self.parameters())
        except ValueError as exc:
            self._dataset = None
            self.error.setText(f"Cannot generate: {exc}")
            for item in self._scatter.values():
                item.setData(x=[], y=[])
            self.summary.setText("")
        else:
            self._dataset = data
            self.error.setText("")
            for label, item in self._scatter.items():
                pts = data.X[data.y == label]
                item.setData(x=pts[:, 0], y=pts[:, 1])
            self.summary.setText(f"{plural(data.n, 'point')}: {fmt_count(data.n_pos)} of class +1, "
                                 f"{fmt_count(data.n_neg)} of class −1")
            self.preview.getViewBox().autoRange(padding=0.08)
        ok = self._dataset is not None
        self.replaceButton.setEnabled(ok)
        self.addButton.setEnabled(ok)

    def _push(self, make_edit) -> bool:
        self.update_preview()
        data = self._dataset
        if data is None or not self._window.push_edit(make_edit(data)):
            return False
        self._window.canvas.fit_view()
        self.accept()
        return True

    def replace(self) -> bool:
        """Replace the canvas's points by the generated ones (one undoable edit)."""
        values = self._values[self.name]
        what = f"generate {self.name} (n={values['n']}, seed={values['seed']})"
        return self._push(lambda data: ReplaceAll.from_dataset(data, what))

    def add(self) -> bool:
        """Add the generated points to the canvas's (one undoable edit)."""
        return self._push(lambda data: AddPoints(data.X, data.y))


#: Each window's generator dialog, by ``id(window)`` (removed when the dialog, a child
#: of its window, is destroyed with it).
_dialogs: dict[int, GeneratorDialog] = {}


def open_generator_dialog(window: WindowAPI) -> GeneratorDialog:
    """Show and return the window's one generator dialog (window-modal, kept with its choices)."""
    key = id(window)
    dialog = _dialogs.get(key)
    if dialog is None:
        dialog = GeneratorDialog(window)
        dialog.setWindowModality(QtCore.Qt.WindowModal)
        _dialogs[key] = dialog
        dialog.destroyed.connect(lambda *_args: _dialogs.pop(key, None))
    dialog.open()
    dialog.update_preview()
    return dialog
