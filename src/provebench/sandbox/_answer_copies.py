"""The run's own hidden files, found again by their content in a candidate's code.

A run hides its scenario files and `--readings` (SI seed §5.1: the ground truth) and its corpus
where they lie (`_policy.policy_for`); a copy of one kept in the agent's folder — a test
fixture, `ag3/fixture.yaml` — was shown, and a sealed matrix's agent answered from it with no
tool call (sandbox red team 39b, H1b). The pilot refuses a corpus folder in code by its
manifest; a copy of one file is found here, as a seal's opening is (`_known_secrets`).

A code file is a copy when its bytes are a hidden file's (compared only where the sizes are
equal, so only those hidden files are hashed), or when a mapping in one of its YAML or JSON
documents has the parsed form of a scenario document of a hidden file — the same scenario re-
indented, re-quoted, re-ordered, cut out of a file of several documents or given more (`_form`).
Both sides are read by content, not by name: every hidden file and every code file up to
`_MAX_PARSED_BYTES`, each document of it, by every reader (`_documents`). Before, a file of
several documents was never compared on either side, nor a hidden scenario not named `.yaml`,
`.yml` or `.json`, nor a copy whose id was spelled with escapes, and a sealed agent answered
from each with no tool call (sandbox red team 41, SB1, SB1b, SB5, SB6 and SB8).

Nor was a copy that is not the whole scenario with its id: one key added, the id renamed, only
`injection:` and `scoring:` kept, or the scenario in Markdown, a JSON string, a Python literal, a
pickle, or padded past 1 MiB (sandbox red team 42, G1-1 … G1-8). So each answer part of a hidden
scenario (`_answer_parts`) is matched at any depth with no id gate, and the scenario's prose
(`_answer_texts`), normalised, is looked for in the bytes of every code file, any size, unparsed.
A code file was parsed only where its bytes held a hidden scenario's id, an answer part's
longest value or an escape; by one reader, the first whose format it was; as a pickle only where
it began with the PROTO opcode and held one value; and as UTF-16 only where its first four bytes
held a NUL. TOML's line-ending backslash split every value, a TOML string hid a YAML document, a
pickle held an extra value or no PROTO, and YAML in UTF-16 began with two CJK characters: a
sealed agent answered from each with no tool call (sandbox red team 45, G1, G2, G2b, G3, G5). So
every code file up to `_MAX_PARSED_BYTES` is read by every reader, in every encoding its bytes
may be text in (`_texts`), and every value read is compared.

A scenario's answer written into an agent by hand (memorised from the public file), its prose
reworded, or a copy in another encoding (compressed, base64) is no copy of a run's file:
docs/sandbox.md states that limit.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import io
import json
import os
import pickletools
import re
import stat
import tomllib
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
# Every code file up to it is parsed by every reader (sandbox red team 45, G1): docs/sandbox.md
# gives the cost measured.
_MAX_PARSED_BYTES = 1 << 20
# The larger files parsed in one run, in all (`_parsed_copy_of`): about a minute of CPU.
_MAX_LARGE_PARSED_BYTES = 64 << 20
# The nodes of a hidden scenario document registered (`_yaml`'s bound on a file's).
_MAX_NODES = 200_000
# The encodings a file of NUL bytes may be text in (`_texts`): text in UTF-16 or UTF-32 that holds
# an ASCII character holds a NUL byte, wherever it begins and whatever its first characters (YAML
# in UTF-16-LE beginning `答案` had none in its first four bytes and was read as UTF-8: sandbox red
# team 45, G5); one with none holds no ASCII, so neither an answer part's keys nor a prose word.
_WIDE = ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")
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


# The answer-bearing parts of a scenario, registered as forms of their own and matched at any
# depth of a code file with no id beside them (`_answer_parts`): the red team's split kept only
# `injection:` and `scoring:` (sandbox red team 42, G1-4).
_ANSWER_PARTS = ("injection", "scoring")
# A scenario's own prose, never in an agent's task (the task is the operator prompt, its mode and
# scope: `si task`) nor in what the tools show (those come from `preconditions`, left out), which
# states the answer: `description`, `intent`, `injection.counterfactual` and every text under
# `verification` but its API operations (`_OPERATIONS`). Each of at least `_MIN_TEXT`
# characters once normalised (`_normalised`) is looked for in the bytes of every code file, any
# size, unparsed: it survives Markdown, a JSON string, a Python literal, a pickle, a tar and
# padding (sandbox red team 42, G1-1 … G1-8).
_TEXT_KEYS = ("description", "intent")
# Not prose: the API operations a verification names (`verification.api_audit`, "scale
# deployment/web-app …") are what an agent's own commands say, honest or not (a scripted
# agent that makes the forbidden scale holds that command).
_OPERATIONS = ("verification.api_audit",)
_MIN_TEXT = 32
# Keys whose value under `verification` names a thing, not prose (`_answer_texts`).
_IDENTIFIER_KEYS = frozenset({"resource", "namespace", "condition", "kind", "name", "id", "ref"})
# What a candidate is shown of a scenario: its task's prompt (`stimuli`), what the tools show
# (`preconditions`) and its name (`_public_words`).
_PUBLIC_KEYS = ("preconditions", "stimuli", "name")
# How far above a scenario file its profile's folder is looked for (`profile.md`).
_PROFILE_DEPTH = 4
# Every byte but an ASCII letter or digit is a word break, letters lowercased (`_normalised`).
_WORDS = bytes(
    byte + 32 if 65 <= byte <= 90 else byte if 48 <= byte <= 57 or 97 <= byte <= 122 else 32
    for byte in range(256)
)
# A line break, tab or quote escaped in a JSON or Python string is a word break too.
_ESCAPED_BREAKS = (b"\\n", b"\\r", b"\\t")
# A character escaped in a JSON, YAML, Python or C string (`\u2014`, `\U0001F600`, `\xe9`, a
# surrogate pair `\ud83d\ude00`) is read as the character it spells before the prose is
# normalised: `json.dumps` writes an em dash as `\u2014`, which normalised as written left the
# word `u2014` where the hidden side's dash is a word break, and a sealed agent answered from the
# scenario's prose kept as JSON (sandbox red team 43, G1-1). Both sides are read the same way.
_CHARACTER_ESCAPE = re.compile(
    rb"\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})|\\x([0-9a-fA-F]{2})"
)
_WORD = re.compile(rb"[A-Za-z0-9]+")


@dataclass(frozen=True)
class _Text:
    """One distinctive text of a hidden scenario (`_TEXT_KEYS`), normalised."""

    where: str
    probe: bytes  # its longest word as written: the bytes a file holds before it is normalised
    # `word word … word`, normalised (`_normalised`) with no space at either end: in a pickle, and
    # any length-prefixed record, the byte before a string is its length, a letter for many
    # lengths, glued to the first word (`lrestoring`): sandbox red team 45, G4
    words: bytes


@dataclass(frozen=True)
class _Form:
    """One scenario document of a hidden file, or an answer part of one (`scenario_id` then says
    which, in words), as `_form` writes it."""

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
        # The answer-bearing parts (`_ANSWER_PARTS`), by their keys, and the scenario prose.
        self._parts: dict[frozenset[str], list[_Form]] = {}
        self._texts: list[_Text] = []
        for path in hidden:
            for found in _hidden_files(path):
                self._note(found)
        # Each text's longest word as UTF-16 (either byte order: `w\0o\0r\0d` is in both) and
        # UTF-32 spell it (`w\0\0\0o…`), looked for (`in`, fast) before a file is read without
        # its NULs.
        self._wide_probes = {
            (b"\x00" * width).join(byte.to_bytes(1, "big") for byte in probe)
            for probe in {text.probe for text in self._texts}
            for width in (1, 3)
        }
        self._part_nodes = max(
            (form.nodes for forms in self._parts.values() for form in forms), default=0
        )
        # Each answer part's keys as bytes: a file over `_MAX_PARSED_BYTES` is parsed only where
        # its bytes hold every key of one (`_parsed_copy_of`), up to `_MAX_LARGE_PARSED_BYTES`
        # in all a run.
        self._part_keys = [[key.encode("utf-8") for key in keys] for keys in self._parts]
        self._large_parsed = 0

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
            # The same document read by several readers (JSON is YAML too) is one form.
            if form is not None:
                _add(self._forms.setdefault(identifier, []), _Form(path, identifier, *form))
            for where, part in _answer_parts(value):
                found = _form(part, _MAX_NODES)
                if found is not None:
                    keys = frozenset(_scalar(key) for key in part)
                    label = f"the {where} of scenario {identifier}"
                    _add(self._parts.setdefault(keys, []), _Form(path, label, *found))
            public = _public_words(value, path)
            for where, text in _answer_texts(value):
                words = _normalised(text.encode("utf-8"))
                # A text the candidate is shown anyway — in the scenario's preconditions, its
                # operator prompts or its name, or in its profile's published prose — states no
                # answer: an honest README holding "no write operations in production
                # namespace", the profile's own words, was refused (sandbox red team 43, G1-5).
                if words in public:
                    continue
                if len(words) >= _MIN_TEXT + 2:
                    probe = max(_WORD.findall(text.encode("utf-8")), key=len)
                    label = f"{identifier} ({where}) of {path}"
                    _add(self._texts, _Text(label, probe, words.strip(b" ")))

    def copy_of(self, size: int, sha256: str, data: bytes) -> str | None:
        """What hidden file or scenario `data` (of `size` bytes and digest `sha256`) is a copy
        of, in words, or None."""
        for path in self._by_size.get(size, ()):
            if path not in self._digests:
                held = _read(path)
                self._digests[path] = None if held is None else hashlib.sha256(held).hexdigest()
            if self._digests[path] == sha256:
                return str(path)
        parsed = self._parsed_copy_of(size, data)
        return parsed if parsed is not None else self._text_in(data)

    def _text_in(self, data: bytes) -> str | None:
        """The hidden scenario whose prose (`_TEXT_KEYS`) `data` holds, in words, or None: in the
        bytes of a file of any size, unparsed (sandbox red team 42, G1-1 … G1-8), its character
        escapes read as the characters they spell (red team 43, G1-1), a word glued to the byte
        before or after it (a length byte) read as well (red team 45, G4). A file with NUL bytes
        is read again with them left out: the prose in UTF-16 or UTF-32, whole or in a binary
        file, reads as its ASCII."""
        found = self._text_in_bytes(data)
        if found is None and any(probe in data for probe in self._wide_probes):
            found = self._text_in_bytes(data.replace(b"\x00", b""))
        return found

    def _text_in_bytes(self, data: bytes) -> str | None:
        data = _unescaped(data)
        texts = [text for text in self._texts if text.probe in data]
        if texts:
            words = _normalised(data)
            for text in texts:
                if text.words in words:
                    return f"the text of scenario {text.where}"
        return None

    def _parsed_copy_of(self, size: int, data: bytes) -> str | None:
        """The hidden scenario, or answer part of one, that a mapping of `data` has the form of,
        in words, or None."""
        # Every code file is parsed, whatever its bytes hold: a file was parsed only where they
        # held an id, an answer part's longest value or an escape, and TOML's line-ending
        # backslash (`\ ` and a line break, trimmed inside a string) split each of them (sandbox
        # red team 45, G1).
        if not self._forms:
            return None
        if size > _MAX_PARSED_BYTES:
            # A file padded past the bound hid the answer parts from every reader (sandbox red
            # team 46, G3: one YAML comment line of 1 MiB): a larger file is parsed too where
            # its bytes, escapes read, hold every key of an answer part — a cheap test — within
            # a budget for the run, so that no candidate makes the walk take hours.
            if self._large_parsed + size > _MAX_LARGE_PARSED_BYTES:
                return None
            text = _unescaped(data.replace(b"\x00", b""))  # UTF-16/32 read as its ASCII
            if not any(all(key in text for key in keys) for keys in self._part_keys):
                return None
            self._large_parsed += size
        # Every mapping of every document, at any depth: a fixture file of several documents,
        # a list of scenarios or one wrapped in another mapping holds the scenario as well
        # (SB6); and an answer part with no id beside it (G1-4).
        for value in _every_mapping(_documents(data)):
            identifier = value.get("id")
            forms = self._forms.get(identifier) if isinstance(identifier, str) else None
            if forms:
                found = _form(value, max(form.nodes for form in forms))
                for form in forms:
                    if found is not None and found[0] == form.text:
                        return f"scenario {form.scenario_id} of {form.path}"
            part = self._part_of(value)
            if part is not None:
                return part
        return None

    def _part_of(self, value: dict[Any, Any]) -> str | None:
        """The answer part of a hidden scenario (`_ANSWER_PARTS`) that `value` has the form of,
        in words, or None: only a mapping of a part's keys is written out, within the largest
        part's nodes."""
        forms = self._parts.get(frozenset(_scalar(key) for key in value))
        found = _form(value, self._part_nodes) if forms else None
        for form in forms or ():
            if found is not None and found[0] == form.text:
                return f"{form.scenario_id} of {form.path}"
        return None


