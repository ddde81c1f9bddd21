"""Write the bad-input corpus ``bad/`` and its index ``bad/EXPECTED.json``.

Each entry is a small file that :mod:`perceptron_gui.core.io` must reject with
a :class:`~perceptron_gui.core.io.FormatError` whose message contains the
given fragment. The files are committed; rerun this script after changing the
list (``python tests/core/data/make_bad_corpus.py``) — it rewrites them all.
"""

from __future__ import annotations

import gzip
import json
import pickle
import struct
import zlib
from pathlib import Path

HERE = Path(__file__).parent / "bad"

HEAD = '{"format": "perceptron-gui-workspace", "version": 1, "learner": "primal", '
POINTS = ('[{"x": 0.5, "y": 1.0, "label": 1}, {"x": -1.0, "y": 0.25, "label": -1}, '
          '{"x": 2.0, "y": -0.5, "label": 1}, {"x": -2.5, "y": -1.5, "label": -1}]')
VALID = HEAD + '"points": ' + POINTS + "}"


def ws(**fields) -> str:
    """A workspace file: the valid base with fields replaced (raw JSON text values)."""
    base = {"format": '"perceptron-gui-workspace"', "version": "1", "learner": '"primal"',
            "points": POINTS}
    base.update(fields)
    return "{" + ", ".join(f'"{k}": {v}' for k, v in base.items() if v is not None) + "}"


def without(key: str) -> str:
    return ws(**{key: None})


def points(*items: str) -> str:
    return "[" + ", ".join(items) + "]"


P = '{"x": 1.0, "y": 2.0, "label": 1}'
N = '{"x": -1.0, "y": -2.0, "label": -1}'


def png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"\x00\xff\x00\x00"  # one red pixel
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def gz(text: str) -> bytes:
    return gzip.compress(text.encode(), mtime=0)


