"""A manifest of a folder's output bytes, for "same inputs, same outputs" across code changes.

`output_manifest(folder)` maps each file (relative path) to the SHA-256 of its bytes after three
substitutions that remove what legitimately differs between two runs of the same inputs:

* the folder's own absolute path becomes `<OUT>` (run folders name their corpus);
* the non-scoring `wall_time_sec` becomes `<wall>` (a measurement of the machine, pilot §9 keeps
  it out of every score), and a sealed run's bubblewrap version and policy digest become
  `<bubblewrap>` and `<policy>` (the policy says which system folders this machine has and
  whether its cgroups limit processes; tests/sandbox checks the policy itself);
* a file's digest quoted in another file becomes `<sha256:relative path>` (of the files holding
  those bytes, the nearest: a run's own), so a file that only differs by the wall time above
  does not change the verdict that names its hash;
* the digest of provebench's own code (`shipped_code_sha256`: a shipped importer's identity is
  the package it ships in, so any edit to any source file changes it) becomes
  `<provebench-code>`, and each log entry's chain hash, which covers that identity, becomes
  `<entry:log file:line>` wherever it is quoted (the chain itself is checked by the log's tests).

Left out: signatures (`*.dsse.json`), made with this machine's laboratory key and checked by the
attestation tests (a log's keyed anchors and run nonce, made with the same key, become
`<anchor-signature>`, `<keyid>` and `<nonce>`), and `ledger.sqlite`, whose pages hold the same
entries as the `ledger.jsonl` export next to it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

_WALL_TIME = (
    re.compile(rb'("wall_time_sec": )[-+0-9.eE]+'),
    # the report shows it rounded, the exact value in a title attribute: both are the machine's
    re.compile(rb'(<th>wall_time_sec</th><td><span class="num")[^<]*'),
)
# Made with the test session's laboratory key (like the signatures left out below): a log's keyed
# anchors and the run nonce derived from the key (docs/attestation.md, "Keyed anchors").
_KEYED = (
    (re.compile(rb'("sig":")[0-9a-f]+'), rb"\1<anchor-signature>"),
    (re.compile(rb'("keyid":")[0-9a-f]{64}'), rb"\1<keyid>"),
    # a verdict names the key that verified its run (red team round 13, H5), as JSON and in a
    # report's result-evidence table
    (re.compile(rb'("run_signer":\s*")[0-9a-f]{64}'), rb"\1<keyid>"),
    (re.compile(rb"(<th>run_signer</th><td>(?:<[^>]*>)*)[0-9a-f]{64}"), rb"\1<keyid>"),
    (re.compile(rb'("nonce":")[0-9a-f]{64}'), rb"\1<nonce>"),
    # a report names the key its signature verified with (docs/report.md, "Signature")
    (re.compile(rb"(key )[0-9a-f]{16}(?![0-9a-f])"), rb"\1<keyid>"),
)
# The sandbox's record of a sealed run names this machine's bubblewrap version and the digest of
# a policy that says which system folders exist and whether cgroups limit processes here.
_MACHINE = (
    (re.compile(rb'("policy_sha256":\s*")[0-9a-f]{64}'), rb"\1<policy>"),
    # …and the digest of this machine's provebench environment, by its bytes.
    (re.compile(rb'("environment_sha256":\s*")[0-9a-f]{64}'), rb"\1<environment>"),
    (re.compile(rb'("tool":\s*"bubblewrap",\s*"version":\s*")[^"]*'), rb"\1<bubblewrap>"),
)


def output_manifest(
    folder: Path, *, skip: tuple[str, ...] = (), code_sha256: str | None = None
) -> dict[str, str]:
    """Relative path → normalised SHA-256, every file under `folder` but those left out and
    `skip` (path prefixes); `code_sha256` is provebench's own code digest."""
    files = sorted(
        path
        for path in folder.rglob("*")
        if path.is_file()
        and not path.name.endswith(".dsse.json")
        and path.name != "ledger.sqlite"
        and not path.relative_to(folder).as_posix().startswith(skip)
    )
    tokens: dict[bytes, bytes] = {}
    if code_sha256 is not None:
        tokens[code_sha256.encode()] = b"<provebench-code>"
    for log in sorted(folder.rglob("ledger.jsonl")):
        where = log.relative_to(folder).as_posix()
        # JSON lines end at "\n" alone: `splitlines` also ends one at a U+2028 an entry's
        # text holds raw (pilot red team 31, A2's importer writes one).
        for number, line in enumerate(log.read_text(encoding="utf-8").split("\n"), 1):
            if not line:
                continue
            entry = json.loads(line)
            if isinstance(entry.get("hash"), str):
                tokens[entry["hash"].encode()] = f"<entry:{where}:{number}>".encode()
            # A log edited by an attack lacks the entry before; its hash survives here alone.
            if isinstance(entry.get("prev_hash"), str):
                tokens.setdefault(entry["prev_hash"].encode(), f"<prev:{where}:{number}>".encode())
    digests: dict[bytes, list[Path]] = {}
    for held in sorted(folder.rglob("*")):
        if held.is_file():
            digests.setdefault(hashlib.sha256(held.read_bytes()).hexdigest().encode(), []).append(
                held
            )
    root = str(folder.resolve()).encode()
    # Only what a file quotes is replaced in it, in the order above (see _quoted_in).
    token_order = {value: index for index, value in enumerate(tokens)}
    digest_order = {digest: index for index, digest in enumerate(digests)}
    not_hex = [value for value in tokens if not _DIGEST.fullmatch(value)]
    tokens_hex_free = not any(_HEX_RUN.search(token) for token in tokens.values())
    names_hex_free = not any(
        _HEX_RUN.search(path.relative_to(folder).as_posix().encode())
        for holders in digests.values()
        for path in holders
    )
    manifest: dict[str, str] = {}
    for path in files:
        data = path.read_bytes().replace(root, b"<OUT>")
        for value in _quoted_in(data, token_order, not_hex, tokens_hex_free):
            data = data.replace(value, tokens[value])
        for pattern in _WALL_TIME:
            data = pattern.sub(rb"\1<wall>", data)
        for pattern, replacement in _MACHINE:
            data = pattern.sub(replacement, data)
        for pattern, replacement in _KEYED:
            data = pattern.sub(replacement, data)
        for digest in _quoted_in(data, digest_order, [], names_hex_free):
            if digest in data:
                named = _nearest(digests[digest], path).relative_to(folder).as_posix()
                data = data.replace(digest, f"<sha256:{named}>".encode())
        manifest[path.relative_to(folder).as_posix()] = hashlib.sha256(data).hexdigest()
    return manifest


