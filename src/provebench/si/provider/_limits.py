"""How long the runner waits on a provider: in a module of its own, so that the command line
can show the default without importing the HTTP client (a `si suite --from-evidence` never
talks to a provider, and starts faster without it)."""

from __future__ import annotations

from typing import Final

DEFAULT_TIMEOUT_SEC: Final = 60.0  # seconds one request to a provider may take

__all__ = ["DEFAULT_TIMEOUT_SEC"]
