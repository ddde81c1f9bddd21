"""The run engine: a cursor over a deterministic run, the step API of every iterative learner.

The run is computed lazily at its *frontier* and stored as its log, so stepping
back, seeking and replaying cost little, and ``fit`` and any sequence of
``step`` calls give bit-identical results: they are the same computation.
"""

from __future__ import annotations

import numbers
import time
from collections import OrderedDict

import numpy as np

from ..values import readonly
from . import ties
from ._base import BaseLearner, check_X, encode_labels
from ._log import UpdateLog
from ._run import History, StepEvent, check_start
from .params import check_all


def affine(cols, w: np.ndarray, b: float):
    """``((cols[0] w_0 + cols[1] w_1) + ...) + b``: the run's rounding order, inf and NaN kept."""
    with np.errstate(over="ignore", invalid="ignore"):
        z = cols[0] * w[0]
        for j in range(1, len(cols)):
            z += cols[j] * w[j]
        z += b
    return z


class RunEngine(BaseLearner):
    """A cursor over a deterministic run: the :class:`~.stepper.Stepper` API.

    A subclass provides the *frontier*: ``_setup_state`` makes the run's state
    and log, ``_compute`` extends the run, the log's replay recomputes a stretch.
    A method of the protocol without a docstring here does what the protocol's says.
    """

    #: The rule for a point on the boundary (:mod:`.ties`) without a ``tie`` parameter.
    tie = ties.DEFAULT_TIE

    #: Whether the run follows ``tie="positive"`` (``sign(0) = +1``); set by :meth:`start`.
    _positive = False

    #: The parameters' specs (:mod:`.params`), checked by :meth:`validate_params`.
    PARAMS: tuple = ()

    def validate_params(self) -> None:
        """Raise ValueError naming the first invalid parameter value; change nothing."""
        check_all(self.PARAMS, self)
        self._validate_common()

    # -- parameters ---------------------------------------------------------------
    def _validate_common(self) -> None:
        """What :mod:`.params` leaves: a ``random_state`` not a number is a numpy generator."""
        rs = self.random_state
        # numbers first: numpy.random is imported on first use of np.random (launch needs none)
        if rs is not None and not isinstance(rs, numbers.Integral) and not isinstance(
            rs, (np.random.Generator, np.random.RandomState)
        ):
            raise ValueError(
                f"random_state must be None, an integer or a numpy random generator, got {rs!r}"
            )

    def _learning_rate(self) -> float:
        return 1.0

    #: The orders drawn from ``random_state`` (the others ignore it).
    _SEEDED_ORDERS = ("random",)

    def _resolve_seed(self) -> int | None:
        if self.order not in self._SEEDED_ORDERS:
            return None
        rs = self.random_state
        if rs is None:
            return int(np.random.SeedSequence().entropy % 2**63)
        if isinstance(rs, np.random.Generator):
            return int(rs.integers(2**63))
        return int(rs.randint(2**31)) if isinstance(rs, np.random.RandomState) else int(rs)

    # -- pickling ---------------------------------------------------------------------
    #: Attributes that are caches, rebuilt on demand: not pickled.
    _CACHES = ("_orders", "_rows")

    def __getstate__(self) -> dict:
        """Pickle the learner and its run, without its caches (orders, kernel rows, columns)."""
        state = self.__dict__.copy()
        for name in self._CACHES:
            if name in state:
                state[name] = OrderedDict()
        for name in ("_cols", "_lists", "_last_event"):
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        if "_X" in state:
            self._cols = [np.ascontiguousarray(self._X[:, j]) for j in range(self._X.shape[1])]

    # -- the step API ---------------------------------------------------------------
    def start(self, X, y, coef_init=None, intercept_init=None) -> RunEngine:
        self.validate_params()
        X = check_X(X)
        classes, signs = self._labels(y, X.shape[0])
        n, d = X.shape
        w0, b0 = check_start(coef_init, intercept_init, d, self.fit_intercept)
        self._check_start(w0, b0)
        self.classes_ = classes
        self.n_features_in_ = d
        self._X = X
        self._s = signs
        self._n = n
        self._w0, self._b0 = w0, b0
        self._eta = self._learning_rate()
        self._positive = self.tie == "positive"
        self._c2 = float(self.bias_scale) ** 2 if self.fit_intercept else 0.0
        self._seed = self._resolve_seed()
        self._orders: OrderedDict[int, tuple] = OrderedDict()
        self._cols = [np.ascontiguousarray(X[:, j]) for j in range(d)]
        self._t = 0  # cursor: steps taken
        self._T = 0  # frontier: steps computed
        self._end: int | None = None  # step at which the run ends, once known
        self._end_converged = False
        self._diverged_at: int | None = None  # step at which the arithmetic failed
        self._diverged_why: str | None = None
        self._setup_state()
        self._sync()
        return self

    def _labels(self, y, n: int) -> tuple[np.ndarray, np.ndarray]:
        """``(classes_, what the run keeps of y)``: here the two labels and the signs ±1."""
        return encode_labels(y, n)

    def _check_start(self, w0: np.ndarray, b0: float) -> None:
        """Raise ValueError when this learner cannot start from ``w0, b0`` (any can here)."""

    @property
    def start_weights(self) -> tuple[np.ndarray, float]:
        """``(w0, b0)``: where the run starts (``w0`` a read-only copy; zeros by default)."""
        if "_X" not in self.__dict__:
            self._require_started()
        w0 = self.__dict__.get("_w0")
        w0 = np.zeros(self.n_features_in_) if w0 is None else w0.copy()
        return readonly(w0), float(self.__dict__.get("_b0", 0.0))

    def fit(self, X, y, coef_init=None, intercept_init=None) -> RunEngine:
        """:meth:`start`, then run to an epoch without an update, or ``max_iter`` epochs."""
        self.start(X, y, coef_init, intercept_init)
        self.run_to_end()
        return self

    @property
    def started(self) -> bool:
        """True once :meth:`start` or :meth:`fit` has been called."""
        return hasattr(self, "_log")

    @property
    def finished(self) -> bool:
        return self.started and self._end is not None and self._t == self._end

    @property
    def step_count(self) -> int:
        return self._t if self.started else 0

    @property
    def frontier(self) -> int:
        return self._T if self.started else 0

    @property
    def end_step(self) -> int | None:
        return self._end if self.started else None

    @property
    def update_log(self) -> UpdateLog:
        self._require_started()
        return self._log

    @property
    def training_X(self) -> np.ndarray:
        self._require_started()
        return self._X

    @property
    def training_signs(self) -> np.ndarray:
        self._require_started()
        return self._s

    @property
    def history(self) -> History:
        self._require_started()
        return History(self, self._t)

    def step(self) -> StepEvent | None:
        if self._over():
            return None
        before = self._t
        event = self._move_to(before + 1)
        return event if self._t > before else None

    def step_update(self) -> StepEvent | None:
        if self._over():
            return None
        k = self._log.count_before(self._t)
        while k >= len(self._log) and self._end is None:
            self._compute(until_update=True)
        target = self._log.step_of(k) if k < len(self._log) else self._end
        return self._move_to(target)

    def step_epoch(self) -> StepEvent | None:
        """Advance to the end of the current epoch (a whole epoch from an epoch boundary)."""
        if self._over():
            return None
        return self._move_to((self._t // self._epoch_steps + 1) * self._epoch_steps)

    def run_to_end(self) -> StepEvent | None:
        self._require_started()
        while self._end is None:
            self._compute()
        return self._move_to(self._end)

    def advance(self, max_steps: int, deadline: float | None = None) -> int:
        """Advance at most ``max_steps`` steps; the ``deadline`` is checked between updates."""
        self._require_started()
        before = self._t
        self._move_to(self._t + max(0, int(max_steps)), deadline)
        return self._t - before

    def compute(self, max_steps: int, deadline: float | None = None) -> int:
        self._require_started()
        before = self._T
        if max_steps > 0:
            self._compute(max_steps=int(max_steps), deadline=deadline)
        return self._T - before

    def step_back(self) -> StepEvent | None:
        self._require_started()
        if self._t == 0:
            return None
        ev = self._event(self._t)
        self._t -= 1
        self._sync()
        return ev

    def seek(self, step: int) -> StepEvent | None:
        self._require_started()
        return self._move_to(max(0, int(step)))

    def event(self, step: int) -> StepEvent:
        self._require_started()
        if not 1 <= step <= self._T:
            raise IndexError(f"step {step} has not been computed (frontier {self._T})")
        return self._event(step)

    def _move_to(self, target: int, deadline: float | None = None) -> StepEvent | None:
        if self._end is not None:
            target = min(target, self._end)
        while self._T < target and (self._end is None or self._T < self._end):
            self._compute(max_steps=target - self._T, deadline=deadline)
            if deadline is not None and self._T > self._t and time.perf_counter() >= deadline:
                break
        self._t = min(target, self._T)
        self._sync()  # also when the cursor stays: the run may have ended there
        return self._event(self._t) if self._t > 0 else None

    def _over(self) -> bool:
        """Whether the cursor stands at the end of the run (ValueError before :meth:`start`)."""
        self._require_started()
        return self._end is not None and self._t >= self._end

    def _require_started(self) -> None:
        if not self.started:
            raise ValueError(
                f"This {type(self).__name__} has no run: call start(X, y) or fit(X, y) first."
            )

    # -- state at the cursor ----------------------------------------------------------
    def epoch_mistakes(self, epoch: int) -> int:
        self._require_started()
        per = self._epoch_steps
        lo = min(epoch * per, self._t)
        hi = min((epoch + 1) * per, self._t)
        return self._log.count_before(hi) - self._log.count_before(lo)

    def mistakes_per_epoch(self) -> np.ndarray:
        self._require_started()
        n_ep = -(-self._t // self._epoch_steps)
        counts = self._log.epoch_counts(n_ep)
        if n_ep and self._t % self._epoch_steps:
            counts[-1] = self.epoch_mistakes(n_ep - 1)
        return counts

    def training_margins(self) -> np.ndarray:
        self._require_started()
        k = self._log.count_before(self._t)
        z = affine(self._cols, *self._log.state_after(k))  # inf or NaN as the run saw them
        z *= self._s
        return z

    def _sync(self) -> None:
        """Publish the cursor state as scikit-learn-style learned attributes."""
        k = self._log.count_before(self._t)
        w, b = self._log.state_after(k)
        if w is not None:
            self.coef_ = w.reshape(1, -1)
        self.intercept_ = np.array([b])
        self.n_updates_ = k
        self.n_epochs_ = -(-self._t // self._epoch_steps)
        self.n_iter_ = self.n_epochs_
        self.converged_ = bool(
            self._end is not None and self._t == self._end and self._end_converged
        )
        self.diverged_ = bool(self._diverged_at is not None and self._t >= self._diverged_at)
        self.diverged_reason_ = self._diverged_why if self.diverged_ else None
        self._sync_extra(k)

    def _sync_extra(self, k: int) -> None:
        pass

    # -- events -----------------------------------------------------------------------
    def _order(self, epoch: int) -> np.ndarray | None:
        """Visiting order of ``epoch``: None for cyclic order, else a permutation."""
        if self._seed is None:
            return None
        hit = self._orders.get(epoch)
        if hit is None:
            perm = self._draw_order(np.random.default_rng([self._seed, epoch]))
            hit = (perm, None)
            self._orders[epoch] = hit
            while len(self._orders) > 3:
                self._orders.popitem(last=False)
        else:
            self._orders.move_to_end(epoch)
        return hit[0]

    def _draw_order(self, rng: np.random.Generator) -> np.ndarray:
        """The samples an epoch visits, drawn from the epoch's ``rng``: a permutation here."""
        return rng.permutation(self._n)

    @property
    def _epoch_steps(self) -> int:
        """Steps in an epoch: one a sample here (a batch learner's step is a whole pass)."""
        return self._n

    def _examined(self, step: int) -> tuple[int, int, int]:
        """``(epoch, position, index)`` of the sample step ``step`` examines (1-based)."""
        epoch, pos = divmod(step - 1, self._n)
        perm = self._order(epoch)
        return epoch, pos, pos if perm is None else int(perm[pos])

    def _moved(self, recorded: bool, w_before, b_before: float, w_after, b_after: float) -> bool:
        """Whether a step updated the weights: here, whether the log recorded it (a mistake)."""
        return recorded

    def _event(self, step: int) -> StepEvent:
        memo = self.__dict__.get("_last_event")
        if memo is not None and memo[0] == step and memo[1] is self._log:
            return memo[2]  # a computed step's event never changes while its log lives
        epoch, pos, idx = self._examined(step)
        kb = self._log.count_before(step - 1)
        row = self._log.rows(kb, kb + 1)
        recorded = row.step.size == 1 and int(row.step[0]) == step
        if recorded:
            margin = float(row.margin[0])
            ka = kb + 1
        else:
            margin = self._margin_at(idx, kb)
            ka = kb
        (w_before, b_before), (w_after, b_after) = map(self._log.state_after, (kb, ka))
        for w in (w_before, w_after):
            if w is not None:
                w.flags.writeable = False
        mistake = bool(self._moved(recorded, w_before, b_before, w_after, b_after))
        ev = StepEvent(step=step, epoch=epoch, position=pos, index=idx,
                       label=int(self._s[idx]) if idx >= 0 else 0, margin=margin,
                       mistake=mistake, k=ka, w_before=w_before, b_before=b_before,
                       w_after=w_after, b_after=b_after)
        self._last_event = (step, self._log, ev)
        return ev

    def _any_nan_margin(self, w: np.ndarray, b: float) -> bool:
        """Whether some sample's margin under ``w, b`` is NaN (``inf - inf``)."""
        return bool(np.isnan(affine(self._cols, w, b)).any())

    def _margin_at(self, idx: int, k: int) -> float:
        """Functional margin of sample ``idx`` after ``k`` updates (exact formula)."""
        return float(self._s[idx] * affine(self._X[idx], *self._log.state_after(k)))

    # -- the frontier (each kind of run its own) ----------------------------------------
    def _setup_state(self) -> None:
        """Make the run's state at step 0 and its log (``self._log``)."""
        raise NotImplementedError

    def _compute(self, max_steps: int | None = None, until_update: bool = False,
                 deadline: float | None = None) -> None:
        """Extend the computed run from the frontier (see :meth:`PerceptronEngine._compute`)."""
        raise NotImplementedError

    def _diverge(self, T: int, why: str) -> None:
        """End the run at step ``T``: its arithmetic left float64 (``why`` says how)."""
        self._end, self._end_converged, self._diverged_at = T, False, T
        self._diverged_why = why

    def decision_function(self, X) -> np.ndarray:
        """Signed decision values ``w·x + b`` of shape (n_samples,); > 0 is ``classes_[1]``."""
        X = self._fitted_X(X)
        return affine(X.T, self.coef_[0], self.intercept_[0])

    def predict(self, X) -> np.ndarray:
        """``classes_[1]`` where the decision value is > 0 (``tie="positive"``: >= 0)."""
        scores = self.decision_function(X)
        return self.classes_[ties.predicts_positive(scores, self._positive).astype(int)]

