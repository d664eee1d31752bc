"""Run every benchmark in this folder, one after another: `python -m bench [--quick]`."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    status = 0
    for name in names:
        print(f"== {name}", flush=True)
        module = importlib.import_module(f"bench.{name}")
        status |= int(module.main(argv))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
