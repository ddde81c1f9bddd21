"""Shared scikit-learn-style plumbing for the learners, without importing scikit-learn.

scikit-learn stays a test-only dependency: where it must see its own classes
(the estimator tags, ``NotFittedError``, ``DataConversionWarning``) they are
used only when the caller has loaded it.
"""

from __future__ import annotations

import inspect
import sys
import warnings

import numpy as np

from ..values import as_array
from .params import check, check_all

__all__ = ["ROWWISE_MAX_FEATURES", "BaseLearner", "ClassScoreLearner", "DataConversionWarning",
           "NotFittedError", "SINGULAR_RTOL", "accurate_mean", "check_X", "check_priors",
           "encode_classes", "encode_labels", "label_text", "singular", "softmax_log"]


#: Up to this many features a class score is summed a coordinate row at a time (QDA,
#: naive Bayes): no (n, d) temporaries and no threaded BLAS product.
ROWWISE_MAX_FEATURES = 8

class NotFittedError(ValueError, AttributeError):
    """Raised when a learner is used before ``fit`` (both errors, as scikit-learn's)."""


class DataConversionWarning(UserWarning):
    """Warned when input data had to be converted (a column-vector ``y``)."""


_FLAVOURED: dict[type, type] = {}


def _sklearn_flavour(cls: type) -> type:
    """``cls``, or a subclass of it and of scikit-learn's class of that name once loaded.

    So ``except`` clauses and warning filters for either work.
    """
    exceptions = sys.modules.get("sklearn.exceptions")
    theirs = getattr(exceptions, cls.__name__, None)
    if not isinstance(theirs, type) or issubclass(cls, theirs):
        return cls
    both = _FLAVOURED.get(cls)
    if both is None or not issubclass(both, theirs):
        namespace = {
            "__module__": cls.__module__,
            "__doc__": cls.__doc__,
            "__reduce__": _reduce_flavoured,
            "_flavour_of": cls,
        }
        both = type(cls.__name__, (cls, theirs), namespace)
        _FLAVOURED[cls] = both
    return both


def _reduce_flavoured(exc: BaseException):
    # pickle by our own class, re-flavoured when unpickled (the class made by
    # _sklearn_flavour cannot be found by name)
    return _rebuild_flavoured, (type(exc)._flavour_of, exc.args)


def _rebuild_flavoured(cls: type, args: tuple) -> BaseException:
    return _sklearn_flavour(cls)(*args)


