"""The canvas: the data, the learner's hyperplane and the geometry of the proof."""

from .canvas import Canvas
from .geometry import clip_line, clip_polygon, marching_squares
from .layers import LAYERS
from .tool import HELP_TEXT, KEYS, EditTool

__all__ = ["Canvas", "EditTool", "HELP_TEXT", "KEYS", "LAYERS", "clip_line", "clip_polygon",
           "marching_squares"]
