"""The main window provides the typed interface features use (ui/window_api.py), and
its one error sink reports every error it is given."""

from __future__ import annotations

import inspect
import logging

from perceptron_gui.ui import window_api, workers
from perceptron_gui.ui.errors import error_text
from perceptron_gui.ui.main_window import ERROR_MSECS, MainWindow
from perceptron_gui.ui.window_api import CanvasAPI, DocumentAPI, WindowAPI
from tests.ui.helpers import protocol_members


def incompatibilities(protocol, implementation) -> list[str]:
    """What ``implementation`` (a class) lacks of ``protocol``, or takes differently.

    A method must accept every parameter of the protocol's by the same name and
    kind (or take ``*args``/``**kwargs``), and may add only parameters with a
    default; a property must be a property (or a Qt signal, for the signals the
    protocol lists as properties); an attribute is checked on an instance.
    """
    problems = []
    for name, member in protocol_members(protocol).items():
        if not callable(member) and not isinstance(member, property):
            continue  # an attribute: checked on an instance
        found = inspect.getattr_static(implementation, name, None)
        if found is None:
            problems.append(f"{name}: missing")
            continue
        if isinstance(member, property):
            if not isinstance(found, property) and "Signal" not in type(found).__name__:
                problems.append(f"{name}: not a property or a signal")
            continue
        if not inspect.isfunction(found):
            continue  # a Qt method: its signature is Qt's
        wanted = inspect.signature(member).parameters
        given = inspect.signature(found).parameters
        kinds = {p.kind for p in given.values()}
        for pname, param in wanted.items():
            match = given.get(pname)
            if match is None:
                if param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD,
                                  param.KEYWORD_ONLY) and param.kind not in kinds and not (
                        {param.VAR_POSITIONAL, param.VAR_KEYWORD} & kinds):
                    problems.append(f"{name}: no parameter {pname!r}")
                elif param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD) and \
                        param.kind not in kinds:
                    problems.append(f"{name}: does not take {param}")
            elif match.kind != param.kind:
                problems.append(f"{name}: {pname!r} is {match.kind.description}, "
                                f"not {param.kind.description}")
        for pname, param in given.items():
            if pname not in wanted and param.default is param.empty and param.kind not in (
                    param.VAR_POSITIONAL, param.VAR_KEYWORD):
                problems.append(f"{name}: extra required parameter {pname!r}")
    return problems


def test_the_window_provides_the_interface_with_compatible_signatures(window):
    assert isinstance(window, WindowAPI)
    assert isinstance(window.canvas, CanvasAPI)
    assert isinstance(window.files, DocumentAPI)
    assert incompatibilities(WindowAPI, MainWindow) == []
    assert incompatibilities(CanvasAPI, type(window.canvas)) == []
    assert incompatibilities(DocumentAPI, type(window.files)) == []
    for protocol, obj in ((WindowAPI, window), (DocumentAPI, window.files)):
        missing = [name for name, member in protocol_members(protocol).items()
                   if not callable(member) and not isinstance(member, property)
                   and not hasattr(obj, name)]
        assert missing == []
    assert set(protocol_members(WindowAPI)) >= {
        "workspace", "undo_stack", "canvas", "playback", "menus", "docks", "actions",
        "edit_guards", "files", "push_edit", "report_error", "show_message", "add_action"}


def test_the_interface_is_five_small_roles_the_window_implements(window):
    roles = (window_api.MessagesAPI, window_api.UndoAPI, window_api.ActionsAPI,
             window_api.LayoutAPI, window_api.FilesAPI)
    for role in roles:
        members = protocol_members(role)
        assert 0 < len(members) <= 16, (role.__name__, len(members))
        assert incompatibilities(role, MainWindow) == [], role.__name__
    assert set(WindowAPI.__mro__) >= set(roles)
    assert "report_error" in protocol_members(window_api.MessagesAPI)
    assert "undo_stack" in protocol_members(window_api.UndoAPI)
    assert "actions" in protocol_members(window_api.ActionsAPI)
    assert "files" in protocol_members(window_api.FilesAPI)
    assert "menus" in protocol_members(window_api.LayoutAPI)


def test_the_check_sees_a_missing_member_and_a_changed_signature():
    class Partial:
        def push_edit(self, edit, extra):  # a required parameter the protocol lacks
            return True

        def report_error(self, summary, detail=None, dialog=True):  # dialog not keyword-only
            pass

    problems = incompatibilities(WindowAPI, Partial)
    assert "push_edit: extra required parameter 'extra'" in problems
    assert "report_error: 'dialog' is positional or keyword, not keyword-only" in problems
    assert "add_action: missing" in problems and "presenting: missing" in problems


def test_actions_are_reached_by_id_and_features_register_theirs(window):
    assert window.actions["quit"].objectName() == "actionQuit"
    for action_id in ("save", "open", "export_canvas_png", "export_log_csv",
                      "presenter_mode", "demo_next"):
        assert action_id in window.actions, action_id
    assert window_api.action_id("actionExportLogCsv") == "export_log_csv"


# ----------------------------------------------------------------------------- the sink


def test_report_error_shows_a_box_or_the_status_bar_and_logs_it(window, warnings, caplog):
    seen = []
    window.errorReported.connect(lambda summary, detail: seen.append((summary, detail)))
    with caplog.at_level(logging.WARNING, logger="perceptron_gui"):
        window.report_error("Cannot save", "the disk is full")
        window.report_error("Not changed", ValueError("eta must be > 0"), dialog=False)
    assert warnings == [("Cannot save", "the disk is full")]
    assert window.statusBar().currentMessage() == "Not changed: eta must be > 0"
    assert seen == [("Cannot save", "the disk is full"), ("Not changed", "eta must be > 0")]
    assert "Cannot save: the disk is full" in caplog.text
    assert caplog.records[-1].exc_info is not None  # the exception's traceback is logged
    assert ERROR_MSECS > 0


def test_error_text_of_an_exception_without_a_message_names_its_type():
    assert error_text(None) == "" and error_text("why") == "why"
    assert error_text(KeyError()) == "KeyError"
    full = OSError(28, "No space left on device")
    assert error_text(full) == "[Errno 28] No space left on device"


def test_a_worker_without_an_error_handler_reports_to_the_window(window, qtbot):
    def fail():
        raise RuntimeError("the worker broke")

    with qtbot.waitSignal(window.errorReported, timeout=10_000) as blocker:
        workers.start(fail)
    assert blocker.args == ["Work in the background failed", "the worker broke"]
    assert "the worker broke" in window.statusBar().currentMessage()


def test_a_failed_picture_of_the_points_is_reported(window, qtbot):
    from perceptron_gui.ui.widgets.canvas.newest import NewestJob

    def broken(_x):
        raise MemoryError("no room for the raster")

    drawn = []
    job = NewestJob(lambda request: (broken, (request,)),
                    lambda request, out: drawn.append(out), lambda: True)
    with qtbot.waitSignal(window.errorReported, timeout=10_000) as blocker:
        job.request(1)
    assert blocker.args == ["A picture of the points could not be drawn",
                            "no room for the raster"]
    qtbot.waitUntil(lambda: not job.busy, timeout=5_000)
    assert drawn == []


def test_a_refused_edit_is_reported_in_the_status_bar(window, warnings):
    from perceptron_gui.core.dataset import MovePoints

    assert not window.push_edit(MovePoints([5], [[0.0, 0.0]]))  # no point 5
    assert window.statusBar().currentMessage().startswith("Not done: ")
    assert warnings == []
