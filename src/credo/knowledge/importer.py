"""Records import: validate every record against the file and the store, then write all of
it in one transaction, or nothing.

Rules: a belief with an ``id`` keeps it verbatim (an existing id with the same text is an
idempotent no-op, with other text a conflict); a belief without an id gets the content-hash
id and corroborates an existing belief with the same normalised text. Edges need both ends
(in the file or the store), no self-edges, no duplicate within the file; an edge already
stored is skipped. Anchors need their belief and are idempotent on (belief_id, doc_uri).
Ingest's own state (which file states which edge, waiting links, the ledger) is checked and
added once the beliefs and edges are in (knowledge/ingest_records.py).

Speed (``bench/ingest.py``, 100k beliefs + 200k edges): the file is parsed a chunk of lines
per ``json.loads`` (records.py) and handed over a batch at a time, well-formed records take
a fast path of plain type checks, edges are checked inline in the import loop, the checks
that touch the store run once per import rather than once per record, the cyclic garbage
collector pauses for the import, and the store writes in bulk (store/bulk.py: multi-row
INSERTs, per-row triggers and CHECK constraints suspended, set-based FTS and anchor-text
updates, indexes of an empty table built after its rows, edges in src order). Every edge
end and anchor belief is checked here, so SQLite's foreign-key checks are off for the
import's transaction. Into a fresh store, a writer thread inserts the beliefs while the
rest of the file is parsed (``_Writes``).

What the import logs in ``ingest_log``: knowledge/import_log.py.
"""

from __future__ import annotations

import gc
import queue
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from itertools import islice
from json.encoder import encode_basestring_ascii
from operator import itemgetter
from pathlib import Path
from typing import Any

from credo.edge_types import EDGE_VALENCE
from credo.errors import CredoError, RecordsError
from credo.knowledge import identity
from credo.knowledge.docuri import normalise_doc_uri
from credo.knowledge.import_log import LogRow, edge_log
from credo.knowledge.ingest_records import IngestState
from credo.knowledge.records import AnchorRecord, BeliefRecord, EdgeRecord, Record, read_batches
from credo.knowledge.retention import of_record
from credo.store import Store
from credo.store.bulk import BULK_DDL_ROWS
from credo.store.edges import EdgeRow
from credo.store.protocol import BulkLoader
from credo.store.rows import NewBelief
from credo.store.value_migration import VALUE_KIND
from credo.types import BELIEF_KINDS, ORIGINS, DocAnchor

EdgeKey = tuple[str, str, str]

# New beliefs handed to the writer thread at a time (``_Writes``).
STREAM_BELIEFS = 5000

