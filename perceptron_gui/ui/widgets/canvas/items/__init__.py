"""The canvas's own pyqtgraph items, one per file (as pyqtgraph's ``graphicsItems/``)."""

from .legend_box import LegendBox, LegendSample
from .line_handles import LineHandles, add_handle, style_handle
from .lines import Lines
from .marks import Marks
from .passive_scatter import PassiveScatter, style_scatter
from .point_raster import PointRaster, codes_image
from .view_box import CanvasViewBox

__all__ = ["CanvasViewBox", "LegendBox", "LegendSample", "LineHandles", "Lines", "Marks",
           "PassiveScatter", "PointRaster", "add_handle", "codes_image", "style_handle",
           "style_scatter"]
