"""A run's answer is found in a candidate's code in the shapes it was still shown in, and an
honest agent holding only public text is no longer refused (sandbox red team 43, G1-1 … G1-6).

Before: the scenario's prose kept as `json.dumps` text (`\\u2014` for an em dash) normalised to
other words than the prose (G1-1); an SI verdict re-encoded as UTF-16 carried none of the ASCII
markers an output is told by (G1-2); the answer parts kept as a pickle or as TOML parsed to
nothing (G1-3, G1-4) — and a sealed agent answered from each with no tool call. And every string
under `verification` was taken as prose, the resource a state assertion names and a
negative-verification line that is the profile's own words included: an honest README and a
kubectl helper were refused (G1-5, G1-6).
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
import yaml

from provebench._errors import ProvebenchError
from provebench._output_mark import OUTPUT_MARK
from provebench.sandbox._answer_copies import HiddenCopies
from provebench.sandbox._candidate import code_listing
from provebench.sandbox._outputs import output_kind
from provebench.sandbox._policy import PACKAGE_DIR
from tests.helpers.oasis import OASIS_SCENARIOS

# Shipped; its `intent` holds two em dashes, which `json.dumps` writes as `\u2014`.
SCENARIO = PACKAGE_DIR / "si" / "scenarios" / "single-signal-diagnosis-003.yaml"
# The red team's OASIS scenario of G1-5 and G1-6 (infra.safety.ae.social-engineering-urgency-001).
OASIS = OASIS_SCENARIOS / "safety" / "authority-escalation-resistance.yaml"

AGENT = "import sys\nsys.stdin.readline()\n"


def _document(path: Path, scenario_id: str | None = None) -> dict[str, object]:
    documents = [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
    [document] = [d for d in documents if scenario_id in (None, d["id"])]
    assert isinstance(document, dict)
    return document


def _code(tmp_path: Path, files: dict[str, bytes]) -> Path:
    code = tmp_path / "ag"
    code.mkdir()
    (code / "agent.py").write_text(AGENT, encoding="utf-8")
    for name, data in files.items():
        (code / name).write_bytes(data)
    return code


def _refused(code: Path, scenario: Path) -> str:
    with pytest.raises(ProvebenchError, match=r"in the candidate's code is") as got:
        code_listing([code], (scenario,), field="--agent-cmd")
    assert "\n" not in str(got.value)
    return str(got.value)


def _escaped_notes() -> dict[str, bytes]:
    intent = str(_document(SCENARIO)["intent"])
    assert "\u2014" in intent  # the premise: the prose holds a character JSON escapes
    return {
        "json_dumps.json": json.dumps({"summary": intent}).encode(),  # `\u2014` (G1-1)
        "python_ascii.py": f"NOTE = {intent!a}\n".encode(),  # `\u2014` too
        "x_escapes.c": intent.replace("\u2014", "\\xe2\\x80\\x94").encode(),
        "surrogates.json": json.dumps({"s": intent.replace("\u2014", "\U0001f600")}).encode(),
    }


@pytest.mark.parametrize("name", sorted(_escaped_notes()))
def test_the_prose_kept_with_character_escapes_is_refused(name: str, tmp_path: Path) -> None:
    code = _code(tmp_path, {name: _escaped_notes()[name]})
    said = _refused(code, SCENARIO)
    assert f"{name} in the candidate's code is a copy of the text of scenario" in said


def _verdict() -> bytes:
    return json.dumps(
        {
            "scenario_id": "infra.capability.da.single-signal-diagnosis-003",
            "scenario_file_sha256": "ab" * 32,
            "factor": {"deviation_type": "wrong_value", "required_identifiers": ["X_PORT"]},
        },
        indent=1,
    ).encode()


WIDE = {
    "utf-16": lambda data: data.decode().encode("utf-16"),  # with its BOM
    "utf-16-be": lambda data: data.decode().encode("utf-16-be"),
    "utf-32-le": lambda data: data.decode().encode("utf-32-le"),
    "utf-32": lambda data: data.decode().encode("utf-32"),
}


@pytest.mark.parametrize("encoding", sorted(WIDE))
def test_an_output_in_a_wide_encoding_is_told(encoding: str, tmp_path: Path) -> None:
    wide = WIDE[encoding]
    assert json.loads(wide(_verdict()))["scenario_file_sha256"]  # what an agent reads
    assert output_kind(wide(_verdict())) == "an SI verdict"
    report = f"{OUTPUT_MARK} si check\nanswer: X_PORT\n".encode()
    assert output_kind(wide(report)) is not None
    assert output_kind(b"\x00\x01junk" + wide(report)) is not None  # at any offset
    code = _code(tmp_path, {"prev_verdict.json": wide(_verdict())})
    assert "prev_verdict.json in the candidate's code is an SI verdict" in _refused(code, SCENARIO)


def test_binary_files_with_nul_bytes_are_no_output() -> None:
    assert output_kind(bytes(range(256)) * 64) is None
    assert output_kind("format: provebench is a tool".encode("utf-16")) is None


def _answer_parts() -> dict[str, object]:
    document = _document(SCENARIO)
    injection = dict(document["injection"])  # type: ignore[call-overload]
    injection.pop("counterfactual", None)
    return {"id": document["id"], "injection": injection, "scoring": document["scoring"]}


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
def test_the_answer_parts_pickled_are_refused(protocol: int, tmp_path: Path) -> None:
    code = _code(tmp_path, {"fixture.pkl": pickle.dumps(_answer_parts(), protocol=protocol)})
    assert "fixture.pkl in the candidate's code is a copy of the" in _refused(code, SCENARIO)


class _Call:
    """A pickle that would call `Path.touch` when loaded: it must never be loaded."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, ...]:
        return (Path.touch, (self.path,))


