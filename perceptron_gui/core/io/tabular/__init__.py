"""The one reader of delimited text files: sniff the dialect, then parse once with pandas.

A table of points comes in many shapes: ``x,y,label``; scikit-learn's
``iris.csv`` (its first line counts the rows and names the classes); a pandas
``to_csv`` file (an unnamed index column); extra columns; an Excel trailing
comma; a European file (``;`` between fields, ``,`` as the decimal mark); a
TSV; columns separated by spaces. :func:`sniff` looks at the first lines and
says what it sees (encoding, delimiter, decimal mark, header, columns, which
are numeric, an index column) and guesses the x, y and label columns;
:func:`read_table` then parses the whole file once with pandas' C parser and
maps the labels to -1/+1.

Columns are named by their header, or by their position counted from 1 (in a
file without a header, and in any file as a fallback): ``x="sepal_length"``,
``x=1`` and ``x="1"`` all work.

Every error is a :class:`~perceptron_gui.core.io.FormatError` (a
:class:`ValueError`) whose message names the line, the column or the options
to use (``--x``, ``--y``, ``--label``, ``--positive``, ``--skip-bad-rows``),
one set of messages for the dialog, the command line and scripts; cancelling
raises :class:`~perceptron_gui.core.io.Cancelled`. pandas is imported inside
the functions that parse, never when this package is imported, so launching
the program does not pay for it.

The package has one module per seam: :mod:`.dialect` (sniffing: encoding,
delimiter, decimal mark, header, the guess), :mod:`.labels` (raw labels to
classes, classes to -1/+1), :mod:`.reader` (parsing the chosen columns, bad
rows and their lines) and :mod:`.common` (what the other three share).
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
