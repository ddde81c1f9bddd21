"""The import dialog: a delimited file's first rows, its dialect, and the columns to use.

Like a spreadsheet's text import; with more than two label values the user
keeps every class (up to eight) or picks the +1 and the -1 class (or "all the
others").  The whole file is read
in a worker, so bad rows are listed by line before anything is imported.  OK
stays disabled, with the reason shown, until the choice is valid.
"""

from __future__ import annotations

import os
import threading

import shiboken6
from PySide6 import QtCore, QtWidgets

from ...core.io import Cancelled, FormatError, tabular
from ...core.text import fmt_count, plural
from ...core.values import MAX_CLASSES
from .. import workers
from .export.dialogs import ok_cancel

__all__ = ["DELIMITERS", "HEADERS", "ImportDialog"]

#: The delimiter choices: (text, value for ``tabular.sniff``; None = detected).
DELIMITERS = (("Detected", None), ("Comma  ,", ","), ("Semicolon  ;", ";"), ("Tab", "\t"),
              ("Whitespace", " "), ("Pipe  |", "|"))
#: The header choices: (text, value; None = detected).
HEADERS = (("Detected", None), ("The first row names the columns", True), ("No header row", False))
#: The negative-class choice meaning "every value but the +1 one".
OTHERS = "(all the other values)"
#: The +1 class's choice that keeps every value as a class of its own.
EVERY = "every-class"
_SHOWN_LINES = 12
_PREVIEW_PX, _PREVIEW_MIN_PX = 220, 110  # the preview's height, and its least
_FRAME_PX = 40  # a window frame's title bar and border


def _class_text(value) -> str:
    return value if isinstance(value, str) else repr(value)


