"""Where a run records its `openai:` model loop's turns: a ledger entry of the laboratory's own
(`lab._gateway.Gateway.record_model_transcript`), never the importer's diagnostics channel
(docs/llm-agents.md, "What is recorded")."""

from __future__ import annotations

from typing import Final

# The ledger kind of the record, and the format of the transcript it holds (one JSON text).
MODEL_TRANSCRIPT_KIND: Final = "model_transcript"
TRANSCRIPT_FORMAT: Final = "provebench.llm.transcript/1"

__all__ = ["MODEL_TRANSCRIPT_KIND", "TRANSCRIPT_FORMAT"]
