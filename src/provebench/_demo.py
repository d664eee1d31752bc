"""`provebench demo`: the main job on embedded defaults, as a user would run it by hand.

Every step is a real `provebench` command run as a subprocess (printed before it runs), so the
demo exercises exactly what the README documents: validate and score the shipped SI scenario
and its example evidence, prove every shipped scenario's answer key in the simulator and run
the scripted agents there, then generate a pilot 03 corpus, run the reference and the no-op
importer in the laboratory, and a candidate importer that knows where the corpus lies and tries
to read its answer key — which runs sealed in the sandbox, like every importer provebench did not
ship (docs/sandbox.md) — and evaluate all three runs. Outputs go to one folder (default
`out/demo`), which the demo only ever replaces when it made it itself.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from provebench._errors import ProvebenchError, shown
from provebench._paths import check_output_dir

if TYPE_CHECKING:  # rich is imported by the demo when it runs, not by every command's start
    from rich.console import Console

_MARKER = ".provebench-demo"
DEFAULT_SEED = 3
CANDIDATE = "answer-key-reader"
# A candidate that implements no rule: it appends the corpus's answer key, if it can read it.
_CANDIDATE_SOURCE = '''"""The demo's candidate: it looks for the answer key and appends it."""

import csv
from pathlib import Path

ANSWER_KEY = Path({answer_key!r})
COLUMNS = ("file_id", "call_local_datetime", "direction", "manager_code", "manager_name",
           "phone", "duration_sec", "source_link")


class AnswerKeyReader:
    name = "answer-key-reader"
    version = "1"

    def run_cycle(self, ctx):
        try:
            rows = list(csv.DictReader(ANSWER_KEY.open(encoding="utf-8")))
        except OSError as error:
            ctx.diagnostics.note(f"answer key not readable: {{type(error).__name__}}")
            return
        confirmed = ctx.confirmed.all()
        ctx.sheets.append_rows(
            [{{c: row[c] for c in COLUMNS}} for row in rows if row["file_id"] not in confirmed]
        )
