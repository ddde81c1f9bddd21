"""The weight-space view: each case a line through weight space, the feasible region, the walk."""

from .geometry import Picture, picture, segments, ticks, view_extent
from .view import MAX_LINES, NO_RUN_MESSAGE, WeightSpaceView

__all__ = ["MAX_LINES", "NO_RUN_MESSAGE", "Picture", "WeightSpaceView", "picture", "segments",
           "ticks", "view_extent"]