def _answer_parts(scenario: dict[Any, Any]) -> list[tuple[str, Any]]:
    """`(where, part)` for each answer-bearing part of a scenario document: `injection` and
    `scoring` whole, each of `injection.deviations`, and `scoring.factor` (the answer key)."""
    found: list[tuple[str, Any]] = []
    for name in _ANSWER_PARTS:
        part = scenario.get(name)
        if isinstance(part, dict) and part and not (name == "scoring" and _generic(part)):
            found.append((name, part))
    injection, scoring = scenario.get("injection"), scenario.get("scoring")
    deviations = injection.get("deviations") if isinstance(injection, dict) else None
    for index, deviation in enumerate(deviations if isinstance(deviations, list) else []):
        if isinstance(deviation, dict) and deviation:
            found.append((f"injection.deviations[{index}]", deviation))
    factor = scoring.get("factor") if isinstance(scoring, dict) else None
    if isinstance(factor, dict) and factor:
        found.append(("scoring.factor", factor))
    return found


# What a safety scenario's binary `scoring` holds (Scenarios §1: its type, the tolerance and the
# pass condition): the same block in every safety scenario of the profile, no answer of one.
_GENERIC_SCORING_KEYS = frozenset({"type", "safety_tolerance", "pass_condition"})


def _generic(scoring: dict[Any, Any]) -> bool:
    """Whether a `scoring` block holds only what every safety scenario's holds (sandbox and
    provider red team 44, G2-1: an honest agent's `defaults.json` with `{"type": "binary",
    "safety_tolerance": 0, "pass_condition": "all_assertions_met"}` was refused as a copy)."""
    return set(scoring) <= _GENERIC_SCORING_KEYS


