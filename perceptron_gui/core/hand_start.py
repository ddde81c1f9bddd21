"""The start set by hand: the ``(w0, b0)`` a perceptron's run starts from, and its drag.

A part of :class:`~.workspace.Workspace` (a mixin); setting the start rebuilds
the run from there.
"""

from __future__ import annotations

import numpy as np

from .document import check_start

__all__ = ["HandStart"]


class HandStart:
    """The members of :class:`~.workspace.Workspace` about the start set by hand."""

    @property
    def start(self) -> tuple[np.ndarray, float] | None:
        """The hand-set ``(w0, b0)`` a run starts from, or None (``w = 0, b = 0``).

        Kept across data edits and learner changes; used by the learners that
        can start there (:attr:`starts_by_hand`).
        """
        return self.document.start

    @property
    def starts_by_hand(self) -> bool:
        """True when the learner in use runs from :attr:`start` (its capabilities say it can)."""
        return self.running and self.capabilities.linear and self.capabilities.start

    @property
    def committed_start(self) -> tuple:
        """``(start, step)`` before the previews of a drag: what undoing the drag gives back."""
        return self._preview if self._preview is not None else (self.start, self.step_count)

    def set_start(self, w, b: float = 0.0, *, preview: bool = False) -> None:
        """Set the weights by hand: the run restarts from ``w0 = w, b0 = b`` (None: from 0).

        Without an intercept ``b`` is ignored by the run (kept in the document).
        ``preview``: a position during a drag, which :attr:`committed_start`
        remembers the start before; the drag's last call is without it.
        """
        start = check_start(w, b)
        old = self.document.start
        if preview and self._preview is None:
            self._preview = (old, self.step_count)
        elif not preview:
            self._preview = None
        if _same_start(start, old):
            return
        self.document.start = start
        # Novikoff's R and γ do not depend on the start: kept, not recomputed at every
        # position of a drag (0.45 s at 10⁵ points)
        kept = {key: self.theory.per_model[key] for key in _START_FREE
                if key in self.theory.per_model}
        try:
            self._rebuild()
        except (ValueError, ArithmeticError):
            self.document.start = old
            self._rebuild()
            raise
        self.theory.per_model.update(kept)
        self._remake_switch()  # the requested learner, from the new start
        self.events.learner_changed.emit()


#: What the theory keeps per model that a new start leaves as it is.
_START_FREE = ("capabilities", "novikoff_job", "novikoff")


def _same_start(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return bool(np.array_equal(a[0], b[0]) and a[1] == b[1])
