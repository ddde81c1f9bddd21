r"""The multiclass perceptron: one weight vector per class, the largest score wins.

With :math:`\tilde x = (x, c)` (the bias as the weight of a constant feature
:math:`c`, as the binary perceptron's), class :math:`k` scores
:math:`w_k \cdot \tilde x` and :math:`\hat y(x) = \arg\max_k w_k \cdot \tilde x`.
Sample :math:`(x, y)` is a *mistake* when some other class scores as much:
:math:`\mu = w_y \cdot \tilde x - \max_{z \ne y} w_z \cdot \tilde x \le 0` (from
:math:`W = 0` every sample is one, as in the binary case); then, with
:math:`\hat y` the first class of largest score other than :math:`y`,

.. math::

    w_y \leftarrow w_y + \eta \tilde x, \qquad
    w_{\hat y} \leftarrow w_{\hat y} - \eta \tilde x.

Its mistake bound (``docs/multiclass.md``): if a :math:`U` of unit Frobenius
norm scores every sample's class above every other by :math:`\gamma`, the run
makes at most :math:`2 R^2 / \gamma^2` updates, :math:`R = \max_i \lVert \tilde x_i \rVert`.

The run is a :class:`~.engine.RunEngine` like the binary perceptron's: its log
keeps each update's step, sample, margin :math:`\mu` and the whole :math:`W`
after it (flattened, class by class), so the window steps, seeks and rewinds it.
Scores are summed feature by feature, in Python and in the compiled loop alike.

References
----------
Collins, M. (2002).  Discriminative training methods for hidden Markov models:
theory and experiments with perceptron algorithms.  EMNLP, 1–8.
Crammer, K. and Singer, Y. (2003).  Ultraconservative online algorithms for
multiclass problems.  JMLR 3, 951–991.
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..values import readonly
from ._base import check_X
from ._jit import EMPTY_ORDER, LazyLoop
from ._log import Rows, UpdateLog, empty_columns
from ._run import MARGIN_NAN, WEIGHTS_OVERFLOW, StepEvent
from .engine import RunEngine
from .params import MULTICLASS

__all__ = ["MulticlassPerceptron", "mistake_bound", "rival_of"]

#: Samples scanned between two offers of a checkpoint to the log, at most.
SCAN_STRETCH = 2**16


def mistake_bound(X, y, U, *, bias_scale: float | None = 1.0) -> float:
    r""":math:`2 R^2 / \gamma^2` for the classes ``y`` (positions 0 … m − 1) and the scores ``U``
    (shape (m, d + 1), any norm), or ``inf`` when ``U`` does not separate them
    (``bias_scale`` None: no constant feature, ``U`` of shape (m, d))."""
    Z = _augmented(np.asarray(X, dtype=np.float64), bias_scale)
    U = np.asarray(U, dtype=np.float64)
    scores = Z @ U.T
    own = scores[np.arange(len(y)), y]
    scores[np.arange(len(y)), y] = -np.inf
    gamma = float((own - scores.max(axis=1)).min()) / float(np.linalg.norm(U))
    if not gamma > 0:
        return math.inf
    radius = float(np.sqrt((Z * Z).sum(axis=1).max()))
    return 2 * radius**2 / gamma**2


def _augmented(X: np.ndarray, bias_scale: float | None) -> np.ndarray:
    return X if bias_scale is None else np.column_stack([X, np.full(len(X), bias_scale)])


def _scores(W: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Every class's score of ``z``, summed feature by feature (the compiled loop's order)."""
    out = W[:, 0] * z[0]
    for j in range(1, len(z)):
        out = out + W[:, j] * z[j]
    return out


def _judged(W: np.ndarray, z: np.ndarray, label: int) -> tuple[float, int]:
    """``(μ, ŷ)``: the margin of class ``label`` over the best other, and that class."""
    scores = _scores(W, z)
    own = scores[label]
    scores[label] = -np.inf
    rival = int(np.argmax(scores))
    return float(own - scores[rival]), rival


def rival_of(W_before: np.ndarray, z: np.ndarray, label: int) -> int:
    """The class ``ŷ`` an update on ``z`` of class position ``label`` takes from (under the
    weights ``W_before``, shape (m, d + 1))."""
    return _judged(np.asarray(W_before, dtype=np.float64), z, label)[1]