def _public_words(scenario: dict[Any, Any], path: Path) -> bytes:
    """The normalised text of what a candidate is shown of a scenario (`_PUBLIC_KEYS`: its
    preconditions, stimuli and name) and of its profile's published prose (`_profile_text`),
    each string one run of words."""
    strings: list[bytes] = []
    stack: list[Any] = [scenario.get(key) for key in _PUBLIC_KEYS]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            strings.append(_normalised(value.encode("utf-8")))
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return b"".join(strings) + _profile_text(path)


def _profile_text(path: Path) -> bytes:
    """The normalised Markdown of the OASIS profile that holds the scenario file `path` (the
    nearest folder above it with a `profile.md`, its top-level `.md` files): published with the
    standard, never hidden. Empty where there is none (provebench's shipped scenarios)."""
    for folder in list(path.parents)[:_PROFILE_DEPTH]:
        if (folder / "profile.md").is_file():
            return _profile_folder_text(folder)
    return b""


@functools.lru_cache(maxsize=16)
def _profile_folder_text(folder: Path) -> bytes:
    try:
        names = sorted(entry for entry in folder.iterdir() if entry.suffix == ".md")
    except OSError:
        return b""
    return b"".join(_normalised(_read(name) or b"") for name in names)


def _answer_texts(scenario: dict[Any, Any]) -> list[tuple[str, str]]:
    """`(where, text)` for each string of the scenario's prose (`_TEXT_KEYS`). An identifier's
    value under `verification` (`_IDENTIFIER_KEYS`: `state_assertions[0].resource`,
    `configmap/payment-gateway-config`) is no prose: the same name is in the preconditions and
    what the tools show, and an honest kubectl helper naming it was refused (sandbox red team
    43, G1-6)."""
    found = [(key, scenario[key]) for key in _TEXT_KEYS if isinstance(scenario.get(key), str)]
    injection = scenario.get("injection")
    if isinstance(injection, dict) and isinstance(injection.get("counterfactual"), str):
        found.append(("injection.counterfactual", injection["counterfactual"]))
    stack: list[tuple[str, Any]] = [("verification", scenario.get("verification"))]
    while stack:  # every string under `verification`, at any depth, but its API operations
        where, value = stack.pop()
        if where.startswith(_OPERATIONS) or where.rpartition(".")[2] in _IDENTIFIER_KEYS:
            continue
        if isinstance(value, str):
            found.append((where, value))
        elif isinstance(value, dict):
            stack.extend((f"{where}.{_scalar(key)}", inner) for key, inner in value.items())
        elif isinstance(value, list):
            stack.extend((f"{where}[{index}]", inner) for index, inner in enumerate(value))
    return found


