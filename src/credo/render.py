"""The one renderer: JSON for machines, text (rich) for people, the hook's memory block.

Surfaces call these; they never format data themselves.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from enum import Enum
from typing import Any

from credo.types import Belief, DocAnchor, Edge, StoreStats


def to_jsonable(value: Any) -> Any:
    """Dataclasses, enums, tuples and paths as plain JSON values (deterministic order)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        data = {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if isinstance(value, Belief):
            data["confidence"] = round(value.confidence, 6)
        return data
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [to_jsonable(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, set | frozenset) else items
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    return str(value)


def json_text(value: Any) -> str:
    return json.dumps(to_jsonable(value), ensure_ascii=False, indent=2)


def when(timestamp: float | None) -> str:
    if timestamp is None:
        return "-"
    return dt.datetime.fromtimestamp(timestamp, tz=dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def belief_text(belief: Belief, anchors: list[DocAnchor], edges: list[Edge]) -> str:
    lines = [
        f"id:          {belief.id}",
        f"content:     {belief.content}",
        f"kind:        {belief.kind}    origin: {belief.origin}",
        f"locked:      {'yes' if belief.locked else 'no'}",
        f"confidence:  {belief.confidence:.3f}  (alpha {belief.alpha:g}, beta {belief.beta:g})",
        f"corroborated:{belief.corroborations:>2}",
        f"session:     {belief.session or '-'}",
        f"created:     {when(belief.created_at)}    updated: {when(belief.updated_at)}",
    ]
    if belief.deleted_at is not None:
        lines.append(f"forgotten:   {when(belief.deleted_at)}")
    for anchor in anchors:
        lines.append(f"anchor:      {anchor.doc_uri}  ({anchor.anchor_type})")
    for edge in edges:
        lines.append(f"edge:        {edge.src} -{edge.type.value}({edge.weight:g})-> {edge.dst}")
    return "\n".join(lines)


def stats_text(stats: StoreStats) -> str:
    lines = [
        f"store:      {stats.path}",
        f"schema:     v{stats.schema_version}",
        f"beliefs:    {stats.beliefs} live, {stats.locked} locked, {stats.deleted} forgotten",
        f"edges:      {stats.edges}"
        + (
            "  (" + ", ".join(f"{t} {n}" for t, n in stats.edges_by_type.items()) + ")"
            if stats.edges_by_type
            else ""
        ),
        f"anchors:    {stats.anchors}",
        f"log:        {stats.log_entries} entries",
        f"size:       {stats.size_bytes / 1_048_576:.2f} MiB",
    ]
    return "\n".join(lines)
