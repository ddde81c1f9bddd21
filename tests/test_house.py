"""The house stays walkable: no module is huge, and none answers lookups by magic.

No module answers attribute lookups with a module-level ``__getattr__``
(PEP 562): a reader must see where each name comes from.  A module's
docstring says what it does, never how long it is.
"""

import ast
import re

from tests.package_source import modules, tree

#: No module is longer than this.
LIMIT = 600
#: Modules over the limit, each waiting for its split (path relative to the package).
OVER_LIMIT: set[str] = set()
#: A size stated in prose: "about 720 lines", "(760 lines)".
_STATED = re.compile(r"\b\d[\d,]* lines\b")


def test_no_module_is_over_the_limit():
    over = sorted(rel for rel, source in modules().items() if source.count("\n") > LIMIT)
    assert [p for p in over if p not in OVER_LIMIT] == []
    assert set(over) == OVER_LIMIT  # a module split is taken off the list


def test_no_module_has_a_module_level_getattr():
    found = [rel for rel, source in modules().items()
             if any(isinstance(node, ast.FunctionDef) and node.name in ("__getattr__", "__dir__")
                    for node in tree(source, rel).body)]
    assert found == []


def stated_sizes(source: str, rel: str = "<module>") -> list[str]:
    """The line counts the docstring of the module ``source`` (named ``rel``) states."""
    return _STATED.findall(ast.get_docstring(tree(source, rel)) or "")


def test_no_module_docstring_states_its_length():
    found = {rel: stated for rel, source in modules().items()
             if (stated := stated_sizes(source, rel))}
    assert found == {}


def test_the_check_sees_a_stated_length():
    assert stated_sizes('"""The module is about 720 lines because."""\n') == ["720 lines"]
    assert stated_sizes('"""One class (about 1,630 lines)."""\n') == ["1,630 lines"]
    assert stated_sizes('"""Skipped rows, in min..max lines."""\nx = "3 lines"\n') == []
