"""The caption box of the demo recorder and editor: a caption, its live numbers, its checks.

*Quantities* inserts a placeholder (``{k}``, ``{bound}`` …) the demo fills in.  Every
number typed gets a row: the quantity it states (those agreeing now offered first)
or "not a quantity", and whether it agrees; its check keeps a saved demo honest.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6 import QtCore, QtWidgets

from ...core.demos.captions import (
    PLACEHOLDERS,
    literal_numbers,
    measure,
    states,
    typed_value,
)
from ...core.demos.checks import CHECKS
from ...core.demos.steps import MAX_CAPTION_CHARS
from ...core.text import fmt, fmt_count, fmt_percent, fmt_vec
from . import Guard

__all__ = ["CaptionBox", "NOT_A_QUANTITY"]

#: The first choice of a number's row: the number states nothing the program measures.
NOT_A_QUANTITY = "not a quantity"
#: The checks a typed number can state.
_NUMERIC = [name for name, check in CHECKS.items() if check.kind in ("number", "count")]


class CaptionBox(QtWidgets.QWidget):
    """A caption editor with placeholders and the checks of its typed numbers; ``source()``
    gives what to measure now (a ``DemoPlayer`` or a ``Here``), or None (values read "—")."""

    changed = QtCore.Signal()

    def __init__(self, source: Callable[[], object | None], parent=None):
        super().__init__(parent)
        self._source = source
        self._other_checks: dict = {}
        self._loading = Guard()
        self.edit = QtWidgets.QPlainTextEdit(objectName="captionEdit")
        self.edit.setPlaceholderText("What to say at this step. Numbers can be live: "
                                     "{k}, {bound}… (Quantities)")
        self.edit.setTabChangesFocus(True)
        line = self.edit.fontMetrics().lineSpacing()
        self.edit.setFixedHeight(int(line * 3.6))
        self.quantities = QtWidgets.QToolButton(objectName="quantitiesButton")
        self.quantities.setText("Quantities")
        self.quantities.setToolTip("Insert a live number: the demo fills it in as it plays")
        self.quantities.setPopupMode(QtWidgets.QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu = QtWidgets.QMenu(self.quantities)
        self.menu.aboutToShow.connect(self._fill_menu)
        self.quantities.setMenu(self.menu)
        self.count = QtWidgets.QLabel(objectName="captionCount")
        self.rows = QtWidgets.QFormLayout()
        self.rows.setContentsMargins(0, 0, 0, 0)
        self.others = QtWidgets.QLabel(objectName="otherChecks")
        self.others.setWordWrap(True)
        top = QtWidgets.QHBoxLayout()
        top.addWidget(self.edit, 1)
        side = QtWidgets.QVBoxLayout()
        side.addWidget(self.quantities)
        side.addWidget(self.count)
        side.addStretch(1)
        top.addLayout(side)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addLayout(self.rows)
        layout.addWidget(self.others)
        self._combos: list[tuple[str, QtWidgets.QComboBox, QtWidgets.QLabel]] = []
        self._shown_words: list[str] = []
        self._values: dict = {}  # measured once per state shown (typing measures nothing new)
        self._matches: dict = {}  # the quantities each typed number agrees with, as _values
        self.edit.textChanged.connect(self._on_text)
        self.set_step("", {})

    def set_step(self, caption: str, checks: dict) -> None:
        """Show ``caption`` and ``checks`` (a step's), without announcing a change."""
        self._values.clear()
        self._matches.clear()
        with self._loading:
            typed = [t for t, _ in literal_numbers(caption)]
            self._other_checks = {k: v for k, v in checks.items()
                                  if not any(_states(t, k, v) for t in typed)}
            attached = {k: v for k, v in checks.items() if k not in self._other_checks}
            names: list[str | None] = []
            for t in typed:  # each number keeps the check of its value (a saved step's)
                name = next((k for k, v in attached.items()
                             if _states(t, k, v) and k not in names), None)
                names.append(name)
            self.edit.setPlainText(caption)
            self._shown_words = _words(caption)
            while self.rows.rowCount():  # another step: every row measured anew
                self.rows.removeRow(0)
            self._combos = []
            self._rebuild(names, suggest=False)

    def caption(self) -> str:
        """The caption as typed."""
        return self.edit.toPlainText().strip()

    def checks(self) -> dict:
        """The step's checks: the typed numbers' quantities, and the other checks kept."""
        out = dict(self._other_checks)
        for text, combo, _ in self._combos:
            name = combo.currentData()
            if name:
                out[name] = typed_value(text)
        return out

    def unchecked(self) -> list[str]:
        """The typed numbers attached to no quantity, as written."""
        return [text for text, combo, _ in self._combos if not combo.currentData()]

    def mismatches(self) -> list[str]:
        """One line per typed number whose quantity's value now disagrees."""
        source = self._source()
        if source is None:
            return []
        return [f"“{text}” is not {CHECKS[name].doc} (now "
                f"{_value_text(self._measure(name, source), name)})"
                for text, combo, _ in self._combos
                if (name := combo.currentData()) and not self._agrees(text, name, source)]

    def refresh(self) -> None:
        """Measure again (the state on screen changed): marks and suggestions follow."""
        self._values.clear()
        self._matches.clear()
        for text, combo, mark in self._combos:
            self._mark(text, combo, mark)

    def _measure(self, name: str, source):
        """The check ``name`` on ``source``, measured once per state shown (see :meth:`refresh`)."""
        if name not in self._values:
            self._values[name] = measure(name, source)
        return self._values[name]

    def _on_text(self) -> None:
        text = self.edit.toPlainText()
        if len(text) > MAX_CAPTION_CHARS:
            cursor = self.edit.textCursor()
            self.edit.setPlainText(text[:MAX_CAPTION_CHARS])
            cursor.setPosition(MAX_CAPTION_CHARS)
            self.edit.setTextCursor(cursor)
            return
        if not self._loading:
            self._rebuild(self._carried(), suggest=True)
            self.changed.emit()

    def _carried(self) -> list:
        """The quantity each new number keeps: the n-th's if only numbers changed, else its own."""
        before = [(text, combo.currentData() or None) for text, combo, _ in self._combos]
        now = self.edit.toPlainText()
        typed = [t for t, _ in literal_numbers(now)]
        same_words = _words(now) == self._shown_words
        self._shown_words = _words(now)
        if len(typed) == len(before) and same_words:
            return [name for _, name in before]
        names: list[str | None] = []
        for t in typed:
            names.append(next((n for bt, n in before if bt == t and n and n not in names), None))
        return names

    def _rebuild(self, names: list, suggest: bool) -> None:
        """A row per typed number (its quantity and a mark), rebuilt only where it changed."""
        source = self._source()
        used: set[str] = {n for n in names if n}
        typed = [text for text, _value in literal_numbers(self.edit.toPlainText())]
        rows: list[tuple[str, QtWidgets.QComboBox, QtWidgets.QLabel]] = []
        for i, text in enumerate(typed):
            matching = self._matching(text, source) if source is not None else []
            wanted = names[i] if i < len(names) else None
            if wanted is not None and not states(text, wanted):  # "%" typed or taken away
                wanted = None
            if wanted is None and suggest and matching:
                wanted = next((n for n in matching if n not in used), None)
                used.add(wanted)
            if i < len(self._combos):
                old_text, old_combo, _old_mark = self._combos[i]
                if old_text == text and (old_combo.currentData() or None) == wanted:
                    rows.append(self._combos[i])
                    continue
                self.rows.removeRow(i)
            rows.append(self._add_row(i, text, matching, wanted))
        while self.rows.rowCount() > len(typed):
            self.rows.removeRow(len(typed))
        self._combos = rows
        kept = ", ".join(f"{k} = {_json(v)}" for k, v in self._other_checks.items())
        self.others.setText(f"Also checks: {kept}" if kept else "")
        self.others.setVisible(bool(kept))
        self.count.setText(f"{len(self.edit.toPlainText())}/{MAX_CAPTION_CHARS}")

    def _add_row(self, i: int, text: str, matching: list[str], wanted: str | None):
        combo = QtWidgets.QComboBox(objectName="numberQuantity")
        combo.addItem(NOT_A_QUANTITY, "")
        for name in matching + [n for n in _NUMERIC if n not in matching and states(text, n)]:
            combo.addItem(("✓ " if name in matching else "") + CHECKS[name].doc, name)
            combo.setItemData(combo.count() - 1, f"The check “{name}” of the demo file",
                              QtCore.Qt.ItemDataRole.ToolTipRole)
        if wanted is not None:
            combo.setCurrentIndex(combo.findData(wanted))
        mark = QtWidgets.QLabel(objectName="numberMark")
        combo.currentIndexChanged.connect(
            lambda _i, t=text, c=combo, m=mark: self._on_choice(t, c, m))
        row = QtWidgets.QHBoxLayout()
        row.addWidget(combo, 1)
        row.addWidget(mark)
        self.rows.insertRow(i, f"“{text}” states", row)
        self._mark(text, combo, mark)
        return text, combo, mark

    def _matching(self, text: str, source) -> list[str]:
        """The numeric checks that now agree with ``text`` to its digits (once per state)."""
        if text not in self._matches:
            self._matches[text] = [name for name in _NUMERIC if states(text, name)
                                   and self._agrees(text, name, source)]
        return self._matches[text]

    def _agrees(self, text: str, name: str, source) -> bool:
        value = self._measure(name, source) if source is not None else None
        return value is not None and CHECKS[name].failure(name, value, typed_value(text)) is None

    def _on_choice(self, text, combo, mark) -> None:
        self._mark(text, combo, mark)
        if not self._loading:
            self.changed.emit()

    def _mark(self, text: str, combo: QtWidgets.QComboBox, mark: QtWidgets.QLabel) -> None:
        name = combo.currentData()
        source = self._source()
        if not name:
            mark.setText("not checked")
            mark.setStyleSheet("")
            return
        value = self._measure(name, source) if source is not None else None
        ok = self._agrees(text, name, source)
        mark.setText(("✓ " if ok else "✗ now ") + _value_text(value, name))
        mark.setStyleSheet("" if ok else "color: #c0392b; font-weight: bold;")

    def _fill_menu(self) -> None:
        self.menu.clear()
        source = self._source()
        for key, ph in PLACEHOLDERS.items():
            value = self._measure(ph.check, source) if source is not None else None
            now = ph.write(value) if value is not None else "—"
            act = self.menu.addAction(f"{{{key}}}  {ph.label} (now {now})")
            act.triggered.connect(lambda _=False, k=key: self._insert(k))

    def _insert(self, key: str) -> None:
        self.edit.insertPlainText(f"{{{key}}}")
        self.edit.setFocus(QtCore.Qt.FocusReason.OtherFocusReason)


def _words(caption: str) -> list[str]:
    """The caption's words with its numbers left out (what stays when a number is retyped)."""
    spans = [text for text, _ in literal_numbers(caption)]
    for text in spans:
        caption = caption.replace(text, " ", 1)
    return caption.split()


def _states(text: str, name: str, value) -> bool:
    """Whether the typed ``text`` is the number a saved check ``name = value`` states."""
    return name in _NUMERIC and states(text, name) and value == typed_value(text)


def _value_text(value, name: str = "") -> str:
    """A measured value as the readouts write it, with the digits a check compares."""
    if value is None:
        return "—"
    if name and CHECKS[name].percent:
        return fmt_percent(float(value))
    if np.ndim(value):
        return fmt_vec(value, 4)
    return fmt_count(value) if isinstance(value, (int, np.integer)) else fmt(float(value), 4)


def _json(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
