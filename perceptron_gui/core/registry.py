"""One registry type for every extension point: learners, views, layers, switches, modes, commands.

A :class:`Registry` holds named entries in the order they were registered, is
read as a mapping (``name in r``, ``r[name]``, ``r.items()``), and announces
each change the same way: :attr:`Registry.changed` is emitted with the name
after an entry came or went.  What an entry must satisfy is the caller's
``check``; the registry only refuses a name taken by another entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Generic, TypeVar

from .signal import signal

__all__ = ["Registry"]

T = TypeVar("T")


class Registry(Mapping, Generic[T]):
    """Entries by name, in registration order, announcing every change.

    ``kind`` names an entry in messages (``"layer switch"``); ``check(entry)``
    raises (TypeError, ValueError) before anything changes when ``entry``
    cannot be registered.
    """

    def __init__(self, kind: str, name_of: Callable[[T], str],
                 check: Callable[[T], None] | None = None):
        self.kind = kind
        self._name_of = name_of
        self._check = check
        self._entries: dict[str, T] = {}
        self.changed = signal(str, name=f"{kind}_changed")

    @classmethod
    def of_subclasses(cls, kind: str, base: type) -> Registry:
        """A registry of ``base``'s subclasses by their ``name`` (TypeError for anything else)."""
        def check(entry) -> None:
            if not (isinstance(entry, type) and issubclass(entry, base)):
                raise TypeError(f"{entry!r} is not a {base.__name__} subclass")

        return cls(kind, lambda sub: sub.name, check)

    def register(self, entry: T) -> T:
        """Add ``entry`` last; returns it (again: nothing; ValueError: name empty or taken)."""
        if self._check is not None:
            self._check(entry)
        name = self._name_of(entry)
        if not isinstance(name, str) or not name:
            raise ValueError(f"the {self.kind} {entry!r} has no name")
        known = self._entries.get(name)
        if known is entry:
            return entry
        if known is not None:
            raise ValueError(f"a {self.kind} named {name!r} is registered already "
                             f"({known!r}); unregister it first")
        self._entries[name] = entry
        self.changed.emit(name)
        return entry

    def unregister(self, name: str) -> T:
        """Remove the entry ``name``; returns it (KeyError when there is none)."""
        if name not in self._entries:
            raise KeyError(f"no {self.kind} named {name!r}")
        entry = self._entries.pop(name)
        self.changed.emit(name)
        return entry

    def __getitem__(self, name: str) -> T:
        return self._entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {list(self._entries)})"
