"""The window's one side panel: a column of sections that fold away, scrolled vertically only."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

__all__ = ["Section", "SidePanel"]


class Section(QtWidgets.QWidget):
    """A titled section whose ``content`` folds away under its checkable ``header``;
    :attr:`toggled` (False: folded)."""

    toggled = QtCore.Signal(bool)

    def __init__(self, key: str, title: str, content: QtWidgets.QWidget,
                 expanded: bool = True, parent=None):
        super().__init__(parent)
        self.setObjectName(f"section_{key}")
        self.header = QtWidgets.QToolButton(objectName=f"sectionHeader_{key}")
        self.header.setText(title)
        self.header.setCheckable(True)
        self.header.setAutoRaise(True)
        self.header.setToolButtonStyle(QtCore.Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.header.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding,
                                  QtWidgets.QSizePolicy.Policy.Fixed)
        font = self.header.font()
        font.setBold(True)
        self.header.setFont(font)
        self.header.setToolTip(f"Fold or unfold “{title}”")
        self.header.setAccessibleName(f"{title} section")
        self.content = content
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.header)
        layout.addWidget(content)
        self.header.toggled.connect(self._on_toggled)
        self.header.setChecked(expanded)
        self._on_toggled(expanded)

    def is_expanded(self) -> bool:
        """True when the content shows."""
        return self.header.isChecked()

    def set_expanded(self, on: bool) -> None:
        """Unfold (True) or fold (False) the section."""
        self.header.setChecked(bool(on))

    def _on_toggled(self, on: bool) -> None:
        self.header.setArrowType(QtCore.Qt.ArrowType.DownArrow if on
                                 else QtCore.Qt.ArrowType.RightArrow)
        self.content.setVisible(on)
        self.toggled.emit(on)


class SidePanel(QtWidgets.QScrollArea):
    """A vertical, scrollable column of :class:`Section` objects (``sections``, by key)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("sidePanel")
        self.sections: dict[str, Section] = {}
        self._column = QtWidgets.QWidget(objectName="sidePanelColumn")
        self._layout = QtWidgets.QVBoxLayout(self._column)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(2)
        self._layout.addStretch(1)
        self.setWidget(self._column)
        self.setWidgetResizable(True)
        self.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def add_section(self, key: str, title: str, content: QtWidgets.QWidget,
                    expanded: bool = True, before: str | None = None) -> Section:
        """Append a section (above the stretch), or put it before the section ``before``."""
        section = Section(key, title, content, expanded)
        where = (self._layout.indexOf(self.sections[before]) if before in self.sections
                 else self._layout.count() - 1)
        self._layout.insertWidget(where, section)
        self.sections[key] = section
        return section

    def expanded_state(self) -> dict[str, bool]:
        """Whether each section is unfolded, by key (what the window saves)."""
        return {key: s.is_expanded() for key, s in self.sections.items()}

    def set_expanded_state(self, state: dict) -> None:
        """Unfold or fold the sections named in ``state`` (key -> expanded)."""
        for key, on in state.items():
            if key in self.sections:
                self.sections[key].set_expanded(bool(on))
