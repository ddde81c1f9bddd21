"""The exception hook logs everything and guards against a flood of dialogs."""

import logging

from perceptron_gui.ui import errors


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
