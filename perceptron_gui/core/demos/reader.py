"""Typed reading of a demo file's fields, with errors that name the file and field."""

from __future__ import annotations

import math
import numbers

import numpy as np

from .. import generators, samples
from ..dataset import Dataset
from ..io import jsonvalues
from ..io.files import MAX_POINTS, FormatError
from ..io.jsonvalues import describe
from ..learners.params import upgrade_names
from ..learners.registry import DEFAULT_PARAMS, LEARNERS
from ..values import check_classes
from ..viewstate import LAYER_SWITCHES


class DemoError(FormatError):
    """A demo file is malformed (or cannot be read); the message names the file and field."""


class UnknownDemoError(DemoError):
    """No demo has the given name; the message lists the names there are."""


class Reader:
    """Validation helpers that raise :class:`DemoError` naming ``source`` and the field."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, where: str, problem: str) -> DemoError:
        return DemoError(f"{self.source}: {where}: {problem}" if where
                         else f"{self.source}: {problem}")

    def _checked(self, check, value, where: str, *args):
        """A check of :mod:`~perceptron_gui.core.io.jsonvalues`, its error naming the file."""
        try:
            return check(value, where, *args)
        except FormatError as exc:
            raise DemoError(f"{self.source}: {exc}") from None

    def object(self, value, where: str) -> dict:
        return self._checked(jsonvalues.strict_object, value, where)

    def fields(self, obj: dict, where: str, allowed, required=()) -> None:
        for key in required:
            if key not in obj:
                raise self.fail(where, f"missing field {key!r}")
        unknown = [k for k in obj if k not in allowed]
        if unknown:
            raise self.fail(join_path(where, unknown[0]),
                            f"unknown field; expected one of {', '.join(allowed)}")

    def string(self, value, where: str, empty: bool = False,
               max_chars: int | None = None) -> str:
        if not isinstance(value, str):
            raise self.fail(where, f"expected a string, got {describe(value)}")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:  # a lone surrogate, "\\ud800" in the JSON
            raise self.fail(where, f"character {exc.start + 1} is a lone surrogate "
                                   f"(U+{ord(value[exc.start]):04X}), not text") from None
        if max_chars is not None and len(value) > max_chars:
            raise self.fail(where, f"{len(value):,} characters are more than the limit of "
                                   f"{max_chars:,}")
        if not empty and not value.strip():
            raise self.fail(where, "must not be empty")
        return value

    def number(self, value, where: str) -> float:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise self.fail(where, f"expected a number, got {describe(value)}")
        try:
            value = float(value)
        except OverflowError:  # an integer beyond float64
            raise self.fail(where, f"expected a finite number, got an integer of "
                                   f"{len(str(abs(value))):,} digits") from None
        if not math.isfinite(value):
            raise self.fail(where, f"expected a finite number, got {value!r}")
        return value

    def integer(self, value, where: str, minimum: int | None = None) -> int:
        return self._checked(jsonvalues.integer, value, where, minimum)

    def boolean(self, value, where: str) -> bool:
        return self._checked(jsonvalues.boolean, value, where)

    def label(self, value, where: str, classes=(-1, 1)) -> int:
        """A point's label: one of ``classes`` (the data's; two: 1 or -1)."""
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) \
                or int(value) not in classes:
            expected = ("1 or -1" if tuple(classes) in ((-1, 1), (1, -1)) else
                        f"one of the classes {', '.join(map(str, classes))}")
            raise self.fail(where, f"expected {expected}, got {describe(value)}")
        return int(value)

    def choice(self, value, where: str, choices) -> str:
        """``value`` when it is one of the strings ``choices``."""
        if not isinstance(value, str) or value not in choices:
            raise self.fail(where, f"expected one of {', '.join(map(repr, choices))}, "
                                   f"got {describe(value)}")
        return value

    def learner(self, value, where: str) -> str:
        return self.choice(value, where, LEARNERS)

    def params(self, key: str, values: dict, where: str) -> dict:
        """Parameters of learner ``key`` under their current names, each one it has."""
        try:
            values, _former = upgrade_names(values)
        except ValueError as exc:
            raise self.fail(where, str(exc)) from None
        for name in values:
            if name not in DEFAULT_PARAMS[key]:
                raise self.fail(join_path(where, name),
                                f"unknown parameter of {LEARNERS[key]}; expected one of "
                                f"{', '.join(DEFAULT_PARAMS[key])}")
        return values

    def layer(self, value, where: str) -> str:
        """A layer switch's name: one of :data:`~perceptron_gui.core.viewstate.LAYER_SWITCHES`."""
        if not isinstance(value, str) or value not in LAYER_SWITCHES:
            raise self.fail(where, f"unknown layer {describe(value)}; expected one of "
                                   f"{', '.join(LAYER_SWITCHES)}")
        return value

    def dataset(self, spec: dict, where: str) -> Dataset:
        """A data set from ``{"points": [...]}``, ``{"generator": NAME, "seed": INT, ...}`` or
        ``{"sample": NAME, "every_class": BOOL}`` (a shipped data set, two of its classes or
        every class)."""
        if sum(key in spec for key in ("points", "generator", "sample")) > 1:
            raise self.fail(where, "give one of 'points', 'generator' and 'sample'")
        if "sample" in spec:
            return self._sample(spec, where)
        if "points" in spec:
            self.fields(spec, where, ("points", "classes", "class_names", "feature_names"))
            classes = self._classes(spec, where)
            points = spec["points"]
            pw = join_path(where, "points")
            if not isinstance(points, list) or not points:
                raise self.fail(pw, f"expected a non-empty list of points, "
                                    f"got {describe(points)}")
            if len(points) > MAX_POINTS:
                raise self.fail(pw, f"{len(points):,} points are more than the limit of "
                                    f"{MAX_POINTS:,}")
            X = np.empty((len(points), 2))
            y = np.empty(len(points), np.int64)
            for i, point in enumerate(points):
                w = f"{pw}[{i}]"
                self.object(point, w)
                self.fields(point, w, ("x", "y", "label"), ("x", "y", "label"))
                X[i] = self.number(point["x"], f"{w}.x"), self.number(point["y"], f"{w}.y")
                y[i] = self.label(point["label"], f"{w}.label", classes)
            try:
                return Dataset(X, y, classes=classes, class_names=spec.get("class_names"),
                               feature_names=spec.get("feature_names"))
            except ValueError as exc:  # names of the wrong number or kind
                raise self.fail(where, str(exc)) from exc
        if "generator" not in spec:
            raise self.fail(where, "missing field 'points' or 'generator'")
        name = spec["generator"]
        if not isinstance(name, str) or name not in generators.GENERATORS:
            raise self.fail(join_path(where, "generator"),
                            f"unknown generator {describe(name)}; expected one of "
                            f"{', '.join(generators.GENERATORS)}")
        params = {k: v for k, v in spec.items() if k != "generator"}
        if "seed" not in params:
            raise self.fail(where, "missing field 'seed' (an integer, so the data are "
                                   "the same every time)")
        self.integer(params["seed"], join_path(where, "seed"), minimum=0)
        n = params.get("n")
        if isinstance(n, numbers.Integral) and not isinstance(n, bool) and n > MAX_POINTS:
            raise self.fail(join_path(where, "n"), f"{n:,} points are more than the limit "
                                                   f"of {MAX_POINTS:,}")
        allowed = generators.generator_parameters(name)
        for key in params:
            if key not in allowed:
                raise self.fail(join_path(where, key), f"unknown parameter of generator "
                                                   f"{name!r}; expected one of "
                                                   f"{', '.join(allowed)}")
        try:
            return generators.generate(name, **params)
        except (TypeError, ValueError) as exc:
            raise self.fail(where, str(exc)) from exc

    def _classes(self, spec: dict, where: str) -> tuple[int, ...]:
        """The data's classes: ``spec["classes"]`` (2 to 8 integers), else -1 and +1."""
        if "classes" not in spec:
            return (-1, 1)
        raw = spec["classes"]
        cw = join_path(where, "classes")
        if not isinstance(raw, list) or not all(isinstance(c, int) and not isinstance(c, bool)
                                                for c in raw):
            raise self.fail(cw, f"expected a list of integer labels, got {describe(raw)}")
        try:
            return check_classes(raw)
        except ValueError as exc:
            raise self.fail(cw, str(exc)) from exc

    def _sample(self, spec: dict, where: str) -> Dataset:
        self.fields(spec, where, ("sample", "every_class"), ("sample",))
        name = spec["sample"]
        if not isinstance(name, str) or name not in samples.SAMPLES:
            raise self.fail(join_path(where, "sample"),
                            f"unknown sample {describe(name)}; expected one of "
                            f"{', '.join(samples.SAMPLES)}")
        every = self.boolean(spec.get("every_class", False), join_path(where, "every_class"))
        try:
            return samples.load(name, all_classes=every)[0]
        except (OSError, ValueError) as exc:  # a damaged installation
            raise self.fail(where, f"the sample {name!r} cannot be read: {exc}") from exc


def join_path(where: str, key) -> str:
    return f"{where}.{key}" if where else str(key)
