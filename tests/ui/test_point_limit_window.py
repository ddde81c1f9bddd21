"""A click that would pass the point limit is refused in the window, with the limit said."""

from __future__ import annotations

import numpy as np

from perceptron_gui.core import dataset
from perceptron_gui.core.dataset import AddPoints, ReplaceAll


def test_a_point_added_past_the_limit_is_refused_with_a_message(window, monkeypatch):
    monkeypatch.setattr(dataset, "MAX_POINTS", 6, raising=False)
    X = np.column_stack([np.arange(6.0), np.arange(6.0) % 4])
    assert window.push_edit(ReplaceAll(X, np.where(np.arange(6) % 2, 1, -1)))
    said = []
    window.errorReported.connect(lambda summary, detail: said.append(summary))
    count = window.undo_stack.count()
    assert not window.push_edit(AddPoints([0.5, 0.5], 1))
    assert window.workspace.dataset.n == 6 and window.undo_stack.count() == count
    assert any("the limit is 6" in text for text in said)
