"""Workspace files and CSV: read with validation, written atomically, no Qt.

Every malformed input is answered with a :class:`FormatError` whose message
names the line (CSV) or the field (workspace files); no other exception
escapes the readers but :class:`Cancelled`.  Nothing is unpickled or
evaluated, and a failed load leaves the workspace on screen as it was.
:mod:`.tabular` is not imported here, so that launching does not load it.
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

__all__ = ["FORMAT_TAG", "FORMAT_VERSION", "MAX_FILE_BYTES", "MAX_POINTS", "Cancelled",
           "FormatError", "atomic_write_bytes", "load_workspace", "read_csv",
           "read_csv_with_mapping", "save_workspace", "workspace_from_json",
           "workspace_json_chunks", "workspace_to_json", "write_csv"]