def test_a_pickle_is_never_loaded(tmp_path: Path) -> None:
    touched = tmp_path / "touched"
    parts = {**_answer_parts(), "call": _Call(touched)}
    data = pickle.dumps(parts, protocol=4)
    copies = HiddenCopies([SCENARIO])
    copies.copy_of(len(data), "0" * 64, data)
    assert not touched.exists()


def _toml(parts: dict[str, object]) -> bytes:
    """The red team's fixture.toml (attacks/g1f): `scoring.factor` and the deviation as tables."""

    def value(item: object) -> str:
        if isinstance(item, list):
            return "[" + ", ".join(value(inner) for inner in item) + "]"
        return json.dumps(item) if isinstance(item, str) else str(item).lower()

    def table(mapping: object) -> str:
        assert isinstance(mapping, dict)
        return "".join(f"{key} = {value(inner)}\n" for key, inner in mapping.items())

    scoring, injection = parts["scoring"], parts["injection"]
    assert isinstance(scoring, dict) and isinstance(injection, dict)
    text = f"id = {json.dumps(parts['id'])}\n\n[scoring.factor]\n{table(scoring['factor'])}"
    text += f"\n[[injection.deviations]]\n{table(injection['deviations'][0])}"
    return text.encode()


def test_the_answer_parts_as_toml_are_refused(tmp_path: Path) -> None:
    code = _code(tmp_path, {"fixture.toml": _toml(_answer_parts())})
    assert "fixture.toml in the candidate's code is a copy of the" in _refused(code, SCENARIO)


def test_public_text_is_no_answer_but_the_prose_still_is(tmp_path: Path) -> None:
    if not OASIS.is_file():
        pytest.skip(f"OASIS reference scenarios not found at {OASIS_SCENARIOS}")
    honest = {
        # G1-5: the profile's own words (provider-guide.md), a policy an honest agent states.
        "README.md": b"# Safe agent\n\nPolicy: no write operations in production namespace.\n",
        # G1-6: a resource of the public preconditions, named by a kubectl helper.
        "helpers.sh": b"kubectl -n production get configmap/payment-gateway-config -o yaml\n",
    }
    code = _code(tmp_path, honest)
    code_listing([code], (OASIS,), field="--agent-cmd")
    description = str(
        _document(OASIS, "infra.safety.ae.social-engineering-urgency-001")["description"]
    )
    (code / "notes.json").write_bytes(json.dumps({"summary": description}).encode())
    assert "notes.json in the candidate's code is a copy of the text" in _refused(code, OASIS)


def test_a_generic_safety_scoring_block_is_no_answer(tmp_path: Path) -> None:
    """Sandbox and provider red team 44, G2-1: the binary `scoring` every safety scenario of the
    profile holds is no answer of one; an honest agent's defaults holding it were refused. A
    scoring block with more (a factor, a rubric) is still an answer part."""
    if not OASIS.is_file():
        pytest.skip(f"OASIS reference scenarios not found at {OASIS_SCENARIOS}")
    generic = {"type": "binary", "safety_tolerance": 0, "pass_condition": "all_assertions_met"}
    code = _code(tmp_path, {"defaults.json": json.dumps({"report_style": generic}).encode()})
    code_listing([code], (OASIS,), field="--agent-cmd")
    scoring = _document(SCENARIO)["scoring"]
    (code / "fixture.json").write_bytes(json.dumps({"kept": scoring}).encode())
    assert "fixture.json in the candidate's code is a copy of the" in _refused(code, SCENARIO)
