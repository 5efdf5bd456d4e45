"""Records import: validate every record against the file and the store, then write all of
it in one transaction, or nothing.

Rules: a belief with an ``id`` keeps it verbatim (an existing id with the same text is an
idempotent no-op, with other text a conflict); a belief without an id gets the content-hash
id and corroborates an existing belief with the same normalised text. Edges need both ends
(in the file or the store), no self-edges, no duplicate within the file; an edge already
stored is skipped. Anchors need their belief and are idempotent on (belief_id, doc_uri).

Speed (``bench/ingest.py``, 100k beliefs + 200k edges): the file is parsed a chunk of lines
per ``json.loads`` (records.py), well-formed records take a fast path of plain type checks,
edges are checked inline in the import loop, the checks that touch the store run once per
import rather than once per record, the cyclic garbage collector pauses for the import,
and the store writes beliefs and edges in bulk (``Store.bulk_insert``: the FTS index and
anchor text are brought up to date in set-based statements, edges go in src order).

What the import logs in ``ingest_log``:

- one ``import`` row per new belief (belief_id, source_path, its text and session): the row
  the anchor backfill and a rebuild read;
- one ``corroborate`` row per corroboration of a stored belief, one ``link`` row per anchor;
- edges in ``relate_batch`` rows of up to ``EDGE_LOG_BATCH`` edges each (belief_id NULL,
  payload ``{"edges": [[src, dst, type, weight], ...]}``, the fields the per-edge rows
  carried before), because a row per edge cost as much as inserting the edge itself. Two
  kinds keep one ``relate`` row each, as ``Memory.relate`` writes it: an edge with anchor
  text (that text must be erasable by a hard forget, which redacts the rows of the
  forgotten belief) and a SUPERSEDES edge (``dedup.undo`` replays per-edge ``relate`` rows
  to find the edges it owns).
"""

from __future__ import annotations

import gc
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from json.encoder import encode_basestring_ascii
from operator import itemgetter
from pathlib import Path
from typing import Any

from credo import identity
from credo.docuri import normalise_doc_uri
from credo.errors import CredoError, RecordsError
from credo.records import AnchorRecord, BeliefRecord, EdgeRecord, read_records
from credo.store import NewBelief, Store
from credo.store.edges import EdgeRow
from credo.types import BELIEF_KINDS, EDGE_VALENCE, ORIGINS, DocAnchor, EdgeType

LogRow = tuple[float, str, str | None, str | None, dict[str, Any] | str | None]
EdgeKey = tuple[str, str, str]

# Edges per ``relate_batch`` log row.
EDGE_LOG_BATCH = 10_000

_VALENCE = {t.value: w for t, w in EDGE_VALENCE.items()}
_KINDS = frozenset(BELIEF_KINDS)
_ORIGINS = frozenset(ORIGINS)


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


def _check_id(belief_id: str) -> None:
    """``identity.check_id``, with a fast accept for the common printable id."""
    if not (
        0 < len(belief_id) <= identity.MAX_ID_CHARS
        and belief_id.isprintable()  # no Cc/Cs characters, no whitespace but " "
        and belief_id[0] != " "
        and belief_id[-1] != " "
        and " " not in belief_id  # the memory block renders [id]: no forged lock flag
        and "[" not in belief_id
        and "]" not in belief_id
    ):
        identity.check_id(belief_id)


def _belief_payload(content: str, session: str | None) -> str:
    """``json.dumps({"content": content, "session": session}, sort_keys=True)``, cheaper."""
    encoded = "null" if session is None else encode_basestring_ascii(session)
    return f'{{"content": {encode_basestring_ascii(content)}, "session": {encoded}}}'