def _outside_stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the first caller outside this package."""
    package = __name__.split(".")[0] + "."
    frame = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith(package):
        frame = frame.f_back
        level += 1
    return level


class BaseLearner:
    """Parameter handling shared by every learner (keyword-only, stored unchanged)."""

    _estimator_type = "classifier"

    #: Whether it classifies any number of classes (scikit-learn's tag); else two.
    _multi_class = False

    @classmethod
    def default_params(cls, **changed) -> dict:
        """Every parameter with its default, in ``__init__``'s order, but for ``changed``."""
        return {p.name: changed.get(p.name, p.default)
                for p in inspect.signature(cls.__init__).parameters.values()
                if p.kind == p.KEYWORD_ONLY}

    def _store(self, given: dict) -> None:
        """Store ``__init__``'s arguments unchanged (scikit-learn's rule): pass ``locals()``."""
        for name, value in given.items():
            if name != "self":
                setattr(self, name, value)

    def get_params(self, deep: bool = True) -> dict:
        """Return the learner's parameters as a dict (scikit-learn API)."""
        return {name: getattr(self, name) for name in sorted(self.default_params())}

    def set_params(self, **params) -> BaseLearner:
        """Set parameters by name and return ``self`` (scikit-learn API)."""
        valid = set(self.default_params())
        for key, value in params.items():
            if key not in valid:
                raise ValueError(
                    f"Invalid parameter {key!r} for estimator {type(self).__name__}. "
                    f"Valid parameters are: {sorted(valid)!r}."
                )
            setattr(self, key, value)
        return self

    def __repr__(self) -> str:
        defaults = self.default_params()
        changed = []
        for name, value in self.get_params().items():
            default = defaults.get(name, inspect.Parameter.empty)
            same = default is value
            if not same:
                try:
                    same = bool(default == value)
                except Exception:  # arrays and other odd values
                    same = False
            if not same:
                changed.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(changed)})"

    def __sklearn_tags__(self):
        """scikit-learn's tags, a classifier of dense finite arrays (only it calls this)."""
        from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags

        return Tags(
            estimator_type="classifier",
            target_tags=TargetTags(required=True),
            classifier_tags=ClassifierTags(multi_class=self._multi_class),
            input_tags=InputTags(allow_nan=False, sparse=False),
        )

    def __sklearn_is_fitted__(self) -> bool:
        """Whether ``fit`` (or ``start``) has run: used by scikit-learn's ``check_is_fitted``."""
        return hasattr(self, "classes_")

    def score(self, X, y, sample_weight=None) -> float:
        """Mean accuracy of ``predict(X)`` against ``y``, weighted by ``sample_weight``."""
        pred = self.predict(X)
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y.ravel()
        if y.shape != pred.shape:
            raise ValueError(
                f"Found input variables with inconsistent numbers of samples: "
                f"[{pred.shape[0]}, {y.shape[0] if y.ndim else 1}]"
            )
        return float(np.average(pred == y, weights=sample_weight))

    def _check_fitted(self, attribute: str = "classes_") -> None:
        if not hasattr(self, attribute):
            raise _sklearn_flavour(NotFittedError)(
                f"This {type(self).__name__} instance is not fitted yet. Call 'fit' "
                "with appropriate arguments before using this estimator."
            )

    def _fitted_X(self, X) -> np.ndarray:
        """``X`` checked against the fitted learner (raises NotFittedError before ``fit``)."""
        self._check_fitted()
        return check_X(X, n_features=self.n_features_in_, estimator=type(self).__name__)


def check_X(
    X, *, n_features: int | None = None, name: str = "X", estimator: str | None = None
) -> np.ndarray:
    """``X`` as C-contiguous float64, or scikit-learn's ValueError or TypeError."""
    if type(X).__module__.startswith("scipy.sparse"):
        raise TypeError(
            f"Sparse data was passed for {name}, but dense data is required. Use "
            "'.toarray()' to convert to a dense numpy array."
        )
    arr = as_array(X, name)
    if arr.dtype.kind in "OUS":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            # float() raises TypeError for a dict or None, ValueError for "abc"
            raise type(exc)(f"{name} must contain numbers only: {exc}") from exc
    if arr.dtype.kind == "c":
        raise ValueError(f"Complex data not supported in {name}.")
    if arr.ndim != 2:
        raise ValueError(
            f"Expected 2D array for {name}, got {arr.ndim}D array instead. Reshape your "
            "data either using array.reshape(-1, 1) if your data has a single feature "
            "or array.reshape(1, -1) if it contains a single sample."
        )
    for size, what in zip(arr.shape, ("sample", "feature"), strict=True):
        if size < 1:
            raise ValueError(f"Found array with 0 {what}(s) (shape={arr.shape}) while a "
                             "minimum of 1 is required.")
    arr = np.ascontiguousarray(arr, dtype=np.float64)
    if not np.isfinite(arr).all():
        if np.isnan(arr).any():
            raise ValueError(f"Input {name} contains NaN.")
        raise ValueError(f"Input {name} contains infinity or a value too large for float64.")
    if n_features is not None and arr.shape[1] != n_features:
        raise ValueError(
            f"{name} has {arr.shape[1]} features, but {estimator or 'this estimator'} is "
            f"expecting {n_features} features as input."
        )
    return arr


def _check_y(y, n_samples: int) -> np.ndarray:
    """``y`` as a 1-d array of ``n_samples`` finite labels (a column vector warns, is raveled)."""
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected. Please change "
            "the shape of y to (n_samples, ), for example using ravel().",
            _sklearn_flavour(DataConversionWarning),
            stacklevel=_outside_stacklevel(),
        )
        y = y.ravel()
    if y.ndim != 1:
        raise ValueError(f"y should be a 1d array, got an array of shape {y.shape} instead.")
    if y.shape[0] != n_samples:
        raise ValueError(
            f"Found input variables with inconsistent numbers of samples: "
            f"[{n_samples}, {y.shape[0]}]"
        )
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        raise ValueError("Input y contains NaN or infinity.")
    return y


