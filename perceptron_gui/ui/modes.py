"""The window's modes: what each shows, hides and switches, who gets Esc, its edit guards.

A mode (presenter mode, a playing demo, the game …) is a :class:`Mode` subclass in
:data:`MODE_TYPES`.  The :class:`ModeManager` puts every item, switch and guard back
once no mode on declares it (shown wins over hidden), and gives Esc to one action at
a time: an enabled Esc action that is no mode's (Cancel) first, then the modes' by
:attr:`Mode.esc_priority`, lowest first.
"""

from __future__ import annotations

from typing import ClassVar

from PySide6 import QtCore, QtGui, QtWidgets

from ..core.commands import SetLayers, SetViewRect
from ..core.registry import Registry

__all__ = ["ESC", "MODE_TYPES", "Mode", "ModeManager", "register_mode", "unregister_mode"]

#: The key the modes share.
ESC = QtGui.QKeySequence(QtCore.Qt.Key.Key_Escape)


class Mode:
    """What a mode of the window changes while it is on (one instance per entry).

    Attributes
    ----------
    esc : str or None
        The id of the action Esc triggers in this mode.
    layers : dict of str to bool
        The layer switches set while the mode is on.
    keeps_view : bool
        Every layer switch and the view rectangle given back on leaving (a level
        changes them as it goes).
    """

    name: ClassVar[str] = ""
    esc: ClassVar[str | None] = None
    esc_priority: ClassVar[int] = 100
    layers: ClassVar[dict[str, bool]] = {}
    keeps_view: ClassVar[bool] = False

    def __init__(self, window):
        self.window = window

    def hidden(self) -> list:
        """The widgets, docks, toolbars and actions hidden while the mode is on."""
        return []

    def editing_hidden(self, sections=(), docks=(), toolbars=(), actions=()) -> list:
        """For :meth:`hidden`: the side sections, docks, toolbars and actions of these names
        that exist, and the editing controls (the edit toolbar, the class actions)."""
        w = self.window
        tables = ((w.side_panel.sections, sections), (w.docks, docks),
                  (w.toolbars, toolbars), (w.actions, actions))
        items = [table[k] for table, keys in tables for k in keys if k in table]
        return items + [w.toolbars["edit"], *w.classes.actions, w.classes.add_action,
                        w.classes.rename_action, w.classes.remove_action]

    def shown(self) -> list:
        """The items shown while the mode is on (over another mode's :meth:`hidden`)."""
        return []

    def entered(self) -> None:
        """Called once the mode's items are hidden and shown (default: nothing)."""

    def guards(self) -> list:
        """Callables ``guard(edit) -> bool`` added to ``window.edit_guards`` while on."""
        return []

    def set_visible(self, item, on: bool) -> None:
        """Show or hide one of :meth:`hidden` (the views area through the window's view state)."""
        if item is self.window.views:
            self.window.set_views_visible(on)
        else:
            item.setVisible(on)


#: Mode name -> its class.
MODE_TYPES: Registry[type[Mode]] = Registry.of_subclasses("mode", Mode)


#: ``register_mode(cls)`` adds a :class:`Mode` subclass by its ``name`` and returns it;
#: ``unregister_mode(name)`` removes one.
register_mode, unregister_mode = MODE_TYPES.register, MODE_TYPES.unregister