class ImportDialog(QtWidgets.QDialog):
    """Preview a delimited file and choose how its rows become points (``remembered``: a
    previous :meth:`choice` for this file, restored where it still fits)."""

    #: Emitted with the TableResult when the user accepted and the file was read.
    imported = QtCore.Signal(object)
    #: Emitted whenever a read of the whole file finished (tests wait for it).
    readFinished = QtCore.Signal()

    def __init__(self, path, parent=None, *, remembered: dict | None = None):
        super().__init__(parent)
        self.setObjectName("importDialog")
        self.path = os.path.abspath(os.fspath(path))
        self.setWindowTitle(f"Import {os.path.basename(self.path)}")
        self.sniffed: tabular.Sniffed | None = None
        self.table: tabular.TableResult | None = None
        self._remembered = dict(remembered or {})
        self._trial = None  # TableResult, TooManyLabels, FormatError or Cancelled
        self._trial_key = None
        #: The label column's classes (known once the file was read).
        self.classes: tuple = ()
        #: The lines with a missing or non-numeric value under the current choice.
        self.bad_lines: tuple[int, ...] = ()
        self._token = 0
        self._cancel = threading.Event()
        #: True while the file is being read in the worker.
        self.reading = False
        self._finishing = False
        self._error: str | None = None
        self._build()
        self._apply_remembered_dialect()
        self._resniff()

    def _combos(self, form: QtWidgets.QFormLayout, *rows) -> list[QtWidgets.QComboBox]:
        combos = []
        for label, name in rows:
            combo = QtWidgets.QComboBox(self, objectName=name)
            combo.setSizeAdjustPolicy(QtWidgets.QComboBox.AdjustToContents)
            form.addRow(label, combo)
            combos.append(combo)
        return combos

    def _build(self) -> None:
        layout = QtWidgets.QVBoxLayout(self)
        dialect = QtWidgets.QFormLayout()
        self.delimiterCombo, self.headerCombo = self._combos(
            dialect, ("&Delimiter:", "delimiterCombo"), ("&Header:", "headerCombo"))
        for combo, choices in ((self.delimiterCombo, DELIMITERS), (self.headerCombo, HEADERS)):
            for text, value in choices:
                combo.addItem(text, value)
        self.decimalLabel = QtWidgets.QLabel(self, objectName="decimalLabel")
        self.encodingLabel = QtWidgets.QLabel(self, objectName="encodingLabel")
        dialect.addRow("Decimal mark:", self.decimalLabel)
        dialect.addRow("Encoding:", self.encodingLabel)
        layout.addLayout(dialect)

        self.previewTable = QtWidgets.QTableWidget(self, objectName="previewTable")
        self.previewTable.setEditTriggers(QtWidgets.QAbstractItemView.NoEditTriggers)
        self.previewTable.setMinimumSize(520, _PREVIEW_PX)
        layout.addWidget(self.previewTable, 1)

        # the columns, and beside them the classes when there are more than two
        below = QtWidgets.QHBoxLayout()
        columns = QtWidgets.QFormLayout()
        self.xCombo, self.yCombo, self.labelCombo = self._combos(
            columns, ("&x column:", "xCombo"), ("&y column:", "yCombo"),
            ("&Label column:", "labelCombo"))
        below.addLayout(columns, 1)
        self.classBox = QtWidgets.QGroupBox("Classes", self, objectName="classBox")
        self.positiveCombo, self.negativeCombo = self._combos(
            QtWidgets.QFormLayout(self.classBox), ("The &+1 class:", "positiveCombo"),
            ("The &−1 class:", "negativeCombo"))
        below.addWidget(self.classBox, 1)
        layout.addLayout(below)

        self.badRowsLabel = QtWidgets.QLabel(self, objectName="badRowsLabel")
        self.skipCheck = QtWidgets.QCheckBox("&Skip these rows", self, objectName="skipCheck")
        layout.addWidget(self.badRowsLabel)
        layout.addWidget(self.skipCheck)

        reading = QtWidgets.QHBoxLayout()
        self.progressBar = QtWidgets.QProgressBar(self, objectName="readProgress")
        self.progressBar.setRange(0, 1000)
        self.cancelReadButton = QtWidgets.QPushButton("Cancel reading", self,
                                                      objectName="cancelReadButton")
        self.cancelReadButton.clicked.connect(self.cancel_read)
        reading.addWidget(self.progressBar, 1)
        reading.addWidget(self.cancelReadButton)
        layout.addLayout(reading)
        for widget in (self.classBox, self.badRowsLabel, self.skipCheck, self.progressBar,
                       self.cancelReadButton):
            widget.hide()

        self.reasonLabel = QtWidgets.QLabel(self, objectName="reasonLabel")
        for label in (self.badRowsLabel, self.reasonLabel):
            label.setWordWrap(True)
        for label in (self.decimalLabel, self.encodingLabel, self.badRowsLabel,
                      self.reasonLabel):  # they quote the file's text
            label.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        layout.addWidget(self.reasonLabel)
        self.buttons = ok_cancel(self, "importButtons")
        layout.addWidget(self.buttons)

        for combo in (self.delimiterCombo, self.headerCombo):
            combo.currentIndexChanged.connect(self._resniff)
        for combo in (self.xCombo, self.yCombo, self.labelCombo):
            combo.currentIndexChanged.connect(self._columns_changed)
        for combo in (self.positiveCombo, self.negativeCombo):
            combo.currentIndexChanged.connect(self._update)
        self.skipCheck.toggled.connect(self._update)

    @property
    def okButton(self) -> QtWidgets.QPushButton:
        return self.buttons.button(QtWidgets.QDialogButtonBox.Ok)

    @property
    def reason(self) -> str:
        """Why OK is disabled ("" when it is enabled)."""
        return "" if self.okButton.isEnabled() else self.reasonLabel.text()

    def _apply_remembered_dialect(self) -> None:
        for combo, key in ((self.delimiterCombo, "delimiter"), (self.headerCombo, "header")):
            if key in self._remembered:
                index = combo.findData(self._remembered[key])
                if index >= 0:
                    with QtCore.QSignalBlocker(combo):
                        combo.setCurrentIndex(index)

    def _resniff(self, *_args) -> None:  # with the chosen delimiter and header
        previous = {role: self._column_name(combo) for role, combo in self._roles()}
        try:
            sn = tabular.sniff(self.path, delimiter=self.delimiterCombo.currentData(),
                               header=self.headerCombo.currentData())
        except FormatError as exc:
            self.sniffed = None
            self._error = str(exc)
            self.previewTable.clear()
            self.previewTable.setRowCount(0)
            self.previewTable.setColumnCount(0)
            for _, combo in self._roles():
                with QtCore.QSignalBlocker(combo):
                    combo.clear()
            self._columns_changed()  # no columns: no read, OK disabled with the reason
            return
        self.sniffed = sn
        self._error = None
        # "Detected: tab", "Detected: no header row": what the detection found
        self.delimiterCombo.setItemText(0, f"{DELIMITERS[0][0]}: {sn.delimiter_name}")
        self.headerCombo.setItemText(0, f"{HEADERS[0][0]}: " + (
            "the first row names the columns" if sn.header else "no header row"))
        self.decimalLabel.setText("comma  ," if sn.decimal == "," else "point  .")
        self.encodingLabel.setText("UTF-8 with a byte-order mark" if sn.encoding == "utf-8-sig"
                                   else "UTF-8")
        self._fill_preview(sn)
        wanted = dict(previous)
        if any(role in self._remembered for role in ("x", "y", "label")):
            wanted = {role: self._remembered.pop(role, None) for role in ("x", "y", "label")}
        for role, combo in self._roles():
            with QtCore.QSignalBlocker(combo):
                combo.clear()
                for k, name in enumerate(sn.columns):
                    text = f"{k + 1}: {name}" if sn.header and name else f"column {k + 1}"
                    if k == sn.index_column:
                        text += " (index)"
                    combo.addItem(text, k)
                name = wanted.get(role)
                k = sn.columns.index(name) if name in sn.columns else -1
                if k < 0:
                    guess = getattr(sn, role)
                    k = sn.columns.index(guess) if guess in sn.columns else -1
                combo.setCurrentIndex(k)
        self._columns_changed()

    def _fill_preview(self, sn: tabular.Sniffed) -> None:
        table = self.previewTable
        table.clear()
        table.setColumnCount(len(sn.columns))
        table.setRowCount(len(sn.preview))
        labels = [(name if sn.header and name else f"{k + 1}") for k, name in enumerate(sn.columns)]
        table.setHorizontalHeaderLabels(labels)
        first = sn.skip_lines + 1
        table.setVerticalHeaderLabels([str(first + i) for i in range(len(sn.preview))])
        for i, row in enumerate(sn.preview):
            for j, cell in enumerate(row[:len(sn.columns)]):
                table.setItem(i, j, QtWidgets.QTableWidgetItem(cell))
        table.resizeColumnsToContents()

    def _roles(self):
        return (("x", self.xCombo), ("y", self.yCombo), ("label", self.labelCombo))

    def _column_name(self, combo: QtWidgets.QComboBox) -> str | None:
        k = combo.currentData()
        return None if self.sniffed is None or k is None else self.sniffed.columns[k]

    def _read_options(self) -> dict | None:
        """The options of the whole-file read (skipping bad rows, classes open), or None."""
        cols = [combo.currentData() for _, combo in self._roles()]
        if self.sniffed is None or None in cols or len(set(cols)) < 3:
            return None
        return {"x": cols[0] + 1, "y": cols[1] + 1, "label": cols[2] + 1,
                "delimiter": self.delimiterCombo.currentData(),
                "header": self.headerCombo.currentData(), "skip_bad_rows": True}

    def _columns_changed(self, *_args) -> None:
        options = self._read_options()
        if options is None:
            self._set_trial(None, None)
            self._update()
            return
        key = tuple(sorted(options.items(), key=lambda kv: kv[0]))
        if key != self._trial_key:
            self._set_trial(None, key)
            self._start_read(options, final=False)
        self._update()

    def _start_read(self, options: dict, *, final: bool) -> None:
        self._cancel.set()  # a read still running is no longer wanted
        self._cancel = cancel = threading.Event()
        self._token += 1
        token = self._token
        self.reading, self._finishing = True, final
        # one per read (an old read's steps go unheard), owned by the read: not deleted
        # with the dialog while the read reports to it
        relay = workers.ProgressRelay()
        relay.changed.connect(lambda fraction, t=token: self._show_progress(t, fraction))

        def read():
            return tabular.read_table(self.path, progress=relay.report, cancelled=cancel.is_set,
                                      summarize=True, **options)

        self.progressBar.setValue(0)
        self.progressBar.show()
        self.cancelReadButton.show()
        workers.start(read, returned=lambda result: self._on_read(token, result),
                      errored=lambda exc: self._on_read(token, exc), finished=relay.deleteLater)

    def _show_progress(self, token: int, fraction: float) -> None:
        if token == self._token and self.reading and shiboken6.isValid(self):
            self.progressBar.setValue(round(1000 * fraction))

    def cancel_read(self) -> None:
        """Stop the read in progress (the dialog stays open; nothing is imported)."""
        self._cancel.set()

    def _on_read(self, token: int, outcome) -> None:
        if token != self._token or not shiboken6.isValid(self):
            return  # a read overtaken by a newer choice, or the dialog has gone
        self.reading = False
        self.progressBar.hide()
        self.cancelReadButton.hide()
        final, self._finishing = self._finishing, False
        if final and isinstance(outcome, tabular.TableResult):
            self._finish(outcome)
            return
        if final and isinstance(outcome, Cancelled):
            self.reasonLabel.setText("Reading was cancelled; nothing was imported.")
        else:
            self._set_trial(outcome, self._trial_key)
        self._update()
        self.readFinished.emit()

    def _set_trial(self, outcome, key) -> None:
        self._trial, self._trial_key = outcome, key
        if isinstance(outcome, tabular.TableResult):
            classes, bad = tuple(outcome.mapping), outcome.skipped_lines
        elif isinstance(outcome, tabular.TooManyLabels):
            classes, bad = outcome.classes, outcome.skipped_lines
        else:
            classes, bad = (), ()
        self.bad_lines = tuple(bad)
        if classes != self.classes:
            self.classes = tuple(classes)
            self._fill_classes()
        self.classBox.setVisible(len(self.classes) > 2)
        if bad:
            shown = ", ".join(str(n) for n in bad[:_SHOWN_LINES])
            more = f", … ({fmt_count(len(bad))} rows)" if len(bad) > _SHOWN_LINES else ""
            self.badRowsLabel.setText(
                f"{plural(len(bad), 'row')} with a missing or non-numeric value or the wrong "
                f"number of fields, on line{'s' if len(bad) > 1 else ''} {shown}{more}.")
        self.badRowsLabel.setVisible(bool(bad))
        self.skipCheck.setVisible(bool(bad))

    def _fill_classes(self) -> None:
        remembered = self._remembered
        for combo, first, key in ((self.positiveCombo, "— choose —", "positive"),
                                  (self.negativeCombo, OTHERS, "negative")):
            with QtCore.QSignalBlocker(combo):
                combo.clear()
                combo.addItem(first, None)
                if key == "positive":  # or no +1 class at all: every value its class
                    combo.addItem(f"(keep all {len(self.classes)} classes)", EVERY)
                for value in self.classes:
                    combo.addItem(_class_text(value), value)
                value = EVERY if key == "positive" and remembered.get("all_classes") else \
                    remembered.get(key)
                if value == EVERY:
                    combo.setCurrentIndex(1)
                elif value is not None:
                    index = combo.findText(_class_text(value))
                    if index < 0:
                        index = combo.findText(str(value))
                    combo.setCurrentIndex(max(index, 0))  # not found: the first entry
        if "skip_bad_rows" in remembered:
            with QtCore.QSignalBlocker(self.skipCheck):
                self.skipCheck.setChecked(bool(remembered["skip_bad_rows"]))

    def _why_not(self) -> str:
        if self._error is not None:
            return f"This file cannot be imported: {self._error}"
        cols = [combo.currentData() for _, combo in self._roles()]
        if None in cols:
            missing = [role for (role, _), k in zip(self._roles(), cols, strict=True) if k is None]
            return f"Choose the {' and the '.join(missing)} column" \
                   f"{'s' if len(missing) > 1 else ''}."
        if len(set(cols)) < 3:
            return "The x, y and label columns must be three different columns."
        if self.reading:
            return "Reading the file…"
        trial = self._trial
        if isinstance(trial, Cancelled):
            return "Reading was cancelled; change a choice to read the file again."
        if isinstance(trial, FormatError) and not isinstance(trial, tabular.TooManyLabels):
            return str(trial)
        if trial is None:
            return "Reading the file…"
        if self.bad_lines and not self.skipCheck.isChecked():
            return (f"{plural(len(self.bad_lines), 'row')} cannot be read (lines listed "
                    "above): tick “Skip these rows” to import the others, or choose other "
                    "columns.")
        if len(self.classes) > 2:
            positive, negative = self.positiveCombo.currentData(), self.negativeCombo.currentData()
            if positive == EVERY and len(self.classes) > MAX_CLASSES:
                return (f"The label column has {len(self.classes)} values; a data set has at "
                        f"most {MAX_CLASSES} classes: choose the +1 class instead.")
            if positive == EVERY:
                return ""
            if positive is None:
                return (f"The label column has {len(self.classes)} values: choose the +1 "
                        "class, and the −1 class or all the other values.")
            if negative is not None and negative == positive:
                return "The +1 and the −1 class must be different values."
        return ""

    def _update(self, *_args) -> None:
        if self._finishing:
            return
        self.negativeCombo.setEnabled(self.positiveCombo.currentData() != EVERY)
        why = self._why_not()
        self.okButton.setEnabled(not why)
        self.reasonLabel.setText(why)
        self.fit()

    def fit(self) -> None:
        """Make room for what shows: no section runs under another.

        A wrapped label's height depends on the width, so the minimum size
        understates the need: the minimum height becomes what the layout needs
        at its width, the preview giving up rows when the screen is too short.
        """
        layout = self.layout()

        def needed() -> int:
            layout.activate()
            height = layout.totalMinimumSize().height()
            if layout.hasHeightForWidth():
                height = max(height, layout.totalHeightForWidth(self.width()))
            return height

        need = needed()
        screen = self.screen()
        room = screen.availableGeometry().height() - _FRAME_PX if screen is not None else need
        preview = max(_PREVIEW_MIN_PX, min(_PREVIEW_PX, _PREVIEW_PX - (need - room)))
        if preview != self.previewTable.minimumHeight():
            self.previewTable.setMinimumHeight(preview)
            need = needed()
        self.setMinimumHeight(need)
        if self.height() < need:
            self.resize(self.width(), need)

    def choice(self) -> dict:
        """The user's choice, as remembered for this file (and the read options)."""
        names = {role: self._column_name(combo) for role, combo in self._roles()}
        many = len(self.classes) > 2
        every = many and self.positiveCombo.currentData() == EVERY
        return {"delimiter": self.delimiterCombo.currentData(),
                "header": self.headerCombo.currentData(), **names,
                "positive": self.positiveCombo.currentData() if many and not every else None,
                "negative": self.negativeCombo.currentData() if many and not every else None,
                "all_classes": every, "skip_bad_rows": self.skipCheck.isChecked()}

    def accept(self) -> None:
        """Read with the chosen options (reusing the read already done when the same)."""
        self._update()
        if not self.okButton.isEnabled():
            return
        trial = self._trial
        if isinstance(trial, tabular.TableResult) and len(self.classes) <= 2:
            self._finish(trial)
            return
        options = dict(self._read_options())
        choice = self.choice()
        options.update(positive=choice["positive"], negative=choice["negative"],
                       all_classes=choice["all_classes"], skip_bad_rows=bool(self.bad_lines))
        self.okButton.setEnabled(False)
        self.reasonLabel.setText("Reading the file…")
        self._start_read(options, final=True)

    def _finish(self, table: tabular.TableResult) -> None:
        self.table = table
        self.imported.emit(table)
        self.readFinished.emit()
        super().accept()

    def reject(self) -> None:
        """Close without importing anything (a read in progress is cancelled)."""
        self._cancel.set()
        self._token += 1
        super().reject()
