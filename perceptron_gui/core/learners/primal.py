"""The perceptron in its primal form: ``w`` and ``b`` updated on every mistake.

It also runs stochastic and batch gradient descent with the hinge and logistic
losses (``loss``, ``order``), on the perceptron's engine or the gradient one.
"""

from __future__ import annotations

import numpy as np

from .engine import affine
from .gradient import GradientEngine
from .losses import PERCEPTRON, TRAINABLE, expit, loss_for
from .params import PRIMAL
from .perceptron_engine import PerceptronEngine
from .ties import mistakes


class PrimalPerceptron(PerceptronEngine, GradientEngine):
    r"""The perceptron in its primal form, with a step-by-step API.

    From :math:`w = 0, b = 0` it visits the samples in turn; sample :math:`i`
    is a *mistake* when :math:`y_i (w \cdot x_i + b) \le 0` (``tie="positive"``:
    :math:`y_i \hat y_i < 0` with :math:`\operatorname{sign}(0) = +1`), and
    updates :math:`w \leftarrow w + \eta\, y_i x_i`, :math:`b \leftarrow b + \eta\, y_i c^2`,
    until an epoch without a mistake: stochastic gradient descent on the
    perceptron loss, whose ``loss`` and ``order`` may change.

    Parameters
    ----------
    fit_intercept, bias_scale : bool, float, default=True, 1.0
        Learn a bias: the weight :math:`w_0` of a constant feature :math:`c > 0`,
        so :math:`b = c\,w_0` moves by :math:`\eta y c^2`; ``c`` changes the run
        (and Novikoff's :math:`R`), not just its scale.
    eta0 : float, default=1.0
        :math:`\eta > 0`.  From :math:`w = 0` it only scales the perceptron's ``w`` and ``b``.
    loss : str, default="perceptron"
        The name of a loss of :data:`~.losses.TRAINABLE`: the loss of :math:`z = y (w \cdot x + b)`
        whose gradient a step follows (scikit-learn's ``SGDClassifier(loss=...)``).
    tie : {"mistake", "positive"}, default="mistake"
        A point on the boundary is a mistake whatever its class (seeds 001
        and 003, scikit-learn), or of class +1 (seeds 002 and 004): see
        :mod:`.ties`.  The perceptron loss only; ``predict`` follows it.
    order : {"cyclic", "random", "uniform", "batch"}, default="cyclic"
        Index order every epoch; a fresh permutation per epoch; ``n`` uniform
        draws with replacement per epoch (the course's SGD); or batch descent,
        a step a pass, :math:`w \leftarrow w + \eta \sum_{i: z_i \le 0} y_i x_i`.
    random_state : int, numpy Generator or None, default=None
        Epoch ``e`` draws from ``np.random.default_rng([seed, e])``, so a run
        is reproducible and can be rewound.
    max_iter : int, default=1000
        Give up after this many epochs (``converged_ = False``).

    Attributes
    ----------
    coef_, intercept_, classes_ : ndarray of shape (1, n_features), (1,) and (2,)
        :math:`w` and :math:`b` at the cursor; ``classes_[1]`` is the positive class.
    n_updates_ : int
        The steps whose :math:`\ell'(p, y)` is not 0: the mistakes (perceptron
        loss), :math:`z \le 1` (hinge), every step (logistic loss, and batch
        descent, whose last clean pass counts too).  scikit-learn's ``t_`` is
        ``step_count + 1``.
    n_epochs_ : int
        Epochs begun (after ``fit``: including the final clean epoch).
    converged_ : bool
        The run ended with an epoch that moved nothing (uniform draws: and no
        sample would).  The logistic loss stops at ``max_iter``.
    diverged_, diverged_reason_ : bool, str or None
        The arithmetic left float64: ``"weights overflowed"`` or ``"margin not
        a number"`` (``inf - inf``, neither a mistake nor a correct sample).
    history : History
        The :class:`StepEvent` of every step up to the cursor.

    Notes
    -----
    The perceptron and hinge losses in any order but ``"batch"`` run on
    :class:`~.perceptron_engine.PerceptronEngine` (its log keeps the updates,
    so Novikoff's bound is about ``n_updates_``), in order ``"cyclic"``
    bit-identical to scikit-learn's ``Perceptron`` (hinge: ``SGDClassifier``).
    The logistic loss and batch descent run on :class:`~.gradient.GradientEngine`;
    in order ``"cyclic"`` it equals ``SGDClassifier(loss=loss, penalty=None,
    learning_rate="constant", eta0=eta0, shuffle=False, tol=None)``
    (``bias_scale=1``).  On separable data there are at most :math:`(R/\gamma)^2`
    updates (:func:`perceptron_gui.core.theory.novikoff`).

    References
    ----------
    F. Rosenblatt, "The perceptron: a probabilistic model for information storage
    and organization in the brain", Psychological Review 65 (1958).
    A. B. J. Novikoff, "On convergence proofs on perceptrons", Symposium on the
    Mathematical Theory of Automata (1962).
    """

    PARAMS = PRIMAL

    def __init__(self, *, fit_intercept=True, bias_scale=1.0, eta0=1.0, loss=PERCEPTRON.name,
                 tie="mistake", order="cyclic", random_state=None, max_iter=1000):
        self._store(locals())

    @property
    def on_gradient_engine(self) -> bool:
        """Whether the run is the gradient engine's (every step a row), not the perceptron's."""
        kind = self.__dict__.get("_kind")
        if kind is not None:
            return kind != "sparse"
        return _kind(self.loss, self.order) != "sparse"

    # -- the two engines: the run's kind is fixed at start ----------------------------
    _SEEDED_ORDERS = ("random", "uniform")

    @property
    def update_threshold(self) -> float:
        """The margin at or below which a step updates: :attr:`.Loss.threshold`."""
        return loss_for(self.loss).threshold

    @property
    def batch(self) -> bool:
        """True for batch gradient descent (``order="batch"``): a step is a pass."""
        return self.__dict__.get("_kind") == "batch"

    @property
    def loss_code(self) -> int | None:
        """The loss as the compiled loop knows it (:attr:`.Loss.code`)."""
        return self.__dict__.get("_loss_id")

    def _setup_state(self) -> None:
        self._kind = _kind(self.loss, self.order)
        self._uniform = self.order == "uniform"
        self._loss_id = loss_for(self.loss).code
        super(self._past(), self)._setup_state()

    def _past(self) -> type:
        """The class whose ``super()`` is this run's engine (the next one in the MRO)."""
        return PerceptronEngine if self._kind != "sparse" else PrimalPerceptron

    def _compute(self, max_steps=None, until_update=False, deadline=None) -> None:
        super(self._past(), self)._compute(max_steps, until_update, deadline)

    def _close_epoch(self, epoch: int, T: int, *wb) -> None:
        if (self._kind == "sparse" and self._uniform and self._log.epoch_count(epoch) == 0
                and not self._fixed_point(*wb)):
            # n draws without a mistake, but some sample never drawn is one: go on
            if epoch + 1 >= self.max_iter:
                self._end, self._end_converged = T, False
            return
        super(self._past(), self)._close_epoch(epoch, T, *wb)

    def _moved(self, recorded, w_before, b_before, w_after, b_after) -> bool:
        # the perceptron's engine keeps RunEngine's (a recorded mistake): skip the
        # gradient engine's (w or b changed), which comes first in the MRO
        past = PerceptronEngine if self._kind != "sparse" else GradientEngine
        return super(past, self)._moved(recorded, w_before, b_before, w_after, b_after)

    def _draw_order(self, rng: np.random.Generator) -> np.ndarray:
        return rng.integers(self._n, size=self._n) if self._uniform else rng.permutation(self._n)

    def dloss(self, p: float, y: float) -> float:
        """``∂ℓ/∂p`` at ``p = w·x + b``, label ``y`` (±1), as scikit-learn computes it."""
        loss = TRAINABLE[self._loss_id]
        if self._positive and loss.ties:
            return -y if p * y < 0.0 or (p * y == 0.0 and y < 0.0) else 0.0
        return loss.dloss(p, y)

    def batch_gradient(self, X, s, p):
        """``g_w = Σ_i ℓ'(p_i, y_i) x_i`` (pairwise sums), ``g_p = Σ_i ℓ'``, and the terms ≠ 0."""
        g = dloss_array(self._loss_id, p, s, self._positive)
        gw = np.array([float((c * g).sum()) for c in self._cols])
        return gw, float(g.sum()), int(np.count_nonzero(g))

    def _fixed_point(self, w: np.ndarray, b: float) -> bool:
        if not self._uniform:
            return True
        p = affine(self._cols, w, b)
        return not np.any(dloss_array(self._loss_id, p, self._s, self._positive))

    def step_terms(self, step: int) -> tuple[np.ndarray, np.ndarray]:
        """The samples step ``step`` (1-based) summed, increasing, and their ``ℓ'`` ≠ 0 before it.

        So ``w_after = w_before − η Σ ℓ'_i x_i``, ``b_after = b_before − η c² Σ ℓ'_i``
        (the run sums the zeros too: a sum recomputed from these may differ in
        its last bit; the event's weights are the run's).
        """
        ev = self.event(step)
        w, b = ev.w_before, ev.b_before
        idx = np.arange(self._n) if ev.index < 0 else np.array([ev.index])
        p = affine(self._X[idx].T, w, b)
        g = dloss_array(self._loss_id, p, self._s[idx], self._positive)
        keep = g != 0
        return idx[keep], g[keep]

    @property
    def predict_proba(self):
        """``[1 − σ(f), σ(f)]``; AttributeError for a loss without probabilities."""
        if not loss_for(self.loss).probabilities:
            raise AttributeError(f"probability estimates are not available for "
                                 f"loss={self.loss!r}")
        return self._predict_proba

    def _predict_proba(self, X) -> np.ndarray:
        prob = expit(self.decision_function(X))
        return np.column_stack([1.0 - prob, prob])

    @property
    def predict_log_proba(self):
        """``log`` of :meth:`predict_proba` (only for a loss with probabilities)."""
        proba = self.predict_proba  # AttributeError for another loss
        return lambda X: np.log(proba(X))


def _kind(loss: str, order: str) -> str:
    """The run: ``"sparse"`` (the perceptron's engine), ``"batch"`` or ``"sgd"`` (gradient's)."""
    if order == "batch":
        return "batch"
    return "sparse" if loss_for(loss).kink is not None else "sgd"


def dloss_array(loss_id: int, p: np.ndarray, s: np.ndarray, positive: bool = False
                ) -> np.ndarray:
    """:meth:`PrimalPerceptron.dloss` of every sample (``positive``: ``tie="positive"``)."""
    loss = TRAINABLE[loss_id]
    if positive and loss.ties:
        with np.errstate(over="ignore", invalid="ignore"):
            return np.where(mistakes(p * s, s, True), -s, 0.0)
    return loss.dloss_array(p, s)
