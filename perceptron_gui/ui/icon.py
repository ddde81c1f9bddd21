"""The application's icon: ``resources/icons/perceptron-gui.svg``, in a checkout or a wheel."""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path

from PySide6 import QtGui

__all__ = ["ICON_FILE", "app_icon"]

_NAME = "perceptron-gui.svg"


def _find_icon() -> Path:
    """Where the icon is.

    In a source checkout and an editable install it is
    ``perceptron_gui/../resources/icons``; a wheel installs it with its
    ``[tool.setuptools.data-files]`` under ``<prefix>/share/perceptron-gui/icons``,
    as it does the demos.
    """
    candidates = [
        Path(__file__).resolve().parents[2] / "resources" / "icons" / _NAME,
        Path(sysconfig.get_path("data")) / "share" / "perceptron-gui" / "icons" / _NAME,
        Path(sys.prefix) / "share" / "perceptron-gui" / "icons" / _NAME,
    ]
    for path in candidates:
        if path.is_file():
            return path
    return candidates[0]


#: The icon's SVG file.
ICON_FILE: Path = _find_icon()


def app_icon() -> QtGui.QIcon:
    """The window and application icon (two classes of points and a separating line)."""
    return QtGui.QIcon(str(ICON_FILE))
