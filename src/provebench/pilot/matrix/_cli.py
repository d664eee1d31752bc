"""`provebench pilot matrix`: agents × seeds × trials on the laboratory (docs/matrix.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from provebench._errors import ProvebenchError, shown
from provebench.llm._options import BaseUrlOption, ModelCmdOption
from provebench.matrix._options import (
    AddressOption,
    AgentsOption,
    OutOption,
    QuietOption,
    StoreOption,
    TrialsOption,
    WorkersOption,
)
from provebench.pilot._limits import CONTROL_PROFILE, MAX_COUNT, MAX_CYCLES


def register(app: typer.Typer) -> None:
    app.command("matrix")(matrix_command)
    app.command("matrix-verify")(matrix_verify_command)


def matrix_command(
    agents: AgentsOption,
    seeds: Annotated[str, typer.Option("--seeds", help="Corpus seeds: 1-100,105.")],
    out: OutOption,
    profile: Annotated[
        str, typer.Option("--profile", help="public or control (pilot §11 sizes).")
    ] = "control",
    trials: TrialsOption = 1,
    workers: WorkersOption = None,
    address: AddressOption = None,
    cycles: Annotated[
        int | None,
        typer.Option("--cycles", help="Override the profile's cycles.", min=1, max=MAX_CYCLES),
    ] = None,
    file_events: Annotated[
        int | None,
        typer.Option(
            "--file-events", help="Override the profile's file events.", min=0, max=MAX_COUNT
        ),
    ] = None,
    admissible_files: Annotated[
        int | None,
        typer.Option(
            "--admissible-files",
            help="Override the profile's admissible files.",
            min=0,
            max=MAX_COUNT,
        ),
    ] = None,
    base_url: BaseUrlOption = None,
    model_cmd: ModelCmdOption = None,
    store: StoreOption = None,
    quiet: QuietOption = False,
) -> None:
    """Every agent on every seed's corpus, every trial a sealed run, evaluated; one summary
    with pass^k (docs/matrix.md). Exit 0 when every job ran (whatever the verdicts), 1 when a
    job was a harness fault."""
    from provebench.matrix import QuietProgress, StderrProgress, executor_for, run_matrix
    from provebench.matrix._options import agent_list, default_workers, seed_list
    from provebench.matrix._summary import incomplete_mark
    from provebench.pilot._limits import MAX_SEED
    from provebench.pilot.matrix._plan import plan_pilot_matrix

    if profile not in ("public", "control"):
        raise ProvebenchError(f"unknown profile {profile!r} (public or control)", field="--profile")
    overrides = {
        k: v
        for k, v in (
            ("cycles", cycles),
            ("file_events", file_events),
            ("admissible_files", admissible_files),
        )
        if v is not None
    }
    request = plan_pilot_matrix(
        out,
        agent_list(agents),
        seed_list(seeds, maximum=MAX_SEED),
        profile,
        trials,
        overrides,
        base_url,
        store,
        model_cmd,
    )
    count = default_workers(workers)
    summary = run_matrix(
        request,
        out,
        lambda: executor_for(address, count),
        QuietProgress() if quiet else StderrProgress(),
    )
    if profile == CONTROL_PROFILE and not summary["harness_faults"]:
        # Every job ended with a verified verdict: the control corpora's secret is published,
        # signed, so that anyone can regenerate them (`pilot matrix-verify`, pilot §16). A
        # matrix with a harness fault keeps it: its rerun runs those jobs on hidden corpora.
        from provebench.attest import load_trusted_key
        from provebench.pilot.matrix._secret import REVEAL_FILE, reveal_matrix

        reveal_matrix(out, request.request["seeds"], load_trusted_key())
        typer.echo(f"{shown(out / REVEAL_FILE)}: the control corpora's secret, revealed")
    if summary["resumed"]:
        typer.echo(f"  RESUMED (not a sealed result): {len(summary['rerun'])} job(s) run again")
    for agent in summary["agents"]:
        curve = agent["pass_hat_k"]
        last = max(curve, key=int) if curve else None
        said = f"pass^1={curve['1']:.3f} pass^{last}={curve[last]:.3f}" if last else "no pass^k"
        # The agent is the user's spec, as summary.json holds it: shown escaped.
        typer.echo(
            f"  {shown(agent['agent'])}:{incomplete_mark(agent)} {agent['successes']} pass, "
            f"{agent['failures']} fail, "
            f"{agent['harness_faults']} harness fault(s); {said}"
        )
    typer.echo(f"{shown(out / 'summary.json')}: {summary['jobs']} job(s)")
    raise typer.Exit(1 if summary["harness_faults"] else 0)


def matrix_verify_command(
    out: Annotated[Path, typer.Argument(help="The matrix folder (pilot matrix --out).")],
) -> None:
    """Check that a revealed control matrix ran every job on the corpora committed before its
    jobs ran: its secret opens the signed commitment, and every job's signed record names the
    corpus generated again from it (docs/matrix.md). Exit 0 when it holds, 2 otherwise."""
    from provebench.attest import load_trusted_key
    from provebench.pilot.matrix._verify import verify_matrix

    checked = verify_matrix(out, load_trusted_key())
    typer.echo(f"{shown(out)}: {checked} job(s), each on the committed corpus of its seed")


__all__ = ["register"]
