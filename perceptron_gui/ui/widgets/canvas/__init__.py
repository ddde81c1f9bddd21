"""The canvas: the data, the learner's hyperplane and the geometry of the proof.

:mod:`.canvas` is the widget, :mod:`.layers` holds one layer per file, :mod:`.items`
the canvas's own pyqtgraph items, :mod:`.gestures` routes mouse and keys into the
Qt-free editing :mod:`.tool`.
"""

from .canvas import Canvas
from .geometry import clip_line, clip_polygon, marching_squares
from .layers import LAYERS
from .tool import HELP_TEXT, KEYS, EditTool

__all__ = ["Canvas", "EditTool", "HELP_TEXT", "KEYS", "LAYERS", "clip_line", "clip_polygon",
           "marching_squares"]
