"""`pilot publish` / `pilot verify-bundle`: the signed publication bundle of pilot §16, round trip,
and any altered, added or missing byte refused with the first difference named."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.attest import load_trusted_key
from provebench.pilot import run_lab
from provebench.pilot._seal import (
    candidate_identity,
    generate_control,
    reveal,
    seal_candidate,
    sealed_code,
)
from provebench.pilot.evaluate import evaluate_run, write_verdict
from provebench.pilot.evaluate._compare import compare_verdicts, write_comparison
from provebench.pilot.publish import BundleMismatch, publish_bundle, verify_bundle
from provebench.pilot.redteam import RedteamReport
from provebench.pilot.shadow import derive_shadow_corpus
from tests.helpers.pilot_evaluation import make_small_corpus
from tests.helpers.pilot_lab import run_cli
from tests.helpers.pilot_shadow_drive import daily_captures
from tests.helpers.shared_run import made_once

pytestmark = pytest.mark.slow


@dataclass
class Published:
    bundle: Path
    seal: Path
    shadow_corpus: Path
    lab_run: Path
    shadow_run: Path
    lab_corpus: Path


def _run(corpus: Path, folder: Path, **evidence: Path) -> Path:
    seal = evidence.get("fresh_control")  # a control runs from the seal's copy (--from-seal)
    sealed = None if seal is None else sealed_code(seal, load_trusted_key())
    run_lab(corpus, "reference", folder, sealed=sealed)
    write_verdict(evaluate_run(folder, corpus, **evidence), folder / "verdict.json")
    return folder


@pytest.fixture(scope="module")
def published(
    tmp_path_factory: pytest.TempPathFactory, full_red_team: tuple[Path, RedteamReport]
) -> Published:
    """ONE bundle for the test run, made once and shared by the xdist workers
    (tests/helpers/shared_run.py), not once in each worker that runs a test of this module: its
    runs include a sealed fresh control at the control profile's size. Read only: a test that
    changes it works on a copy (`_copy`)."""
    red_team, _ = full_red_team
    root = made_once(tmp_path_factory, "published-bundle", lambda made: _publish(made, red_team))
    lab_corpus = make_small_corpus(root)  # made by `_publish`: only named here
    return Published(root / "bundle", root / "seal", root / "shadow", root / "lab-run",
                     root / "shadow-run", lab_corpus)  # fmt: skip


def _publish(root: Path, red_team: Path) -> None:
    """Every run, seal and comparison the bundle publishes, and the bundle, made in `root`."""
    lab_corpus = make_small_corpus(root)
    # Evaluated as publish evaluates it (with the red-team report): a comparison is published
    # only about verdicts the bundle carries (red team round 12b, V2).
    lab_run = _run(lab_corpus, root / "lab-run", red_team=red_team)
    # The sealed fresh control: sealed, generated, run, evaluated, revealed (pilot §11, §16).
    seal = root / "seal"
    seal_candidate(seal, candidate_identity("reference", None), "control")
    generate_control(seal, root / "control", load_trusted_key())
    control_run = _run(root / "control", root / "control-run", red_team=red_team,
                       fresh_control=seal)  # fmt: skip
    reveal(seal, control_run / "verdict.json", load_trusted_key())
    # The shadow level: eight daily captures, a shadow run, the comparison.
    derive_shadow_corpus(daily_captures(root / "snapshots", 8), root / "shadow")
    shadow_run = _run(root / "shadow", root / "shadow-run")
    comparison = compare_verdicts(lab_run / "verdict.json", shadow_run / "verdict.json",
                                  load_trusted_key())  # fmt: skip
    write_comparison(comparison, root / "comparison.json")
    bundle = root / "bundle"
    publish_bundle(
        [lab_run, control_run, shadow_run],
        [lab_corpus, root / "control", root / "shadow"],
        bundle,
        redteam=red_team,
        seals=[seal],
        comparisons=[root / "comparison.json"],
    )


def test_the_bundle_holds_what_pilot_16_publishes(published: Published) -> None:
    bundle = published.bundle
    index = json.loads((bundle / "bundle.json").read_text(encoding="utf-8"))
    assert sorted(c["profile"] for c in index["corpora"]) == ["control", "public", "shadow"]
    runs = {run["name"]: run for run in index["runs"]}
    assert runs["control-run"]["fresh_control"] == "seal"
    assert runs["control-run"]["pilot_pass"] is True  # red team and fresh control, verified
    assert runs["shadow-run"]["laboratory_pass"] and runs["shadow-run"]["escrow_released_total"]
    assert index["redteam"] and index["seals"] == ["seal"] and len(index["comparisons"]) == 1
    for name in ("ledger.jsonl", "register.csv", "diagnostics.jsonl", "run.dsse.json"):
        assert (bundle / "runs" / "lab-run" / name).is_file(), name
    # Never the seal's unrevealed opening, the capture folder or a key.
    names = {p.name for p in bundle.rglob("*")}
    assert ".opening.json" not in names and "capture.json" not in names
    risks = (bundle / "residual-risks.md").read_text(encoding="utf-8")
    assert "Pseudonyms keep shapes and times" in risks and "Shadow corpus" in risks
    assert "No red-team report" not in risks and "No fresh control" not in risks


def test_verify_bundle_re_derives_every_verdict(published: Published) -> None:
    report = verify_bundle(published.bundle)
    assert report.verdicts_rederived == 3 and report.key_source == "the bundle's own key"
    done = run_cli("pilot", "verify-bundle", str(published.bundle), "--trust-key",
                   str(published.bundle / "laboratory.pub.pem"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "3 verdict(s) re-derived" in done.stdout


def _copy(published: Published, tmp_path: Path) -> Path:
    copy = tmp_path / "bundle"
    shutil.copytree(published.bundle, copy)
    return copy


@pytest.mark.parametrize(
    "target",
    [
        "runs/lab-run/register.csv",
        "runs/shadow-run/ledger.jsonl",
        "verdicts/control-run.json",
        "corpora/{shadow}/drive_events.jsonl",
        "residual-risks.md",
        "bundle.json",
        "manifest.json",
        "bundle.dsse.json",
        "seals/seal/reveal.json",
    ],
)
def test_any_altered_byte_fails_naming_the_file(
    published: Published, tmp_path: Path, target: str
) -> None:
    copy = _copy(published, tmp_path)
    shadow = next(p.name for p in (copy / "corpora").iterdir() if p.name.startswith("shadow"))
    path = copy / target.format(shadow=shadow)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(BundleMismatch) as caught:
        verify_bundle(copy)
    assert path.name in caught.value.one_line()


def test_an_added_or_missing_file_fails(published: Published, tmp_path: Path) -> None:
    copy = _copy(published, tmp_path)
    (copy / "runs" / "lab-run" / "extra.txt").write_text("x", encoding="utf-8")
    done = run_cli("pilot", "verify-bundle", str(copy))
    assert done.returncode == 1 and "extra.txt" in done.stderr and "added" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    (copy / "runs" / "lab-run" / "extra.txt").unlink()
    (copy / "verdicts" / "lab-run.dsse.json").unlink()
    with pytest.raises(BundleMismatch, match="missing"):
        verify_bundle(copy)


def test_a_bundle_re_signed_by_someone_else_fails(published: Published, tmp_path: Path) -> None:
    """The whole bundle re-hashed and re-signed with another key: refused against the announced
    key, and — trusting the bundle's new key — the laboratory's own signatures inside fail."""
    from provebench.attest import sign_statement, write_envelope
    from provebench.attest._envelope import statement
    from provebench.attest._keys import laboratory_signer
    from provebench.pilot.publish._bundle import bundle_digests

    copy = _copy(published, tmp_path)
    other_keys = tmp_path / "other-keys"
    signer = laboratory_signer(other_keys)
    (copy / "laboratory.pub.pem").write_bytes(
        (other_keys / "laboratory.ed25519.pub.pem").read_bytes()
    )
    manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
    manifest["sha256"] = bundle_digests(copy)
    (copy / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    from provebench._canonical import sha256_file

    index = json.loads((copy / "bundle.json").read_text(encoding="utf-8"))
    document = statement({"manifest.json": sha256_file(copy / "manifest.json")},
                         "urn:provebench:pilot-bundle:1",
                         {"format": "call-import-bundle/1", "index": index})  # fmt: skip
    write_envelope(copy / "bundle.dsse.json", sign_statement(document, signer))
    announced = published.bundle / "laboratory.pub.pem"
    with pytest.raises(BundleMismatch, match="not signed by the trusted key"):
        verify_bundle(copy, announced)
    with pytest.raises(BundleMismatch, match="not signed by the trusted key"):
        verify_bundle(copy)  # the bundle's own signature holds; the red team's does not


def test_publish_refuses_bad_input_and_writes_nothing(published: Published, tmp_path: Path) -> None:
    runs = published.bundle / "runs"
    done = run_cli("pilot", "publish", str(runs / "lab-run"), "--corpus",
                   str(published.shadow_corpus), "-o", str(tmp_path / "b"))  # fmt: skip
    assert done.returncode == 2 and "corpus.manifest_sha256" in done.stderr
    assert not (tmp_path / "b").exists()
    unrevealed = tmp_path / "seal"
    unrevealed.mkdir()
    for name in ("seal.json", "seal.dsse.json"):
        shutil.copyfile(published.seal / name, unrevealed / name)
    done = run_cli("pilot", "publish", str(runs / "shadow-run"), "--corpus",
                   str(published.shadow_corpus), "--seal", str(unrevealed),
                   "-o", str(tmp_path / "b"))  # fmt: skip
    assert done.returncode == 2 and "revealed" in done.stderr
    assert not (tmp_path / "b").exists()


def test_a_verdict_the_evidence_does_not_support_fails_even_if_signed(
    published: Published, tmp_path: Path
) -> None:
    """The laboratory's own key re-signs a changed verdict, manifest and bundle: every hash and
    signature holds, and the verdict re-derived from the run still tells the difference."""
    from provebench._canonical import canonical_json, sha256_file
    from provebench.attest import sign_statement, write_envelope
    from provebench.attest._envelope import statement
    from provebench.attest._keys import laboratory_signer
    from provebench.pilot.publish._bundle import bundle_digests
    from provebench.pilot.record._signing import sign_verdict

    copy = _copy(published, tmp_path)
    verdict_path = copy / "verdicts" / "shadow-run.json"
    verdict = json.loads(verdict_path.read_text(encoding="utf-8"))
    verdict["escrow"]["released_total"] = 0.5
    verdict_path.write_text(canonical_json(verdict), encoding="utf-8")
    sign_verdict(verdict_path, {"format": verdict["format"]})
    manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
    manifest["sha256"] = bundle_digests(copy)
    (copy / "manifest.json").write_text(canonical_json(manifest), encoding="utf-8")
    index = json.loads((copy / "bundle.json").read_text(encoding="utf-8"))
    document = statement({"manifest.json": sha256_file(copy / "manifest.json")},
                         "urn:provebench:pilot-bundle:1",
                         {"format": "call-import-bundle/1", "index": index})  # fmt: skip
    write_envelope(copy / "bundle.dsse.json", sign_statement(document, laboratory_signer()))
    with pytest.raises(BundleMismatch) as caught:
        verify_bundle(copy)
    assert caught.value.field == "escrow.released_total"
    assert "re-derived" in caught.value.message


def test_the_operators_own_residual_risks_are_published_verbatim_and_signed(
    published: Published, tmp_path: Path
) -> None:
    (public,) = (published.bundle / "corpora").glob("public-*")
    lab_run = published.bundle / "runs" / "lab-run"
    risks = tmp_path / "risks.md"
    risks.write_text("- **Night calls.** Our PBX files them a day late.\n", encoding="utf-8")
    bundle = tmp_path / "bundle"
    done = run_cli("pilot", "publish", str(lab_run), "--corpus", str(public), "--risks",
                   str(risks), "-o", str(bundle))  # fmt: skip
    assert done.returncode == 0, done.stderr
    page = (bundle / "residual-risks.md").read_text(encoding="utf-8")
    assert page.endswith(
        "## Stated by the operator\n\n- **Night calls.** Our PBX files them a day late.\n"
    )
    assert page.index("## This bundle") < page.index("## Stated by the operator")
    assert verify_bundle(bundle).verdicts_rederived == 1  # the page is in the signed manifest
    for content, said in ((b" \n", "empty"), (b"\xff\xfe", "not UTF-8"),
                          (b"x" * (256 * 1024 + 1), "larger than")):  # fmt: skip
        risks.write_bytes(content)
        refused = run_cli("pilot", "publish", str(lab_run), "--corpus", str(public), "--risks",
                          str(risks), "-o", str(tmp_path / "b"))  # fmt: skip
        assert refused.returncode == 2 and said in refused.stderr and "--risks" in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "b").exists()


def _re_signed_by_the_laboratory(copy: Path) -> None:
    """What publish signed before red team round 12 (A14): the manifest of whatever the staging
    folder held, re-hashed, signed with the laboratory's own key."""
    from provebench._canonical import canonical_json, sha256_file
    from provebench.attest import sign_statement, write_envelope
    from provebench.attest._envelope import statement
    from provebench.attest._keys import laboratory_signer
    from provebench.pilot.publish._bundle import bundle_digests

    manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
    manifest["sha256"] = bundle_digests(copy)
    (copy / "manifest.json").write_text(canonical_json(manifest), encoding="utf-8")
    index = json.loads((copy / "bundle.json").read_text(encoding="utf-8"))
    document = statement({"manifest.json": sha256_file(copy / "manifest.json")},
                         "urn:provebench:pilot-bundle:1",
                         {"format": "call-import-bundle/1", "index": index})  # fmt: skip
    write_envelope(copy / "bundle.dsse.json", sign_statement(document, laboratory_signer()))