class ModeManager(QtCore.QObject):
    """The modes a window is in, and what they hide, guard and do with Esc."""

    #: A mode was entered (True) or left (False), after the change.
    changed = QtCore.Signal(str, bool)

    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("modes")
        self._window = window
        #: name -> (mode, guards added, its options), in the order entered
        self._on: dict[str, tuple[Mode, list, dict]] = {}
        #: name -> (layer switches to give back, view rectangle or None) on leaving
        self._saved: dict[str, tuple[dict, tuple | None]] = {}
        #: item -> whether it was visible before a mode first hid or showed it
        self._base: dict = {}
        self._watched: set = set()  # other Esc actions whose changes re-route Esc

    @property
    def active(self) -> tuple[str, ...]:
        """The names of the modes on, in the order they were entered."""
        return tuple(self._on)

    def is_active(self, name: str) -> bool:
        """True while the mode named ``name`` is on."""
        return name in self._on

    def enter(self, name: str, **options) -> None:
        """Switch the mode ``name`` on with ``options`` for its class (again: the new options)."""
        old = self._on.get(name)
        if old is not None and old[2] == options:
            return
        before = self._wanted()
        mode = MODE_TYPES[name](self._window, **options)
        if old is not None:  # the same mode with other options (another demo)
            self._on[name] = (mode, old[1], dict(options))
            self._follow(before, mode)
            mode.entered()
            return
        guards = list(mode.guards())
        self._save(name, mode)
        self._on[name] = (mode, guards, dict(options))
        self._follow(before, mode)
        self._window.edit_guards.extend(guards)
        mode.entered()
        self.update_esc()
        self.changed.emit(name, True)

    def leave(self, name: str) -> None:
        """Switch the mode ``name`` off: each item as the modes still on want it."""
        if name not in self._on:
            return
        before = self._wanted()
        mode, guards, _options = self._on.pop(name)
        self._follow(before, mode)
        for guard in guards:
            self._window.edit_guards.remove(guard)
        self._give_back(name)
        self.update_esc()
        self.changed.emit(name, False)

    def _save(self, name: str, mode: Mode) -> None:
        """Keep what ``mode`` changes (its layers, or all and the view) and set its layers."""
        vs = self._window.view_state
        before = vs.layers()
        keep = dict(before) if mode.keeps_view else {k: before.get(k) for k in mode.layers}
        self._saved[name] = (keep, vs.rect if mode.keeps_view else None)
        changed = {k: on for k, on in mode.layers.items() if before.get(k) != on}
        if changed:
            self._window.dispatch(SetLayers(changed))

    def _give_back(self, name: str) -> None:
        """Put back the switches (and the view) saved when the mode ``name`` was entered."""
        layers, rect = self._saved.pop(name, ({}, None))
        held = {k for mode, _g, _o in self._on.values() for k in mode.layers}
        now = self._window.view_state.layers()
        changed = {k: on for k, on in layers.items()
                   if k not in held and on is not None and now.get(k) != on}
        if changed:
            self._window.dispatch(SetLayers(changed))
        if rect is not None:
            self._window.dispatch(SetViewRect(rect))

    def _wanted(self) -> dict:
        """item -> True (a mode on shows it), False (one hides it, none shows it)."""
        wanted: dict = {}
        for mode, _guards, _options in self._on.values():
            for item in mode.hidden():
                wanted.setdefault(item, False)
        for mode, _guards, _options in self._on.values():
            for item in mode.shown():
                wanted[item] = True
        return wanted

    def _follow(self, before: dict, mode: Mode) -> None:
        """Make the items whose wanted state changed follow it (``mode`` shows and hides)."""
        after = self._wanted()
        for item in [*before, *(i for i in after if i not in before)]:
            old, new = before.get(item), after.get(item)
            if old == new:
                continue
            if new is None:
                mode.set_visible(item, self._base.pop(item, True))
            else:
                if item not in self._base:
                    self._base[item] = item.isVisible()
                mode.set_visible(item, new)

    def esc_owner(self) -> str | None:
        """The mode whose action Esc triggers now (None: none, or another action has it)."""
        if any(act.isEnabled() for act in self._other_esc_actions()):
            return None
        ranked = sorted((MODE_TYPES[n].esc_priority, i, n) for i, n in enumerate(self._on)
                        if n in MODE_TYPES and self._esc_action(MODE_TYPES[n]) is not None)
        return ranked[0][2] if ranked else None

    def update_esc(self, *_args) -> None:
        """Enable the Esc action of :meth:`esc_owner` alone among the modes' Esc actions
        (with no mode on, none: the window's other actions are not walked)."""
        owner = self.esc_owner() if self._on else None
        for name, cls in MODE_TYPES.items():
            act = self._esc_action(cls)
            if act is not None and act.isEnabled() != (name == owner):
                act.setEnabled(name == owner)

    # -- internals ---------------------------------------------------------------------
    def _esc_action(self, cls: type[Mode]) -> QtGui.QAction | None:
        return self._window.actions.get(cls.esc) if cls.esc else None

    def _other_esc_actions(self) -> list:
        """The window's actions with Esc that are no mode's (watched for changes)."""
        mine = {self._esc_action(cls) for cls in MODE_TYPES.values()}
        others = [act for act in QtWidgets.QWidget.actions(self._window)
                  if act not in mine and ESC in act.shortcuts()]
        for act in others:
            if act not in self._watched:
                self._watched.add(act)
                act.changed.connect(self.update_esc)
        return others
