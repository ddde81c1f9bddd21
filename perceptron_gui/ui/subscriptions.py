"""A Qt object's subscriptions to the core's events end when the object is deleted.

The core's signals hold a bound method weakly, but a widget deleted by Qt while a
reference cycle keeps its Python wrapper would still be called: this module,
imported with the Qt layer, has the core forget a ``QObject``'s methods on ``destroyed``.
"""

from __future__ import annotations

from ..core import signal

__all__ = ["watch_qobject"]


def watch_qobject(owner, forget) -> bool:
    """Call ``forget()`` when ``owner`` is destroyed, if it is a ``QObject``; True if so."""
    from PySide6 import QtCore  # after the core: PySide6's import hook reads every later module

    if not isinstance(owner, QtCore.QObject):
        return False
    owner.destroyed.connect(forget)
    return True


signal.watch_owners(watch_qobject)
