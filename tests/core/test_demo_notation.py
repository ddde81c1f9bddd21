"""One notation everywhere: Unicode subscripts, numbers as the window writes them, one glossary.

The readouts and the update log write ``αᵢ``, ``yᵢ``, ``xᵢ``, ``zᵢ``, ``wₖ``
and ``x₁``; a caption or an exercise beside them must not write ``α_i`` or
``w_k``.  A count or quantity of four digits or more has thousands
separators (``29,740``, ``2,017.4``), as
:func:`~perceptron_gui.core.text.fmt_count` and
:func:`~perceptron_gui.core.text.fmt` write them: never ``29 740`` or ``2668``.

Each symbol has one meaning, kept in the glossary ``docs/notation.md``: its
table's last column lists the spellings no user-visible text may hold (the
demos, the strings of the package other than docstrings, the README and the
other docs), and :func:`test_no_text_uses_a_spelling_the_glossary_forbids`
scans them all.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from pathlib import Path

import pytest

from perceptron_gui.core import demos, exercises

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "notation.md"

#: An ASCII subscript: a letter (or ‖, α…) then "_" then an index letter or digit.
_ASCII_SUBSCRIPT = re.compile(r"(?<![A-Za-z_])[A-Za-zα-ω‖]_(?:[ikjn0-9]\b|\{)")
#: A number of four or more digits without separators, or with a space as separator.
_UNGROUPED = re.compile(r"(?<![\d.,])\d{4,}(?![\d])|\b\d{1,3} \d{3}\b")


def _texts(name):
    demo = demos.load_demo(name)
    yield "description", demo.description
    for i, step in enumerate(demo.steps, 1):
        yield f"step {i}", step.caption


def test_the_patterns_catch_what_they_should():
    assert _ASCII_SUBSCRIPT.search("w = Σ α_i y_i x_i") and _ASCII_SUBSCRIPT.search("w_k·w*")
    assert not _ASCII_SUBSCRIPT.search("max_iter = 1,000 and αᵢ, wₖ·w*, x₁²")
    assert _UNGROUPED.search("(R/γ)² = 29 740") and _UNGROUPED.search("after 2668 updates")
    assert not _UNGROUPED.search("(R/γ)² = 29,740 and 2,017.4 and 0.0155 and 548.7")


@pytest.mark.parametrize("name", demos.list_demos())
def test_captions_use_the_windows_notation(name):
    for where, text in _texts(name):
        # parameter names such as max_iter are code, not subscripts
        assert not _ASCII_SUBSCRIPT.search(text.replace("max_iter", "")), (name, where, text)
        assert not _UNGROUPED.search(text), (name, where, text)


def _exercise_texts():
    for level in exercises.LEVELS:
        for field in ("title", "goal", "hint"):
            yield f"{level.key}.{field}", getattr(level, field)


def test_exercises_use_the_windows_notation():
    texts = list(_exercise_texts())
    assert texts
    for where, text in texts:
        assert not _ASCII_SUBSCRIPT.search(text), (where, text)


# ------------------------------------------------------------------ the glossary


def _cells(row: str) -> list[str]:
    """The cells of a Markdown table row, ``\\|`` read as a ``|`` inside a cell."""
    parts = re.split(r"(?<!\\)\|", row.strip().strip("|"))
    return [part.replace("\\|", "|").strip() for part in parts]


def forbidden_spellings(text: str) -> dict[str, str]:
    """Forbidden spelling -> the symbol the glossary writes instead, from its table."""
    table = text.split("<!-- notation-table", 1)[1].split("\n", 1)[1]
    rows = [line for line in table.splitlines() if line.startswith("|")]
    header = _cells(rows[0])
    assert header[0] == "symbol" and header[-1] == "never written", header
    found = {}
    for row in rows[2:]:
        cells = _cells(row)
        assert len(cells) == len(header), row
        for spelling in re.findall(r"`([^`]+)`", cells[-1]):
            found[spelling] = cells[0]
    return found


@functools.cache
def _package_strings() -> tuple[tuple[str, str], ...]:
    """(where, text) of every string literal of the package that is not a docstring
    (parsed once for the tests that read them)."""
    return tuple(_parsed_package_strings())


def _parsed_package_strings():
    for path in sorted((ROOT / "perceptron_gui").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef)) and ast.get_docstring(node) is not None:
                docstrings.add(id(node.body[0].value))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docstrings):
                yield f"{path.relative_to(ROOT)}:{node.lineno}", node.value


def _json_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _json_strings(item)


def _visible_texts():
    """(where, text) of every user-visible text source."""
    for path in sorted((ROOT / "resources" / "demos").glob("*.json")):
        for text in _json_strings(json.loads(path.read_text(encoding="utf-8"))):
            yield str(path.relative_to(ROOT)), text
    yield from _package_strings()
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        if path != GLOSSARY:
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                yield f"{path.relative_to(ROOT)}:{i}", line.replace("\\|", "|")


def test_the_glossary_table_is_read():
    found = forbidden_spellings(GLOSSARY.read_text(encoding="utf-8"))
    assert found["P(+1 |"] == "`P(y = +1 | x)`"
    assert all(spelling.strip() for spelling in found)
    symbols = {symbol for symbol in found.values()}
    assert len(symbols) >= 5, symbols


def test_the_scan_reaches_every_kind_of_source():
    wheres = [where for where, _ in _visible_texts()]
    assert any(w.startswith("resources/demos/") for w in wheres)
    assert any(w.startswith("perceptron_gui/ui/widgets/readouts.py") for w in wheres)
    assert any(w.startswith("perceptron_gui/core/exercises.py") for w in wheres)
    assert any(w.startswith("README.md") for w in wheres)
    package = dict(_package_strings())
    assert not any(text.startswith("The readouts' numbers") for text in package.values())


def test_no_text_uses_a_spelling_the_glossary_forbids():
    forbidden = forbidden_spellings(GLOSSARY.read_text(encoding="utf-8"))
    found = [(where, spelling, symbol, text[:120])
             for where, text in _visible_texts()
             for spelling, symbol in forbidden.items() if spelling in text]
    assert found == [], "\n".join(f"{w}: {s!r} (write {sym}) in {t!r}"
                                   for w, s, sym, t in found)
