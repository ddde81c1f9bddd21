"""One job type and one progress dialog: a file operation and an export are both a Job."""

from __future__ import annotations

from PySide6 import QtCore

from perceptron_gui.ui.features.export import runner
from perceptron_gui.ui.features.progress import FileJob, Job


def _dialog_settings(dialog) -> tuple:
    return (dialog.windowModality(), dialog.autoClose(), dialog.autoReset())


def test_a_file_job_and_an_export_are_one_job_type_behind_one_dialog(qtbot, window):
    def make_steps(progress, cancelled):
        progress(1, 2, "half way")
        yield
        progress(2, 2, "written")
        return "exported"

    export, export_dialog = runner.start(window, make_steps, title="Export a test",
                                         name="testExportProgress")
    read = FileJob(window, "Reading a test", lambda progress: progress(0.5) and 42)
    assert isinstance(export, Job) and isinstance(read, Job)
    assert (_dialog_settings(export_dialog) == _dialog_settings(read.dialog)
            == (QtCore.Qt.WindowModality.WindowModal, False, False))
    results = []
    export.when_done(results.append)
    read.when_done(results.append)
    qtbot.waitUntil(lambda: export.done and read.done, timeout=10_000)
    assert sorted(results, key=str) == [42, "exported"]
    assert export.result == "exported" and read.result == 42
