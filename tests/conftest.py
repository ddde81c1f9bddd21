"""Test-wide settings: Qt renders offscreen, and no test touches the user's settings."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import sys

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item):
    """Delete the test's closed windows now, while the fixtures still hold them.

    pytest-qt closes each widget given to ``qtbot.addWidget`` and calls
    ``deleteLater`` before the fixtures are torn down, but ``processEvents``
    does not run deferred deletes: the windows were deleted by the next
    test's event loop, after their Python wrappers had gone. Queued events
    then reached pyqtgraph items through new, bare wrappers ("'LabelItem'
    object has no attribute 'item'") or a half-destroyed item (SIGSEGV in
    ``QMetaObject::cast``).
    """
    if "PySide6.QtWidgets" not in sys.modules:
        return
    from PySide6 import QtCore, QtWidgets

    if QtWidgets.QApplication.instance() is not None:
        QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
