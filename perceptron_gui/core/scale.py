"""The one scale policy: from how many points the program works differently.

Above :data:`LARGE_N` points a switch of learner is built in a worker, a
drag's moves wait for a yielding timer, points and mistakes are drawn as
pixels, and the legend and the probability bar place themselves by a sample.
"""

from __future__ import annotations

__all__ = ["LARGE_N", "is_large"]

#: The most points handled one by one on the UI thread (marker paints grow past
#: 20 ms above it; a switch of learner takes a few milliseconds below it).
LARGE_N = 20_000


def is_large(n: int) -> bool:
    """Whether ``n`` points are more than :data:`LARGE_N` (read when called)."""
    return n > LARGE_N
