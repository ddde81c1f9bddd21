"""``docs/architecture.md`` is a map: short, every path it names exists, and it has the recipes.

A path is a backticked name with a ``/`` or a file suffix (``core/registry.py``,
``ui/features``, ``pyproject.toml``); it may be written from the repository,
from the package or from a folder named nearby, so it must be the end of some
path of the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import perceptron_gui

ROOT = Path(perceptron_gui.__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
#: The map is read in one sitting.
MAX_BYTES = 10_000
#: What a newcomer adds, each with its recipe.
RECIPES = ("A learner", "A view", "A canvas layer", "A mode", "A command")
_PATH = re.compile(r"`([\w./-]+)`")


def named_paths(markdown: str) -> list[str]:
    """The backticked paths of ``markdown``: with a ``/`` or ending in a file suffix."""
    return [p for p in _PATH.findall(markdown)
            if "/" in p or re.search(r"\.(py|toml|md|json|txt)$", p)]


def missing(markdown: str, root: Path) -> list[str]:
    """The paths ``markdown`` names that are no path of ``root`` (nor the end of one)."""
    known = {p.relative_to(root).as_posix() for p in root.rglob("*")
             if ".git" not in p.parts and "__pycache__" not in p.parts}
    ends = {"/".join(parts[i:]) for k in known for parts in [k.split("/")]
            for i in range(len(parts))}
    return [p for p in named_paths(markdown) if p.strip("/") not in ends]


def test_the_map_is_short():
    assert len(DOC.read_bytes()) <= MAX_BYTES


def test_every_path_on_the_map_exists():
    assert missing(DOC.read_text(encoding="utf-8"), ROOT) == []


def test_the_map_has_a_recipe_for_each_kind_of_addition():
    headings = re.findall(r"^### (.+)$", DOC.read_text(encoding="utf-8"), re.M)
    assert [h for h in RECIPES if h not in headings] == []


def test_the_check_sees_a_path_that_is_gone(tmp_path):
    (tmp_path / "pkg" / "core").mkdir(parents=True)
    (tmp_path / "pkg" / "core" / "registry.py").write_text("", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    doc = ("`core/registry.py`, `registry.py`, `pkg/core/`, `pyproject.toml`, `show(X)`, "
           "`core/gone.py`, `ui/views`, `gone.md`")
    assert missing(doc, tmp_path) == ["core/gone.py", "ui/views", "gone.md"]
