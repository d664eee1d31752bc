"""YAML loading that remembers where every value came from.

Scenario files are hand-written; a validation message is only useful when it names the line.
PyYAML's composer gives us the node tree with marks; we build plain Python data from it ourselves
so that each field path (``scoring.factor.ref``, ``stimuli[0].type``) maps to its 1-based line, and
so that duplicate keys — which PyYAML silently lets the last one win — are refused.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import yaml

from provebench._errors import ProvebenchError
from provebench._jsonfile import MAX_JSON_DEPTH

PathPart = str | int
FieldPath = tuple[PathPart, ...]

_MERGE_TAG = "tag:yaml.org,2002:merge"
# libyaml's parser when PyYAML was built with it (same events and marks, ~10x faster).
_ComposingLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# A guard against alias bombs ("billion laughs"): a scenario file is a few hundred nodes.
_MAX_NODES = 200_000
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_\-$]+")
_PATH_TOKEN = re.compile(r"\[(\d+)\]|\[\"((?:[^\"\\]|\\.)*)\"\]|\.?([^.\[\]]+)")


def format_field(path: Sequence[PathPart]) -> str:
    """``("stimuli", 0, "type")`` -> ``stimuli[0].type``; odd keys are quoted (``a["x.y"]``)."""
    text = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            text += f"[{part}]"
        elif isinstance(part, str) and _PLAIN_KEY.fullmatch(part):
            text += f".{part}" if text else part
        else:  # odd strings, and float / bool keys, which YAML allows
            text += f"[{json.dumps(str(part), ensure_ascii=False)}]"
    return text


def parse_field(text: str) -> FieldPath:
    """The inverse of `format_field`."""
    parts: list[PathPart] = []
    for match in _PATH_TOKEN.finditer(text):
        index, quoted, plain = match.groups()
        if index is not None:
            parts.append(int(index))
        elif quoted is not None:
            parts.append(json.loads(f'"{quoted}"'))
        else:
            parts.append(plain)
    return tuple(parts)


@dataclass(frozen=True)
class YamlDocument:
    """One document of a YAML file: its data and the line of every field in it."""

    path: str
    index: int
    data: Any
    start_line: int
    lines: dict[FieldPath, int] = field(repr=False)

    def line_of(self, path: str | Sequence[PathPart]) -> int:
        """1-based line of ``path``, or of its deepest present ancestor when it is absent.

        A missing field is reported on the line of the block that should have held it.
        """
        parts = parse_field(path) if isinstance(path, str) else tuple(path)
        while parts:
            line = self.lines.get(parts)
            if line is not None:
                return line
            parts = parts[:-1]
        return self.start_line


class _Builder:
    """Turns a composed node tree into plain data plus a path -> line map."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.lines: dict[FieldPath, int] = {}
        self.nodes_seen = 0
        self._scalars = yaml.SafeLoader("")
        # The nodes being built, outermost first: an alias to one of them is a cycle.
        self._open: list[int] = []

    def build(self, node: yaml.Node, at: FieldPath) -> Any:
        self.nodes_seen += 1
        if self.nodes_seen > _MAX_NODES:
            self._refuse(f"more than {_MAX_NODES} YAML nodes (alias expansion?)", node, at)
        if id(node) in self._open:
            self._refuse("an alias refers to a node that contains it (a recursive alias)", node, at)
        if len(self._open) >= MAX_JSON_DEPTH:
            self._refuse(f"nested deeper than {MAX_JSON_DEPTH} levels", node, at)
        self._open.append(id(node))
        try:
            return self._build_node(node, at)
        finally:
            self._open.pop()

    def _refuse(self, problem: str, node: yaml.Node, at: FieldPath) -> NoReturn:
        # Checked as the tree is built: a cyclic or very deep tree must end in this one line,
        # never in a RecursionError. (The field of a deep node is shortened, as JSON's is.)
        field = format_field(at)
        raise ProvebenchError(
            f"{problem}; refusing to load",
            path=self.path,
            line=node.start_mark.line + 1,
            field=(field if len(field) <= 80 else field[:80] + "…") or None,
        )

    def _build_node(self, node: yaml.Node, at: FieldPath) -> Any:
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, at)
        if isinstance(node, yaml.SequenceNode):
            items = []
            for index, item in enumerate(node.value):
                self.lines[(*at, index)] = item.start_mark.line + 1
                items.append(self.build(item, (*at, index)))
            return items
        try:
            return self._scalars.construct_object(node, deep=True)
        except yaml.YAMLError as error:
            raise ProvebenchError(
                f"bad scalar: {_problem(error)}",
                path=self.path,
                line=node.start_mark.line + 1,
                field=format_field(at) or None,
            ) from error

    def _key(self, node: yaml.Node, at: FieldPath) -> Any:
        if not isinstance(node, yaml.ScalarNode):
            raise ProvebenchError(
                "mapping keys must be plain scalars",
                path=self.path,
                line=node.start_mark.line + 1,
                field=format_field(at) or None,
            )
        key = self.build(node, at)
        if not isinstance(key, str | int | float | bool) or key is None:
            raise ProvebenchError(
                f"unsupported mapping key {key!r}",
                path=self.path,
                line=node.start_mark.line + 1,
                field=format_field(at) or None,
            )
        return key

    def _mapping(self, node: yaml.MappingNode, at: FieldPath) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        merged: dict[Any, Any] = {}
        merged_lines: dict[Any, int] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                # `<<: *anchor` — explicit keys of this mapping win over merged ones (YAML 1.1).
                sources = (
                    value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
                )
                for source in sources:
                    if not isinstance(source, yaml.MappingNode):
                        raise ProvebenchError(
                            "a merge key (<<) must refer to a mapping",
                            path=self.path,
                            line=source.start_mark.line + 1,
                            field=format_field(at) or None,
                        )
                    built = self.build(source, at)  # through the cycle and depth checks
                    for merged_key, merged_value in built.items():
                        merged.setdefault(merged_key, merged_value)
                        merged_lines.setdefault(merged_key, source.start_mark.line + 1)
                continue
            key = self._key(key_node, at)
            line = key_node.start_mark.line + 1
            if key in result:
                first = self.lines[(*at, key)]
                raise ProvebenchError(
                    f"duplicate key {key!r} (first defined on line {first})",
                    path=self.path,
                    line=line,
                    field=format_field((*at, key)),
                )
            self.lines[(*at, key)] = line
            result[key] = self.build(value_node, (*at, key))
        for key, value in merged.items():
            if key not in result:
                result[key] = value
                self.lines.setdefault((*at, key), merged_lines[key])
        return result


