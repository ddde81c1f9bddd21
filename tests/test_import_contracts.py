"""The import graph keeps its shape: ``lint-imports`` checks the contracts of ``pyproject.toml``.

The contracts (``[tool.importlinter]``) say that the core imports no Qt and
nothing of the Qt layer, that features sit over views over widgets over the
core, and that no circle of imports joins the features.  Imports made only
for type checking count: a type names a dependency too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import perceptron_gui

ROOT = Path(perceptron_gui.__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"


def lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` on the package importable from ``cwd``, with its ``pyproject.toml``."""
    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True))")
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_the_package_keeps_every_import_contract():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def _package(root: Path, files: dict[str, str]) -> None:
    for name, source in files.items():
        path = root / "perceptron_gui" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        for parent in path.relative_to(root).parents:
            init = root / parent / "__init__.py"
            if parent != Path(".") and not init.exists():
                init.write_text("", encoding="utf-8")
        path.write_text(source, encoding="utf-8")


def test_the_contracts_catch_each_kind_of_break(tmp_path):
    (tmp_path / "pyproject.toml").write_text(PYPROJECT.read_text("utf-8"), encoding="utf-8")
    _package(tmp_path, {
        "app.py": "", "viewer.py": "",
        "core/model.py": "from typing import TYPE_CHECKING\n"
                         "if TYPE_CHECKING:\n    from PySide6 import QtCore\n",
        "ui/views/plot.py": "",
        "ui/widgets/canvas.py": "from ..views import plot\n",
        "ui/features/files.py": "from . import csv_files\n",
        "ui/features/csv_files.py": "from typing import TYPE_CHECKING\n"
                                    "if TYPE_CHECKING:\n    from .files import Manager\n",
    })
    result = lint_imports(tmp_path)
    assert result.returncode != 0
    out = " ".join(result.stdout.split())
    assert "3 broken" in out
    assert "perceptron_gui.core.model -> PySide6" in out
    assert "perceptron_gui.ui.widgets is not allowed to import perceptron_gui.ui.views" in out
    assert "No cycles are allowed in perceptron_gui.ui.features" in out
