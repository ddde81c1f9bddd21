"""One way to write a number: the Qt layer formats numbers only through ``core/text.py``.

An AST walk over ``perceptron_gui/ui`` and ``perceptron_gui/viewer.py`` flags
every format specification (``f"{x:.2f}"``, ``f"{n:,}"``, ``"%d" % n``,
``"{:.3g}".format(x)``) in text people read; the formatters of
:mod:`perceptron_gui.core.text` (``fmt_count``, ``fmt``, ``fmt_percent``,
``fmt_tick``) are the one place that writes a number.  Sizes handed to Qt's
style sheets and the SVG writer's coordinates are not read by people and are
allowed by name below.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import perceptron_gui
from perceptron_gui.core.text import TIMES

PACKAGE = Path(perceptron_gui.__file__).parent
SOURCES = sorted((PACKAGE / "ui").rglob("*.py")) + [PACKAGE / "viewer.py"]

#: Files whose number formatting is for machines, not people, with why.
MACHINE_TEXT = {
    # SVG path data and coordinates: the file's syntax, not text on a picture
    "ui/features/export/svg.py",
}
#: A format spec directly followed by one of these units is a size for Qt's CSS.
_CSS_UNIT = re.compile(r"^(pt|px)\b")
_PERCENT_SPEC = re.compile(r"%[-+ #0]*\d*(\.\d+)?[dfegiEG]")
#: A bare ``{k}`` before one of these words is a count written by ``str``: ``31044 updates``
#: where the timeline says ``31,044`` (a format spec is not needed to miss the formatter).
_NOUNS = r"(update|step|case|point|sample|epoch|mistake|pass|iteration|row|feature)"
_COUNT_NOUN = re.compile(rf"^ {_NOUNS}(e?s)?\b")
#: The formatters a bare count may go through (``{fmt_count(k)} updates`` is right).
_FORMATTERS = {"fmt", "fmt_count", "fmt_percent", "fmt_tick", "fmt_short", "plural", "fmt_rate"}


def _formatted(value: ast.expr) -> bool:
    """Whether ``value`` is a call of one of the core's formatters."""
    if isinstance(value, ast.Call):
        f = value.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        return name in _FORMATTERS
    return False


def _flagged(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    where = path.relative_to(PACKAGE).as_posix()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            parts = node.values
            for i, part in enumerate(parts):
                if not isinstance(part, ast.FormattedValue):
                    continue
                after = parts[i + 1] if i + 1 < len(parts) else None
                if part.format_spec is None:
                    counted = (isinstance(after, ast.Constant) and isinstance(after.value, str)
                               and _COUNT_NOUN.match(after.value))
                    if counted and not _formatted(part.value):
                        found.append(f"{where}:{node.lineno}: {ast.unparse(node)[:70]}")
                        break
                    continue
                if (isinstance(after, ast.Constant) and isinstance(after.value, str)
                        and _CSS_UNIT.match(after.value)):
                    continue
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)[:70]}")
                break
        elif (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)
              and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)
              and _PERCENT_SPEC.search(node.left.value)):
            found.append(f"{where}:{node.lineno}: {ast.unparse(node)[:70]}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "format" and isinstance(node.func.value, ast.Constant)
              and isinstance(node.func.value.value, str)
              and re.search(r"\{[^}]*:[^}]+\}", node.func.value.value)):
            found.append(f"{where}:{node.lineno}: {ast.unparse(node)[:70]}")
    return found


def test_the_walk_finds_bare_number_formats(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('a = f"k = {k:,} and {x:.2f}"\nb = "%d points" % n\n'
                      'c = "{:.3g}".format(x)\nd = f"{size:g}pt"\ne = f"{fmt(x)}"\n'
                      'f = f"{k} updates; the last on case {i}"\n'
                      'g = f"{fmt_count(k)} updates, {plural(n, \'case\')}"\n'
                      'h = f"{name} steps"\n')
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path
    try:
        found = _flagged(sample)
    finally:
        PACKAGE = saved
    # a bare {k} before a counted noun is a count written by str (line 6); {name} on line 8
    # reads as one too: the rule asks for the formatter or another word order
    assert [line.split(":")[1] for line in found] == ["1", "2", "3", "6", "8"]


def test_the_ui_writes_numbers_only_through_the_core_formatters():
    found = []
    for path in SOURCES:
        if path.relative_to(PACKAGE).as_posix() in MACHINE_TEXT:
            continue
        found.extend(_flagged(path))
    assert not found, ("format numbers with core.text (fmt_count, fmt, fmt_percent, "
                       "fmt_tick):\n" + "\n".join(found))


# --------------------------------------------------------------------------- the surfaces


def _one_wrong_in(n_per_class: int):
    """Two far-apart clusters and one +1 point inside the −1 cluster: LDA misses exactly it."""
    import numpy as np

    from perceptron_gui.core.dataset import Dataset

    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(-5, 0.5, (n_per_class, 2)), rng.normal(5, 0.5, (n_per_class, 2)),
                   [[-5.0, -5.0]]])
    y = np.r_[-np.ones(n_per_class), np.ones(n_per_class), 1]
    return Dataset(X, y)


def test_a_tiny_training_error_reads_as_a_percentage(window):
    from perceptron_gui.core.dataset import ReplaceAll

    data = _one_wrong_in(1_064)  # 1 of 2,129
    assert window.push_edit(ReplaceAll.from_dataset(data, "data"))
    window.workspace.set_learner("lda")
    window.settle()
    error = window.essentials.texts()["error"]
    assert error == "Training error 0.047 %  (1 of 2,129)"


def test_canvas_ticks_use_one_notation_at_every_range(window, qtbot):
    canvas = window.canvas
    times = TIMES[:-2]
    for span, expected in ((8e7, f"{times}10⁷"), (2e4, ","), (3e-6, f"{times}10⁻")):
        canvas.set_view_rect((0.0, span), (0.0, span))
        window.settle()
        axis = canvas.getPlotItem().getAxis("bottom")
        ticks = [t for t in axis.shown_ticks() if t != "0"]
        assert ticks, span
        assert not any("e" in t for t in ticks), ticks  # never 8e7 or 1.5e-06
        assert any(expected in t for t in ticks), (span, ticks)
