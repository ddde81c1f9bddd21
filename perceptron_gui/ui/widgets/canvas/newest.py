"""A layer's picture computed in a worker, one request at a time, only ever the newest."""

from __future__ import annotations

from ... import workers

__all__ = ["NewestJob"]


class NewestJob:
    """Computes the newest of a layer's requests in one worker at a time; older ones are dropped.

    ``job(request)`` returns ``(func, args)``: ``func(*args)`` computes the picture
    without touching widgets; ``apply(request, out)`` draws it; ``alive()`` is False
    once the canvas closed; ``stale(request, out)`` gets a result no longer the newest.
    While ``held``, requests wait for their owner (:meth:`take`; an export).
    """

    def __init__(self, job, apply, alive, stale=None):
        self._job, self._apply, self._alive, self._stale = job, apply, alive, stale
        self._serial = 0  # counts the requests: a result of an older one is dropped
        self._wanted = None  # the newest request not drawn yet: (serial, request)
        self._running = False  # a worker computes a request
        self.held = False

    @property
    def pending(self) -> bool:
        """True while a newer picture than the one shown is wanted."""
        return self._wanted is not None

    @property
    def busy(self) -> bool:
        """True while a worker computes a request (its result may be dropped)."""
        return self._running

    def request(self, request, *, now: bool = False) -> None:
        """Ask for ``request``'s picture: in a worker, or at once with ``now``."""
        self._serial += 1
        self._wanted = (self._serial, request)
        if self.held:
            return
        if now:
            self.finish()
        elif not self._running:
            self._start(self._wanted)

    def drop(self) -> None:
        """Forget the waiting request (the layer draws something else now)."""
        self._wanted = None

    def finish(self) -> None:
        """Draw the newest request now, on this thread (a worker's result will be dropped)."""
        work = None if self.held else self.take()
        if work is not None:
            func, args, apply = work
            apply(func(*args))

    def take(self):
        """The newest request to compute elsewhere, ``(func, args, apply)``, or None."""
        wanted, self._wanted = self._wanted, None
        if wanted is None:
            return None
        func, args = self._job(wanted[1])

        def apply(out):
            if self._alive() and self._wanted is None:
                self._apply(wanted[1], out)

        return func, args, apply

    def _start(self, wanted) -> None:
        self._running = True
        func, args = self._job(wanted[1])
        workers.start(func, *args,
                      returned=lambda out, w=wanted: self._done(w, out),
                      errored=lambda exc, w=wanted: self._failed(w, exc))

    def _failed(self, done, exc) -> None:
        workers.report_error("A picture of the points could not be drawn", exc)
        self._done(done, None)

    def _done(self, done, out) -> None:
        self._running = False
        if not self._alive():
            return  # the canvas was closed meanwhile
        wanted = self._wanted
        if wanted is None:
            return
        if wanted[0] != done[0]:
            if out is not None and self._stale is not None:
                self._stale(done[1], out)
            self._start(wanted)  # a newer request came meanwhile
            return
        self._wanted = None
        if out is not None:
            self._apply(done[1], out)
