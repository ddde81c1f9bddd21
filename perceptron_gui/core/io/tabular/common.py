"""What the sniffer and the reader share: opening a file, quoting a cell.

Every error is a :class:`~perceptron_gui.core.io.FormatError` (a
:class:`ValueError`); cancelling raises :class:`~perceptron_gui.core.io.Cancelled`.
"""

from __future__ import annotations

import os

from .. import files
from ..files import FormatError

__all__ = ["SHOWN_BAD", "open_regular", "short"]

SHOWN_BAD = 5  # bad lines named in an error


def short(text: str, limit: int = 40) -> str:
    """``repr`` of a string cut to ``limit`` characters for a message."""
    if len(text) > limit:
        text = text[:limit] + "…"
    return repr(text)


def open_regular(path):
    """Open a regular file for reading (io.files' one check), with the size limit."""
    name = files.file_name(path)
    try:
        f = files.open_regular(name)
    except OSError as exc:
        raise FormatError(f"cannot read {name!r}: {exc.strerror or exc}") from exc
    try:
        size = os.fstat(f.fileno()).st_size
        if size > files.MAX_FILE_BYTES:
            raise FormatError(
                f"the file is {files.size_text(size)}; the limit is "
                f"{files.size_text(files.MAX_FILE_BYTES)}")
    except BaseException:
        f.close()
        raise
    return f, size
