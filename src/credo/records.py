"""The JSONL records format (SYSTEM.md § Surfaces): parsing with line numbers, and writing.

One JSON object per line; ``kind`` says which record it is:
``{"kind":"belief","id":..,"content":..,"doc":..,"session":..,"locked":..,"created_at":..}``,
``{"kind":"edge","src":..,"dst":..,"type":"CITES","weight":..}``,
``{"kind":"anchor","belief_id":..,"doc_uri":..,"anchor_type":..,"position_hint":..}``.
A belief's own kind (factual, preference...) travels as ``belief_kind`` because ``kind`` names
the record. Export writes every field so that export -> import -> export is byte-identical.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from credo.errors import RecordsError
from credo.types import ANCHOR_TYPES, Belief, DocAnchor, Edge, EdgeType

# A records line longer than this is refused (a belief is at most 20k characters).
MAX_LINE_BYTES = 1_000_000


@dataclass(frozen=True, slots=True)
class BeliefRecord:
    line: int
    id: str | None
    content: str
    doc: str | None = None
    session: str | None = None
    locked: bool = False
    belief_kind: str | None = None
    origin: str | None = None
    alpha: float | None = None
    beta: float | None = None
    created_at: float | None = None
    updated_at: float | None = None
    deleted_at: float | None = None
    corroborations: int = 0


@dataclass(frozen=True, slots=True)
class EdgeRecord:
    line: int
    src: str
    dst: str
    type: EdgeType
    weight: float | None = None
    anchor_text: str | None = None
    created_at: float | None = None


@dataclass(frozen=True, slots=True)
class AnchorRecord:
    line: int
    belief_id: str
    doc_uri: str
    anchor_type: str = "manual"
    position_hint: str | None = None
    created_at: float | None = None


Record = BeliefRecord | EdgeRecord | AnchorRecord


def _fail(source: str, line: int, message: str) -> RecordsError:
    return RecordsError(f"{source}:{line}: {message}; nothing was imported")


class _Fields:
    """Typed access to one record's fields, with errors that name the line."""

    def __init__(self, obj: dict[str, Any], source: str, line: int) -> None:
        self.obj, self.source, self.line = obj, source, line

    def error(self, message: str) -> RecordsError:
        return _fail(self.source, self.line, message)

    def text(self, key: str, *, required: bool = False) -> str | None:
        value = self.obj.get(key)
        if value is None:
            if required:
                raise self.error(f"missing required field {key!r}")
            return None
        if not isinstance(value, str):
            raise self.error(f"field {key!r} must be a string, got {type(value).__name__}")
        return value

    def number(self, key: str) -> float | None:
        value = self.obj.get(key)
        if value is None:
            return None
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise self.error(f"field {key!r} must be a finite number, got {value!r}")
        return float(value)

    def flag(self, key: str) -> bool:
        value = self.obj.get(key, False)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self.error(f"field {key!r} must be true or false, got {value!r}")
        return value

    def check_keys(self, allowed: frozenset[str]) -> None:
        unknown = sorted(set(self.obj) - allowed)
        if unknown:
            raise self.error(f"unknown field {unknown[0]!r} in a {self.obj['kind']} record")


_BELIEF_KEYS = frozenset(
    [
        "kind",
        "id",
        "content",
        "doc",
        "session",
        "locked",
        "belief_kind",
        "origin",
        "alpha",
        "beta",
        "created_at",
        "updated_at",
        "deleted_at",
        "corroborations",
    ]
)
_EDGE_KEYS = frozenset("kind src dst type weight anchor_text created_at".split())
_ANCHOR_KEYS = frozenset("kind belief_id doc_uri anchor_type position_hint created_at".split())


