"""``docs/architecture.md`` names every module of the package in a table, with its one job.

A module is named by its file name (``switch.py``, also as the end of a path
such as ``learners/primal.py``), by its stem in backticks where a row lists
a package's modules (``dialect``), or by its path; a package's
``__init__.py`` by the package's path (``theory/``).  Only the tables'
rows count: a name in the prose says where something is, not what it is for.
"""

from __future__ import annotations

import re
from pathlib import Path

import perceptron_gui

PACKAGE = Path(perceptron_gui.__file__).resolve().parent
DOC = PACKAGE.parent / "docs" / "architecture.md"


def table_rows(markdown: str) -> str:
    """The lines of the document's tables, joined."""
    return "\n".join(line for line in markdown.splitlines() if line.lstrip().startswith("|"))


def is_named(relative: Path, rows: str) -> bool:
    """Whether the module at ``relative`` (to the package) is named in ``rows``."""
    if relative.name == "__init__.py":
        package = relative.parent
        if not package.parts:
            return "`perceptron_gui/`" in rows
        return any(f"`{name}/`" in rows or f"{name}/`" in rows
                   for name in (package.as_posix(), package.name))
    return bool(re.search(rf"(?<![\w.]){re.escape(relative.name)}(?![\w])", rows)
                or f"`{relative.stem}`" in rows
                or relative.as_posix() in rows)


def unnamed(package: Path, markdown: str) -> list[str]:
    """The modules under ``package`` that the tables of ``markdown`` do not name."""
    rows = table_rows(markdown)
    return [path.relative_to(package).as_posix() for path in sorted(package.rglob("*.py"))
            if not is_named(path.relative_to(package), rows)]


def test_every_module_is_named_in_the_architecture_tables():
    assert unnamed(PACKAGE, DOC.read_text(encoding="utf-8")) == []


def test_the_check_sees_a_module_left_out(tmp_path):
    package = tmp_path / "pkg"
    (package / "core" / "io").mkdir(parents=True)
    for name in ("__init__.py", "app.py", "core/__init__.py", "core/io/__init__.py",
                 "core/io/reader.py", "core/switch.py", "core/swit.py", "core/dialect.py"):
        (package / name).write_text('"""A module."""\n', encoding="utf-8")
    doc = ("# Rooms\n\nThe prose mentions `swit.py` and `app.py`, which does not count.\n\n"
           "| room | job |\n|---|---|\n| `perceptron_gui/` | the package |\n"
           "| `core/` | the core: `switch.py`, `io/reader.py`, `dialect` |\n")
    assert unnamed(package, doc) == ["app.py", "core/io/__init__.py", "core/swit.py"]
    assert unnamed(package, doc + "| `app.py`, `io/`, `swit.py` | the rest |\n") == []
