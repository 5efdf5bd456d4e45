"""The key structure of a configuration file, read by its tree-sitter grammar.

YAML, TOML and JSON (comments allowed, as ``tsconfig.json`` writes them) are parsed by
the grammars on PyPI (``tree-sitter-yaml``, ``tree-sitter-toml``, ``tree-sitter-json``),
loaded once per process on first use. What `config` needs of a tree is its entries: each
mapping key (a YAML key, a TOML table or key, a JSON object member) with the rows its
block spans and the entries nested in it, in file order. A sequence item that is itself
a mapping (a workflow step, a pre-commit repo) is an entry too, named by its ``name``,
``id``, ``uses`` or ``repo`` value when it has one, else by its position.

Nesting past `MAX_DEPTH` is read as one block: no reader asks for the twentieth level, and
hostile input (``[[[[...``) must not recurse without end.
"""

from __future__ import annotations

import importlib
import re
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from credo.knowledge.chunk.parse_budget import parse_within_budget  # (code's budget)

if TYPE_CHECKING:
    from tree_sitter import Language, Node

# Configuration language -> (the grammar's module, its function returning the language).
_GRAMMARS = {
    "yaml": ("tree_sitter_yaml", "language"),
    "toml": ("tree_sitter_toml", "language"),
    "json": ("tree_sitter_json", "language"),
}
MAX_DEPTH = 12
# A sequence item is named by the first of these keys it has (a step's name, a hook's id).
_ITEM_NAMES = ("name", "id", "uses", "repo", "package-ecosystem", "key")
MAX_KEY_CHARS = 80

# tree-sitter-yaml 0.7's scanner keeps a stack of indents and crashes the process
# (SIGSEGV) past about 255 levels ("- " * 300, 255 nested keys indented one column each).
# A level takes at least one column of indent or marker, so a file whose lines start their
# content before `_YAML_MAX_INDENT` columns is safe; any other is read as plain text.
_YAML_MAX_INDENT = 200
_YAML_INDENT = re.compile(rb"^[ \t]*(?:[-?:][ \t]+)*", re.M)

_TRAILING_COMMA = re.compile(rb",(\s*[}\]])")

_LOADED: dict[str, Language | None] = {}
_LOCK = threading.Lock()


@dataclass(slots=True)
class Entry:
    """One key's block: its trail parts (a TOML table's whole dotted path, relative to
    where it sits), its rows (0-based, inclusive) and the entries nested in it."""

    key: tuple[str, ...]
    start: int
    end: int
    children: list[Entry] = field(default_factory=list)


def read_entries(source: bytes, language: str) -> list[Entry] | None:
    """The top-level entries of a file in `language` ("yaml", "toml", "json"); None when
    the grammar is missing, the parse runs past its budget or the file does not parse
    cleanly (the caller reads it as plain text)."""
    loaded = _load(language)
    if loaded is None or (language == "yaml" and _too_deep(source)):
        return None
    from tree_sitter import Parser

    if language == "json":
        # A trailing comma (tsconfig.json, VS Code's settings) is JSONC's, not an error: a
        # space of the same width keeps every offset.
        source = _TRAILING_COMMA.sub(rb" \1", source)
    tree = parse_within_budget(Parser(loaded), source)
    if tree is None or tree.root_node.has_error:
        return None
    root = tree.root_node
    if language == "toml":
        return _toml(root, source)
    if language == "yaml":
        return _yaml_stream(root, source)
    return [e for child in root.named_children for e in _json_value(child, 0, source)]


def _too_deep(source: bytes) -> bool:
    """Whether a YAML file may nest deeper than its grammar survives (`_YAML_MAX_INDENT`)."""
    return any(m.end() - m.start() >= _YAML_MAX_INDENT for m in _YAML_INDENT.finditer(source))


def _load(language: str) -> Language | None:
    if language not in _LOADED:
        with _LOCK:
            if language not in _LOADED:
                _LOADED[language] = _try_load(language)
    return _LOADED[language]


