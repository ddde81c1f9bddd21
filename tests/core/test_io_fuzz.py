"""Fuzzing the readers: every mutated file loads or raises FormatError, nothing else.

Valid workspace and CSV files are mutated at the byte level (truncation, byte
flips, inserted garbage and tokens, deleted and duplicated ranges) and at the
structure level (JSON fields deleted, renamed or replaced by arbitrary JSON
values; CSV cells replaced, rows dropped, duplicated or given extra cells).
For every input the reader must return a workspace / data set, or raise
:class:`~perceptron_gui.core.io.FormatError` with a foreseen message (never the
"internal error" backstop). Whatever loads must also survive a save and load
unchanged, and for CSV the fast and the csv-module paths must agree.

CI runs a fixed, derandomized number of examples per test (default 100). For a
long run set ``PERCEPTRON_GUI_FUZZ_EXAMPLES``, e.g.::

    PERCEPTRON_GUI_FUZZ_EXAMPLES=5000 .venv/bin/python -m pytest -q tests/core/test_io_fuzz.py
"""

from __future__ import annotations

import json
import os
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from perceptron_gui.core import Dataset, Workspace, io
from perceptron_gui.core.io import Cancelled, FormatError

EXAMPLES = int(os.environ.get("PERCEPTRON_GUI_FUZZ_EXAMPLES", "100"))
FUZZ = settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TIME_BUDGET = 10.0  # seconds per load before the test calls it a hang


# ----------------------------------------------------------------------------- seeds


def _workspace_seeds() -> list[bytes]:
    rng = np.random.default_rng(0)
    X = rng.uniform(-3, 3, size=(14, 2))
    y = np.where(X[:, 0] + 0.3 * X[:, 1] > 0.1, 1, -1)
    seeds = []
    ws = Workspace(Dataset(X, y))
    ws.set_params(bias_scale=1.5)
    ws.advance(9)
    ws.view = (-4.0, 4.0, -3.5, 3.5)
    seeds.append(io.workspace_to_json(ws))
    ws = Workspace(Dataset(X, np.where(X[:, 0] ** 2 + X[:, 1] ** 2 > 2, 1, -1)), learner="dual")
    ws.set_params(kernel="rbf", gamma=0.5, order="random", random_state=3)
    ws.advance(20)
    seeds.append(io.workspace_to_json(ws))
    ws = Workspace(Dataset(X, y), learner="lda")
    ws.set_params(shrinkage=0.1, priors=[0.4, 0.6])
    seeds.append(io.workspace_to_json(ws))
    seeds.append(io.workspace_to_json(Workspace(Dataset([[0.0, -0.0], [1e-300, 5e-324]],
                                                        [1, 1]))))
    seeds.append(io.workspace_to_json(Workspace()))
    return [s.encode() for s in seeds]


CSV_SEEDS = [
    b"x,y,label\n0.5,1.25,1\n-1.0,2.0,-1\n3.0,-0.75,1\n1e-3,4e2,-1\n",
    b"x,y,label\n0,1,0\n1,0,1\n2,2,1\n-1,-1,0\n",
    b"label,X,Y\r\ncat,1.5,2\r\ndog,-3,4.25\r\ncat,0,0\r\n",
    b'\xef\xbb\xbfx,y,label\n1,2,"class A, left"\n"3",4,class B\n\n5,6,"class A, left"\n',
    b"x,y,label\n" + b"".join(f"{i * 0.37!r},{-i / 7!r},{(-1) ** i}\n".encode()
                              for i in range(25)),
]
WS_SEEDS = _workspace_seeds()
TOKENS = [b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-1e400", b"1" * 30, b"9" * 400,
          b'"', b",", b"\n", b"\r", b"{", b"}", b"[", b"]", b":", b"\x00", b"\xff", b"\xe9",
          b"\xef\xbb\xbf", b"-", b"+", b".", b"e", b"null", b"true", b"0", b"-0.0", b"nan",
          b"inf", b" ", b"\t", b";", '\u00e9'.encode(), b'"x"', b'"label"', b'"step"']


