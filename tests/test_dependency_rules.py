"""The dependency rules of docs/design.md, checked on the source: no import cycle anywhere, the
foundations import no area, and the laboratory never imports the evaluator."""

from __future__ import annotations

from tests.helpers.import_graph import cycles, import_graph

FOUNDATIONS = ("provebench.ledger", "provebench.sandbox", "provebench.attest")
AREAS = ("provebench.pilot", "provebench.si", "provebench.report", "provebench.cli")
# The laboratory: what runs a candidate and writes the run folder.
LABORATORY = (
    "provebench.pilot._lab",
    "provebench.pilot._cycle",
    "provebench.pilot._runner",
    "provebench.pilot._emulator",
    "provebench.pilot.agents",
    "provebench.pilot._publish",
)
EVALUATOR = "provebench.pilot._evaluate"
# What the evaluator may read of the laboratory's modules: the run folder's formats only (the
# register chain, the published order, the listing replay). A move of these into a package of
# their own (`pilot/record/`) is the next step of the layout.
RECORD_FORMATS = {
    "provebench.pilot._cycle",
    "provebench.pilot._publish",
    "provebench.pilot._lab._listing",
}


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


def test_the_laboratory_never_imports_the_evaluator() -> None:
    graph = import_graph()
    wrong = {
        (module, target)
        for module, targets in graph.items()
        if _within(module, LABORATORY)
        for target in targets
        if _within(target, (EVALUATOR,))
    }
    assert wrong == set()


def test_the_evaluator_reads_only_the_record_formats_of_the_laboratory() -> None:
    graph = import_graph()
    wrong = {
        (module, target)
        for module, targets in graph.items()
        if _within(module, (EVALUATOR,))
        for target in targets
        if _within(target, LABORATORY) and target not in RECORD_FORMATS
    }
    assert wrong == set()
