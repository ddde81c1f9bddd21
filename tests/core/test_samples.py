"""core.samples: every shipped sample loads, opens sensibly, and its stated facts hold."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from perceptron_gui.core import LDA, PrimalPerceptron, Workspace, samples, theory
from perceptron_gui.core.workspace import DEFAULT_PARAMS

ROOT = Path(__file__).resolve().parents[2]


def _fit(name):
    dataset, info = samples.load(name)
    X, y = dataset.X, dataset.y
    params = dict(DEFAULT_PARAMS["primal"])
    perceptron = PrimalPerceptron(**params).fit(X, y)
    lda = LDA().fit(X, y)
    return dataset, info, theory.novikoff(X, y), perceptron, lda


def _wrong(model, dataset) -> int:
    return int(np.sum(model.predict(dataset.X) != dataset.y))


def _in_text(number, text):
    """The number as the description writes it (thousands separated by commas)."""
    return f"{number:,}" in text


@pytest.mark.parametrize("name", samples.names())
def test_every_sample_loads_and_opens(name):
    dataset, info = samples.load(name)
    assert info.name == name and info.path.is_file()
    assert dataset.has_both_classes
    assert info.learner in DEFAULT_PARAMS and set(info.params) <= set(DEFAULT_PARAMS[info.learner])
    ws = Workspace(dataset)
    ws.set_learner(info.learner)
    if info.params:
        ws.set_params(**info.params)
    ws.step()
    (x0, x1), (y0, y1) = info.view
    X = dataset.X
    assert x0 < X[:, 0].min() and X[:, 0].max() < x1, "the view frames every point"
    assert y0 < X[:, 1].min() and X[:, 1].max() < y1
    assert (x1 - x0) < 3 * np.ptp(X[:, 0]) and (y1 - y0) < 3 * np.ptp(X[:, 1]), "not too wide"
    assert info.description and "\n" not in info.description
    assert info.summary.startswith(f"{dataset.n:,} points")


def test_names_and_unknown_name():
    assert samples.names() == [
        "iris-setosa-versicolor-sepal", "iris-versicolor-virginica-petal", "penguins-bill",
        "wine-alcohol-flavanoids"]
    with pytest.raises(samples.UnknownSampleError, match=re.escape(
            "no sample named 'tulips'; the samples are: iris-setosa-versicolor-sepal, ")):
        samples.load("tulips")
    assert issubclass(samples.UnknownSampleError, ValueError)


def test_iris_sepal_bound_in_the_tens_of_thousands_perceptron_about_1500():
    dataset, info, nv, p, lda = _fit("iris-setosa-versicolor-sepal")
    assert dataset.n == 100 and dataset.n_pos == 50
    assert nv.separable and p.converged_
    assert 10_000 <= nv.bound < 100_000 and round(nv.bound) == 22_134
    assert p.n_updates_ == 1_562 and p.n_epochs_ == 721
    assert p.n_updates_ <= nv.bound
    d = info.description
    assert _in_text(round(nv.bound), d) and _in_text(p.n_updates_, d) and "721 epochs" in d
    assert f"γ = {nv.margin:.3f}" in d and f"R = {nv.radius:.2f}" in d
    assert _wrong(p, dataset) == 0 and _wrong(lda, dataset) == 1


def test_iris_petal_not_separable():
    dataset, info, nv, p, lda = _fit("iris-versicolor-virginica-petal")
    assert nv.separable is False and theory.max_margin(dataset.X, dataset.y).separable is False
    assert not p.converged_ and p.n_epochs_ == 1_000 and p.n_updates_ == 3_901
    assert _wrong(p, dataset) == 24 and _wrong(lda, dataset) == 6
    d = info.description
    assert "not separable" in d and _in_text(p.n_updates_, d)
    assert "24 of 100" in d and "LDA misclassifies 6" in d


def test_penguins_skip_and_report_missing_values():
    dataset, info, nv, p, lda = _fit("penguins-bill")
    assert info.skipped_lines == (5, 273)
    assert "skipped 2 rows with a missing or non-numeric value (lines 5, 273)" in info.summary
    assert "left out 68 rows of other classes" in info.summary
    assert dataset.n == 274
    assert nv.separable and p.converged_ and p.n_updates_ == 23 and p.n_epochs_ == 12
    assert round(nv.bound) == 26_515
    assert _wrong(p, dataset) == 0 and _wrong(lda, dataset) == 1
    d = info.description
    assert _in_text(round(nv.bound), d) and "23 updates" in d and "1 of 274" in d


def test_wine_lda_and_perceptron_disagree():
    dataset, info, nv, p, lda = _fit("wine-alcohol-flavanoids")
    assert dataset.n == 119 and dataset.n_neg == 71 and dataset.n_pos == 48
    assert nv.separable is False and not p.converged_ and p.n_updates_ == 2_501
    wrong_p = p.predict(dataset.X) != dataset.y
    assert int(wrong_p.sum()) == 71 and np.all(dataset.y[wrong_p] == -1)
    assert _wrong(lda, dataset) == 5
    disagree = int(np.sum(p.predict(dataset.X) != lda.predict(dataset.X)))
    assert disagree == 66
    d = info.description
    assert "LDA misclassifies 5 of 119" in d and "misclassifies 71" in d
    assert f"disagree on {disagree} wines" in d
    assert info.learner == "lda"


def test_data_files_are_documented_and_shipped():
    readme = (ROOT / "resources" / "data" / "README.md").read_text(encoding="utf-8")
    files = sorted(p.name for p in (ROOT / "resources" / "data").glob("*.csv"))
    assert files == ["iris.csv", "penguins.csv", "wine.csv"]
    for name in files:
        assert f"`{name}`" in readme
    for name in samples.names():
        assert f"`{name}`" in readme
    for licence in ("public domain", "CC0", "CC BY 4.0"):
        assert licence in readme
    assert samples.DATA_DIR == ROOT / "resources" / "data"
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")  # no tomllib on 3.10
    assert '"share/perceptron-gui/data" = ["resources/data/*.csv", "resources/data/README.md"]' \
        in project
