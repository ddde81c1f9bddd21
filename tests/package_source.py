"""The package's modules as text and as syntax trees, read and parsed once per process.

The rule tests (``tests/test_house_rules.py`` and others) each walk every
module; they share these, so the package is read and parsed once per test
process instead of once per rule.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import perceptron_gui

#: The package's folder.
PACKAGE = Path(perceptron_gui.__file__).resolve().parent


@functools.cache
def modules() -> dict[str, str]:
    """Every module of the package: its path relative to :data:`PACKAGE` -> its text."""
    return {path.relative_to(PACKAGE).as_posix(): path.read_text("utf-8")
            for path in sorted(PACKAGE.rglob("*.py"))}


@functools.lru_cache(maxsize=2048)
def tree(source: str, rel: str) -> ast.Module:
    """The syntax tree of ``source`` (named ``rel`` in errors); do not change it."""
    return ast.parse(source, rel)


@functools.lru_cache(maxsize=2048)
def nodes(source: str, rel: str) -> tuple[ast.AST, ...]:
    """Every node of :func:`tree` (``source``, ``rel``), in ``ast.walk``'s order."""
    return tuple(ast.walk(tree(source, rel)))
