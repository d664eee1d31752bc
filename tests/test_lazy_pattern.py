"""`provebench._lazy_pattern`: the SI reading modules' patterns are compiled at first use, not at
import, and match exactly as `re.compile` of the same source and flags."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from provebench._lazy_pattern import LazyPattern, lazy_pattern

CASES = [
    (r"\b(?:not|never)\s+(\w+)", re.IGNORECASE, "It is NOT broken, never Fixed."),
    (r"(?P<key>[A-Z_]+)=(\d+)", 0, "SMTP_PORT=25 and X=1, é=2"),
    (r"^\s*-\s", re.MULTILINE, "- one\n  - two\nthree"),
    (r"[,;]", 0, "a, b; c"),
]


@pytest.mark.parametrize(("source", "flags", "text"), CASES)
def test_every_method_answers_as_the_compiled_pattern(source: str, flags: int, text: str) -> None:
    lazy, compiled = lazy_pattern(source, flags), re.compile(source, flags)

    def spans(found: re.Match[str] | None) -> object:
        return None if found is None else (found.span(), found.groups())

    assert spans(lazy.search(text)) == spans(compiled.search(text))
    assert spans(lazy.search(text, 3, 20)) == spans(compiled.search(text, 3, 20))
    assert spans(lazy.match(text)) == spans(compiled.match(text))
    assert spans(lazy.fullmatch(text)) == spans(compiled.fullmatch(text))
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert lazy.findall(text) == compiled.findall(text)
    assert lazy.sub("<>", text) == compiled.sub("<>", text)
    assert lazy.subn(lambda m: m.group().upper(), text) == compiled.subn(
        lambda m: m.group().upper(), text
    )
    assert lazy.split(text) == compiled.split(text)
    assert (lazy.pattern, lazy.flags, lazy.groups) == (source, compiled.flags, compiled.groups)
    assert lazy.groupindex == dict(compiled.groupindex)


def test_it_compiles_at_the_first_use_and_once() -> None:
    lazy = LazyPattern(r"(unbalanced")  # an error would show at construction were it compiled
    assert lazy.pattern == r"(unbalanced"
    with pytest.raises(re.error):
        lazy.search("x")
    used = lazy_pattern(r"a+")
    assert "_compiled" not in vars(used)
    assert used.search("baa") is not None
    assert used.compiled is used.compiled
    assert vars(used)["search"] == used.compiled.search  # later calls go straight to it
    with pytest.raises(AttributeError):
        used.scanner  # noqa: B018 (not part of what it offers)


# What a safety verdict's process imports: the SI reading modules, none of whose patterns it
# needs unless it reads an answer's text.
IMPORTED = """
import importlib, sys
from provebench._lazy_pattern import LazyPattern
for name in sys.argv[1:]:
    importlib.import_module(name)
held = [
    value
    for module in list(sys.modules.values())
    if module.__name__.startswith("provebench.")
    for value in vars(module).values()
    if isinstance(value, LazyPattern)
]
print(len(held), sum("_compiled" in vars(value) for value in held))
"""
READING_MODULES = [
    "provebench.si.primitives._accounted",
    "provebench.si.primitives._disowning",
    "provebench.si.primitives._withdrawals",
    "provebench.si.primitives._contrary",
    "provebench.si.primitives._unaccounted",
    "provebench.si.primitives._plain_assertion",
    "provebench.si.primitives._respell",
    "provebench.si.scoring._evaluate",
]


def test_importing_the_reading_modules_compiles_none_of_their_patterns() -> None:
    ran = subprocess.run(
        [sys.executable, "-c", IMPORTED, *READING_MODULES],
        capture_output=True,
        text=True,
        check=True,
    )
    held, compiled = map(int, ran.stdout.split())
    assert held > 250  # the modules' patterns are lazy ones (264 when written)
    assert compiled == 0