def encode_labels(y, n_samples: int) -> tuple[np.ndarray, np.ndarray]:
    """``(classes, signs)``: the two sorted labels, and ``+1.0`` where ``y == classes[1]``.

    A column-vector ``y`` warns (DataConversionWarning), as scikit-learn does.
    """
    y = _check_y(y, n_samples)
    classes = _two_integer_classes(y)
    if classes is None:
        classes = np.unique(y)
    _check_classes(classes, classes.shape[0] > 2 and y.dtype.kind == "f")
    if classes.shape[0] > 2:
        raise ValueError(
            f"Only binary classification is supported; y has {classes.shape[0]} classes "
            f"{classes.tolist()!r}."
        )
    signs = np.where(y == classes[1], 1.0, -1.0)
    return classes, signs


def _check_classes(classes: np.ndarray, maybe_continuous: bool) -> None:
    """scikit-learn's ValueError for a continuous target or a single class."""
    if maybe_continuous and not np.array_equal(classes, np.round(classes)):
        raise ValueError(
            "Unknown label type: continuous. Maybe you are trying to fit a classifier, "
            "which expects discrete classes on a regression target with continuous values."
        )
    if classes.shape[0] < 2:
        raise ValueError(
            f"The number of classes has to be greater than one; got {classes.shape[0]} class"
        )


def _two_integer_classes(y: np.ndarray) -> np.ndarray | None:
    """``np.unique(y)`` when ``y`` holds integers of exactly two values (in O(n), no sort)."""
    if y.dtype.kind not in "iu" or y.shape[0] == 0:
        return None
    lo, hi = y.min(), y.max()
    if lo == hi or not np.all((y == lo) | (y == hi)):
        return None
    return np.array([lo, hi], dtype=y.dtype)


def encode_classes(y, n_samples: int) -> tuple[np.ndarray, np.ndarray]:
    """``(classes, index)`` with ``classes[index] == y``: :func:`encode_labels` for any number."""
    y = _check_y(y, n_samples)
    classes, index = np.unique(y, return_inverse=True)
    _check_classes(classes, y.dtype.kind == "f")
    return classes, index.reshape(-1).astype(np.intp)


def check_priors(priors, n_classes: int) -> np.ndarray:
    """Given class priors as an array: ``n_classes`` positive finite numbers summing to 1."""
    try:
        p = np.asarray(priors, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"priors must be {n_classes} positive numbers; got {priors!r}.") from exc
    if p.shape != (n_classes,):
        raise ValueError(f"priors must have shape ({n_classes},) (one per class, in classes_ "
                         f"order); got shape {p.shape}.")
    if not np.isfinite(p).all() or (p <= 0).any():
        raise ValueError(f"priors must be positive and finite; got {p.tolist()!r}.")
    if not np.isclose(p.sum(), 1.0, rtol=0.0, atol=1e-8):
        raise ValueError(f"priors must sum to 1; got {p.tolist()!r} (sum {float(p.sum())!r}).")
    return p


def softmax_by_class(scores: np.ndarray) -> np.ndarray:
    """Softmax of class-major ``scores``, in place, returned as its ``(n, K)`` transpose.

    Class-major rows are contiguous: at 10⁶ points several times faster.
    """
    scores -= scores.max(axis=0)
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=0)
    return scores.T


def softmax_log(scores: np.ndarray) -> np.ndarray:
    """Row-wise ``log softmax`` of ``scores`` (n_samples, n_classes), without overflow."""
    top = scores.max(axis=1, keepdims=True)
    shifted = scores - top
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


#: Data whose largest entry lies in ``[2**-100, 2**100]`` are fitted as they are;
#: others are scaled by a power of two first (:func:`scale_exponent`).
UNSCALED_EXPONENT = 100


