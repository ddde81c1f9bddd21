"""The exception hook logs everything and guards against a flood of dialogs."""

import logging

from perceptron_gui.ui import errors
from tests.ui.helpers import finish


def _raise():
    try:
        raise RuntimeError("boom")
    except RuntimeError as exc:
        return type(exc), exc, exc.__traceback__


def test_hook_logs_and_shows_one_dialog_per_flood(qtbot, monkeypatch, caplog):
    shown = []
    monkeypatch.setattr(errors.QtWidgets.QMessageBox, "exec", lambda self: shown.append(
        self.text()))
    hook = errors.ExceptionHook()
    with caplog.at_level(logging.ERROR, logger="perceptron_gui"):
        for _ in range(5):
            hook(*_raise())
    assert hook.count == 5
    assert len(shown) == 1 and "RuntimeError: boom" in shown[0]
    assert sum("boom" in r.getMessage() for r in caplog.records) == 5
    monkeypatch.setattr(errors.time, "monotonic", lambda: 1e12)
    hook(*_raise())
    assert len(shown) == 2 and "4 further errors" in shown[1]


# ------------------------------------------------------------------ plain text everywhere

#: Rendered as HTML, the first line would load an image (the report's was /dev/zero, which
#: Qt reads without end: a missing file keeps a regression from hanging the tests).
HOSTILE = "<img src=no-such-image.png> <b>bold<\\b> &amp;"


def _capture_boxes(monkeypatch, window):
    """Record (text format, text) of every message box shown; never block."""
    from PySide6 import QtCore, QtWidgets

    shown = []
    monkeypatch.setattr(QtWidgets.QMessageBox, "exec", lambda self: shown.append(
        (self.textFormat(), self.text())) or 0)

    def close_any_box():  # only reached if a box was shown some other way
        for box in window.findChildren(QtWidgets.QMessageBox):
            box.done(0)

    QtCore.QTimer.singleShot(3000, window, close_any_box)
    return shown


def test_a_hostile_path_in_the_cannot_open_box_is_plain_text(qtbot, window, tmp_path,
                                                              monkeypatch):
    from PySide6 import QtCore

    shown = _capture_boxes(monkeypatch, window)
    path = tmp_path / f"{HOSTILE}.json"
    assert not finish(qtbot, window.files.open_path(str(path), ask=False))
    (fmt, text), = shown
    assert fmt == QtCore.Qt.TextFormat.PlainText
    assert str(path) in text


def test_the_hook_shows_plain_text_and_a_short_message(qtbot, monkeypatch):
    from PySide6 import QtCore, QtWidgets

    shown = []
    monkeypatch.setattr(errors.QtWidgets.QMessageBox, "exec", lambda self: shown.append(
        (self.textFormat(), self.text(), self.detailedText())))
    hook = errors.ExceptionHook()
    try:
        raise ValueError(HOSTILE + "x" * 10_000)
    except ValueError as exc:
        hook(type(exc), exc, exc.__traceback__)
    (fmt, text, details), = shown
    assert fmt == QtCore.Qt.TextFormat.PlainText and HOSTILE in text
    assert len(text) < 400 and "x" * 10_000 in details
    assert QtWidgets.QApplication.instance() is not None


def test_a_tooltip_quoting_a_path_shows_it_as_it_is(qtbot):
    from PySide6 import QtGui

    for text in (HOSTILE, "a < b\nand c > d", "/home/me/<qt>.json"):
        doc = QtGui.QTextDocument()
        doc.setHtml(errors.plain_tooltip(text))
        assert doc.toPlainText().replace("\u2028", "\n") == text


def test_the_recent_files_tooltip_is_plain(window, tmp_path):
    from PySide6 import QtGui

    path = tmp_path / f"{HOSTILE}.json"
    path.write_text("{}")
    window.files.add_recent(str(path))
    window.files.rebuild_recent_menu()
    action = window.files.recent_menu.actions()[0]
    doc = QtGui.QTextDocument()
    doc.setHtml(action.toolTip())
    assert doc.toPlainText() == str(path)


def test_the_progress_dialog_and_import_labels_quote_as_plain_text(qtbot, window, tmp_path):
    from PySide6 import QtCore, QtWidgets

    from perceptron_gui.core import Workspace, generators, io

    path = tmp_path / f"{HOSTILE}.json"
    io.save_workspace(Workspace(generators.xor(8, seed=1)), path)
    seen = []
    window.files.progress_delay_ms = 0
    window.files.progressStarted.connect(lambda dialog: seen.extend(
        (label.textFormat(), label.text()) for label in dialog.findChildren(QtWidgets.QLabel)))
    assert finish(qtbot, window.files.open_path(str(path), ask=False))
    assert (QtCore.Qt.TextFormat.PlainText, f"Opening {path.name}…") in seen

    from perceptron_gui.ui.features.import_dialog import ImportDialog

    csv = tmp_path / "t.csv"
    csv.write_text("x,y,label\n1,2,a\n")
    dialog = ImportDialog(str(csv), window)
    for name in ("reasonLabel", "badRowsLabel", "encodingLabel", "decimalLabel"):
        label = dialog.findChild(QtWidgets.QLabel, name)
        assert label.textFormat() == QtCore.Qt.TextFormat.PlainText, name
    dialog.deleteLater()


def test_the_about_box_is_plain_text_with_the_version(window, monkeypatch):
    from perceptron_gui import __version__

    shown = []
    monkeypatch.setattr(errors.QtWidgets.QMessageBox, "exec", lambda self: shown.append(
        (self.windowTitle(), self.text(), self.textFormat())))
    window.show_about()
    [(title, text, fmt)] = shown
    assert title == "About perceptron-gui" and text.startswith(f"perceptron-gui {__version__}\n")
    assert fmt == errors.QtCore.Qt.TextFormat.PlainText and "Novikoff bound" in text