def _problem(error: yaml.YAMLError) -> str:
    if isinstance(error, yaml.MarkedYAMLError):
        return " ".join(p for p in (error.context, error.problem) if p) or "malformed YAML"
    return str(error).splitlines()[0] if str(error) else "malformed YAML"


def _decode(path: str, raw: bytes) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise ProvebenchError(
            f"not UTF-8: byte 0x{raw[error.start]:02x} at offset {error.start}; "
            "save the file as UTF-8",
            path=path,
            line=line,
            field=_field_on_line(path, raw.decode("utf-8", errors="replace"), line),
        ) from error
    return text.removeprefix("\ufeff")


def _field_on_line(path: str, text: str, line: int) -> str | None:
    """Best-effort name of the field on ``line`` (for the non-UTF-8 message)."""
    try:
        documents = _compose(path, text)
    except ProvebenchError:
        return None
    best: FieldPath | None = None
    for document in documents:
        for at, at_line in document.lines.items():
            if at_line == line and (best is None or len(at) > len(best)):
                best = at
    return None if best is None else format_field(best)


def _compose(path: str, text: str) -> list[YamlDocument]:
    loader = _ComposingLoader(text)
    documents: list[YamlDocument] = []
    try:
        index = 0
        while loader.check_node():
            node = loader.get_node()
            if node is None or (isinstance(node, yaml.ScalarNode) and node.value == ""):
                continue  # an empty or comment-only document (e.g. a header before `---`)
            builder = _Builder(path)
            data = builder.build(node, ())
            documents.append(
                YamlDocument(
                    path=path,
                    index=index,
                    data=data,
                    start_line=node.start_mark.line + 1,
                    lines=builder.lines,
                )
            )
            index += 1
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        raise ProvebenchError(
            f"malformed YAML: {_problem(error)}",
            path=path,
            line=None if mark is None else mark.line + 1,
            field=None,
        ) from error
    except yaml.YAMLError as error:
        raise ProvebenchError(f"malformed YAML: {_problem(error)}", path=path) from error
    finally:
        loader.dispose()
    return documents


def load_yaml_text(text: str, *, path: str = "<string>") -> list[YamlDocument]:
    """Every non-empty document of ``text`` (comment-only documents are skipped)."""
    return _compose(path, text)


def load_yaml_file(path: str | Path) -> list[YamlDocument]:
    """Every non-empty document of a YAML file, with line numbers.

    Raises `ProvebenchError` for a missing or unreadable file, non-UTF-8 bytes, malformed YAML
    and duplicate keys — always naming the file and, where known, the line and field.
    """
    return load_yaml_bytes(str(path), read_yaml_bytes(path))


def read_yaml_bytes(path: str | Path) -> bytes:
    """A YAML file's bytes, read once (`load_yaml_bytes` parses them); one-line errors."""
    name = str(path)
    try:
        return Path(path).read_bytes()
    except FileNotFoundError as error:
        raise ProvebenchError("file not found", path=name) from error
    except IsADirectoryError as error:
        raise ProvebenchError("is a directory, expected a YAML file", path=name) from error
    except OSError as error:
        raise ProvebenchError(f"cannot read file: {error.strerror}", path=name) from error


def load_yaml_bytes(name: str, raw: bytes) -> list[YamlDocument]:
    """`load_yaml_file` of bytes already read (`name` names them in errors)."""
    return _compose(name, _decode(name, raw))


def iter_yaml_files(root: str | Path) -> Iterator[Path]:
    """``*.yaml`` / ``*.yml`` files under ``root`` (recursive), in a stable order."""
    base = Path(root)
    found = [p for p in base.rglob("*") if p.suffix in {".yaml", ".yml"} and p.is_file()]
    yield from sorted(found)


__all__ = [
    "FieldPath",
    "PathPart",
    "YamlDocument",
    "format_field",
    "iter_yaml_files",
    "load_yaml_bytes",
    "load_yaml_file",
    "load_yaml_text",
    "parse_field",
    "read_yaml_bytes",
]
