"""The import dialog: every file shape of issue 12, columns, classes, bad rows, undo, memory."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from PySide6 import QtCore, QtWidgets

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.core.io import tabular
from perceptron_gui.core.io.tabular import reader
from perceptron_gui.ui.features.import_dialog import OTHERS, ImportDialog

IRIS_LIKE = ("6,4,setosa,versicolor,virginica\n5.1,3.5,1.4,0.2,0\n4.9,3.0,1.4,0.2,0\n"
             "7.0,3.2,4.7,1.4,1\n6.4,3.2,4.5,1.5,1\n6.3,3.3,6.0,2.5,2\n5.8,2.7,5.1,1.9,2\n")
EXTRA = ("id,name,height,weight,age,group\n10,ann,1.6,55.5,31,a\n11,bob,1.8,80.1,45,b\n"
         "12,cy,1.7,70.2,27,a\n13,di,1.5,49.9,52,b\n14,ed,1.9,90.3,38,a\n")

#: name: (content, the guessed (x, y, label), points, labels) — the shapes of test_tabular.py
SHAPES = {
    "plain.csv": ("x,y,label\n0.5,-1.25,1\n-0.75,2,-1\n", ("x", "y", "label"),
                  [[0.5, -1.25], [-0.75, 2.0]], [1, -1]),
    "pandas.csv": (",a,b,kind\n0,1.5,4.0,u\n1,2.5,5.0,v\n2,3.5,6.0,u\n", ("a", "b", "kind"),
                   [[1.5, 4.0], [2.5, 5.0], [3.5, 6.0]], [-1, 1, -1]),
    "r_style.csv": ("x,y,label\n0,1,2,a\n1,3,4,b\n", ("x", "y", "label"),
                    [[1.0, 2.0], [3.0, 4.0]], [-1, 1]),
    "extra.csv": (EXTRA, ("id", "height", "group"),
                  [[10, 1.6], [11, 1.8], [12, 1.7], [13, 1.5], [14, 1.9]], [-1, 1, -1, 1, -1]),
    "excel.csv": ("x,y,label,\r\n1,2,a,\r\n3,4,b,\r\n", ("x", "y", "label"),
                  [[1.0, 2.0], [3.0, 4.0]], [-1, 1]),
    "european.csv": ("x;y;label\n1,5;2,25;a\n-0,5;3;b\n", ("x", "y", "label"),
                     [[1.5, 2.25], [-0.5, 3.0]], [-1, 1]),
    "european_headerless.csv": ("1,5;2,3;a\n2,5;1;b\n", ("1", "2", "3"),
                                [[1.5, 2.3], [2.5, 1.0]], [-1, 1]),
    "tabs.tsv": ("x\ty\tlabel\n1.5\t2\tyes\n3\t4\tno\n", ("x", "y", "label"),
                 [[1.5, 2.0], [3.0, 4.0]], [1, -1]),
    "spaces.txt": ("  x    y  label\n 1.5   2  1\n3 4     0\n\n", ("x", "y", "label"),
                   [[1.5, 2.0], [3.0, 4.0]], [1, -1]),
    "bom.csv": ("\ufeffx,y,label\n1,2,1\n3,4,-1\n", ("x", "y", "label"),
                [[1.0, 2.0], [3.0, 4.0]], [1, -1]),
    "headerless.csv": ("0.5,1.2,1\n0.7,-1,-1\n", ("1", "2", "3"),
                       [[0.5, 1.2], [0.7, -1.0]], [1, -1]),
}


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


def close_dialog(qtbot, window) -> None:
    """Close the window's import dialog, if one is open (the next case of a walk opens its
    own)."""
    if window.files.csv.dialog is not None:
        window.files.csv.dialog.reject()
    qtbot.waitUntil(lambda: window.files.csv.dialog is None)


def open_dialog(qtbot, window, path) -> ImportDialog:
    dialog = window.files.csv.show_import_dialog(path)
    qtbot.waitUntil(lambda: dialog.isVisible())
    qtbot.waitUntil(lambda: not dialog.reading, timeout=20_000)
    return dialog


def accept(qtbot, window, dialog) -> None:
    assert dialog.okButton.isEnabled(), dialog.reason
    with qtbot.waitSignal(dialog.imported, timeout=20_000):
        dialog.okButton.click()
    qtbot.waitUntil(lambda: window.files.csv.dialog is None)  # closed (and deleted)


def chosen(dialog) -> tuple:
    return tuple(dialog.sniffed.columns[c.currentData()]
                 for c in (dialog.xCombo, dialog.yCombo, dialog.labelCombo))


def select(combo: QtWidgets.QComboBox, text: str) -> None:
    index = next(i for i in range(combo.count()) if combo.itemText(i).endswith(text))
    combo.setCurrentIndex(index)


def test_every_shape_shows_a_preview_guesses_right_and_imports_in_one_step(qtbot, window,
                                                                           tmp_path, subtests):
    for name in sorted(SHAPES):  # one window: each import is undone
        with subtests.test(name):
            _import_shape(qtbot, window, tmp_path, name)
        close_dialog(qtbot, window)


def _import_shape(qtbot, window, tmp_path, name):
    text, guess, X, y = SHAPES[name]
    path = write(tmp_path, name, text)
    before = generators.separable(5, seed=2)
    assert window.push_edit(ReplaceAll.from_dataset(before, "before"))
    steps = window.undo_stack.count()
    dialog = open_dialog(qtbot, window, path)
    sn = tabular.sniff(path)
    table = dialog.previewTable
    assert table.rowCount() == len(sn.preview) >= 2
    assert table.columnCount() == len(sn.columns)
    assert table.item(0, 1).text() == sn.preview[0][1]
    assert chosen(dialog) == guess
    assert dialog.encodingLabel.text().startswith("UTF-8")
    assert window.workspace.dataset == before  # nothing changes before OK
    accept(qtbot, window, dialog)
    ds = window.workspace.dataset
    assert ds.X.tolist() == X and ds.y.tolist() == y
    assert window.undo_stack.count() == steps + 1
    window.undo_stack.undo()
    assert window.workspace.dataset == before


def test_changing_a_column_reads_again(qtbot, window, tmp_path):
    dialog = open_dialog(qtbot, window, write(tmp_path, "e.csv", EXTRA))
    with qtbot.waitSignal(dialog.readFinished, timeout=20_000):
        select(dialog.yCombo, "weight")
    with qtbot.waitSignal(dialog.readFinished, timeout=20_000):
        select(dialog.xCombo, "height")
    assert chosen(dialog) == ("height", "weight", "group")
    accept(qtbot, window, dialog)
    assert window.workspace.dataset.X[0].tolist() == [1.6, 55.5]


def test_the_same_column_twice_disables_ok_with_a_reason(qtbot, window, tmp_path):
    dialog = open_dialog(qtbot, window, write(tmp_path, "e.csv", EXTRA))
    select(dialog.yCombo, "id")
    assert not dialog.okButton.isEnabled()
    assert dialog.reason == "The x, y and label columns must be three different columns."
    dialog.reject()  # a window-modal dialog left open takes the next test's input
    qtbot.waitUntil(lambda: window.files.csv.dialog is None)


def test_more_than_two_labels_asks_for_the_classes(qtbot, window, tmp_path):
    path = write(tmp_path, "iris.csv", IRIS_LIKE)
    dialog = open_dialog(qtbot, window, path)
    assert dialog.classBox.isVisible()
    assert dialog.classes == ("setosa", "versicolor", "virginica")
    assert not dialog.okButton.isEnabled()
    assert "The label column has 3 values: choose the +1 class" in dialog.reason
    select(dialog.positiveCombo, "versicolor")
    select(dialog.negativeCombo, "versicolor")
    assert dialog.reason == "The +1 and the −1 class must be different values."
    select(dialog.negativeCombo, "setosa")
    accept(qtbot, window, dialog)
    ds = window.workspace.dataset
    assert ds.X.tolist() == [[5.1, 3.5], [4.9, 3.0], [7.0, 3.2], [6.4, 3.2]]
    assert ds.y.tolist() == [-1, -1, 1, 1]
    assert "Left out 2 rows of other classes" in window.statusBar().currentMessage()
    # one value against the rest
    dialog = open_dialog(qtbot, window, path)
    select(dialog.positiveCombo, "virginica")
    dialog.negativeCombo.setCurrentIndex(dialog.negativeCombo.findText(OTHERS))
    accept(qtbot, window, dialog)
    assert window.workspace.dataset.y.tolist() == [-1, -1, -1, -1, 1, 1]


def test_bad_rows_are_listed_with_their_lines_and_skipped_only_when_asked(qtbot, window,
                                                                           tmp_path):
    path = write(tmp_path, "gaps.csv", "x,y,label\n1,2,a\n3,4,b\nNA,5,a\n6,7,b\n8,,a\n9,9,b\n")
    dialog = open_dialog(qtbot, window, path)
    assert dialog.bad_lines == (4, 6)
    assert dialog.badRowsLabel.isVisible() and dialog.skipCheck.isVisible()
    assert "on lines 4, 6." in dialog.badRowsLabel.text()
    assert not dialog.skipCheck.isChecked() and not dialog.okButton.isEnabled()
    assert "tick “Skip these rows”" in dialog.reason
    dialog.skipCheck.setChecked(True)
    accept(qtbot, window, dialog)
    assert window.workspace.dataset.n == 4
    message = window.statusBar().currentMessage()
    assert "Skipped 2 rows with a missing or non-numeric value (lines 4, 6)" in message


def test_cancel_leaves_everything_unchanged(qtbot, window, tmp_path):
    before = generators.separable(7, seed=3)
    assert window.push_edit(ReplaceAll.from_dataset(before, "before"))
    steps, index = window.undo_stack.count(), window.undo_stack.index()
    dialog = open_dialog(qtbot, window, write(tmp_path, "a.csv", "x,y,label\n1,2,a\n3,4,b\n"))
    dialog.buttons.button(QtWidgets.QDialogButtonBox.Cancel).click()
    qtbot.waitUntil(lambda: window.files.csv.dialog is None)
    assert window.workspace.dataset == before
    assert (window.undo_stack.count(), window.undo_stack.index()) == (steps, index)
    assert window.files.csv.remembered_choice(tmp_path / "a.csv") == {}


def test_the_choice_is_remembered_per_file(qtbot, window, tmp_path):
    path = write(tmp_path, "e.csv", EXTRA)
    other = write(tmp_path, "f.csv", EXTRA)
    dialog = open_dialog(qtbot, window, path)
    with qtbot.waitSignal(dialog.readFinished, timeout=20_000):
        select(dialog.yCombo, "age")
    with qtbot.waitSignal(dialog.readFinished, timeout=20_000):
        select(dialog.xCombo, "height")
    accept(qtbot, window, dialog)
    assert window.files.csv.remembered_choice(path)["y"] == "age"
    again = open_dialog(qtbot, window, path)
    assert chosen(again) == ("height", "age", "group")
    again.reject()
    fresh = open_dialog(qtbot, window, other)
    assert chosen(fresh) == ("id", "height", "group")
    fresh.reject()


def test_remembered_classes_and_skip(qtbot, window, tmp_path):
    path = write(tmp_path, "iris.csv", IRIS_LIKE.replace("6.3,3.3", "NA,3.3"))
    dialog = open_dialog(qtbot, window, path)
    select(dialog.positiveCombo, "virginica")
    select(dialog.negativeCombo, "setosa")
    dialog.skipCheck.setChecked(True)
    accept(qtbot, window, dialog)
    assert window.workspace.dataset.y.tolist() == [-1, -1, 1]
    again = open_dialog(qtbot, window, path)
    assert again.positiveCombo.currentText() == "virginica"
    assert again.negativeCombo.currentText() == "setosa"
    assert again.skipCheck.isChecked() and again.okButton.isEnabled()
    again.reject()


def test_delimiter_choice_sniffs_again(qtbot, window, tmp_path):
    path = write(tmp_path, "m.csv", "x;y,label\n1;2,a\n3;4,b\n5;6,a\n")
    dialog = open_dialog(qtbot, window, path)
    assert dialog.sniffed.delimiter == ";" and dialog.previewTable.columnCount() == 2
    assert dialog.previewTable.horizontalHeaderItem(1).text() == "y,label"
    dialog.delimiterCombo.setCurrentIndex(dialog.delimiterCombo.findData(","))
    assert dialog.sniffed.delimiter == "," and dialog.sniffed.columns == ("x;y", "label")
    assert dialog.previewTable.horizontalHeaderItem(0).text() == "x;y"
    assert not dialog.okButton.isEnabled() and dialog.reason.startswith("Choose the")
    dialog.reject()


def test_header_choice_sniffs_again(qtbot, window, tmp_path):
    rows = "".join(f"{i},{i % 3},{'ab'[i % 2]}\n" for i in range(8))
    path = write(tmp_path, "h.csv", "x,y,label\n" + rows)
    dialog = open_dialog(qtbot, window, path)
    assert dialog.sniffed.header and dialog.previewTable.rowCount() == 8
    with qtbot.waitSignal(dialog.readFinished, timeout=20_000):
        dialog.headerCombo.setCurrentIndex(dialog.headerCombo.findData(False))
    assert dialog.sniffed.header is False and dialog.previewTable.rowCount() == 9
    assert dialog.previewTable.item(0, 0).text() == "x"
    assert chosen(dialog) == ("1", "2", "3")
    assert dialog.bad_lines == (1,)  # the names are not numbers: line 1 is a bad row now
    dialog.reject()


def test_a_file_that_is_not_text_disables_ok_with_the_reason(qtbot, window, tmp_path):
    path = tmp_path / "u.csv"
    path.write_bytes("x,y,label\n1,2,1\n".encode("utf-16"))
    dialog = open_dialog(qtbot, window, path)
    assert not dialog.okButton.isEnabled()
    assert dialog.reason.startswith("This file cannot be imported: the file is UTF-16")
    dialog.reject()


def test_a_large_file_reads_in_a_worker_with_progress_and_cancel(qtbot, window, tmp_path,
                                                                 monkeypatch):
    monkeypatch.setattr(reader, "_ONE_READ_BYTES", 0)  # chunks: progress between them
    monkeypatch.setattr(reader, "_CHUNK_ROWS", 2000)
    report = reader._report

    def slow_report(*args):  # an idle machine reads 150 chunks before Cancel is clicked
        time.sleep(0.01)
        return report(*args)

    monkeypatch.setattr(reader, "_report", slow_report)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300_000, 2)).round(4)
    path = tmp_path / "big.csv"
    with open(path, "w") as f:
        f.write("x,y,label\n" + "".join(f"{a},{b},{1 if a > 0 else -1}\n"
                                        for a, b in X.tolist()))
    dialog = window.files.csv.show_import_dialog(path)
    assert dialog.reading and dialog.progressBar.isVisibleTo(dialog)
    assert dialog.reason == "Reading the file…" and not dialog.okButton.isEnabled()
    qtbot.waitUntil(lambda: dialog.progressBar.value() > 0, timeout=20_000)
    dialog.cancelReadButton.click()
    qtbot.waitUntil(lambda: not dialog.reading, timeout=20_000)
    assert dialog.reason.startswith("Reading was cancelled")
    assert window.workspace.dataset.n == 0
    monkeypatch.setattr(reader, "_CHUNK_ROWS", 100_000)
    monkeypatch.setattr(reader, "_report", report)
    with qtbot.waitSignal(dialog.readFinished, timeout=60_000):
        select(dialog.xCombo, "y")
        select(dialog.yCombo, "x")
    accept(qtbot, window, dialog)
    assert window.workspace.dataset.X[:, 1].tolist() == X[:, 0].tolist()


def test_file_open_on_a_table_shows_the_dialog(qtbot, window, tmp_path, monkeypatch):
    path = write(tmp_path, "a.tsv", "x\ty\tlabel\n1\t2\ta\n3\t4\tb\n")
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    window.files.actionOpen.trigger()
    dialog = window.files.csv.dialog
    assert isinstance(dialog, ImportDialog)
    qtbot.waitUntil(lambda: not dialog.reading, timeout=20_000)
    accept(qtbot, window, dialog)
    assert window.workspace.dataset.n == 2
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    window.files.csv.actionImportCsv.trigger()
    assert isinstance(window.files.csv.dialog, ImportDialog)
    window.files.csv.dialog.reject()


def _in_dialog(dialog, widget) -> QtCore.QRect:
    return QtCore.QRect(widget.mapTo(dialog, QtCore.QPoint(0, 0)), widget.size())


def test_no_section_runs_under_another(qtbot, window, tmp_path, subtests):
    for case, text in {
        "classes": IRIS_LIKE,  # the classes section
        "classes-and-bad-rows":
            IRIS_LIKE.replace("6.3,3.3", "NA,3.3").replace("4.9,3.0", "4.9,"),
        "bad-rows": "x,y,label\n1,2,a\n3,4,b\nNA,5,a\n6,7,b\n8,,a\n9,9,b\n",
    }.items():  # one window, a file and a dialog each
        with subtests.test(case):
            dialog = open_dialog(qtbot, window, write(tmp_path, f"{case}.csv", text))
            _check_no_section_runs_under_another(dialog)
        close_dialog(qtbot, window)


def _check_no_section_runs_under_another(dialog) -> None:
    assert dialog.classBox.isVisible() or dialog.badRowsLabel.isVisible()
    dialog.layout().activate()
    shown = [w for w in (dialog.previewTable, dialog.xCombo, dialog.yCombo, dialog.labelCombo,
                         dialog.classBox, dialog.badRowsLabel, dialog.skipCheck,
                         dialog.reasonLabel, dialog.buttons) if w.isVisible()]
    rects = [_in_dialog(dialog, w) for w in shown]
    for i, a in enumerate(rects):
        assert dialog.rect().contains(a), shown[i].objectName()
        for j in range(i + 1, len(rects)):
            assert not a.intersects(rects[j]), (shown[i].objectName(), shown[j].objectName())
    preview = rects[0]
    assert preview.bottom() < _in_dialog(dialog, dialog.xCombo).top()
    assert dialog.height() <= dialog.screen().availableGeometry().height()


def test_detected_says_what_was_detected(qtbot, window, tmp_path, subtests):
    for text, delimiter, header in [
        ("x\ty\tlabel\n1.5\t2\tyes\n3\t4\tno\n", "tab", "the first row names the columns"),
        ("1;2;a\n3;4;b\n", "semicolon", "no header row"),
        ("x \t y\t\tlabel\n1.0 \t 2.0\t\t1\n\t2.5   3.5 \t-1\n", "whitespace",
         "the first row names the columns"),
    ]:  # one window, a file and a dialog each
        with subtests.test(delimiter):
            dialog = open_dialog(qtbot, window, write(tmp_path, f"{delimiter}.txt", text))
            assert dialog.delimiterCombo.currentText() == f"Detected: {delimiter}"
            assert dialog.headerCombo.currentText() == f"Detected: {header}"
        close_dialog(qtbot, window)


def test_the_file_dialogs_start_in_a_folder_that_exists(qtbot, window, tmp_path, monkeypatch):
    # a Documents folder that does not exist put "Documents" in the file name field
    from PySide6.QtCore import QStandardPaths

    home = tmp_path / "home"
    home.mkdir()
    real = QStandardPaths.writableLocation

    def location(kind):
        if kind == QStandardPaths.DocumentsLocation:
            return str(home / "Documents")  # not made
        if kind == QStandardPaths.HomeLocation:
            return str(home)
        return real(kind)

    monkeypatch.setattr(QStandardPaths, "writableLocation", location)
    assert window.files.folder() == str(home)
    (home / "Documents").mkdir()
    assert window.files.folder() == str(home / "Documents")


def test_every_class_can_be_kept_and_the_choice_is_remembered(qtbot, window, tmp_path):
    from perceptron_gui.ui.features.import_dialog import EVERY

    path = write(tmp_path, "iris.csv", IRIS_LIKE)
    dialog = open_dialog(qtbot, window, path)
    dialog.positiveCombo.setCurrentIndex(dialog.positiveCombo.findData(EVERY))
    assert dialog.okButton.isEnabled() and not dialog.negativeCombo.isEnabled()
    accept(qtbot, window, dialog)
    ds = window.workspace.dataset
    assert ds.classes == (0, 1, 2) and ds.class_names == ("setosa", "versicolor", "virginica")
    assert ds.y.tolist() == [0, 0, 1, 1, 2, 2]
    assert "3 classes: setosa, versicolor, virginica" in window.statusBar().currentMessage()
    assert [a.iconText() for a in window.classes.actions if a.isEnabled()] == [
        "● setosa", "■ versicolor", "▼ virginica"]
    again = open_dialog(qtbot, window, path)
    assert again.positiveCombo.currentData() == EVERY and again.okButton.isEnabled()
    again.reject()
    window.undo_stack.undo()
    assert window.workspace.dataset.is_binary