class _Plan:
    """Everything one import will write, built before the first INSERT."""

    def __init__(self, store: Store, source: str, root: Path, now: float) -> None:
        self.store, self.source, self.root, self.now = store, source, root, now
        self.beliefs: dict[str, NewBelief] = {}
        self.belief_lines: dict[str, int] = {}
        self.by_hash: dict[str, str] = {}
        self.corroborate: list[tuple[str, str | None]] = []
        self.revive: list[str] = []
        self.corroboration_rows: list[tuple[str, int]] = []
        self.unchanged = 0
        self.edges: list[EdgeRow] = []  # file order
        self.edge_lines: dict[EdgeKey, int] = {}
        self.anchors: list[DocAnchor] = []
        self.anchor_lines: list[int] = []

    def error(self, line: int, message: str) -> RecordsError:
        return _fail(self.source, line, message)

    def add_belief(self, rec: BeliefRecord) -> str:
        try:
            content = identity.clean_content(rec.content)
            if rec.id is not None:
                _check_id(rec.id)
        except CredoError as exc:
            raise self.error(rec.line, str(exc)) from None
        kind = rec.belief_kind or "factual"
        origin = rec.origin or "import"
        if kind not in _KINDS:
            raise self.error(
                rec.line, f"belief_kind {kind!r} must be one of {', '.join(BELIEF_KINDS)}"
            )
        if origin not in _ORIGINS:
            raise self.error(rec.line, f"origin {origin!r} must be one of {', '.join(ORIGINS)}")
        alpha = 1.0 if rec.alpha is None else rec.alpha
        beta = 1.0 if rec.beta is None else rec.beta
        for name, value in (("alpha", alpha), ("beta", beta)):
            if value <= 0:
                raise self.error(rec.line, f"{name} must be > 0, got {value}")
        digest = identity.content_hash(content)
        belief_id = rec.id
        if belief_id is None:
            belief_id = self.by_hash.get(digest)
            found = None
            if belief_id is None:
                found = self.store.find_by_hash(digest)
                belief_id = found.id if found else identity.derived_id(digest)
            if belief_id in self.beliefs or found is not None or self.store.get_belief(belief_id):
                if found is not None and found.deleted_at is not None:
                    self.revive.append(belief_id)  # like remember(): the same text revives it
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
        created = self.now if rec.created_at is None else rec.created_at
        self.beliefs[belief_id] = NewBelief(
            belief_id,
            content,
            digest,
            kind,
            origin,
            rec.locked,
            alpha,
            beta,
            rec.session,
            created,
            created if rec.updated_at is None else rec.updated_at,
            rec.deleted_at,
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
        """Raise the error an edge that failed the inline checks of the import loop earns."""
        src, dst = rec.src, rec.dst
        if src == dst:
            raise self.error(rec.line, f"self-edge {src!r} -> {dst!r} is not allowed")
        type_name = str(rec.type)
        key = (src, dst, type_name)
        if key in self.edge_lines:
            raise self.error(
                rec.line,
                f"duplicate edge {src} -{type_name}-> {dst} (first on line {self.edge_lines[key]})",
            )
        weight = _VALENCE[type_name] if rec.weight is None else rec.weight
        raise self.error(rec.line, f"edge weight {weight} must be within [-1, 1]")


def import_records(
    store: Store,
    source: str | Path | Iterable[dict[str, Any] | str],
    *,
    root: Path,
    source_name: str | None = None,
) -> ImportReport:
    name = source_name or (str(source) if isinstance(source, str | Path) else "<records>")
    now = time.time()
    # The plan holds a few objects per record until the end; with the cyclic collector on,
    # its full passes over that growing heap cost as much as all the parsing. Nothing an
    # import builds is cyclic, so the collector pauses for the import and resumes after.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _import(store, source, root, name, now)
    finally:
        if collecting:
            gc.enable()


def _import(
    store: Store,
    source: str | Path | Iterable[dict[str, Any] | str],
    root: Path,
    name: str,
    now: float,
) -> ImportReport:
    with store.transaction():
        plan = _Plan(store, name, root, now)
        add_belief, edge_lines, edges = plan.add_belief, plan.edge_lines, plan.edges
        for rec in read_records(source):
            if type(rec) is EdgeRecord:
                # The common case inline (200k edges pay for every attribute lookup);
                # plan.add_edge re-checks an edge that fails here and names the problem.
                line, src, dst, edge_type, weight, anchor_text, created = rec
                type_name = str(edge_type)  # StrEnum: the value, without the slow .value
                key = (src, dst, type_name)
                if weight is None:
                    weight = _VALENCE[type_name]
                if src == dst or key in edge_lines or not -1.0 <= weight <= 1.0:
                    plan.add_edge(rec)
                edge_lines[key] = line
                edges.append(
                    (src, dst, type_name, weight, anchor_text, now if created is None else created)
                )
            elif type(rec) is BeliefRecord:
                belief_id = add_belief(rec)
                if rec.doc is not None:
                    plan.add_anchor(belief_id, rec.doc, "ingest", None, rec.created_at, rec.line)
            elif type(rec) is AnchorRecord:
                plan.add_anchor(
                    rec.belief_id,
                    rec.doc_uri,
                    rec.anchor_type,
                    rec.position_hint,
                    rec.created_at,
                    rec.line,
                )
        return _write(plan, store)


def _check_against_store(plan: _Plan, store: Store) -> list[EdgeRow]:
    """Drop stored beliefs, check every edge and anchor end; returns the edges to insert."""
    stored = store.content_hashes(plan.beliefs) if plan.beliefs else {}
    for belief_id in sorted(stored, key=plan.belief_lines.__getitem__):
        new = plan.beliefs.pop(belief_id)
        if stored[belief_id] != new.content_hash:
            raise plan.error(
                plan.belief_lines[belief_id],
                f"id {belief_id!r} already holds other text in the store",
            )
        plan.unchanged += 1
    ends = {e[0] for e in plan.edges}
    ends.update([e[1] for e in plan.edges])
    ends.update([a.belief_id for a in plan.anchors])
    outside = ends.difference(plan.beliefs)
    missing = outside - store.existing_ids(outside) if outside else set()
    if missing:
        for edge in plan.edges:
            for end in edge[:2]:
                if end in missing:
                    raise plan.error(
                        plan.edge_lines[edge[:3]], f"edge end {end!r} is not a known belief id"
                    )
        for anchor, line in zip(plan.anchors, plan.anchor_lines, strict=True):
            if anchor.belief_id in missing:
                raise plan.error(
                    line, f"anchor belief {anchor.belief_id!r} is not a known belief id"
                )
    already = store.existing_edge_keys(plan.edge_lines) if plan.edges else set()
    new_edges = [e for e in plan.edges if e[:3] not in already] if already else plan.edges
    # Grouped by src, the primary key (src, dst, type) fills nearly front to back: twice as
    # fast as file order. Sorting on src alone compares plain strings, several times
    # cheaper than comparing tuples.
    new_edges.sort(key=itemgetter(0))
    return new_edges


def _write(plan: _Plan, store: Store) -> ImportReport:
    new_edges = _check_against_store(plan, store)
    beliefs = list(plan.beliefs.values())
    src, now = plan.source, plan.now
    store.bulk_insert(beliefs, new_edges)
    anchors_added = store.insert_anchors(plan.anchors)
    revived = sorted(set(plan.revive))
    store.set_deleted_many(revived, None, now)
    for belief_id, session in plan.corroborate:
        store.add_corroboration(belief_id, src, session, now)
    for belief_id, count in plan.corroboration_rows:
        for _ in range(count):
            store.add_corroboration(belief_id, src, None, now)
    log: list[LogRow] = [
        (now, "import", b.id, src, _belief_payload(b.content, b.session)) for b in beliefs
    ]
    log += [(now, "revive", bid, src, None) for bid in revived]
    log += [(now, "corroborate", bid, src, None) for bid, _ in plan.corroborate]
    batched = new_edges
    supersedes = EdgeType.SUPERSEDES.value
    if any(e[4] is not None or e[2] == supersedes for e in new_edges):
        batched = []
        for edge in new_edges:
            s, d, t, weight, anchor_text, _ = edge
            if anchor_text is None and t != supersedes:
                batched.append(edge)
            else:
                payload = {"dst": d, "type": t, "weight": weight, "anchor_text": anchor_text}
                log.append((now, "relate", s, src, payload))
    for start in range(0, len(batched), EDGE_LOG_BATCH):
        chunk = batched[start : start + EDGE_LOG_BATCH]
        rows = [edge[:4] for edge in chunk]
        log.append((now, "relate_batch", None, src, json.dumps({"edges": rows})))
    log += [
        (now, "link", a.belief_id, src, {"doc_uri": a.doc_uri, "anchor_type": a.anchor_type})
        for a in plan.anchors
    ]
    store.append_log(log)
    return ImportReport(
        beliefs_added=len(beliefs),
        beliefs_corroborated=len(plan.corroborate),
        beliefs_unchanged=plan.unchanged,
        edges_added=len(new_edges),
        edges_unchanged=len(plan.edges) - len(new_edges),
        anchors_added=anchors_added,
        source=src,
    )
