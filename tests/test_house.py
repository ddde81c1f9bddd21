"""The house stays walkable: a long module says why it is one file."""

import ast
import re
from pathlib import Path

import perceptron_gui

PACKAGE = Path(perceptron_gui.__file__).resolve().parent
#: Longer than this, a module's docstring must say why it is one file.
LONG = 500
SLACK = 50  # "about 500 lines" may grow a little before it must be reconsidered
_STATED = re.compile(r"about ([\d,]+) lines")


def test_every_long_module_states_why_it_is_one_file():
    unexplained = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text("utf-8")
        n = source.count("\n")
        if n <= LONG + SLACK:
            continue
        doc = ast.get_docstring(ast.parse(source)) or ""
        stated = _STATED.search(doc)
        if stated is None or n > int(stated.group(1).replace(",", "")) * 1.25:
            unexplained.append(f"{path.relative_to(PACKAGE)} ({n} lines)")
    assert unexplained == []


def test_the_check_sees_a_module_without_a_reason(tmp_path):
    doc = '"""A module."""\n' + "x = 1\n" * 600
    assert _STATED.search(ast.get_docstring(ast.parse(doc))) is None