def _plant_certified(staging: Path) -> Path:
    path = staging / "CERTIFIED.json"
    path.write_text('{"certified": true}\n', encoding="utf-8")
    return path


def _risks_none(staging: Path) -> Path:
    path = staging / "residual-risks.md"
    path.write_text("None.\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("plant", [_plant_certified, _risks_none], ids=["certified", "risks"])
def test_a_signed_manifest_of_a_file_publish_did_not_write_fails(
    published: Published, tmp_path: Path, plant: Callable[[Path], Path]
) -> None:
    """Red team round 12, A14, at verify-bundle: a file publish never puts in a bundle, or a
    residual-risks page that is not the one derived from the bundle's facts, fails in one line
    naming it — even listed in a manifest the laboratory's key signed."""
    copy = _copy(published, tmp_path)
    path = plant(copy)
    _re_signed_by_the_laboratory(copy)
    done = run_cli("pilot", "verify-bundle", str(copy))
    assert done.returncode == 1 and path.name in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("plant", [_plant_certified, _risks_none], ids=["certified", "risks"])
def test_a_file_planted_in_the_staging_folder_is_not_signed(
    published: Published, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    plant: Callable[[Path], Path],
) -> None:  # fmt: skip
    """Red team round 12, A14, at publish: the plant is made in the staging folder after the
    residual-risks page is written and before the index and the manifest (the racer's point);
    publish lists only what it wrote, finds the folder changed before signing, and leaves no
    bundle."""
    from provebench.pilot.publish import _bundle

    (public,) = (published.bundle / "corpora").glob("public-*")
    original = _bundle.write_atomic

    def planted_before_the_index(path: Path, data: bytes | str) -> str:
        if path.name == "bundle.json":
            plant(path.parent)
        return original(path, data)

    monkeypatch.setattr(_bundle, "write_atomic", planted_before_the_index)
    out = tmp_path / "bundle"
    with pytest.raises(ProvebenchError) as refused:
        publish_bundle([published.bundle / "runs" / "lab-run"], [public], out)
    assert "\n" not in str(refused.value) and "nothing is signed" in str(refused.value)
    assert not out.exists() and not list(tmp_path.glob(".bundle.*"))


def test_the_index_names_the_run_the_verdict_evaluated_not_a_first_read_of_run_json(
    published: Published, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team round 12b, P1: publish's first read of run.json (the racer's point) returns a
    forged record naming another agent and a sealed run; the bundle's copy is the genuine one.
    The signed index takes agent and isolation from the verdict evaluated from the staged copy."""
    from provebench.pilot.publish import _bundle

    run = published.bundle / "runs" / "lab-run"
    (public,) = (published.bundle / "corpora").glob("public-*")
    original = _bundle._run_record

    def forged_first_read(run_dir: Path) -> dict[str, object]:
        record = original(run_dir)
        record["agent"] = dict(record["agent"], name="my-candidate", spec="vendor.py:Mine")
        record["isolation"] = dict(record["isolation"], mode="sandbox", from_seal="f" * 64)
        return record

    monkeypatch.setattr(_bundle, "_run_record", forged_first_read)
    out = tmp_path / "bundle"
    index = publish_bundle([run], [public], out)
    genuine = json.loads((run / "run.json").read_text(encoding="utf-8"))
    assert index.runs[0].agent["name"] == genuine["agent"]["name"] != "my-candidate"
    assert "from_seal" not in index.runs[0].isolation
    verify_bundle(out)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("runs[0].agent.name", "my-candidate"),
        ("runs[0].isolation.mode", "sandbox"),
        ("runs[0].laboratory_pass", False),
        ("corpora[0].seed", 4242),
    ],
)
def test_a_signed_index_entry_the_bundle_does_not_derive_fails(
    published: Published, tmp_path: Path, field: str, value: object
) -> None:
    """Red team round 12b, P1, at verify-bundle: every `runs[]` and `corpora[]` entry of the
    signed index is built again from the bundle's own re-derivation; a forged one, even signed
    by the laboratory's key, fails in one line naming the field."""
    from provebench._canonical import canonical_json

    copy = _copy(published, tmp_path)
    index = json.loads((copy / "bundle.json").read_text(encoding="utf-8"))
    where, _, key = field.rpartition(".")
    entry = index
    for part in where.replace("]", "").replace("[", ".").split("."):
        entry = entry[int(part)] if part.isdigit() else entry[part]
    entry[key] = value
    (copy / "bundle.json").write_text(canonical_json(index), encoding="utf-8")
    _re_signed_by_the_laboratory(copy)
    done = run_cli("pilot", "verify-bundle", str(copy))
    assert done.returncode == 1 and field in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_publish_refuses_a_comparison_of_a_verdict_not_in_the_bundle(
    published: Published, tmp_path: Path
) -> None:
    """Red team round 12b, V2, at publish: the comparison of the laboratory run with a shadow
    run that is not published is refused in one line, and no bundle is left."""
    (public,) = (published.bundle / "corpora").glob("public-*")
    comparison = published.bundle / "comparisons" / "01" / "comparison.json"
    out = tmp_path / "bundle"
    with pytest.raises(ProvebenchError, match="not in the bundle") as refused:
        publish_bundle([published.lab_run], [public], out, comparisons=[comparison],
                       redteam=published.bundle / "redteam")  # fmt: skip
    assert "\n" not in str(refused.value) and refused.value.field == "shadow_verdict_sha256"
    assert not out.exists() and not list(tmp_path.glob(".bundle.*"))


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ({"shadow_verdict_sha256": "0" * 64}, "shadow_verdict_sha256"),
        ({"stopping_condition": "triggered", "material": True}, "re-derived"),
    ],
    ids=["unbundled-verdict", "not-derived"],
)
def test_verify_bundle_re_derives_every_comparison(
    published: Published, tmp_path: Path, edit: dict[str, object], said: str
) -> None:
    """Red team round 12b, V2, at verify-bundle: a signed comparison whose verdicts are not the
    bundle's, or that is not the comparison of the bundle's verdicts, fails in one line — even
    with the comparison and the bundle re-signed by the laboratory's key."""
    from provebench._canonical import canonical_json
    from provebench.attest._envelope import write_and_sign
    from provebench.pilot.evaluate._compare import COMPARISON_PREDICATE

    copy = _copy(published, tmp_path)
    path = copy / "comparisons" / "01" / "comparison.json"
    document = dict(json.loads(path.read_text(encoding="utf-8")), **edit)
    envelope = path.parent / "comparison.dsse.json"
    path.unlink()
    envelope.unlink()
    write_and_sign(path, canonical_json(document), envelope, COMPARISON_PREDICATE, document)
    _re_signed_by_the_laboratory(copy)
    done = run_cli("pilot", "verify-bundle", str(copy))
    assert done.returncode == 1 and said in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("forgery", ["unsigned", "not-derived"])
