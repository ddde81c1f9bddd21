"""The Demos menu's list of demos: the shipped ones, then "Your demos", each playable.

Read when the menu first opens (not while the window starts); a title and
description are read once per file version.
"""

from __future__ import annotations

import importlib

from PySide6 import QtGui

from .. import errors

__all__ = ["DemoList"]

_MENU_CACHE: dict = {}


class DemoList:
    """The demos listed in ``menu`` above ``before``; choosing one calls ``play(path)``."""

    def __init__(self, menu, before, play):
        self._menu, self._before, self._play = menu, before, play
        self._actions: dict[tuple[str, bool], QtGui.QAction] | None = None
        self._items: list[QtGui.QAction] = []
        self._library = None
        menu.aboutToShow.connect(self.fill)

    @property
    def library(self):
        """The shipped demos and the user's (in their data folder; made when first used)."""
        if self._library is None:
            from ...core.demos.library import DemoLibrary
            from .demo_files import user_demo_dir

            self._library = DemoLibrary(user_demo_dir())
        return self._library

    def actions(self, user: bool) -> dict[str, QtGui.QAction]:
        """Each listed demo's action by name: the user's (True) or the shipped ones."""
        self.fill()
        return {name: act for (name, mine), act in self._actions.items() if mine == user}

    def refresh(self) -> None:
        """Forget the list; the next :meth:`fill` (the menu opening) reads it again."""
        for act in self._items:
            self._menu.removeAction(act)
            act.deleteLater()
        self._items = []
        self._actions = None

    def fill(self) -> None:
        """One entry per demo above the demo keys: the shipped ones, then "Your demos"."""
        if self._actions is not None:
            return
        self._actions = {}
        self._items = []
        entries = self.library.entries()
        mine = [e for e in entries if e.user]
        for entry in entries:
            if mine and entry is mine[0]:
                header = QtGui.QAction("Your demos", self._menu)
                header.setSeparator(True)  # a section: drawn as a titled separator
                self._add(header)
            title, description = _menu_text(entry.path, entry.name)
            act = QtGui.QAction(title.replace("&", "&&") + (" ✎" if entry.user else ""), self._menu)
            act.setObjectName(f"actionDemo_{entry.name}" + ("_user" if entry.user else ""))
            act.setToolTip(errors.plain_tooltip(
                description + (f"\n(your demo: {entry.path})" if entry.user else "")))
            act.setStatusTip(description)
            act.triggered.connect(lambda _=False, p=entry.path: self._play(p))
            self._add(act)
            self._actions[entry.name, entry.user] = act
        if not self._actions:
            demos = importlib.import_module("perceptron_gui.core.demos")
            empty = QtGui.QAction(f"(no demos found in {demos.DEMO_DIR})", self._menu)
            empty.setEnabled(False)
            self._add(empty)

    def _add(self, act: QtGui.QAction) -> None:
        self._menu.insertAction(self._before, act)
        self._items.append(act)


def _menu_text(path, name: str) -> tuple[str, str]:
    """A demo's title and description for the menu (loaded once per file version)."""
    demos = importlib.import_module("perceptron_gui.core.demos")
    try:
        key = (str(path), path.stat().st_mtime_ns)
    except OSError:
        key = None
    if key is not None and key in _MENU_CACHE:
        return _MENU_CACHE[key]
    try:
        demo = demos.load_demo(path)
        text = demo.title, demo.description
    except demos.DemoError as exc:
        text = f"{name} (cannot be played)", str(exc)
    if key is not None:
        _MENU_CACHE[key] = text
    return text
