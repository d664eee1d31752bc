"""The rewritten test modules written before the workers start (tests/helpers/rewritten_tests.py)
are the ones pytest would write and read: its own reader takes them, and a changed source is
written again."""

from __future__ import annotations

from pathlib import Path

from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test

from tests.helpers.rewritten_tests import rewritable_modules, write_rewritten

MODULE = "def test_it():\n    x = [1, 2]\n    assert x == [1, 2, 3], 'shown'\n"


def test_pytest_reads_what_is_written_and_a_changed_source_is_written_again(
    tmp_path: Path,
) -> None:
    source = tmp_path / "sub" / "test_one.py"
    source.parent.mkdir()
    source.write_text(MODULE, encoding="utf-8")
    (tmp_path / "sub" / "helper.py").write_text("X = 1\n", encoding="utf-8")  # not a test module
    assert rewritable_modules(tmp_path) == [source]
    assert write_rewritten(tmp_path) == 1
    pyc = source.parent / "__pycache__" / f"test_one{PYC_TAIL}"
    read = _read_pyc(source, pyc)
    assert read is not None and read == _rewrite_test(source, None)[1]  # type: ignore[arg-type]
    assert write_rewritten(tmp_path) == 0  # up to date: nothing written
    source.write_text(MODULE.replace("[1, 2, 3]", "[1, 2, 4]"), encoding="utf-8")
    assert _read_pyc(source, pyc) is None  # stale: pytest would not take it
    assert write_rewritten(tmp_path) == 1 and _read_pyc(source, pyc) is not None
