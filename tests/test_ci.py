"""How CI runs the suite: `.ci/run` → `make test`, pinned, on every core, in random order."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ROOT / ".ci" / "constraints.txt"

needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _clean_env(**extra) -> dict[str, str]:
    """This environment without what ``make`` or pytest pass their children."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "CONSTRAINTS", "JOBS",
                        "PYTEST_ADDOPTS", "PYTEST_CURRENT_TEST"}
           and not k.startswith("PYTEST_XDIST")}
    env.update(extra)
    return env


def _make(*args: str) -> str:
    """What ``make`` would run (``-n``), every target taken as out of date (``-B``)."""
    out = subprocess.run(["make", "-n", "-B", "-C", str(ROOT), *args], capture_output=True,
                         text=True, timeout=60, check=True, env=_clean_env())
    return out.stdout


def _line(text: str, *words: str) -> str:
    lines = [line for line in text.splitlines() if all(w in line for w in words)]
    assert len(lines) == 1, (words, text)
    return lines[0]


def _freeze():
    spec = importlib.util.spec_from_file_location("ci_freeze", ROOT / ".ci" / "freeze.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pins() -> dict[str, Version]:
    pins = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep and name and version, f"not name==version: {line!r}"
            pins[canonicalize_name(name)] = Version(version)
    return pins


@needs_make
def test_make_test_installs_the_pinned_versions_and_uses_every_core():
    plan = _make("test")
    assert "-c .ci/constraints.txt" in _line(plan, "pip install", "-e")
    assert " -n auto" in _line(plan, "-m pytest", "not serial")
    assert " -n 0" in _line(_make("test", "JOBS=0"), "-m pytest", "not serial")


@needs_make
def test_make_test_runs_the_timing_sensitive_tests_alone_after_the_rest():
    lines = [line for line in _make("test").splitlines() if "-m pytest" in line]
    assert len(lines) == 2, lines
    parallel, alone = lines
    assert '-m "not serial"' in parallel and " -n " in parallel
    assert "-m serial" in alone and "-p no:xdist" in alone and " -n " not in alone
    assert not any("slow" in line for line in lines)  # the slow ones run too


@needs_make
def test_make_test_without_constraints_installs_the_newest():
    install = _line(_make("test", "CONSTRAINTS="), "pip install", "-e").split()
    assert "-c" not in install
    assert "--upgrade" in install and "eager" in install


@needs_make
def test_a_changed_constraints_file_reinstalls():
    rules = subprocess.run(["make", "-p", "-n", "-B", "-C", str(ROOT), "test"],
                           capture_output=True, text=True, timeout=60, check=True,
                           env=_clean_env()).stdout
    stamp = _line(rules, ".venv/.installed", ": pyproject.toml")
    assert stamp.split(":", 1)[1].split() == ["pyproject.toml", ".ci/constraints.txt"]


def test_constraints_pin_every_requirement_inside_its_range():
    freeze = _freeze()
    pins = _pins()
    direct = freeze.direct_requirements()
    assert {"pytest-xdist", "pytest-randomly"} <= {canonicalize_name(r.name) for r in direct}
    for req in direct:
        name = canonicalize_name(req.name)
        assert name in pins, f"{req} is not pinned in {CONSTRAINTS.name}"
        assert req.specifier.contains(pins[name], prereleases=True), (
            f"pyproject.toml asks {req}, the suite passed with {pins[name]}")


def test_constraints_name_all_that_the_pinned_environment_pulls_in():
    """Installed with the constraints, every distribution pulled in is pinned, as installed."""
    freeze = _freeze()
    found = freeze.pulled_in(freeze.direct_requirements())
    pins = _pins()
    direct = {canonicalize_name(r.name) for r in freeze.direct_requirements()}
    if any(Version(found[name].version) != pins[name] for name in direct):
        pytest.skip("installed without the constraints (make test CONSTRAINTS=)")
    assert set(found) <= set(pins), sorted(set(found) - set(pins))
    for name, dist in found.items():
        assert Version(dist.version) == pins[name], name
    assert freeze.constraints_text(found).splitlines()[-len(found):] == [
        f"{name}=={found[name].version}" for name in sorted(found)]


def test_the_seed_of_the_random_order_is_printed_under_q():
    this = f"{Path(__file__).name}::test_constraints_pin_every_requirement_inside_its_range"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "--randomly-seed=1234", f"tests/{this}"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, env=_clean_env())
    lines = run.stdout.strip().splitlines()
    assert run.returncode == 0, run.stdout + run.stderr
    assert lines[-2:] == ["random order: --randomly-seed=1234", lines[-1]]
    assert re.fullmatch(r"1 passed in [\d.]+s", lines[-1])


@pytest.mark.parametrize("status", [0, 1])
def test_ci_run_ends_with_make_test_and_its_status(tmp_path, status):
    """``.ci/run`` (as a user, so no apt-get) prints ``make test``'s last line and exits with it."""
    (tmp_path / "id").write_text("#!/bin/sh\necho 1000\n")
    (tmp_path / "make").write_text(
        f'#!/bin/sh\necho "make $*"\necho "3 passed, {status} failed in 0.01s"\nexit {status}\n')
    for stub in ("id", "make"):
        (tmp_path / stub).chmod(0o755)
    run = subprocess.run(["bash", str(ROOT / ".ci" / "run")], capture_output=True, text=True,
                         timeout=60,
                         env=_clean_env(PATH=f"{tmp_path}{os.pathsep}{os.environ['PATH']}"))
    lines = run.stdout.strip().splitlines()
    assert run.returncode == status
    assert lines[-2].startswith("make test")
    assert lines[-1] == f"3 passed, {status} failed in 0.01s"
