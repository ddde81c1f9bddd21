"""The weight-space view: each case a line through weight space, the feasible region, the walk."""

from .geometry import segments
from .view import WeightSpaceView

__all__ = ["WeightSpaceView", "segments"]
