"""The user's own demos in the window: where they live, and the Demos menu's file entries
(record, edit, import, export, delete, slides)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6 import QtCore, QtGui, QtWidgets

from .. import errors
from ..actions import ActionSpec
from . import demo_recorder
from .recent_files import ask_save_path

if TYPE_CHECKING:
    from .demo_editor import DemoEditor

__all__ = ["DemoFiles", "user_demo_dir"]


def user_demo_dir() -> Path:
    """The folder of the user's demos: ``demos`` in the application's data folder."""
    base = QtCore.QStandardPaths.writableLocation(
        QtCore.QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base) / "demos"


class DemoFiles(QtCore.QObject):
    """The Demos menu's entries for recording, editing and the user's demo files.

    ``changed``: the user's demos changed; ``editor`` is the editor while it is open.
    """

    changed = QtCore.Signal()

    def __init__(self, window, demos):
        super().__init__(window)
        self.setObjectName("demoFiles")
        self._window = window
        self._demos = demos
        self.recorder = demo_recorder.DemoRecorder(window, demos)
        self.editor: DemoEditor | None = None
        self.slides_job = None
        self.recorder.saved.connect(self._on_saved)
        self.recorder.handed_over.connect(self.edit_draft)
        self._build_menu()

    def _build_menu(self) -> None:
        menu = self._demos.menu
        entries = [self.recorder.actionRecord, self.recorder.actionSave,
                   self.recorder.actionDiscard]
        self.edit_menu = QtWidgets.QMenu("&Edit a demo", menu, objectName="menuEditDemo")
        self.export_menu = QtWidgets.QMenu("E&xport one of your demos", menu,
                                           objectName="menuExportDemo")
        self.delete_menu = QtWidgets.QMenu("&Delete one of your demos", menu,
                                           objectName="menuDeleteDemo")
        self.slides_menu = QtWidgets.QMenu("Export a demo as &slides", menu,
                                           objectName="menuSlidesDemo")
        self.actionImport = self._window.actions.make(ActionSpec(
            "import_demo", "&Import a demo file…", lambda: self.import_demo(),
            tip="Add a demo file from a colleague to your demos"))
        # after the demos and the player's keys, at the menu's end
        menu.addSeparator()
        for act in entries:
            menu.addAction(act)
        for sub in (self.edit_menu, self.export_menu, self.delete_menu, self.slides_menu):
            menu.addMenu(sub)
            sub.aboutToShow.connect(lambda s=sub: self._fill(s))
        menu.addAction(self.actionImport)

    # -- the submenus ---------------------------------------------------------------------
    def _fill(self, sub: QtWidgets.QMenu) -> None:
        """One entry per demo (the user's only for export and delete)."""
        sub.clear()
        mine_only = sub in (self.export_menu, self.delete_menu)
        slot = {self.edit_menu: self.edit_demo, self.export_menu: self.export_demo,
                self.delete_menu: self.delete_demo, self.slides_menu: self.export_slides}[sub]
        entries = [e for e in self._demos.library.entries() if e.user or not mine_only]
        for entry in entries:
            text = entry.title + (" (yours)" if entry.user and not mine_only else "")
            act = sub.addAction(text)
            act.setObjectName(f"demoEntry_{entry.name}")
            act.setData(entry.name)
            act.triggered.connect(lambda _=False, e=entry: slot(e.name, user=e.user))
        if not entries:
            empty = sub.addAction("(none yet: Record a new demo)")
            empty.setEnabled(False)

    def entry_actions(self, sub: QtWidgets.QMenu) -> dict[str, QtGui.QAction]:
        """The submenu's entries by demo name (filled first)."""
        self._fill(sub)
        return {act.data(): act for act in sub.actions() if act.data()}

    # -- the files --------------------------------------------------------------------------
    def _reported(self, failed: str, call, done=None):
        """``call()`` (then ``done(result)`` in the status bar), or None after reporting its
        DemoError under the title ``failed``."""
        from ...core.demos import DemoError

        try:
            result = call()
        except (DemoError, StopIteration) as exc:
            self._window.report_error(failed, str(exc))
            return None
        if done is not None:
            self._window.show_message(done(result))
        return result

    def _entry(self, name: str, user: bool):
        return next(e for e in self._demos.library.entries() if e.name == name and e.user == user)

    def edit_demo(self, name: str, user: bool = False):
        """Open the demo ``name`` in the editor (a shipped one saves as your copy)."""
        from ...core.demos import load_demo

        demo = self._reported("The demo cannot be edited",
                              lambda: load_demo(self._entry(name, user).path))
        return None if demo is None else self._open_editor(demo, name if user else None)

    def edit_draft(self, draft):
        """Open ``draft`` (a recording handed over) in the editor; it saves as a new demo."""
        return self._open_editor(draft, None)

    def _open_editor(self, demo, name: str | None):
        from . import demo_editor

        if self.editor is not None:
            self.editor.close()
        self.editor = demo_editor.DemoEditor(self._window, demo, name, self._demos)
        self.editor.saved.connect(self._on_saved)
        self.editor.finished.connect(self._editor_closed)
        self.editor.show()
        return self.editor

    def import_demo(self, path: str | None = None):
        """Copy a demo file into your demos after validating it; returns its entry."""
        if path is None:
            path, _ = QtWidgets.QFileDialog.getOpenFileName(
                self._window, "Import a demo file", str(Path.home()),
                "Demo files (*.json);;All files (*)")
            if not path:
                return None
        entry = self._reported("The demo was not imported",
                               lambda: self._demos.library.import_file(path),
                               lambda e: f"Imported “{e.title}” into your demos (Demos menu).")
        if entry is not None:
            self._on_saved(entry)
        return entry

    def export_demo(self, name: str, user: bool = True, path: str | None = None):
        """Write your demo ``name`` to a single file to share; returns its path."""
        if path is None:
            path = ask_save_path(self._window, "Export a demo", str(Path.home() / f"{name}.json"),
                                 "Demo files (*.json)")
            if path is None:
                return None
        return self._reported("The demo was not exported",
                              lambda: self._demos.library.export(name, path),
                              lambda out: f"Exported the demo to {out}.")

    def delete_demo(self, name: str, user: bool = True) -> bool:
        """Remove your demo ``name`` (after asking); True when removed."""
        b = QtWidgets.QMessageBox.StandardButton
        title = self._entry(name, True).title
        if errors.ask(self._window, "Delete the demo?", f"“{title}” is removed from your "
                      "demos; this cannot be undone.", b.Yes | b.Cancel, b.Cancel) != b.Yes:
            return False
        deleted = self._reported("The demo was not deleted",
                                 lambda: self._demos.library.delete(name) or True,
                                 lambda _: f"Deleted “{title}”.")
        if deleted:
            self._on_saved(None)
        return bool(deleted)

    def export_slides(self, name: str, user: bool = False, folder: str | None = None):
        """Render the demo ``name`` as slides into ``folder``; returns the job (or None)."""
        from .export import runner
        from .export.slides import demo_slides_steps

        if self.slides_job is not None:
            return None
        if folder is None:
            folder = QtWidgets.QFileDialog.getExistingDirectory(
                self._window, "Export the demo as slides into a folder", str(Path.home()))
            if not folder:
                return None
        entry = self._entry(name, user)
        out = Path(folder)
        if out.is_dir() and any(out.iterdir()):
            out = out / entry.name  # a folder of its own, never mixed with other files
        job, _dialog = runner.start(
            self._window,
            lambda progress, cancelled: demo_slides_steps(
                entry.path, out, progress=progress, cancelled=cancelled, checked=True),
            title="Export the demo as slides", name="slidesProgress", parent=self)
        self.slides_job = job

        def finished(result):
            self.slides_job = None
            if job.error is not None:
                self._window.report_error("The slides were not written", job.error)
            elif result is not None:
                self._window.show_message(f"Wrote {result.frames} slides to {result.folder} "
                                          "(slides.md, slides.html).")

        job.finished.connect(finished)
        return job

    # -- changes ----------------------------------------------------------------------------
    def _on_saved(self, _entry) -> None:
        self._demos.listing.refresh()
        self.changed.emit()

    def _editor_closed(self, _result=None) -> None:
        editor, self.editor = self.editor, None
        if editor is not None:
            editor.deleteLater()
