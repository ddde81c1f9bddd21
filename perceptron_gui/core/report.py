r"""The update log of a perceptron run as table rows, a CSV file and a LaTeX table; no Qt.

Files are made as :class:`Block` s of a few thousand rows, so a log of
millions of updates is never held as one text.  Every ``source`` is a
workspace with a perceptron run, or a started perceptron.  Rows cover the
*computed* run, which may extend past the cursor (:attr:`UpdateRow.future`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from .learners.losses import PERCEPTRON, loss_for
from .text import format_multiclass_update, format_update, run_class_names

__all__ = ["Block", "ROWS_PER_BLOCK", "RunSource", "UpdateRow", "n_updates", "update_row",
           "update_rows", "log_rows", "csv_columns", "csv_blocks", "log_to_csv",
           "write_blocks"]


@dataclass(frozen=True)
class UpdateRow:
    """One update of a perceptron run, with its formula written out.

    Attributes
    ----------
    k, step, epoch : int
        Update number (the ``k`` of Novikoff's bound after it), its step and
        epoch, all 1-based.
    sample : int
        Index of the examined sample in the data (0-based; the formula, like the
        window, numbers samples from 1: ``α[sample + 1]``); -1 for a pass of
        batch gradient descent (then ``label`` is 0 and ``x`` is NaN).
    margin : float
        Its functional margin ``y f(x)`` *before* the update (``<= 0``).
    w_before, w_after : ndarray of shape (n_features,) or None
        Weights before and after (None for a non-linear kernel); for the multiclass
        perceptron every class's :math:`\\tilde w_k`, shape (m, n_features + 1), the
        bias's weight last.
    alpha_before : int or None
        For the dual learner, ``α[sample]`` before the update (after: one more).
    formula : str
        :func:`~perceptron_gui.core.text.format_update` of the update.
    future : bool
        The update lies after the cursor (computed, not yet shown).
    rival : int or None
        The multiclass perceptron: the class (its label) that scored as much, whose
        :math:`w` lost :math:`\\tilde x` (None for two classes' perceptrons).
    """

    k: int
    step: int
    epoch: int
    sample: int
    label: int
    x: np.ndarray
    margin: float
    w_before: np.ndarray | None
    b_before: float
    w_after: np.ndarray | None
    b_after: float
    alpha_before: int | None
    formula: str
    future: bool
    rival: int | None = None


class RunSource:
    """A perceptron run resolved from a workspace or a learner."""

    def __init__(self, source):
        learner = getattr(source, "learner", source) if hasattr(source, "running") else source
        if hasattr(source, "running") and not source.running:
            raise ValueError("no perceptron run: the workspace has no primal or dual run")
        if not getattr(learner, "started", False) or not hasattr(learner, "history"):
            raise ValueError(
                f"expected a Workspace with a perceptron run or a started perceptron, "
                f"got {type(source).__name__}"
            )
        self.learner = learner
        self.log = learner.history.updates  # the one reader of the run's log
        self.X = learner.training_X
        self.s = learner.training_signs
        self.n = self.X.shape[0]
        self.dual = hasattr(learner, "kernel")
        #: the multiclass perceptron: one w̃ₖ a class, the log's w every class's, flattened
        self.multiclass = hasattr(learner, "update_terms")
        dataset = getattr(source, "dataset", None)
        self.names = (None if not self.multiclass else
                      run_class_names(dataset, learner.classes_) if dataset is not None
                      else [str(c) for c in learner.classes_])
        self.has_w = self.rows(0, 0).w is not None
        self.eta0 = float(getattr(learner, "eta0", 1.0))
        self.bias_scale = float(learner.bias_scale) if learner.fit_intercept else None
        self.loss = loss_for(getattr(learner, "loss", PERCEPTRON.name))
        self.tie = getattr(learner, "tie", None)
        # steps per epoch: a pass of batch gradient descent is one step
        self.per = 1 if getattr(learner, "order", None) == "batch" else self.n
        #: ``(w0, b0)`` before the first update (``w0`` None for a kernel run)
        self.start = self.log.state_after(0)

    def cases(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(x, y)`` of the rows' samples; a pass (index -1) has x NaN and y 0."""
        index = np.asarray(index)
        one = index >= 0
        x = np.full((index.size, self.X.shape[1]), np.nan)
        x[one] = self.X[index[one]]
        return x, np.where(one, self.s[np.maximum(index, 0)], 0).astype(np.int64)

    def count(self) -> int:
        """Updates computed so far (rows of the log, possibly past the cursor)."""
        return len(self.log)

    def rows(self, k0: int, k1: int):
        """Rows ``k0 <= u < k1`` of the log (clipped): its :class:`~.learners._log.Rows`."""
        k1 = min(max(0, int(k1)), self.count())
        return self.log.rows(min(max(0, int(k0)), k1), k1)

    def bounds(self, start: int | None, stop: int | None, upto_cursor: bool) -> tuple[int, int]:
        """Rows ``k0 <= u < k1`` asked for, clipped to the computed (or shown) run."""
        m = self.count()
        if upto_cursor:
            m = min(m, int(self.learner.n_updates_))
        if stop is not None:
            m = min(m, max(0, int(stop)))
        k0 = min(max(0, int(start or 0)), m)
        return k0, m


def n_updates(source) -> int:
    """Number of updates computed so far (rows of the log, possibly past the cursor)."""
    return RunSource(source).count()


def update_row(source, u: int, *, decimals: int = 2) -> UpdateRow:
    """The ``u``-th update (0-based row; update number ``k = u + 1``)."""
    return _row(RunSource(source), u, decimals)


def _row(src: RunSource, u: int, decimals: int) -> UpdateRow:
    total = src.count()
    if not 0 <= u < total:
        raise IndexError(f"update row {u} out of range (0..{total - 1})")
    step = int(src.rows(u, u + 1).step[0])
    ev = src.learner.event(step)
    x = src.cases(np.array([ev.index]))[0][0]
    alpha = int(src.learner.alpha_after(u)[ev.index]) if src.dual else None
    w_before, w_after, rival = ev.w_before, ev.w_after, None
    if src.multiclass:
        z, w_before, w_after, own, r = src.learner.update_terms(ev)
        rival = int(src.learner.classes_[r])
        text = format_multiclass_update(ev, z=z, W_before=w_before, W_after=w_after, own=own,
                                        rival=r, names=src.names, eta0=src.eta0,
                                        decimals=decimals)
    else:
        text = format_update(ev, x=x, eta0=src.eta0, bias_scale=src.bias_scale,
                             decimals=decimals, loss=src.loss, X=src.X, y=src.s, tie=src.tie)
    return UpdateRow(
        k=u + 1, step=step, epoch=ev.epoch + 1, sample=ev.index, label=ev.label, x=x,
        margin=ev.margin, w_before=w_before, b_before=ev.b_before, w_after=w_after,
        b_after=ev.b_after, alpha_before=alpha, formula=text,
        future=step > src.learner.step_count, rival=rival,
    )


#: Rows read from the log at a time by the exports.
ROWS_PER_BLOCK = 8192


@dataclass(frozen=True)
class _Chunk:
    """Rows ``lo <= u < lo + len(step)`` with the values before each update worked out."""

    lo: int
    step: np.ndarray
    index: np.ndarray
    margin: np.ndarray
    w_before: np.ndarray | None
    w_after: np.ndarray | None
    b_before: np.ndarray
    b_after: np.ndarray
    alpha_before: np.ndarray | None


def _chunks(src: RunSource, k0: int, k1: int, size: int = ROWS_PER_BLOCK) -> Iterator[_Chunk]:
    """Rows ``k0 <= u < k1`` in chunks of ``size``, each with its values before the update."""
    counts = None
    if src.dual:
        counts = np.array(src.learner.alpha_after(k0), dtype=np.int64)
    for lo in range(k0, k1, size):
        hi = min(k1, lo + size)
        rows = src.rows(max(0, lo - 1), hi)  # with the row before, for the values before
        first = 1 if lo > 0 else 0
        b_after = rows.b[first:]
        w0, b0 = src.start  # the state before the first update: 0, or a hand-set start
        b_before = rows.b[:-1] if first else np.r_[b0, rows.b[:-1]]
        w_after = w_before = None
        if rows.w is not None:
            w_after = rows.w[first:]
            w_before = rows.w[:-1] if first else np.vstack([
                np.zeros((1, rows.w.shape[1])) if w0 is None else w0[None], rows.w[:-1]])
        index = rows.index[first:]
        alpha = None
        if counts is not None:
            alpha = counts[index] + _alpha_before(index)
            counts += np.bincount(index, minlength=src.n)
        yield _Chunk(lo=lo, step=rows.step[first:], index=index, margin=rows.margin[first:],
                     w_before=w_before, w_after=w_after, b_before=b_before, b_after=b_after,
                     alpha_before=alpha)


def log_rows(src: RunSource, k0: int, k1: int, size: int = ROWS_PER_BLOCK
              ) -> Iterator[list[UpdateRow]]:
    """Rows ``k0 <= u < k1`` without formulas, a list per chunk: :func:`_row`'s numbers, fast."""
    t = src.learner.step_count
    for c in _chunks(src, k0, k1, size):
        step, index = c.step.tolist(), c.index.tolist()
        margin, b0, b1 = c.margin.tolist(), c.b_before.tolist(), c.b_after.tolist()
        alphas = None if c.alpha_before is None else c.alpha_before.tolist()
        xs, ys = src.cases(c.index)
        w_before, w_after, rivals = c.w_before, c.w_after, [None] * len(index)
        if src.multiclass:  # every class's w̃ₖ, and the class each update took from
            shape = (len(index), len(src.learner.classes_), -1)
            w_before, w_after = w_before.reshape(shape), w_after.reshape(shape)
            rivals = _rivals(src, c.index, w_before)
        yield [
            UpdateRow(
                k=c.lo + r + 1, step=step[r], epoch=(step[r] - 1) // src.per + 1, sample=i,
                label=int(ys[r]), x=xs[r], margin=margin[r],
                w_before=None if w_before is None else w_before[r], b_before=b0[r],
                w_after=None if w_after is None else w_after[r], b_after=b1[r],
                alpha_before=None if alphas is None else alphas[r], formula="",
                future=step[r] > t, rival=rivals[r],
            )
            for r, i in enumerate(index)
        ]


def _rivals(src: RunSource, index: np.ndarray, W_before: np.ndarray) -> list[int]:
    """The label of the class each multiclass update took :math:`\\tilde x` from."""
    learner = src.learner
    return [int(learner.classes_[learner.rival(W, i)])
            for W, i in zip(W_before, index.tolist(), strict=True)]


def update_rows(source, *, start: int = 0, stop: int | None = None, upto_cursor: bool = False,
                decimals: int = 2) -> Iterator[UpdateRow]:
    """Rows ``start <= u < stop`` (default: all computed) as :class:`UpdateRow`, lazily.

    ``upto_cursor`` keeps only the updates the canvas has shown.
    """
    src = RunSource(source)
    k0, k1 = src.bounds(start, stop, upto_cursor)
    for u in range(k0, k1):
        yield _row(src, u, decimals)


@dataclass(frozen=True)
class Block:
    """A piece of an exported file; ``done`` of ``total`` rows written with it."""

    text: str
    done: int
    total: int


def write_blocks(path, blocks, progress=None) -> int:
    """Write ``blocks`` (UTF-8) to ``path`` atomically, or to an open text file; the rows written.

    ``progress(done, total)`` is called after each block; ``False`` raises
    :class:`~perceptron_gui.core.io.Cancelled`.  On any failure the previous
    file at ``path`` is intact and no file is left behind.
    """
    from .io import Cancelled, atomic_write_bytes  # the project's one atomic writer

    written = [0]

    def encoded():
        for block in blocks:
            yield block.text
            written[0] = block.done
            if progress is not None and progress(block.done, block.total) is False:
                raise Cancelled("export cancelled")
        # asked once more after the last block, before the file replaces the old one
        if progress is not None and progress(written[0], written[0]) is False:
            raise Cancelled("export cancelled")

    if hasattr(path, "write"):
        for text in encoded():
            path.write(text)
    else:
        atomic_write_bytes(os.fspath(path), (text.encode("utf-8") for text in encoded()))
    return written[0]


def csv_columns(source) -> list[str]:
    """The header of :func:`log_to_csv` for this run.

    Samples are numbered from 1, as the window and ``α[i]`` number them (-1: a
    pass of batch descent); ``margin`` is before the update; no ``w`` columns
    for a non-linear kernel.
    """
    src = source if isinstance(source, RunSource) else RunSource(source)
    d = src.X.shape[1]
    cols = ["k", "step", "epoch", "sample", "y"]
    cols += [f"x{j + 1}" for j in range(d)]
    cols.append("margin")
    if src.multiclass:  # class q of the classes in order (y's labels sorted): wq_j, bq
        cols.append("rival")
        for when in ("before", "after"):
            for q in range(1, len(src.learner.classes_) + 1):
                cols += [f"w{q}_{j + 1}_{when}" for j in range(d)] + [f"b{q}_{when}"]
        return cols
    if src.has_w:
        cols += [f"w{j + 1}_before" for j in range(d)]
    cols.append("b_before")
    if src.has_w:
        cols += [f"w{j + 1}_after" for j in range(d)]
    cols.append("b_after")
    if src.dual:
        cols += ["alpha_before", "alpha_after"]
    return cols


def _alpha_before(index: np.ndarray) -> np.ndarray:
    """For each row, how many earlier rows have the same sample (vectorised)."""
    m = index.size
    out = np.zeros(m, np.int64)
    if m == 0:
        return out
    order = np.argsort(index, kind="stable")
    srt = index[order]
    starts = np.r_[0, np.flatnonzero(np.diff(srt)) + 1]
    lengths = np.diff(np.r_[starts, m])
    out[order] = np.arange(m) - np.repeat(starts, lengths)
    return out


def csv_blocks(source, *, start: int = 0, stop: int | None = None, upto_cursor: bool = False,
               rows_per_block: int = ROWS_PER_BLOCK) -> Iterator[Block]:
    """The CSV file of :func:`log_to_csv` as :class:`Block` s: the header, then rows."""
    src = RunSource(source)
    k0, k1 = src.bounds(start, stop, upto_cursor)
    return _csv_blocks(src, k0, k1, rows_per_block)


def _csv_blocks(src: RunSource, k0: int, k1: int, size: int) -> Iterator[Block]:
    total = k1 - k0
    yield Block(",".join(csv_columns(src)) + "\n", 0, total)
    if src.multiclass:
        yield from _multiclass_csv_blocks(src, k0, k1, size)
        return
    for c in _chunks(src, k0, k1, size):
        m = c.step.size
        xs, ys = src.cases(c.index)
        number = np.where(c.index >= 0, c.index + 1, -1)  # from 1, as the window numbers
        ints = np.column_stack([np.arange(c.lo + 1, c.lo + m + 1), c.step,
                                (c.step - 1) // src.per + 1, number, ys])
        floats = [xs, c.margin.reshape(-1, 1)]
        if c.w_after is not None:
            floats += [c.w_before, c.b_before.reshape(-1, 1), c.w_after,
                       c.b_after.reshape(-1, 1)]
        else:
            floats += [c.b_before.reshape(-1, 1), c.b_after.reshape(-1, 1)]
        head = ints.astype(np.int64).tolist()
        body = np.hstack(floats).astype(np.float64).tolist()
        end = None
        if c.alpha_before is not None:
            end = np.column_stack([c.alpha_before, c.alpha_before + 1]).tolist()
        lines = []
        for r in range(m):
            cells = [str(v) for v in head[r]] + [repr(v) for v in body[r]]
            if end is not None:
                cells += [str(v) for v in end[r]]
            lines.append(",".join(cells))
        yield Block("\n".join(lines) + "\n", c.lo - k0 + m, total)


def _class_weights(src: RunSource, W: np.ndarray) -> np.ndarray:
    """Flattened rows of every class's w̃ₖ as each class's ``wₖ`` then ``bₖ = c·wₖ₀``."""
    m = len(src.learner.classes_)
    W = W.reshape(W.shape[0], m, -1)
    d = src.X.shape[1]
    b = (src.bias_scale * W[:, :, d] if src.bias_scale is not None
         else np.zeros(W.shape[:2]))
    return np.concatenate([W[:, :, :d], b[:, :, None]], axis=2).reshape(W.shape[0], -1)


def _multiclass_csv_blocks(src: RunSource, k0: int, k1: int, size: int) -> Iterator[Block]:
    total = k1 - k0
    for rows in log_rows(src, k0, k1, size):
        W0 = _class_weights(src, np.array([r.w_before for r in rows]))
        W1 = _class_weights(src, np.array([r.w_after for r in rows]))
        lines = []
        for r, row in enumerate(rows):
            cells = [str(row.k), str(row.step), str(row.epoch), str(row.sample + 1),
                     str(row.label), *map(repr, row.x.tolist()), repr(row.margin),
                     str(row.rival), *map(repr, W0[r].tolist()), *map(repr, W1[r].tolist())]
            lines.append(",".join(cells))
        yield Block("\n".join(lines) + "\n", rows[-1].k - k0, total)


def log_to_csv(source, path_or_file, *, start: int = 0, stop: int | None = None,
               upto_cursor: bool = False, progress=None) -> int:
    """Write the update log as CSV, one row per update, with a header; the updates written.

    Floats as their shortest round-trip ``repr`` (read back bit for bit); a
    path is written atomically, an open text file as is.
    """
    return write_blocks(path_or_file, csv_blocks(source, start=start, stop=stop,
                                                 upto_cursor=upto_cursor), progress)

