"""Margins, the maximum-margin separator and the Novikoff bound.

A linear classifier ``h(x) = sign(w·x + b)`` has, on a labeled sample
``(x_i, y_i)`` with ``y_i`` in {-1, +1},

- the *functional margin* ``y_i (w·x_i + b)``,
- the *geometric margin* ``y_i (w·x_i + b) / ||w||``, the signed distance of
  ``x_i`` to the hyperplane (positive on the correct side).

The margin of a hyperplane on a data set is the smallest geometric margin; the
margin of a data set is the largest margin over all hyperplanes
(:func:`max_margin`, the hard-margin SVM).

The perceptron with a bias sees the augmented vectors ``z_i = (x_i, c)`` with
``c = bias_scale`` (its bias is ``b = c w_0``).  Novikoff's theorem: if
``||z_i|| <= R`` and a unit vector ``w*`` has ``y_i w*·z_i >= gamma > 0`` for
every ``i``, the perceptron makes at most ``(R / gamma)²`` updates
(:func:`novikoff`).
"""

from .certificate import (
    CERTIFICATE_RTOL,
    KERNEL_MARGIN_MAX_N,
    NONSEPARABLE_RTOL,
    NovikoffResult,
    novikoff,
    novikoff_or_reason,
)
from .hard_margin import SUPPORT_RTOL, MaxMarginResult, max_margin
from .margins import MarginData, functional_margins, geometric_margins, hyperplane_margin
from .proof import PROOF_RTOL, ProofTrace, augmented_start, proof_trace, start_bound

__all__ = ["CERTIFICATE_RTOL", "KERNEL_MARGIN_MAX_N", "NONSEPARABLE_RTOL", "PROOF_RTOL",
           "SUPPORT_RTOL", "MarginData", "MaxMarginResult", "NovikoffResult", "ProofTrace",
           "functional_margins", "geometric_margins", "hyperplane_margin", "max_margin",
           "novikoff", "novikoff_or_reason", "proof_trace", "augmented_start", "start_bound"]
