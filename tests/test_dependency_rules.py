"""The dependency rules of docs/design.md, checked on the source: no import cycle anywhere, the
foundations import no area, each pilot package imports only the packages below it, and the
evaluator never reaches the laboratory, not even through another module."""

from __future__ import annotations

from tests.helpers.import_graph import cycles, import_graph

# The matrix engine is a foundation too: the pilot and the SI profile bring it their jobs.
FOUNDATIONS = ("provebench.ledger", "provebench.sandbox", "provebench.attest", "provebench.matrix")
AREAS = ("provebench.pilot", "provebench.si", "provebench.report", "provebench.cli")
PILOT = "provebench.pilot"
# Pilot 03's packages, and the other pilot packages each may import (docs/design.md, "Layout").
# The rules and the published scorer are the bottom; the run folder format (`record`) sits on
# the rules; the evaluator reads the record, never the laboratory that wrote it.
MAY_IMPORT: dict[str, set[str]] = {
    "score_final": set(),
    "rules": {"score_final"},
    "record": {"rules"},
    "corpus": {"rules", "score_final"},
    "evaluate": {"rules", "record", "corpus", "score_final"},
    "lab": {"rules", "record", "corpus", "agents"},
    "agents": {"rules", "record", "corpus", "lab", "emulator"},
    "emulator": {"rules", "record", "corpus", "lab", "agents"},
    "redteam": {"rules", "record", "corpus", "lab", "agents", "emulator", "evaluate"},
    # The shadow level reads real metadata and writes corpora: it never runs or judges anything.
    "shadow": {"rules", "corpus"},
    # Publication copies and re-evaluates: it reads the record and judges with the evaluator.
    "publish": {"rules", "record", "corpus", "evaluate"},
    # Matrix runs: the laboratory's runs, judged by the evaluator, on the matrix engine.
    "matrix": {"rules", "record", "corpus", "lab", "agents", "emulator", "evaluate"},
}
LABORATORY = ("lab", "agents", "emulator")
# The SI profile's packages, lowest first: text primitives, the profile's data (registry,
# constants, templates, the predicate language), scenarios and their validation, scoring, the
# simulated estate, the agents that run in it (`si run`, the MCP server), and the OASIS
# provider API over the estate (`si provider`). Each may import those before it; the
# command-line option types (`si._cli_options`) are shared by every command module.
SI_LAYERS = (
    "primitives",
    "profile_data",
    "scenario",
    "scoring",
    "sim",
    "agents",
    "provider",
    "suite",
    "matrix",
)


def _package(module: str) -> str | None:
    """The pilot package of a module (`rules`, `lab`, …), None outside them."""
    parts = module.split(".")
    if parts[:2] != ["provebench", "pilot"] or len(parts) < 3 or parts[2] not in MAY_IMPORT:
        return None
    return parts[2]


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def test_there_is_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def test_the_cycle_detector_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_the_foundations_import_no_area() -> None:
    graph = import_graph()
    wrong = {
        (module, target)
        for module, targets in graph.items()
        if _within(module, FOUNDATIONS)
        for target in targets
        if _within(target, AREAS)
    }
    assert wrong == set()


def layer_violations(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Each import of a pilot package that its layer does not allow."""
    return {
        (module, target)
        for module, targets in graph.items()
        if (source := _package(module)) is not None
        for target in targets
        if (imported := _package(target)) not in (None, source)
        and imported not in MAY_IMPORT[source]
    }


def test_each_pilot_package_imports_only_what_its_layer_allows() -> None:
    graph = import_graph()
    assert layer_violations(graph) == set()
    # Every pilot module but the command line, the seal commands and the option ranges (no
    # imports at all, so that the command line can use them without loading a package) is in a
    # package.
    loose = {
        module for module in graph if module.startswith(PILOT + ".") and _package(module) is None
    }
    assert loose == {"provebench.pilot._cli", "provebench.pilot._seal", "provebench.pilot._limits"}


def si_layer_violations(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Each import of an SI package by a lower one (or of a module outside the layers)."""

    def layer(module: str) -> int | None:
        parts = module.split(".")
        if parts[:2] != ["provebench", "si"] or len(parts) < 3:
            return None
        return SI_LAYERS.index(parts[2]) if parts[2] in SI_LAYERS else None

    return {
        (module, target)
        for module, targets in graph.items()
        if (source := layer(module)) is not None
        for target in targets
        if target.startswith("provebench.si.")
        and target != "provebench.si._cli_options"
        and ((imported := layer(target)) is None or imported > source)
    }


def test_each_si_package_imports_only_the_layers_below_it() -> None:
    assert si_layer_violations(import_graph()) == set()
    graph = {"provebench.si.scenario._validate": {"provebench.si.scoring._score"}}
    assert si_layer_violations(graph) == {
        ("provebench.si.scenario._validate", "provebench.si.scoring._score")
    }


def test_the_evaluator_never_reaches_the_laboratory_even_indirectly() -> None:
    graph = import_graph()
    reached, frontier = set(), [m for m in graph if _package(m) == "evaluate"]
    while frontier:
        module = frontier.pop()
        for target in graph.get(module, set()):
            if target not in reached:
                reached.add(target)
                frontier.append(target)
    assert {module for module in reached if _package(module) in LABORATORY} == set()


def test_the_layer_check_sees_a_wrong_import() -> None:
    graph = {
        "provebench.pilot.record._rundir": {"provebench.pilot.lab._runner", "provebench._errors"},
        "provebench.pilot.evaluate._core": {"provebench.pilot.record._rundir"},
    }
    assert layer_violations(graph) == {
        ("provebench.pilot.record._rundir", "provebench.pilot.lab._runner")
    }