def _try_load(language: str) -> Language | None:
    if language not in _GRAMMARS:
        return None
    package, function = _GRAMMARS[language]
    try:
        import tree_sitter

        return tree_sitter.Language(getattr(importlib.import_module(package), function)())
    except Exception:  # not installed, or an ABI this tree-sitter cannot load
        return None


def _end_row(node: Node) -> int:
    """Last row holding text of `node` (a node ending at column 0 ended on the row above)."""
    row, column = node.end_point
    return row - 1 if column == 0 and row > node.start_point[0] else row


def _key_text(node: Node, source: bytes) -> str:
    # Sliced from the source: ``Node.text`` of a tree parsed through a read callback costs
    # ~0.2 ms a call (6 s for a 400 KB TOML file's keys).
    text = source[node.start_byte : node.end_byte].decode("utf-8", "replace").strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1]
    return " ".join(text.split())[:MAX_KEY_CHARS]


# -- TOML ----------------------------------------------------------------------------------


def _toml(root: Node, source: bytes) -> list[Entry]:
    """Top-level keys, then each ``[table]`` and ``[[array]]`` element with its whole
    dotted path as its key (TOML's tables are flat in the file)."""
    entries: list[Entry] = []
    for node in root.named_children:
        if node.type == "pair":
            entries.append(_toml_pair(node, source))
        elif node.type in ("table", "table_array_element"):
            key = next((c for c in node.named_children if c.type.endswith("key")), None)
            parts = _toml_key(key, source) if key is not None else ()
            pairs = [_toml_pair(c, source) for c in node.named_children if c.type == "pair"]
            entries.append(Entry(parts, node.start_point[0], _end_row(node), pairs))
    return entries


def _toml_pair(node: Node, source: bytes) -> Entry:
    key = node.named_children[0] if node.named_children else None
    parts = _toml_key(key, source) if key is not None else ()
    return Entry(parts, node.start_point[0], _end_row(node))


def _toml_key(node: Node, source: bytes) -> tuple[str, ...]:
    if node.type == "dotted_key":
        return tuple(part for child in node.named_children for part in _toml_key(child, source))
    return (_key_text(node, source),)


# -- YAML ----------------------------------------------------------------------------------


def _yaml_stream(root: Node, source: bytes) -> list[Entry]:
    """A YAML file's entries. A stream of several documents (Kubernetes manifests joined by
    ``---``) gives one entry per document, named by its ``kind`` and ``metadata.name``
    (``Deployment api``) or its position, so that no block crosses into the next document
    and each passage's trail says which one it is in."""
    documents = [d for d in root.named_children if d.type == "document"]
    read = [(d, _yaml_value(d, 0, source)) for d in documents]
    if sum(1 for _, entries in read if entries) < 2:
        return [e for _, entries in read for e in entries]
    return [
        Entry((_document_name(d, source) or f"document {n}",), d.start_point[0], _end_row(d), es)
        for n, (d, es) in enumerate(read, 1)
        if es
    ]


def _document_name(document: Node, source: bytes) -> str:
    """``kind metadata.name`` of a manifest (``Service api-svc``), what there is of the two."""
    top = _key_values(document, source)
    metadata = top.get("metadata")
    name = _key_values(metadata, source).get("name") if metadata is not None else None
    kind = top.get("kind")
    return " ".join(_key_text(value, source) for value in (kind, name) if value is not None)


def _key_values(node: Node, source: bytes) -> dict[str, Node]:
    """A mapping node's own keys and their value nodes (one level: `_pairs_of`)."""
    found: dict[str, Node] = {}
    for pair in _pairs_of(node):
        key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
        if key is not None and value is not None:
            found.setdefault(_key_text(key, source), value)
    return found


