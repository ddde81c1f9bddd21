"""One definition of an update: a step at which ``w`` or ``b`` changed, for every loss.

The attribute ``n_updates_``, the update log (``history.updates``) and the
update rows of the exports must all count those steps on one run.
"""

from __future__ import annotations

import numpy as np

from perceptron_gui.core import Workspace, generators, report


def _changed_steps(ws) -> list[int]:
    """The steps of the whole run at which ``w`` or ``b`` changed, bit for bit."""
    ws.run_to_end()
    end = ws.step_count
    ws.seek(0)
    changed = []
    for _ in range(end):
        event = ws.step()
        if (event.b_after != event.b_before
                or not np.array_equal(event.w_after, event.w_before)):
            changed.append(event.step)
    return changed


def _run(loss: str) -> Workspace:
    ws = Workspace()
    ws.replace(generators.separable(20, seed=4, margin=0.5), "primal",
               {"primal": {"loss": loss, "max_iter": 50}})
    return ws


def _counts(ws) -> tuple[int, int, int]:
    learner = ws.learner
    return (int(learner.n_updates_), len(learner.history.updates), report.n_updates(ws))


def _update_steps(ws) -> tuple[list[int], list[int]]:
    """The steps of the updates as the log gives them (the timeline's ticks, weight
    space's walk) and as the exports write them (the update rows)."""
    log = ws.learner.history.updates
    ticks = [int(t) for t in log.steps_of(np.arange(len(log)))]
    return ticks, [row.step for row in report.update_rows(ws)]


def test_a_logistic_run_moves_w_at_every_step_and_counts_them_all():
    ws = _run("log_loss")
    changed = _changed_steps(ws)
    assert len(changed) == ws.step_count > 0
    assert _counts(ws) == (len(changed),) * 3
    assert _update_steps(ws) == (changed, changed)


def test_a_hinge_run_counts_only_the_steps_that_moved_w():
    ws = _run("hinge")
    changed = _changed_steps(ws)
    assert 0 < len(changed) < ws.step_count
    assert _counts(ws) == (len(changed),) * 3
    assert _update_steps(ws) == (changed, changed)
    last = ws.learner.event(changed[-1])
    assert last.mistake and last.margin <= 1  # the hinge loss's update: z ≤ 1


def test_the_end_message_of_a_hinge_run_counts_its_steps_and_its_updates():
    ws = _run("hinge")
    ws.run_to_end()
    learner = ws.learner
    assert learner.converged_ and learner.n_updates_ < learner.step_count
    assert ws.end_message().startswith(
        f"Converged: {learner.step_count} steps, {learner.n_updates_} updates, in ")
