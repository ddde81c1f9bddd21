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

References
----------
Collins, M. (2002).  Discriminative training methods for hidden Markov models:
theory and experiments with perceptron algorithms.  EMNLP, 1–8.
Crammer, K. and Singer, Y. (2003).  Ultraconservative online algorithms for
multiclass problems.  JMLR 3, 951–991.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..values import readonly
from ._base import check_X
from ._jit import LazyLoop
from .params import MULTICLASS, check_all

__all__ = ["MulticlassPerceptron", "MulticlassStep", "mistake_bound"]


@dataclass(frozen=True)
class MulticlassStep:
    """One step: sample ``index`` (of class ``label``) seen in ``epoch`` with margin ``margin``
    (:math:`\\mu`), a mistake or not; ``rival`` the class that scored as much (or None);
    the weights (shape (m, d + 1), the bias column last) before and after."""

    step: int
    epoch: int
    index: int
    label: int
    rival: int | None
    margin: float
    mistake: bool
    W_before: np.ndarray
    W_after: np.ndarray


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
    """Every class's score of ``z``, summed feature by feature (the compiled epoch's order)."""
    out = W[:, 0] * z[0]
    for j in range(1, len(z)):
        out = out + W[:, j] * z[j]
    return out


def _epoch_python(Z, y, W, order, eta) -> int:
    """One epoch over ``Z[order]`` updating ``W`` in place; the number of updates."""
    updates = 0
    for i in order:
        z, label = Z[i], y[i]
        scores = _scores(W, z)
        own = scores[label]
        scores[label] = -np.inf
        rival = int(np.argmax(scores))
        if not own - scores[rival] > 0:
            W[label] += eta * z
            W[rival] -= eta * z
            updates += 1
    return updates


def _build_epoch():
    import numba

    @numba.njit(cache=True, nogil=True, fastmath=False)
    def epoch(Z, y, W, order, eta):
        m, d = W.shape
        updates = 0
        for t in range(order.shape[0]):
            i = order[t]
            label = y[i]
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
            if not own - best > 0:
                for j in range(d):
                    step = eta * Z[i, j]
                    W[label, j] += step
                    W[rival, j] -= step
                updates += 1
        return updates

    return epoch


def _warm_epoch(epoch) -> None:
    Z = np.zeros((1, 3))
    for X in (Z, readonly(Z)):
        epoch(X, readonly(np.zeros(1, np.int64)), np.zeros((2, 3)), np.zeros(1, np.int64), 1.0)


#: One epoch compiled by numba (the window's fit), else :func:`_epoch_python`.
_EPOCH = LazyLoop(_build_epoch, _warm_epoch)
compiled_epoch_available = _EPOCH.available