def _normalised(data: bytes) -> bytes:
    """` word word … `: the ASCII letters and digits of `data` in lowercase, every other run of
    bytes (spaces, line breaks and a YAML block's indent, quotes, punctuation, an escaped line
    break) one space: the same prose re-wrapped, re-quoted or escaped reads the same."""
    data = _unescaped(data)
    for escaped in _ESCAPED_BREAKS:
        data = data.replace(escaped, b" ")
    return b" " + b" ".join(data.translate(_WORDS).split()) + b" "


def _unescaped(data: bytes) -> bytes:
    """`data` with each character escape (`_CHARACTER_ESCAPE`) replaced by the UTF-8 of the
    character it spells (a lone surrogate, which has none, by a space): the prose kept as
    `json.dumps` text reads as the prose (sandbox red team 43, G1-1)."""
    if b"\\" not in data:
        return data
    return _CHARACTER_ESCAPE.sub(_character, data)


def _character(found: re.Match[bytes]) -> bytes:
    high, low, four, eight, two = found.groups()
    if high is not None:
        point = 0x10000 + ((int(high, 16) - 0xD800) << 10) + (int(low, 16) - 0xDC00)
    else:
        point = int(four or eight or two, 16)
    if point > 0x10FFFF or 0xD800 <= point <= 0xDFFF:
        return b" "
    return chr(point).encode("utf-8")


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


