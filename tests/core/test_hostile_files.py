"""Every core reader answers a hostile file at once with a one-line FormatError.

FIFOs, directories and devices are refused before they are opened; JSON
nested 100,000 deep and 5,000-digit integers are placed by line and column;
UTF-32 is named; over-long labels are refused. Each FIFO call runs in a
thread with a time limit, so a regression fails instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import stat
import time

import pytest

from perceptron_gui.core import demos, io
from perceptron_gui.core.io import FormatError, files
from perceptron_gui.core.sources import load_source
from tests.hostile import make_fifo, needs_fifo, outcome

DEMO = {
    "format": "perceptron-gui-demo", "version": 1, "title": "T", "description": "D",
    "data": {"points": [{"x": 3, "y": 1, "label": 1}, {"x": -1, "y": 0, "label": -1}]},
    "learner": "primal", "steps": [{"action": "step", "caption": "c"}],
}

READERS = {
    "load_workspace": io.load_workspace,
    "read_csv": io.read_csv,
    "read_csv_with_mapping": io.read_csv_with_mapping,
    "load_demo": demos.load_demo,
    "load_source": load_source,
}


@needs_fifo
@pytest.mark.parametrize("reader", list(READERS))
@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_a_fifo_is_refused_at_once(tmp_path, reader, suffix):
    fifo = make_fifo(tmp_path / f"pipe{suffix}")
    started = time.perf_counter()
    error = outcome(lambda: READERS[reader](fifo), fifo)
    assert isinstance(error, FormatError), error
    assert "is not a regular file (a FIFO)" in str(error)
    assert "\n" not in str(error)
    assert time.perf_counter() - started < 5


@needs_fifo
def test_a_symbolic_link_to_a_fifo_is_refused(tmp_path):
    fifo = make_fifo(tmp_path / "pipe")
    link = tmp_path / "points.json"
    link.symlink_to(fifo)
    error = outcome(lambda: io.load_workspace(link), fifo)
    assert isinstance(error, FormatError) and "(a FIFO)" in str(error)


@needs_fifo
def test_a_fifo_swapped_in_after_the_stat_is_refused_too(tmp_path, monkeypatch):
    """The open itself does not block and checks the kind again (no race window)."""
    fifo = make_fifo(tmp_path / "pipe.json")
    regular = os.stat(__file__)
    real_stat = os.stat
    monkeypatch.setattr(files.os, "stat",
                        lambda p, *a, **k: regular if os.fspath(p) == fifo else real_stat(p))
    error = outcome(lambda: files.read_bytes(fifo, None, 1.0), fifo)
    assert isinstance(error, FormatError) and "(a FIFO)" in str(error)


@pytest.mark.parametrize("reader", list(READERS))
def test_a_directory_is_refused(tmp_path, reader):
    folder = tmp_path / "data.json"
    folder.mkdir()
    with pytest.raises(FormatError, match=r"is not a regular file \(a directory\)"):
        READERS[reader](folder)


@pytest.mark.skipif(not (os.path.exists(os.devnull)
                         and stat.S_ISCHR(os.stat(os.devnull).st_mode)),
                    reason="no character device to read")
def test_a_device_is_refused():
    for reader in (io.load_workspace, io.read_csv):
        error = outcome(lambda r=reader: r(os.devnull))
        assert isinstance(error, FormatError)
        assert "is not a regular file (a character device)" in str(error)


def test_regular_files_still_read(tmp_path):
    path = tmp_path / "ok.csv"
    path.write_text("x,y,label\n1,2,a\n3,4,b\n", encoding="utf-8")
    assert io.read_csv(path).n == 2
    demo = tmp_path / "mine.json"
    demo.write_text(json.dumps(DEMO), encoding="utf-8")
    assert demos.load_demo(demo).title == "T"


# ----------------------------------------------------------------------------- JSON


NESTED = "[" * 100_000


def test_deep_json_names_the_place_in_every_json_reader(tmp_path):
    path = tmp_path / "nested.json"
    path.write_text(NESTED, encoding="utf-8")
    message = "invalid JSON: nested too deeply (line 1, column 101)"
    for reader in (io.load_workspace, demos.load_demo, load_source):
        with pytest.raises(FormatError) as info:
            reader(path)
        assert message in str(info.value), reader
    with pytest.raises(FormatError, match=r"^invalid JSON: nested too deeply \(line 1"):
        io.workspace_from_json(NESTED)
    with pytest.raises(demos.DemoError, match=r"^x.json: invalid JSON: nested too deeply"):
        demos.parse_demo(NESTED, name="x")


def test_deep_json_names_the_line():
    text = '{"a":\n' + '  {"b":\n' * 3 + "[\n" * 5_000
    with pytest.raises(FormatError) as info:
        io.workspace_from_json(text)
    # the 100th level opens on line 101 (line 1 opens level 1, lines 2-4 levels 2-4)
    assert str(info.value) == "invalid JSON: nested too deeply (line 101, column 1)"


def test_deep_json_inside_strings_is_not_nesting():
    text = '{"caption": "' + "[" * 500 + '", "x": ' + "[" * 100_000
    # level 1 opens at column 1, level 2 at column 522, level 101 at column 621
    with pytest.raises(FormatError, match=r"nested too deeply \(line 1, column 621\)"):
        io.workspace_from_json(text)


def test_list_demos_survives_a_nested_and_a_fifo_demo(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps({**DEMO, "order": 1}), encoding="utf-8")
    (tmp_path / "nested.json").write_text(NESTED, encoding="utf-8")
    if hasattr(os, "mkfifo"):
        make_fifo(tmp_path / "pipe.json")
    names = outcome(lambda: demos.list_demos(tmp_path), str(tmp_path / "pipe.json"))
    assert names == ["a", "nested"]


def test_a_5000_digit_integer_is_too_long_with_its_place(tmp_path):
    digits = "7" * 5000
    text = ('{"format": "perceptron-gui-workspace",\n "version": 1,\n'
            f' "points": [{{"x": {digits}, "y": 0, "label": 1}}]}}')
    expected = ("invalid JSON: a number of 5,000 digits is too long, the limit is 4,300 "
                "(line 3, column 19)")
    with pytest.raises(FormatError) as info:
        io.workspace_from_json(text)
    assert str(info.value) == expected
    assert "Exceeds the limit" not in str(info.value)
    demo = json.dumps(DEMO, indent=1).replace('"x": 3', f'"x": {digits}')
    path = tmp_path / "digits.json"
    path.write_text(demo, encoding="utf-8")
    with pytest.raises(demos.DemoError) as info:
        demos.load_demo(path)
    line = demo[:demo.index(digits)].count("\n") + 1
    assert str(info.value).startswith("digits.json: invalid JSON: a number of 5,000 digits "
                                      "is too long")
    assert f"(line {line}, column " in str(info.value)


def test_a_negative_long_integer_and_a_long_float_mantissa():
    with pytest.raises(FormatError, match="a number of 4,301 digits is too long"):
        io.workspace_from_json('{"points": [-' + "1" * 4301 + "]}")
    # a float of many digits is read (as float() does) and then judged by range
    ws = ('{"format": "perceptron-gui-workspace", "version": 1, "learner": "primal", '
          '"points": [{"x": 0.' + "1" * 5000 + ', "y": 0, "label": 1}]}')
    assert io.workspace_from_json(ws).dataset.n == 1


# ----------------------------------------------------------------------------- encodings


@pytest.mark.parametrize("encoding, name", [
    ("utf-32", "UTF-32"), ("utf-32-le", "UTF-32"), ("utf-32-be", "UTF-32"),
    ("utf-16", "UTF-16"), ("utf-16-le", "UTF-16"), ("utf-16-be", "UTF-16"),
])
def test_wide_encodings_are_named(tmp_path, encoding, name):
    csv_path = tmp_path / "points.csv"
    csv_path.write_bytes("x,y,label\n1,2,1\n".encode(encoding))
    with pytest.raises(FormatError, match=f"^the file is {name} text; save it as UTF-8$"):
        io.read_csv(csv_path)
    demo_path = tmp_path / "demo.json"
    demo_path.write_bytes(json.dumps(DEMO).encode(encoding))
    with pytest.raises(demos.DemoError, match=f"^demo.json: the file is {name} text"):
        demos.load_demo(demo_path)


# ----------------------------------------------------------------------------- labels


def test_a_ten_million_character_label_is_refused_with_its_line(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("x,y,label\n1,2,cat\n3,4," + "d" * 10_000_000 + "\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        io.read_csv_with_mapping(path)
    assert str(info.value) == ("line 3, column 'label': a label of 10,000,000 characters is "
                               "too long (at most 200)")


def test_a_label_at_the_cap_is_accepted(tmp_path):
    path = tmp_path / "ok.csv"
    label = "c" * files.MAX_LABEL_CHARS
    path.write_text(f"x,y,label\n1,2,{label}\n3,4,  dog  \n", encoding="utf-8")
    _, mapping = io.read_csv_with_mapping(path)
    assert set(mapping) == {label, "dog"}


def test_a_long_text_parameter_in_a_workspace_is_refused():
    text = ('{"format": "perceptron-gui-workspace", "version": 1, "learner": "dual", '
            '"params": {"dual": {"kernel": "' + "r" * 10_000 + '"}}, "points": []}')
    with pytest.raises(FormatError, match=r"^params.dual.kernel: a text of 10,000 characters "
                                          r"is too long \(at most 200\)$"):
        io.workspace_from_json(text)


def test_a_demo_generator_beyond_the_point_limit_is_refused():
    raw = {**DEMO, "data": {"generator": "blobs", "seed": 0, "n": 10**9}}
    with pytest.raises(demos.DemoError, match=r"data.n: 1,000,000,000 points are more than "
                                              r"the limit of 1,000,000"):
        demos.parse_demo(json.dumps(raw), name="bad")


# ----------------------------------------------------------------------------- load_source


def test_load_source_tells_workspaces_and_demos_apart(tmp_path):
    from perceptron_gui.core import Workspace, generators

    ws_path = tmp_path / "ws.json"
    io.save_workspace(Workspace(generators.separable(8, seed=1)), ws_path)
    kind, ws = load_source(str(ws_path))
    assert kind == "workspace" and ws.dataset.n == 8
    demo_path = tmp_path / "mine.json"
    demo_path.write_text(json.dumps(DEMO), encoding="utf-8")
    kind, demo = load_source(demo_path)
    assert kind == "demo" and demo.name == "mine" and demo.title == "T"
    name = demos.list_demos()[0]
    assert load_source(name)[1].name == name
    with pytest.raises(demos.UnknownDemoError, match="unknown demo 'no-such-demo'"):
        load_source("no-such-demo")


def test_load_source_names_the_file_once(tmp_path):
    missing = tmp_path / "nope.json"
    with pytest.raises(FormatError) as info:
        load_source(str(missing))
    assert str(info.value).count("nope.json") == 1
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "perceptron-gui-workspace", "version": 9}', encoding="utf-8")
    with pytest.raises(FormatError, match=f"^{bad}: unsupported version 9"):
        load_source(str(bad))
    broken_demo = tmp_path / "broken.json"
    broken_demo.write_text('{"format": "perceptron-gui-demo"}', encoding="utf-8")
    with pytest.raises(demos.DemoError, match="^broken.json: missing field 'version'$"):
        load_source(str(broken_demo))


def test_demo_errors_are_format_errors():
    assert issubclass(demos.DemoError, FormatError) and issubclass(demos.DemoError, ValueError)


@pytest.mark.parametrize("where", ["data.points.0.x", "steps.0.checks.bound"])
def test_a_demo_integer_beyond_float64_is_named(where):
    raw = json.loads(json.dumps(DEMO))
    raw["steps"][0]["checks"] = {"bound": 1}
    obj = raw
    keys = [int(k) if k.isdigit() else k for k in where.split(".")]
    for key in keys[:-1]:
        obj = obj[key]
    obj[keys[-1]] = 10**400
    field = where.replace(".0.", "[0].")
    with pytest.raises(demos.DemoError) as info:
        demos.parse_demo(json.dumps(raw), name="bad")
    assert str(info.value) == (f"bad.json: {field}: expected a finite number, got an "
                               "integer of 401 digits")


@pytest.mark.parametrize("string", [
    r'"a \" [[[ \\\" {{ "',  # escaped quotes do not end the string
    r'"ends in a backslash \\"',  # an even run of backslashes does
    '"é ✓ 𝄞 [[["',  # columns count characters, not bytes
])
def test_deep_json_place_skips_strings_and_counts_characters(string):
    head = '{"c": ' + string + ', "x": '
    # level 1 is the object; the 100th "[" (level 101) is 99 columns after the first
    column = len(head) + 1 + 99
    with pytest.raises(FormatError) as info:
        io.workspace_from_json(head + "[" * 100_000)
    assert str(info.value) == f"invalid JSON: nested too deeply (line 1, column {column})"