def parse_line(obj: Any, source: str, line: int) -> Record:
    if not isinstance(obj, dict):
        raise _fail(source, line, "each line must be a JSON object")
    f = _Fields(obj, source, line)
    kind = obj.get("kind")
    if kind == "belief":
        f.check_keys(_BELIEF_KEYS)
        corroborations = obj.get("corroborations", 0)
        if (
            isinstance(corroborations, bool)
            or not isinstance(corroborations, int)
            or corroborations < 0
        ):
            raise f.error(
                f"field 'corroborations' must be a non-negative integer, got {corroborations!r}"
            )
        return BeliefRecord(
            line=line,
            id=f.text("id"),
            content=f.text("content", required=True) or "",
            doc=f.text("doc"),
            session=f.text("session"),
            locked=f.flag("locked"),
            belief_kind=f.text("belief_kind"),
            origin=f.text("origin"),
            alpha=f.number("alpha"),
            beta=f.number("beta"),
            created_at=f.number("created_at"),
            updated_at=f.number("updated_at"),
            deleted_at=f.number("deleted_at"),
            corroborations=corroborations,
        )
    if kind == "edge":
        f.check_keys(_EDGE_KEYS)
        type_name = f.text("type", required=True) or ""
        try:
            edge_type = EdgeType(type_name.upper())
        except ValueError:
            raise f.error(
                f"unknown edge type {type_name!r}; known: {', '.join(t.value for t in EdgeType)}"
            ) from None
        return EdgeRecord(
            line=line,
            src=f.text("src", required=True) or "",
            dst=f.text("dst", required=True) or "",
            type=edge_type,
            weight=f.number("weight"),
            anchor_text=f.text("anchor_text"),
            created_at=f.number("created_at"),
        )
    if kind == "anchor":
        f.check_keys(_ANCHOR_KEYS)
        anchor_type = f.text("anchor_type") or "manual"
        if anchor_type not in ANCHOR_TYPES:
            raise f.error(f"anchor_type {anchor_type!r} must be one of {', '.join(ANCHOR_TYPES)}")
        return AnchorRecord(
            line=line,
            belief_id=f.text("belief_id", required=True) or "",
            doc_uri=f.text("doc_uri", required=True) or "",
            anchor_type=anchor_type,
            position_hint=f.text("position_hint"),
            created_at=f.number("created_at"),
        )
    raise _fail(source, line, f"unknown record kind {kind!r}; use belief, edge or anchor")


def read_records(source: str | Path | Iterable[dict[str, Any] | str]) -> Iterator[Record]:
    """Parse records from a JSONL file path, or from an iterable of dicts or JSON strings.

    Invalid UTF-8, invalid JSON, a non-object line or a bad field raises ``RecordsError``
    naming the line. Blank lines are skipped.
    """
    if isinstance(source, str | Path):
        yield from _read_file(Path(source))
        return
    for number, item in enumerate(source, start=1):
        if isinstance(item, str):
            if not item.strip():
                continue
            yield parse_line(_loads(item, "<records>", number), "<records>", number)
        else:
            yield parse_line(item, "<records>", number)


def _loads(text: str, source: str, line: int) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(source, line, f"invalid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise _fail(source, line, "JSON nested too deeply") from None


def _read_file(path: Path) -> Iterator[Record]:
    name = str(path)
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise RecordsError(f"cannot read records file {name}: {exc.strerror or exc}") from exc
    with handle:
        for number, raw in enumerate(handle, start=1):
            if len(raw) > MAX_LINE_BYTES:
                raise _fail(name, number, f"line is longer than {MAX_LINE_BYTES} bytes")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise _fail(name, number, f"invalid UTF-8 at byte {exc.start}") from None
            if number == 1:
                text = text.removeprefix("\ufeff")
            if not text.strip():
                continue
            yield parse_line(_loads(text, name, number), name, number)


def _dump(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def belief_line(belief: Belief) -> str:
    obj: dict[str, Any] = {
        "kind": "belief",
        "id": belief.id,
        "content": belief.content,
        "belief_kind": belief.kind,
        "origin": belief.origin,
        "session": belief.session,
        "locked": belief.locked,
        "alpha": belief.alpha,
        "beta": belief.beta,
        "created_at": belief.created_at,
        "updated_at": belief.updated_at,
    }
    if belief.deleted_at is not None:
        obj["deleted_at"] = belief.deleted_at
    if belief.corroborations:
        obj["corroborations"] = belief.corroborations
    return _dump(obj)


def edge_line(edge: Edge) -> str:
    obj: dict[str, Any] = {
        "kind": "edge",
        "src": edge.src,
        "dst": edge.dst,
        "type": edge.type.value,
        "weight": edge.weight,
        "created_at": edge.created_at,
    }
    if edge.anchor_text is not None:
        obj["anchor_text"] = edge.anchor_text
    return _dump(obj)


def anchor_line(anchor: DocAnchor) -> str:
    return _dump(
        {
            "kind": "anchor",
            "belief_id": anchor.belief_id,
            "doc_uri": anchor.doc_uri,
            "anchor_type": anchor.anchor_type,
            "position_hint": anchor.position_hint,
            "created_at": anchor.created_at,
        }
    )