def _scan_python(Z, codes, order, use_order, pos, hi, W, eta, base, until_update,
                 r_step, r_index, r_margin, r_w, r_b):
    """Steps at positions ``pos .. hi - 1`` of an epoch from ``W`` (updated in place).

    Each update's step (``base + position + 1``), sample, margin and ``W`` after it
    (flattened) go into the ``r_*`` buffers, until they are full.  Returns
    ``(pos, updates, nan)``; ``nan``: stopped just past a NaN margin.
    """
    cap, u = r_step.shape[0], 0
    with np.errstate(over="ignore", invalid="ignore"):
        while pos < hi and u < cap:
            i = int(order[pos]) if use_order else pos
            z, label = Z[i], int(codes[i])
            margin, rival = _judged(W, z, label)
            pos += 1
            if math.isnan(margin):
                return pos, u, True
            if not margin > 0:
                W[label] += eta * z
                W[rival] -= eta * z
                r_step[u], r_index[u], r_margin[u], r_b[u] = base + pos, i, margin, 0.0
                r_w[u] = W.ravel()
                u += 1
                if until_update:
                    break
    return pos, u, False


def _build_scan():
    import numba

    @numba.njit(cache=True, nogil=True, fastmath=False)
    def scan(Z, codes, order, use_order, pos, hi, W, eta, base, until_update,
             r_step, r_index, r_margin, r_w, r_b):
        m, d = W.shape
        cap = r_step.shape[0]
        u = 0
        while pos < hi and u < cap:
            i = order[pos] if use_order else pos
            label = codes[i]
            own = 0.0
            best = -np.inf
            rival = -1
            for k in range(m):
                s = W[k, 0] * Z[i, 0]
                for j in range(1, d):
                    s += W[k, j] * Z[i, j]
                if k == label:
                    own = s
                elif rival < 0 or s > best:
                    best = s
                    rival = k
            margin = own - best
            pos += 1
            if np.isnan(margin):
                return pos, u, True
            if not margin > 0:
                for j in range(d):
                    step = eta * Z[i, j]
                    W[label, j] += step
                    W[rival, j] -= step
                r_step[u] = base + pos
                r_index[u] = i
                r_margin[u] = margin
                r_b[u] = 0.0
                for k in range(m):
                    for j in range(d):
                        r_w[u, k * d + j] = W[k, j]
                u += 1
                if until_update:
                    break
        return pos, u, False

    return scan


def _warm_scan(scan) -> None:
    Z = np.zeros((1, 3))
    for X in (Z, readonly(Z)):
        out = empty_columns(1, 6)
        scan(X, readonly(np.zeros(1, np.int64)), EMPTY_ORDER, False, 0, 1, np.zeros((2, 3)),
             1.0, 0, False, *out)


#: The scan compiled by numba, for long stretches (a step in the window never waits for it).
_SCAN = LazyLoop(_build_scan, _warm_scan)
compiled_scan_available = _SCAN.available

#: Backend override for tests and benchmarks: None (by the stretch), "numpy" or "compiled".
FORCE: str | None = None


def _compiled(stretch: int) -> bool:
    """Whether a computation of ``stretch`` steps runs compiled (:data:`FORCE` first)."""
    return _SCAN.choose(stretch, FORCE)


def _scan(Z, codes, order, pos, hi, W, eta, base, until_update, bufs, compiled=False):
    """:func:`_scan_python` or its compiled twin, bit for bit the same (order None: cyclic)."""
    use_order = order is not None
    order = EMPTY_ORDER if order is None else np.ascontiguousarray(order, dtype=np.int64)
    if compiled:
        pos, u, nan = _SCAN(Z, codes, order, use_order, pos, hi, W, eta, base, until_update,
                            *bufs)
        return int(pos), int(u), bool(nan)
    return _scan_python(Z, codes, order, use_order, pos, hi, W, eta, base, until_update, *bufs)


