"""Where the files shipped in ``resources/`` are: data sets, demos, icons."""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path

__all__ = ["shipped_dir"]


def shipped_dir(kind: str) -> Path:
    """Where the shipped files of ``kind`` (``"data"``, ``"demos"``, ``"icons"``) are.

    In a source checkout and an editable install, ``resources/`` beside the
    package; a wheel installs them (``[tool.setuptools.data-files]``) under
    the environment's data prefix.
    """
    candidates = [
        Path(__file__).resolve().parents[2] / "resources" / kind,
        Path(sysconfig.get_path("data")) / "share" / "perceptron-gui" / kind,
        Path(sys.prefix) / "share" / "perceptron-gui" / kind,
    ]
    return next((path for path in candidates if path.is_dir()), candidates[0])