def test_publish_refuses_a_comparison_it_cannot_verify(
    published: Published, tmp_path: Path, forgery: str
) -> None:
    """Red team round 13, H6 (A07): publish signed a forged "clear" comparison of the bundle's
    own verdicts that nobody signed, and would sign one the laboratory signed that is not the
    comparison of those verdicts. It now checks the staged copy as verify-bundle does (the
    signature, then the comparison derived again); one line, no bundle left."""
    import os

    from provebench._canonical import canonical_json
    from provebench.attest import KEY_DIR_ENV
    from provebench.attest._envelope import write_and_sign
    from provebench.attest._keys import laboratory_signer
    from provebench.pilot.evaluate._compare import COMPARISON_PREDICATE

    source = published.bundle / "comparisons" / "01" / "comparison.json"
    document = dict(json.loads(source.read_text(encoding="utf-8")))
    document["material"] = not document.get("material")  # a verdict of "clear", or its opposite
    forged = tmp_path / "forged" / "comparison.json"
    forged.parent.mkdir()
    own = os.environ[KEY_DIR_ENV]
    if forgery == "unsigned":  # signed, but by a key that is not the laboratory's
        laboratory_signer(tmp_path / "other-keys")
        os.environ[KEY_DIR_ENV] = str(tmp_path / "other-keys")
    try:
        write_and_sign(forged, canonical_json(document), forged.parent / "comparison.dsse.json",
                       COMPARISON_PREDICATE, document)  # fmt: skip
    finally:
        os.environ[KEY_DIR_ENV] = own
    (public,) = (published.bundle / "corpora").glob("public-*")
    out = tmp_path / "bundle"
    said = "not signed by the laboratory" if forgery == "unsigned" else "not the one derived"
    with pytest.raises(ProvebenchError, match=said) as refused:
        publish_bundle([published.lab_run, published.shadow_run], [public, published.shadow_corpus],
                       out, comparisons=[forged], redteam=published.bundle / "redteam")  # fmt: skip
    assert "\n" not in str(refused.value)
    assert not out.exists() and not list(tmp_path.glob(".bundle.*"))
