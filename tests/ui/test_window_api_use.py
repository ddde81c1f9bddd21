"""Features use nothing of the window but :class:`~perceptron_gui.ui.window_api.WindowAPI`.

The modules under ``ui/features/`` and ``ui/modes.py`` are read (their syntax
trees): every attribute taken of the window — held as ``window``, ``w``,
``self.window`` or ``self._window`` — must be a member of ``WindowAPI`` (the
``QMainWindow`` methods it lists count), and every attribute of its canvas a
member of ``CanvasAPI``.  ``test_window_api.py`` checks that the window
provides them; together they make "features use only the interface" true.
"""

from __future__ import annotations

import ast
from pathlib import Path

import perceptron_gui
from perceptron_gui.ui.window_api import CanvasAPI, WindowAPI
from tests.ui.helpers import protocol_members

PACKAGE = Path(perceptron_gui.__file__).resolve().parent
#: The modules that receive the window typed as WindowAPI, relative to the package.
MODULES = sorted(str(p.relative_to(PACKAGE)) for p in (PACKAGE / "ui/features").rglob("*.py")
                 ) + ["ui/modes.py"]
#: The names a feature holds the window by.
WINDOW_NAMES = frozenset({"window", "w"})
WINDOW_SELF_ATTRS = frozenset({"window", "_window"})


def protocol_names(protocol) -> set[str]:
    """A protocol's members, its roles' included: methods, properties and attributes."""
    return set(protocol_members(protocol))


def _is_window(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id in WINDOW_NAMES
    return (isinstance(node, ast.Attribute) and node.attr in WINDOW_SELF_ATTRS
            and isinstance(node.value, ast.Name) and node.value.id == "self")


def outside_the_interface(source: str, where: str = "<source>") -> list[str]:
    """``where:line: window.name`` for each use of the window (or its canvas) that the
    protocols do not list."""
    window_api, canvas_api = protocol_names(WindowAPI), protocol_names(CanvasAPI)
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute):
            continue
        if _is_window(node.value) and node.attr not in window_api:
            found.append(f"{where}:{node.lineno}: window.{node.attr}")
        elif (isinstance(node.value, ast.Attribute) and node.value.attr == "canvas"
              and _is_window(node.value.value) and node.attr not in canvas_api):
            found.append(f"{where}:{node.lineno}: window.canvas.{node.attr}")
    return sorted(found, key=lambda text: int(text.split(":")[-2]))


def test_features_and_modes_use_only_the_window_interface():
    assert "ui/features/presenter.py" in MODULES and len(MODULES) > 10
    found = []
    for module in MODULES:
        found += outside_the_interface((PACKAGE / module).read_text(encoding="utf-8"), module)
    assert found == []


def test_the_check_catches_an_example_of_each_holder():
    source = (
        "def install(window):\n"
        "    window.canvas_area.layout()\n"       # line 2: not in WindowAPI
        "    window.workspace.dataset\n"         # in it
        "    w = window\n"
        "    w.menuBar()\n"                      # in it (listed from QMainWindow)
        "    w.plots.refresh()\n"                # line 6: not in it
        "    window.canvas.viewport()\n"         # in CanvasAPI (listed from QWidget)
        "    window.canvas.layer('x')\n"         # line 8: not in CanvasAPI
        "class F:\n"
        "    def f(self):\n"
        "        self._window.autosave.enabled\n"  # in it
        "        self.window.learner_panel\n"       # line 12: not in it
        "        self.other.canvas_area\n"          # not the window
    )
    assert outside_the_interface(source) == [
        "<source>:2: window.canvas_area", "<source>:6: window.plots",
        "<source>:8: window.canvas.layer", "<source>:12: window.learner_panel"]
