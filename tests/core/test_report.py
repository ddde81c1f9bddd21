"""core.report: update-log rows, an exact CSV and a LaTeX table, checked against the core."""

from __future__ import annotations

import io
import os
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_gui.core import (
    DualPerceptron,
    PrimalPerceptron,
    Workspace,
    generators,
    report,
    report_latex,
)
from perceptron_gui.core.text import format_update


def ran(ws: Workspace, step: int | None = None) -> Workspace:
    ws.run_to_end()
    if step is not None:
        ws.seek(step)
    return ws


@pytest.fixture
def primal():
    return ran(Workspace(generators.separable(24, seed=5, margin=0.2)))


@pytest.fixture
def kernel():
    ws = Workspace(generators.circles(30, seed=2), learner="dual")
    ws.set_params(kernel="rbf", gamma=2.0)
    return ran(ws)


def two_updates(**params) -> PrimalPerceptron:
    """x0 = (1, 2), y = +1 and x1 = (2, −0.5), y = −1: two updates worked out by hand."""
    return PrimalPerceptron(**params).fit([[1.0, 2.0], [2.0, -0.5]], [1, -1])


# ----------------------------------------------------------------------------- rows


def test_rows_equal_the_core_update_log(primal):
    learner = primal.learner
    log = learner.history.updates.rows()
    rows = list(report.update_rows(primal))
    assert len(rows) == len(log.step) == report.n_updates(primal) > 5
    w_prev, b_prev = np.zeros(2), 0.0
    for u, r in enumerate(rows):
        assert r.k == u + 1
        assert r.step == log.step[u] and r.sample == log.index[u]
        assert r.epoch == (log.step[u] - 1) // primal.dataset.n + 1
        assert r.label == primal.dataset.y[r.sample]
        assert r.margin == log.margin[u] <= 0
        np.testing.assert_array_equal(r.x, primal.dataset.X[r.sample])
        np.testing.assert_array_equal(r.w_before, w_prev)
        np.testing.assert_array_equal(r.w_after, log.w[u])
        assert r.b_before == b_prev and r.b_after == log.b[u]
        assert r.formula == format_update(learner.event(r.step), x=r.x)
        assert r.alpha_before is None and not r.future
        w_prev, b_prev = log.w[u], log.b[u]


