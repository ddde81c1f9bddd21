"""The demo editor: a demo's steps listed, reordered, deleted, captioned and re-validated.

The caption box measures the selected step's quantities on the demo *at that
step*; *Check* plays the whole demo (off the UI thread, as the measuring) and
lists every problem; *Save* saves only a demo whose every claim holds.  Every
change is one undo step of the editor's own stack.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6 import QtCore, QtGui, QtWidgets

from ...core import Workspace
from ...core.commands import Command, Seek
from ...core.demos import Demo, DemoError, DemoPlayer
from ...core.demos.draft import DemoDraft, DraftStep, Problem
from .. import workers
from ..commands import UndoStep
from ..widgets import Guard
from ..widgets.caption_box import CaptionBox

__all__ = ["DemoEditor", "WHAT_IT_DOES"]

#: The choices of *What it does*: label -> the step's data (``None``: a seek, asked).
WHAT_IT_DOES: dict[str, dict | None] = {
    "Only a caption (a note)": {"action": "note"},
    "Step one sample": {"action": "step"},
    "Step to the next update": {"action": "step_update"},
    "Step to the end of the epoch": {"action": "step_epoch"},
    "Run to the end": {"action": "run_to_end"},
    "Reset to w = 0": {"action": "reset"},
    "Go to step…": None,
}
_KEEP = "As recorded: "


@dataclass(frozen=True, eq=False)
class _Shown(Command):
    """A draft shown with its step ``select`` selected: one side of an undo step (successive
    edits of one step's caption merge)."""

    draft: DemoDraft
    select: int
    label: str = ""

    def execute(self, editor) -> None:
        editor.show_draft(self.draft.copy(), self.select)

    def merge(self, later: Command) -> Command | None:
        return later if isinstance(later, _Shown) else None

    @property
    def text(self) -> str:
        return self.label


class DemoEditor(QtWidgets.QDialog):
    """The editor of one demo, or of a draft (a recording handed over), saving to the user
    demo ``name`` (None: a new one)."""

    saved = QtCore.Signal(object)
    checked = QtCore.Signal(list)

    def __init__(self, window, demo: Demo, name: str | None, demos):
        super().__init__(window)
        self.setObjectName("demoEditor")
        self.setWindowTitle(f"Edit demo — {demo.title}")
        self.setModal(False)
        self._window, self._name, self._demos = window, name, demos
        self.draft = demo.copy() if isinstance(demo, DemoDraft) else DemoDraft.from_demo(demo)
        self._player: DemoPlayer | None = None  # the demo at the selected step
        self._measuring = None
        self._checking = None
        self._closed = False
        self._loading = Guard()
        self.undo_stack = QtGui.QUndoStack(self)
        self._build()
        self.show_draft(self.draft, 0)
        self.resize(900, 640)

    # -- construction -----------------------------------------------------------------
    def _build(self) -> None:
        self.title_edit = QtWidgets.QLineEdit(objectName="editorTitle")
        self.steps = QtWidgets.QListWidget(objectName="editorSteps")
        self.steps.setDragDropMode(QtWidgets.QAbstractItemView.DragDropMode.InternalMove)
        self.steps.model().rowsMoved.connect(self._on_rows_moved)
        self.steps.currentRowChanged.connect(self._on_select)
        self.what = QtWidgets.QComboBox(objectName="editorWhat")
        self.what.activated.connect(self._on_what)
        self.seek = QtWidgets.QSpinBox(objectName="editorSeek", minimum=0, maximum=10**9)
        self.seek.setPrefix("step ")
        self.seek.editingFinished.connect(self._on_seek)
        self.caption_box = CaptionBox(lambda: self._player, self)
        self.caption_box.changed.connect(self._on_caption)
        self.problem_list = QtWidgets.QListWidget(objectName="editorProblems")
        self.problem_list.itemActivated.connect(self._on_problem)
        self.problem_list.itemClicked.connect(self._on_problem)
        self.state = QtWidgets.QLabel(objectName="editorState")
        self.state.setWordWrap(True)

        def button(text, slot, name):
            b = QtWidgets.QPushButton(text, objectName=name)
            b.clicked.connect(lambda _checked=False: slot())  # not the flag as an argument
            return b

        self.up_button = button("Move &up", lambda: self.move_step(-1), "editorUp")
        self.down_button = button("Move d&own", lambda: self.move_step(+1), "editorDown")
        self.delete_button = button("&Delete step", self.delete_step, "editorDelete")
        self.note_button = button("Add a &caption step", self.add_note, "editorNote")
        self.check_button = button("C&heck", self.check, "editorCheck")
        self.play_button = button("&Play", self.play, "editorPlay")
        self.save_button = button("&Save", self.save, "editorSave")
        self.close_button = button("Close", self.close, "editorClose")
        undo = self.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QtGui.QKeySequence.StandardKey.Undo)
        redo = self.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcut(QtGui.QKeySequence("Ctrl+Shift+Z"))
        self.addActions([undo, redo])
        self.title_edit.editingFinished.connect(self._on_title)

        left = QtWidgets.QVBoxLayout()
        left.addWidget(self.steps, 1)
        row = QtWidgets.QHBoxLayout()
        for b in (self.up_button, self.down_button, self.delete_button, self.note_button):
            row.addWidget(b)
        left.addLayout(row)
        right = QtWidgets.QFormLayout()
        what = QtWidgets.QHBoxLayout()
        what.addWidget(self.what, 1)
        what.addWidget(self.seek)
        for label, field in (("&Title", self.title_edit), ("What it does", what),
                             ("Caption", self.caption_box), ("", self.state),
                             ("Problems", self.problem_list)):
            right.addRow(label, field)
        top = QtWidgets.QHBoxLayout()
        top.addLayout(left, 2)
        top.addLayout(right, 3)
        bottom = QtWidgets.QHBoxLayout()
        for b in (self.check_button, self.play_button):
            bottom.addWidget(b)
        bottom.addStretch(1)
        for b in (self.save_button, self.close_button):
            bottom.addWidget(b)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(top, 1)
        layout.addLayout(bottom)

    # -- showing ----------------------------------------------------------------------------
    def show_draft(self, draft: DemoDraft, select: int) -> None:
        """Show ``draft`` and select its step ``select`` (0: the start)."""
        self.draft = draft
        with self._loading:
            self.title_edit.setText(draft.title)
            self.steps.clear()
            self.steps.addItems(_rows(draft))
            self.steps.setCurrentRow(max(0, min(select, len(draft.steps))))
        self._on_select(self.steps.currentRow())

    @property
    def current(self) -> int:
        """The selected step, 1-based (0: the start and its description)."""
        return max(0, self.steps.currentRow())

    def select(self, step: int) -> None:
        """Select the step ``step`` (0: the start)."""
        self.steps.setCurrentRow(step)

    def _on_select(self, row: int) -> None:
        if self._loading or row < 0:
            return
        step = self.draft.steps[row - 1] if row > 0 else None
        self.caption_box.set_step(self.draft.caption(row), step.checks if step else {})
        with QtCore.QSignalBlocker(self.what):
            self.what.clear()
            self.what.setEnabled(step is not None)
            if step is not None:
                for label in WHAT_IT_DOES:
                    self.what.addItem(label)
                current = self._what_label(step)
                if current is None:
                    self.what.insertItem(0, _KEEP + step.text)
                    self.what.setCurrentIndex(0)
                else:
                    self.what.setCurrentText(current)
        command = {} if step is None else step.data.get("command", {})
        seek = command.get("step") if command.get("command") == "seek" else None
        self.seek.setVisible(seek is not None)
        if seek is not None:
            self.seek.setValue(int(seek))
        n = len(self.draft.steps)
        self.up_button.setEnabled(row > 1)
        self.down_button.setEnabled(0 < row < n)
        self.delete_button.setEnabled(row > 0)
        self._measure(row)

    @staticmethod
    def _what_label(step: DraftStep) -> str | None:
        if step.data.get("command", {}).get("command") == "seek":
            return "Go to step…"
        return next((label for label, data in WHAT_IT_DOES.items()
                     if data is not None and step.data == data), None)

    def _measure(self, row: int) -> None:
        """Play the draft to step ``row`` off the UI thread; the caption box measures there."""
        self._player = None
        self.caption_box.refresh()
        self.state.setText("Measuring the demo at this step…")
        draft = self.draft.copy()
        token = object()
        self._measuring = token

        def play():
            demo = draft.to_demo()
            player = DemoPlayer(Workspace(), demo, step_budget=5_000_000)
            player.goto(row)
            return player

        def done(player):
            if self._measuring is token:
                self._player = player
                r = player.workspace.readouts()
                self.state.setText(f"At step {row}: {r.bound_text or r.status}")
                self.caption_box.refresh()

        def failed(exc):
            if self._measuring is token:
                self.state.setText(f"Cannot measure here: {exc}")

        workers.start(play, returned=done, errored=failed)

    # -- edits (each one undo step) --------------------------------------------------------
    def _change(self, text: str, edit, select: int | None = None,
                key: int | None = None) -> None:
        """One undo step: the draft changed by ``edit``; ``key``: typing in that step's caption."""
        before = self.draft.copy()
        after = self.draft.copy()
        edit(after)
        select = self.current if select is None else select
        shown = _Shown(after, select, text)
        if key is None:
            shown.execute(self)
        else:
            self.adopt(after.copy())
        self.undo_stack.push(UndoStep(self, shown, _Shown(before, select, text), merge=key,
                                      done=True))

    def adopt(self, draft: DemoDraft) -> None:
        """Take ``draft`` (a caption edit) without touching what is being typed."""
        self.draft = draft
        with self._loading:
            for i, text in enumerate(_rows(draft)):
                self.steps.item(i).setText(text)

    def _on_caption(self) -> None:
        row = self.current
        caption, checks = self.caption_box.caption(), self.caption_box.checks()

        def edit(d: DemoDraft):
            d.set_caption(row, caption)
            if row:
                d.steps[row - 1].checks = checks

        self._change("Edit the caption", edit, key=row)

    def _on_title(self) -> None:
        title = self.title_edit.text().strip()
        if title and title != self.draft.title:
            self._change("Rename the demo", lambda d: setattr(d, "title", title))

    def _on_what(self, index: int) -> None:
        row = self.current
        label = self.what.itemText(index)
        if row == 0 or label.startswith(_KEEP):
            return
        data = WHAT_IT_DOES[label]
        if data is None:
            data = {"command": Seek(self.seek.value()).to_dict()}

        def edit(d: DemoDraft):
            d.steps[row - 1].data = dict(data)

        self._change(f"The step does: {label}", edit)

    def _on_seek(self) -> None:
        row = self.current
        if row and self.seek.isVisible():
            value = self.seek.value()
            self._change(f"Go to step {value}", lambda d: d.replace_command(row, Seek(value)))

    def _on_rows_moved(self, _parent, start, _end, _dest, row) -> None:
        if self._loading:
            return
        src = start
        dst = row if row < start else row - 1
        if src == 0 or dst == 0:  # the start stays first
            self.show_draft(self.draft, self.current)
            return
        self._change("Move the step", lambda d: d.move(src, dst), select=dst)

    def move_step(self, by: int) -> None:
        """Move the selected step up (-1) or down (+1)."""
        row = self.current
        to = row + by
        if row < 1 or not 1 <= to <= len(self.draft.steps):
            return
        self._change("Move the step", lambda d: d.move(row, to), select=to)

    def delete_step(self) -> None:
        """Delete the selected step."""
        row = self.current
        if row < 1:
            return
        self._change("Delete the step", lambda d: d.delete(row), select=row - 1)

    def add_note(self) -> None:
        """Add a caption-only step after the selected one."""
        row = self.current
        self._change("Add a caption step", lambda d: d.add_note("", at=row), select=row + 1)

    def done(self, result: int) -> None:  # noqa: D102 - QDialog's; work in flight is dropped
        self._measuring = None
        self._closed = True
        super().done(result)

    # -- check, play, save --------------------------------------------------------------------
    def check(self, then=None) -> None:
        """Play the whole demo off the UI thread, checking every claim; list the problems."""
        if self._checking is not None:
            return
        draft = self.draft.copy()
        self.check_button.setEnabled(False)
        self.save_button.setEnabled(False)
        self.problem_list.clear()
        self.problem_list.addItem("Checking every step…")

        def done(problems):
            self._checking = None
            if self._closed:
                return
            self.check_button.setEnabled(True)
            self.save_button.setEnabled(True)
            self.problem_list.clear()
            for p in problems:
                item = QtWidgets.QListWidgetItem(str(p))
                item.setData(QtCore.Qt.ItemDataRole.UserRole, p.step)
                self.problem_list.addItem(item)
            if not problems:
                self.problem_list.addItem("Every step's claims hold.")
            self.checked.emit(problems)
            if then is not None:
                then(problems)

        def failed(exc):
            done([Problem(0, f"the check itself failed: {exc}")])

        self._checking = workers.start(draft.validate, returned=done, errored=failed)

    def _on_problem(self, item: QtWidgets.QListWidgetItem) -> None:
        step = item.data(QtCore.Qt.ItemDataRole.UserRole)
        if step is not None:
            self.select(int(step))

    def play(self) -> None:
        """Play the demo as it stands in the main window."""
        try:
            demo = self.draft.to_demo(self._name or "draft")
        except DemoError as exc:
            self._window.report_error("The demo cannot be played yet", str(exc))
            return
        self._demos.play(demo)

    def save(self) -> None:
        """Check, then save (a shipped demo as your copy) when every claim holds."""
        def then(problems):
            if problems:
                self._window.report_error("Not saved: fix the problems listed first",
                                          "\n".join(map(str, problems[:12])), dialog=False)
                return
            try:
                entry = self._demos.library.save(self.draft, self._name, validate=False)
            except DemoError as exc:
                self._window.report_error("The demo was not saved", str(exc))
                return
            self._name = entry.name
            self.undo_stack.setClean()
            self._window.show_message(f"Saved “{entry.title}” in your demos.")
            self.saved.emit(entry)

        self.check(then)


def _short(text: str, n: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _rows(draft: DemoDraft) -> list[str]:
    """The steps list's lines: the start and its description, then each step and caption."""
    return [f"Start — {_short(draft.description) or '(no description)'}",
            *(f"{i}. {step.text} — {_short(step.caption) or '(no caption)'}"
              for i, step in enumerate(draft.steps, 1))]
