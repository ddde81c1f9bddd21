"""Help ▸ Keyboard and mouse: even rows, one line each, the whole text at hand."""

from __future__ import annotations

import re

from perceptron_gui.ui.keyboard_help import KeyboardHelp


def test_every_row_is_one_line_of_the_same_height(qtbot, window):
    dialog = KeyboardHelp(window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    table = dialog.table
    heights = {table.rowHeight(i) for i in range(table.rowCount())}
    assert len(heights) == 1
    line = table.fontMetrics().height()
    assert line <= heights.pop() < 2 * line
    assert not table.wordWrap()
    for i in range(table.rowCount()):
        for j in range(2):
            item = table.item(i, j)
            assert item.toolTip() == item.text()  # elided or not, the whole text is there
    # as wide as the longest row needs on a 1280 px screen: every text fits
    dialog.resize(1240, 560)
    dialog.layout().activate()
    metrics = table.fontMetrics()
    assert all(metrics.horizontalAdvance(table.item(i, 0).text()) <= table.columnWidth(0)
               for i in range(table.rowCount()))
    assert all(metrics.horizontalAdvance(table.item(i, 1).text()) + 8 <= table.columnWidth(1)
               for i in range(table.rowCount())), max(
        (table.item(i, 1).text() for i in range(table.rowCount())), key=len)
    assert not any("(P)" in table.item(i, 1).text() for i in range(table.rowCount()))
    # Delete and Backspace are listed once, with the canvas's keys (tool.KEYS)
    keys = [key for i in range(table.rowCount())
            for key in re.split(r", | or ", table.item(i, 0).text())]
    assert keys.count("Delete") == keys.count("Backspace") == 1
    dialog.close()
