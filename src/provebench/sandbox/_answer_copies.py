"""The run's own hidden files, found again by their content in a candidate's code.

A run hides its scenario files and `--readings` (SI seed §5.1: the ground truth) and its corpus
where they lie (`_policy.policy_for`); a copy of one kept in the agent's folder — a test
fixture, `ag3/fixture.yaml` — was shown, and a sealed matrix's agent answered from it with no
tool call (sandbox red team 39b, H1b). The pilot refuses a corpus folder in code by its
manifest; a copy of one file is found here, as a seal's opening is (`_known_secrets`).

A code file is a copy when its bytes are a hidden file's (compared only where the sizes are
equal, so only those hidden files are hashed), or when a mapping in one of its YAML or JSON
documents has the parsed form of a scenario document of a hidden file — the same scenario
re-indented, re-quoted, re-ordered, cut out of a file of several documents or given more
(`_form`). Both sides are read by content, not by name: every hidden file and every code file
up to `_MAX_PARSED_BYTES`, each document of it, the code's only where its bytes could spell a
hidden scenario's id (`_ESCAPE`). Before, a file of several documents was never compared on
either side, nor a hidden scenario not named `.yaml`, `.yml` or `.json`, nor a copy whose id was
spelled with escapes, and a sealed agent answered from each with no tool call (sandbox red team
41, SB1, SB1b, SB5, SB6 and SB8). A scenario's answer written into an agent by hand (memorised
from the public file), or a copy in another encoding (compressed, base64), is no copy of a run's
file: docs/sandbox.md states that limit.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

# libyaml's loader where PyYAML has it, as `_yaml`'s (an agent's `yaml.safe_load` reads the same)
try:
    from yaml import CSafeLoader as _SafeLoader
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    from yaml import SafeLoader as _SafeLoader  # type: ignore[assignment]

from provebench.sandbox._corpus_folders import holds_corpus_manifest

# Far above any scenario file (a few kilobytes): a larger file is not parsed as one, either side.
_MAX_PARSED_BYTES = 1 << 20
# The nodes of a hidden scenario document registered (`_yaml`'s bound on a file's).
_MAX_NODES = 200_000
# A scenario's id is spelled without its own bytes only by an escape in a double-quoted YAML or
# JSON string (`\u002e`, `\x2e`, `\/`, an escaped line break) or in UTF-16 or UTF-32 (`_wide`),
# which YAML and JSON readers read as well: the re-quoted copy of sandbox red team 41, SB8,
# passed a test for the id's bytes and was never parsed.
_ESCAPE = re.compile(rb"\\[xuU/\r\n]")
_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff")
# What a document of a hidden file holds to be registered as a scenario (`si.scenario.Scenario`
# requires them): told by its content, whatever the file is named.
_SCENARIO_KEYS = frozenset({"id", "preconditions", "stimuli"})
# The files every corpus publishes to its candidates, the same bytes whatever the seed
# (`pilot.corpus._folder.PUBLISHED_FILES`, a test holds the two equal): an importer may keep a
# copy of its contract or template. Every other file at a corpus's top is its own.
PUBLISHED_CORPUS_FILES = frozenset(
    {
        "candidate_final_rows_template.csv",
        "external_checks_template.json",
        "agent_contract.md",
        "manager_mapping.csv",
    }
)
# A corpus's answer files lie at its top (`corpus._folder`); its folders are not walked.
_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


@dataclass(frozen=True)
class _Form:
    """One scenario document of a hidden file, as `_form` writes it."""

    path: Path
    scenario_id: str
    text: str
    nodes: int


class HiddenCopies:
    """The hidden regular files of a run — each hidden path that is a file, and each file at the
    top of a hidden corpus folder — by size, and every scenario document in them by id and
    parsed form."""

    def __init__(self, hidden: Sequence[Path]) -> None:
        self._by_size: dict[int, list[Path]] = {}
        self._digests: dict[Path, str | None] = {}
        self._forms: dict[str, list[_Form]] = {}
        for path in hidden:
            for found in _hidden_files(path):
                self._note(found)
        # A file that could hold a copy: one that spells a hidden scenario's id, or could spell
        # it otherwise (`_ESCAPE`, `_wide`); every other file is never parsed. (One `in` per id:
        # a regular expression of the ids and escapes read a code folder ten times slower.)
        self._ids = tuple(identifier.encode("utf-8") for identifier in sorted(self._forms))

    def _note(self, path: Path) -> None:
        try:
            size = path.lstat().st_size
        except OSError:
            return
        self._by_size.setdefault(size, []).append(path)
        if size > _MAX_PARSED_BYTES:
            return
        # Every document of the file, whatever it is named: `si run --scenario-id` runs one
        # document of a file of several, and a scenario named `scen.txt` is run as well (sandbox
        # red team 41, SB1, SB1b and SB5).
        for value in _top_mappings(_documents(_read(path))):
            identifier = value.get("id")
            if not isinstance(identifier, str) or not value.keys() >= _SCENARIO_KEYS:
                continue  # no scenario (a corpus's rows, a readings file: by their bytes only)
            form = _form(value, _MAX_NODES)
            if form is not None:
                self._forms.setdefault(identifier, []).append(_Form(path, identifier, *form))

    def copy_of(self, size: int, sha256: str, data: bytes) -> str | None:
        """What hidden file or scenario `data` (of `size` bytes and digest `sha256`) is a copy
        of, in words, or None."""
        for path in self._by_size.get(size, ()):
            if path not in self._digests:
                held = _read(path)
                self._digests[path] = None if held is None else hashlib.sha256(held).hexdigest()
            if self._digests[path] == sha256:
                return str(path)
        if size > _MAX_PARSED_BYTES or not self._ids:
            return None
        if not (any(i in data for i in self._ids) or _ESCAPE.search(data) or _wide(data)):
            return None
        # Every mapping of every document, at any depth: a fixture file of several documents,
        # a list of scenarios or one wrapped in another mapping holds the scenario as well
        # (SB6).
        for value in _every_mapping(_documents(data)):
            identifier = value.get("id")
            forms = self._forms.get(identifier) if isinstance(identifier, str) else None
            if not forms:
                continue
            found = _form(value, max(form.nodes for form in forms))
            for form in forms:
                if found is not None and found[0] == form.text:
                    return f"scenario {form.scenario_id} of {form.path}"
        return None


def _hidden_files(path: Path) -> list[Path]:
    try:
        status = path.lstat()
    except OSError:
        return []
    if stat.S_ISREG(status.st_mode):
        return [path]
    if stat.S_ISDIR(status.st_mode) and holds_corpus_manifest(path):
        try:
            return [
                entry
                for entry in sorted(path.iterdir())
                if entry.name not in PUBLISHED_CORPUS_FILES and entry.is_file()
            ]
        except OSError:
            return []
    return []


def _read(path: Path) -> bytes | None:
    try:
        fd = os.open(path, _FLAGS)
    except OSError:
        return None
    try:
        with os.fdopen(os.dup(fd), "rb") as handle:
            return handle.read()
    except OSError:
        return None
    finally:
        os.close(fd)


class _Loader(_SafeLoader):
    """PyYAML's safe loader, as an agent reads a fixture (`yaml.safe_load_all`: a repeated key's
    last value wins, unlike provebench's own loader), reading a value of an unknown tag as the
    same value untagged: an agent's loader may ignore the tag."""


