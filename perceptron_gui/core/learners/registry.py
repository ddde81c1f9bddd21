"""The learners the workspace offers: short name -> class, display name, defaults.

A new learner (QDA, naive Bayes ...) is one more :class:`LearnerSpec` in
:data:`REGISTRY`; the workspace, the files and the demos read the names and
defaults from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .dual import DualPerceptron
from .lda import LDA
from .params import DUAL, LDA_PARAMS, PRIMAL, ParamSpec
from .primal import PrimalPerceptron

__all__ = ["DEFAULT_PARAMS", "LEARNERS", "REGISTRY", "LearnerSpec", "get"]


@dataclass(frozen=True)
class LearnerSpec:
    """How the workspace makes and checks one kind of learner.

    Attributes
    ----------
    key : str
        The short name used in files, demos and the API (``"primal"``).
    display_name : str
        The name people see (``"Primal perceptron"``).
    cls : type
        The estimator class; its keyword-only ``__init__`` takes the parameters
        and its ``validate_params()`` checks them.
    defaults : dict
        Every parameter with the value the workspace starts with.
    steps : bool
        Whether the learner has a step API (a run the timeline can scrub), as
        the perceptrons do; False for learners that are fitted at once (LDA).
    params : tuple of ParamSpec
        Each parameter's kind, range, label and tip
        (:mod:`~perceptron_gui.core.learners.params`): the learner's
        ``validate_params`` checks them, the learner panel builds its controls
        from them.
    """

    key: str
    display_name: str
    cls: type
    defaults: dict
    steps: bool
    params: tuple[ParamSpec, ...] = ()

    def param(self, key: str) -> ParamSpec:
        """The spec of parameter ``key``; KeyError for an unknown one."""
        for spec in self.params:
            if spec.key == key:
                return spec
        raise KeyError(key)

    def create(self, params: dict):
        """A new, unfitted learner with ``params`` (every parameter, as in :attr:`defaults`)."""
        return self.cls(**params)

    def validate(self, params: dict) -> None:
        """Raise ValueError naming the first invalid value of ``params``."""
        self.create(params).validate_params()


REGISTRY: dict[str, LearnerSpec] = {
    spec.key: spec
    for spec in (
        LearnerSpec(
            "primal", "Primal perceptron", PrimalPerceptron,
            {
                "fit_intercept": True,
                "bias_scale": 1.0,
                "learning_rate": 1.0,
                "order": "cyclic",
                "random_state": 0,
                "max_epochs": 1000,
            },
            steps=True, params=PRIMAL,
        ),
        LearnerSpec(
            "dual", "Dual perceptron", DualPerceptron,
            {
                "kernel": "linear",
                "degree": 3,
                "gamma": 1.0,
                "coef0": 1.0,
                "fit_intercept": True,
                "bias_scale": 1.0,
                "order": "cyclic",
                "random_state": 0,
                "max_epochs": 1000,
            },
            steps=True, params=DUAL,
        ),
        LearnerSpec("lda", "LDA", LDA, {"priors": None, "shrinkage": None}, steps=False,
                    params=LDA_PARAMS),
    )
}

#: Learner keys and the names people see.
LEARNERS = {key: spec.display_name for key, spec in REGISTRY.items()}

#: Default parameters of each learner in the window (a fixed seed, so a random
#: order is reproducible from the start).
DEFAULT_PARAMS = {key: spec.defaults for key, spec in REGISTRY.items()}


def get(key: str) -> LearnerSpec:
    """The spec of learner ``key``; ValueError for an unknown key."""
    try:
        return REGISTRY[key]
    except (KeyError, TypeError):
        raise ValueError(f"unknown learner {key!r}; expected one of {sorted(REGISTRY)}") from None
