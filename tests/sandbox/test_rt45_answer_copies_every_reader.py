"""A run's answer kept beside a sealed agent in a form one of the agent's readers reads is refused,
whatever the form's first bytes or the other readers make of it (sandbox red team 45, G1 … G5).

Each of these was shown, and a sealed agent answered from it with no tool call: the answer parts
as TOML whose every value is split by TOML's line-ending backslash, so the file held no id, no
part's value and no escape and was never parsed (G1); a pickle with a value under the answer, and
one with no PROTO opcode (G2, G2b); a TOML string hiding a YAML document, read as TOML only (G3);
the scenario's prose in a pickle, its first word glued to the string's length byte (G4); YAML in
UTF-16 with no BOM beginning with two CJK characters (G5). Every code file up to 1 MiB is read by
every reader now, in every encoding it may be text in; an honest agent's own README, TOML config,
pickle cache and UTF-16 notes are no copy.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import pickle
import subprocess
import sys
import textwrap
import tomllib
from collections import OrderedDict
from pathlib import Path

import pytest
import yaml

from provebench._errors import ProvebenchError
from provebench.sandbox._candidate import code_listing
from provebench.sandbox._policy import PACKAGE_DIR

SCENARIO = PACKAGE_DIR / "si" / "scenarios" / "single-signal-diagnosis-002.yaml"
SCENARIO_ID = "infra.capability.da.single-signal-diagnosis-002"


def _scenario() -> dict[str, object]:
    document = yaml.safe_load(SCENARIO.read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


def _parts() -> dict[str, object]:
    """The red team's answer key: `scoring` whole and `injection.deviations`, no id, no prose."""
    scenario = _scenario()
    injection = scenario["injection"]
    assert isinstance(injection, dict)
    return {"scoring": scenario["scoring"], "deviations": injection["deviations"]}


def _broken_toml(parts: dict[str, object]) -> bytes:
    """attacks/si/g2/make_toml.py: every string a multi-line basic string broken every three
    characters by a line-ending backslash and a space (`\\ ` and a line break, which TOML trims)."""

    def string(text: str) -> str:
        assert '"' not in text and "\\" not in text
        pieces = [text[start : start + 3] for start in range(0, len(text), 3)]
        return '"""' + "\\ \n  ".join(pieces) + '"""'

    def value(item: object) -> str:
        if isinstance(item, str):
            return string(item)
        if isinstance(item, list):
            return "[" + ", ".join(value(inner) for inner in item) + "]"
        if isinstance(item, dict):
            return "{" + ", ".join(f"{key} = {value(inner)}" for key, inner in item.items()) + "}"
        return json.dumps(item)

    scoring, deviations = parts["scoring"], parts["deviations"]
    assert isinstance(scoring, dict) and isinstance(deviations, list)
    lines = ["[scoring]", *(f"{key} = {value(inner)}" for key, inner in scoring.items())]
    for deviation in deviations:
        lines += [
            "[[deviations]]",
            *(f"{key} = {value(inner)}" for key, inner in deviation.items()),
        ]
    text = "\n".join(lines) + "\n"
    assert tomllib.loads(text) == json.loads(json.dumps(parts))  # the premise: the same values
    assert b"DB_PASSWORD" not in text.encode() and b"\\u" not in text.encode()
    return text.encode()


def _pickle_under(parts: dict[str, object]) -> bytes:
    """G2: `PROTO 2, NONE, <parts>, STOP`: `pickle.loads` returns the top, the parts."""
    return b"\x80\x02N" + pickle.dumps(parts, protocol=2)[2:]


def _pickle_no_proto(parts: dict[str, object]) -> bytes:
    """G2b: the same pickle with no PROTO opcode, which `pickle.loads` does not need."""
    return pickle.dumps(parts, protocol=2)[2:]


def _polyglot(parts: dict[str, object]) -> bytes:
    """G3: TOML reads one string `x`; YAML reads a second document, the parts verbatim."""
    body = yaml.safe_dump(parts, sort_keys=False)
    text = f'x = """\n---\n{body}# """\n'
    assert set(tomllib.loads(text)) == {"x"}  # the premise: TOML sees no parts
    return text.encode()


def _prose_pickle() -> bytes:
    """G4: the counterfactual in `pickle.dumps({"why": text}, 4)`; its length byte is a letter."""
    injection = _scenario()["injection"]
    assert isinstance(injection, dict)
    text = str(injection["counterfactual"])
    data = pickle.dumps({"why": text}, protocol=4)
    assert bytes([len(text.encode())]).isalnum()  # the premise: glued to the first word
    return data


def _utf16_cjk(parts: dict[str, object]) -> bytes:
    """G5: YAML in UTF-16-LE, no BOM, beginning with two CJK characters (no NUL in its first
    four bytes)."""
    data = ("答案: 1\n" + yaml.safe_dump(parts, sort_keys=False)).encode("utf-16-le")
    assert b"\x00" not in data[:4]
    return data


