"""What every export shares: sizes, presets, the export error, and atomic file writing.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6 import QtCore, QtGui

from ....core.io import Cancelled, atomic_write_bytes

#: Preset export sizes (width, height) offered besides the canvas's own size.
PRESETS = {"1920 × 1080": (1920, 1080), "1280 × 720": (1280, 720)}
#: How a run advances between two GIF frames: one sample, one update or one epoch.
STEP_UNITS = ("update", "sample", "epoch")
MIN_SIZE, MAX_SIZE = 16, 8192
MAX_FRAMES = 2000
#: Default sizes and frame counts of the headless renderer.
DEFAULT_IMAGE_SIZE = (960, 720)
DEFAULT_GIF_SIZE = (640, 480)
DEFAULT_RUN_FRAMES = 60
DEFAULT_FPS = {"run": 4.0, "demo": 0.5}
EXTENSIONS = (".png", ".svg", ".gif")
#: The most run steps ``perceptron-gui render`` computes for a demo: 10⁷ steps of a
#: non-separable run on 10⁶ points take about 2 s and 0.6 GB (the whole render); a run
#: that needs more is refused, with a message, rather than left to fill the memory.
RENDER_STEP_BUDGET = 10_000_000


class ExportError(Exception):
    """An export that cannot be done; the message is one line, for a dialog or stderr."""


def check_writable(path) -> Path:
    """Raise :class:`ExportError` unless a file can be created at ``path``."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ExportError(f"cannot write {str(path)!r}: the folder {str(folder)!r} does not exist")
    if path.is_dir():
        raise ExportError(f"cannot write {str(path)!r}: it is a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ExportError(f"cannot write {str(path)!r}: the folder {str(folder)!r} is not "
                          "writable (permission denied)")
    return path


def stop_if(cancelled) -> None:
    """Raise ``Cancelled`` when ``cancelled`` (a callable or None) says so."""
    if cancelled is not None and cancelled():
        raise Cancelled("export cancelled")


def write_file(path, data) -> None:
    """Write ``data`` (bytes, or byte chunks) to ``path`` atomically; an OSError becomes a
    one-line :class:`ExportError` (``path`` untouched), the chunks' ``Cancelled`` passes."""
    chunks = [data] if isinstance(data, (bytes, bytearray)) else data
    try:
        atomic_write_bytes(path, chunks)
    except OSError as exc:
        raise ExportError(f"cannot write {os.fspath(path)!r}: {exc.strerror or exc}") from exc


def qimage_bytes(image: QtGui.QImage, fmt: str = "PNG", quality: int = -1) -> bytes:
    """Encode a QImage (PNG by default) to bytes."""
    buffer = QtCore.QBuffer()
    buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, fmt, quality):
        raise ExportError(f"could not encode the image as {fmt}")
    return bytes(buffer.data())


def parse_size(text: str) -> tuple[int, int]:
    """``"800x600"`` (or ``800×600``) to ``(800, 600)``; ExportError when malformed."""
    try:  # a wrong count of parts fails to unpack: ValueError too
        w, h = (int(part) for part in str(text).strip().lower().replace("×", "x").split("x"))
    except ValueError:
        raise ExportError(f"bad size {text!r}: expected WIDTHxHEIGHT, e.g. 800x600") from None
    check_size(w, h)
    return w, h


def check_size(w: int, h: int) -> None:
    """ExportError unless ``MIN_SIZE <= w, h <= MAX_SIZE``."""
    if not (MIN_SIZE <= w <= MAX_SIZE and MIN_SIZE <= h <= MAX_SIZE):
        raise ExportError(f"bad size {w}x{h}: width and height must be between "
                          f"{MIN_SIZE} and {MAX_SIZE} pixels")


def deliver_layout() -> None:
    """Deliver pending layout requests (only those), so widgets have their final geometry."""
    QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.LayoutRequest)
