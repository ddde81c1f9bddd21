"""Typing in the caption box rebuilds only the rows of the numbers a keystroke changed."""

from __future__ import annotations

import time

import pytest
from PySide6 import QtGui, QtWidgets

from perceptron_gui.ui.widgets.caption_box import CaptionBox

# timing-sensitive: run alone, after the parallel part (Makefile)
pytestmark = pytest.mark.serial


def _combos(box) -> list:
    return box.findChildren(QtWidgets.QComboBox, "numberQuantity")


def test_a_keystroke_among_many_numbers_keeps_their_rows(qtbot):
    box = CaptionBox(lambda: None)
    qtbot.addWidget(box)
    caption = " ".join(str(i) for i in range(100))[:290]  # about 100 numbers
    box.set_step(caption, {})
    before = _combos(box)
    count = len(before)
    assert count > 90
    box.edit.moveCursor(QtGui.QTextCursor.MoveOperation.End)
    started = time.perf_counter()
    qtbot.keyClicks(box.edit, " x")
    took = time.perf_counter() - started
    assert _combos(box) == before  # the same rows: none rebuilt for a word
    qtbot.keyClicks(box.edit, " 7")  # a new number: one new row
    after = _combos(box)
    assert len(after) == count + 1 and after[:count] == before
    assert took < 5.0  # two keystrokes; were about 1 s when all rows were rebuilt
