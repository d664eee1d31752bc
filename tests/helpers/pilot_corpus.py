"""Generated call-import corpora shared by the pilot rule, generator and corpus tests."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import cache
from pathlib import Path

from provebench.pilot import Corpus, corpus_config, load_corpus, write_corpus

_ROOT = Path(tempfile.mkdtemp(prefix="provebench-pilot-corpora-"))
atexit.register(shutil.rmtree, _ROOT, ignore_errors=True)


@cache
def generated_corpus(seed: int, profile: str = "public", **overrides: int) -> Corpus:
    """A verified corpus, generated once per test session for each argument set."""
    name = f"{profile}-{seed}-" + "-".join(f"{k}{v}" for k, v in sorted(overrides.items()))
    config = corpus_config(seed=seed, profile=profile, overrides=overrides)  # type: ignore[arg-type]
    write_corpus(config, _ROOT / name)
    return load_corpus(_ROOT / name)


def fresh_corpus_dir(tmp_path: Path, seed: int = 5, profile: str = "public") -> Path:
    """A newly generated corpus directory that a test may alter."""
    out = tmp_path / "corpus"
    write_corpus(corpus_config(seed=seed, profile=profile), out)  # type: ignore[arg-type]
    return out
