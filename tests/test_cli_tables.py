"""The command line on delimited files and samples: perceptron-gui FILE, render FILE, --sample."""

from __future__ import annotations

import pytest
from PIL import Image

from perceptron_gui.core import samples
from tests.cli import call, mains_in_one_process

IRIS_LIKE = ("6,4,setosa,versicolor,virginica\n5.1,3.5,1.4,0.2,0\n4.9,3.0,1.4,0.2,0\n"
             "7.0,3.2,4.7,1.4,1\n6.4,3.2,4.5,1.5,1\n6.3,3.3,6.0,2.5,2\n5.8,2.7,5.1,1.9,2\n")


def last_line(result) -> str:
    lines = [ln for ln in result.stderr.splitlines() if "propagateSizeHints" not in ln]
    return lines[-1] if lines else ""


@pytest.fixture
def european(tmp_path):
    path = tmp_path / "eu.csv"
    path.write_text("species;a;b\nx;1,5;2\ny;3,5;4\nz;5;6\nx;;1\ny;2;2\nz;1;1\n")
    return path


def test_render_refuses_three_classes_naming_the_options(european, tmp_path, capsys):
    out = tmp_path / "o.png"
    result = call(capsys, "render", str(european), "-o", str(out))
    assert result.returncode == 1 and not out.exists()
    assert last_line(result) == (
        f"perceptron-gui render: {european}: line 5, column 'a': missing value; 1 row with a "
        "missing or non-numeric value (line 5); skip them with --skip-bad-rows")
    result = call(capsys, "render", str(european), "-o", str(out), "--skip-bad-rows")
    assert result.returncode == 1
    assert "choose two with --positive A --negative B, or one against the rest with " \
           "--positive A" in last_line(result)


def test_render_a_csv_with_options_reports_the_skipped_lines(qapp, european, tmp_path, capsys):
    out = tmp_path / "o.png"
    result = call(capsys, "render", str(european), "-o", str(out), "--positive", "x",
                  "--negative", "y", "--skip-bad-rows", "--x", "b", "--y", "a",
                  "--size", "320x240")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"wrote {out}")
    assert ("3 points (b, a; label species: 'x' → +1, 'y' → -1); skipped 1 row with a "
            "missing or non-numeric value (line 5); left out 2 rows of other classes") \
        in result.stderr
    with Image.open(out) as im:
        assert im.size == (320, 240)


def test_render_a_headerless_file_by_position_and_a_sample(qapp, tmp_path, capsys):
    path = tmp_path / "iris.txt"
    path.write_text(IRIS_LIKE)
    out = tmp_path / "i.png"
    result = call(capsys, "render", str(path), "-o", str(out), "--x", "3", "--y", "4",
                  "--positive", "virginica", "--size", "320x240")
    assert result.returncode == 0, result.stderr
    assert out.exists()
    out = tmp_path / "s.png"
    result = call(capsys, "render", samples.names()[0], "-o", str(out), "--size", "320x240")
    assert result.returncode == 0, result.stderr
    assert out.exists()


def test_table_options_on_a_workspace_file_are_refused(tmp_path, capsys):
    path = tmp_path / "w.json"
    path.write_text("{}")
    result = call(capsys, "render", str(path), "-o", str(tmp_path / "o.png"), "--x", "1")
    assert result.returncode == 2
    assert "--x: only for a CSV or other delimited file" in last_line(result)


def test_list_samples_and_an_unknown_sample(capsys):
    result = call(capsys, "--list-samples")
    assert result.returncode == 0
    assert [ln.split("\t")[0] for ln in result.stdout.splitlines()] == samples.names()
    result = call(capsys, "--sample", "nope")
    assert result.returncode == 2
    assert last_line(result).startswith("perceptron-gui: no sample named 'nope'; the samples "
                                        "are: iris-setosa-versicolor-sepal")


def test_the_window_opens_a_csv_with_options_and_a_sample(european, tmp_path):
    cases = {"a CSV with options": [str(european), "--positive", "x", "--skip-bad-rows"],
             "--sample": ["--sample", "wine-alcohol-flavanoids"],
             "a sample's name that is not a file": ["penguins-bill"]}
    results = mains_in_one_process(tmp_path, *([*argv, "--quit-after", "0.3"]
                                       for argv in cases.values()))
    for case, result in zip(cases, results, strict=True):
        assert result.returncode == 0, (case, result.stderr)
    csv = results[0]
    assert f"perceptron-gui: {european}: 5 points" in csv.stderr
    assert "(line 5)" in csv.stderr


def test_the_window_refuses_a_bad_csv_before_it_opens(european, capsys):
    result = call(capsys, str(european), "--quit-after", "5")
    assert result.returncode == 1
    assert last_line(result).endswith("skip them with --skip-bad-rows")
    result = call(capsys, str(european), "--label", "nope", "--quit-after", "5")
    assert result.returncode == 1
    assert "no column 'nope'; the columns are 1 ('species'), 2 ('a'), 3 ('b')" \
        in last_line(result)
