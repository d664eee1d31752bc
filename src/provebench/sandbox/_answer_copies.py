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
41, SB1, SB1b, SB5, SB6 and SB8).

Nor was a copy that is not the whole scenario with its id: one key added, the id renamed, only
`injection:` and `scoring:` kept, or the scenario in Markdown, a JSON string, a Python literal, a
pickle, or padded past 1 MiB (sandbox red team 42, G1-1 … G1-8). So each answer part of a hidden
scenario (`_answer_parts`) is matched at any depth with no id gate, and the scenario's prose
(`_answer_texts`), normalised, is looked for in the bytes of every code file, any size, unparsed.
A scenario's answer written into an agent by hand (memorised from the public file), its prose
reworded, or a copy in another encoding (compressed, base64) is no copy of a run's file:
docs/sandbox.md states that limit.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
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
_UNWRITTEN = re.compile(r"[\s\"'\\]")


@dataclass(frozen=True)
class _Text:
    """One distinctive text of a hidden scenario (`_TEXT_KEYS`), normalised."""

    where: str
    probe: bytes  # its longest word as written: the bytes a file holds before it is normalised
    words: bytes  # ` word word … ` (`_normalised`)


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
        self._part_probes: set[bytes] = set()
        for path in hidden:
            for found in _hidden_files(path):
                self._note(found)
        # A file that could hold a copy: one that spells a hidden scenario's id, or could spell
        # it otherwise (`_ESCAPE`, `_wide`), or holds an answer part's longest text; every other
        # file is never parsed. (One `in` per id: a regular expression of the ids and escapes
        # read a code folder ten times slower.)
        self._ids = tuple(identifier.encode("utf-8") for identifier in sorted(self._forms))
        self._part_probes.discard(b"")
        self._part_nodes = max(
            (form.nodes for forms in self._parts.values() for form in forms), default=0
        )

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
            for where, part in _answer_parts(value):
                found = _form(part, _MAX_NODES)
                if found is not None:
                    keys = frozenset(_scalar(key) for key in part)
                    label = f"the {where} of scenario {identifier}"
                    self._parts.setdefault(keys, []).append(_Form(path, label, *found))
                    self._part_probes.add(_probe(part))
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
                    self._texts.append(_Text(f"{identifier} ({where}) of {path}", probe, words))

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
        escapes read as the characters they spell (red team 43, G1-1)."""
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
        if size > _MAX_PARSED_BYTES or not self._ids:
            return None
        if not (
            any(i in data for i in self._ids)
            or any(probe in data for probe in self._part_probes)
            or _ESCAPE.search(data)
            or _wide(data)
        ):
            return None
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


def _probe(part: Any) -> bytes:
    """The longest of a part's string values (not its keys, which every scenario shares) that
    holds no space, quote or backslash — `secret/payments-db-credentials` — so a file that holds
    the part holds it as written, unwrapped and unescaped (an escaped copy is parsed anyway:
    `_ESCAPE`)."""
    words: list[bytes] = []
    stack = [part]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and not _UNWRITTEN.search(value):
            words.append(value.encode("utf-8"))
    return max(words, key=len, default=b"")


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
    if data.startswith(_PICKLE_START):
        held = _unpickled(data)
        return [] if held is None else [held]
    try:
        text = data.decode(json.detect_encoding(data)).removeprefix("\ufeff")
    except (UnicodeDecodeError, LookupError):
        return []
    try:
        return [json.loads(text)]
    except (ValueError, RecursionError):
        pass
    try:  # TOML, which the standard library reads (`tomllib`): sandbox red team 43, G1-4
        return [tomllib.loads(text)]
    except (ValueError, RecursionError):
        pass
    documents: list[Any] = []
    # Whatever PyYAML cannot read further holds nothing more that it reads.
    with contextlib.suppress(Exception):
        for document in yaml.load_all(text, Loader=_Loader):  # a safe loader
            documents.append(document)
    return documents


# A pickle of protocol 2 or later begins with the PROTO opcode (`pickle.dumps`' default is 4 or 5).
_PICKLE_START = b"\x80"
# The opcodes of builtin scalars and containers (`_unpickled`); any other, a class or a call
# (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, NEWOBJ, INST, OBJ, PERSID …), ends the read: nothing is
# ever imported or called.
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


def _unpickled(data: bytes) -> Any:
    """The value a pickle of builtin scalars, strings, lists, dicts, tuples and sets holds, or
    None: rebuilt from `pickletools.genops`' opcodes, never by `pickle.loads` (which imports and
    calls what the file names). A pickle of a scenario's answer parts was shown, and a sealed
    agent answered from it with no tool call (sandbox red team 43, G1-3). Bounded by
    `_MAX_NODES` opcodes."""
    stack: list[Any] = []
    marks: list[int] = []
    memo: dict[int, Any] = {}
    try:
        for count, (opcode, argument, _) in enumerate(pickletools.genops(data)):
            if count > 4 * _MAX_NODES:
                return None
            name = opcode.name
            if name == "STOP":
                return stack[-1] if len(stack) == 1 else None
            _pickle_step(name, argument, stack, marks, memo)
    except (_NotPlain, ValueError, IndexError, KeyError, TypeError, OverflowError):
        return None
    return None


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
    else:
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
