"""The serial part of ``make test`` (``-m serial``) imports only the modules with serial tests."""

from __future__ import annotations

from types import SimpleNamespace

from tests import conftest


def _config(markexpr: str):
    """A stand-in for pytest's config, with ``-m markexpr`` given."""
    return SimpleNamespace(getoption=lambda name, default=None: (
        markexpr if name == "markexpr" else default))


def test_under_m_serial_a_module_without_a_serial_test_is_not_imported(tmp_path):
    timing = tmp_path / "test_timing.py"
    timing.write_text("import pytest\n\n\n@pytest.mark.serial\ndef test_a():\n    pass\n")
    other = tmp_path / "test_other.py"
    other.write_text("def test_b():\n    pass\n")
    helper = tmp_path / "helpers.py"
    helper.write_text("")
    ignore = conftest.pytest_ignore_collect
    assert ignore(other, _config("serial")) is True
    assert ignore(other, _config(" serial ")) is True
    for kept in (timing, helper, tmp_path):
        assert ignore(kept, _config("serial")) is None, kept
    # any other selection collects every module, as pytest does
    for expr in ("", "not serial", "slow", "serial and slow", "serial or slow"):
        assert ignore(other, _config(expr)) is None, expr

