"""The run's own hidden files, found again by their content in a candidate's code.

A run hides its scenario files and `--readings` (SI seed §5.1: the ground truth) and its corpus
where they lie (`_policy.policy_for`); a copy of one kept in the agent's folder — a test
fixture, `ag3/fixture.yaml` — was shown, and a sealed matrix's agent answered from it with no
tool call (sandbox red team 39b, H1b). The pilot refuses a corpus folder in code by its
manifest; a copy of one file is found here, as a seal's opening is (`_known_secrets`).

A code file is a copy when its bytes are a hidden file's (compared only where the sizes are
equal, so only those hidden files are hashed), or when it is a YAML or JSON document whose
parsed content is a hidden scenario's — the same scenario re-indented or re-quoted — looked at
only in a file that holds the scenario's id. A scenario's answer written into an agent by hand
(memorised from the public file) is no copy of a run's file: docs/sandbox.md states that limit.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from provebench._canonical import canonical_json
from provebench._errors import ProvebenchError
from provebench._yaml import load_yaml_bytes
from provebench.sandbox._corpus_folders import holds_corpus_manifest

# Far above any scenario file (a few kilobytes): a larger file is not parsed as one, either side.
_MAX_PARSED_BYTES = 1 << 20
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


class HiddenCopies:
    """The hidden regular files of a run — each hidden path that is a file, and each file at the
    top of a hidden corpus folder — by size, and the hidden scenarios by id and parsed form."""

    def __init__(self, hidden: Sequence[Path]) -> None:
        self._by_size: dict[int, list[Path]] = {}
        self._digests: dict[Path, str | None] = {}
        self._scenarios: dict[bytes, tuple[Path, str]] = {}
        for path in hidden:
            for found in _hidden_files(path):
                self._note(found)

    def _note(self, path: Path) -> None:
        try:
            size = path.lstat().st_size
        except OSError:
            return
        self._by_size.setdefault(size, []).append(path)
        if size <= _MAX_PARSED_BYTES and path.suffix in (".yaml", ".yml", ".json"):
            parsed = _parsed(path.name, _read(path))
            if parsed is not None and parsed[0]:
                self._scenarios[parsed[0].encode("utf-8")] = (path, parsed[1])

    def copy_of(self, size: int, sha256: str, data: bytes) -> Path | None:
        """The hidden file whose content `data` (of `size` bytes and digest `sha256`) is."""
        for path in self._by_size.get(size, ()):
            if path not in self._digests:
                held = _read(path)
                self._digests[path] = None if held is None else hashlib.sha256(held).hexdigest()
            if self._digests[path] == sha256:
                return path
        if size > _MAX_PARSED_BYTES:
            return None
        for scenario_id, (path, form) in self._scenarios.items():
            if scenario_id in data:
                parsed = _parsed("<code>", data)
                if parsed is not None and parsed[1] == form:
                    return path
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


def _parsed(name: str, data: bytes | None) -> tuple[str, str] | None:
    """`(id, canonical form)` of a one-document YAML or JSON mapping, or None."""
    if data is None:
        return None
    try:
        documents = load_yaml_bytes(name, data)
        if len(documents) != 1 or not isinstance(documents[0].data, dict):
            return None
        value = documents[0].data
        identifier = value.get("id")
        return (identifier if isinstance(identifier, str) else "", canonical_json(value))
    except (ProvebenchError, TypeError, ValueError, RecursionError):
        return None


__all__ = ["PUBLISHED_CORPUS_FILES", "HiddenCopies"]