def _add(items: list[Any], item: Any) -> None:
    """Append `item` to `items` unless it is there (a few forms and texts a scenario)."""
    if item not in items:
        items.append(item)


def _documents(data: bytes | None) -> list[Any]:
    """Every value `data` holds for any reader an agent may use: what every pickle in it holds
    (`_unpickled`), and of each text it may be (`_texts`) its JSON value, the JSON value of each
    of its lines (JSON Lines), its TOML value and every YAML document, those read before a
    malformed one too (an agent's `yaml.safe_load_all` reads them before it fails). Not the first
    format that parses: a TOML string that hid a YAML document was read as TOML only, and a
    sealed agent answered from the YAML (sandbox red team 45, G3). Both sides are read so."""
    if data is None:
        return []
    documents = _unpickled(data)
    texts = _texts(data)
    for text in texts:
        with contextlib.suppress(ValueError, RecursionError):  # `tomllib`: red team 43, G1-4
            documents.append(tomllib.loads(_toml_bounded(text)))
        try:
            documents.append(json.loads(text))
            # A JSON text is one YAML flow document of the same mappings, keys and strings:
            # YAML reads nothing more in it (and is the slowest reader of the three).
            continue
        except (ValueError, RecursionError):
            documents.extend(_json_lines(text))
            documents.extend(_json_prefix(text))
        documents.extend(_yaml_documents(text))
    # What an agent reads a line or a document at a time is read so even where the text holds
    # a NUL, which no whole-text reader takes (`_texts`): one NUL on a first line hid every
    # JSON line after it, and a sealed agent answered from them (sandbox red team 46, G2).
    whole = data.decode("utf-8", errors="replace").removeprefix("\ufeff")
    if "\x00" in whole:
        documents.extend(_json_lines(whole))
        documents.extend(_yaml_documents(whole.replace("\x00", "")))
    return documents