def test_the_row_at_the_cursor_reads_like_the_readout_panel(primal):
    k = primal.learner.n_updates_
    primal.seek(int(primal.learner.history.updates.rows().step[k // 2]))
    row = report.update_row(primal, primal.learner.n_updates_ - 1)
    assert row.formula == primal.readouts().last_update != ""


def test_rows_after_the_cursor_are_future(primal):
    log = primal.learner.history.updates.rows()
    primal.seek(int(log.step[3]))  # the cursor at update k = 4
    flags = [r.future for r in report.update_rows(primal)]
    assert flags == [False] * 4 + [True] * (len(log.step) - 4)
    assert len(list(report.update_rows(primal, upto_cursor=True))) == 4
    assert [r.k for r in report.update_rows(primal, start=2, stop=5)] == [3, 4, 5]


def test_kernel_rows_use_the_dual_form_and_count_alpha(kernel):
    log = kernel.learner.history.updates.rows()
    rows = list(report.update_rows(kernel))
    assert len(rows) == len(log.step) > 5
    seen: dict[int, int] = {}
    for r in rows:
        assert r.w_before is None and r.w_after is None
        assert r.formula.startswith(f"α[{r.sample + 1}] ← α[{r.sample + 1}] + 1")
        assert r.alpha_before == seen.get(r.sample, 0)
        seen[r.sample] = r.alpha_before + 1
    np.testing.assert_array_equal(
        np.bincount(list(seen), weights=list(seen.values()), minlength=kernel.dataset.n),
        kernel.learner.alpha_)


def test_a_learner_works_as_a_source_too():
    learner = two_updates()
    rows = list(report.update_rows(learner))
    assert [(r.step, r.sample, r.label, r.margin) for r in rows] == [(1, 0, 1, 0.0),
                                                                     (2, 1, -1, -2.0)]
    np.testing.assert_array_equal(rows[1].w_after, [-1.0, 2.5])


def test_no_run_is_a_value_error():
    with pytest.raises(ValueError, match="no perceptron run"):
        report.n_updates(Workspace(generators.blobs(20, seed=1), learner="lda"))
    with pytest.raises(ValueError, match="no perceptron run"):
        report.log_to_csv(Workspace(), io.StringIO())
    with pytest.raises(ValueError, match="started perceptron"):
        list(report.update_rows(PrimalPerceptron()))
    with pytest.raises(IndexError):
        report.update_row(two_updates(), 2)


# ----------------------------------------------------------------------------- CSV


def read_csv(path):
    with open(path, encoding="utf-8") as f:
        header = f.readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return header, {name: data[:, j] for j, name in enumerate(header)}


def bitwise(a, b) -> bool:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


def test_csv_reads_back_bit_for_bit(primal, tmp_path):
    path = tmp_path / "log.csv"
    assert report.log_to_csv(primal, path) == len(primal.learner.history.updates)
    header, col = read_csv(path)
    assert header == ["k", "step", "epoch", "sample", "y", "x1", "x2", "margin",
                      "w1_before", "w2_before", "b_before", "w1_after", "w2_after", "b_after"]
    assert header == report.csv_columns(primal)
    log = primal.learner.history.updates.rows()
    X = primal.dataset.X
    assert bitwise(col["k"], np.arange(1, len(log.step) + 1))
    # samples numbered from 1 and the label called y, as the window's update log says
    assert bitwise(col["step"], log.step) and bitwise(col["sample"], log.index + 1)
    assert bitwise(col["y"], primal.dataset.y[log.index])
    assert bitwise(col["x1"], X[log.index, 0]) and bitwise(col["x2"], X[log.index, 1])
    assert bitwise(col["margin"], log.margin)
    assert bitwise(np.c_[col["w1_after"], col["w2_after"]], log.w)
    assert bitwise(col["b_after"], log.b)
    assert bitwise(np.c_[col["w1_before"], col["w2_before"]][1:], log.w[:-1])
    assert bitwise(col["b_before"][1:], log.b[:-1]) and col["b_before"][0] == 0
    # the same numbers as the rows
    for r in report.update_rows(primal, stop=5):
        assert bitwise([col["w1_before"][r.k - 1], col["w2_before"][r.k - 1]], r.w_before)


def test_kernel_csv_has_alpha_and_no_w(kernel, tmp_path):
    path = tmp_path / "kernel.csv"
    report.log_to_csv(kernel, path)
    header, col = read_csv(path)
    assert not any(h.startswith("w") for h in header)
    assert header[-2:] == ["alpha_before", "alpha_after"]
    rows = list(report.update_rows(kernel))
    assert bitwise(col["alpha_before"], [r.alpha_before for r in rows])
    assert bitwise(col["alpha_after"] - col["alpha_before"], np.ones(len(rows)))
    assert bitwise(col["margin"], kernel.learner.history.updates.rows().margin)


def test_csv_to_an_open_file_and_partial(primal):
    buf = io.StringIO()
    assert report.log_to_csv(primal, buf, stop=3) == 3
    lines = buf.getvalue().splitlines()
    assert len(lines) == 4 and lines[0].startswith("k,step,epoch")
    primal.seek(0)
    buf = io.StringIO()
    assert report.log_to_csv(primal, buf, upto_cursor=True) == 0
    assert buf.getvalue().count("\n") == 1  # the header only


def test_csv_write_is_atomic(primal, tmp_path, monkeypatch):
    path = tmp_path / "log.csv"
    path.write_text("old contents\n")

    def broken(src, k0, k1, size):
        yield report.Block("k,step\n", 0, k1 - k0)
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(report, "_csv_blocks", broken)
    with pytest.raises(RuntimeError):
        report.log_to_csv(primal, path)
    assert path.read_text() == "old contents\n"
    assert os.listdir(tmp_path) == ["log.csv"]  # no temporary file left behind


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 12), scale=st.sampled_from([1e-7, 1.0, 3e5]),
       order=st.sampled_from(["cyclic", "random"]))
def test_csv_round_trip_property(seed, n, scale, order):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2)) * scale
    y = np.where(np.arange(n) % 2 == 0, 1, -1)
    learner = PrimalPerceptron(order=order, random_state=seed, max_iter=20,
                               bias_scale=float(rng.uniform(0.2, 3.0))).fit(X, y)
    buf = io.StringIO()
    m = report.log_to_csv(learner, buf)
    log = learner.history.updates.rows()
    data = np.loadtxt(io.StringIO(buf.getvalue()), delimiter=",", skiprows=1, ndmin=2)
    assert data.shape == (m, 14) and m == len(log.step)
    assert bitwise(data[:, 11:13], log.w) and bitwise(data[:, 13], log.b)
    assert bitwise(data[:, 7], log.margin) and bitwise(data[:, 5:7], X[log.index])