class MulticlassPerceptron(RunEngine):
    """The multiclass perceptron with the step API of the binary one (scikit-learn style).

    Parameters
    ----------
    fit_intercept, bias_scale : bool, float, default=True, 1.0
        Learn a bias per class: the weight of a constant feature :math:`c > 0`.
    eta0 : float, default=1.0
        :math:`\\eta > 0`; from :math:`W = 0` it only scales the weights.
    order : {"cyclic", "random"}, default="cyclic"
        The samples in turn every epoch, or a fresh permutation per epoch drawn
        from ``np.random.default_rng([random_state, epoch])``.
    random_state : int or None, default=0
        None: a fresh seed each run.
    max_iter : int, default=1000
        Give up after this many epochs (``converged_ = False``).

    Attributes
    ----------
    classes_ : ndarray of shape (m,)
    coef_, intercept_ : ndarray of shape (m, n_features) and (m,)
        :math:`w_k` and :math:`b_k = c\\,w_{k0}` at the cursor; with two classes, as
        scikit-learn's linear classifiers, shape (1, n_features) and (1,): the second
        class's score less the first's, :math:`w_2 - w_1` and :math:`b_2 - b_1`.
    scores_ : tuple of ndarray
        Every class's :math:`w_k` and :math:`b_k`, shapes (m, d) and (m,), whatever m.
    n_updates_, n_epochs_, converged_ : int, int, bool

    Notes
    -----
    A step's :class:`~._run.StepEvent` has ``label`` the sample's class (as in
    ``y``), ``margin`` :math:`\\mu`, and no ``w`` (there is one per class):
    :meth:`weights_after` gives :math:`W` after ``k`` updates and :func:`rival_of`
    the class an update took from.
    """

    PARAMS = MULTICLASS
    _multi_class = True

    def __init__(self, *, fit_intercept: bool = True, bias_scale: float = 1.0,
                 eta0: float = 1.0, order: str = "cyclic", random_state: int | None = 0,
                 max_iter: int = 1000):
        self._store(locals())

    def _learning_rate(self) -> float:
        return float(self.eta0)

    # -- the run ------------------------------------------------------------------------
    def _labels(self, y, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The sorted labels and each sample's class position 0 … m − 1 (m ≥ 2)."""
        y = np.asarray(y)
        if y.shape != (n,):
            raise ValueError(f"X has {n} samples but y has shape {y.shape}")
        classes, codes = np.unique(y, return_inverse=True)
        if classes.shape[0] < 2:
            raise ValueError(f"the multiclass perceptron needs two classes at least; y has "
                             f"{classes.shape[0]}")
        return classes, readonly(codes.reshape(-1).astype(np.int64))

    def _check_start(self, w0: np.ndarray, b0: float) -> None:
        if w0.any() or b0:
            raise ValueError("the multiclass perceptron starts from W = 0: it takes no "
                             "coef_init or intercept_init")

    def _setup_state(self) -> None:
        self._Z = readonly(_augmented(self._X, self.bias_scale if self.fit_intercept else None))
        m, D = self.classes_.shape[0], self._Z.shape[1]
        self._log = UpdateLog(m * D, self._n, replay=self._replay)
        self._fW = np.zeros((m, D))

    def _replay(self, T0: int, k0: int, w0, b0: float, T1: int, m: int) -> tuple[int, Rows]:
        """``(k0, rows)``: the ``m`` updates of steps ``T0 + 1 .. T1`` from ``W`` = ``w0``."""
        n = self._n
        out = empty_columns(m, self._fW.size)
        W = np.array(w0, dtype=np.float64).reshape(self._fW.shape)
        compiled = _compiled(T1 - T0)
        T, u = T0, 0
        while T < T1 and u < m:
            epoch, pos = divmod(T, n)
            hi = min(n, pos + (T1 - T))
            pos, got, nan = _scan(self._Z, self._s, self._order(epoch), pos, hi, W, self._eta,
                                  epoch * n, False, [a[u:] for a in out], compiled)
            u += got
            T = epoch * n + pos
            if nan:
                break
        return k0, Rows(*out)

    def _compute(self, max_steps: int | None = None, until_update: bool = False,
                 deadline: float | None = None) -> None:
        """Extend the run: ``max_steps``, one update, the end or ``deadline``, whichever first."""
        if self._end is not None:
            return
        n, T, W, log = self._n, self._T, self._fW, self._log
        stop_at = None if max_steps is None else T + max_steps
        k0, T0 = len(log), T
        # the length asked for decides (a single step never waits for numba to load), or
        # the length scanned so far while looking for the next update (many short epochs)
        planned = 0 if until_update else (stop_at - T0 if stop_at is not None else 2**62)
        while True:
            epoch, pos = divmod(T, n)
            hi = n if stop_at is None else min(n, pos + (stop_at - T))
            order = self._order(epoch)
            compiled = _compiled(max(planned, T - T0 + hi - pos))
            while True:
                bufs = log.reserve(1 if until_update else 4096)
                pos, u, nan = _scan(self._Z, self._s, order, pos, min(hi, pos + SCAN_STRETCH),
                                    W, self._eta, epoch * n, until_update, bufs, compiled)
                log.commit(u)
                log.checkpoint(epoch * n + pos, W.ravel(), 0.0)
                late = deadline is not None and time.perf_counter() >= deadline
                if nan or (u and not np.isfinite(W).all()):
                    break
                if pos >= hi or (until_update and u) or late:
                    break
            T = epoch * n + pos
            if nan:
                self._diverge(T, MARGIN_NAN)
                break
            if not np.isfinite(W).all():
                self._diverge(log.step_of(len(log) - 1), WEIGHTS_OVERFLOW)
                T = self._end
                break
            if pos == n:
                self._close_epoch(epoch, T)
            if self._end is not None or (stop_at is not None and T >= stop_at):
                break
            if (until_update and len(log) > k0) or late:
                break
        self._T = T

    def _close_epoch(self, epoch: int, T: int) -> None:
        """End the run after an epoch without an update, or after ``max_iter`` epochs."""
        if self._log.epoch_count(epoch) == 0:
            self._end, self._end_converged = T, True
        elif epoch + 1 >= self.max_iter:
            self._end, self._end_converged = T, False

    # -- at the cursor ------------------------------------------------------------------
    def weights_after(self, k: int) -> np.ndarray:
        """:math:`W` after ``k`` updates, shape (m, d + 1) (the bias column last), a copy."""
        w, _ = self._log.state_after(k)
        return w.reshape(self._fW.shape)

    def _sync(self) -> None:
        k = self._log.count_before(self._t)
        self._W = self.weights_after(k)
        self.n_updates_ = k
        self.n_epochs_ = -(-self._t // self._n)
        self.n_iter_ = self.n_epochs_
        self.converged_ = bool(self._end is not None and self._t == self._end
                               and self._end_converged)
        self.diverged_ = bool(self._diverged_at is not None and self._t >= self._diverged_at)
        self.diverged_reason_ = self._diverged_why if self.diverged_ else None

    @property
    def scores_(self) -> tuple[np.ndarray, np.ndarray]:
        """Every class's :math:`w_k` and :math:`b_k` at the cursor, shapes (m, d) and (m,)."""
        d = self.n_features_in_
        b = (self.bias_scale * self._W[:, -1] if self.fit_intercept
             else np.zeros(len(self._W)))
        return self._W[:, :d].copy(), b

    @property
    def coef_(self) -> np.ndarray:
        W, _ = self.scores_
        return W[1:] - W[:1] if len(W) == 2 else W

    @property
    def intercept_(self) -> np.ndarray:
        _, b = self.scores_
        return b[1:] - b[:1] if len(b) == 2 else b

    def _margin_at(self, idx: int, k: int) -> float:
        return _judged(self.weights_after(k), self._Z[idx], int(self._s[idx]))[0]

    def training_margins(self) -> np.ndarray:
        """Every sample's :math:`\\mu` at the cursor: its class's score less the best other's."""
        self._require_started()
        scores = self._Z @ self._W.T
        rows = np.arange(self._n)
        own = scores[rows, self._s].copy()
        scores[rows, self._s] = -np.inf
        with np.errstate(invalid="ignore"):
            return own - scores.max(axis=1)

    def _event(self, step: int) -> StepEvent:
        memo = self.__dict__.get("_last_event")
        if memo is not None and memo[0] == step and memo[1] is self._log:
            return memo[2]
        epoch, pos, idx = self._examined(step)
        kb = self._log.count_before(step - 1)
        row = self._log.rows(kb, kb + 1)
        recorded = row.step.size == 1 and int(row.step[0]) == step
        margin = float(row.margin[0]) if recorded else self._margin_at(idx, kb)
        ev = StepEvent(step=step, epoch=epoch, position=pos, index=idx,
                       label=int(self.classes_[self._s[idx]]), margin=margin,
                       mistake=recorded, k=kb + recorded, w_before=None, b_before=0.0,
                       w_after=None, b_after=0.0)
        self._last_event = (step, self._log, ev)
        return ev

    @property
    def augmented_X(self) -> np.ndarray:
        """The samples as the run sees them, :math:`\\tilde x = (x, c)` (read-only)."""
        self._require_started()
        return self._Z

    @property
    def training_signs(self) -> np.ndarray:
        """The training labels as given (with two classes of labels ±1: the signs)."""
        self._require_started()
        return self.classes_[self._s]

    def update_terms(self, event: StepEvent) -> tuple:
        """``(x̃, W before, W after, own, rival)`` of the step ``event``: the sample as the
        run sees it, every class's weights around the step (equal when it made no update),
        and the rows of the sample's class and of the class that scored as much."""
        before = self.weights_after(event.k - event.mistake)
        i = event.index
        return (self._Z[i], before, self.weights_after(event.k), int(self._s[i]),
                self.rival(before, i))

    def rival(self, W_before: np.ndarray, index: int) -> int:
        """The row of the class that scores as much as sample ``index``'s own under
        ``W_before`` (the first such): the class an update on it takes x̃ from."""
        return rival_of(W_before, self._Z[index], int(self._s[index]))

    def class_scores(self, X) -> np.ndarray:
        """Every class's score :math:`w_k \\cdot x + b_k`, shape (n, m)."""
        W, b = self.scores_
        with np.errstate(over="ignore", invalid="ignore"):
            return check_X(X) @ W.T + b

    def decision_function(self, X) -> np.ndarray:
        """Every class's score, shape (n, m); with two classes (as scikit-learn) the
        second's less the first's, shape (n,)."""
        if len(self._W) > 2:
            return self.class_scores(X)
        with np.errstate(over="ignore", invalid="ignore"):
            return (check_X(X) @ self.coef_.T + self.intercept_)[:, 0]

    def predict(self, X) -> np.ndarray:
        """The class of the largest score (ties: the first)."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(np.int64)]
        return self.classes_[np.argmax(scores, axis=1)]
