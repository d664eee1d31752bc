"""Where the laboratory's key folder is (`attest._keys` makes and reads the key in it).

Apart from the key itself so that the output checks (`_paths`), which every writing command
makes, can refuse a key folder inside what a command reads or writes without importing the
signing code.
"""

from __future__ import annotations

import os
from pathlib import Path

KEY_DIR_ENV = "PROVEBENCH_KEY_DIR"


def key_dir() -> Path:
    """`$PROVEBENCH_KEY_DIR` when set, otherwise `$XDG_CONFIG_HOME/provebench/keys`."""
    explicit = os.environ.get(KEY_DIR_ENV)
    if explicit:
        return Path(explicit)
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "provebench" / "keys"


__all__ = ["KEY_DIR_ENV", "key_dir"]
