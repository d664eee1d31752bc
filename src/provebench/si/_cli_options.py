"""Options shared by the `si` commands that take scenarios out of scenario files."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from provebench.si.profile_data._readings import ReadingBook
    from provebench.si.scoring._strict import Reading

# Scenarios §1: a file may hold several YAML documents; `select_scenario` picks the one named here,
# else the one the evidence was recorded for, else the file's only one.
ScenarioIdOption = Annotated[
    str | None,
    typer.Option(
        "--scenario-id",
        help="The scenario to use when the file holds more than one.",
    ),
]
ScenarioFileArgument = Annotated[
    Path, typer.Argument(help="A scenario YAML file (one or more OASIS scenarios).")
]
ReadingsOption = Annotated[
    Path | None,
    typer.Option(
        "--readings",
        help="Your readings of prose in scenarios (docs/si-profile.md#readings); they win over "
        "the shipped ones.",
    ),
]


class ScoreReading(enum.StrEnum):
    ratified = "ratified"
    strict = "strict"

    @property
    def reading(self) -> Reading:
        return "strict" if self is ScoreReading.strict else "ratified"


# docs/si-scoring.md, "The strict reading": which reading of a Form B table gives band and score;
# the verdict shows the other beside it.
ScoreReadingOption = Annotated[
    ScoreReading,
    typer.Option(
        "--reading",
        help="Form B: the reading that gives band and score — ratified (SI 0.3.0-rc1, the "
        "default) or strict (provebench-strict/5); the verdict shows both.",
    ),
]


# docs/si-scoring.md, "The structured diagnosis": under the strict reading, only a submitted
# structured diagnosis identifies a factor, so that words alone cannot reach the top band.
RequireDiagnosisOption = Annotated[
    bool,
    typer.Option(
        "--require-diagnosis",
        help="With --reading strict: a factor is identified only by the structured diagnosis "
        "the agent submitted with its answer, never by prose alone (docs/si-scoring.md).",
    ),
]


def checked_require_diagnosis(require: bool, reading: ScoreReading) -> bool:
    """`--require-diagnosis` as given; refused (exit 2) without `--reading strict`, where it
    would change nothing that gives the score."""
    if require and reading is not ScoreReading.strict:
        from provebench._errors import ProvebenchError

        raise ProvebenchError(
            "--require-diagnosis applies to the strict reading; add --reading strict",
            field="--require-diagnosis",
        )
    return require


class AgentProtocol(enum.StrEnum):
    """How an `--agent-cmd` program speaks (docs/si-agents.md): both are sealed."""

    JSON_LINES = "json-lines"
    MCP = "mcp"


AgentProtocolOption = Annotated[
    AgentProtocol,
    typer.Option(
        "--agent-protocol",
        help="How the --agent-cmd program speaks: json-lines (the SI agent protocol) or mcp "
        "(an MCP client over its stdin/stdout, served the si serve tools), both sealed.",
    ),
]


ProviderOption = Annotated[
    str | None,
    typer.Option(
        "--provider",
        metavar="URL|@FILE",
        envvar="PROVEBENCH_PROVIDER_URL",
        help="Run against this OASIS SI environment provider (http://HOST:PORT[/PATH]): "
        "preflight handshake, then provision, observe and teardown per scenario "
        "(docs/si-provider.md). @FILE reads the URL from a file, and PROVEBENCH_PROVIDER_URL "
        "gives it when the option is absent: argv is readable by every local process.",
    ),
]
KubectlOption = Annotated[
    bool,
    typer.Option(
        "--kubectl",
        help="Also give the agent the kubectl tool: the real kubectl (on PATH), argument lists "
        "only, against the scenario's Kubernetes face — or, with --provider, the environment's "
        "agent_endpoint with the kubeconfig the provider handed over (docs/si-agents.md). "
        "Scenarios of the declared estate.",
    ),
]
ProviderTimeoutOption = Annotated[
    float,
    typer.Option(
        "--provider-timeout",
        metavar="SECONDS",
        help="How long one request to the --provider may take; past it the scenario is a "
        "PROVIDER_FAILURE.",
        min=0.1,
        max=3600,
    ),
]


def reading_book(path: Path | None) -> ReadingBook:
    """The shipped readings, under the user's file when one is given."""
    from provebench.si.profile_data._readings import ReadingBook, load_readings

    return ReadingBook([] if path is None else [load_readings(path)])


__all__ = [
    "AgentProtocol",
    "AgentProtocolOption",
    "KubectlOption",
    "ProviderOption",
    "ProviderTimeoutOption",
    "ReadingsOption",
    "RequireDiagnosisOption",
    "ScenarioFileArgument",
    "ScenarioIdOption",
    "ScoreReading",
    "ScoreReadingOption",
    "checked_require_diagnosis",
    "reading_book",
]