@st.composite
def byte_mutations(draw, seeds):
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3, 4]))):  # mostly a single change
        n = len(data)
        kind = draw(st.sampled_from(["truncate", "flip", "insert", "token", "delete",
                                     "duplicate", "digit"]))
        if kind == "truncate":
            del data[draw(st.integers(0, n)):]
        elif kind == "flip" and n:
            data[draw(st.integers(0, n - 1))] ^= draw(st.integers(1, 255))
        elif kind == "insert":
            i = draw(st.integers(0, n))
            data[i:i] = draw(st.binary(min_size=1, max_size=6))
        elif kind == "token":
            i = draw(st.integers(0, n))
            data[i:i] = draw(st.sampled_from(TOKENS))
        elif kind == "delete" and n:
            i = draw(st.integers(0, n - 1))
            del data[i:i + draw(st.integers(1, 12))]
        elif kind == "duplicate" and n:
            i = draw(st.integers(0, n - 1))
            chunk = data[i:i + draw(st.integers(1, 40))]
            j = draw(st.integers(0, n))
            data[j:j] = chunk
        elif kind == "digit":
            digits = [i for i, b in enumerate(data) if chr(b) in "0123456789"]
            if digits:
                data[draw(st.sampled_from(digits))] = ord(draw(st.sampled_from("0123456789-+.eE")))
    return bytes(data)


json_values = st.recursive(
    st.none() | st.booleans() | st.floats() | st.text(max_size=8)
    | st.integers(-(2**70), 2**70) | st.integers(-3, 3000)
    | st.sampled_from([0, 1, -1, 0.5, 1.0, -0.0, 1e308, 5e-324, 10**400, "primal", "dual", "lda",
                       "rbf", "poly", "linear", "random", "cyclic", "auto", "x", "y", "label",
                       "perceptron-gui-workspace"])
    | st.sampled_from([(0.5, 0.5), (-1, 1, -1, 1)]).map(list),  # a fresh list each time
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.text(max_size=6) | st.sampled_from(["x", "y", "label", "step"]),
                      children, max_size=3),
    max_leaves=6,
)


def _paths(doc, prefix=()):
    """Every (container path, key) in a JSON document."""
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield prefix, key
            yield from _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield prefix, i
            yield from _paths(value, (*prefix, i))


@st.composite
def json_mutations(draw):
    doc = json.loads(draw(st.sampled_from(WS_SEEDS)))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(doc))
        if not paths:
            break
        where, key = draw(st.sampled_from(paths))
        parent = doc
        for step in where:
            parent = parent[step]
        kind = draw(st.sampled_from(["delete", "replace", "replace", "rename"]))
        if kind == "delete":
            del parent[key]
        elif kind == "replace":
            parent[key] = draw(json_values)
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=6) | st.sampled_from(["x", "label", "format"]))] = \
                parent.pop(key)
    return json.dumps(doc)  # NaN and infinities become the NaN/Infinity literals


cells = st.sampled_from(["", " ", "abc", "nan", "inf", "-inf", "1e400", "0", "1", "-1", "2",
                         "0.5", "-0.0", "1_000", "0x10", "dog", "cat", '"q"', "1,5", " 7 "]) \
    | st.text(max_size=6) | st.floats().map(repr)


@st.composite
def csv_mutations(draw):
    text = draw(st.sampled_from(CSV_SEEDS)).decode("utf-8-sig")
    rows = [line.split(",") for line in text.replace("\r\n", "\n").split("\n")]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(rows) - 1))
        kind = draw(st.sampled_from(["cell", "cell", "drop", "dup", "extra", "short", "blank"]))
        if kind == "cell" and rows[i]:
            rows[i][draw(st.integers(0, len(rows[i]) - 1))] = draw(cells)
        elif kind == "drop":
            rows.pop(i)
            if not rows:
                rows.append([])
        elif kind == "dup":
            rows.insert(draw(st.integers(0, len(rows))), list(rows[i]))
        elif kind == "extra":
            rows[i].append(draw(cells))
        elif kind == "short" and rows[i]:
            rows[i].pop()
        elif kind == "blank":
            rows.insert(i, [draw(st.sampled_from(["", " ", "\t"]))])
    return "\n".join(",".join(r) for r in rows)


