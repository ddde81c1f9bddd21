"""What one change costs in a real window: the workspace's emissions and the callbacks they reach.

Adding one point is the commonest change; it used to announce itself twice
(``dataset_changed`` then ``learner_changed``, 19 callbacks, and the notice
that the run restarted: 20).  One change now emits one signal, 12 callbacks
in a full window with the live plots as its one view (each view adds its one
coalescing subscription); the budget below keeps it so.
"""

from __future__ import annotations

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import AddPoints, ReplaceAll
from perceptron_gui.core.signal import SignalInstance


def count_emissions(monkeypatch, workspace):
    """Record ``(signal name, number of slots it called)`` for each emission of ``workspace``."""
    names = {id(getattr(workspace.events, name)): name for name in workspace.events}
    heard: list[tuple[str, int]] = []
    emit = SignalInstance.emit

    def counting(signal, *args):
        if id(signal) in names:
            heard.append((names[id(signal)], len(signal)))
        emit(signal, *args)

    monkeypatch.setattr(SignalInstance, "emit", counting)
    return heard


#: The callbacks one data edit may reach in a full window besides the views (12 when
#: measured, the class list's included); each view of the views area adds its one
#: coalescing subscription, and so does the side panel's bound plot (shown while the
#: views are hidden).
WINDOW_BUDGET = 12


def budget(window) -> int:
    """The callbacks one data edit may reach in ``window``: its parts and one per view."""
    return WINDOW_BUDGET + len(window.views.views()) + 1  # the bound strip


def test_adding_one_point_emits_one_signal(window, monkeypatch):
    window.push_edit(ReplaceAll.from_dataset(generators.separable(20, seed=1)))
    heard = count_emissions(monkeypatch, window.workspace)
    assert window.push_edit(AddPoints((0.5, 0.25), 1))
    assert window.workspace.dataset.n == 21
    assert [name for name, _ in heard] == ["dataset_changed"]
    assert 0 < heard[0][1] <= budget(window)


def test_adding_a_point_during_a_run_adds_only_the_notice(window, monkeypatch):
    window.push_edit(ReplaceAll.from_dataset(generators.separable(20, seed=1)))
    window.workspace.run_to_end()  # a run with progress: the edit restarts it
    heard = count_emissions(monkeypatch, window.workspace)
    assert window.push_edit(AddPoints((0.5, 0.25), 1))
    assert window.workspace.step_count == 0
    assert [name for name, _ in heard] == ["dataset_changed", "message"]
    assert heard[0][1] <= budget(window) and heard[1][1] == 1  # the status bar


def test_the_counter_counts(window, monkeypatch):
    heard = count_emissions(monkeypatch, window.workspace)
    window.workspace.events.learner_changed.emit()
    window.workspace.events.learner_changed.emit()
    assert [name for name, _ in heard] == ["learner_changed"] * 2
    assert heard[0][1] >= 5  # the window, the canvas, the panels listen to it
