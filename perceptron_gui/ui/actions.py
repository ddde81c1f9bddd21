"""The window's actions as data: an :class:`ActionSpec` each, made and enabled by :class:`Actions`.

Every ``when`` reads one context of values the window and its features provide
(``modes``, ``can_undo``, ``game`` …).  Actions sharing a key declare disjoint
predicates: a key held by two enabled actions triggers neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6 import QtGui

from .modes import ESC

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["ActionSpec", "Actions"]


@dataclass(frozen=True)
class ActionSpec:
    """One action, declared: what :meth:`Actions.make` builds.

    ``slot`` is called on ``triggered`` (a checkable action's on ``toggled``); ``keys``:
    the first is shown (``key_in_tip``); ``when(context)``: whether enabled (None: its
    owner says); ``name``: the object name (default ``"action"`` and the id in CamelCase).
    """

    id: str
    text: str
    slot: Callable | None = None
    keys: tuple = ()
    tip: str = ""
    menu: str | None = None
    when: Callable[[Mapping[str, Any]], bool] | None = None
    checkable: bool = False
    checked: bool = False
    icon: Any = None
    icon_text: str = ""
    name: str = ""
    key_in_tip: bool = False

    def sequences(self) -> list[QtGui.QKeySequence]:
        """The key sequences (a standard key gives every binding of the platform's)."""
        std = QtGui.QKeySequence.StandardKey
        return [seq for k in self.keys for seq in (
            QtGui.QKeySequence.keyBindings(k) if isinstance(k, std) else [QtGui.QKeySequence(k)])]

    @property
    def object_name(self) -> str:  # noqa: D102
        return self.name or "action" + "".join(p[:1].upper() + p[1:] for p in self.id.split("_"))


class Actions(dict):
    """The window's actions by id, made from specs and enabled from the context."""

    def __init__(self, window):
        super().__init__()
        self._window = window
        #: id -> the spec each action made here was made from
        self.specs: dict[str, ActionSpec] = {}
        self._when: dict[str, Callable] = {}
        self._context: dict[str, Callable[[], Any]] = {
            "modes": lambda: frozenset(window.modes.active)}

    def make(self, spec: ActionSpec) -> QtGui.QAction:
        """Make the action ``spec`` declares, register it under its id and return it."""
        w = self._window
        action = QtGui.QAction(spec.text, w)
        action.setObjectName(spec.object_name)
        tip = spec.tip
        keys = spec.sequences()
        if keys:
            action.setShortcuts(keys)
            if spec.key_in_tip and tip:
                tip = f"{tip} ({keys[0].toString()})"
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        if spec.icon is not None:
            action.setIcon(w.style().standardIcon(spec.icon))
        if spec.icon_text:
            action.setIconText(spec.icon_text)
        if spec.checkable:
            action.setCheckable(True)
            action.setChecked(spec.checked)
        if spec.slot is not None:
            slot = spec.slot
            if spec.checkable:
                action.toggled.connect(slot)
            else:
                action.triggered.connect(lambda _checked=False: slot())
        self.add(spec.id, action)
        self.specs[spec.id] = spec
        if spec.menu is not None:
            w.menus[spec.menu].addAction(action)
        if spec.when is not None:
            self._when[spec.id] = spec.when
            action.setEnabled(bool(spec.when(self.context())))
        return action

    def add(self, action_id: str, action: QtGui.QAction) -> QtGui.QAction:
        """Register an action Qt made (a dock's toggle) under ``action_id`` (not taken)."""
        if self.get(action_id, action) is not action:
            raise ValueError(f"an action with id {action_id!r} is already registered")
        self[action_id] = action
        self._window.addAction(action)
        if ESC in action.shortcuts():  # a mode's Esc starts disabled until its mode is on
            self._window.modes.update_esc()
        return action

    def provide(self, key: str, value: Callable[[], Any]) -> None:
        """Add ``key`` to the context, read from ``value()`` at each :meth:`update`."""
        self._context[key] = value

    def context(self) -> dict[str, Any]:
        """The context the ``when`` predicates read, now."""
        return {key: value() for key, value in self._context.items()}

    def update(self, *_args) -> None:
        """Enable each action that declares ``when`` as it says over the context now."""
        context = self.context()
        for action_id, when in self._when.items():
            on = bool(when(context))
            if self[action_id].isEnabled() != on:
                self[action_id].setEnabled(on)

    def holders(self) -> dict[str, list[str]]:
        """Each key -> the ids of the enabled, visible actions holding it."""
        held: dict[str, list[str]] = {}
        for action_id, action in self.items():
            if action.isEnabled() and action.isVisible():
                for key in action.shortcuts():
                    if not key.isEmpty():
                        held.setdefault(key.toString(), []).append(action_id)
        return held