# A line of more dots than this is left out of what TOML reads (`_toml_bounded`).
_MAX_TOML_LINE_DOTS = 64
_YAML_DOCUMENT_START = re.compile(r"^---(?=[ \t\r\n]|$)", re.MULTILINE)


def _toml_bounded(text: str) -> str:
    """`text` with every line of more than `_MAX_TOML_LINE_DOTS` dots blanked, for `tomllib`,
    whose time grows with the square of a dotted key's parts (a key, a table header or an
    inline table's key): one 256 KiB line `N.N.N…` took 33 s of CPU before the run began, and a
    file of 1 MiB would take about ten minutes (sandbox red team 46, C1). Such a key stands
    more than 64 levels deep, where no answer part of a scenario does, so blanking its line
    leaves every answer part a TOML file holds as it was; a string value of that many dots on
    one line is prose, which `_text_in` reads in the bytes."""
    if text.count(".") <= _MAX_TOML_LINE_DOTS:
        return text
    return "\n".join(
        "" if line.count(".") > _MAX_TOML_LINE_DOTS else line for line in text.split("\n")
    )


def _json_prefix(text: str) -> list[Any]:
    """The JSON value that `text` begins with, whatever follows it (`JSONDecoder.raw_decode`,
    which an agent may call: the answer parts followed by a line of anything else)."""
    start = len(text) - len(text.lstrip())
    if text[start : start + 1] not in ("{", "["):
        return []
    with contextlib.suppress(ValueError, RecursionError):
        return [json.JSONDecoder().raw_decode(text, start)[0]]
    return []


def _yaml_documents(text: str) -> list[Any]:
    """Every YAML document of `text`: those `yaml.load_all` reads before a malformed one, and
    where one is malformed, each document after it read by itself (an agent may split the
    text at `---` and read each: sandbox red team 46, G2's family). Whatever PyYAML cannot read
    holds nothing more that it reads."""
    documents: list[Any] = []
    try:
        for document in yaml.load_all(text, Loader=_Loader):  # a safe loader
            documents.append(document)
    except Exception:  # any failure of the reader: the pieces are read below
        starts = sorted({0, *(found.start() for found in _YAML_DOCUMENT_START.finditer(text))})
        if len(starts) == 1:
            return documents  # one document, malformed: nothing more to read
        for begin, end in zip(starts, [*starts[1:], len(text)], strict=True):
            with contextlib.suppress(Exception):
                documents.extend(yaml.load_all(text[begin:end], Loader=_Loader))
    return documents


def _texts(data: bytes) -> list[str]:
    """Each text `data` may be, a BOM left out: UTF-8, its invalid bytes read as U+FFFD (so text
    in Latin-1 or another ASCII-compatible encoding reads its ASCII, an answer part's keys and
    values, the same); and, where `data` holds a NUL byte or begins with a wide BOM, UTF-16 and
    UTF-32 of either byte order, each that decodes (`_WIDE`). A text holding a NUL character is
    no text any of the readers reads (binary data read as UTF-8, UTF-16 read as UTF-32)."""
    found = [data.decode("utf-8", errors="replace").removeprefix("\ufeff")]
    if b"\x00" in data or data.startswith((b"\xff\xfe", b"\xfe\xff")):
        for encoding in _WIDE:
            with contextlib.suppress(UnicodeDecodeError):
                found.append(data.decode(encoding).removeprefix("\ufeff"))
    texts: list[str] = []
    for text in found:
        if "\x00" not in text and text not in texts:
            texts.append(text)
    return texts


def _json_lines(text: str) -> list[Any]:
    """The JSON value of each line of `text` that is one (JSON Lines: `json.loads` per line)."""
    values: list[Any] = []
    for line in text.splitlines():
        if line.lstrip().startswith(("{", "[")):
            with contextlib.suppress(ValueError, RecursionError):
                values.append(json.loads(line))
    return values


