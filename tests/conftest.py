"""Test-wide settings: Qt renders offscreen, and no test touches the user's settings."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import gc
import sys
import warnings

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
        _close_input_takers(QtWidgets)
        QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)


#: Modal windows a test's teardown opens as it should: a main window closed by pytest-qt
#: with unsaved changes asks whether to save them (window-modal, shown after the test).
_EXPECTED_MODALS = frozenset({"unsavedChangesBox"})


def _close_input_takers(QtWidgets) -> None:
    """Close what would take a later test's input: a popup, a mouse grab, a modal window.

    A modal window blocks every spontaneous event to the others: a later test's
    ``qtbot.mouseMove`` then never reaches its canvas (seen once in ten full runs:
    "0 moves arrived" while its canvas was ready). The usual one is a closed window's
    "Unsaved changes" box, still alive until the deferred deletes run.
    """
    app = QtWidgets.QApplication
    for _ in range(10):
        popup = app.activePopupWidget()
        if popup is None:
            break
        popup.close()
    grabber = QtWidgets.QWidget.mouseGrabber()
    if grabber is not None:
        grabber.releaseMouse()
    for _ in range(10):
        modal = app.activeModalWidget()
        if modal is None:
            break
        if modal.objectName() not in _EXPECTED_MODALS:
            warnings.warn(f"closed a modal window an earlier test left open: "
                          f"{type(modal).__name__} {modal.objectName()!r} "
                          f"{modal.windowTitle()!r}", stacklevel=1)
        modal.close()
        if modal.isVisible():  # a dialog that refuses to close: hide it
            modal.hide()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Start each test with no modal window or popup an earlier test's timer opened."""
    if "PySide6.QtWidgets" not in sys.modules:
        return
    from PySide6 import QtWidgets

    if QtWidgets.QApplication.instance() is not None:
        _close_input_takers(QtWidgets)


def pytest_configure(config):
    """Collect garbage between tests only, as the application collects between events.

    Left automatic, a collection can start inside a Qt call and destroy a
    ``QObject`` there, which hangs or crashes (see
    :mod:`perceptron_gui.ui.interpreter`, which the application runs); here the
    collection runs after each test's teardown instead, by Python's own
    thresholds.
    """
    gc.disable()


def pytest_ignore_collect(collection_path, config):
    """Under ``-m serial`` alone, import only the test modules that mark a test ``serial``.

    ``make test``'s second part selects the few timing tests marked ``serial``;
    importing and collecting every other module (thousands of tests, then
    deselected) took about 18 s. A module is read as text first: one that
    never says ``mark.serial`` cannot hold a serial test and is not imported.
    Any other mark expression collects as usual.
    """
    if (config.getoption("markexpr", "") or "").strip() != "serial":
        return None
    if collection_path.suffix != ".py" or not collection_path.name.startswith("test_"):
        return None
    try:
        text = collection_path.read_text(encoding="utf-8")
    except OSError:
        return None
    return None if "mark.serial" in text else True


def pytest_collection_modifyitems(items):
    """Put the tests marked ``slow`` first, each group in pytest-randomly's order.

    pytest-xdist hands out tests in this order: a slow test drawn last (the
    soak plays 5,000 frames) ran alone at the end while the other worker
    idled; drawn first, the short tests fill in around it.
    """
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_runtest_logfinish(nodeid, location):
    """After the test and its teardown: collect what is due, outside any Qt call."""
    from perceptron_gui.ui.interpreter import collect_due

    collect_due()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Name the seed of the random order (pytest-randomly), even under ``-q``.

    pytest-randomly names it in the header, which ``-q`` leaves out; a failure
    that depends on the order is replayed with ``--randomly-seed`` and this seed.
    """
    seed = config.getoption("randomly_seed", None)
    if isinstance(seed, int):
        terminalreporter.write_line(f"random order: --randomly-seed={seed}")


_EXIT_STATUS = []


def pytest_sessionfinish(session, exitstatus):
    """Remember the session's exit status for :func:`pytest_unconfigure`."""
    _EXIT_STATUS.append(int(exitstatus))


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """End the test process once pytest has reported, without Python's finalization.

    With collection off for the session (above), the interpreter's finalization
    destroyed every Qt object the tests left (thousands: widgets, pyqtgraph items,
    their wrappers) in no set order, after the QApplication, which crashed now and
    then (SIGSEGV after "2476 passed"). The work still running is waited for and
    the deferred deletes are run while the application exists; then the process
    exits with pytest's status, its output flushed.
    """
    if not _EXIT_STATUS or "PySide6.QtWidgets" not in sys.modules:
        return
    from PySide6 import QtCore, QtWidgets

    if QtWidgets.QApplication.instance() is not None:
        QtCore.QThreadPool.globalInstance().waitForDone(30_000)
        QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(_EXIT_STATUS[-1])
