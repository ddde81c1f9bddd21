"""Live plots of a perceptron run: updates against the bound, the proof, mistakes per epoch.

Three small pyqtgraph plots, stacked, one file each: :mod:`.bound`
(``plotBound``, ``k`` under Novikoff's ceiling ``(R/γ)²``), :mod:`.proof`
(``plotProof``, ``w_k·w* ≥ kηγ`` and ``‖w_k‖² ≤ kη²R²``) and :mod:`.mistakes`
(``plotMistakes``, updates per epoch).  :class:`.live.LivePlots`, the view
named "plots", builds them lazily and refreshes them in turn; :mod:`.items`
has the pieces they share.
"""

from ....core.text import fmt
from ...widgets.axes import ReadableAxis, log_ticks
from .bound import NOT_SEPARABLE
from .live import NO_RUN_MESSAGE, PREBUILD_MS, REFRESH_MS, LivePlots
from .proof import PROOF_KERNEL, PROOF_NOT_SEPARABLE

__all__ = ["LivePlots", "NOT_SEPARABLE", "NO_RUN_MESSAGE", "PREBUILD_MS", "PROOF_KERNEL",
           "PROOF_NOT_SEPARABLE", "REFRESH_MS", "ReadableAxis", "fmt", "log_ticks"]
