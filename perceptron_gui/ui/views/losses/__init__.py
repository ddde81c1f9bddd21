"""The loss view: the losses of the margin with every case on them, and the risk over the run."""

from .functions import LOSS_NAMES, loss_values
from .view import NO_W_MESSAGE, LossView

__all__ = ["LOSS_NAMES", "LossView", "NO_W_MESSAGE", "loss_values"]
