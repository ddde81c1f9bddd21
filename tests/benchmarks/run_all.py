"""Run every benchmark of this folder and summarise their ratios.

Each ``bench_*.py`` beside this file follows one convention:

- ``run(quick: bool = False) -> dict`` measures and returns a JSON-ready dict;
  ``quick=True`` uses small sizes (the smoke test calls it);
- optionally ``format_table(result) -> str`` (a readable table) and
  ``write_json(result) -> Path`` (the result beside the script);
- the ratios to summarise are in ``result["ratios"]``, a mapping from a label
  to ``{"value": float, "goal": float | None}`` (``value <= goal`` meets the
  goal; ``None``: shown for context).  A plain number is a ratio whose goal
  is the result's top-level ``"goal_ratio"`` (or ``"goal"``), if any.  A result
  without ``"ratios"`` is summarised by its top-level numeric keys whose name
  contains ``ratio``.

A ``run`` without a ``quick`` parameter is called with no arguments (and
skipped by ``--quick``); one with a ``write`` parameter writes its own JSON.

Usage::

    python tests/benchmarks/run_all.py [--quick] [NAME ...]

``NAME`` selects benchmarks by substring (``dual`` runs ``bench_dual.py``).
``make bench`` runs them all.  Goals are reported, not enforced (speed is
measured, not asserted); the exit status is 1 only when a benchmark fails,
for instance when our weights are not identical to scikit-learn's.
"""

from __future__ import annotations

import datetime
import importlib.util
import inspect
import json
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent


def discover(names=()) -> list[Path]:
    """The ``bench_*.py`` scripts of this folder, sorted, filtered by substrings."""
    paths = sorted(HERE.glob("bench_*.py"))
    if names:
        paths = [p for p in paths if any(n in p.stem for n in names)]
    return paths


def load(path: Path):
    """Import a benchmark script by path (it need not be on ``sys.path``)."""
    name = f"_benchmarks_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def ratios_of(result: dict) -> list[tuple[str, float, float | None]]:
    """``(label, value, goal)`` for every ratio in a benchmark's result."""
    def number(v):
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    default_goal = next(
        (float(result[k]) for k in ("goal_ratio", "goal") if number(result.get(k))), None
    )
    out = []
    found = result.get("ratios")
    if isinstance(found, dict):
        for label, r in found.items():
            if isinstance(r, dict) and number(r.get("value")):
                out.append((str(label), float(r["value"]), r.get("goal")))
            elif number(r):
                out.append((str(label), float(r), default_goal))
        return out
    for key, value in result.items():
        if "ratio" in key and key not in ("goal_ratio",) and number(value):
            out.append((key, float(value), default_goal))
    return out


def summary(rows: list[tuple[str, str, float, float | None]]) -> str:
    """Table of ``(benchmark, label, value, goal)`` rows."""
    if not rows:
        return "no ratios"
    width = max(len(f"{b}: {label}") for b, label, _, _ in rows)
    lines = [f"{'ratio'.ljust(width)}   value    goal", "-" * (width + 22)]
    for bench, label, value, goal in rows:
        if goal is None:
            goal_s, status = "", "context"
        else:
            goal_s, status = f"<= {goal:g}", "met" if value <= goal else "MISSED"
        lines.append(f"{f'{bench}: {label}'.ljust(width)}  {value:6.2f}  {goal_s:>6}  {status}")
    return "\n".join(lines)


def _write(module, path: Path, result: dict) -> Path:
    if hasattr(module, "write_json"):
        return module.write_json(result)
    out = HERE / f"{path.stem}{'.quick' if result.get('quick') else ''}.json"
    out.write_text(json.dumps(result, indent=2, default=str) + "\n")
    return out


def main(argv=None) -> int:
    """Run the selected benchmarks, print their tables and the summary; 1 on failure."""
    args = list(sys.argv[1:] if argv is None else argv)
    quick = "--quick" in args
    names = [a for a in args if not a.startswith("-")]
    paths = discover(names)
    rows, failed = [], []
    started = time.perf_counter()
    for path in paths:
        print(f"=== {path.name}{' (quick)' if quick else ''}", flush=True)
        try:
            module = load(path)
            params = inspect.signature(module.run).parameters
            if "quick" in params:
                kwargs = {"quick": quick}
            elif quick:
                print("(skipped: its run() has no quick mode)\n")
                continue
            else:
                kwargs = {}
            t = time.perf_counter()
            result = module.run(**kwargs)
            took = time.perf_counter() - t
            if hasattr(module, "format_table"):
                print(module.format_table(result))
            else:
                print(json.dumps(result, indent=2, default=str))
            if "write" in params:
                written = "JSON written by the benchmark itself"
            else:
                written = f"written to {_write(module, path, result)}"
            print(f"({took:.1f} s; {written})\n", flush=True)
            rows += [(path.stem, *r) for r in ratios_of(result)]
        except Exception:
            traceback.print_exc()
            print(f"FAILED: {path.name}\n", flush=True)
            failed.append(path.name)
    print(f"=== summary ({len(paths)} benchmarks, {time.perf_counter() - started:.1f} s)")
    print(summary(rows))
    for name in failed:
        print(f"FAILED: {name}")
    stamp = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    (HERE / f"run_all{'.quick' if quick else ''}.json").write_text(json.dumps({
        "timestamp": stamp,
        "quick": quick,
        "benchmarks": [p.stem for p in paths],
        "failed": failed,
        "ratios": [{"benchmark": b, "label": lab, "value": v, "goal": g}
                   for b, lab, v, g in rows],
    }, indent=2) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