def scale_exponent(X: np.ndarray, force: bool = False) -> int:
    """The ``e`` with ``X * 2**-e`` in ``[-1, 1]`` (exact), or 0 for data of ordinary scale.

    On ``X * 2**-e`` no square or product overflows, with the unscaled digits.
    ``force``: scale anyway (a parameter times their variance would overflow).
    """
    big = float(np.abs(X).max()) if X.size else 0.0
    if big == 0.0:
        return 0
    e = int(np.frexp(big)[1])
    return e if force or abs(e) > UNSCALED_EXPONENT else 0


#: A covariance whose smallest eigenvalue is at most this times its largest (or
#: whose largest is not positive) is singular.
SINGULAR_RTOL = 1e-12


def singular(smallest: float, largest: float) -> bool:
    """Whether eigenvalues from ``smallest`` to ``largest`` make a covariance singular."""
    return not largest > 0.0 or smallest <= SINGULAR_RTOL * largest


def accurate_mean(X: np.ndarray) -> np.ndarray:
    """Column means with one correction pass (exact to rounding for off-centre data)."""
    first = X.mean(axis=0)
    return first + (X - first).mean(axis=0)


def label_text(label, classes) -> str:
    """A class label as a message names it: ``+1``/``-1`` beside negative labels, ``7``, ``'a'``."""
    if isinstance(label, (str, np.str_)):
        return repr(str(label))
    value = label.item() if hasattr(label, "item") else label
    if isinstance(value, (int, float)) and float(value).is_integer():
        signed = any(c < 0 for c in np.asarray(classes).tolist())
        return f"{int(value):+d}" if signed else str(int(value))
    return str(value)


class ClassScoreLearner(BaseLearner):
    """A closed-form classifier of any number of classes from its class scores (QDA, NB).

    A subclass implements ``_class_scores(X)``: each ``δ_k(x)`` (log joint
    likelihood up to a common constant), shape ``(n_classes, n_samples)``.
    """

    #: The parameters' specs (:mod:`.params`), ``priors`` first.
    PARAMS: tuple = ()

    _multi_class = True

    def validate_params(self) -> None:
        """Raise ValueError for an invalid parameter; two priors are checked by their spec."""
        check_all(self.PARAMS[1:], self)
        if self.priors is None:
            return
        p = np.asarray(self.priors, dtype=object)
        if p.shape == (2,):
            check(self.PARAMS[0], self.priors)
        else:
            check_priors(self.priors, p.shape[0] if p.ndim == 1 else -1)

    def _fit_classes(self, X, y) -> tuple[np.ndarray, ...]:
        """Validate: ``(X, classes, index, counts, priors)`` (priors default ``counts / n``)."""
        X = check_X(X)
        classes, index = encode_classes(y, X.shape[0])
        self.validate_params()
        counts = np.bincount(index, minlength=classes.shape[0]).astype(np.float64)
        priors = (counts / X.shape[0] if self.priors is None
                  else check_priors(self.priors, classes.shape[0]))
        return X, classes, index, counts, priors

    def _class_scores(self, X) -> np.ndarray:
        raise NotImplementedError

    def decision_function(self, X) -> np.ndarray:
        """The log-odds ``δ₊ − δ₋`` (two classes, shape ``(n,)``) or every ``δ_k`` ``(n, K)``."""
        scores = self._class_scores(X)
        return scores[1] - scores[0] if scores.shape[0] == 2 else scores.T

    def predict(self, X) -> np.ndarray:
        """The class of the largest ``δ_k`` (with two: of the sign of the log-odds)."""
        scores = self._class_scores(X)
        if scores.shape[0] == 2:
            return self.classes_[(scores[1] - scores[0] > 0).astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=0)]

    def predict_log_proba(self, X) -> np.ndarray:
        """Log posteriors ``ln P(k | x)``, shape ``(n_samples, n_classes)``."""
        return softmax_log(self._class_scores(X).T)

    def predict_proba(self, X) -> np.ndarray:
        """Posteriors ``P(k | x)``, the softmax of the ``δ_k``: shape ``(n_samples, n_classes)``."""
        return softmax_by_class(self._class_scores(X))
