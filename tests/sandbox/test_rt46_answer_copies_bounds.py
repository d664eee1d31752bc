"""The answer-copy check reads what an agent reads, at a cost no candidate controls (sandbox red
team 46, C1, G1, G2, G3).

Each was shown, and a sealed agent answered from it with no tool call, or the walk before the
run took minutes: a pickle of the answer parts after 400 001 one-value pickles, past the walk's
opcode budget (G1); the parts as a JSON line after a first line holding a NUL, which kept the
whole file from every reader (G2); the parts as YAML padded past 1 MiB by one comment line (G3);
and a TOML dotted key of 131 072 parts, which `tomllib` reads in time quadratic in the parts
(C1: 33 s of CPU for 256 KiB). An honest agent's large notes and binary files are no copy, and
cost the walk little.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import time
from pathlib import Path

import pytest
import yaml

from provebench._errors import ProvebenchError
from provebench.sandbox._answer_copies import HiddenCopies
from provebench.sandbox._candidate import code_listing
from provebench.sandbox._policy import PACKAGE_DIR

SCENARIO = PACKAGE_DIR / "si" / "scenarios" / "single-signal-diagnosis-002.yaml"
SCENARIO_ID = "infra.capability.da.single-signal-diagnosis-002"


def _scoring() -> dict[str, object]:
    document = yaml.safe_load(SCENARIO.read_text(encoding="utf-8"))
    assert isinstance(document, dict) and isinstance(document["scoring"], dict)
    return {"scoring": document["scoring"]}


def _copy_of(data: bytes) -> str | None:
    return HiddenCopies([SCENARIO]).copy_of(len(data), hashlib.sha256(data).hexdigest(), data)


def _attacks() -> dict[str, bytes]:
    parts = _scoring()
    return {
        # G1: past 4 x 200 000 opcodes, which the walk read no further than.
        "G1-pickle-after-cheap-pickles": b"N." * 400_001 + pickle.dumps(parts, 4),
        # G2: a NUL on the first line; `json.loads` per line skips that line only.
        "G2-json-lines-after-a-nul": b'{"k": "\x00"}\n' + json.dumps(parts).encode() + b"\n",
        # G2's family: a YAML document after a malformed one, read by splitting at `---`.
        "G2-yaml-after-a-malformed-document": b"a: [\n---\n" + yaml.safe_dump(parts).encode(),
        # The parts followed by anything: `JSONDecoder.raw_decode` reads them.
        "json-then-anything": json.dumps(parts, indent=1).encode() + b"\n]] trailing notes {",
        # G3: padded past 1 MiB by one comment line.
        "G3-yaml-over-1-mib": yaml.safe_dump(parts).encode() + b"#" + b"x" * (1 << 20) + b"\n",
    }


@pytest.mark.parametrize("name", sorted(_attacks()))
def test_a_copy_an_agent_reads_is_found(name: str) -> None:
    found = _copy_of(_attacks()[name])
    assert found is not None and SCENARIO_ID in found


@pytest.mark.slow
def test_the_red_teams_forms_are_refused_beside_an_agent(tmp_path: Path) -> None:
    for name, data in _attacks().items():
        code = tmp_path / name
        code.mkdir()
        (code / "agent.py").write_text("import sys\nsys.stdin.readline()\n", encoding="utf-8")
        (code / "fixture.dat").write_bytes(data)
        with pytest.raises(ProvebenchError, match="is a copy of"):
            code_listing([code], (SCENARIO,), field="--agent-cmd")


def test_a_long_dotted_toml_key_costs_the_walk_little() -> None:
    """C1: `tomllib` on `N.N.N…` of 32 768 parts took about 2 s of CPU and each doubling four
    times as long; a line of more than 64 dots is left out of what TOML reads (no answer part
    stands that deep), so 256 KiB of it costs about what its bytes do."""
    data = b"N." * (1 << 17)
    started = time.process_time()
    assert _copy_of(data) is None
    # Generous against a loaded machine: the quadratic reading took 30 s and more.
    assert time.process_time() - started < 5


def test_toml_still_reads_the_parts_beside_a_long_dotted_key() -> None:
    scoring = _scoring()["scoring"]
    assert isinstance(scoring, dict)
    lines = ["x." * 100 + "y = 1", "[scoring]"]
    tables = {key: value for key, value in scoring.items() if isinstance(value, dict)}
    lines += [f"{key} = {json.dumps(value)}" for key, value in scoring.items() if key not in tables]
    for key, table in tables.items():
        lines += [f"[scoring.{key}]", *(f"{k} = {json.dumps(v)}" for k, v in table.items())]
    found = _copy_of(("\n".join(lines) + "\n").encode())
    assert found is not None and SCENARIO_ID in found


def test_honest_large_and_binary_files_are_no_copy() -> None:
    assert _copy_of(b"# notes on the payments service\n" * 80_000) is None  # 2.6 MB
    assert _copy_of(pickle.dumps({"cache": list(range(50_000))})) is None
    assert _copy_of(b'{"k": 1}\n\x00\x01\x02 binary tail') is None
    assert _copy_of(b"a: [\n---\nb: 2\n---\nc: 3\n") is None