'''


@dataclass(frozen=True)
class _Step:
    """One command of the demo and the exit statuses that count as the expected outcome
    (`title` None: one of a series, under the series' heading)."""

    title: str | None
    args: list[str]
    ok_statuses: tuple[int, ...] = (0,)


def _prepare(out_dir: Path) -> None:
    check_output_dir(out_dir)  # a file, or a folder that cannot be made: before any work
    if out_dir.is_symlink():
        # The folder is replaced whole, and a link would be followed to wherever it points.
        raise ProvebenchError(
            "exists and is a symbolic link; refusing to replace it", path=out_dir, field="--out"
        )
    if out_dir.exists():
        if not (out_dir / _MARKER).is_file():
            raise ProvebenchError(
                "refusing to replace a folder the demo did not create", path=out_dir, field="--out"
            )
        shutil.rmtree(out_dir)
    try:
        out_dir.mkdir(parents=True)
    except OSError as error:
        raise ProvebenchError(f"cannot create: {error.strerror}", path=out_dir) from error
    (out_dir / _MARKER).write_text("made by `provebench demo`; replaced on the next demo\n")


def _run(console: Console, step: _Step, *, capture: bool) -> subprocess.CompletedProcess[str]:
    from rich.markup import escape

    shown = " ".join(["provebench", *step.args])
    if step.title is not None:
        console.print(f"\n[bold cyan]{escape(step.title)}[/]", highlight=False)
    # The command as it runs, before it runs (README: the demo doubles as a tour): unwrapped, so
    # that it can be copied, and escaped, since a path is data, not markup.
    console.print(f"[dim]$ {escape(shown)}[/]", highlight=False, soft_wrap=True)
    completed = subprocess.run(
        [sys.executable, "-m", "provebench", *step.args],
        capture_output=capture,
        text=True,
        check=False,
    )
    if completed.returncode not in step.ok_statuses:
        if capture:
            console.print(completed.stdout, completed.stderr, markup=False)
        raise ProvebenchError(
            f"demo step failed with exit status {completed.returncode}: {shown}", field="demo"
        )
    return completed


def _si_part(console: Console) -> list[tuple[str, str, float]]:
    si_root = files("provebench.si")
    scenario = str(si_root / "scenarios" / "diagnostic-accuracy.yaml")
    _run(
        console,
        _Step("Validate the shipped Form B scenario", ["si", "validate", scenario]),
        capture=False,
    )
    examples = Path(str(si_root / "examples"))
    count = len(list(examples.glob("*.json")))
    # One command for the whole folder: the batch form of `si score`, a line per evidence file.
    # Captured: the verdicts go into the summary table, not on the screen.
    completed = _run(
        console,
        _Step(
            f"Score the {count} example evidence files", ["si", "score", scenario, str(examples)]
        ),
        capture=True,
    )
    results: list[tuple[str, str, float]] = []
    for line in completed.stdout.splitlines():
        decision = json.loads(line)
        results.append(
            (Path(decision["evidence"]).stem, str(decision["band"]), float(decision["score"]))
        )
    return sorted(results)


def _si_laboratory_part(console: Console, out_dir: Path) -> list[tuple[str, str, float]]:
    """Check every shipped diagnosis scenario's answer key, then run each scripted agent on the
    first. (The path-shape scenarios have no injection, hence no answer key to check.)"""
    from provebench.si.agents._loader import diagnosis_agents
    from provebench.si.scenario import load_scenarios
    from provebench.si.sim._route import has_answer_key

    scenarios_dir = Path(str(files("provebench.si") / "scenarios"))
    scenario_files = [
        path
        for path in sorted(scenarios_dir.glob("*.yaml"))
        if all(has_answer_key(scenario) for scenario in load_scenarios(path))
    ]
    for scenario in scenario_files:
        _run(
            console,
            _Step(f"Counterfactual check of {scenario.name}", ["si", "check", str(scenario)]),
            capture=False,
        )
    scenario = scenarios_dir / "diagnostic-accuracy.yaml"
    results: list[tuple[str, str, float]] = []
    for agent in diagnosis_agents():
        run_dir = out_dir / f"si-run-{agent}"
        _run(
            console,
            _Step(
                f"Run the scripted agent {agent} in the SI simulator",
                ["si", "run", str(scenario), "--agent", agent, "--out", str(run_dir)],
            ),
            capture=True,
        )
        verdict = json.loads((run_dir / "verdict.json").read_text(encoding="utf-8"))
        results.append((agent, str(verdict["band"]), float(verdict["score"])))
        _write_report(console, run_dir, f"{agent} SI")
    return results


def _write_report(console: Console, run_dir: Path, what: str) -> None:
    _run(
        console,
        _Step(
            f"Write the HTML report of the {what} verdict",
            ["report", str(run_dir / "verdict.json")],
        ),
        capture=True,
    )


def _pilot_part(console: Console, out_dir: Path, seed: int) -> dict[str, dict[str, Any]]:
    corpus = out_dir / "corpus"
    _run(
        console,
        _Step(
            "Generate a pilot 03 corpus",
            ["pilot", "generate", "--seed", str(seed), "--profile", "public", "--out", str(corpus)],
        ),
        capture=False,
    )
    candidate = out_dir / "candidate" / "answer_key_reader.py"
    candidate.parent.mkdir()
    candidate.write_text(
        _CANDIDATE_SOURCE.format(answer_key=str(corpus / "expected_final_rows.csv")),
        encoding="utf-8",
    )
    verdicts: dict[str, dict[str, Any]] = {}
    specs = {"reference": "reference", "noop": "noop", CANDIDATE: f"{candidate}:AnswerKeyReader"}
    for agent, spec in specs.items():
        run_dir = out_dir / f"run-{agent}"
        title = (
            f"Run the {agent} importer in the laboratory"
            if agent != CANDIDATE
            else "Run a candidate that tries to read the answer key (sealed in the sandbox)"
        )
        command = ["pilot", "run", "--corpus", str(corpus), "--agent", spec]
        _run(console, _Step(title, [*command, "--out", str(run_dir), "--quiet"]), capture=False)
        # Exit 1 is the evaluator's "evaluated, did not pass": the expected outcome for noop.
        _run(
            console,
            _Step(
                f"Evaluate the {agent} run",
                ["pilot", "evaluate", str(run_dir), "--corpus", str(corpus)],
                ok_statuses=(0, 1),
            ),
            capture=True,
        )
        verdicts[agent] = json.loads((run_dir / "verdict.json").read_text(encoding="utf-8"))
        _write_report(console, run_dir, agent)
    _run(
        console,
        _Step(
            "Judge the reference register with the final-state scorer",
            [
                "pilot",
                "score-final",
                str(corpus / "expected_final_rows.csv"),
                str(out_dir / "run-reference" / "register.csv"),
            ],
        ),
        capture=False,
    )
    return verdicts


def run_demo(out_dir: Path, seed: int = DEFAULT_SEED) -> int:
    """Run the demo; returns the process exit status (0 when every outcome is as expected)."""
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    _prepare(out_dir)
    si_results = _si_part(console)
    laboratory_results = _si_laboratory_part(console, out_dir)
    verdicts = _pilot_part(console, out_dir, seed)

    si_table = Table(title="SI profile: infra.capability.da.single-signal-diagnosis-001")
    for column in ("evidence", "band", "score"):
        si_table.add_column(column)
    for name, band, score in si_results:
        si_table.add_row(name, band, f"{score:.1f}")
    laboratory_table = Table(
        title="SI laboratory: scripted agents in the simulator, single-signal-diagnosis-001"
    )
    for column in ("agent", "band", "score"):
        laboratory_table.add_column(column)
    for name, band, score in laboratory_results:
        laboratory_table.add_row(name, band, f"{score:.1f}")
    pilot_table = Table(title=f"Pilot 03: laboratory runs on the public corpus (seed {seed})")
    for column in (
        "importer",
        "isolation",
        "scorer_pass",
        "completeness",
        "Perf_shadow",
        "violations",
        "escrow",
    ):
        pilot_table.add_column(column)
    for agent, verdict in verdicts.items():
        metrics = verdict["metrics"]["overall"] if verdict.get("metrics") else {}
        escrow = verdict.get("escrow") or {}
        isolation = (verdict.get("result_evidence") or {}).get("isolation") or {}
        mode = str(isolation.get("mode", "-"))
        pilot_table.add_row(
            agent,
            "shipped" if mode == "trusted-shipped" else mode,
            str(verdict["scorer_pass"]),
            f"{metrics['completeness']['value']:.3f}" if metrics else "-",
            f"{verdict['perf_shadow']:.3f}" if verdict["perf_shadow"] is not None else "-",
            str(verdict["critical_violation_count"]),
            f"{escrow.get('released_total', 0.0):.0%}",
        )
    console.print()
    console.print(si_table)
    console.print(laboratory_table)
    console.print(pilot_table)
    # The folder's name is the user's: printed as text (no markup), control characters escaped.
    console.print("\nHTML reports (open them in a browser):", markup=False)
    for report in sorted(out_dir.glob("*/report.html")):
        console.print(f"  {shown(report)}", markup=False, soft_wrap=True)
    console.print(f"\nEverything the demo wrote is in {shown(out_dir)}/", markup=False)

    expected = (
        verdicts["reference"]["scorer_pass"] is True
        and verdicts["noop"]["scorer_pass"] is False
        and verdicts[CANDIDATE]["laboratory_pass"] is False
    )
    if not expected:
        console.print(
            "[bold red]unexpected outcome: the reference importer must pass, noop and the "
            "sealed candidate fail[/]"
        )
        return 1
    laboratory_scores = {name: score for name, _band, score in laboratory_results}
    if laboratory_scores.get("diagnoser") != 1.0 or laboratory_scores.get("noop") != 0.0:
        console.print(
            "[bold red]unexpected outcome: the scripted diagnoser must score 1.0 and noop 0.0[/]"
        )
        return 1
    return 0


__all__ = ["DEFAULT_SEED", "run_demo"]
