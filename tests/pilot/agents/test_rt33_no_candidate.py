"""Pilot red team 33, A3: the sandbox's loader looked provebench's model client and relays up in
`sys.modules` after the candidate's module ran, so `class Model(OpenAIImporter)` followed by
`del sys.modules["provebench.pilot.agents._openai"]` ran the model client as "the candidate"
(and `pilot seal` sealed it). The loader now holds the classes before the candidate's code runs
and judges the class objects themselves; `pilot seal` reads the candidate's class in the
sandbox, as every run of the seal reads it, and refuses what a run refuses."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import provebench.pilot.agents as agents_package
from provebench.pilot.agents import _worker
from provebench.pilot.agents._no_candidate import NO_CANDIDATE, made_from, no_candidate_classes
from tests.helpers.pilot_lab import make_corpus, run_cli

MODULES = ("_openai", "_mcp_serve", "_sandboxed")

A3 = """
import sys
from provebench.pilot.agents._openai import OpenAIImporter

class Model(OpenAIImporter):
    name = "model-relay"
    version = "1"
    def __init__(self):
        pass
    def run_cycle(self, ctx):
        pass

del sys.modules["provebench.pilot.agents._openai"]
"""


@pytest.fixture
def modules_put_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a candidate file does to `sys.modules` (and to the package's attributes, which a
    fresh import sets) is undone when the test ends."""
    for name in MODULES:
        module = importlib.import_module(f"provebench.pilot.agents.{name}")
        monkeypatch.setitem(sys.modules, module.__name__, module)
        monkeypatch.setattr(agents_package, name, module, raising=False)


def _candidate(tmp_path: Path, body: str) -> str:
    (tmp_path / "model.py").write_text(textwrap.dedent(body), encoding="utf-8")
    return f"{tmp_path / 'model.py'}:Model"


def test_the_red_teams_file_is_refused_in_every_mode(
    tmp_path: Path, modules_put_back: None
) -> None:
    spec = _candidate(tmp_path, A3)
    for identify in (True, False):
        with pytest.raises(Exception, match="holds no candidate code"):
            _worker._load(spec, identify=identify)


@pytest.mark.parametrize(
    "body",
    [
        # the module dropped and imported again: a second class object of the same code
        """
        import sys
        del sys.modules["provebench.pilot.agents._openai"]
        from provebench.pilot.agents._openai import OpenAIImporter
        class Model(OpenAIImporter):
            pass
        """,
        # a metaclass whose `__mro__` and `__bases__` hide the base from a plain read
        """
        from provebench.pilot.agents._mcp_serve import DeskImporter
        class Hiding(type):
            __mro__ = property(lambda cls: (cls, object))
            __bases__ = property(lambda cls: (object,))
        class Model(DeskImporter, metaclass=Hiding):
            pass
        """,
        # made with `type`, two levels down
        """
        from provebench.pilot.agents._sandboxed import SandboxedImporter
        Middle = type("Middle", (SandboxedImporter,), {})
        Model = type("Model", (Middle,), {"name": "m", "version": "1"})
        """,
    ],
)
def test_a_base_hidden_from_a_look_up_is_still_found(
    tmp_path: Path, modules_put_back: None, body: str
) -> None:
    with pytest.raises(Exception, match="holds no candidate code"):
        _worker._load(_candidate(tmp_path, body), identify=True)


def test_a_base_renamed_and_dropped_is_found_by_identity_when_identified(
    tmp_path: Path, modules_put_back: None
) -> None:
    # Renamed, its module dropped: only the object itself, held before the file ran, names it.
    body = """
    import sys
    from provebench.pilot.agents import _openai
    Client = _openai.OpenAIImporter
    Client.__module__, Client.__qualname__ = "mine", "Mine"
    class Model(Client):
        pass
    del sys.modules["provebench.pilot.agents._openai"]
    """
    from provebench.pilot.agents._openai import OpenAIImporter

    spec = _candidate(tmp_path, body)
    try:
        with pytest.raises(Exception, match="holds no candidate code"):
            _worker._load(spec, identify=True)
    finally:  # the class is this process's too
        OpenAIImporter.__module__ = "provebench.pilot.agents._openai"
        OpenAIImporter.__qualname__ = "OpenAIImporter"


def test_a_class_that_uses_the_model_client_is_the_candidates_own_code(tmp_path: Path) -> None:
    # Composition is not inheritance: the class is the candidate's, sealed by its bytes.
    body = """
    from provebench.pilot.agents._openai import OpenAIImporter
    class Model:
        name = "uses-a-client"
        version = "1"
        def run_cycle(self, ctx):
            OpenAIImporter.__new__(OpenAIImporter)
    """
    assert _worker._load(_candidate(tmp_path, body), identify=True).__name__ == "Model"


def test_the_rules_names_are_the_classes_own() -> None:
    # The rule judges a class by the module and name its base was defined with: a rename in
    # provebench's own code must not leave the names behind.
    classes = no_candidate_classes()
    assert [f"{c.__module__}:{c.__qualname__}" for c in classes] == list(NO_CANDIDATE)
    assert all(made_from(c) == name for c, name in zip(classes, NO_CANDIDATE, strict=True))
    assert made_from(object) is None and made_from("not a class") is None


# -- the faces a user meets: `pilot run` and `pilot seal`, each sandboxed ------------------------
def _refused_in_one_line(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert "Model is provebench's model client" in line and "Traceback" not in done.stderr


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_pilot_run_refuses_the_red_teams_file_in_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "candidate"
    folder.mkdir()
    corpus = make_corpus(tmp_path / "corpora")
    out = str(tmp_path / "run")
    _refused_in_one_line(
        run_cli(
            "pilot", "run", "--corpus", str(corpus), "--agent", _candidate(folder, A3), "--out", out
        )
    )


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_pilot_seal_refuses_the_red_teams_file_as_its_run_would(tmp_path: Path) -> None:
    folder = tmp_path / "candidate"
    folder.mkdir()
    seal = tmp_path / "seal"
    _refused_in_one_line(
        run_cli("pilot", "seal", "--agent", _candidate(folder, A3), "--out", str(seal))
    )
    assert not seal.exists()  # nothing written: no seed drawn for it
