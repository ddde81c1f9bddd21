"""The seams stay seams: the package is read for the shortcuts that undo them.

Each rule reads every module of the package (its syntax tree, or its text for
the message boxes) and lists what breaks it; each has a test that it catches
an example.

- **No widget found by name**: no ``findChild`` / ``findChildren``: an action
  is ``window.actions[id]``, a widget the attribute its owner publishes.
- **No duck typing on the window or a view**: no ``getattr`` / ``hasattr`` on
  the window (``window``, ``w``, ``self.window``, ``self._window``...), on a
  view (the canvas, the plots, the views, the readouts, a view's own
  ``self``...), or on ``self`` in the window's and the views' modules: their
  interface is typed (``ui/window_api.py``).  Any other ``getattr`` outside
  the core is listed in :data:`ALLOWED_GETATTR` with its reason (the core's
  estimators read their optional fitted attributes scikit-learn's way).
- **One way to defer**: no ``processEvents``, no ``QEventLoop``, no
  ``QTimer.singleShot`` nor a timer made single-shot by hand
  (``setSingleShot``, ``singleShot=True``), no ``sendPostedEvents`` that
  delivers every kind of event: a
  :class:`~perceptron_gui.ui.deferred.YieldingTimer` or a signal.  Flushing
  one named kind of event (``sendPostedEvents(obj, DeferredDelete)``) is no
  deferral.
- **No hidden magic**: no ``__getattr__``, in a module or a class.
- **One error sink**: every message box is made in one module
  (``ui/errors.py``), and its ``warn`` is called by one method
  (``MainWindow.report_error``).
"""

from __future__ import annotations

import ast

from tests.package_source import modules, nodes

#: Names of the window, as features and the notebook API hold it.
WINDOW_NAMES = frozenset({"window", "w", "win", "mw", "main_window"})
#: Names of a view: the canvas, the views area and what it shows, the panels.
VIEW_NAMES = frozenset({"canvas", "view", "views", "plots", "live_plots", "readouts",
                        "essentials", "side_panel", "learner_panel", "presenter"})
#: Modules whose ``self`` is the window or a view.
VIEW_MODULES = ("ui/main_window.py", "ui/widgets/", "ui/views/")

#: (module, receiver) -> why a ``getattr``/``hasattr`` on it is right.
ALLOWED_GETATTR = {
    ("app.py", "args"): "an argparse namespace: the render subcommand's lacks the "
                        "window's options",
    ("viewer.py", "shell"): "IPython's shell: ``active_eventloop`` is missing in some "
                            "versions and in other shells",
    ("ui/features/import_dialog.py", "sn"): "the sniffed table's guess for a column role "
                                            "(``x``, ``y``, ``label``), a field by its name",
    ("ui/widgets/canvas/items/pyqtgraph_internals.py", "widget"):
        "pyqtgraph's private ``closed`` flag, isolated in this one module",
    ("ui/widgets/canvas/tool.py", "problem"): "a core problem's optional name",
    ("ui/features/export/svg.py", "item"): "pyqtgraph's export protocol: the items that "
                                           "draw differently in an export have setExportMode",
    ("ui/widgets/readouts.py", "model"): "a class model's optional fitted attributes "
                                         "(LDA's shrinkage and regularisation), read "
                                         "scikit-learn's way",
    ("viewer.py", "obj"): "a pandas object, told by its to_numpy without importing pandas",
}

#: The one module that makes message boxes.
ERRORS_MODULE = "ui/errors.py"
#: The one module that makes a timer single-shot: the YieldingTimer's.
DEFERRED_MODULE = "ui/deferred.py"
#: Nothing outside it calls ``errors.warn``: its ``report`` (the window's ``report_error``)
#: is the one sink.


def _modules() -> dict[str, str]:
    found = modules()
    assert len(found) > 50
    return found


def _receiver(node: ast.expr) -> str:
    return ast.unparse(node)


def _last_name(node: ast.expr) -> str | None:
    """``window`` for ``window``, ``self.window``, ``self._window``; None for a call."""
    if isinstance(node, ast.Name):
        return node.id.lstrip("_")
    if isinstance(node, ast.Attribute):
        return node.attr.lstrip("_")
    return None


def found_by_name(source: str, rel: str) -> list[str]:
    """Every ``findChild`` / ``findChildren``."""
    return [f"{rel}:{node.lineno}: {node.attr}" for node in nodes(source, rel)
            if isinstance(node, ast.Attribute) and node.attr in ("findChild", "findChildren")]


