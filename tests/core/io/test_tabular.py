"""core.io.tabular: every file shape of issue 12, written by the tests, and every message."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from perceptron_gui.core.io import Cancelled, FormatError, tabular
from perceptron_gui.core.io.tabular import read_table, reader, sniff


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8", newline="")
    else:
        path.write_bytes(text)
    return path


def points(result):
    return result.dataset.X.tolist(), result.dataset.y.tolist()


# ------------------------------------------------------------------------- shapes that open


def test_plain_xy_label(tmp_path):
    path = write(tmp_path, "a.csv", "x,y,label\n0.5,-1.25,1\n-0.75,2,-1\n")
    s = sniff(path)
    assert (s.delimiter, s.decimal, s.header, s.encoding) == (",", ".", True, "utf-8")
    assert s.columns == ("x", "y", "label") and (s.x, s.y, s.label) == ("x", "y", "label")
    assert s.delimiter_name == "comma" and s.guess_error is None
    assert s.preview == (("0.5", "-1.25", "1"), ("-0.75", "2", "-1"))
    r = read_table(path)
    assert points(r) == ([[0.5, -1.25], [-0.75, 2.0]], [1, -1])
    assert r.mapping == {-1: -1, 1: 1} and r.skipped_lines == () and r.n_other == 0
    assert r.summary == "2 points (x, y; label label: -1 → -1, 1 → +1)"


def test_labels_follow_the_csv_import_rule(tmp_path):
    r = read_table(write(tmp_path, "a.csv", "x,y,label\n1,2,0\n3,4,1.0\n5,6,1\n"))
    assert r.mapping == {0: -1, 1: 1} and r.dataset.y.tolist() == [-1, 1, 1]
    r = read_table(write(tmp_path, "b.csv", "x,y,label\n1,2, dog\n3,4,cat \n"))
    assert r.mapping == {"cat": -1, "dog": 1} and r.dataset.y.tolist() == [1, -1]
    r = read_table(write(tmp_path, "c.csv", "x,y,label\n1,2,only\n"))
    assert r.mapping == {"only": 1}


def _iris_like(tmp_path):
    rows = ["5.1,3.5,1.4,0.2,0", "4.9,3.0,1.4,0.2,0", "7.0,3.2,4.7,1.4,1",
            "6.4,3.2,4.5,1.5,1", "6.3,3.3,6.0,2.5,2", "5.8,2.7,5.1,1.9,2"]
    return write(tmp_path, "iris.csv", "6,4,setosa,versicolor,virginica\n" + "\n".join(rows) + "\n")


def test_sklearn_iris_count_header(tmp_path):
    path = _iris_like(tmp_path)
    s = sniff(path)
    assert s.header is False and s.class_names == ("setosa", "versicolor", "virginica")
    assert s.columns == ("1", "2", "3", "4", "5") and (s.x, s.y, s.label) == ("1", "2", "5")
    with pytest.raises(FormatError, match=re.escape(
            "column '5' has 3 labels ('setosa', 'versicolor', 'virginica'); choose two with "
            "--positive A --negative B, or one against the rest with --positive A")):
        read_table(path)
    r = read_table(path, positive="versicolor", negative="setosa")
    assert r.mapping == {"setosa": -1, "versicolor": 1} and r.n_other == 2
    assert points(r) == ([[5.1, 3.5], [4.9, 3.0], [7.0, 3.2], [6.4, 3.2]], [-1, -1, 1, 1])
    assert r.summary.endswith("left out 2 rows of other classes")
    r = read_table(path, x=3, y="4", positive="virginica")
    assert r.mapping == {"setosa": -1, "versicolor": -1, "virginica": 1}
    assert r.dataset.X[:, 0].tolist() == [1.4, 1.4, 4.7, 4.5, 6.0, 5.1]
    assert r.dataset.y.tolist() == [-1, -1, -1, -1, 1, 1]
    r = read_table(path, negative="Setosa")  # case does not matter for text labels
    assert r.dataset.y.tolist() == [-1, -1, 1, 1, 1, 1]


def test_the_real_sklearn_iris_file():
    sklearn_data = Path(importlib.util.find_spec("sklearn").origin).parent / "datasets" / "data"
    r = read_table(sklearn_data / "iris.csv", positive="setosa", negative="versicolor")
    assert r.dataset.n == 100 and r.n_other == 50 and r.dataset.n_pos == 50


def test_unknown_class_names_the_labels(tmp_path):
    path = _iris_like(tmp_path)
    with pytest.raises(FormatError, match=re.escape(
            "--positive 'rose': no such label in column '5'; the labels are 'setosa', "
            "'versicolor', 'virginica'")):
        read_table(path, positive="rose")
    with pytest.raises(FormatError, match="--positive and --negative are the same label"):
        read_table(path, positive="setosa", negative="setosa")


def test_pandas_to_csv_index_column_is_not_data(tmp_path):
    import pandas as pd
    path = tmp_path / "df.csv"
    pd.DataFrame({"a": [1.5, 2.5, 3.5], "b": [4.0, 5.0, 6.0],
                  "kind": ["u", "v", "u"]}).to_csv(path)
    s = sniff(path)
    assert s.columns == ("", "a", "b", "kind") and s.index_column == 0
    assert (s.x, s.y, s.label) == ("a", "b", "kind")
    r = read_table(path)
    assert points(r) == ([[1.5, 4.0], [2.5, 5.0], [3.5, 6.0]], [-1, 1, -1])


def test_header_one_shorter_than_rows_is_an_index(tmp_path):
    path = write(tmp_path, "r.csv", "x,y,label\n0,1,2,a\n1,3,4,b\n")
    s = sniff(path)
    assert s.columns == ("", "x", "y", "label") and s.index_column == 0
    assert points(read_table(path)) == ([[1.0, 2.0], [3.0, 4.0]], [-1, 1])


def test_extra_columns(tmp_path):
    path = write(tmp_path, "e.csv", "id,name,height,weight,age,group\n"
                 "10,ann,1.6,55.5,31,a\n11,bob,1.8,80.1,45,b\n12,cy,1.7,70.2,27,a\n"
                 "13,di,1.5,49.9,52,b\n14,ed,1.9,90.3,38,a\n")
    s = sniff(path)
    assert s.numeric == (True, False, True, True, True, False)
    assert (s.x, s.y, s.label) == ("id", "height", "group")  # names are not a label: 5 values
    r = read_table(path, x="height", y="weight")
    assert r.dataset.X[0].tolist() == [1.6, 55.5] and r.mapping == {"a": -1, "b": 1}
    assert (r.x, r.y, r.label) == ("height", "weight", "group")


def test_excel_trailing_comma(tmp_path):
    path = write(tmp_path, "x.csv", "x,y,label,\r\n1,2,a,\r\n3,4,b,\r\n")
    s = sniff(path)
    assert s.columns == ("x", "y", "label", "") and (s.x, s.y, s.label) == ("x", "y", "label")
    assert points(read_table(path)) == ([[1.0, 2.0], [3.0, 4.0]], [-1, 1])


def test_semicolon_and_decimal_comma(tmp_path):
    path = write(tmp_path, "eu.csv", "x;y;label\n1,5;2,25;a\n-0,5;3;b\n")
    s = sniff(path)
    assert (s.delimiter, s.decimal) == (";", ",") and s.delimiter_name == "semicolon"
    assert points(read_table(path)) == ([[1.5, 2.25], [-0.5, 3.0]], [-1, 1])


def test_headerless_decimal_comma_file(tmp_path):
    path = write(tmp_path, "eu.csv", "1,5;2,3;a\n2,5;1;b\n")
    s = sniff(path)
    assert (s.delimiter, s.decimal, s.header) == (";", ",", False)
    assert points(read_table(path)) == ([[1.5, 2.3], [2.5, 1.0]], [-1, 1])


def test_tsv(tmp_path):
    path = write(tmp_path, "t.tsv", "x\ty\tlabel\n1.5\t2\tyes\n3\t4\tno\n")
    assert sniff(path).delimiter_name == "tab"
    assert points(read_table(path)) == ([[1.5, 2.0], [3.0, 4.0]], [1, -1])


def test_whitespace_separated(tmp_path):
    path = write(tmp_path, "w.txt", "  x    y  label\n 1.5   2  1\n3 4     0\n\n")
    s = sniff(path)
    assert s.delimiter_name == "whitespace" and s.header
    assert points(read_table(path)) == ([[1.5, 2.0], [3.0, 4.0]], [1, -1])


@pytest.mark.parametrize("text", [
    # runs of mixed spaces and tabs, a tab on every line (a tab split would give
    # "2.5   3.5" as one cell)
    "x \t y\t\tlabel\n1.0 \t 2.0\t\t1\n\t2.5   3.5 \t-1\n0.5  \t\t1.5 \t 1\n"
    "3.0\t 4.0  -1\n",
    # no header, leading whitespace, the same tabs on every line
    "  1.0 \t 2.0\t 1\n\t2.5   3.5 \t-1\n 0.5\t\t1.5  1\n3.0\t4.0 \t -1\n",
    # two tabs between the first columns on every line (a tab split: an empty column)
    "x\t\t y \tlabel\n1.0\t\t 2.0 \t1\n2.5\t\t3.5  \t-1\n0.5\t\t  1.5\t 1\n"
    "3.0\t\t4.0\t -1\n",
])
def test_runs_of_mixed_spaces_and_tabs_separate_columns(tmp_path, text):
    path = write(tmp_path, "m.txt", text)
    s = sniff(path)
    assert s.delimiter_name == "whitespace" and len(s.columns) == 3
    assert points(read_table(path)) == ([[1.0, 2.0], [2.5, 3.5], [0.5, 1.5], [3.0, 4.0]],
                                        [1, -1, 1, -1])


def test_a_tab_file_with_a_missing_value_stays_a_tab_file(tmp_path):
    path = write(tmp_path, "t.tsv", "x\ty\tlabel\n1\t2\ta\n\t4\tb\n5\t6\ta\n7\t8\tb\n")
    s = sniff(path)
    assert s.delimiter_name == "tab" and s.columns == ("x", "y", "label")


def test_utf8_bom(tmp_path):
    path = write(tmp_path, "b.csv", b"\xef\xbb\xbfx,y,label\n1,2,1\n3,4,-1\n")
    s = sniff(path)
    assert s.encoding == "utf-8-sig" and s.columns == ("x", "y", "label")
    assert points(read_table(path)) == ([[1.0, 2.0], [3.0, 4.0]], [1, -1])


@pytest.mark.parametrize(("encoding", "what"), [
    ("utf-16", "UTF-16 text"),
    ("utf-16-be", "UTF-16 text"),
    ("utf-32", "UTF-32 text"),
    ("utf-32-be", "UTF-32 text"),
])
def test_utf16_and_utf32_are_named(tmp_path, encoding, what):
    text = "x,y,label\n1,2,1\n3,4,-1\n"
    data = text.encode(encoding)
    if encoding.endswith("-be"):
        data = ("\ufeff" + text).encode(encoding)  # with a byte-order mark
    path = write(tmp_path, "u.csv", data)
    message = f"the file is {what}; save it as UTF-8"
    with pytest.raises(FormatError, match=re.escape(message)):
        sniff(path)
    with pytest.raises(FormatError, match=re.escape(message)):
        read_table(path)


@pytest.mark.parametrize(("encoding", "what"), [
    ("utf-16-le", "UTF-16"), ("utf-16-be", "UTF-16"),
    ("utf-32-le", "UTF-32"), ("utf-32-be", "UTF-32"),
])
def test_utf16_and_utf32_without_bom(tmp_path, encoding, what):
    path = write(tmp_path, "u.csv", "x,y,label\n1,2,1\n3,4,-1\n".encode(encoding))
    with pytest.raises(FormatError, match=re.escape(
            f"the file is {what} text; save it as UTF-8")):
        sniff(path)


def test_not_utf8_names_byte_and_line(tmp_path):
    path = write(tmp_path, "l.csv", "x,y,label\n1,2,caf\xe9\n".encode("latin-1"))
    with pytest.raises(FormatError, match=re.escape(
            "not UTF-8 text at byte 17 (line 2); save the file as UTF-8")):
        read_table(path)


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_not_utf8_beyond_the_sniffed_start_names_byte_and_line(tmp_path, bom):
    head = bom + b"x,y,label\n" + b"1.25,2.5,a\n" * 20_000  # 220 kB, past the sniffed 64 kB
    path = write(tmp_path, "far.csv", head + "3,4,caf\xe9\n".encode("latin-1") + b"5,6,a\n")
    byte = len(head) + len("3,4,caf")
    with pytest.raises(FormatError, match=re.escape(
            f"not UTF-8 text at byte {byte:,} (line 20,002); save the file as UTF-8")):
        read_table(path)


def test_binary_files_are_named(tmp_path):
    with pytest.raises(FormatError, match="this is a PNG image, not a text file"):
        sniff(write(tmp_path, "p.csv", b"\x89PNG\r\n\x1a\n\x00\x00"))
    with pytest.raises(FormatError, match=re.escape("a ZIP archive (or an .xlsx/.ods")):
        sniff(b"PK\x03\x04rest")
    with pytest.raises(FormatError, match=r"binary data \(a NUL byte\) at byte 3"):
        sniff(b"x,y\x00\xff\x13label\n")


def test_headerless_columns_by_position(tmp_path):
    path = write(tmp_path, "h.csv", "7,1.5,2.5,1\n8,3.5,4.5,-1\n9,5.5,6.5,1\n")
    s = sniff(path)
    assert not s.header and s.columns == ("1", "2", "3", "4")
    assert (s.x, s.y, s.label) == ("1", "2", "4")
    r = read_table(path, x=2, y="3", label=4)
    assert points(r) == ([[1.5, 2.5], [3.5, 4.5], [5.5, 6.5]], [1, -1, 1])
    assert (r.x, r.y, r.label) == ("2", "3", "4")
    with pytest.raises(FormatError, match=re.escape("no column 5; the columns are 1, 2, 3, 4")):
        read_table(path, x=5)
    with pytest.raises(FormatError, match=re.escape("no column 'height'; the columns are "
                                                    "1 ('x'), 2 ('y'), 3 ('label')")):
        read_table(write(tmp_path, "n.csv", "x,y,label\n1,2,1\n"), y="height")


def test_same_column_twice(tmp_path):
    path = write(tmp_path, "a.csv", "x,y,label\n1,2,1\n")
    with pytest.raises(FormatError, match=re.escape(
            "x, y and label must be three different columns; got 'x', 'x' and 'label'")):
        read_table(path, x="x", y="x")


def test_delimiter_option(tmp_path):
    path = write(tmp_path, "p.txt", "x|y|label\n1|2|1\n3|4|-1\n")
    assert sniff(path).delimiter == "|"
    assert read_table(path, delimiter="pipe").dataset.n == 2
    with pytest.raises(FormatError, match=re.escape(
            "--delimiter 'x' is not a delimiter; use one of: comma, semicolon, tab, "
            "whitespace, or a single punctuation character")):
        read_table(path, delimiter="x")
    assert sniff(write(tmp_path, "c.csv", "x;y,label\n1;2,1\n"), delimiter="comma").columns \
        == ("x;y", "label")


# ------------------------------------------------------------------------- bad rows


def test_missing_values_name_their_lines(tmp_path):
    path = write(tmp_path, "m.csv",
                 "x,y,label\n1,2,a\n\n3,,b\n5,6,\nq,1,a\n7,NA,b\n8,9,b\n")
    with pytest.raises(FormatError, match=re.escape(
            "line 4, column 'y': missing value; 4 rows with a missing or non-numeric value "
            "(lines 4, 5, 6, 7); skip them with --skip-bad-rows")):
        read_table(path)
    r = read_table(path, skip_bad_rows=True)
    assert r.skipped_lines == (4, 5, 6, 7)
    assert points(r) == ([[1.0, 2.0], [8.0, 9.0]], [-1, 1])
    assert r.summary.endswith(
        "skipped 4 rows with a missing or non-numeric value (lines 4, 5, 6, 7)")


def test_first_bad_cell_is_described(tmp_path):
    with pytest.raises(FormatError, match=re.escape(
            "line 3, column 'x': 'abc' is not a number; 1 row with a missing or non-numeric "
            "value (line 3); skip them with --skip-bad-rows")):
        read_table(write(tmp_path, "a.csv", "x,y,label\n1,2,1\nabc,2,1\n"))
    with pytest.raises(FormatError, match=re.escape(
            "line 2, column 'y': infinity, or a number beyond the range of float64, is not "
            "allowed")):
        read_table(write(tmp_path, "b.csv", "x,y,label\n1,1e400,1\n"))
    with pytest.raises(FormatError, match=re.escape(
            "line 3, column 'label': infinity is not a label")):
        read_table(write(tmp_path, "c.csv", "x,y,label\n1,2,1\n1,2,inf\n"))


def test_many_bad_rows_are_counted(tmp_path):
    rows = "".join(f"{i},,1\n" for i in range(12))
    with pytest.raises(FormatError, match=re.escape(
            "line 2, column 'y': missing value; 12 rows with a missing or non-numeric value "
            "(lines 2, 3, 4, 5, 6, …); "
            "skip them with --skip-bad-rows")):
        read_table(write(tmp_path, "a.csv", "x,y,label\n" + rows + "1,2,-1\n"))


def test_too_many_fields(tmp_path):
    path = write(tmp_path, "r.csv", "x,y,label\n1,2,1\n\n3,4,1,9\n5,6,-1\n")
    with pytest.raises(FormatError, match=re.escape(
            "line 4: expected 3 columns, got 4; skip such rows with --skip-bad-rows")):
        read_table(path)
    r = read_table(path, skip_bad_rows=True)
    assert r.skipped_lines == (4,) and points(r) == ([[1.0, 2.0], [5.0, 6.0]], [1, -1])


def test_lines_after_a_skipped_ragged_line(tmp_path):
    path = write(tmp_path, "r.csv", "x,y,label\n1,2,1\n3,4,1,9\n5,,-1\n7,8,-1\n")
    r = read_table(path, skip_bad_rows=True)
    assert r.skipped_lines == (3, 4) and points(r) == ([[1.0, 2.0], [7.0, 8.0]], [1, -1])


def test_huge_label_is_refused(tmp_path):
    path = write(tmp_path, "h.csv", "x,y,label\n1,2,a\n3,4," + "z" * 10_000 + "\n")
    with pytest.raises(FormatError, match=re.escape(
            "line 3, column 'label': a label of 10,000 characters is too long (at most 200)")):
        read_table(path)


# ------------------------------------------------------------------------- guesses


def test_ambiguous_guess_names_the_options(tmp_path):
    path = write(tmp_path, "f.csv", "a,b,c\n0.1,0.2,0.3\n0.4,0.5,0.6\n0.7,0.8,0.9\n1.1,1.2,1.3\n"
                 "1.4,1.5,1.6\n")
    s = sniff(path)
    assert s.label is None and s.guess_error == (
        "no column looks like a label (a column with few distinct values) among 'a', 'b', "
        "'c'; name it with --label")
    with pytest.raises(FormatError, match=re.escape(s.guess_error)):
        read_table(path)
    assert read_table(path, label="c", positive="0.3").dataset.n == 5
    path = write(tmp_path, "g.csv", "name,kind\nann,a\nbob,b\n")
    with pytest.raises(FormatError, match=re.escape(
            "found 0 numeric column(s) besides the label among 'name', 'kind'; name the "
            "coordinates with --x and --y")):
        read_table(path)


def test_no_data_rows(tmp_path):
    with pytest.raises(FormatError, match="no data rows in the file"):
        read_table(write(tmp_path, "h.csv", "x,y,label\n"))
    with pytest.raises(FormatError, match="the file is empty"):
        read_table(write(tmp_path, "e.csv", "\n \n"))


# ------------------------------------------------------------------------- files that are not


def test_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    errors = []

    def attempt():
        for call in (sniff, read_table):
            try:
                call(fifo)
            except FormatError as exc:
                errors.append(str(exc))

    thread = threading.Thread(target=attempt, daemon=True)
    start = time.perf_counter()
    thread.start()
    thread.join(10)
    assert not thread.is_alive(), "reading a FIFO blocked"
    assert time.perf_counter() - start < 2
    expected = f"cannot read {str(fifo)!r}: it is not a regular file (a FIFO)"
    assert errors == [expected, expected]


def test_folder_and_missing_file(tmp_path):
    with pytest.raises(FormatError, match=re.escape("it is not a regular file (a directory)")):
        read_table(tmp_path)
    with pytest.raises(FormatError, match=re.escape(
            f"cannot read {str(tmp_path / 'no.csv')!r}: No such file or directory")):
        read_table(tmp_path / "no.csv")
    with pytest.raises(FormatError, match="not a file path: 3.5"):
        read_table(3.5)


def test_errors_are_value_errors():
    assert issubclass(FormatError, ValueError)


# ------------------------------------------------------------------------- large files


def test_progress_cancel_and_row_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(reader, "_ONE_READ_BYTES", 0)  # chunks even for this 10 MB file
    n = 600_000  # three chunks
    rng = np.random.default_rng(1)
    X = rng.normal(size=(n, 2)).round(3)
    lines = "\n".join(f"{a},{b},{1 if a > 0 else -1}" for a, b in X.tolist())
    path = write(tmp_path, "big.csv", "x,y,label\n" + lines + "\n")
    seen = []
    r = read_table(path, progress=seen.append)
    assert np.array_equal(r.dataset.X, X)
    assert seen[0] == 0.02 and seen[-1] == 1.0 and len(seen) >= 5
    assert seen == sorted(seen)
    with pytest.raises(Cancelled):
        read_table(path, cancelled=lambda: len(seen) > 7, progress=seen.append)
    with pytest.raises(Cancelled):
        read_table(path, progress=lambda f: f < 0.3)
    with pytest.raises(FormatError, match=re.escape(
            "the file has more than 500,000 data rows; the limit is 500,000")):
        read_table(path, max_rows=500_000)


def test_wide_rows_are_parsed_a_few_megabytes_between_cancel_checks(tmp_path, monkeypatch):
    # chunks of 262,144 rows were 50 MB of a file with 200-byte rows: Cancel answered
    # after up to a second; a chunk is now about 4 MB, whatever the width of a row
    monkeypatch.setattr(reader, "_ONE_READ_BYTES", 0)
    rng = np.random.default_rng(2)
    table = rng.normal(size=(60_000, 11))
    table[:, 2] = np.where(table[:, 0] > 0, 1, -1)
    path = tmp_path / "wide.csv"
    np.savetxt(path, table, fmt="%.15f", delimiter=",", header="x,y,label," + ",".join(
        f"c{k}" for k in range(8)), comments="")
    size = path.stat().st_size
    assert size > 10 * 2**20
    seen = []
    r = read_table(path, progress=seen.append)
    assert r.dataset.n == 60_000 and seen[-1] == 1.0
    parsed = [f for f in seen if 0.05 <= f <= 0.9]  # one report per chunk: 0.05 + 0.85 * share
    chunk_bytes = np.diff([0.05, *parsed]) / 0.85 * size
    assert len(parsed) >= 3 and chunk_bytes.max() < 5 * 2**20
    checks = []
    with pytest.raises(Cancelled):  # cancelled when asked at the first chunk's end
        read_table(path, cancelled=lambda: len(checks) > 1 or checks.append(1) is not None
                   and False)
    assert len(checks) == 2


def test_pandas_is_not_imported_with_the_core():
    code = ("import sys\nimport perceptron_gui.core, perceptron_gui.core.io.tabular\n"
            "print('pandas' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120, cwd=Path(__file__).resolve().parents[3])
    assert out.stdout.strip() == "False"


def test_csv_benchmark_quick():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_csv.py"
    spec = importlib.util.spec_from_file_location("_smoke_bench_csv", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    r = module.run(quick=True)
    assert r["n"] == 20_000 and r["points_identical"] is True
    assert r["ratio"] == r["time_ours_s"] / r["time_pandas_s"]
    assert r["ratios"]["read_table / pandas.read_csv"]["goal"] == 1.5
    assert "tabular.read_table" in module.format_table(r)


def test_module_names():
    assert tabular.MAX_LABEL_CHARS == 200
    assert set(tabular.__all__) >= {"sniff", "read_table", "Sniffed", "TableResult"}


def test_positive_picks_the_label_column_that_holds_it(tmp_path):
    path = write(tmp_path, "p.csv", "species,island,bill,depth,sex\n"
                 "Adelie,Dream,39.1,18.7,male\nGentoo,Biscoe,46.1,13.2,female\n"
                 "Chinstrap,Dream,46.5,17.9,female\nAdelie,Biscoe,NA,NA,NA\n"
                 "Gentoo,Biscoe,50.0,15.2,male\nAdelie,Dream,37.2,18.1,female\n")
    s = sniff(path)
    assert s.label == "sex" and s.levels[0] == ("Adelie", "Chinstrap", "Gentoo")
    r = read_table(path, positive="Gentoo", negative="Adelie", skip_bad_rows=True)
    assert r.label == "species" and r.mapping == {"Adelie": -1, "Gentoo": 1}
    assert r.skipped_lines == (5,) and r.n_other == 1
    assert points(r) == ([[39.1, 18.7], [46.1, 13.2], [50.0, 15.2], [37.2, 18.1]],
                         [-1, 1, 1, -1])


def test_unforeseen_files_get_a_message(tmp_path):
    path = write(tmp_path, "h.csv", "x,y,label\n" + "1" * 400 + ",2,1\n3,4,-1\n")
    with pytest.raises(FormatError, match=re.escape(
            "line 2, column 'x': infinity, or a number beyond the range of float64, is not "
            "allowed")):
        read_table(path)
    path = write(tmp_path, "t.csv", "x,y,label\nabc,2,1\n" + "1" * 400 + ",4,-1\n")
    with pytest.raises(FormatError, match=re.escape("line 2, column 'x': 'abc' is not a number")):
        read_table(path)
    with pytest.raises(FormatError, match=re.escape(
            'a quoted field is never closed (a " without its closing ")')):
        read_table(write(tmp_path, "q.csv", 'x,y,label\n1,2,"dog\n3,4,cat\n'))


def test_a_backstop_turns_surprises_into_format_errors(tmp_path, monkeypatch):
    path = write(tmp_path, "a.csv", "x,y,label\n1,2,1\n")
    monkeypatch.setattr(reader, "label_keys", lambda *a: 1 / 0)
    with pytest.raises(FormatError, match=re.escape(
            "internal error while reading the table (ZeroDivisionError: division by zero); "
            "please report this with the file")):
        read_table(path)


@pytest.mark.parametrize("path", sorted((Path(__file__).parents[1] / "data").glob("*/*.csv")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_csv_corpus_is_read_or_refused_with_a_message(path):
    try:
        result = read_table(path)
    except FormatError as exc:
        assert str(exc) and "internal error" not in str(exc)
        assert path.parent.name == "bad"
    else:
        assert result.dataset.n > 0


def test_a_small_file_is_read_in_one_call_with_progress(tmp_path):
    rows = "".join(f"{i},{i % 7},{1 if i % 2 else -1}\n" for i in range(1000))
    path = write(tmp_path, "s.csv", "x,y,label\n" + rows)
    seen = []
    r = read_table(path, progress=seen.append)
    assert r.dataset.n == 1000 and seen[0] == 0.02 and seen[-1] == 1.0 and len(seen) == 3
    with pytest.raises(Cancelled):
        read_table(path, cancelled=lambda: True)
    with pytest.raises(FormatError, match=re.escape(
            "the file has more than 999 data rows; the limit is 999")):
        read_table(path, max_rows=999)
    assert read_table(path, max_rows=1000).dataset.n == 1000


def test_a_label_beyond_float64_is_a_bad_row_not_an_internal_error(tmp_path):
    # found by tests/core/test_io_fuzz.py: pandas keeps a 400-digit integer a Python int
    path = write(tmp_path, "big.csv", "x,y,label\n0,1,0\n1,0,1\n-1,-1," + "9" * 400 + "\n")
    with pytest.raises(FormatError, match=re.escape(
            "line 4, column 'label': a number of 400 digits is not a label")):
        read_table(path)
    assert read_table(path, skip_bad_rows=True).skipped_lines == (4,)
