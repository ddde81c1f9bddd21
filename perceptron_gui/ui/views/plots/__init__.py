"""Live plots of a perceptron run: updates against the bound, the proof, mistakes per epoch.

Three small pyqtgraph plots, stacked, one file each:

1. :mod:`.bound` (``plotBound``): the number of updates ``k`` against the step
   number, with Novikoff's bound ``(R/γ)²`` as a ceiling line;
2. :mod:`.proof` (``plotProof``): the two inequalities of Novikoff's proof
   along the run, ``w_k·w* ≥ kηγ`` and ``‖w_k‖² ≤ kη²R²``;
3. :mod:`.mistakes` (``plotMistakes``): updates made in each epoch, as bars;

:mod:`.live` holds them: :class:`LivePlots`, the view named "plots" (lazy
build, refresh in turn, each plot reached as ``part(name)``), :mod:`.axes` writes
tick labels that read well at every range, :mod:`.items` has the pieces they
share.
"""

from ....core.text import fmt
from ...widgets.axes import ReadableAxis, log_ticks
from .bound import NOT_SEPARABLE
from .live import NO_RUN_MESSAGE, PREBUILD_MS, REFRESH_MS, LivePlots
from .proof import PROOF_KERNEL, PROOF_NOT_SEPARABLE

__all__ = ["LivePlots", "NOT_SEPARABLE", "NO_RUN_MESSAGE", "PREBUILD_MS", "PROOF_KERNEL",
           "PROOF_NOT_SEPARABLE", "REFRESH_MS", "ReadableAxis", "fmt", "log_ticks"]