# ----------------------------------------------------------------------------- LaTeX


def body_rows(tex: str) -> list[str]:
    body = tex.split("\\midrule\n", 1)[1].split("\\bottomrule", 1)[0]
    return [line for line in body.splitlines() if line.strip()]


def test_latex_rows_are_typeset_by_hand():
    tex = report_latex.log_to_latex(two_updates())
    rows = body_rows(tex)
    assert rows == [
        r"1 & 1 & 1 & 1 & $+1$ & $0.00$ & $w \leftarrow (0.00, 0.00) + (+1)\cdot(1.00, 2.00)"
        r" = (1.00, 2.00)$, $b \leftarrow 0.00 + (+1)\cdot1.00 = 1.00$ \\",
        r"2 & 2 & 1 & 2 & $-1$ & $-2.00$ & $w \leftarrow (1.00, 2.00) + (-1)\cdot(2.00, -0.50)"
        r" = (-1.00, 2.50)$, $b \leftarrow 1.00 + (-1)\cdot1.00 = 0.00$ \\",
    ]
    # no bias: no b part; a learning rate appears as a factor
    rows = body_rows(report_latex.log_to_latex(two_updates(fit_intercept=False, eta0=0.5)))
    assert rows[1].endswith(r"& $w \leftarrow (0.50, 1.00) + 0.50\cdot(-1)\cdot(2.00, -0.50)"
                            r" = (-0.50, 1.25)$ \\")


def test_latex_structure(primal):
    tex = report_latex.log_to_latex(primal)
    lines = tex.splitlines()
    assert lines[0].startswith("%") and "booktabs" in lines[0]
    assert lines[1] == r"\begin{tabular}{rrrrrrl}"
    assert lines[2] == r"\toprule"
    assert lines[3].startswith(r"$k$ & step & epoch & sample") and lines[3].endswith(r"\\")
    assert lines[4] == r"\midrule"
    assert lines[-2:] == [r"\bottomrule", r"\end{tabular}"]
    rows = body_rows(tex)
    assert len(rows) == len(primal.learner.history.updates)
    for row, r in zip(rows, report.update_rows(primal), strict=True):
        cells = row.removesuffix(r" \\").split(" & ")
        assert len(cells) == 7
        assert cells[:4] == [str(r.k), str(r.step), str(r.epoch), str(r.sample + 1)]
        assert cells[4] == ("$+1$" if r.label > 0 else "$-1$")
        assert cells[6].startswith(r"$w \leftarrow (") and r"$, $b \leftarrow " in cells[6]
        assert row.count("$") % 2 == 0
        assert row.count("{") == row.count("}")
    assert tex.isascii()  # true minus signs come from math mode, never "−"
    assert "\\begin{table}" not in tex


