"""The suite's test modules with their asserts rewritten, written once before the workers start.

pytest rewrites the asserts of every test module and conftest.py it imports and keeps the result
beside the source (`__pycache__/NAME.cpython-311-pytest-VERSION.pyc`), but writes nothing where
`PYTHONDONTWRITEBYTECODE` is set: then each worker of `make unit` rewrote all of them again, and
where it is not set the workers, which all start at once, each rewrote them before any had
written one. Rewriting is two thirds of a worker's collection (13.3 s of CPU against 5.4 s with
the rewritten modules already written), paid once per worker: written here first, once, the
workers only read them (pytest reads them whatever `PYTHONDONTWRITEBYTECODE` says, and checks each
against its source's hash, so a stale one is rewritten as before).

Only pytest's own cache is written, in pytest's own format, with pytest's own functions: where a
later pytest has moved them, this writes nothing and the workers rewrite as before.

`python -m tests.helpers.rewritten_tests [FOLDER]` (default: tests)."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def rewritable_modules(folder: Path) -> list[Path]:
    """What pytest rewrites of `folder`: its test files (the default `python_files`, which
    pyproject.toml keeps) and conftest.py files."""
    return sorted(
        path
        for path in folder.rglob("*.py")
        if path.name == "conftest.py"
        or (path.name.startswith("test_") or path.name.endswith("_test.py"))
    )


def write_rewritten(folder: Path) -> int:
    """Write the rewritten form of each module of `folder` whose cached one is missing or
    stale; the number written."""
    try:
        from _pytest.assertion.rewrite import (
            PYC_TAIL,
            _read_pyc,
            _rewrite_test,
            _write_pyc_fp,
            get_cache_dir,
        )
    except ImportError:
        return 0
    written = 0
    for source in rewritable_modules(folder):
        cache = get_cache_dir(source)
        pyc = cache / (source.name[:-3] + PYC_TAIL)
        if _read_pyc(source, pyc) is not None:
            continue
        # No configuration: pytest's only use of it here is `enable_assertion_pass_hook`,
        # which pyproject.toml leaves off (the same code objects as pytest's own, compared).
        source_hash, code = _rewrite_test(source, None)  # type: ignore[arg-type]
        cache.mkdir(exist_ok=True)
        partial = pyc.with_name(f"{pyc.name}.{os.getpid()}")
        with partial.open("wb") as handle:
            _write_pyc_fp(handle, source_hash, code)
        partial.replace(pyc)  # a reader sees a whole file or none, as with pytest's own writes
        written += 1
    return written


if __name__ == "__main__":
    write_rewritten(Path(sys.argv[1] if len(sys.argv) > 1 else "tests"))
