"""The core's events: psygnal signals, whose subscribers are held weakly; no Qt.

A model declares its events as a :class:`SignalGroup` of :class:`Signal`
(``workspace.events.run_changed``); a module-level event is one
:func:`signal`.  A subscriber connects a bound method
(``ws.events.run_changed.connect(self._on_run)``), held by a weak reference:
when its object is garbage-collected the subscription is gone.  Functions and
lambdas are held strongly (scripts and tests subscribe with them).

An object can end before Python frees it: a Qt widget deleted while a cycle
keeps its wrapper.  The Qt layer says once, with :func:`watch_owners`, how to
notice such an end, and the signal forgets the object's methods then.
"""

from __future__ import annotations

import functools
import inspect
import types
import weakref

import psygnal
from psygnal import EmitLoopError, SignalGroup

__all__ = ["EmitLoopError", "Signal", "SignalGroup", "SignalInstance", "signal", "watch_owners"]

#: ``watch(owner, forget)`` functions: each may arrange ``forget()`` for when
#: ``owner`` ends, returning True when it did.
_watchers: list = []
#: Each watched owner's connected methods: ``{signal id: (weak signal, {function})}``.
_owned: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def watch_owners(watch) -> None:
    """Let ``watch(owner, forget)`` tie subscriptions to the end of their methods' owner.

    ``watch`` is called once per object whose bound method is connected from
    now on; it returns True when it will call ``forget()`` as ``owner`` ends
    (a Qt object's ``destroyed``).
    """
    if watch not in _watchers:
        _watchers.append(watch)


def _note(signal: SignalInstance, method: types.MethodType) -> None:
    owner = method.__self__
    try:
        owned = _owned.get(owner)
    except TypeError:  # not weakly referenceable: psygnal holds it strongly
        return
    if owned is None:
        forget = functools.partial(_forget, weakref.ref(owner))
        if not any(watch(owner, forget) for watch in _watchers):
            return
        owned = _owned[owner] = {}
    owned.setdefault(id(signal), (weakref.ref(signal), set()))[1].add(method.__func__)


def _forget(owner_ref, *_args) -> None:
    owner = owner_ref()
    if owner is None:
        return
    for signal_ref, functions in _owned.pop(owner, {}).values():
        signal = signal_ref()
        for function in functions if signal is not None else ():
            signal.disconnect(types.MethodType(function, owner))


def _max_args(slot) -> int | None:
    """How many positional arguments a plain function or method takes, from its code (as
    psygnal's check would find); None when psygnal must inspect ``slot`` itself."""
    function = getattr(slot, "__func__", slot)
    if type(function) is not types.FunctionType or hasattr(function, "__wrapped__") \
            or hasattr(function, "__signature__"):
        return None
    code, bound, kwdefaults = function.__code__, int(slot is not function), function.__kwdefaults__
    n = code.co_argcount
    if code.co_flags & inspect.CO_VARARGS or n < bound or any(
            k not in (kwdefaults or {}) for k in code.co_varnames[n:n + code.co_kwonlyargcount]):
        return None
    return n - bound


class SignalInstance(psygnal.SignalInstance):
    """A psygnal signal instance whose bound-method slots also go when their owner ends."""

    def connect(self, slot=None, **kwargs):
        """Connect ``slot`` (see :meth:`psygnal.SignalInstance.connect`); returns it.

        A plain function's or method's arguments are counted from its code, and psygnal
        is given that count (``max_args``) rather than inspecting its signature.
        """
        if slot is None:
            return functools.partial(self.connect, **kwargs)
        most = None if kwargs.keys() & {"check_nargs", "max_args"} else _max_args(slot)
        if most is not None and (most - len(getattr(slot, "__defaults__", None) or ())
                                 <= len(self.signature.parameters)):
            kwargs.update(max_args=most, on_ref_error=kwargs.get("on_ref_error", "ignore"))
        super().connect(slot, **kwargs)
        if isinstance(slot, types.MethodType) and _watchers:
            _note(self, slot)
        return slot


def Signal(*kinds, **kwargs) -> psygnal.Signal:  # noqa: N802 - a class attribute's maker
    """A signal declared on a class (a :class:`SignalGroup`'s member), emitting ``kinds``."""
    return psygnal.Signal(*kinds, signal_instance_class=SignalInstance, **kwargs)


def signal(*kinds, name: str) -> SignalInstance:
    """A module-level signal emitting ``kinds`` (e.g. ``changed = signal(name="changed")``)."""
    return SignalInstance(kinds, name=name)
