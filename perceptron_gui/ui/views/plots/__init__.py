"""Live plots of a perceptron run: updates against the bound, the proof, mistakes per epoch."""

from .live import REFRESH_MS, LivePlots
from .proof import PROOF_KERNEL, PROOF_NOT_SEPARABLE

__all__ = ["LivePlots", "PROOF_KERNEL", "PROOF_NOT_SEPARABLE", "REFRESH_MS"]