def latin1_at(offset: int) -> bytes:
    """A CSV whose first non-UTF-8 byte (a Latin-1 'é') is at byte ``offset``."""
    head = b"x,y,label\n"
    row = b"1.0,2.0,1\n"
    body = head + row * ((offset - len(head)) // len(row))
    body += b"0" * (offset - len(body) - 4) + b",0,caf"  # ... fills to offset
    body = body[:offset]
    return body + b"\xe9\n"


CSV_OK = "x,y,label\n1.0,2.0,1\n3.0,4.0,-1\n"

CORPUS: dict[str, tuple[bytes | str, str]] = {
    # ---- workspace files: not JSON, truncated, binary, wrong encoding
    "ws_empty.json": ("", "the file is empty"),
    "ws_whitespace_only.json": (" \n\t\n", "the file is empty"),
    "ws_truncated.json": (VALID[: len(VALID) // 2], "truncated?"),
    "ws_truncated_in_string.json": (VALID[:12], "truncated?"),
    "ws_truncated_after_brace.json": ("{", "truncated?"),
    "ws_trailing_comma.json": (ws(points=points(P, N) + ","), "invalid JSON"),
    "ws_single_quotes.json": (VALID.replace('"', "'"), "line 1, column 2: invalid JSON"),
    "ws_plain_text.json": ("These are my points: (1, 2) and (3, 4).\n", "invalid JSON"),
    "ws_csv_renamed.json": (CSV_OK, "invalid JSON"),
    "ws_comment.json": ("// my points\n" + VALID, "line 1, column 1: invalid JSON"),
    "ws_two_documents.json": (VALID + "\n" + VALID, "line 2, column 1: invalid JSON: Extra data"),
    "ws_deeply_nested.json": ("[" * 100_000,
                              "invalid JSON: nested too deeply (line 1, column 101)"),
    "ws_deeply_nested_points.json": (ws(points="[" * 20_000),
                                     "invalid JSON: nested too deeply (line 1, column 184)"),
    "ws_deeply_nested_lines.json": ('{"points":\n' + "[\n" * 5_000,
                                    "invalid JSON: nested too deeply (line 101, column 1)"),
    "ws_deeply_nested_objects.json": ('{"a": ' * 100_000,
                                      "invalid JSON: nested too deeply (line 1, column 601)"),
    "ws_png_renamed.json": (png(), "this is a PNG image"),
    "ws_gzip_renamed.json": (gz(VALID), "gzip-compressed"),
    "ws_pickle_renamed.json": (pickle.dumps({"points": [1, 2]}, protocol=4), "pickle"),
    "ws_zip_renamed.json": (b"PK\x03\x04" + b"\x14\x00" * 20, "ZIP archive"),
    "ws_utf16.json": (VALID.encode("utf-16"), "the file is UTF-16 text; save it as UTF-8"),
    "ws_utf16_be_no_bom.json": (VALID.encode("utf-16-be"), "the file is UTF-16 text"),
    "ws_utf32.json": (VALID.encode("utf-32"), "the file is UTF-32 text; save it as UTF-8"),
    "ws_utf32_be.json": (VALID.encode("utf-32-be"), "the file is UTF-32 text"),
    "ws_nul_byte.json": (VALID[:40].encode() + b"\x00" + VALID[40:].encode(),
                         "binary data (a NUL byte) at byte 40"),
    "ws_latin1.json": (ws(comment='"caf\u00e9"').encode("latin-1"), "not UTF-8 text at byte"),
    "ws_integer_5000_digits.json": (ws(points=points('{"x": ' + "7" * 5000
                                                      + ', "y": 0, "label": 1}')),
                                    "invalid JSON: a number of 5,000 digits is too long, "
                                    "the limit is 4,300 (line 1, column 92)"),
    "ws_integer_5000_digits_line_2.json": (VALID.replace(", ", ",\n", 3).replace(
        '"version": 1', '"version": ' + "1" * 5000),
        "invalid JSON: a number of 5,000 digits is too long, the limit is 4,300 "
        "(line 2, column 12)"),
    "ws_params_long_text.json": (ws(params='{"dual": {"kernel": "' + "x" * 1000 + '"}}'),
                                 "params.dual.kernel: a text of 1,000 characters is too long "
                                 "(at most 200)"),
    # ---- workspace files: schema
    "ws_top_level_list.json": ("[" + VALID + "]", "expected a JSON object, got a list"),
    "ws_top_level_string.json": ('"points"', "expected a JSON object, got 'points'"),
    "ws_format_missing.json": (without("format"), "format: missing"),
    "ws_format_wrong.json": (ws(format='"orange-paint-data"'),
                             "format: expected 'perceptron-gui-workspace', "
                             "got 'orange-paint-data'"),
    "ws_version_missing.json": (without("version"), "version: missing"),
    "ws_version_7.json": (ws(version="7"),
                          "unsupported version 7; this program reads versions 1 and 2"),
    "ws_version_0.json": (ws(version="0"), "unsupported version 0"),
    "ws_version_string.json": (ws(version='"1"'), "version: expected an integer, got '1'"),
    "ws_version_float.json": (ws(version="1.0"), "version: expected an integer, got 1.0"),
    "ws_points_missing.json": (without("points"), "points: missing"),
    "ws_learner_missing.json": (without("learner"), "learner: missing"),
    "ws_learner_unknown.json": (ws(learner='"svm"'),
                                "learner: the file uses the learner 'svm', which is not "
                                "registered"),
    "ws_learner_number.json": (ws(learner="1"), "learner: expected one of"),
    "ws_points_object.json": (ws(points='{"x": [1], "y": [2], "label": [1]}'),
                              "points: expected a list, got an object"),
    "ws_point_is_list.json": (ws(points=points(P, "[1.0, 2.0, 1]")),
                              "points[1]: expected an object, got a list"),
    "ws_point_missing_y.json": (ws(points=points(P, N, '{"x": 1, "label": 1}')),
                                "points[2].y: missing"),
    "ws_point_missing_label.json": (ws(points=points('{"x": 1, "y": 1}')),
                                    "points[0].label: missing"),
    "ws_point_x_text.json": (ws(points=points(P, N, P, '{"x": "abc", "y": 1, "label": 1}')),
                             "points[3].x: expected a number, got 'abc'"),
    "ws_point_x_numeric_text.json": (ws(points=points('{"x": "1.5", "y": 1, "label": 1}')),
                                     "points[0].x: expected a number, got '1.5'"),
    "ws_point_x_true.json": (ws(points=points('{"x": true, "y": 1, "label": 1}')),
                             "points[0].x: expected a number, got true"),
    "ws_point_y_null.json": (ws(points=points(P, '{"x": 0, "y": null, "label": 1}')),
                             "points[1].y: expected a number, got null"),
    "ws_point_y_list.json": (ws(points=points('{"x": 0, "y": [1], "label": 1}')),
                             "points[0].y: expected a number, got a list"),
    "ws_label_zero.json": (ws(points=points(P, '{"x": 0, "y": 0, "label": 0}')),
                           "points[1].label: expected 1 or -1, got 0"),
    "ws_label_text.json": (ws(points=points('{"x": 0, "y": 0, "label": "1"}')),
                           "points[0].label: expected 1 or -1, got '1'"),
    "ws_label_fraction.json": (ws(points=points('{"x": 0, "y": 0, "label": 1.5}')),
                               "points[0].label: expected 1 or -1, got 1.5"),
    "ws_label_true.json": (ws(points=points('{"x": 0, "y": 0, "label": true}')),
                           "points[0].label: expected 1 or -1, got true"),
    # ---- workspace files: numbers
    "ws_nan.json": (ws(points=points(P, N, '{"x": NaN, "y": 0, "label": 1}')),
                    "points[2].x: NaN is not allowed"),
    "ws_infinity.json": (ws(points=points(P, '{"x": 0, "y": Infinity, "label": 1}')),
                         "points[1].y: Infinity is not allowed"),
    "ws_minus_infinity.json": (ws(points=points('{"x": -Infinity, "y": 0, "label": 1}')),
                               "points[0].x: -Infinity is not allowed"),
    "ws_nan_label.json": (ws(points=points('{"x": 0, "y": 0, "label": NaN}')),
                          "points[0].label: NaN is not allowed"),
    "ws_1e400.json": (ws(points=points(P, '{"x": 1e400, "y": 0, "label": 1}')),
                      "points[1].x: the number is beyond the range of float64"),
    "ws_minus_1e400.json": (ws(points=points('{"x": 0, "y": -1e400, "label": 1}')),
                            "points[0].y: the number is beyond the range of float64"),
    "ws_huge_integer.json": (ws(points=points('{"x": 1' + "0" * 400 + ', "y": 0, "label": 1}')),
                             "points[0].x: an integer of about 401 digits is beyond the range"),
    # ---- workspace files: parameters, view, run
    "ws_params_not_object.json": (ws(params="[1, 2]"), "params: expected an object, got a list"),
    "ws_params_unknown_parameter.json": (ws(params='{"primal": {"momentum": 0.9}}'),
                                         "params.primal: unknown parameter 'momentum'"),
    "ws_params_learner_not_object.json": (ws(params='{"dual": "rbf"}'),
                                          "params.dual: expected an object, got 'rbf'"),
    "ws_params_negative.json": (ws(params='{"primal": {"bias_scale": -1}}'),
                                "params.primal.bias_scale: bias_scale must be a positive"),
    "ws_params_bias_scale_overflow.json": (ws(params='{"primal": {"bias_scale": 1e308}}'),
                                           "params.primal.bias_scale: "),
    "ws_params_zero_rate.json": (ws(params='{"primal": {"eta0": 0}}'),
                                 "params.primal.eta0: eta0 must be a positive"),
    "ws_params_text_number.json": (ws(params='{"dual": {"gamma": "fast"}}'),
                                   "params.dual.gamma: expected a number, got 'fast'"),
    "ws_params_numeric_text.json": (ws(params='{"dual": {"gamma": "0.5"}}'),
                                    "params.dual.gamma: expected a number, got '0.5'"),
    "ws_params_gamma_list.json": (ws(params='{"dual": {"gamma": [1]}}'),
                                  "params.dual.gamma: expected a number, got a list"),
    "ws_params_nan.json": (ws(params='{"dual": {"coef0": NaN}}'),
                           "params.dual.coef0: NaN is not allowed"),
    "ws_params_kernel.json": (ws(params='{"dual": {"kernel": "sigmoid"}}'),
                              "params.dual.kernel: kernel must be one of"),
    "ws_params_max_epochs_float.json": (ws(params='{"primal": {"max_iter": 1000.5}}'),
                                        "params.primal.max_iter: expected an integer, "
                                        "got 1000.5"),
    "ws_params_max_epochs_zero.json": (ws(params='{"primal": {"max_iter": 0}}'),
                                       "params.primal.max_iter: max_iter must be a positive"),
    "ws_params_fit_intercept_int.json": (ws(params='{"primal": {"fit_intercept": 1}}'),
                                         "params.primal.fit_intercept: expected true or false"),
    "ws_params_order.json": (ws(params='{"primal": {"order": "shuffled"}}'),
                             "params.primal.order: order must be one of 'cyclic', "
                             "'random', 'uniform', 'batch'"),
    "ws_params_seed_negative.json": (ws(params='{"primal": {"random_state": -3}}'),
                                     "params.primal.random_state: random_state must be"),
    "ws_params_priors_sum.json": (ws(learner='"lda"', params='{"lda": {"priors": [0.5, 0.6]}}'),
                                  "params.lda.priors: priors must sum to 1"),
    "ws_params_priors_text.json": (ws(params='{"lda": {"priors": "equal"}}'),
                                   "params.lda.priors: expected null or a list of 2 numbers"),
    "ws_params_shrinkage.json": (ws(params='{"lda": {"shrinkage": 2}}'),
                                 "params.lda.shrinkage: shrinkage must be in [0, 1]"),
    "ws_params_duplicate_key.json": (ws(params='{"primal": {"max_iter": 5, "max_iter": 6}}'),
                                     "params.primal: duplicate key 'max_iter'"),
    "ws_view_three_numbers.json": (ws(view="[0, 1, 2]"),
                                   "view: expected null or [x_min, x_max, y_min, y_max]"),
    "ws_view_reversed.json": (ws(view="[1, 0, 0, 1]"),
                              "view: expected x_min < x_max and y_min < y_max"),
    "ws_view_infinity.json": (ws(view="[0, Infinity, 0, 1]"), "view[1]: Infinity is not allowed"),
    "ws_view_text.json": (ws(view='[0, 1, "a", 2]'), "view[2]: expected a number, got 'a'"),
    "ws_run_not_object.json": (ws(run="12"), "run: expected an object, got 12"),
    "ws_run_step_negative.json": (ws(run='{"step": -1}'), "run.step: expected a step >= 0"),
    "ws_run_step_text.json": (ws(run='{"step": "5"}'), "run.step: expected an integer, got '5'"),
    "ws_run_step_fraction.json": (ws(run='{"step": 2.5}'),
                                  "run.step: expected an integer, got 2.5"),
    "ws_run_step_after_end.json": (ws(run='{"step": 3000}'), "run.step: the run ends at step"),
    "ws_run_step_too_long.json": (ws(run='{"step": 1000000000000}'),
                                  "beyond the longest possible run"),
    "ws_run_step_lda.json": (ws(learner='"lda"', run='{"step": 3}'), "'lda' does not step"),
    "ws_run_step_one_class.json": (ws(points=points(P, P), run='{"step": 1}'),
                                   "run.step: step 1 but no run is possible: Only one class"),
    "ws_duplicate_key_top.json": (VALID[:-1] + ', "version": 2}',
                                  "the top level: duplicate key 'version'"),
    "ws_duplicate_key_point.json": (ws(points=points(P, '{"x": 1, "x": 2, "y": 0, "label": 1}')),
                                    "points[1]: duplicate key 'x'"),
    # ---- CSV files: empty, header (shapes that now open are in good/ and test_tabular.py)
    "csv_empty.csv": ("", "the file is empty"),
    "csv_blank_lines_only.csv": ("\n\n   \n\r\n", "the file is empty"),
    "csv_bom_only.csv": (b"\xef\xbb\xbf", "the file is empty"),
    "csv_header_only.csv": ("x,y,label\n", "no data rows in the file"),
    "csv_header_then_blanks.csv": ("\nx,y,label\n\n \n", "no data rows in the file"),
    "csv_header_repeated_column.csv": ("x,x,label\n1,2,1\n",
                                       "the header names column 'x' twice (columns 1 and 2); "
                                       "name the columns by position"),
    "csv_workspace_renamed.csv": (VALID, "this is JSON (a workspace file?), not a table"),
    # ---- CSV files: rows
    "csv_text_in_x.csv": ("x,y,label\n1,2,1\n3,4,-1\n5,6,1\n7,8,-1\n9,10,1\nabc,12,-1\n",
                          "line 7, column 'x': 'abc' is not a number; 1 row with a missing or "
                          "non-numeric value (line 7); skip them with --skip-bad-rows"),
    "csv_text_in_y.csv": ("x,y,label\n1,2,1\n3,four,-1\n",
                          "line 3, column 'y': 'four' is not a number"),
    "csv_decimal_comma_quoted.csv": ('x,y,label\n"1,5",2,1\n',
                                     "line 2, column 'x': '1,5' is not a number"),
    "csv_first_error_wins.csv": ("x,y,label\n1,2,1\n1,bad,1\nbad,1,1\n",
                                 "line 3, column 'y': 'bad' is not a number; 2 rows with a "
                                 "missing or non-numeric value (lines 3, 4)"),
    "csv_empty_cell.csv": ("x,y,label\n,2,1\n", "line 2, column 'x': missing value"),
    "csv_empty_label.csv": ("x,y,label\n1,2,1\n3,4, \n", "line 3, column 'label': missing value"),
    "csv_four_columns.csv": ("x,y,label\n1,2,1\n3,4,-1\n5,6,1\n7,8,-1,9\n",
                             "line 5: expected 3 columns, got 4; skip such rows with "
                             "--skip-bad-rows"),
    "csv_two_columns.csv": ("x,y,label\n1,2\n", "line 2, column 'label': missing value"),
    "csv_one_column_after_blank.csv": ("x,y,label\n1,2,1\n\n4\n",
                                       "line 4, column 'y': missing value"),
    "csv_quoted_four_columns.csv": ('x,y,label\n1,2,"a"\n1,2,"a",3\n',
                                    "line 3: expected 3 columns, got 4"),
    "csv_unterminated_quote.csv": ('x,y,label\n1,2,"dog\n',
                                   'a quoted field is never closed (a " without its closing ")'),
    # ---- CSV files: numbers
    "csv_nan.csv": ("x,y,label\n1,2,1\nnan,2,-1\n", "line 3, column 'x': missing value"),
    "csv_inf.csv": ("x,y,label\n1,-inf,1\n",
                    "line 2, column 'y': infinity, or a number beyond the range of float64, "
                    "is not allowed"),
    "csv_infinity_word.csv": ("x,y,label\nInfinity,0,1\n",
                              "line 2, column 'x': infinity, or a number beyond the range"),
    "csv_overflow.csv": ("x,y,label\n1,2,1\n1e400,2,-1\n",
                         "line 3, column 'x': infinity, or a number beyond the range of float64"),
    "csv_huge_digits.csv": ("x,y,label\n1" + "0" * 400 + ",2,1\n",
                            "line 2, column 'x': infinity, or a number beyond the range of "
                            "float64"),
    "csv_hex_number.csv": ("x,y,label\n0x1p3,2,1\n",
                           "line 2, column 'x': '0x1p3' is not a number"),
    # ---- CSV files: labels
    "csv_three_labels.csv": ("x,y,label\n1,2,a\n3,4,b\n5,6,a\n7,8,c\n",
                             "column 'label' has 3 labels ('a', 'b', 'c'); choose two with "
                             "--positive A --negative B, or one against the rest with "
                             "--positive A"),
    "csv_three_numeric_labels.csv": ("x,y,label\n1,2,0\n3,4,1\n5,6,2\n",
                                     "column 'label' has 3 labels ('0', '1', '2'); choose two"),
    "csv_many_labels.csv": ("x,y,label\n" + "".join(f"{i},{i},{i}\n" for i in range(200)),
                            "column 'label' has 200 labels ('0', '1', '2'"),
    "csv_nan_label.csv": ("x,y,label\n1,2,1\n3,4,nan\n",
                          "line 3, column 'label': missing value"),
    "csv_long_label.csv": ("x,y,label\n1,2,cat\n3,4," + "dog" * 2000 + "\n",
                           "line 3, column 'label': a label of 6,000 characters is too long "
                           "(at most 200)"),
    "csv_long_label_quoted.csv": ('x,y,label\n1,2,"' + "cat, " * 100 + '"\n3,4,dog\n',
                                  "line 2, column 'label': a label of 499 characters is too long "
                                  "(at most 200)"),
    "csv_inf_label.csv": ("x,y,label\n1,2,-inf\n3,4,1\n",
                          "line 2, column 'label': infinity is not a label"),
    # ---- CSV files: binary and encodings
    "csv_latin1.csv": (latin1_at(1234), "not UTF-8 text at byte 1234 (line 124)"),
    "csv_latin1_after_bom.csv": (b"\xef\xbb\xbfx,y,label\n1,2,caf\xe9\n",
                                 "not UTF-8 text at byte 20 (line 2)"),
    "csv_utf16.csv": (CSV_OK.encode("utf-16"), "the file is UTF-16 text; save it as UTF-8"),
    "csv_utf16_le_no_bom.csv": (CSV_OK.encode("utf-16-le"), "the file is UTF-16 text"),
    "csv_utf32.csv": (CSV_OK.encode("utf-32"), "the file is UTF-32 text; save it as UTF-8"),
    "csv_utf32_le_no_bom.csv": (CSV_OK.encode("utf-32-le"), "the file is UTF-32 text"),
    "csv_gzip_renamed.csv": (gz(CSV_OK), "this is a gzip-compressed file, not a text file"),
    "csv_png_renamed.csv": (png(), "this is a PNG image, not a text file"),
    "csv_xlsx_renamed.csv": (b"PK\x03\x04\x14\x00\x06\x00" + b"[Content_Types].xml",
                             "ZIP archive (or an .xlsx"),
    "csv_pdf_renamed.csv": (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "PDF document"),
    "csv_nul_bytes.csv": (b"x,y,label\n1,2,1\n\x00\x00\x00\x00", "NUL byte) at byte 16"),
    "csv_random_bytes.csv": (bytes((i * 73 + 41) % 256 for i in range(300)),
                             "not a text file"),
}


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for old in HERE.iterdir():
        old.unlink()
    index = {}
    for name, (content, fragment) in sorted(CORPUS.items()):
        data = content.encode("utf-8") if isinstance(content, str) else content
        (HERE / name).write_bytes(data)
        index[name] = fragment
    (HERE / "EXPECTED.json").write_text(
        json.dumps(index, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(f"wrote {len(index)} files to {HERE}")


if __name__ == "__main__":
    main()
