"""No module outside ``core/learners/`` compares a learner's name: callers read capabilities.

``if learner == "lda"`` is a registry that forgot a field: the learner's spec
(:class:`~perceptron_gui.core.learners.registry.LearnerSpec`) and its
capabilities say what it can do, so a new learner needs no edit elsewhere.
"""

from __future__ import annotations

import ast

from perceptron_gui.core.learners import registry
from tests.package_source import modules, nodes

#: Where the learners are defined: the one place that may know them by name.
LEARNERS_DIR = "core/learners/"


def _keys_in(node: ast.AST, keys: set[str]) -> list[str]:
    """The learner keys ``node`` is, as a string constant or a tuple, list or set of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if node.value in keys else []
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [k for elt in node.elts for k in _keys_in(elt, keys)]
    return []


def name_comparisons(source: str, rel: str, keys: set[str]) -> list[str]:
    """``rel:line: expression`` for each comparison with a learner key among its operands."""
    found = []
    for node in nodes(source, rel):
        if isinstance(node, ast.Compare) and any(
                _keys_in(operand, keys) for operand in (node.left, *node.comparators)):
            found.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_checker_finds_a_name_comparison():
    source = (
        "if ws.learner_name == 'lda': pass\n"
        "ok = 'dual' != name\n"
        "steps = key in ('primal', 'dual')\n"
        "fitted = key not in {'lda'}\n"
        "fine = layer == 'boundary' or kind in ('a', 'b') or name == other\n"
    )
    assert name_comparisons(source, "ui/x.py", {"primal", "dual", "lda"}) == [
        "ui/x.py:1: ws.learner_name == 'lda'",
        "ui/x.py:2: 'dual' != name",
        "ui/x.py:3: key in ('primal', 'dual')",
        "ui/x.py:4: key not in {'lda'}",
    ]


def test_no_learner_name_is_compared_outside_the_learners():
    keys = set(registry.REGISTRY)
    assert {"primal", "dual", "lda"} <= keys
    sources = modules()
    outside = {rel: source for rel, source in sources.items() if not rel.startswith(LEARNERS_DIR)}
    assert len(outside) > 100 and len(outside) < len(sources)
    found = [hit for rel, source in outside.items()
             for hit in name_comparisons(source, rel, keys)]
    assert found == []
