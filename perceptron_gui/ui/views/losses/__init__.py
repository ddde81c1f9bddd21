"""The loss view: the losses of the margin with every case on them, and the risk over the run."""

from .functions import LOSS_LABELS, LOSS_NAMES, LOSSES, curve, loss_values, risks_of_margins
from .view import DEDUPE_AT, LOSS_COLORS, NO_RUN_MESSAGE, NO_W_MESSAGE, LossView, states_for

__all__ = ["DEDUPE_AT", "LOSSES", "LOSS_COLORS", "LOSS_LABELS", "LOSS_NAMES", "LossView",
           "NO_RUN_MESSAGE", "NO_W_MESSAGE", "curve", "loss_values", "risks_of_margins",
           "states_for"]
