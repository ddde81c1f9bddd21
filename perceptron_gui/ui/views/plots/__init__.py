"""Live plots of a perceptron run: updates against the bound, the proof, mistakes per epoch."""

from ....core.text import fmt
from ...widgets.axes import ReadableAxis, log_ticks
from .bound import NOT_SEPARABLE
from .live import NO_RUN_MESSAGE, PREBUILD_MS, REFRESH_MS, LivePlots
from .proof import PROOF_KERNEL, PROOF_NOT_SEPARABLE

__all__ = ["LivePlots", "NOT_SEPARABLE", "NO_RUN_MESSAGE", "PREBUILD_MS", "PROOF_KERNEL",
           "PROOF_NOT_SEPARABLE", "REFRESH_MS", "ReadableAxis", "fmt", "log_ticks"]
