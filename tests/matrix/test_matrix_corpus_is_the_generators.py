"""Red team round 14, H5 (A9, A9b): a pilot matrix trusted the corpora it found on disk.

`corpus_for` reused any OUT/corpora/PROFILE-SEED folder whose config matched, and `prepare`
took the planned manifest digest from what it found. With no Dask and no key, a process of the
operator's user planted a doctored seed corpus (its scheduled API faults removed, counts and
manifest recomputed, config unchanged) once matrix.json appeared and before the driver made
that seed: a blind-retry importer got laboratory_pass and escrow in a fresh signed matrix. The
planned corpus is now the generator's own output, made every time into a private fresh folder,
its manifest digest taken from the bytes written; what was found is kept only when its manifest
is those bytes, else replaced. The plant is made here in that very window, by wrapping the
request's `prepare` (the driver calls it after writing matrix.json, before any job). The honest
controls: with no plant the same importer fails, and a genuine corpus already in place (a
resumed matrix) is kept and the reference importer passes on it."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from provebench._canonical import canonical_json
from provebench._errors import ProvebenchError
from provebench.matrix import JobResult, JobSpec, MatrixRequest, QuietProgress, run_matrix
from provebench.matrix._jobs import execute_job
from provebench.pilot.corpus import corpus_config, write_corpus
from provebench.pilot.matrix import _plan
from provebench.pilot.matrix._plan import corpus_for, plan_pilot_matrix

pytestmark = pytest.mark.slow

SMALL = {"cycles": 4, "file_events": 30, "admissible_files": 12}
SEED = 2
BLIND_RETRY = "provebench.pilot.agents.defective._redteam_attacks:RetriesInDoubtAppend"
EVENTS = "drive_events.jsonl"


class _InProcess:
    name = "stand-in"

    def run(self, specs: Sequence[JobSpec]) -> Iterator[JobResult]:
        for spec in specs:
            yield execute_job(spec)

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def genuine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("genuine") / "corpus"
    write_corpus(corpus_config(seed=SEED, profile="public", overrides=SMALL), folder)
    return folder


@pytest.fixture(scope="module")
def doctored(genuine: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The round's doctored corpus: the seed's, its API faults removed, self-consistent."""
    folder = tmp_path_factory.mktemp("doctored") / "corpus"
    shutil.copytree(genuine, folder)
    for path in folder.iterdir():
        path.chmod(0o644)
    lines = (folder / EVENTS).read_text(encoding="utf-8").splitlines()
    events = [e for e in map(json.loads, lines) if e["kind"] != "api_fault"]
    assert len(events) < len(lines), "the seed schedules API faults"
    for number, event in enumerate(events, 1):
        event["seq"] = number
    (folder / EVENTS).write_text("".join(canonical_json(e) + "\n" for e in events),
                                 encoding="utf-8")  # fmt: skip
    info = json.loads((folder / "corpus.json").read_text(encoding="utf-8"))
    info["counts"]["events"] -= info["counts"]["by_kind"].pop("api_fault")
    info["counts"]["by_fault"] = {}
    (folder / "corpus.json").write_text(json.dumps(info, indent=2), encoding="utf-8")
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    for name in manifest["sha256"]:
        manifest["sha256"][name] = hashlib.sha256((folder / name).read_bytes()).hexdigest()
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return folder


def _planted(request: MatrixRequest, plant: Callable[[Path], None], out: Path) -> MatrixRequest:
    """The request with `plant(OUT/corpora/public-SEED)` done once matrix.json is written and
    before the driver makes the seed's corpus: the round's window."""
    prepare = request.prepare
    assert prepare is not None

    def planted_then_prepare(nonce: str) -> None:
        assert (out / "matrix.json").is_file()
        plant(out / "corpora" / f"public-{SEED}")
        prepare(nonce)

    return replace(request, prepare=planted_then_prepare)


def _run(out: Path, agent: str, plant: Callable[[Path], None] | None) -> dict[str, Any]:
    request = plan_pilot_matrix(out, [agent], [SEED], "public", 1, SMALL, None)
    if plant is not None:
        request = _planted(request, plant, out)
    (summary,) = run_matrix(request, out, _InProcess, QuietProgress())["agents"]
    assert summary["harness_faults"] == 0
    return summary


def _copy_of(source: Path) -> Callable[[Path], None]:
    def plant(target: Path) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(source, target)

    return plant


def _link_to(source: Path) -> Callable[[Path], None]:
    def plant(target: Path) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(source, target_is_directory=True)

    return plant


@pytest.mark.parametrize("how", [_copy_of, _link_to], ids=["copied", "linked"])
def test_a_doctored_corpus_planted_before_the_seed_is_made_is_never_the_planned_one(
    tmp_path: Path, genuine: Path, doctored: Path, how: Callable[[Path], Callable[[Path], None]]
) -> None:
    out = tmp_path / "m"
    importer = _run(out, BLIND_RETRY, how(doctored))
    assert (importer["successes"], importer["laboratory_pass"]) == (0, 0)
    assert importer["escrow"]["tranches_released"] == {}
    made = out / "corpora" / f"public-{SEED}"
    assert not made.is_symlink()
    for name in ("manifest.json", EVENTS, "corpus.json"):
        assert (made / name).read_bytes() == (genuine / name).read_bytes(), name
    assert (doctored / "manifest.json").is_file()  # a link is removed, never what it names
    assert not [p for p in made.parent.iterdir() if p.name.startswith(".")]  # no scratch left


def test_the_honest_controls(tmp_path: Path, genuine: Path) -> None:
    """With no plant the blind retry fails; the genuine corpus already in place is kept (the
    same folder, not regenerated in its place) and the reference importer passes on it."""
    assert _run(tmp_path / "plain", BLIND_RETRY, None)["successes"] == 0
    out = tmp_path / "resumed"
    inode: list[int] = []

    def plant(target: Path) -> None:
        _copy_of(genuine)(target)
        inode.append(target.stat().st_ino)

    assert _run(out, "reference", plant)["successes"] == 1
    assert (out / "corpora" / f"public-{SEED}").stat().st_ino == inode[0]


def test_something_put_in_the_corpus_place_while_it_is_made_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the removal of what was there and the rename of the fresh corpus."""
    remove = _plan._remove

    def remove_then_plant(path: Path) -> None:
        remove(path)
        (path / "x").mkdir(parents=True)

    monkeypatch.setattr(_plan, "_remove", remove_then_plant)
    folder = tmp_path / "out" / "corpora" / f"public-{SEED}"
    folder.mkdir(parents=True)
    with pytest.raises(ProvebenchError, match="something appeared in place") as caught:
        corpus_for(tmp_path / "out", "public", SEED, SMALL)
    assert "\n" not in caught.value.one_line() and caught.value.path == str(folder)
    assert [p.name for p in folder.parent.iterdir()] == [folder.name]  # no scratch left