def _yaml_value(node: Node, depth: int, source: bytes) -> list[Entry]:
    """The entries of a YAML node: a mapping's keys, a sequence's mapping items."""
    while node.type in ("document", "block_node", "flow_node") and depth <= MAX_DEPTH:
        inner = [c for c in node.named_children if c.type not in ("comment", "tag", "anchor")]
        if len(inner) != 1:
            break
        node = inner[0]
    if depth > MAX_DEPTH:
        return []
    if node.type in ("block_mapping", "flow_mapping"):
        return [
            _yaml_pair(pair, depth, source)
            for pair in node.named_children
            if pair.type in ("block_mapping_pair", "flow_pair")
        ]
    if node.type == "block_sequence":
        items = [c for c in node.named_children if c.type == "block_sequence_item"]
        entries: list[Entry] = []
        for number, item in enumerate(items, 1):
            children = [e for c in item.named_children for e in _yaml_value(c, depth + 1, source)]
            if children:  # a mapping item: a step, a hook; a scalar item stays its key's text
                name = _item_name(item, children, source) or str(number)
                entries.append(Entry((name,), item.start_point[0], _end_row(item), children))
        return entries
    return []


def _yaml_pair(pair: Node, depth: int, source: bytes) -> Entry:
    key = pair.child_by_field_name("key")
    value = pair.child_by_field_name("value")
    children = _yaml_value(value, depth + 1, source) if value is not None else []
    name = _key_text(key, source) if key is not None else ""
    return Entry((name,), pair.start_point[0], _end_row(pair), children)


def _item_name(item: Node, children: list[Entry], source: bytes) -> str:
    """A sequence item's name: the value of its first naming key (`_ITEM_NAMES`)."""
    by_key = {entry.key[0]: entry for entry in children}
    for key in _ITEM_NAMES:
        if key in by_key:
            for pair in _pairs_of(item):
                named = pair.child_by_field_name("key")
                value = pair.child_by_field_name("value")
                if named is not None and value is not None and _key_text(named, source) == key:
                    # (an action's pinned commit says nothing: ``actions/checkout@08c6...``)
                    text = _key_text(value, source)
                    return text.partition("@")[0] if key == "uses" else text
    return ""


def _pairs_of(item: Node) -> list[Node]:
    found: list[Node] = []
    stack = list(item.named_children)
    while stack and len(found) < 64:
        node = stack.pop(0)
        if node.type in ("block_mapping_pair", "flow_pair"):
            found.append(node)
        elif node.type in ("block_node", "flow_node", "block_mapping", "flow_mapping"):
            stack.extend(node.named_children)
    return found


# -- JSON ----------------------------------------------------------------------------------


def _json_value(node: Node, depth: int, source: bytes) -> list[Entry]:
    if depth > MAX_DEPTH:
        return []
    if node.type == "object":
        entries: list[Entry] = []
        for pair in node.named_children:
            if pair.type != "pair":
                continue
            key = pair.child_by_field_name("key")
            value = pair.child_by_field_name("value")
            children = _json_value(value, depth + 1, source) if value is not None else []
            name = _key_text(key, source) if key is not None else ""
            entries.append(Entry((name,), pair.start_point[0], _end_row(pair), children))
        return entries
    if node.type == "array":
        items: list[Entry] = []
        for number, item in enumerate(c for c in node.named_children if c.type == "object"):
            children = _json_value(item, depth + 1, source)
            if children:
                name = _json_item_name(item, source) or str(number + 1)
                items.append(Entry((name,), item.start_point[0], _end_row(item), children))
        return items
    return []


def _json_item_name(item: Node, source: bytes) -> str:
    for pair in item.named_children:
        key = pair.child_by_field_name("key") if pair.type == "pair" else None
        value = pair.child_by_field_name("value") if key is not None else None
        named = key is not None and _key_text(key, source) in _ITEM_NAMES
        if named and value is not None and value.type == "string":
            return _key_text(value, source)
    return ""
