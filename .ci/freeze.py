"""Print the constraints file: the installed version of every distribution the project pulls in.

The distributions are those that ``pyproject.toml``'s dependencies and its ``test``
extra require, followed through their own requirements (with the markers of this
interpreter and platform), each pinned to the version installed in the running
environment.  ``make constraints`` writes the result to ``.ci/constraints.txt``,
which ``make run`` and ``make test`` install with (``pip install -c``).
"""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
EXTRAS = ("test",)


def direct_requirements(pyproject: Path = ROOT / "pyproject.toml") -> list[Requirement]:
    """The project's dependencies and those of its extras in ``EXTRAS``."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    lines = list(project["dependencies"])
    for extra in EXTRAS:
        lines += project["optional-dependencies"][extra]
    return [Requirement(line) for line in lines]


def _applies(req: Requirement, extras: frozenset[str]) -> bool:
    if req.marker is None:
        return True
    return any(req.marker.evaluate({"extra": extra}) for extra in extras or {""})


def pulled_in(requirements: list[Requirement]) -> dict[str, metadata.Distribution]:
    """Every installed distribution ``requirements`` pull in, by canonical name.

    Raises
    ------
    metadata.PackageNotFoundError
        If a distribution required here is not installed: the environment
        cannot speak for it.
    """
    found: dict[str, metadata.Distribution] = {}
    todo = [req for req in requirements if _applies(req, frozenset())]
    seen: set[tuple[str, frozenset[str]]] = set()
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        extras = frozenset(req.extras)
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        dist = found.get(name) or metadata.distribution(req.name)
        found[name] = dist
        for line in dist.requires or []:
            sub = Requirement(line)
            if _applies(sub, extras):
                todo.append(sub)
    return found


def constraints_text(found: dict[str, metadata.Distribution]) -> str:
    """The constraints file: a header, then ``name==version`` a line, sorted by name."""
    header = [
        "# The versions the test suite passed with (`make constraints`, from the",
        "# environment the suite ran in): `make test` and `make run` install with",
        "# `pip install -c` this file; `make test CONSTRAINTS=` installs the newest.",
        f"# Python {sys.version_info.major}.{sys.version_info.minor}, {sys.platform}.",
    ]
    pins = [f"{name}=={found[name].version}" for name in sorted(found)]
    return "\n".join(header + pins) + "\n"


if __name__ == "__main__":
    sys.stdout.write(constraints_text(pulled_in(direct_requirements())))
