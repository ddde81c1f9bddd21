"""Writing a demo back to its file format: ``parse_demo(dumps_demo(d))`` is ``d`` again.

Always in the current :data:`~.format.VERSION`, so an older demo is written as
a newer one.
"""

from __future__ import annotations

import json

from ..dataset import Dataset
from .format import FORMAT, VERSION, Demo, DemoStep

__all__ = ["demo_to_dict", "dumps_demo", "file_head", "points_spec", "step_to_dict",
           "with_caption"]


def points_spec(dataset: Dataset) -> dict:
    """``{"points": [{"x", "y", "label"}, ...]}``, the ``data`` of a demo, with the classes
    when there are more than two, and the names of the classes and features it has."""
    X, y = dataset.X, dataset.y
    out: dict = {"points": [{"x": float(a), "y": float(b), "label": int(c)}
                            for (a, b), c in zip(X.tolist(), y.tolist(), strict=True)]}
    if not dataset.is_binary:
        out["classes"] = [int(c) for c in dataset.classes]
    if dataset.class_names is not None:
        out["class_names"] = list(dataset.class_names)
    if dataset.feature_names is not None:
        out["feature_names"] = list(dataset.feature_names)
    return out


def step_to_dict(step: DemoStep) -> dict:
    if step.action == "command":
        out: dict = {"command": dict(step.args)}
    else:
        out = {"action": step.action, **step.args}
    return with_caption(out, step.caption, step.checks)


def with_caption(step: dict, caption: str, checks: dict) -> dict:
    """``step`` with its ``caption``, and its ``checks`` if any, as the file writes them."""
    step["caption"] = caption
    if checks:
        step["checks"] = dict(checks)
    return step


def file_head(title: str, description: str, order: int | None) -> dict:
    """The fields a demo file starts with, in the current version."""
    out: dict = {"format": FORMAT, "version": VERSION}
    if order is not None:
        out["order"] = order
    out.update(title=title, description=description)
    return out


def demo_to_dict(demo: Demo) -> dict:
    out = file_head(demo.title, demo.description, demo.order)
    out["data"] = dict(demo.data_spec) if demo.data_spec is not None else points_spec(
        demo.dataset)
    out["learner"] = demo.learner
    if demo.params:
        out["params"] = {key: dict(values) for key, values in demo.params.items()}
    if demo.layers:
        out["layers"] = dict(demo.layers)
    if demo.views:
        out["views"] = list(demo.views)
    elif demo.views_shown is not None:
        out["views"] = demo.views_shown
    out["steps"] = [step_to_dict(step) for step in demo.steps]
    return out


def dumps_demo(demo: Demo) -> str:
    """The text of ``demo``'s file: JSON, one step a line, UTF-8 characters kept."""
    data = demo_to_dict(demo)
    steps = data.pop("steps")
    head = json.dumps(data, ensure_ascii=False, indent=2)
    body = ",\n".join("    " + json.dumps(s, ensure_ascii=False) for s in steps)
    return head[:-2] + ',\n  "steps": [\n' + body + "\n  ]\n}\n"
