"""The one reader of delimited text files: sniff the dialect, then parse once with pandas.

A table of points comes in many shapes: ``x,y,label``; scikit-learn's
``iris.csv`` (its first line counts the rows and names the classes); a pandas
``to_csv`` file (an unnamed index column); extra columns; an Excel trailing
comma; a European file (``;`` between fields, ``,`` as the decimal mark); a
TSV; columns separated by spaces.  Columns are named by their header, or by
their position counted from 1: ``x="sepal_length"``, ``x=1`` and ``x="1"``.

Every error is a :class:`~perceptron_gui.core.io.FormatError` whose message
names the line, the column or the options to use (``--x``, ``--label``,
``--skip-bad-rows`` ...): one set of messages for the dialog, the command line
and scripts.  pandas is imported only by the functions that parse, so that
launching does not pay for it.
"""

from .dialect import PREVIEW_ROWS, SNIFF_BYTES, Sniffed, sniff
from .labels import MAX_LABEL_CHARS, TooManyLabels
from .reader import Progress, TableResult, read_table

__all__ = [
    "MAX_LABEL_CHARS",
    "PREVIEW_ROWS",
    "SNIFF_BYTES",
    "Progress",
    "Sniffed",
    "TableResult",
    "TooManyLabels",
    "read_table",
    "sniff",
]
