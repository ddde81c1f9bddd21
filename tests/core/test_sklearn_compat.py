"""The learners in scikit-learn's world: ``check_estimator``, tags, Pipeline, clone, pickling.

scikit-learn is a test dependency only: the learners duck-type its API, and the
few places that must hand scikit-learn its own classes (the tags, the
``NotFittedError`` and ``DataConversionWarning`` it tests for) only use it when
the caller has already loaded it.  Every check of scikit-learn's suite runs as
its own test below, with no expected failures.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn.base import clone, is_classifier
from sklearn.datasets import load_breast_cancer
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.exceptions import DataConversionWarning as SkDataConversionWarning
from sklearn.exceptions import NotFittedError as SkNotFittedError
from sklearn.linear_model import Perceptron
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils import get_tags
from sklearn.utils.estimator_checks import parametrize_with_checks
from sklearn.utils.validation import check_is_fitted

from perceptron_gui.core import LDA, QDA, DualPerceptron, GaussianNB, PrimalPerceptron
from perceptron_gui.core.learners import _scan
from perceptron_gui.core.learners._base import DataConversionWarning, NotFittedError

# The defaults, and one non-default configuration of each learner.
ESTIMATORS = [
    PrimalPerceptron(),
    DualPerceptron(),
    LDA(),
    # the checks' data are not separable: a run is max_iter epochs (default 1000)
    PrimalPerceptron(order="random", random_state=0, bias_scale=2.0, eta0=0.5, max_iter=100),
    DualPerceptron(kernel="rbf", gamma=0.5, max_iter=100),
    LDA(shrinkage="auto"),
    # the gradient engine: the logistic loss (predict_proba), the hinge loss in batch
    PrimalPerceptron(loss="log_loss", eta0=0.1, max_iter=50),
    PrimalPerceptron(loss="hinge", order="batch", eta0=0.01, max_iter=50),
    # the generative classifiers, of any number of classes
    QDA(),
    QDA(reg_param=0.1),
    GaussianNB(),
    GaussianNB(shared_variance=True),
]

# scikit-learn notes, at collection, that the learners do not inherit from its
# BaseEstimator: by design (it is never imported at run time).
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Estimator .* does not inherit from", UserWarning)
    _sklearn_checks = parametrize_with_checks(ESTIMATORS, expected_failed_checks=None)


@_sklearn_checks
def test_sklearn_estimator_checks(estimator, check):
    # Two checks skip themselves in this environment: the pandas part of
    # check_classifier_data_not_an_array (pandas is not installed) and
    # check_array_api_input (it needs SCIPY_ARRAY_API=1 before scipy is
    # imported; test_in_a_fresh_interpreter_without_then_with_sklearn runs it).
    check(estimator)


# ---------------------------------------------------------------- tags


@pytest.mark.parametrize("est", [PrimalPerceptron(), DualPerceptron()], ids=repr)
def test_tags_say_binary_only_classifier(est):
    tags = get_tags(est)
    assert tags.classifier_tags.multi_class is False
    assert tags.estimator_type == "classifier" and is_classifier(est)
    assert tags.target_tags.required is True
    assert tags.input_tags.allow_nan is False and tags.input_tags.sparse is False
    assert tags.regressor_tags is None and tags.transformer_tags is None


@pytest.mark.parametrize("est", [QDA(), GaussianNB(), LDA()], ids=repr)
def test_tags_say_multiclass_classifier(est):
    tags = get_tags(est)
    assert tags.classifier_tags.multi_class is True and is_classifier(est)
    assert tags.input_tags.allow_nan is False and tags.input_tags.sparse is False


# ---------------------------------------------------------------- pipelines


def _breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return X, y


def test_pipeline_cross_val_score_equals_sklearn_perceptron():
    """The same folds give bit-identical perceptrons, hence the same scores."""
    X, y = _breast_cancer()
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    ours = Pipeline([("scale", StandardScaler()), ("clf", PrimalPerceptron(max_iter=200))])
    ref = Pipeline([
        ("scale", StandardScaler()),
        ("clf", Perceptron(shuffle=False, eta0=1.0, tol=None, penalty=None, max_iter=200)),
    ])
    got = cross_val_score(ours, X, y, cv=cv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning when max_iter is reached
        want = cross_val_score(ref, X, y, cv=cv)
    assert got.shape == (5,) and got.mean() > 0.9
    np.testing.assert_array_equal(got, want)

    fitted = clone(ours).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fitted_ref = clone(ref).fit(X, y)
    assert np.array_equal(fitted[-1].coef_, fitted_ref[-1].coef_)
    assert np.array_equal(fitted[-1].intercept_, fitted_ref[-1].intercept_)


def test_lda_and_dual_in_pipelines_and_grid_search():
    X, y = _breast_cancer()
    cv = StratifiedKFold(4, shuffle=True, random_state=1)
    lda = cross_val_score(Pipeline([("scale", StandardScaler()), ("clf", LDA())]), X, y, cv=cv)
    sk = cross_val_score(
        Pipeline([("scale", StandardScaler()), ("clf", LinearDiscriminantAnalysis())]), X, y, cv=cv
    )
    assert lda.mean() > 0.93 and abs(lda.mean() - sk.mean()) < 0.02

    pipe = Pipeline([("scale", StandardScaler()), ("clf", DualPerceptron(max_iter=50))])
    grid = GridSearchCV(
        pipe,
        {"clf__kernel": ["linear", "rbf"], "clf__gamma": [0.01, 0.1]},
        cv=StratifiedKFold(3, shuffle=True, random_state=2),
    ).fit(X, y)
    best = grid.best_estimator_[-1]
    assert isinstance(best, DualPerceptron) and best.kernel == grid.best_params_["clf__kernel"]
    assert grid.best_score_ > 0.9
    assert set(grid.classes_) == {0, 1}


# ---------------------------------------------------------------- clone


@pytest.mark.parametrize(
    "est",
    [
        PrimalPerceptron(order="random", random_state=3, max_iter=7),
        DualPerceptron(kernel="poly", degree=2, coef0=0.5),
        LDA(priors=[0.3, 0.7], shrinkage=0.2),
    ],
    ids=repr,
)
def test_clone_copies_parameters_and_drops_learned_state(est):
    X, y = _breast_cancer()
    X = StandardScaler().fit_transform(X[:120, :4])
    y = y[:120]
    est.fit(X, y)
    c = clone(est)
    assert type(c) is type(est) and c is not est
    for name, value in est.get_params().items():
        assert getattr(c, name) is value or np.array_equal(getattr(c, name), value)
    assert not hasattr(c, "classes_") and not hasattr(c, "coef_")
    with pytest.raises(SkNotFittedError):
        c.predict(X)
    np.testing.assert_array_equal(c.fit(X, y).predict(X), est.predict(X))


# ---------------------------------------------------------------- errors as scikit-learn words them


@pytest.mark.parametrize("cls", [PrimalPerceptron, DualPerceptron, LDA])
def test_bad_arrays_get_sklearn_messages(cls):
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    y = np.array([0, 0, 1, 1])
    est = cls()
    with pytest.raises(SkNotFittedError, match="is not fitted yet"):
        est.decision_function(X)
    with pytest.raises(NotFittedError):  # ours, too
        est.predict(X)
    with pytest.raises(SkNotFittedError):
        check_is_fitted(est)
    est.fit(X, y)
    check_is_fitted(est)
    name = cls.__name__
    with pytest.raises(ValueError, match=rf"^X has 3 features, but {name} is expecting 2 "
                                         r"features as input\.$"):
        est.predict(np.zeros((2, 3)))
    with pytest.raises(TypeError, match="Sparse data was passed for X, but dense data"):
        cls().fit(sparse.csr_matrix(X), y)
    Xo = X.astype(object)
    Xo[0, 0] = {"a": 1}
    with pytest.raises(TypeError, match="argument must be a string or a real number"):
        cls().fit(Xo, y)
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        cls().fit(X, [0.5, 1.25, 2.0, 3.5])
    with pytest.raises(ValueError, match="Input X contains NaN"):
        est.predict([[np.nan, 0.0]])
    with pytest.raises(ValueError, match="Complex data not supported"):
        cls().fit(X + 1j, y)
    with pytest.raises(ValueError, match=r"Expected 2D array.*got 1D array.*reshape\(-1, 1\)"):
        est.predict([0.0, 1.0])


def test_one_sample_messages_name_the_sample_count():
    with pytest.raises(ValueError, match="n_samples=1"):
        LDA().fit([[1.0, 2.0]], [1])
    with pytest.raises(ValueError, match="1 class"):
        PrimalPerceptron().fit([[1.0, 2.0]], [1])


@pytest.mark.parametrize("cls", [PrimalPerceptron, DualPerceptron, LDA])
def test_column_vector_y_warns_like_sklearn_and_fits_the_same(cls):
    X = np.array([[0.0, 0.0], [1.0, 0.2], [0.1, 1.0], [1.0, 1.0], [2.0, 1.5]])
    y = np.array(["a", "a", "b", "b", "b"])
    with pytest.warns(SkDataConversionWarning, match="A column-vector y was passed") as rec:
        col = cls().fit(X, y[:, None])
    assert len(rec) == 1
    assert isinstance(rec[0].message, DataConversionWarning)
    # attributed to the caller (this file), not to the package, whose own
    # warnings the test configuration turns into errors
    assert rec[0].filename == __file__
    flat = cls().fit(X, y)
    np.testing.assert_array_equal(col.predict(X), flat.predict(X))
    assert col.score(X, y[:, None]) == flat.score(X, y)


def test_score_accepts_sample_weight():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    est = PrimalPerceptron().fit(X, [0, 0, 1, 1])
    y_true = [0, 0, 1, 0]  # the last is "wrong"
    assert est.score(X, y_true) == 0.75
    assert est.score(X, y_true, sample_weight=[1, 1, 1, 3]) == 0.5
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        est.score(X, [0, 1])


# ---------------------------------------------------------------- pickling


@pytest.mark.parametrize(
    "est",
    [
        PrimalPerceptron(),
        PrimalPerceptron(order="random", random_state=4),
        DualPerceptron(kernel="rbf", gamma=0.5, order="random", random_state=1),
        LDA(shrinkage="auto"),
    ],
    ids=repr,
)
def test_pickled_fitted_learners_predict_the_same(est):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 3))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=80) > 0, "pos", "neg")
    est.fit(X, y)
    T = rng.normal(size=(50, 3))
    back = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(back.predict(T), est.predict(T))
    np.testing.assert_array_equal(back.decision_function(T), est.decision_function(T))
    assert list(back.classes_) == ["neg", "pos"]


def _assert_same_event(e1, e2):
    assert e1 is not None and e2 is not None
    for field in e1.__dataclass_fields__:
        v1, v2 = getattr(e1, field), getattr(e2, field)
        if isinstance(v1, np.ndarray) or isinstance(v2, np.ndarray):
            assert np.array_equal(v1, v2), field
        else:
            assert v1 == v2, field


@pytest.mark.parametrize(
    "make",
    [
        lambda: PrimalPerceptron(order="random", random_state=2),
        lambda: DualPerceptron(kernel="rbf", gamma=1.0, order="random", random_state=2),
    ],
    ids=["primal", "dual-rbf"],
)
def test_pickling_mid_run_keeps_the_run(make):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 2))
    y = np.where(X[:, 0] * X[:, 1] + 0.1 * rng.normal(size=60) > 0, 1, -1)  # not linear
    a = make().start(X, y)
    for _ in range(137):
        a.step()
    b = pickle.loads(pickle.dumps(a))
    assert b.step_count == a.step_count == 137
    for _ in range(200):
        _assert_same_event(b.step(), a.step())
    for _ in range(50):
        _assert_same_event(b.step_back(), a.step_back())
    assert b.advance(5000) == a.advance(5000)
    np.testing.assert_array_equal(b.training_margins(), a.training_margins())


def test_pickle_leaves_the_kernel_row_cache_behind():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 2))
    y = np.where(np.hypot(X[:, 0], X[:, 1]) > 1.1, 1, 0)  # circles: many rbf updates
    est = DualPerceptron(kernel="rbf", gamma=2.0, max_iter=30).fit(X, y)
    cache = sum(row.nbytes for row in est._rows.values())
    assert len(est._rows) > 50  # 50 rows of 400 floats: 160 kB
    blob = pickle.dumps(est)
    with_cache = pickle.dumps(est.__dict__)
    assert len(with_cache) - len(blob) > 0.9 * cache
    back = pickle.loads(blob)
    assert len(back._rows) == 0
    np.testing.assert_array_equal(back.decision_function(X), est.decision_function(X))
    np.testing.assert_array_equal(back.training_margins(), est.training_margins())


def test_sklearn_exception_classes_pickle():
    try:
        LDA().predict([[0.0]])
    except SkNotFittedError as exc:
        back = pickle.loads(pickle.dumps(exc))
    assert isinstance(back, SkNotFittedError) and isinstance(back, NotFittedError)
    assert str(back).startswith("This LDA instance is not fitted yet")


# ---------------------------------------------------------------- speed of long non-separable runs


def test_many_short_epochs_switch_to_the_compiled_loop_bit_identically(monkeypatch):
    """check_estimator fits small non-separable data for all 1000 epochs: the run
    must move to the compiled loop and stay bit-identical to scikit-learn."""
    if not _scan.compiled_available():
        pytest.skip("numba not available")
    rng = np.random.RandomState(0)
    X = rng.uniform(size=(40, 3))
    y = rng.randint(0, 2, size=40)
    calls = {"compiled": 0, "numpy": 0}
    real_c, real_n = _scan.scan_compiled, _scan.scan_numpy

    def count(kind, real):
        def wrapper(*args):
            calls[kind] += 1
            return real(*args)
        return wrapper

    monkeypatch.setattr(_scan, "scan_compiled", count("compiled", real_c))
    monkeypatch.setattr(_scan, "scan_numpy", count("numpy", real_n))
    auto = PrimalPerceptron(max_iter=1000).fit(X, y)
    assert not auto.converged_ and auto.n_epochs_ == 1000
    # a fit asks for the whole run: compiled from the first epoch on
    assert calls["compiled"] > 900 and calls["numpy"] <= 2048 // 40 + 1
    monkeypatch.setattr(_scan, "FORCE", "numpy")
    slow = PrimalPerceptron(max_iter=1000).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = Perceptron(shuffle=False, eta0=1.0, tol=None, penalty=None, max_iter=1000).fit(X, y)
    for other in (slow, ref):
        assert np.array_equal(auto.coef_, other.coef_)
        assert np.array_equal(auto.intercept_, other.intercept_)
    assert np.array_equal(auto.history.updates.rows().index, slow.history.updates.rows().index)


# ---------------------------------------------------------------- never imports scikit-learn


def test_in_a_fresh_interpreter_without_then_with_sklearn(subtests):
    """One fresh interpreter (no compiled loops; scipy's array API on before scipy is
    imported): first the learners' API with scikit-learn never imported, and the
    scikit-learn modules loaded by then (line 1); then scikit-learn's array API check
    (line 2, ``ok``), which skips itself where scipy was imported without the variable."""
    code = textwrap.dedent(
        """
        import pickle, sys, warnings
        import numpy as np
        from perceptron_gui.core import LDA, DualPerceptron, PrimalPerceptron
        from perceptron_gui.core.learners._base import DataConversionWarning, NotFittedError
        X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
        y = np.array([0, 0, 1, 1])
        for cls in (PrimalPerceptron, DualPerceptron, LDA):
            try:
                cls().predict(X)
            except NotFittedError as exc:
                assert type(exc) is NotFittedError, type(exc).__mro__
            with warnings.catch_warnings(record=True) as rec:
                warnings.simplefilter("always")
                est = cls().fit(X, y[:, None])
            assert [type(r.message) for r in rec] == [DataConversionWarning], rec
            back = pickle.loads(pickle.dumps(est))
            assert (back.predict(X) == est.predict(X)).all() and est.score(X, y) >= 0.5
        print(",".join(sorted(m for m in sys.modules if m.split(".")[0] == "sklearn")),
              flush=True)

        warnings.simplefilter("ignore", UserWarning)
        from sklearn.utils.estimator_checks import check_array_api_input
        for est in (PrimalPerceptron(), DualPerceptron(), LDA()):
            check_array_api_input(
                type(est).__name__, est, array_namespace="numpy",
                expect_only_array_outputs=False,
            )
        print("ok")
        """
    )
    env = dict(os.environ, PERCEPTRON_GUI_NO_JIT="1", SCIPY_ARRAY_API="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    with subtests.test("the API works without scikit-learn"):
        assert lines[0].strip() == ""
    with subtests.test("the array API check"):
        assert lines[1].strip() == "ok"
