r"""Two Gaussian classes shaped by hand: means, covariance axes and priors → posteriors.

The log-odds of a :class:`GaussianModel` (classes ``-1, +1``) are
``δ_+(x) − δ_-(x)`` with the class scores ``δ_k`` of :class:`~.qda.QDA`, and with
one shared covariance the line ``w·x + b`` (as LDA's).

Each covariance is kept with its axes, ``Σ_k = R(θ_k)\,\mathrm{diag}(s_{k1}^2,
s_{k2}^2)\,R(θ_k)^\top``, so the shaping mode moves three handles a class: the
mean and the 2σ ellipse's axis ends ``μ_k + 2 s_{kj} u_{kj}``.  Immutable: a
move returns a new model, keeping ``shared`` (LDA) and ``diagonal`` (naive Bayes).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..values import check_integer
from ._base import check_X
from .lda import two_class_line
from .losses import expit

__all__ = ["GaussianModel", "N_STD", "HANDLE_ROLES"]

#: The handles' axis ends are on the ellipse at this many standard deviations.
N_STD = 2.0
#: What each of a class's three handles moves, in the order of :meth:`GaussianModel.handles`.
HANDLE_ROLES = ("mean", "axis 1", "axis 2")
#: The priors a model accepts: each class at least this.
MIN_PRIOR = 0.01


def _rotation(theta: float) -> np.ndarray:
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, -s], [s, c]])


def _cov_from_axes(theta: float, scales) -> np.ndarray:
    R = _rotation(theta)
    return (R * np.square(np.asarray(scales, dtype=np.float64))) @ R.T


@dataclass(frozen=True, eq=False)
class GaussianModel:
    """Two Gaussian classes: the generative model of LDA, QDA and naive Bayes.

    Parameters
    ----------
    means : array-like of shape (2, 2)
        ``μ_-`` and ``μ_+``.
    angles : array-like of shape (2,)
        Each class's first axis's angle ``θ_k`` (radians, from the x axis).
    scales : array-like of shape (2, 2)
        Each class's standard deviations along its axes, ``s_k1, s_k2 > 0``.
    priors : array-like of shape (2,)
        ``π_-, π_+``: each at least :data:`MIN_PRIOR`, summing to 1.
    shared, diagonal : bool, default=False
        One covariance for both classes (LDA); axes along x and y (naive Bayes).
    covariances : array-like of shape (2, 2, 2), optional
        The exact covariances (a fitted learner's); by default from the axes.

    Attributes
    ----------
    coef_, intercept_ : ndarray of shape (1, 2) and (1,)
        ``w`` and ``b`` of a shared model; absent otherwise.
    """

    means: np.ndarray
    angles: np.ndarray
    scales: np.ndarray
    priors: np.ndarray
    shared: bool = False
    diagonal: bool = False
    covariances: np.ndarray | None = field(default=None)

    def __post_init__(self):
        means = np.array(self.means, dtype=np.float64)
        angles = np.array(self.angles, dtype=np.float64).reshape(-1)
        scales = np.array(self.scales, dtype=np.float64)
        priors = np.array(self.priors, dtype=np.float64).reshape(-1)
        if means.shape != (2, 2) or angles.shape != (2,) or scales.shape != (2, 2):
            raise ValueError("a Gaussian model has two classes in two dimensions: means "
                             f"(2, 2), angles (2,), scales (2, 2); got {means.shape}, "
                             f"{angles.shape}, {scales.shape}")
        if not (np.isfinite(means).all() and np.isfinite(angles).all()):
            raise ValueError("the means and the axes' angles must be finite numbers")
        if not (np.isfinite(scales).all() and (scales > 0).all()):
            raise ValueError(f"every axis needs a positive, finite length; got {scales.tolist()}")
        if (priors.shape != (2,) or not np.isfinite(priors).all()
                or (priors < MIN_PRIOR).any() or abs(priors.sum() - 1.0) > 1e-9):
            raise ValueError(f"the priors are two numbers of at least {MIN_PRIOR} summing "
                             f"to 1; got {priors.tolist()}")
        if self.covariances is None:
            covs = np.stack([_cov_from_axes(t, s) for t, s in zip(angles, scales, strict=True)])
        else:
            covs = np.array(self.covariances, dtype=np.float64)
            if covs.shape != (2, 2, 2) or not np.isfinite(covs).all():
                raise ValueError(f"covariances must be finite, shape (2, 2, 2); got {covs.shape}")
        det = covs[:, 0, 0] * covs[:, 1, 1] - covs[:, 0, 1] * covs[:, 1, 0]
        if not (det > 0).all():
            raise ValueError("each class's covariance must be positive definite")
        for a in (means, angles, scales, priors, covs):
            a.setflags(write=False)
        for name, value in (("means", means), ("angles", angles), ("scales", scales),
                            ("priors", priors), ("covariances", covs), ("_det", det),
                            ("shared", bool(self.shared)), ("diagonal", bool(self.diagonal))):
            object.__setattr__(self, name, value)
        if self.shared:
            w, b = two_class_line(covs[0], means, math.log(priors[1] / priors[0]))
            object.__setattr__(self, "coef_", w)
            object.__setattr__(self, "intercept_", b)

    classes_ = np.array([-1, 1])

    @classmethod
    def from_learner(cls, learner) -> GaussianModel:
        """The model of a fitted LDA, QDA or naive Bayes of two classes in 2-D (else ValueError).

        Its ``decision_function`` and ``predict_proba`` are the learner's, to rounding.
        """
        from .naive_bayes import GaussianNB

        try:
            means = np.asarray(learner.means_, dtype=np.float64)
            cov = np.asarray(learner.covariance_, dtype=np.float64)
            priors = np.asarray(learner.priors_, dtype=np.float64)
            classes = np.asarray(learner.classes_)
        except AttributeError as exc:
            raise ValueError(f"{type(learner).__name__} has no fitted Gaussian class model "
                             "(means, covariances, priors)") from exc
        if means.shape != (2, 2) or classes.tolist() != [-1, 1]:
            raise ValueError("shaping by hand takes two classes, −1 and +1, in two "
                             f"dimensions; this model has classes {classes.tolist()} "
                             f"and means of shape {means.shape}")
        diagonal = isinstance(learner, GaussianNB)
        shared = cov.ndim == 2 or (diagonal and bool(learner.shared_variance))
        covs = np.stack([cov, cov]) if cov.ndim == 2 else cov
        angles, scales = np.zeros(2), np.empty((2, 2))
        for k in range(2):
            if diagonal:
                scales[k] = np.sqrt(np.diag(covs[k]))
            else:
                lam, vec = np.linalg.eigh(covs[k])
                lam, vec = lam[::-1], vec[:, ::-1]  # the longer axis first
                scales[k] = np.sqrt(np.clip(lam, np.finfo(float).tiny, None))
                angles[k] = math.atan2(vec[1, 0], vec[0, 0])
        return cls(means, angles, scales, priors, shared=shared, diagonal=diagonal,
                   covariances=covs)

    # -- the classifier ------------------------------------------------------------------
    def class_scores(self, X) -> np.ndarray:
        """``δ_-(x), δ_+(x)`` (constants common to both left out), shape ``(n, 2)``."""
        X = check_X(X, n_features=2, estimator="GaussianModel")
        out = np.empty((X.shape[0], 2))
        for k in range(2):
            (a, b), (_, d) = self.covariances[k]
            det = self._det[k]
            dx, dy = X[:, 0] - self.means[k, 0], X[:, 1] - self.means[k, 1]
            maha = (d * dx * dx - 2.0 * b * dx * dy + a * dy * dy) / det
            out[:, k] = -0.5 * (maha + math.log(det)) + math.log(self.priors[k])
        return out

    def decision_function(self, X) -> np.ndarray:
        """The log-odds ``ln P(+1 | x) − ln P(−1 | x)``: a shared model's line, as LDA's."""
        X = check_X(X, n_features=2, estimator="GaussianModel")
        if self.shared:
            return X @ self.coef_[0] + self.intercept_[0]
        s = self.class_scores(X)
        return s[:, 1] - s[:, 0]

    def predict(self, X) -> np.ndarray:
        """The class of larger posterior, −1 or +1, shape ``(n,)``."""
        return np.where(self.decision_function(X) > 0, 1, -1)

    def predict_proba(self, X) -> np.ndarray:
        """``1 − σ(f), σ(f)`` of the log-odds ``f``, shape ``(n, 2)``."""
        p = expit(self.decision_function(X))
        return np.column_stack([1.0 - p, p])

    # -- sampling ------------------------------------------------------------------------
    def class_counts(self, n: int) -> tuple[int, int]:
        """How many of ``n`` samples each class gets: ``n_+ = ⌊n π_+ + ½⌋``, ``n_- = n − n_+``."""
        n_pos = int(math.floor(n * float(self.priors[1]) + 0.5))
        return n - n_pos, n_pos

    def sample(self, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
        """``X, y``: ``n`` points ``μ_k + R(θ_k) (s_k ⊙ z)``, shuffled by ``seed``."""
        n = check_integer(n, "the number of points must be an integer of at least 2", 2)
        rng = np.random.default_rng(check_integer(seed, "the seed must be a non-negative integer"))
        counts = self.class_counts(n)
        y = np.repeat(np.array([-1, 1]), counts)
        Z = rng.standard_normal((n, 2))
        X = np.empty_like(Z)
        start = 0
        for k, count in enumerate(counts):
            rows = slice(start, start + count)
            X[rows] = self.means[k] + (Z[rows] * self.scales[k]) @ _rotation(self.angles[k]).T
            start += count
        order = rng.permutation(n)
        return X[order], y[order]

    # -- the handles ---------------------------------------------------------------------
    def axes(self, k: int) -> np.ndarray:
        """Class ``k``'s two axis directions ``u_k1, u_k2`` (unit rows), shape ``(2, 2)``."""
        return _rotation(float(self.angles[k])).T

    def handles(self) -> np.ndarray:
        """The six handles, shape ``(6, 2)``: per class :data:`HANDLE_ROLES`."""
        rows = []
        for k in range(2):
            u = self.axes(k)
            rows += [self.means[k], self.means[k] + N_STD * self.scales[k, 0] * u[0],
                     self.means[k] + N_STD * self.scales[k, 1] * u[1]]
        return np.array(rows)

    def ellipse(self, k: int, n_points: int = 100) -> np.ndarray:
        """Class ``k``'s 2σ ellipse as a closed polyline, shape ``(n_points, 2)``."""
        t = np.linspace(0.0, 2.0 * np.pi, n_points)
        circle = np.column_stack([np.cos(t), np.sin(t)]) * (N_STD * self.scales[k])
        return self.means[k] + circle @ self.axes(k)

    def _replace(self, **changes) -> GaussianModel:
        args = {"means": self.means, "angles": self.angles, "scales": self.scales,
                "priors": self.priors, "shared": self.shared, "diagonal": self.diagonal}
        args.update(changes)
        if "angles" not in changes and "scales" not in changes:
            args["covariances"] = self.covariances  # the exact ones stay
        return GaussianModel(**args)

    def move_handle(self, index: int, xy) -> GaussianModel:
        """The model with handle ``index`` (0–5, :meth:`handles`) moved to ``xy``.

        An axis end sets that axis's direction and half-length, the other axis
        perpendicular (diagonal: one coordinate sets one deviation; shared: both
        classes); dropped on its mean it changes nothing.
        """
        k, role = divmod(int(index), 3)
        if not 0 <= k < 2:
            raise ValueError(f"a handle index is 0 to 5; got {index!r}")
        xy = np.asarray(xy, dtype=np.float64)
        if xy.shape != (2,) or not np.isfinite(xy).all():
            raise ValueError(f"a handle moves to a finite (x, y); got {xy!r}")
        if role == 0:
            means = self.means.copy()
            means[k] = xy
            return self._replace(means=means)
        j = role - 1
        d = xy - self.means[k]
        if self.diagonal:
            length = abs(float(d[j]))
            theta = 0.0
        else:
            length = float(np.hypot(*d))
            theta = math.atan2(d[1], d[0]) - j * math.pi / 2
        if not length > 0:
            return self
        scales, angles = self.scales.copy(), self.angles.copy()
        for c in ((0, 1) if self.shared else (k,)):
            scales[c, j] = length / N_STD
            angles[c] = theta
        return self._replace(scales=scales, angles=angles)

    def with_prior(self, p_pos: float) -> GaussianModel:
        """The model with ``π_+ = p_pos`` and ``π_- = 1 − p_pos``."""
        p = float(p_pos)
        return self._replace(priors=np.array([1.0 - p, p]))
