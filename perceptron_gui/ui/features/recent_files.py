"""File ▸ Open recent, the folder the file dialogs start in (kept in QSettings), the save
dialog, and where an entry goes in the File menu."""

from __future__ import annotations

import os

from PySide6 import QtCore, QtWidgets

from .. import errors, settings
from .progress import Job

#: The most files the "Recent files" menu lists.
MAX_RECENT = 8
#: QSettings key of the recent files list (newest first).
RECENT_KEY = "files/recent"
#: QSettings key of the folder of the last file dialog.
FOLDER_KEY = "files/folder"


def insert_menu_above(menu: QtWidgets.QMenu, item, action) -> None:
    """Put ``item`` (an action or a submenu) in ``menu`` above the separator that precedes
    ``action`` (else last)."""
    if isinstance(item, QtWidgets.QMenu):
        item = item.menuAction()
    acts, before = menu.actions(), None  # inserting before None appends
    if action in acts:
        i = acts.index(action)
        before = acts[i - 1] if i and acts[i - 1].isSeparator() else action
    menu.insertAction(before, item)


def ask_save_path(parent, title: str, start: str, filters: str, suffix: str = "") -> str | None:
    """The save dialog's file (None when none was chosen), ``suffix`` added to a bare name."""
    path, _ = QtWidgets.QFileDialog.getSaveFileName(parent, title, start, filters)
    if path and not os.path.splitext(os.path.basename(path))[1]:
        path += suffix
    return path or None


class RecentFiles:
    """The recent files and the last folder: a mixin of :class:`~.files.FileManager`."""

    def recent_files(self) -> list[str]:
        """The recent workspace files, newest first (as stored; may include missing ones)."""
        return [v for v in settings.value(RECENT_KEY, "texts", []) if v][:MAX_RECENT]

    def _set_recent(self, files: list[str]) -> None:
        QtCore.QSettings().setValue(RECENT_KEY, list(files[:MAX_RECENT]))

    def add_recent(self, path: str) -> None:
        """Put ``path`` first in the recent files."""
        path = os.path.abspath(path)
        self._set_recent([path] + [f for f in self.recent_files() if f != path])

    def clear_recent(self) -> None:
        """Forget every recent file."""
        self._set_recent([])

    def rebuild_recent_menu(self) -> None:
        """Fill the "Open recent" menu, missing files pruned first.

        Called when the menu is about to show, never from one of its own
        entries (that would delete the action being triggered).
        """
        files = self.recent_files()
        missing = [f for f in files if not os.path.isfile(f)]
        if missing:
            files = [f for f in files if f not in missing]
            self._set_recent(files)
            names = ", ".join(os.path.basename(f) for f in missing)
            self._window.show_message(f"Removed from the recent files (no longer found): {names}")
        menu = self.recent_menu
        menu.clear()
        for i, path in enumerate(files, start=1):
            text = os.path.basename(path).replace("&", "&&")
            act = menu.addAction(f"&{i} {text}" if i < 10 else text)
            act.setObjectName(f"actionRecent{i}")
            act.setToolTip(errors.plain_tooltip(path))
            act.setStatusTip(path)
            act.setData(path)
            act.triggered.connect(lambda _=False, p=path: self.open_recent(p))
        if files:
            menu.addSeparator()
        menu.addAction(self.actionClearRecent)
        self.actionClearRecent.setEnabled(bool(files))

    def open_recent(self, path: str) -> Job:
        """Open a recent file; a file that vanished is dropped from the list with a message."""
        if not os.path.isfile(path):
            self._set_recent([f for f in self.recent_files() if f != path])
            self._window.report_error("File not found", f"{path} no longer exists; it was "
                                      "removed from the recent files.")
            return Job.resolved(False)
        return self.open_path(path)

    def folder(self) -> str:
        """The folder of the last file dialog (default: Documents, or home), always existing.

        A file dialog given a path that does not exist puts its last part in
        the file name field.
        """
        folder = settings.value(FOLDER_KEY, "text", "")
        paths = QtCore.QStandardPaths
        for candidate in (folder, paths.writableLocation(paths.DocumentsLocation),
                          paths.writableLocation(paths.HomeLocation)):
            if isinstance(candidate, str) and candidate and os.path.isdir(candidate):
                return candidate
        return os.getcwd()

    def remember_folder(self, path: str) -> None:
        """The next file dialog starts in ``path``'s folder."""
        QtCore.QSettings().setValue(FOLDER_KEY, os.path.dirname(os.path.abspath(path)))