def duck_typed(source: str, rel: str) -> tuple[list[str], list[str]]:
    """``getattr``/``hasattr`` calls: (on the window or a view, others not allowed)."""
    banned, unlisted = [], []
    own_self_is_view = rel.startswith(VIEW_MODULES)
    for node in nodes(source, rel):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr") and node.args):
            continue
        target = node.args[0]
        if (isinstance(target, ast.Call) and isinstance(target.func, ast.Name)
                and target.func.id == "getattr"):
            continue  # getattr(getattr(w, ...), ...): the inner call is the lookup
        name = _last_name(target)
        hit = f"{rel}:{node.lineno}: {ast.unparse(node)}"
        if name in WINDOW_NAMES or name in VIEW_NAMES or (own_self_is_view and name == "self"):
            banned.append(hit)
        elif not rel.startswith("core/") and (rel, _receiver(target)) not in ALLOWED_GETATTR:
            unlisted.append(hit)
    return banned, unlisted


def deferred_other_ways(source: str, rel: str) -> list[str]:
    """Every ``processEvents``, ``QEventLoop``, ``singleShot``, hand-made single-shot timer
    and ``sendPostedEvents`` without an event type."""
    names = ("processEvents", "QEventLoop", "singleShot")
    found = []
    for node in nodes(source, rel):
        if ((isinstance(node, ast.Attribute) and node.attr in names)
                or (isinstance(node, ast.Name) and node.id in names)
                or (isinstance(node, ast.keyword) and node.arg == "singleShot")):
            found.append(node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if ((node.func.attr == "setSingleShot" and rel != DEFERRED_MODULE)
                    or (node.func.attr == "sendPostedEvents"
                        and len(node.args) + len(node.keywords) < 2)):
                found.append(node)
    return [f"{rel}:{node.lineno}: {ast.unparse(node)}" for node in found]


def magic(source: str, rel: str) -> list[str]:
    """Every ``__getattr__`` defined (module level or in a class)."""
    return [f"{rel}:{node.lineno}: def __getattr__"
            for node in nodes(source, rel)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name == "__getattr__"]


#: QMessageBox's static functions, each of which makes a box.
_STATIC_BOXES = ("warning", "critical", "question", "information", "about")


def message_boxes(source: str, rel: str) -> list[str]:
    """Every message box made: ``QMessageBox(...)`` or its static functions, through any
    alias the module assigns (``B = QtWidgets.QMessageBox``)."""
    tree_nodes = nodes(source, rel)

    def is_box_class(node: ast.expr) -> bool:
        return ((isinstance(node, ast.Attribute) and node.attr == "QMessageBox")
                or (isinstance(node, ast.Name) and node.id in aliases))

    aliases = {"QMessageBox"}
    for node in tree_nodes:
        if (isinstance(node, ast.Assign) and is_box_class(node.value)
                and all(isinstance(t, ast.Name) for t in node.targets)):
            aliases |= {t.id for t in node.targets}
    return [f"{rel}:{node.lineno}: {ast.unparse(node.func)}" for node in tree_nodes
            if isinstance(node, ast.Call) and (
                is_box_class(node.func)
                or (isinstance(node.func, ast.Attribute) and node.func.attr in _STATIC_BOXES
                    and is_box_class(node.func.value)))]


def warns(source: str, rel: str) -> list[str]:
    """Every call of ``errors.warn`` (or a bare ``warn`` imported from it)."""
    hits = []
    for node in nodes(source, rel):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if (isinstance(func, ast.Attribute) and func.attr == "warn"
                and isinstance(func.value, ast.Name) and func.value.id in ("errors", "ui_errors")):
            hits.append(f"{rel}:{node.lineno}: {ast.unparse(func)}")
    return hits


# ----------------------------------------------------------------------------- the rules


def test_no_widget_is_found_by_name():
    found = [hit for rel, source in _modules().items() for hit in found_by_name(source, rel)]
    assert found == []


def test_no_getattr_on_the_window_or_a_view_and_every_other_has_a_reason():
    banned, unlisted = [], []
    for rel, source in _modules().items():
        on_view, other = duck_typed(source, rel)
        banned += on_view
        unlisted += other
    assert banned == []
    assert unlisted == []


def test_work_is_deferred_one_way():
    found = [hit for rel, source in _modules().items()
             for hit in deferred_other_ways(source, rel)]
    assert found == []


def test_no_module_or_class_has_a_getattr_hook():
    found = [hit for rel, source in _modules().items() for hit in magic(source, rel)]
    assert found == []


def test_one_module_makes_warning_boxes_and_one_method_calls_it():
    modules = _modules()
    makers = {hit.split(":")[0] for rel, source in modules.items()
              for hit in message_boxes(source, rel)}
    assert makers == {ERRORS_MODULE}
    callers = [hit for rel, source in modules.items() if rel != ERRORS_MODULE
               for hit in warns(source, rel)]
    assert callers == []


# ----------------------------------------------------------------------------- the checks


def test_the_checks_catch_an_example_of_each():
    source = (
        "from PySide6 import QtCore, QtWidgets\n"
        "from . import errors\n"
        "def f(window, canvas, args, other):\n"
        "    window.findChild(QtWidgets.QProgressBar)\n"
        "    getattr(window, 'files', None)\n"
        "    getattr(self._window, 'canvas', None)\n"
        "    hasattr(canvas, 'set_scale')\n"
        "    getattr(getattr(w, 'presenter', None), 'active', False)\n"
        "    getattr(other, 'name', None)\n"
        "    getattr(args, 'demo', None)\n"
        "    QtCore.QTimer.singleShot(0, f)\n"
        "    QtCore.QEventLoop().exec()\n"
        "    QtWidgets.QApplication.processEvents()\n"
        "    QtWidgets.QMessageBox.warning(None, 'a', 'b')\n"
        "    errors.warn(window, 'Failed', 'why')\n"
        "class C:\n"
        "    def __getattr__(self, name):\n"
        "        return getattr(self, name)\n"
    )
    assert found_by_name(source, "app.py") == ["app.py:4: findChild"]
    banned, unlisted = duck_typed(source, "app.py")
    assert sorted(int(hit.split(":")[1]) for hit in banned) == [5, 6, 7, 8]
    assert sorted(int(hit.split(":")[1]) for hit in unlisted) == [9, 18]  # args: listed
    assert sorted(int(hit.split(":")[1]) for hit in duck_typed(source, "ui/widgets/x.py")[0]) \
        == [5, 6, 7, 8, 18]  # a view's own self
    assert sorted(hit.split(": ")[1] for hit in deferred_other_ways(source, "app.py")) == [
        "QtCore.QEventLoop", "QtCore.QTimer.singleShot",
        "QtWidgets.QApplication.processEvents"]
    assert magic(source, "app.py") == ["app.py:17: def __getattr__"]
    assert message_boxes(source, "app.py") == ["app.py:14: QtWidgets.QMessageBox.warning"]
    assert warns(source, "app.py") == ["app.py:15: errors.warn"]


def test_the_checks_catch_the_forms_that_leaked():
    source = (
        "from PySide6 import QtCore, QtWidgets\n"
        "def f(self, view):\n"
        "    timer = QtCore.QTimer(self)\n"
        "    timer.setSingleShot(True)\n"
        "    other = QtCore.QTimer(self, singleShot=True)\n"
        "    QtCore.QCoreApplication.sendPostedEvents()\n"
        "    QtCore.QCoreApplication.sendPostedEvents(view)\n"
        "    QtCore.QCoreApplication.sendPostedEvents(view, QtCore.QEvent.Type.DeferredDelete)\n"
        "    B = QtWidgets.QMessageBox\n"
        "    B(B.Icon.Question, 'a', 'b')\n"
        "    B.question(None, 'a', 'b')\n"
        "    answer = B.StandardButton.Yes\n"
        "    errors.message_box(B.Icon.Question, 'a', 'b')\n"
    )
    assert sorted(int(hit.split(":")[1]) for hit in deferred_other_ways(source, "ui/x.py")) \
        == [4, 5, 6, 7]
    assert sorted(int(hit.split(":")[1]) for hit in deferred_other_ways(source, DEFERRED_MODULE)) \
        == [5, 6, 7]
    assert sorted(int(hit.split(":")[1]) for hit in message_boxes(source, "ui/x.py")) \
        == [10, 11]


def test_every_listed_getattr_says_why():
    assert all(len(reason) > 20 for reason in ALLOWED_GETATTR.values())
