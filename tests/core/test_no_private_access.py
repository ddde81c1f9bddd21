"""No core module reaches into another object's private names.

An AST walk over ``perceptron_gui/core`` flags every ``x._name`` where ``x`` is
not ``self`` or ``cls`` (dunder names such as ``__name__`` are public).
"""

from __future__ import annotations

import ast
from pathlib import Path

import perceptron_gui.core

CORE = Path(perceptron_gui.core.__file__).parent

#: (file relative to core, the expression) pairs that are allowed, with why.
ALLOWED = {
    # Dataset's own module: its constructors and __eq__ read another Dataset's fields,
    # and its edits build results through the trusted (unchecked) constructor.
    # Its caches (counts, bounds, radius) and names are set in the trusted constructor too.
    "dataset.py": {"obj._X", "obj._y", "obj._n_pos", "obj._bounds", "obj._radius", "other._X",
                   "other._y", "Dataset._trusted", "obj._feature_names", "obj._class_names",
                   "obj._classes", "obj._counts", "other._classes"},
    # sys._getframe is CPython's documented way to walk the stack (warnings' stacklevel);
    # _flavour_of is a class attribute this module sets on the classes it makes.
    "learners/_base.py": {"sys._getframe", "type(exc)._flavour_of"},
}


def _private_accesses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        name = node.attr
        if not name.startswith("_") or (name.startswith("__") and name.endswith("__")):
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            continue
        if (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name)
                and owner.func.id == "super"):
            continue
        found.append(f"{path.relative_to(CORE)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_walk_finds_private_access(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f(ws):\n    return ws._learner, self._ok, ws.__class__\n")
    global CORE
    saved, CORE = CORE, tmp_path
    try:
        assert _private_accesses(sample) == ["sample.py:2: ws._learner"]
    finally:
        CORE = saved


def test_no_core_module_uses_another_objects_private_names():
    found = []
    for path in sorted(CORE.rglob("*.py")):
        for hit in _private_accesses(path):
            if hit.split(": ", 1)[1] not in ALLOWED.get(str(path.relative_to(CORE)), ()):
                found.append(hit)
    assert found == []
