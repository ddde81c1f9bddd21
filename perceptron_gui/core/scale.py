"""The one scale policy: from how many points the program works differently.

With more than :data:`LARGE_N` points, work done per point on the UI thread
would stall a frame, so the program changes how it works: a change of learner
is built in a worker (:meth:`.Workspace.request_learner`), a drag's moves
wait for a yielding timer, the points and the mistakes are drawn as a raster
of the view's pixels instead of markers, and the legend and the probability
bar place themselves by a sample of at most this many points.
"""

from __future__ import annotations

__all__ = ["LARGE_N", "is_large"]

#: The most points handled one by one on the UI thread (marker paints grow past
#: 20 ms above it; a switch of learner takes a few milliseconds below it).
LARGE_N = 20_000


def is_large(n: int) -> bool:
    """Whether ``n`` points are more than :data:`LARGE_N` (read when called)."""
    return n > LARGE_N
