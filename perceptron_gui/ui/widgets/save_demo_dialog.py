"""The Save dialog of a recorded demo: its title and description, and numbers left unchecked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6 import QtWidgets

if TYPE_CHECKING:
    from ...core.demos.draft import DemoDraft

__all__ = ["SaveDemoDialog"]


class SaveDemoDialog(QtWidgets.QDialog):
    """The title and description of a recording being saved; unchecked numbers listed."""

    def __init__(self, parent, draft: DemoDraft, unchecked: list):
        super().__init__(parent)
        self.setObjectName("saveRecordingDialog")
        self.setWindowTitle("Save the demo")
        from ...core.demos.format import MAX_TITLE_CHARS  # the demos load when first used

        self.title_edit = QtWidgets.QLineEdit(draft.title, objectName="demoTitle")
        self.title_edit.setMaxLength(MAX_TITLE_CHARS)
        self.title_edit.setPlaceholderText("The Demos menu's entry")
        self.description_edit = QtWidgets.QPlainTextEdit(draft.description,
                                                         objectName="demoDescription")
        self.description_edit.setPlaceholderText("What the demo shows (its first caption)")
        form = QtWidgets.QFormLayout()
        form.addRow("&Title", self.title_edit)
        form.addRow("&Description", self.description_edit)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(form)
        if unchecked:
            listed = ", ".join(f"step {i}: “{t}”" for i, t in unchecked[:8])
            note = QtWidgets.QLabel(
                f"Typed numbers no quantity checks ({listed}). They are saved as written: "
                "attach a quantity to keep them honest if the demo changes.",
                objectName="uncheckedNumbers")
            note.setWordWrap(True)
            layout.addWidget(note)
        self.buttons = QtWidgets.QDialogButtonBox(
            QtWidgets.QDialogButtonBox.StandardButton.Save
            | QtWidgets.QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.title_edit.textChanged.connect(self._update)
        self._update()

    def title(self) -> str:
        """The title typed (stripped)."""
        return self.title_edit.text().strip()

    def description(self) -> str:
        """The description typed (stripped)."""
        return self.description_edit.toPlainText().strip()

    def _update(self) -> None:
        self.buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Save).setEnabled(
            bool(self.title()))