_VALENCE = {t.value: w for t, w in EDGE_VALENCE.items()}
_new = tuple.__new__
# (and the kind the ingester gives a module-level constant: an export carries it back)
_KINDS = frozenset((*BELIEF_KINDS, VALUE_KIND))
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
    ingest_rows_added: int = 0  # ledger, edge_files and pending_cites rows


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
    """Everything one import will write, built as the file is read (before the first
    INSERT, but for the beliefs ``_Writes`` streams into a fresh store)."""

    def __init__(self, store: Store, source: str, root: Path, now: float) -> None:
        self.store, self.source, self.root, self.now = store, source, root, now
        # Nothing stored yet: nothing in the file can match the store, so the lookups in it
        # are skipped (and the store may meanwhile take this import's rows: ``_Writes``).
        self.fresh = not store.has_beliefs() and not store.has_edges()
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
        self.ingest = IngestState(source, root)

    def error(self, line: int, message: str) -> RecordsError:
        return _fail(self.source, line, message)

    def add_belief(self, rec: BeliefRecord) -> str:
        (line, belief_id, text, _, session, locked, kind, origin, alpha, beta) = rec[:10]
        content = text.strip()
        # identity.clean_content's checks; for ASCII text (no lone surrogate possible) they
        # reduce to these, and anything else gets the full check and its exact message.
        if not (
            content
            and len(content) <= identity.MAX_CONTENT_CHARS
            and content.isascii()
            and "\x00" not in content
        ):
            try:
                content = identity.clean_content(text)
            except CredoError as exc:
                raise self.error(line, str(exc)) from None
        if belief_id is not None:
            try:
                _check_id(belief_id)
            except CredoError as exc:
                raise self.error(line, str(exc)) from None
        kind = kind or "factual"
        origin = origin or "import"
        if kind not in _KINDS:
            raise self.error(line, f"belief_kind {kind!r} must be one of {', '.join(BELIEF_KINDS)}")
        if origin not in _ORIGINS:
            raise self.error(line, f"origin {origin!r} must be one of {', '.join(ORIGINS)}")
        alpha = 1.0 if alpha is None else alpha
        beta = 1.0 if beta is None else beta
        if alpha <= 0:
            raise self.error(line, f"alpha must be > 0, got {alpha}")
        if beta <= 0:
            raise self.error(line, f"beta must be > 0, got {beta}")
        digest = identity.content_hash(content)
        beliefs = self.beliefs
        if belief_id is None:
            belief_id = self.by_hash.get(digest)
            found = None
            if belief_id is None:
                found = None if self.fresh else self.store.find_by_hash(digest)
                belief_id = found.id if found else identity.derived_id(digest)
            if (
                belief_id in beliefs
                or found is not None
                or (not self.fresh and self.store.get_belief(belief_id))
            ):
                if found is not None and found.deleted_at is not None:
                    self.revive.append(belief_id)  # like remember(): the same text revives it
                self.corroborate.append((belief_id, session))
                return belief_id
        elif belief_id in beliefs:
            if beliefs[belief_id].content_hash != digest:
                first = self.belief_lines[belief_id]
                raise self.error(
                    line, f"id {belief_id!r} already used on line {first} for other text"
                )
            self.unchanged += 1
            return belief_id
        (*_, created, updated, deleted, corroborations, context, retention) = rec
        if retention is None:  # a given class is checked when the record is read
            retention = of_record(origin, content, context or "")
        if created is None:
            created = self.now
        beliefs[belief_id] = _new(  # NewBelief(...) without its Python-level __new__
            NewBelief,
            (
                belief_id,
                content,
                digest,
                kind,
                origin,
                locked,
                alpha,
                beta,
                session,
                created,
                created if updated is None else updated,
                deleted,
                context or "",
                retention,
            ),
        )
        self.belief_lines[belief_id] = line
        self.by_hash.setdefault(digest, belief_id)
        if corroborations:
            self.corroboration_rows.append((belief_id, corroborations))
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
        src, dst, type_name = rec.src, rec.dst, rec.type
        if src == dst:
            raise self.error(rec.line, f"self-edge {src!r} -> {dst!r} is not allowed")
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
    # Every edge end and anchor belief is checked against the file and the store before the
    # import commits (``_check_against_store``): SQLite's own foreign-key checks would only
    # repeat that work, two index probes per edge.
    with store.transaction(foreign_keys=False):
        plan = _Plan(store, name, root, now)
        writes = _Writes(plan, store)
        try:
            for batch in read_batches(source):
                _add_batch(plan, batch)
                writes.send_beliefs()
            return _write(plan, store, writes)
        finally:
            writes.close()  # before the rollback or commit


def _add_batch(plan: _Plan, batch: list[Record]) -> None:
    first_line, append, now = plan.edge_lines.setdefault, plan.edges.append, plan.now
    add_belief = plan.add_belief
    for rec in batch:
        if type(rec) is EdgeRecord:
            # The common case inline (200k edges pay for every attribute lookup);
            # plan.add_edge re-checks an edge that fails here and names the problem.
            line, src, dst, type_name, weight, anchor_text, created = rec
            if weight is None:
                weight = _VALENCE[type_name]
            if (
                src == dst
                or not -1.0 <= weight <= 1.0
                or first_line((src, dst, type_name), line) != line  # a duplicate
            ):
                plan.add_edge(rec)
            append((src, dst, type_name, weight, anchor_text, now if created is None else created))
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
        else:
            plan.ingest.add(rec)