# A SHA-256 as the outputs write it, and a run of hex digits that may hold one.
_DIGEST = re.compile(rb"[0-9a-f]{64}")
_HEX_RUN = re.compile(rb"[0-9a-f]{64,}")


def _quoted_in(
    data: bytes, order: dict[bytes, int], not_hex: list[bytes], hex_free: bool
) -> list[bytes]:
    """Of the values to replace (`order`: each one's place in the order of replacing), those
    `data` may hold, in that order. The red team's folder quotes some 11,000 log hashes and 500
    file digests in 500 files: searching each file for every one of them took a quarter of a
    minute, while the hashes a file holds are found in one pass (every 64-digit window of a run
    of hex digits). Replacing only those, in the same order, gives the same bytes: a replacement
    (`<…>`) joins no hex runs, so no hash appears that was not there. Where a replacement itself
    holds a hex run (`hex_free` false), every value is tried, as before."""
    if not hex_free:
        return list(order)
    found: set[bytes] = set(not_hex)
    for run in _HEX_RUN.finditer(data):
        text = run.group()
        found.update(
            window
            for window in (text[at : at + 64] for at in range(len(text) - 63))
            if window in order
        )
    return sorted(found, key=order.__getitem__)


def _nearest(holders: list[Path], path: Path) -> Path:
    """Of the files with one content, the one nearest `path` (the longest shared folder; of
    those, the first by name, which `max` keeps): a run's own file, whatever other runs hold
    the same bytes."""
    return max(holders, key=lambda holder: len(os.path.commonpath([holder, path])))


# -- the outputs this repository's golden manifest covers ----------------------------------------

GOLDEN_PATH = Path(__file__).resolve().parents[1] / "golden" / "outputs.json"
# The demo's answer-key reader is written into the demo folder with that folder's path in its
# text, so its code digest (and everything that names it) follows the path: left out.
DEMO_SKIP = ("run-answer-key-reader/", "candidate/")


def produce_outputs(
    work: Path, demo: Path | None = None, redteam: Path | None = None
) -> dict[str, dict[str, str]]:
    """The manifests of `provebench demo` and the full-budget red team (seed 0): of the folders
    given, or of runs into `work`."""
    import subprocess
    import sys

    commands = []
    if demo is None:
        demo = work / "demo"
        commands.append(["demo", "--out", str(demo)])
    if redteam is None:
        redteam = work / "redteam"
        commands.append(["pilot", "redteam", "--budget", "full", "--out", str(redteam), "--quiet"])
    for command in commands:
        completed = subprocess.run(
            [sys.executable, "-m", "provebench", *command],
            capture_output=True,
            text=True,
            check=False,
        )
        if completed.returncode != 0:
            raise AssertionError(f"provebench {command[0]} failed:\n{completed.stderr}")
    from provebench.pilot.agents._loader import shipped_code_sha256

    code = shipped_code_sha256()
    return {
        "demo": output_manifest(demo, skip=DEMO_SKIP, code_sha256=code),
        "redteam": output_manifest(redteam, code_sha256=code),
    }


if __name__ == "__main__":
    # Regenerate the manifest after a change that is meant to change outputs (say so in the
    # commit): .venv/bin/python -m tests.helpers.golden_outputs
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        manifest = produce_outputs(Path(scratch))
    GOLDEN_PATH.parent.mkdir(exist_ok=True)
    GOLDEN_PATH.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN_PATH}")
