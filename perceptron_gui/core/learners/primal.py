"""The perceptron in its primal form: ``w`` and ``b`` updated on every mistake."""

from __future__ import annotations

from .engine import PerceptronEngine
from .params import PRIMAL, check_all


class PrimalPerceptron(PerceptronEngine):
    r"""The perceptron in its primal form, with a step-by-step API.

    Classifies with :math:`h(x) = \operatorname{sign}(w \cdot x + b)`.  Starting
    from :math:`w = 0, b = 0`, it visits the samples in turn; sample :math:`i` is
    a *mistake* when :math:`y_i (w \cdot x_i + b) \le 0` (so from :math:`w = 0`
    every sample is a mistake), and a mistake updates

    .. math::  w \leftarrow w + \eta\, y_i x_i, \qquad b \leftarrow b + \eta\, y_i c^2.

    It stops after the first epoch without a mistake.

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
    order : {"cyclic", "random"}, default="cyclic"
        Visit the samples in index order every epoch (the textbook algorithm),
        or in a fresh random permutation per epoch drawn from ``random_state``.
    random_state : int, numpy Generator or None, default=None
        Seed for ``order="random"``; the permutation of epoch ``e`` is
        ``np.random.default_rng([seed, e]).permutation(n)``, so a run is
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
        Number of updates :math:`k` so far.
    n_epochs_ : int
        Number of epochs begun (after ``fit``: including the final clean epoch).
    converged_ : bool
        True when the run ended with an epoch without a mistake.
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
        order="cyclic",
        random_state=None,
        max_iter=1000,
    ):
        self.fit_intercept = fit_intercept
        self.bias_scale = bias_scale
        self.eta0 = eta0
        self.order = order
        self.random_state = random_state
        self.max_iter = max_iter

    def validate_params(self) -> None:
        """Raise ValueError naming the first invalid parameter value; change nothing.

        Called by :meth:`start` and :meth:`fit`; a caller can call it to check a
        set of parameters before using them.  Each value must lie in its range
        (:data:`~perceptron_gui.core.learners.params.PRIMAL`).
        """
        check_all(PRIMAL, self)
        self._validate_common()

    def _learning_rate(self) -> float:
        return float(self.eta0)
