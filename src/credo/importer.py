"""Records import: validate every record against the file and the store, then write all of
it in one transaction, or nothing.

Rules: a belief with an ``id`` keeps it verbatim (an existing id with the same text is an
idempotent no-op, with other text a conflict); a belief without an id gets the content-hash
id and corroborates an existing belief with the same normalised text. Edges need both ends
(in the file or the store), no self-edges, no duplicate within the file; an edge already
stored is skipped. Anchors need their belief and are idempotent on (belief_id, doc_uri).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from credo import identity
from credo.docuri import normalise_doc_uri
from credo.errors import CredoError, RecordsError
from credo.records import AnchorRecord, BeliefRecord, EdgeRecord, read_records
from credo.store import NewBelief, Store
from credo.types import BELIEF_KINDS, EDGE_VALENCE, ORIGINS, DocAnchor, Edge

LogRow = tuple[float, str, str | None, str | None, dict[str, Any] | None]


@dataclass(frozen=True, slots=True)
class ImportReport:
    beliefs_added: int
    beliefs_corroborated: int
    beliefs_unchanged: int
    edges_added: int
    edges_unchanged: int
    anchors_added: int
    source: str


def _fail(source: str, line: int, message: str) -> RecordsError:
    return RecordsError(f"{source}:{line}: {message}; nothing was imported")


class _Plan:
    """Everything one import will write, built before the first INSERT."""

    def __init__(self, store: Store, source: str, root: Path, now: float) -> None:
        self.store, self.source, self.root, self.now = store, source, root, now
        self.beliefs: dict[str, NewBelief] = {}
        self.belief_lines: dict[str, int] = {}
        self.by_hash: dict[str, str] = {}
        self.corroborate: list[tuple[str, str | None]] = []
        self.corroboration_rows: list[tuple[str, int]] = []
        self.unchanged = 0
        self.edges: dict[tuple[str, str, str], Edge] = {}
        self.edge_lines: dict[tuple[str, str, str], int] = {}
        self.anchors: list[DocAnchor] = []
        self.anchor_lines: list[int] = []
        self.log: list[LogRow] = []

    def error(self, line: int, message: str) -> RecordsError:
        return _fail(self.source, line, message)

    def add_belief(self, rec: BeliefRecord) -> str:
        try:
            content = identity.clean_content(rec.content)
            if rec.id is not None:
                identity.check_id(rec.id)
        except CredoError as exc:
            raise self.error(rec.line, str(exc)) from None
        kind = rec.belief_kind or "factual"
        origin = rec.origin or "import"
        if kind not in BELIEF_KINDS:
            raise self.error(
                rec.line, f"belief_kind {kind!r} must be one of {', '.join(BELIEF_KINDS)}"
            )
        if origin not in ORIGINS:
            raise self.error(rec.line, f"origin {origin!r} must be one of {', '.join(ORIGINS)}")
        for name, value in (("alpha", rec.alpha), ("beta", rec.beta)):
            if value is not None and value <= 0:
                raise self.error(rec.line, f"{name} must be > 0, got {value}")
        digest = identity.content_hash(content)
        belief_id = rec.id
        if belief_id is None:
            belief_id = self.by_hash.get(digest)
            if belief_id is None:
                found = self.store.find_by_hash(digest)
                belief_id = found.id if found else identity.derived_id(digest)
            if belief_id in self.beliefs or self.store.get_belief(belief_id):
                self.corroborate.append((belief_id, rec.session))
                return belief_id
        elif belief_id in self.beliefs:
            if self.beliefs[belief_id].content_hash != digest:
                first = self.belief_lines[belief_id]
                raise self.error(
                    rec.line, f"id {belief_id!r} already used on line {first} for other text"
                )
            self.unchanged += 1
            return belief_id
        created = rec.created_at if rec.created_at is not None else self.now
        self.beliefs[belief_id] = NewBelief(
            id=belief_id,
            content=content,
            content_hash=digest,
            kind=kind,
            origin=origin,
            locked=rec.locked,
            alpha=rec.alpha if rec.alpha is not None else 1.0,
            beta=rec.beta if rec.beta is not None else 1.0,
            session=rec.session,
            created_at=created,
            updated_at=rec.updated_at if rec.updated_at is not None else created,
            deleted_at=rec.deleted_at,
        )
        self.belief_lines[belief_id] = rec.line
        self.by_hash.setdefault(digest, belief_id)
        if rec.corroborations:
            self.corroboration_rows.append((belief_id, rec.corroborations))
        return belief_id

    def add_anchor(
        self,
        belief_id: str,
        uri: str,
        anchor_type: str,
        hint: str | None,
        created: float | None,
        line: int,
    ) -> None:
        try:
            normalised = normalise_doc_uri(uri, root=self.root)
        except CredoError as exc:
            raise self.error(line, str(exc)) from None
        self.anchors.append(
            DocAnchor(
                belief_id=belief_id,
                doc_uri=normalised.uri,
                anchor_type=anchor_type,
                position_hint=hint if hint is not None else normalised.position_hint,
                created_at=created if created is not None else self.now,
            )
        )
        self.anchor_lines.append(line)

    def add_edge(self, rec: EdgeRecord) -> None:
        if rec.src == rec.dst:
            raise self.error(rec.line, f"self-edge {rec.src!r} -> {rec.dst!r} is not allowed")
        key = (rec.src, rec.dst, rec.type.value)
        if key in self.edges:
            raise self.error(
                rec.line,
                f"duplicate edge {rec.src} -{rec.type.value}-> {rec.dst} "
                f"(first on line {self.edge_lines[key]})",
            )
        weight = rec.weight if rec.weight is not None else EDGE_VALENCE[rec.type]
        if not -1.0 <= weight <= 1.0:
            raise self.error(rec.line, f"edge weight {weight} must be within [-1, 1]")
        self.edges[key] = Edge(
            rec.src,
            rec.dst,
            rec.type,
            weight,
            rec.anchor_text,
            rec.created_at if rec.created_at is not None else self.now,
        )
        self.edge_lines[key] = rec.line


def import_records(
    store: Store,
    source: str | Path | Iterable[dict[str, Any] | str],
    *,
    root: Path,
    source_name: str | None = None,
) -> ImportReport:
    name = source_name or (str(source) if isinstance(source, str | Path) else "<records>")
    now = time.time()
    with store.transaction():
        plan = _Plan(store, name, root, now)
        for rec in read_records(source):
            if isinstance(rec, BeliefRecord):
                belief_id = plan.add_belief(rec)
                if rec.doc is not None:
                    plan.add_anchor(belief_id, rec.doc, "ingest", None, rec.created_at, rec.line)
            elif isinstance(rec, EdgeRecord):
                plan.add_edge(rec)
            elif isinstance(rec, AnchorRecord):
                plan.add_anchor(
                    rec.belief_id,
                    rec.doc_uri,
                    rec.anchor_type,
                    rec.position_hint,
                    rec.created_at,
                    rec.line,
                )
        return _write(plan, store)


def _write(plan: _Plan, store: Store) -> ImportReport:
    stored = store.existing_ids(plan.beliefs)
    for belief_id in sorted(stored, key=plan.belief_lines.__getitem__):
        existing = store.get_belief(belief_id)
        new = plan.beliefs.pop(belief_id)
        if existing is not None and existing.content_hash != new.content_hash:
            raise plan.error(
                plan.belief_lines[belief_id],
                f"id {belief_id!r} already holds other text in the store",
            )
        plan.unchanged += 1
    endpoints = {e.src for e in plan.edges.values()} | {e.dst for e in plan.edges.values()}
    endpoints |= {a.belief_id for a in plan.anchors}
    known = set(plan.beliefs) | store.existing_ids(endpoints - set(plan.beliefs))
    for key, edge in plan.edges.items():
        for end in (edge.src, edge.dst):
            if end not in known:
                raise plan.error(plan.edge_lines[key], f"edge end {end!r} is not a known belief id")
    for anchor, line in zip(plan.anchors, plan.anchor_lines, strict=True):
        if anchor.belief_id not in known:
            raise plan.error(line, f"anchor belief {anchor.belief_id!r} is not a known belief id")
    already = store.existing_edge_keys(plan.edges)
    new_edges = [e for k, e in plan.edges.items() if k not in already]

    src = plan.source
    store.insert_beliefs(plan.beliefs.values())
    store.insert_edges(new_edges)
    anchors_added = store.insert_anchors(plan.anchors)
    for belief_id, session in plan.corroborate:
        store.add_corroboration(belief_id, src, session, plan.now)
    for belief_id, count in plan.corroboration_rows:
        for _ in range(count):
            store.add_corroboration(belief_id, src, None, plan.now)
    log: list[LogRow] = [
        (plan.now, "import", b.id, src, {"content": b.content, "session": b.session})
        for b in plan.beliefs.values()
    ]
    log += [(plan.now, "corroborate", bid, src, None) for bid, _ in plan.corroborate]
    log += [
        (plan.now, "relate", e.src, src, {"dst": e.dst, "type": e.type.value, "weight": e.weight})
        for e in new_edges
    ]
    log += [
        (plan.now, "link", a.belief_id, src, {"doc_uri": a.doc_uri, "anchor_type": a.anchor_type})
        for a in plan.anchors
    ]
    store.append_log(log)
    return ImportReport(
        beliefs_added=len(plan.beliefs),
        beliefs_corroborated=len(plan.corroborate),
        beliefs_unchanged=plan.unchanged,
        edges_added=len(new_edges),
        edges_unchanged=len(plan.edges) - len(new_edges),
        anchors_added=anchors_added,
        source=src,
    )
