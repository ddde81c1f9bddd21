"""A feature's window action: made, named, and registered under its id in one call."""

from __future__ import annotations

from PySide6 import QtGui

from ..window_api import action_id

__all__ = ["window_action"]


def window_action(window, name: str, text: str, slot, shortcuts=(), tip: str = "",
                  icon=None) -> QtGui.QAction:
    """An action of ``window`` that calls ``slot``, registered as ``window.actions[id]``.

    Parameters
    ----------
    window : WindowAPI
        The window: the action's parent, registered with ``window.add_action``
        (so its shortcut works wherever the focus is in the window).
    name : str
        The action's object name, e.g. ``"actionDemoNext"``; its id is
        :func:`~perceptron_gui.ui.window_api.action_id` of it (``"demo_next"``).
    text : str
        The menu text, with its ``&`` mnemonic.
    slot : callable
        Connected to ``triggered`` (called with the ``checked`` flag).
    shortcuts : sequence of str or QKeySequence, default=()
        The keys, the first one the main.
    tip : str, default=""
        Tooltip and status tip ("" for none).
    icon : QStyle.StandardPixmap, optional
        A standard icon of the window's style.

    Returns
    -------
    QAction
    """
    action = QtGui.QAction(text, window)
    action.setObjectName(name)
    if shortcuts:
        action.setShortcuts([QtGui.QKeySequence(k) for k in shortcuts])
    if tip:
        action.setToolTip(tip)
        action.setStatusTip(tip)
    if icon is not None:
        action.setIcon(window.style().standardIcon(icon))
    action.triggered.connect(slot)
    return window.add_action(action_id(name), action)