def test_latex_kernel_and_numbers(kernel):
    rows = body_rows(report_latex.log_to_latex(kernel, stop=4))
    assert len(rows) == 4
    first = report.update_row(kernel, 0)
    i = first.sample + 1  # numbered from 1, as in the window
    assert rf"$\alpha_{{{i}}} \leftarrow \alpha_{{{i}}} + 1 = 1$" in rows[0]
    assert report_latex._tex_num(-1234567.0, 2) == r"-1.23\times 10^{6}"
    assert report_latex._tex_num(-0.001, 2) == r"-1.00\times 10^{-3}"
    assert report_latex._tex_num(float("inf"), 2) == r"\infty"
    assert report_latex._tex_num(-0.0, 2) == "0.00"


def test_latex_float_with_escaped_caption(primal):
    tex = report_latex.log_to_latex(primal, stop=2, caption="Run #1: 50% & $x_1$ ~ {a}",
                                    label="tab:log")
    assert tex.count(r"\begin{table}") == tex.count(r"\end{table}") == 1
    assert r"\caption{Run \#1: 50\% \& \$x\_1\$ \textasciitilde{} \{a\}}" in tex
    assert r"\label{tab:log}" in tex
    assert report_latex.latex_escape("a\\b −1") == r"a\textbackslash{}b \textminus{}1"


def test_large_log_exports_quickly(tmp_path):
    ds = generators.overlapping(3000, seed=1)
    learner = PrimalPerceptron(max_iter=40).fit(ds.X, ds.y)
    m = len(learner.history.updates)
    assert m > 30_000
    import time

    t0 = time.process_time()  # this process's CPU time: other processes do not add to it
    report.log_to_csv(learner, tmp_path / "big.csv")
    spent = time.process_time() - t0
    assert spent < 5.0, spent  # ~0.3 s here
    assert sum(1 for _ in open(tmp_path / "big.csv")) == m + 1


def test_dual_linear_has_both_forms():
    X = [[1.0, 2.0], [2.0, -0.5]]
    dual = DualPerceptron().fit(X, [1, -1])
    rows = list(report.update_rows(dual))
    assert rows[1].formula == list(report.update_rows(two_updates()))[1].formula
    assert [r.alpha_before for r in rows] == [0, 0]
    assert report.csv_columns(dual)[-2:] == ["alpha_before", "alpha_after"]
    assert "w1_after" in report.csv_columns(dual)
    assert re.search(r"\\alpha", report_latex.log_to_latex(dual)) is None  # w form for linear


@pytest.mark.parametrize("which", ["primal", "kernel"])
def test_fast_rows_equal_the_event_rows(which, primal, kernel):
    ws = {"primal": primal, "kernel": kernel}[which]
    ws.seek(int(ws.learner.history.updates.rows().step[4]))
    src = report.RunSource(ws)
    fast = [row for rows in report.log_rows(src, 0, src.count(), 7) for row in rows]
    slow = list(report.update_rows(ws))
    assert len(fast) == len(slow) > 5
    for f, r in zip(fast, slow, strict=True):
        for name in ("k", "step", "epoch", "sample", "label", "margin", "b_before", "b_after",
                     "alpha_before", "future", "x", "w_before", "w_after"):
            a, b = getattr(f, name), getattr(r, name)
            assert (a is None and b is None) or np.array_equal(a, b), (f.k, name, a, b)
            assert type(a) is type(b) or isinstance(a, np.ndarray), (name, type(a), type(b))


# ----------------------------------------------------------------------------- blocks


@pytest.fixture
def long_dual():
    """A dual run over overlapping data: many updates, the same samples again and again."""
    ds = generators.overlapping(40, seed=3)
    return DualPerceptron(max_iter=30).fit(ds.X, ds.y)