class _Writes:
    """Where the import's inserts run: in order, inline or on a writer thread; either way
    an error of theirs is kept and raised by ``join()``, after the problems of the file and
    of its references (whose checks come first without the thread too).

    Into a fresh store (no belief, no edge), the inserts go to a writer thread: each
    ``STREAM_BELIEFS`` new beliefs go in (FTS-indexed and logged) as soon as the plan holds
    them; once the file is read, the last ones go in while this thread checks the
    references, then the edges, then the indexes are built while this thread builds the log
    rows. SQLite releases the GIL while a statement runs, so both cores work. (Not the log
    rows beside the edge inserts: ``json.dumps`` holds the GIL for a whole chunk, and each
    of the short edge statements needs it back.) Only into a fresh store: nothing in the
    file can conflict with a stored belief or edge, so what the plan accepts is final and
    the checks need not read the store (which the writer meanwhile fills); the import stays
    one transaction, written in the same order as inline. Nothing but the writer touches
    the connection while it is alive.
    """

    def __init__(self, plan: _Plan, store: Store) -> None:
        self.plan, self.store = plan, store
        self.sent = 0  # beliefs handed over so far (the first of plan.beliefs)
        self._load: BulkLoader | None = None
        self._writer: _Writer | None = None
        self._error: Exception | None = None  # of an inline job

    def send_beliefs(self) -> None:
        """While the file is read: start the writer, or feed it the plan's new beliefs."""
        beliefs = self.plan.beliefs
        if not self.plan.fresh or len(beliefs) - self.sent < STREAM_BELIEFS:
            return
        if self._writer is None:
            self._load = self.store.bulk_load(big=True)  # reads the store: before the thread
            self._writer = _Writer()
            self._writer.submit(self._load.start)
        self.add_beliefs(list(islice(beliefs.values(), self.sent, None)))

    def load(self, *, big: bool = True) -> BulkLoader:
        """The bulk load: the one begun already, else a new one (``big``: see
        ``Store.bulk_load``), begun now; only called with no writer or from this thread."""
        if self._load is None:
            self._load = self.store.bulk_load(big=big)
            self.submit(self._load.start)
        return self._load

    def add_beliefs(self, rows: list[NewBelief]) -> None:
        self.submit(partial(_add_beliefs, self.plan, self.store, self.load(), rows))
        self.sent += len(rows)

    def add_edges(self, rows: list[EdgeRow]) -> None:
        """Insert the edges and finish the load; return once the edge rows are in, so that
        what this thread does next runs beside the index builds of ``finish`` (long
        statements) rather than beside the edge inserts (short ones, each of which needs
        the GIL back)."""
        load = self.load()
        inserted = threading.Event()
        self.submit(partial(load.add_edges, rows))
        self.submit(inserted.set)
        self.submit(load.finish)
        if self._writer is not None:
            self._writer.wait_for(inserted)

    def submit(self, job: Callable[[], object]) -> None:
        if self._writer is not None:
            self._writer.submit(job)
        elif self._error is None:
            try:
                job()
            except Exception as exc:  # raised by join(), like the writer's
                self._error = exc

    def join(self) -> None:
        """Wait for the inserts; raise the first error one met."""
        error = self._writer.join() if self._writer is not None else self._error
        self._writer = None
        if error is not None:
            raise error

    def close(self) -> None:
        """Stop the writer (skipping what it has not begun) and restore the connection."""
        try:
            if self._writer is not None:
                self._writer.cancel()
        finally:
            if self._load is not None:
                self._load.close()


