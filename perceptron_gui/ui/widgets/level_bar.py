"""The level bar: the numbered levels, the goal of the one tried, its score and progress."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["LevelBar"]


class LevelBar(QtWidgets.QToolBar):
    """The numbered levels (``buttons``, ✓ once passed), the goal, the score and the progress;
    ``levelRequested(key)`` when a level's button is clicked."""

    levelRequested = QtCore.Signal(str)

    def __init__(self, levels, parent=None):
        super().__init__("Levels", parent)
        self.setObjectName("levelBar")
        self.setMovable(False)
        self._levels = tuple(levels)
        self._attempt = 1
        self._group = QtGui.QActionGroup(self)
        self._group.setExclusive(True)
        box = QtWidgets.QWidget(objectName="levelBox")
        column = QtWidgets.QVBoxLayout(box)
        column.setContentsMargins(4, 2, 4, 2)
        column.setSpacing(2)
        top = QtWidgets.QHBoxLayout()
        top.addWidget(QtWidgets.QLabel("Level"))
        self.buttons: list[QtWidgets.QToolButton] = []
        for i, level in enumerate(self._levels, 1):
            action = QtGui.QAction(str(i), self)
            action.setCheckable(True)
            action.setToolTip(f"Level {i}: {level.title}. {level.goal}")
            action.triggered.connect(lambda _=False, key=level.key: self.levelRequested.emit(key))
            self._group.addAction(action)
            button = QtWidgets.QToolButton(objectName=f"levelButton{i}")
            button.setDefaultAction(action)
            top.addWidget(button)
            self.buttons.append(button)
        top.addStretch(1)
        self.score = QtWidgets.QLabel(objectName="levelScore")
        self.progress = QtWidgets.QLabel(objectName="levelProgress")
        top.addWidget(self.score)
        top.addSpacing(12)
        top.addWidget(self.progress)
        column.addLayout(top)
        goal_row = QtWidgets.QHBoxLayout()
        self.goal = QtWidgets.QLabel(objectName="levelGoal")
        font = self.goal.font()
        font.setBold(True)
        self.goal.setFont(font)
        self.goal.setWordWrap(True)
        goal_row.addWidget(self.goal, 1)
        self.hint_action = QtGui.QAction("Hint", self, objectName="levelHint")
        self.hint_action.setToolTip("Show the level's hint")
        self.hint_action.triggered.connect(self.show_hint)
        self.hint_button = QtWidgets.QToolButton(objectName="levelHintButton")
        self.hint_button.setDefaultAction(self.hint_action)
        goal_row.addWidget(self.hint_button)
        column.addLayout(goal_row)
        self.hint = QtWidgets.QLabel(objectName="levelHintText")
        self.hint.setWordWrap(True)
        self.hint.setVisible(False)
        column.addWidget(self.hint)
        box.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding,
                          QtWidgets.QSizePolicy.Policy.Preferred)
        self.addWidget(box)

    def show_level(self, key: str, progress, attempt: int) -> None:
        """Show the level ``key`` tried, its ``attempt`` (1-based) and ``progress``."""
        i, level = next((i, lv) for i, lv in enumerate(self._levels, 1) if lv.key == key)
        self._group.actions()[i - 1].setChecked(True)
        for j, button in enumerate(self.buttons, 1):  # pressed is faint in some styles
            font = button.font()
            font.setBold(j == i)
            button.setFont(font)
        self.goal.setText(f"{i}. {level.title}: {level.goal}")
        self.hint.setText(f"Hint: {level.hint}")
        self.hint.setVisible(False)
        self.hint_button.setVisible(True)
        self._attempt = attempt
        self.show_progress(progress, key)

    def show_hint(self) -> None:
        """Show the level's hint in place of the Hint button."""
        self.hint_button.setVisible(False)
        self.hint.setVisible(True)

    def show_progress(self, progress, key: str | None = None) -> None:
        """The ticks of the levels passed, the score of level ``key`` and the count passed."""
        for i, level in enumerate(self._levels):
            action = self._group.actions()[i]
            action.setText(f"{i + 1} ✓" if level.key in progress.passed else str(i + 1))
        if key is not None:
            level = next(lv for lv in self._levels if lv.key == key)
            best = progress.best.get(key)
            tail = "no score yet" if best is None else f"best {level.score_text(best)}"
            self.score.setText(f" Attempt {self._attempt} · {tail} ")
        self.progress.setText(f" {len(progress.passed)} of {len(self._levels)} levels passed ")
