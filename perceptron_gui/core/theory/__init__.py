"""Margins, the maximum-margin separator, the Novikoff bound and its proof, weight space.

Labels are -1 and +1; the perceptron with a bias sees the augmented vectors
``z_i = (x_i, c)`` with ``c = bias_scale`` (its bias is ``b = c w_0``).
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