class _Writer:
    """Runs store calls in order on one background thread."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], object] | None] = queue.SimpleQueue()
        self._error: BaseException | None = None
        self._cancelled = False
        self._thread = threading.Thread(target=self._run, name="credo-import-writer")
        self._thread.start()

    def submit(self, job: Callable[[], object]) -> None:
        self._jobs.put(job)

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            if self._error is None and not self._cancelled:
                try:
                    job()
                except BaseException as exc:  # handed to the parse thread by join()
                    self._error = exc

    def wait_for(self, event: threading.Event) -> None:
        """Wait until a job sets ``event``, or the writer fails (and then skips that job)."""
        while not event.wait(0.05):
            if self._error is not None or not self._thread.is_alive():
                return

    def join(self) -> BaseException | None:
        self._jobs.put(None)
        self._wait()
        return self._error

    def cancel(self) -> None:
        self._cancelled = True
        self._jobs.put(None)
        self._wait()

    def _wait(self) -> None:
        # Uninterruptible: the caller rolls back next, and a statement of a job still
        # running after the rollback would write outside the transaction.
        interrupted: BaseException | None = None
        while self._thread.is_alive():
            try:
                self._thread.join()
            except BaseException as exc:  # KeyboardInterrupt: re-raised once idle
                interrupted = exc
        if interrupted is not None:
            raise interrupted


def _check_against_store(plan: _Plan, store: Store | None) -> list[EdgeRow]:
    """Drop stored beliefs, check every edge and anchor end; returns the edges to insert,
    in insert order. ``store`` None: the store was fresh, nothing in it to look up."""
    stored = store.content_hashes(plan.beliefs) if store is not None and plan.beliefs else {}
    for belief_id in sorted(stored, key=plan.belief_lines.__getitem__):
        new = plan.beliefs.pop(belief_id)
        if stored[belief_id] != new.content_hash:
            raise plan.error(
                plan.belief_lines[belief_id],
                f"id {belief_id!r} already holds other text in the store",
            )
        plan.unchanged += 1
    ends = set(map(itemgetter(0), plan.edges))
    ends.update(map(itemgetter(1), plan.edges))
    ends.update([a.belief_id for a in plan.anchors])
    missing = ends.difference(plan.beliefs)
    if missing and store is not None:
        missing -= store.existing_ids(missing)
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
    already = store.existing_edge_keys(plan.edge_lines) if store is not None else set()
    new_edges = [e for e in plan.edges if e[:3] not in already] if already else plan.edges
    _check_cycles(plan, store, new_edges)
    # Grouped by src, the primary key (src, dst, type) fills nearly front to back: twice as
    # fast as file order. Sorting on src alone compares plain strings, several times
    # cheaper than comparing tuples.
    new_edges.sort(key=itemgetter(0))
    return new_edges


def _check_cycles(plan: _Plan, store: Store | None, edges: list[EdgeRow]) -> None:
    """Refuse a SUPERSEDES edge that closes a cycle (credo.knowledge.supersession)."""
    from credo.knowledge.supersession import closing_edge, cycle_message

    bad = closing_edge(store, edges, plan.edge_lines.__getitem__)
    if bad is not None:
        raise plan.error(plan.edge_lines[bad], cycle_message(bad[0], bad[1]))


def _add_beliefs(plan: _Plan, store: Store, load: BulkLoader, rows: list[NewBelief]) -> None:
    """Insert new beliefs and log them: the ``import`` rows, built in SQL from the rows just
    inserted (a bound row each would cost more than the belief insert itself)."""
    first = load.add_beliefs(rows)
    if first is not None:
        store.log_beliefs((first, first + len(rows) - 1), plan.now, "import", plan.source)
    else:
        store.append_log(
            (plan.now, "import", b.id, plan.source, _belief_payload(b.content, b.session))
            for b in rows
        )


def _write(plan: _Plan, store: Store, writes: _Writes) -> ImportReport:
    """Check the plan's references, then insert the rest, log, and report. Into a fresh
    store the checks and the log rows are built while the writer inserts (``_Writes``)."""
    new_edges = None if plan.fresh else _check_against_store(plan, store)
    beliefs = list(plan.beliefs.values())
    big = len(beliefs) + len(plan.edges) >= BULK_DDL_ROWS
    writes.load(big=big)
    writes.add_beliefs(beliefs[writes.sent :])
    if new_edges is None:
        new_edges = _check_against_store(plan, None)
    writes.add_edges(new_edges)  # returns once the edge rows are in; the indexes follow
    src, now = plan.source, plan.now
    revived = sorted(set(plan.revive))
    log: list[LogRow] = [(now, "revive", bid, src, None) for bid in revived]
    log += [(now, "corroborate", bid, src, None) for bid, _ in plan.corroborate]
    log += edge_log(new_edges, now, src)
    log += [
        (now, "link", a.belief_id, src, {"doc_uri": a.doc_uri, "anchor_type": a.anchor_type})
        for a in plan.anchors
    ]
    writes.join()
    anchors_added = store.insert_anchors(plan.anchors)
    store.set_deleted_many(revived, None, now)
    for belief_id, session in plan.corroborate:
        store.add_corroboration(belief_id, src, session, now)
    for belief_id, count in plan.corroboration_rows:
        for _ in range(count):
            store.add_corroboration(belief_id, src, None, now)
    store.append_log(log)
    added = (b.id for b in beliefs)
    ingest_rows = plan.ingest.write(store, map(itemgetter(0, 1, 2), new_edges), now, added)
    return ImportReport(
        beliefs_added=len(beliefs),
        beliefs_corroborated=len(plan.corroborate),
        beliefs_unchanged=plan.unchanged,
        edges_added=len(new_edges),
        edges_unchanged=len(plan.edges) - len(new_edges),
        anchors_added=anchors_added,
        source=src,
        ingest_rows_added=ingest_rows,
    )
