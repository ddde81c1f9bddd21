"""A corrupted settings value is ignored (and said once), never fatal: the window starts.

The settings file is text anyone may edit; each case is a line of it that
stopped every start with a TypeError before the autosave was restored.
"""

from __future__ import annotations

import logging

import pytest
from PySide6 import QtCore

from perceptron_gui.ui import settings

CORRUPTED = [("exercises", "passed", "@Point(1 2)"), ("view", "colourScheme", "dark, light"),
             ("files", "recent", "@Point(1 2)"), ("mainWindow", "geometry", "hello"),
             ("mainWindow", "state", "a, b"), ("mainWindow", "splitter", "1, 2"),
             ("mainWindow", "speed", "@Point(1 2)"), ("files", "folder", "a, b"),
             ("mainWindow", "views", "@Point(1 2)")]


def write_ini(group: str, key: str, text: str) -> None:
    """Put ``key=text`` in ``[group]`` of the settings file, as a person's editor would."""
    path = QtCore.QSettings().fileName()
    QtCore.QDir().mkpath(QtCore.QFileInfo(path).absolutePath())
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"[{group}]\n{key}={text}\n")


@pytest.mark.parametrize("group, key, text", CORRUPTED, ids=lambda v: str(v))
def test_a_setting_of_the_wrong_type_does_not_stop_the_window(qtbot, group, key, text):
    from perceptron_gui.ui.main_window import MainWindow

    write_ini(group, key, text)
    assert QtCore.QSettings().value(f"{group}/{key}") is not None  # the line is read
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    assert win.isVisible()
    assert not win.files.recent_files() or key != "recent"


def test_a_setting_of_the_wrong_kind_gives_the_default_and_is_said_once(caplog):
    write_ini("test", "saidOnce", "dark, light")  # a key no other test reads
    with caplog.at_level(logging.WARNING, logger=settings.log.name):
        assert settings.value("test/saidOnce", "text", "system") == "system"
        assert settings.value("test/saidOnce", "text", "system") == "system"
    said = [r for r in caplog.records if "test/saidOnce" in r.getMessage()]
    assert len(said) == 1


@pytest.mark.parametrize("kind, stored, expected", [
    ("text", "dark", "dark"), ("texts", "a.json", ["a.json"]), ("texts", ["a", "b"], ["a", "b"]),
    ("integer", "7", 7), ("boolean", "true", True), ("boolean", False, False),
    ("bytes", QtCore.QByteArray(b"\x00\x01"), QtCore.QByteArray(b"\x00\x01")),
    ("json", '{"a": 2}', {"a": 2}), ("json", "[1, 2]", None), ("json", "{oops", None)])
def test_a_setting_of_its_kind_is_read(kind, stored, expected):
    QtCore.QSettings().setValue("test/key", stored)
    assert settings.value("test/key", kind) == expected