# ----------------------------------------------------------------------------- checks


@pytest.fixture(scope="module")
def scratch():
    with tempfile.TemporaryDirectory(prefix="io-fuzz-") as tmp:
        yield Path(tmp)


def _deadline():
    start = time.perf_counter()
    return lambda fraction: time.perf_counter() - start < TIME_BUDGET


def _expect_format_error_or(load):
    """Run ``load()``; return its result, or None after a foreseen FormatError.

    Numeric warnings are recorded, not raised: extreme but finite values (a
    learning rate of 1e308, coordinates near 1e308) overflow in the run's
    arithmetic, which in the program is a RuntimeWarning, not an exception
    (this suite's configuration would otherwise turn it into one).
    """
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", RuntimeWarning)
            result = load()
        if any(issubclass(w.category, RuntimeWarning) for w in caught):
            event("loaded with a numeric RuntimeWarning")
    except FormatError as exc:
        assert "internal error" not in str(exc), str(exc)
        assert str(exc)
        event("FormatError")
        return None
    except Cancelled:  # pragma: no cover - only when a load exceeds the time budget
        pytest.fail(f"a load took longer than {TIME_BUDGET} s")
    event("loaded")
    return result


def _check_workspace(ws) -> None:
    if ws is None:
        return
    assert isinstance(ws, Workspace)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        again = io.workspace_from_json(io.workspace_to_json(ws), _deadline())
    assert again.dataset == ws.dataset
    assert again.learner_name == ws.learner_name
    assert again.all_params() == ws.all_params()
    assert again.view == ws.view and again.step_count == ws.step_count


def _check_csv(result) -> None:
    if result is None:
        return
    ds, mapping = result
    assert isinstance(ds, Dataset) and ds.n > 0
    assert 1 <= len(mapping) <= 2 and set(mapping.values()) <= {-1, 1}
    assert set(ds.y.tolist()) == set(mapping.values())
    assert np.isfinite(ds.X).all()


# ----------------------------------------------------------------------------- tests


@FUZZ
@given(byte_mutations(WS_SEEDS))
def test_mutated_workspace_bytes_load_or_raise_format_error(scratch, data):
    path = scratch / "w.json"
    path.write_bytes(data)
    _check_workspace(_expect_format_error_or(lambda: io.load_workspace(path, _deadline())))


@FUZZ
@given(json_mutations())
def test_mutated_workspace_fields_load_or_raise_format_error(text):
    _check_workspace(_expect_format_error_or(lambda: io.workspace_from_json(text, _deadline())))


@FUZZ
@given(byte_mutations(CSV_SEEDS))
def test_mutated_csv_bytes_load_or_raise_format_error(scratch, data):
    path = scratch / "p.csv"
    path.write_bytes(data)
    result = _expect_format_error_or(lambda: io.read_csv_with_mapping(path, _deadline()))
    _check_csv(result)
    event("FormatError" if result is None else "loaded")


@FUZZ
@given(csv_mutations())
def test_mutated_csv_cells_load_or_raise_format_error(scratch, text):
    path = scratch / "c.csv"
    path.write_text(text, encoding="utf-8")
    _check_csv(_expect_format_error_or(lambda: io.read_csv_with_mapping(path, _deadline())))


@FUZZ
@given(json_values)
def test_arbitrary_json_documents_raise_format_error(doc):
    text = json.dumps(doc)
    assert _expect_format_error_or(lambda: io.workspace_from_json(text)) is None
