"""The export dialogs: the picture size, what and how to animate to a GIF, a LaTeX range.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from ....core.text import fmt_count
from ... import style
from .common import DEFAULT_FPS, DEFAULT_RUN_FRAMES, MAX_FRAMES, MAX_SIZE, MIN_SIZE, PRESETS


def ok_cancel(dialog: QtWidgets.QDialog, name: str) -> QtWidgets.QDialogButtonBox:
    """OK and Cancel buttons that accept and reject ``dialog``."""
    buttons = QtWidgets.QDialogButtonBox(
        QtWidgets.QDialogButtonBox.StandardButton.Ok
        | QtWidgets.QDialogButtonBox.StandardButton.Cancel, objectName=name)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons


class SizeDialog(QtWidgets.QDialog):
    """Choose the size of an exported picture: the canvas's on screen first, presets, or the
    canvas and the views beside it (``views_size``: "Include the views shown")."""

    def __init__(self, canvas_size, presenter: bool = False, title: str = "Export size",
                 parent=None, views_size=None):
        super().__init__(parent)
        self.setObjectName("exportSizeDialog")
        self.setWindowTitle(title)
        self._form = QtWidgets.QFormLayout(self)
        self._form.setObjectName("exportForm")
        self.preset = QtWidgets.QComboBox(objectName="exportPreset")
        cw, ch = int(canvas_size[0]), int(canvas_size[1])
        self._canvas_preset = f"Canvas size ({cw} × {ch})"
        self._presets = {self._canvas_preset: (cw, ch)}
        self._views_preset = None
        if views_size is not None:
            vw, vh = int(views_size[0]), int(views_size[1])
            self._views_preset = f"Canvas and views ({vw} × {vh})"
            self._presets[self._views_preset] = (vw, vh)
        self._presets.update({**PRESETS, "Custom": None})
        self.preset.addItems(list(self._presets))
        self.width_box = self._spin("exportWidth", cw)
        self.height_box = self._spin("exportHeight", ch)
        self.presenter_box = QtWidgets.QCheckBox("Large fonts and lines (presenter sizes)",
                                                 objectName="exportPresenterSizes")
        self.presenter_box.setChecked(presenter)
        self.scheme_box = QtWidgets.QCheckBox("In the window's colour scheme (else light)",
                                              objectName="exportWindowScheme")
        for label, widget in (("Preset", self.preset), ("Width", self.width_box),
                              ("Height", self.height_box), ("", self.presenter_box),
                              ("", self.scheme_box)):
            self._form.addRow(label, widget)
        #: "Include the views shown" (None when no view is shown beside the canvas).
        self.views_box = None
        if self._views_preset is not None:
            self.views_box = QtWidgets.QCheckBox("Include the views shown (to the right of "
                                                 "the canvas, PNG)",
                                                 objectName="exportIncludeViews")
            self._form.addRow("", self.views_box)
            self.views_box.toggled.connect(self._on_views)
        self._extra_rows()
        self._form.addRow(ok_cancel(self, "exportButtons"))
        self.preset.currentTextChanged.connect(self._on_preset)
        self.width_box.valueChanged.connect(self._on_edited)
        self.height_box.valueChanged.connect(self._on_edited)

    def _spin(self, name: str, value: int) -> QtWidgets.QSpinBox:
        box = QtWidgets.QSpinBox(objectName=name)
        box.setRange(MIN_SIZE, MAX_SIZE)
        box.setValue(min(max(value, MIN_SIZE), MAX_SIZE))
        box.setSuffix(" px")
        return box

    def _extra_rows(self) -> None:
        """Subclasses add their rows here (before the buttons)."""

    def _on_views(self, on: bool) -> None:
        if self.preset.currentText() in (self._canvas_preset, self._views_preset):
            self.preset.setCurrentText(self._views_preset if on else self._canvas_preset)

    def include_views(self) -> bool:
        """Whether "Include the views shown" is checked."""
        return self.views_box is not None and self.views_box.isChecked()

    def _on_preset(self, text: str) -> None:
        size = self._presets.get(text)
        if size is None:
            return
        _set_quietly((self.width_box, size[0]), (self.height_box, size[1]))

    def _on_edited(self, _value) -> None:
        current = (self.width_box.value(), self.height_box.value())
        name = next((k for k, v in self._presets.items() if v == current), "Custom")
        with QtCore.QSignalBlocker(self.preset):
            self.preset.setCurrentText(name)

    def chosen_size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return self.width_box.value(), self.height_box.value()

    def chosen_scale(self) -> style.Scale:
        """:data:`style.PRESENTER` or :data:`style.NORMAL`."""
        return style.PRESENTER if self.presenter_box.isChecked() else style.NORMAL


class GifDialog(SizeDialog):
    """Choose what to animate (the run or one of ``demos``), frames, step unit, frame rate
    and size; ``replay``: :func:`.animation.replay_defaults`."""

    def __init__(self, canvas_size, presenter: bool = False, demos=(), can_run=True,
                 parent=None, replay=None):
        self._demos = [(str(name), str(title)) for name, title in demos]
        self._can_run = can_run
        self._replay = replay or (False, "update", DEFAULT_RUN_FRAMES)
        super().__init__(canvas_size, presenter, "Export an animated GIF", parent)
        self.setObjectName("exportGifDialog")

    def _extra_rows(self) -> None:
        self.source = QtWidgets.QComboBox(objectName="gifSource")
        if self._can_run:
            self.source.addItem("The run", "run")
        for name, title in self._demos:
            self.source.addItem(f"Demo: {title}", f"demo:{name}")
        from_start, unit, frames = self._replay
        self.from_start = QtWidgets.QCheckBox("From the start (step 0)", objectName="gifFromStart")
        self.from_start.setChecked(from_start)
        self.unit = QtWidgets.QComboBox(objectName="gifUnit")
        for value, text in (("update", "one update (mistake)"), ("sample", "one sample"),
                            ("epoch", "one epoch")):
            self.unit.addItem(text, value)
        self.unit.setCurrentIndex(max(0, self.unit.findData(unit)))
        self.frames = QtWidgets.QSpinBox(objectName="gifFrames")
        self.frames.setRange(1, MAX_FRAMES)
        self.frames.setGroupSeparatorShown(True)
        self.frames.setValue(int(frames))
        self.frames.setToolTip("The first frame shows the start; each further frame one step.")
        self.fps = QtWidgets.QDoubleSpinBox(objectName="gifFps")
        self.fps.setRange(0.1, 50.0)
        self.fps.setDecimals(1)
        self.fps.setSingleStep(0.5)
        self.fps.setValue(DEFAULT_FPS["run"])
        self.fps.setSuffix(" frames/s")
        # what to animate first, then how; the size rows follow
        for row, (label, widget) in enumerate((("Animate", self.source), ("", self.from_start),
                                               ("One frame per", self.unit),
                                               ("Frames", self.frames),
                                               ("Frame rate", self.fps))):
            self._form.insertRow(row, label, widget)
        self.source.currentIndexChanged.connect(self._on_source)
        self._on_source()

    def _on_source(self, *_args) -> None:
        run = self.source.currentData() == "run"
        for w in (self.from_start, self.unit, self.frames):
            w.setEnabled(run)
        self.fps.setValue(DEFAULT_FPS["run" if run else "demo"])

    def chosen_source(self) -> str:
        """"run" or "demo:NAME"."""
        return self.source.currentData() or ""


class RangeDialog(QtWidgets.QDialog):
    """Choose the updates of a LaTeX table when the log has more than a table may hold
    (``rows``: the ``(start, stop)`` proposed; ``here``: the updates up to the cursor)."""

    def __init__(self, total: int, limit: int, rows, here: int = 0, parent=None):
        super().__init__(parent)
        self.setObjectName("latexRangeDialog")
        self.setWindowTitle("Export the update log as LaTeX")
        self._total, self._limit, self._here = int(total), max(1, int(limit)), int(here)
        form = QtWidgets.QFormLayout(self)
        note = QtWidgets.QLabel(
            f"The run has {fmt_count(self._total)} updates; a LaTeX table holds at most "
            f"{fmt_count(self._limit)} rows. Export the updates from … to … (the CSV export "
            f"writes them all).", objectName="latexRangeNote")
        note.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        note.setWordWrap(True)
        form.addRow(note)
        self.first = QtWidgets.QSpinBox(objectName="latexRangeFirst")
        self.last = QtWidgets.QSpinBox(objectName="latexRangeLast")
        for box in (self.first, self.last):
            box.setRange(1, max(1, self._total))
            box.setGroupSeparatorShown(True)
            box.setKeyboardTracking(False)  # adjust the other box once a number is typed
        form.addRow("From update", self.first)
        form.addRow("To update", self.last)
        picks = QtWidgets.QHBoxLayout()
        first_rows = QtWidgets.QPushButton(f"The first {fmt_count(min(self._limit, self._total))}",
                                           objectName="latexRangeStart")
        around = QtWidgets.QPushButton("Around the cursor", objectName="latexRangeCursor")
        first_rows.clicked.connect(lambda: self.set_range(0, self._limit))
        around.clicked.connect(self._around_cursor)
        picks.addWidget(first_rows)
        picks.addWidget(around)
        form.addRow("", picks)
        form.addRow(ok_cancel(self, "latexRangeButtons"))
        self.first.valueChanged.connect(self._first_changed)
        self.last.valueChanged.connect(self._last_changed)
        self.set_range(*rows)

    def set_range(self, start: int, stop: int) -> None:
        """Show rows ``start <= u < stop`` (updates ``start + 1`` to ``stop``), kept valid."""
        stop = min(self._total, max(1, int(stop)))
        start = min(max(0, int(start)), stop - 1)
        start = max(start, stop - self._limit)
        _set_quietly((self.first, start + 1), (self.last, stop))

    def _around_cursor(self) -> None:
        start = min(max(0, self._here - self._limit // 2), max(0, self._total - self._limit))
        self.set_range(start, start + self._limit)

    def _first_changed(self, first: int) -> None:
        last = min(max(self.last.value(), first), first + self._limit - 1)
        self.set_range(first - 1, last)

    def _last_changed(self, last: int) -> None:
        first = max(min(self.first.value(), last), last - self._limit + 1)
        self.set_range(first - 1, last)

    def chosen_range(self) -> tuple[int, int]:
        """The rows ``(start, stop)`` chosen: updates ``start + 1`` to ``stop``."""
        return self.first.value() - 1, self.last.value()


def _set_quietly(*pairs) -> None:
    """``box.setValue(value)`` for each ``(box, value)``, without the boxes' signals."""
    for box, value in pairs:
        with QtCore.QSignalBlocker(box):
            box.setValue(value)
