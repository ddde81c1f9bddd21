"""File ▸ Open real data set: each sample opens as a new, clean document, by its title."""

from __future__ import annotations

import pytest
from PySide6 import QtWidgets

from perceptron_gui.core import generators, samples
from perceptron_gui.core.dataset import ReplaceAll
from perceptron_gui.ui import errors

B = QtWidgets.QMessageBox


@pytest.fixture
def asked(monkeypatch):
    """Answer :func:`errors.ask` with ``asked.value``; ``asked.texts`` lists the questions."""

    class Asked:
        value = None
        texts: list[str] = []

    def fake(parent, title, text, *args, **kwargs):
        Asked.texts.append(text)
        assert Asked.value is not None, f"unexpected question: {text}"
        return Asked.value

    Asked.texts = []
    monkeypatch.setattr(errors, "ask", fake)
    return Asked


def test_the_submenu_lists_every_sample_by_its_title(qtbot, window):
    menu = window.findChild(QtWidgets.QMenu, "menuSamples")
    assert menu is not None and menu.menuAction() in window.menus["file"].actions()
    assert menu.title() == "Open &real data set"
    titles = [samples.SAMPLES[n].title for n in samples.names()]
    every = [samples.SAMPLES[n].every_class_title for n in samples.names()]
    actions = menu.actions()
    two = len(titles)
    assert [a.text() for a in actions] == [*titles, "Every class of the file", *every]
    assert actions[two].isSeparator()
    assert "Iris: setosa vs versicolor (sepal)" in titles
    assert "Iris: every class (petal)" in every
    assert all(a.statusTip() == samples.SAMPLES[n].description
               for a, n in zip(actions[:two], samples.names(), strict=True))


def test_every_class_entries_open_every_class_under_a_learner_of_m_classes(qtbot, window,
                                                                              asked, subtests):
    from perceptron_gui.core.learners import registry

    for name in samples.names():
        with subtests.test(name):
            action = window.findChild(type(window.files.actionOpen),
                                      f"actionSample_{name}_every_class")
            action.trigger()
            dataset, info = samples.load(name, all_classes=True)
            ws = window.workspace
            assert ws.dataset == dataset and dataset.n_classes == 3
            assert ws.learner_name in registry.multiclass() and ws.multiclass
            assert ws.problem is None and not window.files.is_dirty()
            assert window.statusBar().currentMessage().endswith(
                f"Every class of the file: {', '.join(info.kept)}.")


def test_the_three_data_entries_say_what_they_are(qtbot, window):
    texts = [a.text() for a in window.menus["file"].actions()]
    # together, first: the data to start from, then the documents
    assert texts[:5] == ["&Generate synthetic data…", "&Quick synthetic data",
                         "Open &real data set", "", "&Open…"]
    quick = window.findChild(QtWidgets.QMenu, "menuExamples")
    assert [a.text() for a in quick.actions()] == list(generators.TITLES.values())
    assert "XOR" in [a.text() for a in quick.actions()]


def test_each_sample_opens_as_a_clean_document(qtbot, window, asked, subtests):
    for name in samples.names():  # one window: a sample replaces the clean document before
        with subtests.test(name):
            _check_sample_opens_clean(window, asked, name)


def _check_sample_opens_clean(window, asked, name):
    action = window.findChild(type(window.files.actionOpen), f"actionSample_{name}")
    action.trigger()
    dataset, info = samples.load(name)
    ws = window.workspace
    assert ws.dataset == dataset
    assert ws.learner_name == info.learner
    assert all(ws.params[k] == v for k, v in info.params.items())
    (x0, x1), (y0, y1) = window.canvas.view_rect()
    (a0, a1), (b0, b1) = info.view
    assert x0 <= a0 + 0.5 and x1 >= a1 - 0.5 and y0 <= b0 + 0.5 and y1 >= b1 - 0.5
    message = window.statusBar().currentMessage()
    assert message == f"{info.description} {info.classes_note}"
    # every shipped sample keeps two of its file's classes, and the window says so
    assert info.n_other > 0
    assert message.endswith(f"The window shows two classes: {info.negative} as −1 and "
                            f"{info.positive} as +1; {info.n_other:,} rows of the file's "
                            "other classes left out.")
    # like --generate: nothing to save, quitting does not ask, no title star
    assert not window.files.is_dirty() and window.files.path is None
    assert not window.windowTitle().startswith("*") and "*" not in window.windowTitle()
    assert window.undo_stack.count() == 0
    assert asked.texts == []


def test_a_sample_asks_before_replacing_unsaved_work(qtbot, window, asked):
    before = generators.separable(5, seed=4)
    assert window.push_edit(ReplaceAll.from_dataset(before, "before"))
    assert window.files.is_dirty()
    name = samples.names()[0]
    asked.value = B.Cancel  # keep the current work
    job = window.files.samples.open_sample(name)
    assert job.done and job.result is False
    assert window.workspace.dataset == before and len(asked.texts) == 1
    asked.value = B.Discard
    job = window.files.samples.open_sample(name)
    assert job.done and job.result is True
    assert window.workspace.dataset == samples.load(name)[0]
    assert not window.files.is_dirty()


def test_an_unknown_sample_says_so(qtbot, window):
    job = window.files.samples.open_sample("nope")
    assert job.done and job.result is False
    assert "no sample named 'nope'" in window.statusBar().currentMessage()
    assert window.workspace.dataset.n == 0


def test_a_learner_named_on_the_command_line_replaces_the_samples_own(qtbot, window, asked):
    """``--sample NAME --learner KEY`` opened the sample with its own learner, not KEY."""
    from perceptron_gui.app import build_parser
    from perceptron_gui.core.learners import registry

    name = samples.names()[0]
    own = samples.SAMPLES[name].learner
    other = next(key for key in registry.LEARNERS if key != own)
    assert build_parser().parse_args(["--sample", name]).learner is None
    job = window.files.samples.open_sample(name, other)
    qtbot.waitUntil(lambda: job.done, timeout=30_000)
    assert job.result is True and window.workspace.learner_name == other
    job = window.files.samples.open_sample(name, None)
    qtbot.waitUntil(lambda: job.done, timeout=30_000)
    assert window.workspace.learner_name == own
    assert samples.open_workspace(name, other)[0].learner_name == other
