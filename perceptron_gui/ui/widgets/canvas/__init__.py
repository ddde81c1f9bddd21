"""The canvas: the data, the learner's hyperplane and the geometry of the proof."""

from .canvas import Canvas
from .layers import LAYERS
from .tool import KEYS, EditTool

__all__ = ["Canvas", "EditTool", "KEYS", "LAYERS"]
