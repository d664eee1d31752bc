"""Reading HTML reports back in tests: the JSON they came from, their text, their tags."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse_report(html: str) -> tuple[list[tuple[str, list[tuple[str, str | None]]]], str]:
    """(every start tag with its attributes, the page's text with entities decoded)."""
    collector = _Collector()
    collector.feed(html)
    collector.close()
    return collector.tags, "".join(collector.text)