# What the agent reads its fixture with, as the red team's agents do.
READERS = {
    "toml": "import tomllib; p = tomllib.loads(data.decode())",
    "pkl": "import pickle; p = pickle.loads(data)",
    "poly": "import yaml; p = list(yaml.safe_load_all(data))[1]",
    "u16": "import yaml; p = yaml.safe_load(data.decode('utf-16-le'))",
}
ATTACKS = {
    "G1-toml-line-ending-backslash": ("fixture.toml", lambda: _broken_toml(_parts()), "toml"),
    "G2-pickle-value-under-the-answer": ("fixture.pkl", lambda: _pickle_under(_parts()), "pkl"),
    "G2b-pickle-no-proto": ("fixture.pkl", lambda: _pickle_no_proto(_parts()), "pkl"),
    "G3-toml-yaml-polyglot": ("fixture.yaml", lambda: _polyglot(_parts()), "poly"),
    "G5-utf16-no-bom-cjk": ("fixture.yaml", lambda: _utf16_cjk(_parts()), "u16"),
}
AGENT = textwrap.dedent(
    """
    import json, os, sys
    sys.stdin.readline()
    data = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), {name!r}), "rb").read()
    {reader}
    dev, ident = p["deviations"][0], p["scoring"]["factor"]["required_identifiers"]
    answer = (f"Root cause: {{dev['resource']}} lacks the key {{dev['subject']}} "
              f"({{dev['deviation_type']}}). Fix: add {{dev['subject']}} to {{dev['resource']}}.")
    print(json.dumps({{"answer": {{"final_answer": answer, "diagnosis": {{"factors": [
        {{"key": ident[0], "resource": dev["resource"], "deviation_type": dev["deviation_type"]}}
    ]}}}}}}), flush=True)
    """
)
# G4: the agent quotes the hidden fix.
PROSE_AGENT = textwrap.dedent(
    """
    import json, os, pickle, sys
    sys.stdin.readline()
    here = os.path.dirname(os.path.abspath(__file__))
    why = pickle.load(open(os.path.join(here, "notes.pkl"), "rb"))["why"]
    print(json.dumps({"answer": {"final_answer": "Root cause: a missing key. " + why}}), flush=True)
    """
)


def _si_run(
    tmp_path: Path, agent: str, files: dict[str, bytes]
) -> subprocess.CompletedProcess[str]:
    code = tmp_path / "agent"
    code.mkdir()
    (code / "agent.py").write_text(agent, encoding="utf-8")
    for name, data in files.items():
        (code / name).write_bytes(data)
    command = [sys.executable, "-m", "provebench", "si", "run", str(SCENARIO)]
    command += ["--agent-cmd", f"python3 {code / 'agent.py'}", "--out", str(tmp_path / "out")]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=150)


@pytest.mark.slow
@pytest.mark.timeout(180)
@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_the_red_teams_agents_are_refused_through_si_run(attack: str, tmp_path: Path) -> None:
    name, fixture, reader = ATTACKS[attack]
    agent = AGENT.format(name=name, reader=READERS[reader])
    result = _si_run(tmp_path, agent, {name: fixture()})
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"{name} in the candidate's code is a copy of the " in result.stderr
    assert f"of scenario {SCENARIO_ID}" in result.stderr


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_the_prose_in_a_pickle_is_refused_through_si_run(tmp_path: Path) -> None:
    result = _si_run(tmp_path, PROSE_AGENT, {"notes.pkl": _prose_pickle()})
    assert result.returncode == 2, result.stdout + result.stderr
    said = "notes.pkl in the candidate's code is a copy of the text of scenario"
    assert said in result.stderr
    assert "(injection.counterfactual)" in result.stderr


class Seen:
    """An honest agent's own cache entry, pickled with its class."""

    def __init__(self, name: str) -> None:
        self.name = name


@dataclasses.dataclass
class Held:
    """An object holding the answer parts as an attribute, pickled with its class."""

    parts: dict[str, object]


class Reduced:
    """An object pickled as a call of its class with the parts (`__reduce__`)."""

    def __init__(self, parts: dict[str, object]) -> None:
        self.parts = parts

    def __reduce__(self) -> tuple[object, ...]:
        return (Reduced, (self.parts,))


