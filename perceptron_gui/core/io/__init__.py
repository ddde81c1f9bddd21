"""Workspace files and CSV: read with validation, written atomically, no Qt.

Everything a user brings in from disk goes through this module, and every
malformed input — truncated, corrupt, hand-edited wrongly, binary, absurdly
large — is answered with a :class:`FormatError` whose message names the line
(CSV) or the field (workspace files), e.g. ``"points[3].x: expected a number,
got 'abc'"`` or ``"line 7, column x: 'abc' is not a number"``. No other
exception type escapes :func:`load_workspace`, :func:`workspace_from_json`,
:func:`read_csv` or :func:`read_csv_with_mapping`, whatever the bytes (the one
exception is :class:`Cancelled`, raised only when a ``progress`` callback asks
for it). Nothing is ever unpickled or evaluated: JSON goes through :mod:`json`,
CSV through pandas' C parser (:mod:`.tabular`), numbers through ``float``.

Loading never touches an existing workspace: :func:`load_workspace` builds a
*new* :class:`~perceptron_gui.core.workspace.Workspace`, so a failed load leaves
the one on screen exactly as it was.

A file that cannot be read at all (missing, no permission) is also reported
as a :class:`FormatError` (``"cannot read 'a.csv': No such file or
directory"``, with the :class:`OSError` as ``__cause__``), so the window
catches one type and shows its message. Only regular files are read: a FIFO,
a directory or a device is refused before it is opened (``"cannot read 'p':
it is not a regular file (a FIFO)"``), so no read waits forever. Files must be
UTF-8 text (a byte-order mark is accepted); UTF-16 and UTF-32 are named as
such, recognisable binary files (PNG, JPEG, PDF, gzip, ZIP/xlsx, pickles, ...)
and anything with a NUL byte are rejected as such, and other bytes that are
not UTF-8 are reported with their offset (``"not UTF-8 text at byte 1234
(line 57)"``, counting bytes from 0). JSON nested too deeply and integers too
long to convert are reported with their line and column, and labels longer
than :data:`~.files.MAX_LABEL_CHARS` characters are refused.

The formats are specified in ``docs/workspace-format.md`` (workspace files,
version 1) and ``docs/csv-format.md`` (CSV, limits and saving). The package
has one module per job: :mod:`.files` (sniffing, limits, progress and the one
atomic writer), :mod:`.workspacefile`, :mod:`.runstep` (recomputing a stored
run position within a time budget), :mod:`.csvfile` and the package
:mod:`.tabular` (the one reader of delimited text, which :mod:`.csvfile`
reads through; not imported here, so that launching does not load it).
"""

from .csvfile import read_csv, read_csv_with_mapping, write_csv
from .files import MAX_FILE_BYTES, MAX_POINTS, Cancelled, FormatError, atomic_write_bytes
from .workspacefile import (
    FORMAT_TAG,
    FORMAT_VERSION,
    load_workspace,
    save_workspace,
    workspace_from_json,
    workspace_json_chunks,
    workspace_to_json,
)

__all__ = [
    "FORMAT_TAG",
    "FORMAT_VERSION",
    "MAX_FILE_BYTES",
    "MAX_POINTS",
    "Cancelled",
    "FormatError",
    "atomic_write_bytes",
    "load_workspace",
    "read_csv",
    "read_csv_with_mapping",
    "save_workspace",
    "workspace_from_json",
    "workspace_json_chunks",
    "workspace_to_json",
    "write_csv",
]