class MulticlassPerceptron:
    """The multiclass perceptron with a step-by-step API (scikit-learn style).

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
    history_ : list of MulticlassStep
        Every step taken; :meth:`seek` moves the cursor along it.
    n_updates_, n_epochs_, converged_ : int, int, bool
    """

    def __init__(self, *, fit_intercept: bool = True, bias_scale: float = 1.0,
                 eta0: float = 1.0, order: str = "cyclic", random_state: int = 0,
                 max_iter: int = 1000):
        self.fit_intercept, self.bias_scale, self.eta0 = fit_intercept, bias_scale, eta0
        self.order, self.random_state, self.max_iter = order, random_state, max_iter

    @classmethod
    def default_params(cls, **changed) -> dict:
        """Every parameter's default, with ``changed``."""
        return dict(cls().get_params(), **changed)

    def get_params(self, deep: bool = True) -> dict:
        """The parameters, as scikit-learn's ``get_params``."""
        return {k: getattr(self, k) for k in ("fit_intercept", "bias_scale", "eta0", "order",
                                               "random_state", "max_iter")}

    def validate_params(self) -> None:
        """ValueError naming the first parameter out of range (:data:`~.params.MULTICLASS`)."""
        check_all(MULTICLASS, self)

    # -- the run ------------------------------------------------------------------------
    def start(self, X, y) -> MulticlassPerceptron:
        """Start a run on ``(X, y)`` from :math:`W = 0` (nothing stepped yet)."""
        self.validate_params()
        X = check_X(X)
        y = np.asarray(y)
        if y.shape != (X.shape[0],):
            raise ValueError(f"X has {X.shape[0]} samples but y has shape {y.shape}")
        self.classes_, codes = np.unique(y, return_inverse=True)
        if self.classes_.shape[0] < 2:
            raise ValueError(f"the multiclass perceptron needs two classes at least; y has "
                             f"{self.classes_.shape[0]}")
        self._Z = readonly(_augmented(X, self.bias_scale if self.fit_intercept else None))
        self._y = readonly(codes.reshape(-1).astype(np.int64))
        self._W = np.zeros((self.classes_.shape[0], self._Z.shape[1]))
        self.history_: list[MulticlassStep] = []
        self._cursor = 0
        self._last_mistake = -1  # the step of the last update in the history
        self._fitted = None  # fit's (updates, epochs, converged): a run without a history
        self._seed = (int(np.random.SeedSequence().entropy % 2**63) if self.random_state is None
                      else int(self.random_state))
        self._order_of = None
        return self

    def _sample(self, step: int) -> tuple[int, int]:
        """``(epoch, index)`` of the sample step ``step`` visits."""
        n = self._Z.shape[0]
        epoch, position = divmod(step, n)
        if self.order == "cyclic":
            return epoch, position
        return epoch, int(self._sample_order(epoch)[position])

    @property
    def done(self) -> bool:
        """Whether the run is over: an epoch without a mistake, or ``max_iter`` epochs."""
        return self.converged_ or len(self.history_) >= self.max_iter * self._Z.shape[0]

    def step(self) -> MulticlassStep | None:
        """Visit the next sample (the cursor at the end of the run); None once done."""
        if self._fitted is not None:
            raise ValueError("fit ran the whole run without a history: start() a run to step")
        if self._cursor < len(self.history_):
            self.seek(self._cursor + 1)
            return self.history_[self._cursor - 1]
        if self.done:
            return None
        epoch, i = self._sample(len(self.history_))
        z, label = self._Z[i], int(self._y[i])
        scores = _scores(self._W, z)
        own = scores[label]
        scores[label] = -np.inf
        rival = int(np.argmax(scores))
        margin = float(own - scores[rival])
        before = readonly(self._W.copy())
        mistake = not margin > 0
        if mistake:
            self._W[label] += self.eta0 * z
            self._W[rival] -= self.eta0 * z
            self._last_mistake = len(self.history_)
        record = MulticlassStep(len(self.history_), epoch, i, label, rival if mistake else None,
                                margin, mistake, before, readonly(self._W.copy()))
        self.history_.append(record)
        self._cursor = len(self.history_)
        return record

    def seek(self, step: int) -> None:
        """Put the cursor after ``step`` steps of the history (0: the start)."""
        if not 0 <= step <= len(self.history_):
            raise ValueError(f"step {step} is outside the history 0 … {len(self.history_)}")
        self._cursor = step
        self._W = (np.zeros_like(self._W) if step == 0 else self.history_[step - 1].W_after).copy()

    def fit(self, X, y) -> MulticlassPerceptron:
        """Run from :math:`W = 0` until an epoch without a mistake or ``max_iter`` epochs.

        The same run as :meth:`step` to the end, bit for bit, epoch by epoch (compiled
        when numba is there) and without a history: :meth:`start` a run to step it.
        """
        self.start(X, y)
        Z, y, W = self._Z, self._y, self._W
        n = Z.shape[0]
        epoch_of = _EPOCH if _EPOCH.available() else _epoch_python
        cyclic = np.arange(n, dtype=np.int64)
        updates = epochs = 0
        converged = False
        while epochs < self.max_iter and not converged:
            order = cyclic if self.order == "cyclic" else self._sample_order(epochs)
            made = epoch_of(Z, y, W, order, float(self.eta0))
            epochs += 1
            updates += made
            converged = made == 0
        self._fitted = (updates, epochs, converged)
        return self

    def _sample_order(self, epoch: int) -> np.ndarray:
        """The permutation of ``epoch`` in random order (the last one kept: steps ask n times)."""
        kept = self._order_of
        if kept is None or kept[0] != epoch:
            rng = np.random.default_rng([self._seed, epoch])
            kept = self._order_of = (epoch, rng.permutation(self._Z.shape[0]).astype(np.int64))
        return kept[1]

    # -- what the run has learnt --------------------------------------------------------
    @property
    def converged_(self) -> bool:
        """Whether the last whole epoch had no mistake."""
        if self._fitted is not None:
            return self._fitted[2]
        n, taken = self._Z.shape[0], len(self.history_)
        return taken > 0 and taken % n == 0 and self._last_mistake < taken - n

    @property
    def n_updates_(self) -> int:
        if self._fitted is not None:
            return self._fitted[0]
        return sum(s.mistake for s in self.history_[: self._cursor])

    @property
    def n_epochs_(self) -> int:
        if self._fitted is not None:
            return self._fitted[1]
        return -(-self._cursor // self._Z.shape[0])

    @property
    def scores_(self) -> tuple[np.ndarray, np.ndarray]:
        """Every class's :math:`w_k` and :math:`b_k` at the cursor, shapes (m, d) and (m,)."""
        d = self._Z.shape[1] - self.fit_intercept
        b = self.bias_scale * self._W[:, -1] if self.fit_intercept else np.zeros(len(self._W))
        return self._W[:, :d].copy(), b

    @property
    def coef_(self) -> np.ndarray:
        W, _ = self.scores_
        return W[1:] - W[:1] if len(W) == 2 else W

    @property
    def intercept_(self) -> np.ndarray:
        _, b = self.scores_
        return b[1:] - b[:1] if len(b) == 2 else b

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
