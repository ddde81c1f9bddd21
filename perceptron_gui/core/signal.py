"""A minimal observer list, the way the core announces changes without Qt."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Signal"]


class Signal:
    """A minimal list of callbacks: ``connect``, ``disconnect``, ``emit``.

    The Qt layer connects its redraw slots here; the core never imports Qt.
    """

    def __init__(self) -> None:
        self._slots: list[Callable] = []

    def connect(self, slot: Callable) -> None:
        """Call ``slot(*args)`` on every :meth:`emit`."""
        if slot not in self._slots:
            self._slots.append(slot)

    def disconnect(self, slot: Callable) -> None:
        """Stop calling ``slot``; unknown slots are ignored."""
        if slot in self._slots:
            self._slots.remove(slot)

    def __len__(self) -> int:
        """The number of connected slots (what one :meth:`emit` calls)."""
        return len(self._slots)

    def emit(self, *args) -> None:
        """Call every connected slot with ``args``, in connection order."""
        for slot in list(self._slots):
            slot(*args)
