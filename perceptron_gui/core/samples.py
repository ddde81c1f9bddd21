"""Classic data sets shipped with the program, as 2-D samples ready to open.

Each opens as two classes; :func:`load` with ``all_classes`` keeps every class
of its file (iris, penguins and wine have three).

Where the files come from and their licences: ``resources/data/README.md``.
The files are read like any file a user opens; the tests check the numbers
of each description.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from .dataset import Dataset
from .resources import shipped_dir

__all__ = ["DATA_DIR", "SAMPLES", "Sample", "UnknownSampleError", "load", "names",
           "open_workspace"]


#: The folder of the shipped data files (``resources/data``).
DATA_DIR: Path = shipped_dir("data")


class UnknownSampleError(ValueError):
    """No sample has the given name; the message lists the names there are."""


@dataclass(frozen=True)
class Sample:
    """One shipped sample: which file, columns and classes, and how it opens.

    ``name`` is what :func:`load` and ``perceptron-gui --sample NAME`` take,
    ``title`` what a menu shows ("Iris: setosa vs versicolor (sepal)"). The
    label values ``positive`` and ``negative`` are kept as the +1 and -1 class,
    other rows left out (``n_other`` of them). ``params`` differ from the
    learner's defaults. After :func:`load`, ``skipped_lines`` and ``summary``
    say what was read, and ``all_classes`` whether every class was kept (``kept``
    names them; ``view`` then widened to show every point, ``title`` and
    ``description`` those of every class).
    """

    name: str
    title: str
    file: str
    x: str
    y: str
    label: str
    positive: str | int
    negative: str | int
    learner: str
    view: tuple[tuple[float, float], tuple[float, float]]
    description: str
    params: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    skip_bad_rows: bool = False
    skipped_lines: tuple[int, ...] = ()
    summary: str = ""
    n_other: int = 0
    all_classes: bool = False
    kept: tuple[str, ...] = ()

    @property
    def classes_note(self) -> str:
        """What the window says of the classes kept: two, and the rows of the others left out."""
        if self.all_classes:
            return f"Every class of the file: {', '.join(self.kept)}."
        kept = f"{self.negative} as −1 and {self.positive} as +1"
        if not self.n_other:
            return f"Two classes: {kept}."
        rows = f"{self.n_other:,} row{'s' if self.n_other > 1 else ''}"
        return (f"The window shows two classes: {kept}; {rows} of the file's other "
                f"classes left out.")

    @property
    def every_class_title(self) -> str:
        """What a menu shows for the file with every class: "Iris: every class (petal)"."""
        head, _, tail = self.title.partition(": ")
        return f"{head}: every class {tail[tail.rfind('('):]}".rstrip()

    @property
    def path(self) -> Path:
        """The sample's CSV file."""
        return DATA_DIR / self.file


#: Every sample, by name, in the order of :func:`names`.
SAMPLES: dict[str, Sample] = {s.name: s for s in (
    Sample(
        name="iris-setosa-versicolor-sepal", title="Iris: setosa vs versicolor (sepal)",
        file="iris.csv",
        x="sepal_length", y="sepal_width", label="species",
        positive="versicolor", negative="setosa", learner="primal",
        view=((4.0, 7.4), (1.7, 4.7)),
        description=(
            "Fisher's iris, setosa vs versicolor by the sepals: separable with a tiny margin "
            "(γ = 0.052, R = 7.76), so Novikoff's bound is 22,134 updates, while the "
            "perceptron converges after 1,562 updates (721 epochs)."),
    ),
    Sample(
        name="iris-versicolor-virginica-petal", title="Iris: versicolor vs virginica (petal)",
        file="iris.csv",
        x="petal_length", y="petal_width", label="species",
        positive="virginica", negative="versicolor", learner="primal",
        view=((2.7, 7.2), (0.8, 2.7)),
        description=(
            "Fisher's iris, versicolor vs virginica by the petals: not separable, so the "
            "perceptron never converges (stopped after 1,000 epochs, 3,901 updates, 24 of "
            "100 flowers on the wrong side); LDA misclassifies 6."),
    ),
    Sample(
        name="penguins-bill", title="Penguins: Adelie vs Gentoo (bill)",
        file="penguins.csv",
        x="bill_length_mm", y="bill_depth_mm", label="species",
        positive="Gentoo", negative="Adelie", learner="primal", skip_bad_rows=True,
        view=((30.0, 62.0), (12.0, 22.5)),
        description=(
            "Palmer penguins, Adelie vs Gentoo by bill length and depth (2 penguins without "
            "measurements skipped): separable, bound 26,515, yet the perceptron converges "
            "after 23 updates; LDA misclassifies 1 of 274."),
    ),
    Sample(
        name="wine-alcohol-flavanoids", title="Wine: cultivar 2 vs 3 (alcohol, flavanoids)",
        file="wine.csv",
        x="alcohol", y="flavanoids", label="cultivar",
        positive=3, negative=2, learner="lda",
        view=((10.8, 14.6), (0.0, 5.5)),
        description=(
            "Wine cultivars 2 vs 3 by alcohol and flavanoids: not separable; LDA misclassifies "
            "5 of 119 wines, while the perceptron never converges and after 1,000 epochs "
            "misclassifies 71: the two lines disagree on 66 wines."),
    ),
)}


