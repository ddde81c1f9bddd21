"""CSV files of labeled points: read through :mod:`.tabular`, written atomically.

The ``io`` API that scripts use, with the command line's options as keyword
arguments. The format is specified in ``docs/csv-format.md``.
"""

from __future__ import annotations

from ..dataset import Dataset
from . import files
from .files import Progress, atomic_write_bytes, report_progress

__all__ = ["ROWS_PER_CHUNK", "TABLE_SUFFIXES", "read_csv", "read_csv_with_mapping", "write_csv"]

#: File extensions read as delimited text (File ▸ Open and the command line).
TABLE_SUFFIXES = (".csv", ".tsv", ".tab", ".txt", ".dat")
#: Points formatted and written between two progress reports of :func:`write_csv`.
ROWS_PER_CHUNK = 8192


def read_csv_with_mapping(path, progress: Progress | None = None, *, x=None, y=None,
                          label=None, positive=None, negative=None, delimiter=None,
                          skip_bad_rows: bool = False) -> tuple[Dataset, dict]:
    """Read a delimited text file of points; the data set and the map original label -> ±1.

    The options are those of :func:`~perceptron_gui.core.io.tabular.read_table`.
    """
    from .tabular import read_table

    table = read_table(path, x=x, y=y, label=label, positive=positive, negative=negative,
                       delimiter=delimiter, skip_bad_rows=skip_bad_rows,
                       max_rows=files.MAX_POINTS, progress=progress)
    return table.dataset, table.mapping


def read_csv(path, progress: Progress | None = None, **options) -> Dataset:
    """The data set of :func:`read_csv_with_mapping`."""
    return read_csv_with_mapping(path, progress, **options)[0]


def _cell(text) -> str:
    """``text`` as one CSV field: quoted (quotes doubled) when it holds a comma, a quote or
    a line break, or starts or ends with a space."""
    text = str(text)
    if any(ch in text for ch in ',"\r\n') or text != text.strip():
        return '"' + text.replace('"', '""') + '"'
    return text


def write_csv(dataset: Dataset, path, progress: Progress | None = None) -> None:
    """Write a data set as CSV (``x,y,label``, or its features' names), atomically.

    Labels are written as they are (±1), but for data of m classes with names: then
    each point's class name, which :func:`~.tabular.read_table` with ``all_classes``
    reads back as the same classes (numbered in the order of their names).

    Coordinates are written with :func:`repr`, the shortest decimal text that
    reads back to the same float64, so :func:`read_csv`, ``numpy.loadtxt`` and
    ``pandas.read_csv`` (pandas 3; older pandas with
    ``float_precision="round_trip"``) give the points back bit for bit. An
    empty data set raises ValueError (:func:`read_csv` rejects a file without rows).
    """
    if dataset.n == 0:
        raise ValueError("the data set is empty: there is nothing to write")
    xs, ys, labels = dataset.X[:, 0].tolist(), dataset.X[:, 1].tolist(), dataset.y.tolist()
    n = len(xs)
    head = ",".join(_cell(name) for name in (*(dataset.feature_names or ("x", "y")), "label"))
    if not dataset.is_binary and dataset.class_names is not None:  # m classes: their names
        name_of = {c: _cell(name) for c, name in zip(dataset.classes, dataset.class_names,
                                                     strict=True)}
        labels = [name_of[c] for c in labels]

    def chunks():
        yield (head + "\n").encode("utf-8")
        for start in range(0, n, ROWS_PER_CHUNK):
            stop = start + ROWS_PER_CHUNK
            yield "".join(
                f"{x!r},{y!r},{label}\n"
                for x, y, label in zip(xs[start:stop], ys[start:stop], labels[start:stop],
                                       strict=True)
            ).encode("utf-8")
            report_progress(progress, min(n, stop) / n, "export")
        report_progress(progress, 1.0, "export")  # before the file replaces the old one

    atomic_write_bytes(path, chunks())
