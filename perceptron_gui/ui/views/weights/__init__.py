"""The weight-space view: each case a line through weight space, the feasible region, the walk.

:mod:`.geometry` gathers the core's numbers the view draws and cuts lines to
the visible box (numpy only); :mod:`.view` draws them (:class:`WeightSpaceView`,
the view named "weights"), with its marks (:mod:`.marks`), its optional layers
(:mod:`.layers`) and the hand-moved ``w`` (:mod:`.hand`).
"""

from .geometry import Picture, picture, segments, ticks, view_extent
from .view import MAX_LINES, NO_RUN_MESSAGE, WeightSpaceView

__all__ = ["MAX_LINES", "NO_RUN_MESSAGE", "Picture", "WeightSpaceView", "picture", "segments",
           "ticks", "view_extent"]
