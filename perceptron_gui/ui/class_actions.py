"""The class list: an action per class of the data set (keys 1 to 8), and add, rename, remove.

The edit toolbar and the Edit menu list the classes in the order the data set lists
them (+1 and −1 first, as ever): the checked one is the class a left click adds.
Adding, renaming and removing a class are edits, undone as any other.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from ..core.class_edits import AddClass, RemoveClass, RenameClass, class_texts, default_class_name
from ..core.commands import EditData
from ..core.values import MAX_CLASSES
from .actions import ActionSpec

__all__ = ["ClassActions", "GLYPHS"]

#: The glyph of each class's marker (``style.CLASS_SYMBOLS``), for a text-only button.
GLYPHS = ("●", "■", "▼", "◆", "★", "⬢", "▲", "⬟")
#: The binary problem's texts, as the window has always had them.
_BINARY = (("Class +1 (blue ●)", "● +1", "Left click adds class +1"),
           ("Class −1 (vermilion ■)", "■ −1", "Left click adds class −1"))


class ClassActions(QtCore.QObject):
    """The class actions of ``window`` (``class_0`` … ``class_7``, ``class_add``,
    ``class_rename``, ``class_remove``), the classes kept listed in each of ``places``.

    ``places`` are ``(widget, before)``: a toolbar or a menu, and the action of its that
    the class actions go before.
    """

    def __init__(self, window, places):
        super().__init__(window)
        self._window, self._places = window, tuple(places)
        make = window.actions.make
        window.actions.provide("n_classes", lambda: window.workspace.dataset.n_classes)
        self.group = QtGui.QActionGroup(self)
        self.actions = [make(ActionSpec(
            f"class_{k}", f"Class {k + 1}", lambda on, k=k: on and self._choose(k), (str(k + 1),),
            checkable=True, key_in_tip=True, when=lambda c, k=k: k < c["n_classes"]))
            for k in range(MAX_CLASSES)]
        for action in self.actions:
            self.group.addAction(action)
        self.actions[0].setChecked(True)
        self.add_action = make(ActionSpec(
            "class_add", "Add a &class…", self.ask_add,
            tip="A new class, with no point yet (at most 8)",
            when=lambda c: c["n_classes"] < MAX_CLASSES))
        self.rename_action = make(ActionSpec(
            "class_rename", "Re&name the active class…", self.ask_rename,
            tip="Give the class a left click adds a name"))
        self.remove_action = make(ActionSpec(
            "class_remove", "Remove the active class", self.remove_active,
            tip="Remove the class a left click adds, and its points (undoable)",
            when=lambda c: c["n_classes"] > 2))
        self._listed: tuple = ((), None)  # the classes listed and their names
        window.workspace.events.dataset_changed.connect(self.sync)
        window.canvas.activeClassChanged.connect(self._on_active)
        self.sync()

    # -- the list --------------------------------------------------------------------
    def sync(self, *_args) -> None:
        """List the data set's classes: texts, places in the toolbar and menu, the check.

        A point edit (a drag, at every move) changes neither the classes nor their names:
        then only the check is looked at.
        """
        ds = self._window.workspace.dataset
        if (ds.listed_classes, ds.class_names) != self._listed:
            self._relist(ds)
        self._on_active(self._window.canvas.active_class)

    def _relist(self, ds) -> None:
        texts = class_texts(ds)
        for k, action in enumerate(self.actions[: len(texts)]):
            if ds.is_binary:
                text, short, tip = _BINARY[k]
            else:
                name = texts[k] if len(texts[k]) <= 12 else texts[k][:11] + "…"
                text, short = f"Class {texts[k]} ({GLYPHS[k]})", f"{GLYPHS[k]} {name}"
                tip = f"Left click adds {texts[k]}"
            action.setText(text)
            action.setIconText(short)
            action.setToolTip(f"{tip} ({k + 1})")
        if ds.listed_classes != self._listed[0]:
            shown = self.actions[: ds.n_classes]
            for widget, before in self._places:  # listed again: the classes changed
                for action in self.actions:
                    widget.removeAction(action)
                widget.insertActions(before, shown)
        self._listed = (ds.listed_classes, ds.class_names)
        self._window.actions.update()  # the keys of the classes there are

    def _choose(self, k: int) -> None:
        listed = self._window.workspace.dataset.listed_classes
        if k < len(listed):
            self._window.canvas.active_class = listed[k]

    def _on_active(self, label: int) -> None:
        listed = self._window.workspace.dataset.listed_classes
        if label in listed:
            self.actions[listed.index(label)].setChecked(True)

    # -- add, rename, remove -------------------------------------------------------------
    def add_class(self, name: str) -> bool:
        """Add a class named ``name`` and make it active; False (and why) if refused."""
        if not self._edit(lambda: AddClass(name)):
            return False
        self._window.canvas.active_class = max(self._window.workspace.dataset.classes)
        return True

    def rename_active(self, name: str) -> bool:
        """Rename the active class; False (and why) if refused."""
        return self._edit(lambda: RenameClass(self._window.canvas.active_class, name))

    def remove_active(self) -> bool:
        """Remove the active class and its points (undoable); False (and why) if refused."""
        return self._edit(lambda: RemoveClass(self._window.canvas.active_class))

    def ask_add(self) -> bool:
        """Ask for the new class's name, then add it."""
        ds = self._window.workspace.dataset
        name, ok = QtWidgets.QInputDialog.getText(
            self._window, "Add a class", "Name of the new class:",
            text=default_class_name(max(ds.classes) + 1))
        return self.add_class(name) if ok else False

    def ask_rename(self) -> bool:
        """Ask for the active class's new name, then rename it."""
        ds = self._window.workspace.dataset
        current = class_texts(ds)[ds.listed_classes.index(self._window.canvas.active_class)]
        name, ok = QtWidgets.QInputDialog.getText(
            self._window, "Rename the class", "New name of the class:", text=current)
        return self.rename_active(name) if ok else False

    def _edit(self, make) -> bool:
        try:
            return self._window.dispatch(EditData(make()))
        except ValueError as exc:
            self._window.report_error(f"Not done: {exc}", dialog=False)
            return False
