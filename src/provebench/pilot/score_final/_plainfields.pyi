# The compiled accelerator of `FieldComparison.compare_pairs` (_plainfields.c, built by
# hatch_build.py); absent where no C compiler was at hand, and then the pure-Python road runs.
from provebench.pilot.score_final._csv import QuotedRecord, Record

def count_equal_fields(
    expected: list[Record],
    candidate: list[Record],
    width: int,
    column: int,
    quoted_type: type[QuotedRecord],
    /,
) -> tuple[int, int] | None: ...
def first_fields(records: list[Record], /) -> list[str] | None: ...
def plain_widths(
    records: list[Record], width: int, quoted_type: type[QuotedRecord], /
) -> bool | None: ...
def hash_first_fields(
    records: list[Record], part: int, keep_all: bool, /
) -> tuple[bytes | None, list[Record], list[int]] | None: ...
def own_lines(
    text: str, part: int, keep_all: bool, crlf: bool, /
) -> tuple[int, bytes | None, list[str], list[int], list[tuple[int, str]]] | None: ...
def take_met(
    keyed: dict[int, Record], hashes: list[int], met: str, /
) -> list[Record | None] | None: ...
