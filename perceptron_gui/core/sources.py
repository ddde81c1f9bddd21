"""Open what a command line names: a workspace file, a demo file or a demo name.

The file is read once, as a regular file only, and parsed by the core's own
readers, so it gets the same answers as opening it in the window.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import demos
from .io import files, workspacefile
from .io.files import FormatError, Progress
from .workspace import Workspace

__all__ = ["load_source"]


def load_source(source, progress: Progress | None = None
                ) -> tuple[str, Workspace | demos.Demo]:
    """``(kind, loaded)``: a workspace file, a demo file or a shipped demo by name.

    A file's ``"format"`` field says which it is; every error is a one-line
    FormatError that names the file.
    """
    if not isinstance(source, Path):
        source = files.file_name(source)
    text = os.fspath(source)
    if not isinstance(source, Path) and not (text.lower().endswith(".json") or os.sep in text
                                             or "/" in text or os.path.lexists(text)):
        return "demo", demos.load_demo(text)
    path = Path(text)

    def run():
        data = files.read_bytes(text, progress, 0.5)
        if not data:
            raise FormatError("the file is empty")
        content = files.decode(data)
        doc = workspacefile.parse_workspace_json(content)
        if isinstance(doc, dict) and doc.get("format") == demos.FORMAT:
            # demos are small: their own stricter parser reads the text again
            return "demo", demos.parse_demo(content, name=path.stem, source=path.name)
        return "workspace", workspacefile.workspace_from_document(doc, progress)

    try:
        return files.guard_reader("file", run)
    except demos.DemoError:
        raise
    except FormatError as exc:
        problem = str(exc)
        if text in problem:
            raise
        raise FormatError(f"{text}: {problem}") from exc