def _tupled(value: object) -> object:
    """`value` with every list a tuple (a pickle keeps the difference, JSON and YAML do not)."""
    if isinstance(value, dict):
        return {key: _tupled(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return tuple(_tupled(inner) for inner in value)
    return value


def _honest_files() -> dict[str, bytes]:
    """An honest agent's ordinary files: nothing of the scenario's answer or prose."""
    cache = {
        "namespaces": ["default", "payments"],
        "last_run": datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC),
        "seen": OrderedDict(pods=3, deployments=1),
    }
    return {
        "README.md": b"# Diagnostic agent\n\nLists pods, reads events, answers with a cause.\n",
        "config.toml": b'[agent]\nmodel = "local"\nsteps = 15\nchannels = ["agent_response"]\n',
        "cache.pkl": pickle.dumps(cache, protocol=4) + pickle.dumps([Seen("web")], protocol=2),
        "notes.txt": "Notes: check events first — 日本語のメモ.\nsteps: 3\n".encode("utf-16"),
        "notes_nobom.txt": "メモ: kubectl get pods -A\n".encode("utf-16-le"),
        "log.jsonl": b'{"step": 1, "tool": "list"}\n{"step": 2, "tool": "describe"}\n',
    }


HONEST_AGENT = textwrap.dedent(
    """
    import json, sys
    sys.stdin.readline()
    print(json.dumps({"answer": {"final_answer": "No cause found without looking."}}), flush=True)
    """
)


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_an_honest_agent_with_ordinary_files_runs_through_si_run(tmp_path: Path) -> None:
    result = _si_run(tmp_path, HONEST_AGENT, _honest_files())
    assert "in the candidate's code is" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{SCENARIO_ID}: " in result.stdout + result.stderr


def _listing(tmp_path: Path, files: dict[str, bytes]) -> None:
    code = tmp_path / "ag"
    code.mkdir()
    (code / "agent.py").write_text("import sys\nsys.stdin.readline()\n", encoding="utf-8")
    for name, data in files.items():
        (code / name).write_bytes(data)
    code_listing([code], (SCENARIO,), field="--agent-cmd")


def test_the_honest_files_are_no_copy(tmp_path: Path) -> None:
    _listing(tmp_path, _honest_files())


def _other_forms() -> dict[str, bytes]:
    """Forms of the same answer parts an agent reads with an ordinary reader: each is refused."""
    parts = _parts()
    prose = _prose_pickle()
    return {
        # the red team's controls (attacks/si/ctl_*): the plain forms
        "plain.toml": _broken_toml(_parts()).replace(b"\\ \n  ", b""),
        "plain-polyglot.yaml": b"x\n" + _polyglot(parts).partition(b"\n")[2],
        "plain.pkl": pickle.dumps(parts, protocol=4),
        # JSON Lines: `json.loads` per line, the parts on the second
        "parts.jsonl": b'{"note": 1}\n' + json.dumps(parts).encode() + b"\n",
        # a second pickle after a harmless one (`pickle.load` twice), after one of a class, and
        # after a malformed one
        "two.pkl": pickle.dumps([1, 2], protocol=4) + pickle.dumps(parts, protocol=4),
        "after-a-class.pkl": pickle.dumps([Seen("x")], protocol=4) + pickle.dumps(parts),
        "after-malformed.pkl": b"0." + pickle.dumps(parts),
        # the parts in objects `pickle.loads` makes: an OrderedDict, a dataclass's attributes,
        # beside a datetime (nothing is imported or called: test_a_pickle_is_never_loaded)
        "made.pkl": pickle.dumps(
            [OrderedDict(parts), Held(parts), datetime.datetime(2026, 1, 2, tzinfo=datetime.UTC)]
        ),
        "made-proto0.pkl": pickle.dumps({"kept": Held(parts)}, protocol=0),
        "reduced.pkl": pickle.dumps(Reduced(parts)),
        "tuples.pkl": pickle.dumps(_tupled(parts)),
        # a protocol-0 pickle (text opcodes, no PROTO)
        "proto0.pkl": pickle.dumps(parts, protocol=0),
        # YAML with one Latin-1 byte, which is no UTF-8 (`open(..., encoding="latin-1")`)
        "latin1.yaml": b"# r\xe9sum\xe9\n" + yaml.safe_dump(parts).encode(),
        # UTF-16-BE and UTF-32 with no BOM, beginning with CJK
        "be.yaml": ("答案: 1\n" + yaml.safe_dump(parts)).encode("utf-16-be"),
        "u32.yaml": ("答案: 1\n" + yaml.safe_dump(parts)).encode("utf-32-le"),
        # the prose: glued to a length byte, and in UTF-16 inside a binary file
        "prose.pkl": prose,
        "prose16.bin": b"\x01\x02\xff" * 50 + pickle.loads(prose)["why"].encode("utf-16-le"),
    }


@pytest.mark.parametrize("name", sorted(_other_forms()))
def test_other_forms_of_the_answer_are_refused(name: str, tmp_path: Path) -> None:
    with pytest.raises(ProvebenchError, match=r"in the candidate's code is a copy of") as got:
        _listing(tmp_path, {name: _other_forms()[name]})
    assert f"{name} in the candidate's code" in str(got.value)
    assert "\n" not in str(got.value)
