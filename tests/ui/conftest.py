"""Fixtures for the Qt layer: isolated settings and a ready main window."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _warmed_up_like_the_app():
    """Import the modules the application's warm-up thread imports after it starts.

    A window in a test starts no warm-up; without this, the first test in a
    process to show a separable data set with the margin band imports
    ``scipy.optimize`` on the UI thread (over 5 s on a loaded machine).
    """
    from perceptron_gui.app import preload_modules

    preload_modules()


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path_factory, monkeypatch):
    """Point QSettings and QStandardPaths at a temporary folder for every test
    (its own folder, so a test's ``tmp_path`` holds only what the test writes)."""
    from PySide6 import QtCore

    tmp_path = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    QtCore.QCoreApplication.setOrganizationName("perceptron-gui-tests")
    QtCore.QCoreApplication.setApplicationName("perceptron-gui-tests")
    QtCore.QSettings.setDefaultFormat(QtCore.QSettings.IniFormat)
    QtCore.QSettings.setPath(QtCore.QSettings.IniFormat, QtCore.QSettings.UserScope,
                             str(tmp_path / "settings"))
    # not QStandardPaths.setTestModeEnabled: it ignores XDG_DATA_HOME and would make
    # every test share one ~/.qttest folder (autosaves, locks); the variables above
    # give each test its own folders
    yield


@pytest.fixture
def warnings(monkeypatch):
    """Record :func:`errors.warn` calls (every warning box) as (title, text) instead of
    showing them."""
    from perceptron_gui.ui import errors

    calls: list[tuple[str, str]] = []

    def fake(parent, title, text, *args, **kwargs):
        calls.append((title, text))

    monkeypatch.setattr(errors, "warn", fake)
    return calls


@pytest.fixture
def window(qtbot):
    """A shown main window on an empty workspace, closed at the end without asking.

    Closed with unsaved changes, it would open its window-modal "Unsaved changes" box,
    which takes the input of the next test's windows until it is deleted.
    """
    from perceptron_gui.ui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.files.force_close = True
