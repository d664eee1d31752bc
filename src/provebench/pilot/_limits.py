"""The ranges of the pilot's numeric options, shared by the command line and the config models.

Checked before anything is written: a value outside its range is one usage error naming the
option (typer's min/max) and, through the API, one `ProvebenchError` naming the field (pydantic).
No imports, so that the command line can use them without loading the models.
"""

from __future__ import annotations

from typing import Final

MAX_SEED: Final = 2**63 - 1
"""Seeds are 0 … 2**63 - 1: a signed 64-bit integer, exact in every JSON reader and in SQLite."""

MAX_CYCLES: Final = 1_000
"""Cycles of a corpus: 1 … 1,000 (pilot §11 asks for 20; each cycle is a run of the importer)."""

MAX_COUNT: Final = 10_000_000
"""Every other corpus size: 0 … 10,000,000, ten times the largest benchmarked corpus (1M file
events); larger ones would take hours to generate and run, and their memory is not measured."""

MAX_PAGE_SIZE: Final = 100_000
"""The base page size of the Drive listing: 1 … 100,000."""

MAX_PORT: Final = 65_535
"""`pilot serve --port`: 0 (any free port) … 65,535."""

MAX_WORKERS: Final = 64
"""`pilot redteam --workers`: 1 … 64 worker processes."""

CONTROL_PROFILE: Final = "control"
"""The corpus profile of a fresh hidden control (pilot §11): the only one a seal commits to."""

CONTROL_MIN_CYCLES: Final = 20
CONTROL_MIN_FILE_EVENTS: Final = 500
"""Pilot §11's least control set: 20 cycles, 500 file events. A seal, its fresh-control credit,
its reveal and a published bundle all refuse a control smaller than this."""

__all__ = [
    "CONTROL_MIN_CYCLES",
    "CONTROL_MIN_FILE_EVENTS",
    "CONTROL_PROFILE",
    "MAX_COUNT",
    "MAX_CYCLES",
    "MAX_PAGE_SIZE",
    "MAX_PORT",
    "MAX_SEED",
    "MAX_WORKERS",
]