def names() -> list[str]:
    """The names of the shipped samples."""
    return list(SAMPLES)


def load(name: str, all_classes: bool = False) -> tuple[Dataset, Sample]:
    """A sample's points (``positive`` as +1) and its entry, with this read's summary.

    ``all_classes``: every class of the file instead, labeled ``0 … m − 1`` in the
    sorted order of its labels, which name them.
    """
    sample = SAMPLES.get(name)
    if sample is None:
        raise UnknownSampleError(
            f"no sample named {name!r}; the samples are: {', '.join(SAMPLES)}")
    from .io.tabular import read_table  # pandas and the sniffer: when a sample is opened

    chosen = {} if all_classes else {"positive": sample.positive, "negative": sample.negative}
    table = read_table(sample.path, x=sample.x, y=sample.y, label=sample.label,
                       skip_bad_rows=sample.skip_bad_rows, all_classes=all_classes, **chosen)
    info = dataclasses.replace(sample, skipped_lines=table.skipped_lines, summary=table.summary,
                               n_other=table.n_other, all_classes=all_classes)
    if all_classes:
        data = table.dataset
        kept = tuple(data.class_names or map(str, data.classes))
        head, _, tail = sample.title.partition(": ")
        counts = ", ".join(f"{k:,} {n}" for k, n in zip(data.class_counts(), kept, strict=True))
        info = dataclasses.replace(
            info, kept=kept, view=_widened(sample.view, data.bounds()),
            title=f"{head}: {' / '.join(kept)} {tail[tail.rfind('('):]}".rstrip(),
            description=f"{head}, every class: {counts}.")
    return table.dataset, info


def _widened(view, bounds) -> tuple:
    """``view`` grown, where a point lies outside it, to the points and 5 % of their span
    (rounded outward to tenths, as the samples' views are written)."""
    out = []
    for (lo, hi), (low, high) in zip(view, (bounds[:2], bounds[2:]), strict=True):
        pad = 0.05 * (high - low)
        out.append((min(lo, math.floor((low - pad) * 10) / 10),
                    max(hi, math.ceil((high + pad) * 10) / 10)))
    return tuple(out)


def open_workspace(name: str, learner: str | None = None, all_classes: bool = False):
    """``(workspace, info)``: a new workspace showing a sample, its data, learner and view
    (``learner``: this one, with its default parameters, instead of the sample's, or the
    first that learns m classes when the sample's cannot; ``all_classes``: as :func:`load`
    takes it)."""
    from .learners import registry
    from .workspace import Workspace

    dataset, info = load(name, all_classes)
    if learner is None and not dataset.is_binary and info.learner not in registry.multiclass():
        learner = registry.multiclass()[0]  # the sample's own learns two classes
    if learner is None or learner == info.learner:
        workspace = Workspace(dataset, learner=info.learner,
                              params={info.learner: dict(info.params)} if info.params else None)
    else:
        workspace = Workspace(dataset, learner=learner)
    workspace.view = info.view  # ((x_min, x_max), (y_min, y_max)): check_rect flattens it
    return workspace, info
