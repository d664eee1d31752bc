"""The transcripts `bench_si_batch` scores are all different texts, and each decides what its
example decides under both readings: the batch measures no reused verdict, and the numbered
note that makes a copy distinct (in its reasoning trace) is no finding of either reading
(docs/benchmarks.md)."""

from __future__ import annotations

import json
from pathlib import Path

from bench.bench_si_batch import SCENARIO, SI, make_transcripts

from provebench.evidence import Evidence
from provebench.si.scenario import load_scenarios
from provebench.si.scenario._binding import bind_scoring
from provebench.si.scoring._evaluate import Prepared, decide_both


def test_the_copies_are_distinct_and_decide_as_their_examples(tmp_path: Path) -> None:
    examples = sorted((SI / "examples").glob("*.json"))
    folder = tmp_path / "transcripts"
    make_transcripts(folder, 2 * len(examples))
    copies = sorted(folder.iterdir())
    assert len({path.read_bytes() for path in copies}) == len(copies)
    scenario = load_scenarios(SCENARIO)[0]
    prepared = Prepared(bind_scoring(scenario))

    def rows(document: object) -> tuple[int, int]:
        ratified, strict = decide_both(prepared, scenario, Evidence.model_validate(document))
        return ratified.id, strict.id

    expected = [rows(json.loads(path.read_text(encoding="utf-8"))) for path in examples]
    decided = [rows(json.loads(path.read_text(encoding="utf-8"))) for path in copies]
    assert decided == expected * 2
    # the two correct answers reach the top band under the strict reading too
    assert expected.count((2, 2)) == 2