def _untagged(loader: _SafeLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_scalar(node) if isinstance(node, yaml.ScalarNode) else None


_Loader.add_constructor(None, _untagged)


def _wide(data: bytes) -> bool:
    """Whether `data` may be text in UTF-16 or UTF-32 (as `json.detect_encoding` tells)."""
    return b"\x00" in data[:4] or data.startswith(_WIDE_BOMS)


def _documents(data: bytes | None) -> list[Any]:
    """The JSON value `data` holds (`json` is fast, and reads JSON that YAML does not: tabs, say),
    else every document it holds as YAML, those read before a malformed one too (an agent's
    `yaml.safe_load_all` reads them before it fails)."""
    if data is None:
        return []
    try:
        text = data.decode(json.detect_encoding(data)).removeprefix("\ufeff")
    except (UnicodeDecodeError, LookupError):
        return []
    try:
        return [json.loads(text)]
    except (ValueError, RecursionError):
        pass
    documents: list[Any] = []
    # Whatever PyYAML cannot read further holds nothing more that it reads.
    with contextlib.suppress(Exception):
        for document in yaml.load_all(text, Loader=_Loader):  # a safe loader
            documents.append(document)
    return documents


def _top_mappings(documents: list[Any]) -> list[dict[Any, Any]]:
    """The mappings among `documents` and in a document that is a list."""
    found: list[dict[Any, Any]] = []
    for document in documents:
        items = document if isinstance(document, list) else [document]
        found.extend(item for item in items if isinstance(item, dict))
    return found


def _every_mapping(documents: list[Any]) -> list[dict[Any, Any]]:
    """Every mapping in `documents`, each once: an alias is one value (no alias bomb), and a
    recursive one ends."""
    found: list[dict[Any, Any]] = []
    seen: set[int] = set()
    stack = list(reversed(documents))
    while stack:
        value = stack.pop()
        if not isinstance(value, dict | list) or id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, dict):
            found.append(value)
            stack.extend(reversed(value.values()))
        else:
            stack.extend(reversed(value))
    return found


class _TooLarge(Exception):
    """A value of more nodes than the form it is compared with."""


def _form(value: Any, budget: int) -> tuple[str, int] | None:
    """`(form, nodes)` of a parsed value: JSON of sorted keys whose every scalar is written as
    text (`1` and `"1"` alike, a date as its ISO text), so the same scenario re-quoted,
    re-ordered or re-encoded as JSON has the same form; None past `budget` nodes (an alias
    bomb, a recursive alias) or when it cannot be written."""
    nodes = 0

    def plain(item: Any) -> Any:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise _TooLarge
        if isinstance(item, dict):
            return {_scalar(key): plain(inner) for key, inner in item.items()}
        if isinstance(item, list):
            return [plain(inner) for inner in item]
        if isinstance(item, set | frozenset):
            return sorted(_scalar(inner) for inner in item)
        return _scalar(item)

    try:
        text = json.dumps(plain(value), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    except (_TooLarge, RecursionError, TypeError, ValueError):
        return None
    return text, nodes


def _scalar(item: Any) -> str:
    if isinstance(item, str):
        return item
    if item is None or isinstance(item, bool | int | float):
        return json.dumps(item)
    if isinstance(item, bytes):
        return base64.b64encode(item).decode("ascii")
    return str(item)


__all__ = ["PUBLISHED_CORPUS_FILES", "HiddenCopies"]