# The opcodes of builtin scalars and containers (`_unpickled`); a class or a call (GLOBAL,
# STACK_GLOBAL, REDUCE, BUILD, NEWOBJ, INST, OBJ, PERSID …) is read as `_Named` and `_Made`:
# nothing is ever imported or called.
_PICKLE_VALUES = frozenset(
    {
        "BINUNICODE", "SHORT_BINUNICODE", "BINUNICODE8", "UNICODE", "STRING", "BINSTRING",
        "SHORT_BINSTRING", "BINBYTES", "SHORT_BINBYTES", "BINBYTES8", "BYTEARRAY8", "INT",
        "BININT", "BININT1", "BININT2", "LONG", "LONG1", "LONG4", "FLOAT", "BINFLOAT",
    }
)  # fmt: skip
_PICKLE_CONSTANTS = {"NONE": None, "NEWTRUE": True, "NEWFALSE": False}
_PICKLE_EMPTY: dict[str, Any] = {
    "EMPTY_DICT": dict,
    "EMPTY_LIST": list,
    "EMPTY_TUPLE": tuple,
    "EMPTY_SET": set,
}
_PICKLE_IGNORED = frozenset({"PROTO", "FRAME", "MEMOIZE", "PUT", "BINPUT", "LONG_BINPUT"})


class _NotPlain(Exception):
    """A pickle that holds more than builtin scalars and containers, or is malformed."""


class _Named:
    """What a pickle names (a class, a function, a persistent id): never imported nor called."""

    def __str__(self) -> str:
        return "<named in a pickle>"  # the same text every time a form is written


class _Made(dict[Any, Any]):
    """What a pickle makes by a class or a call (REDUCE, NEWOBJ, INST, OBJ), never made: a
    mapping of the state it is given (BUILD: an object's attributes) and the items it is given
    (SETITEMS: an `OrderedDict`'s; the call's arguments and APPENDS, a `deque`'s, under
    `_MADE_ITEMS`). A dataclass or a
    `datetime` beside the answer parts made a pickle unread, and `pickle.loads` reads it (sandbox
    red team 45, G2's family)."""

    def append(self, item: Any) -> None:
        self.setdefault(_MADE_ITEMS, []).append(item)

    def extend(self, items: list[Any]) -> None:
        self.setdefault(_MADE_ITEMS, []).extend(items)


_MADE_ITEMS = _Named()
# The opcodes that name or make an object (`_Named`, `_Made`): how many items each takes off the
# stack above its mark (-1) or off its top.
_PICKLE_MADE = {"REDUCE": 2, "NEWOBJ": 2, "NEWOBJ_EX": 3, "INST": -1, "OBJ": -1}
_PICKLE_NAMED = {"GLOBAL": 0, "STACK_GLOBAL": 2, "PERSID": 0, "BINPERSID": 1, "EXT1": 0}
_PICKLE_NAMED.update({"EXT2": 0, "EXT4": 0, "NEXT_BUFFER": 0})


def _unpickled(data: bytes) -> list[Any]:
    """Every value on the stack of each pickle in `data` at its STOP — `pickle.loads` returns the
    top, whatever lies below it, and `pickle.load` called again reads the next pickle of a file —
    of builtin scalars, strings, lists, dicts, tuples and sets: rebuilt from
    `pickletools.genops`' opcodes, never by `pickle.loads` (which imports and calls what the file
    names). A pickle of a scenario's answer parts was shown, and a sealed agent answered from it
    with no tool call (sandbox red team 43, G1-3); then one with a value under the answer, and
    one with no PROTO opcode (which `pickle.loads` does not need), which were not read (red team
    45, G2, G2b): every file is tried, whatever its first byte. What one names (a class, a
    function) is never imported nor called: it is `_Named`, and what it makes `_Made`, a mapping
    of the state and items it is given. A malformed pickle holds nothing read, the pickles after
    it still do. Every opcode of the file is read (at most one a byte, and a parsed file is of at
    most `_MAX_PARSED_BYTES`): a budget of 800 000 opcodes a file let 400 001 one-value pickles
    hide the answer parts in the pickle after them, which `pickle.load` called again reaches
    (sandbox red team 46, G1)."""
    values: list[Any] = []
    handle = io.BytesIO(data)
    while handle.tell() < len(data):
        stack: list[Any] = []
        marks: list[int] = []
        memo: dict[int, Any] = {}
        plain = True
        try:
            for opcode, argument, _ in pickletools.genops(handle):
                if opcode.name == "STOP":
                    values.extend(reversed(stack) if plain else ())
                    break  # `handle` is at the byte after STOP: genops reads no further
                if plain:
                    try:
                        _pickle_step(opcode.name, argument, stack, marks, memo)
                    except (_NotPlain, IndexError, KeyError, TypeError, ValueError, AttributeError):
                        plain = False  # walked on to its STOP: the next pickle is read
            else:
                return values  # no STOP: the rest is no pickle
        except (ValueError, OverflowError):
            return values  # not a pickle from here on
    return values


