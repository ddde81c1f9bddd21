"""The perceptron in its primal form: ``w`` and ``b`` updated on every mistake.

The same learner runs stochastic and batch gradient descent with the hinge and
the logistic loss (``loss``, ``order``): the perceptron's own engine for the
perceptron loss visited in order or by permutations, the gradient engine for
every other combination.
"""

from __future__ import annotations

import numpy as np

from .engine import affine
from .gradient import GradientEngine
from .losses import PERCEPTRON, TRAINABLE, expit, loss_for
from .params import PRIMAL, check_all
from .perceptron_engine import PerceptronEngine
from .ties import mistakes


class PrimalPerceptron(PerceptronEngine, GradientEngine):
    r"""The perceptron in its primal form, with a step-by-step API.

    Classifies with :math:`h(x) = \operatorname{sign}(w \cdot x + b)`.  Starting
    from :math:`w = 0, b = 0`, it visits the samples in turn; sample :math:`i` is
    a *mistake* when :math:`y_i (w \cdot x_i + b) \le 0` (so from :math:`w = 0`
    every sample is a mistake; with ``tie="positive"``, when
    :math:`y_i \hat y_i < 0` with :math:`\operatorname{sign}(0) = +1`), and a
    mistake updates

    .. math::  w \leftarrow w + \eta\, y_i x_i, \qquad b \leftarrow b + \eta\, y_i c^2.

    It stops after the first epoch without a mistake.  That is stochastic
    gradient descent on the perceptron loss; ``loss`` and ``order`` choose
    another loss (hinge, logistic) and another order (uniform draws, or batch
    gradient descent).

    Parameters
    ----------
    fit_intercept : bool, default=True
        Learn a bias.  The bias is the weight :math:`w_0` of an extra constant
        feature :math:`x_0 = c` (``bias_scale``), so :math:`b = c\,w_0` and the
        update of :math:`w_0` by :math:`\eta y c` moves :math:`b` by
        :math:`\eta y c^2`.  ``coef_`` and ``intercept_`` are reported in input
        coordinates.  Without it the boundary passes through the origin.
    bias_scale : float, default=1.0
        The value :math:`c > 0` of the constant feature.  It changes the run
        (and the Novikoff radius :math:`R`), not just its scale.
    eta0 : float, default=1.0
        :math:`\eta > 0`.  From :math:`w = 0` it only scales ``w`` and ``b``;
        the sequence of mistakes does not depend on it.
    loss : {"perceptron", "hinge", "log_loss"}, default="perceptron"
        The loss :math:`\ell(z)` of the functional margin
        :math:`z = y (w \cdot x + b)` whose gradient a step follows,
        :math:`w \leftarrow w - \eta\, \partial \ell / \partial w`,
        :math:`b \leftarrow b - \eta c^2\, \partial \ell / \partial w_0`
        (scikit-learn's names and updates, ``SGDClassifier(loss=...)``):
        ``"perceptron"`` :math:`\max(0, -z)`, an update when :math:`z \le 0`;
        ``"hinge"`` :math:`\max(0, 1 - z)`, an update when :math:`z \le 1`
        (the subgradient at 1 is scikit-learn's);
        ``"log_loss"`` :math:`\log(1 + e^{-z})`, every sample, the update
        :math:`\eta\, \sigma(-z)\, y x`.
    tie : {"mistake", "positive"}, default="mistake"
        A point exactly on the boundary, :math:`w \cdot x + b = 0`, is
        ``"mistake"``: a mistake whatever its class (:math:`y f(x) \le 0`,
        seeds 001 and 003, scikit-learn); or ``"positive"``: of class +1
        (:math:`\operatorname{sign}(0) = +1` and a mistake is
        :math:`y \hat y < 0`, seeds 002 and 004), so a +1 point there is right
        and a −1 point a mistake (:mod:`.ties`).  It applies to the perceptron
        loss (in every order, batch too): the hinge and logistic losses follow
        their margins.  ``predict`` gives +1 at 0 under ``"positive"``.
    order : {"cyclic", "random", "uniform", "batch"}, default="cyclic"
        Visit the samples in index order every epoch (the textbook algorithm),
        in a fresh random permutation per epoch drawn from ``random_state``,
        or draw one sample uniformly with replacement at each step (``n``
        draws an epoch: stochastic gradient descent as the course states it).
        ``"batch"`` is gradient descent: one step is one pass, the gradient
        summed over every sample, :math:`w \leftarrow w + \eta \sum_{i:
        z_i \le 0} y_i x_i` for the perceptron loss.
    random_state : int, numpy Generator or None, default=None
        Seed for ``order="random"`` and ``"uniform"``: the order of epoch
        ``e`` is ``rng.permutation(n)``, resp. ``rng.integers(n, size=n)``,
        with ``rng = np.random.default_rng([seed, e])``, so a run is
        reproducible and can be rewound.
    max_iter : int, default=1000
        Give up after this many epochs (``converged_ = False``).

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features)
        Weights :math:`w` at the cursor (after ``fit``: the final weights).
    intercept_ : ndarray of shape (1,)
        Bias :math:`b` at the cursor.
    classes_ : ndarray of shape (2,)
        The two labels; ``classes_[1]`` is the positive class (+1).
    n_features_in_ : int
        Number of features seen in ``fit``/``start``.
    n_updates_ : int
        Number of updates :math:`k` so far: the steps at which ``w`` or ``b``
        changed, those whose loss derivative :math:`\ell'(p, y)` is not 0.
        The perceptron loss: a sample with :math:`z = y (w·x + b) \le 0` (a
        mistake); the hinge loss: :math:`z \le 1`; the logistic loss: every
        step (its derivative never vanishes).  Batch descent counts every
        pass, the last pass of a converged run, which sums no point and
        moves nothing, included (its dense log keeps a row a pass).
        scikit-learn's ``SGDClassifier.t_`` counts every step (``n_iter_ ·
        n_samples + 1``): ``step_count`` is ``t_ - 1``, ``n_updates_`` at
        most that.
    n_epochs_ : int
        Number of epochs begun (after ``fit``: including the final clean epoch).
    converged_ : bool
        True when the run ended with an epoch without a mistake (hinge: no
        sample with :math:`z \le 1`; batch: a pass without one; uniform: an
        epoch that moved nothing, after which no sample would).  The logistic
        loss moves ``w`` on every sample: it stops at ``max_iter``.
    diverged_ : bool
        True when the run stopped because its arithmetic left float64.
    diverged_reason_ : str or None
        How: ``"weights overflowed"`` (``w`` or ``b`` not finite) or
        ``"margin not a number"`` (``y (w·x + b)`` is ``inf - inf``, neither a
        mistake nor a correct sample).  None unless ``diverged_``.
    history : History
        The :class:`StepEvent` of every step up to the cursor.

    Notes
    -----
    With ``loss="perceptron"`` or ``"hinge"`` in any order but ``"batch"``
    the run is the perceptron's engine (:class:`~.perceptron_engine.PerceptronEngine`:
    its log keeps the updates, the samples with :math:`z` at or below
    :attr:`.Loss.kink`, so Novikoff's bound is about the perceptron's
    ``n_updates_``), with order ``"cyclic"`` bit-identical to scikit-learn's
    ``Perceptron`` (and, for the hinge loss, ``SGDClassifier``).  The
    logistic loss and batch descent run on :class:`~.gradient.GradientEngine`
    (every step is an update and a row of a dense log); with order ``"cyclic"`` it equals
    ``SGDClassifier(loss=loss, penalty=None, learning_rate="constant",
    eta0=eta0, shuffle=False, tol=None)`` (``bias_scale=1``).

    On linearly separable data with :math:`R = \max_i \|z_i\|` and margin
    :math:`\gamma` of the augmented vectors :math:`z_i = (x_i, c)`, the number
    of updates is at most :math:`(R/\gamma)^2` (Novikoff); see
    :func:`perceptron_gui.core.theory.novikoff`.

    References
    ----------
    F. Rosenblatt, "The perceptron: a probabilistic model for information storage
    and organization in the brain", Psychological Review 65 (1958).
    A. B. J. Novikoff, "On convergence proofs on perceptrons", Symposium on the
    Mathematical Theory of Automata (1962).
    """

    def __init__(
        self,
        *,
        fit_intercept=True,
        bias_scale=1.0,
        eta0=1.0,
        loss=PERCEPTRON.name,
        tie="mistake",
        order="cyclic",
        random_state=None,
        max_iter=1000,
    ):
        self.fit_intercept = fit_intercept
        self.bias_scale = bias_scale
        self.eta0 = eta0
        self.loss = loss
        self.tie = tie
        self.order = order
        self.random_state = random_state
        self.max_iter = max_iter

    def validate_params(self) -> None:
        """Raise ValueError naming the first invalid parameter value; change nothing."""
        check_all(PRIMAL, self)
        self._validate_common()

    @property
    def on_gradient_engine(self) -> bool:
        """Whether the parameters run on the gradient engine (every step a row of the log).

        False on the perceptron's engine, whose log keeps the mistakes (so
        ``n_updates_`` is Novikoff's ``k``).  From the run once started.
        """
        kind = self.__dict__.get("_kind")
        if kind is not None:
            return kind != "sparse"
        return _kind(self.loss, self.order) != "sparse"

    # -- the two engines: the run's kind is fixed at start ----------------------------
    _SEEDED_ORDERS = ("random", "uniform")

    @property
    def update_threshold(self) -> float:
        """The functional margin at or below which a step updates (the perceptron's engine).

        0 for the perceptron loss, 1 for the hinge loss (``ℓ' = -y`` exactly
        when ``y (w·x + b) <= 1``); the logistic loss has none (NaN).
        """
        return loss_for(self.loss).threshold

    @property
    def sparse_updates(self) -> bool:
        """True on the perceptron's engine (the log keeps the mistakes), False on the gradient's."""
        return not self.on_gradient_engine

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

    def __setstate__(self, state: dict) -> None:
        # a learner pickled before the loss existed ran the perceptron's engine
        state.setdefault("loss", PERCEPTRON.name)
        if "_X" in state:
            state.setdefault("_kind", "sparse")
            state.setdefault("_uniform", False)
            state.setdefault("_loss_id", 0)
        super().__setstate__(state)

    def _draw_order(self, rng: np.random.Generator) -> np.ndarray:
        if self._uniform:
            return rng.integers(self._n, size=self._n)
        return rng.permutation(self._n)

    # -- the losses -------------------------------------------------------------------
    def dloss(self, p: float, y: float) -> float:
        """Derivative of the loss with respect to ``p = w·x + b`` at label ``y`` (±1).

        scikit-learn's (``Hinge(0)``, ``Hinge(1)``, ``CyHalfBinomialLoss``),
        operation for operation.
        """
        loss = TRAINABLE[self._loss_id]
        if self._positive and loss.ties:
            return -y if p * y < 0.0 or (p * y == 0.0 and y < 0.0) else 0.0
        return loss.dloss(p, y)

    def batch_gradient(self, X, s, p):
        """The gradient of the summed loss over the pass, and how many samples it sums.

        ``g_w = Σ_i ℓ'(p_i, y_i) x_i`` (column by column, numpy's pairwise
        sum), ``g_p = Σ_i ℓ'(p_i, y_i)``; the terms are the samples whose
        derivative is not 0 (the mistakes of the perceptron loss).
        """
        g = dloss_array(self._loss_id, p, s, self._positive)
        gw = np.array([float((c * g).sum()) for c in self._cols])
        return gw, float(g.sum()), int(np.count_nonzero(g))

    def _fixed_point(self, w: np.ndarray, b: float) -> bool:
        if not self._uniform:
            return True
        p = affine(self._cols, w, b)
        return not np.any(dloss_array(self._loss_id, p, self._s, self._positive))

    def step_terms(self, step: int) -> tuple[np.ndarray, np.ndarray]:
        """The samples whose gradient step ``step`` (1-based) added, and each one's ``ℓ'``.

        For a step that examines one sample: that sample, if its derivative
        ``ℓ'(p, y)`` was not 0, else nothing.  For a step of batch gradient
        descent: every sample whose derivative was not 0 (the mistakes of the
        perceptron loss), so the step is
        ``w_after = w_before − η Σ ℓ'_i x_i``, ``b_after = b_before − η c² Σ ℓ'_i``
        (the run sums every sample's term, zeros included: the last bit of a
        sum recomputed from these may differ; the event's weights are the run's).

        Returns
        -------
        index : ndarray of int
            The samples, increasing.
        dloss : ndarray of float
            Their derivatives ``ℓ'(p_i, y_i)`` at the weights before the step.
        """
        ev = self.event(step)
        w, b = ev.w_before, ev.b_before
        idx = np.arange(self._n) if ev.index < 0 else np.array([ev.index])
        p = affine(self._X[idx].T, w, b)
        g = dloss_array(self._loss_id, p, self._s[idx], self._positive)
        keep = g != 0
        return idx[keep], g[keep]

    # -- probabilities ----------------------------------------------------------------
    @property
    def predict_proba(self):
        """Class probabilities ``[P(classes_[0]), P(classes_[1])]`` = ``[1 − σ(f), σ(f)]``.

        Only with ``loss="log_loss"`` (as scikit-learn's ``SGDClassifier``):
        for another loss the attribute does not exist (AttributeError, so
        ``hasattr(learner, "predict_proba")`` is False).
        """
        if not loss_for(self.loss).probabilities:
            raise AttributeError(f"probability estimates are not available for "
                                 f"loss={self.loss!r}")
        return self._predict_proba

    def _predict_proba(self, X) -> np.ndarray:
        prob = expit(self.decision_function(X))
        return np.column_stack([1.0 - prob, prob])

    @property
    def predict_log_proba(self):
        """``log`` of :meth:`predict_proba` (only with ``loss="log_loss"``)."""
        proba = self.predict_proba  # AttributeError for another loss
        return lambda X: np.log(proba(X))

    def _learning_rate(self) -> float:
        return float(self.eta0)


def _kind(loss: str, order: str) -> str:
    """The run: ``"sparse"`` (the perceptron's engine), ``"batch"`` or ``"sgd"`` (gradient's)."""
    if order == "batch":
        return "batch"
    return "sparse" if loss_for(loss).kink is not None else "sgd"


def dloss_array(loss_id: int, p: np.ndarray, s: np.ndarray, positive: bool = False
                ) -> np.ndarray:
    """:meth:`PrimalPerceptron.dloss` of every sample: ``p`` decision values, ``s`` labels ±1.

    ``positive``: the loss under ``tie="positive"`` when the rule applies to it
    (:attr:`.Loss.ties`: a margin of 0 is a mistake only for a −1 sample).
    """
    loss = TRAINABLE[loss_id]
    if positive and loss.ties:
        with np.errstate(over="ignore", invalid="ignore"):
            return np.where(mistakes(p * s, s, True), -s, 0.0)
    return loss.dloss_array(p, s)