def test_blocks_of_any_size_make_the_same_files(long_dual):
    m = report.n_updates(long_dual)
    assert m > 200
    one_csv = "".join(b.text for b in report.csv_blocks(long_dual, rows_per_block=m))
    one_tex = "".join(b.text for b in report_latex.latex_blocks(long_dual, rows_per_block=m))
    for size in (1, 7, 64):
        blocks = list(report.csv_blocks(long_dual, rows_per_block=size))
        assert "".join(b.text for b in blocks) == one_csv
        # the header, then one block per `size` rows, counting up to the total
        assert [b.done for b in blocks] == [0, *range(size, m, size), m]
        assert {b.total for b in blocks} == {m}
        tex = list(report_latex.latex_blocks(long_dual, rows_per_block=size))
        assert "".join(b.text for b in tex) == one_tex
    # α before an update counts the same sample's earlier updates, across blocks too
    data = np.loadtxt(io.StringIO(one_csv), delimiter=",", skiprows=1, ndmin=2)
    index, alpha = data[:, 3].astype(int), data[:, -2].astype(int)
    assert all(alpha[u] == np.count_nonzero(index[:u] == index[u]) for u in range(m))


def test_a_range_of_rows_is_the_same_rows(long_dual):
    whole = report.csv_blocks(long_dual)
    lines = "".join(b.text for b in whole).splitlines()
    part = "".join(b.text for b in report.csv_blocks(long_dual, start=50, stop=120,
                                                     rows_per_block=16)).splitlines()
    assert part == [lines[0], *lines[51:121]]
    tex = report_latex.log_to_latex(long_dual, start=50, stop=120)
    assert tex.count("\\\\\n") == 1 + 70 and "\n51 & " in tex and "\n121 & " not in tex


def test_the_log_is_read_in_one_function_only():
    import inspect

    text = inspect.getsource(report)
    reader = inspect.getsource(report.RunSource.__init__)
    assert text.count("history.updates") == reader.count("history.updates") == 1


def test_a_latex_table_has_a_row_limit(long_dual):
    m = report.n_updates(long_dual)
    with pytest.raises(ValueError, match=rf"{m:,} updates are too many .*\(at most 100 rows\)"):
        report_latex.log_to_latex(long_dual, max_rows=100)
    with pytest.raises(ValueError, match="at most"):
        report_latex.latex_blocks(long_dual, max_rows=100)  # at once, not at the first block
    assert report_latex.log_to_latex(long_dual, start=10, stop=110, max_rows=100).count(" & ") > 0


def test_the_latex_window_is_around_the_cursor():
    ws = Workspace(generators.overlapping(40, seed=3), learner="dual")
    ws.set_params(max_iter=30)
    ws.run_to_end()
    m = report.n_updates(ws)
    assert report_latex.latex_window(ws, m + 5) == (0, m)
    ws.seek(ws.learner.history.updates.step_of(m // 2))  # at update m // 2 + 1
    here = ws.learner.n_updates_
    start, stop = report_latex.latex_window(ws, 40)
    assert stop - start == 40 and start <= here - 1 < stop and start == here - 20
    ws.seek(0)
    assert report_latex.latex_window(ws, 40) == (0, 40)
    ws.seek(ws.learner.frontier)
    assert report_latex.latex_window(ws, 40) == (m - 40, m)


def test_a_cancelled_write_leaves_the_old_file(long_dual, tmp_path):
    path = tmp_path / "log.csv"
    path.write_text("old contents\n")
    seen = []

    def progress(done, total):
        seen.append((done, total))
        return done < 64  # Cancel once 64 rows are written

    with pytest.raises(report_cancelled()):
        report.log_to_csv(long_dual, path, progress=progress)
    assert path.read_text() == "old contents\n" and os.listdir(tmp_path) == ["log.csv"]
    m = report.n_updates(long_dual)
    assert seen[0] == (0, m) and seen[-1][0] >= 64
    # Cancel pressed as the last block is written: the file is still not replaced
    ends = []

    def cancel_at_the_end(done, total):
        ends.append(done == m)
        return sum(ends) < 2

    with pytest.raises(report_cancelled()):
        report.log_to_csv(long_dual, path, progress=cancel_at_the_end)
    assert sum(ends) == 2
    assert path.read_text() == "old contents\n" and os.listdir(tmp_path) == ["log.csv"]
    assert report.log_to_csv(long_dual, path, progress=lambda done, total: True) == m


def report_cancelled():
    from perceptron_gui.core.io import Cancelled

    return Cancelled