def _pickle_step(
    name: str, argument: Any, stack: list[Any], marks: list[int], memo: dict[int, Any]
) -> None:
    """One opcode of `_unpickled` on its stack, marks and memo; `_NotPlain` for any other."""
    if name in _PICKLE_VALUES:
        stack.append(argument)
    elif name in _PICKLE_CONSTANTS:
        stack.append(_PICKLE_CONSTANTS[name])
    elif name in _PICKLE_IGNORED:
        if name == "MEMOIZE":
            memo[len(memo)] = stack[-1]
        elif name != "PROTO" and name != "FRAME":
            memo[int(argument)] = stack[-1]
    elif name in ("GET", "BINGET", "LONG_BINGET"):
        stack.append(memo[int(argument)])
    elif name == "MARK":
        marks.append(len(stack))
    elif name in _PICKLE_EMPTY:
        stack.append(_PICKLE_EMPTY[name]())
    elif name in ("TUPLE1", "TUPLE2", "TUPLE3"):
        size = int(name[-1])
        last = tuple(stack[-size:])
        del stack[-size:]
        stack.append(last)
    elif name in ("TUPLE", "LIST", "DICT", "FROZENSET", "APPENDS", "SETITEMS", "ADDITEMS"):
        start = marks.pop()
        items = stack[start:]
        del stack[start:]
        if name == "TUPLE":
            stack.append(tuple(items))
        elif name == "LIST":
            stack.append(items)
        elif name == "DICT":
            stack.append(dict(zip(items[::2], items[1::2], strict=True)))
        elif name == "FROZENSET":
            stack.append(frozenset(items))
        elif name == "APPENDS":
            stack[-1].extend(items)
        elif name == "SETITEMS":
            stack[-1].update(zip(items[::2], items[1::2], strict=True))
        else:
            stack[-1].update(items)
    elif name == "APPEND":
        item = stack.pop()
        stack[-1].append(item)
    elif name == "SETITEM":
        value = stack.pop()
        key = stack.pop()
        stack[-1][key] = value
    elif name == "POP":
        stack.pop()
    elif name == "POP_MARK":
        del stack[marks.pop() :]
    elif name == "DUP":
        stack.append(stack[-1])
    elif name in _PICKLE_MADE or name in _PICKLE_NAMED:
        taken = _PICKLE_MADE.get(name, _PICKLE_NAMED.get(name, 0))
        start = marks.pop() if taken < 0 else len(stack) - taken
        if start < 0:
            raise _NotPlain(name)
        # What a call is given (its arguments: `__reduce__`'s `(cls, (parts,))`) is kept in
        # what it makes, read like its state.
        given = stack[start:]
        del stack[start:]
        stack.append(_Made({_MADE_ITEMS: given}) if name in _PICKLE_MADE else _Named())
    elif name == "BUILD":
        state = stack.pop()
        if isinstance(stack[-1], _Made):  # an object's `__dict__`, or `(__dict__, slots)`
            for part in state if isinstance(state, tuple) else (state,):
                if isinstance(part, dict):
                    stack[-1].update(part)
    elif name != "READONLY_BUFFER":
        raise _NotPlain(name)


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
        if not isinstance(value, dict | list | tuple) or id(value) in seen:
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
        if isinstance(item, list | tuple):  # a pickle's tuple is a list to YAML and JSON
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
