"""No module of the Qt layer reaches into another object's private names.

Features talk to the window through its public interface (workspace,
push_edit, the canvas's view API, menus, docks, playback, show_message); a
``x._name`` access where ``x`` is not ``self`` or ``cls`` is a reach into
someone else's internals.
"""

from __future__ import annotations

import ast
from pathlib import Path

import perceptron_gui

PACKAGE = Path(perceptron_gui.__file__).resolve().parent
#: (file relative to the package, attribute) pairs that may stay, with the reason.
ALLOWED: set[tuple[str, str]] = set()
#: The one file that may use pyqtgraph's private names: it isolates them, and
#: tests/ui/canvas/items/test_pyqtgraph_internals.py fails when pyqtgraph changes them.
PYQTGRAPH_INTERNALS = "ui/widgets/canvas/items/pyqtgraph_internals.py"


def private_accesses(source: str, rel: str) -> list[str]:
    """``rel:line: expression`` for each ``x._name`` with ``x`` not ``self``/``cls``."""
    found = []
    for node in ast.walk(ast.parse(source, rel)):
        if not isinstance(node, ast.Attribute):
            continue
        name = node.attr
        if not name.startswith("_") or (name.startswith("__") and name.endswith("__")):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        if (rel, name) in ALLOWED:
            continue
        found.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_checker_finds_a_private_access():
    source = "def f(window):\n    return window._docks, a.b._x, self._ok, cls._ok, x.__len__\n"
    assert private_accesses(source, "ui/sample.py") == ["ui/sample.py:2: window._docks",
                                                        "ui/sample.py:2: a.b._x"]


def test_no_private_access_from_outside():
    files = sorted((PACKAGE / "ui").rglob("*.py")) + [PACKAGE / "app.py"]
    assert len(files) > 20
    rels = {path: path.relative_to(PACKAGE).as_posix() for path in files}
    assert PYQTGRAPH_INTERNALS in rels.values()
    found = [hit for path, rel in rels.items() if rel != PYQTGRAPH_INTERNALS
             for hit in private_accesses(path.read_text("utf-8"), rel)]
    assert found == []
