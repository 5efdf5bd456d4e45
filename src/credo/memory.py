"""``Memory``: the one composition root. It opens the store and orchestrates; the store runs
the SQL, the engine modules do the maths, the surfaces render."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from credo.agent import global_store
from credo.config import Settings, load_settings, parse_bool, resolve_db_path
from credo.errors import ConflictError, InvalidInputError
from credo.knowledge.documents import Documents
from credo.retrieval import ahead, pipeline
from credo.store import SqliteStore, open_store
from credo.types import (
    BELIEF_KINDS,
    ORIGINS,
    Belief,
    RetrievalResult,
    StoreStats,
)

# Edges and the reports of the write paths are imported where they are used: a process
# that only retrieves never loads them (tests/test_import_cost.py).
if TYPE_CHECKING:
    from credo.edge_types import Edge, EdgeType
    from credo.knowledge.root import RootKeeper
    from credo.retrieval.lineage import Conflict, History

Signal = Literal["used", "harmful"]


class Memory(Documents):
    """A credo store: beliefs, typed edges and document anchors in one SQLite file, or on a
    PostgreSQL server shared by a team.

    Args:
        path: the store file, or a ``postgresql://`` URL; ``None`` resolves it (env
            ``CREDO_DB``, ``[store] location`` in .credo.toml, the git work tree's
            ``.credo/memory.db``, the per-user data folder). ``":memory:"`` works for tests.
        root: the folder document paths are made relative to, for this object only; by
            default the one the store remembers, chosen at its first write of a file path
            (the rules: `credo.knowledge.root`).
        settings: explicit settings; by default ``.credo.toml`` plus env overrides.
        source: the name written to ``ingest_log`` for writes made through this object.
        create: make a missing store file (else ``NotFoundError``: a read creates nothing).
        workdir: the folder the caller works in (default: the current one); a store that
            keeps no root yet takes one from it.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        root: str | os.PathLike[str] | None = None,
        settings: Settings | None = None,
        source: str = "api",
        create: bool = True,
        workdir: str | os.PathLike[str] | None = None,
    ) -> None:
        # (settings first: a bad .credo.toml is told before a missing store)
        cwd = Path(os.path.abspath(workdir)) if workdir is not None else Path.cwd()
        self.settings = settings if settings is not None else load_settings(cwd)
        in_memory = str(path) == ":memory:"  # (a test's store)
        self.path = Path(":memory:") if in_memory else resolve_db_path(path, existing=not create)
        self.workdir = cwd
        self._root = Path(root).resolve() if root is not None else None
        self._keeper: RootKeeper | None = None  # made on first use (`_roots`)
        self.source = source
        # A long-lived server sets a list here: the injection journal's writes wait in it,
        # to run after the reply is sent (agent/journal.py), so no commit's fsync holds up
        # a prompt; None (everyone else) writes at once.
        self.deferred_writes: list[Callable[[Memory], None]] | None = None
        self.store = open_store(self.path)
        if isinstance(self.store, SqliteStore):  # (a warm index read makes it: compress.py)
            self.store.ahead = ahead.known_ahead
        # Every connection watches edge writes (triggers that fire only while the HRR lane
        # is on), so a process opened before `enable_hrr` elsewhere keeps traces true too.
        # The watch starts before the first write: a process that only reads never loads
        # hrr_sync, which loads numpy only when it has traces to update.
        self.store.before_first_write(self._watch_edges)
        self._last_options = pipeline.LastOptions()  # (what retrieve made last)

    def _watch_edges(self) -> None:
        from credo.retrieval import hrr_sync

        self._hrr_sync = hrr_sync.HrrSync(self.store)

    # -- lifecycle -------------------------------------------------------------------------
    def close(self) -> None:
        global_store.release(self)
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reads -----------------------------------------------------------------------------
    def get(self, belief_id: str) -> Belief:
        """The belief with this id or its short form (forgotten ones too: ``deleted_at``)."""
        return self.store.require_belief(self.full_id(belief_id))

    def full_id(self, belief_id: str) -> str:
        """The stored id that ``belief_id`` names: itself, or the one id its short form (the
        block's, credo.store.short_ids) starts; ``AmbiguousIdError`` when it names several."""
        self.store.check_current()  # (a read of a store deleted, replaced or migrated under it)
        return self._id(belief_id)

    def _id(self, belief_id: str) -> str:
        """``full_id`` for a write, unchecked: its transaction checks the store (SQLite), or
        nothing does (PostgreSQL: a round trip each, store/postgres/store.py)."""
        from credo.store.short_ids import full_id

        store = self.store
        return full_id(belief_id, store.holds, store.ids_with_prefix)

    def stats(self) -> StoreStats:
        self.store.check_current()
        keeper = self._roots()
        return self.store.stats()._replace(root=str(keeper.current()), root_source=keeper.source())

    def edges(self, belief_id: str) -> list[Edge]:
        """Edges into and out of a belief, ordered by (src, dst, type)."""
        belief_id = self.get(belief_id).id
        return self.store.edges_touching([belief_id])

    def _live(self, belief_id: str) -> Belief:
        return self.store.require_belief(belief_id, live=True)

    # -- writes ----------------------------------------------------------------------------
    def remember(
        self,
        text: str,
        *,
        doc: str | None = None,
        kind: str = "factual",
        origin: str = "user_stated",
        session: str | None = None,
        lock: bool = False,
        id: str | None = None,
        retention: str | None = None,
        replace: bool = True,
        doc_must_exist: bool = False,
    ) -> str:
        """Store a belief and return its id.

        The same normalised text remembered again (without an explicit id) corroborates the
        existing belief instead of adding a row; a forgotten one is revived. ``doc`` adds a
        ``manual`` document anchor; with ``doc_must_exist`` a local ``doc`` that is not there
        raises InvalidInputError before anything is stored. ``retention``: its class (None:
        told from the text).
        A new (or revived) ``correction`` with ``replace`` SUPERSEDES the one belief it
        clearly replaces, or CONTRADICTS what it disputes, in the same transaction, by
        capture's rule (credo.agent.correction; ``edges`` lists them). Capture passes False:
        it judges a prompt's statements together.
        """
        from credo.knowledge import identity  # write path only (like docuri below)
        from credo.knowledge.retention import resolve
        from credo.store.rows import NewBelief

        content = identity.clean_content(text)
        if kind not in BELIEF_KINDS:
            raise InvalidInputError(f"kind {kind!r} must be one of {', '.join(BELIEF_KINDS)}")
        if origin not in ORIGINS:
            raise InvalidInputError(f"origin {origin!r} must be one of {', '.join(ORIGINS)}")
        if id is not None:
            identity.check_id(id)
        kept_class = resolve(retention, content)  # the class a new belief is stored with
        from credo.knowledge.docuri import normalise_doc_uri  # write path only
        from credo.knowledge.linker import record_link

        root = self._roots().for_doc(doc)
        anchor = (
            normalise_doc_uri(doc, root=root, strict=True, must_exist=doc_must_exist)
            if doc is not None
            else None
        )
        digest = identity.content_hash(content)
        now = time.time()
        with self.store.transaction(), self.store.write_errors():
            existing = (
                self.store.get_belief(id) if id is not None else self.store.find_by_hash(digest)
            )
            if existing is not None and existing.content_hash != digest:
                if id is not None:
                    raise ConflictError(
                        f"id {id!r} already holds other text; forget it first or pick another id"
                    )
                existing = None  # a 60-bit hash-prefix collision: fall through to a new id
            judge = replace and kind == "correction"
            if existing is not None:
                belief_id = existing.id
                judge = judge and existing.deleted_at is not None  # its edges were judged
                if existing.deleted_at is not None:
                    self.store.set_deleted(belief_id, None, now)
                self.store.add_corroboration(belief_id, self.source, session, now)
                if lock and not existing.locked:
                    self.store.set_locked(belief_id, True, now)
                if retention is not None and retention != existing.retention:
                    self.store.set_retention([(belief_id, retention)])
                self.store.append_log([(now, "corroborate", belief_id, self.source, None)])
            else:
                belief_id = id if id is not None else self._free_id(digest)
                self.store.insert_beliefs(
                    [
                        NewBelief(
                            belief_id,
                            content,
                            digest,
                            kind,
                            origin,
                            lock,
                            1.0,
                            1.0,
                            session,
                            now,
                            now,
                            retention=kept_class,
                        )
                    ]
                )
                self.store.append_log(
                    [
                        (
                            now,
                            "remember",
                            belief_id,
                            self.source,
                            {
                                "content": content,
                                "kind": kind,
                                "origin": origin,
                                "session": session,
                                "locked": lock,
                                "retention": kept_class,
                            },
                        )
                    ]
                )
            if anchor is not None:
                record_link(
                    self.store,
                    belief_id,
                    anchor.uri,
                    "manual",
                    anchor.position_hint,
                    now,
                    source=self.source,
                )
            if judge:
                from credo.agent.correction import replace_for  # write path only

                replace_for(self, belief_id, content)
        if anchor is not None and root is not None:
            self._roots().keep(root)
        return belief_id

    def _free_id(self, digest: str) -> str:
        from credo.knowledge import identity

        belief_id = identity.derived_id(digest)
        width = len(belief_id)
        while (
            other := self.store.get_belief(belief_id)
        ) is not None and other.content_hash != digest:
            width += 4  # extend the hash prefix until it is unique
            belief_id = "b" + digest[: width - 1]
        return belief_id

    def lock(self, belief_id: str) -> Belief:
        """Mark a belief as user ground truth: always retrieved first, never trimmed."""
        return self._set_lock(belief_id, True)

    def unlock(self, belief_id: str) -> Belief:
        return self._set_lock(belief_id, False)

    def _set_lock(self, belief_id: str, locked: bool) -> Belief:
        belief_id, now = self._id(belief_id), time.time()
        with self.store.transaction(), self.store.write_errors():
            self._live(belief_id)
            self.store.set_locked(belief_id, locked, now)
            self.store.append_log(
                [(now, "lock" if locked else "unlock", belief_id, self.source, None)]
            )
        return self.store.require_belief(belief_id)

    def relate(
        self,
        src: str,
        dst: str,
        type: str | EdgeType,
        weight: float | None = None,
        anchor_text: str | None = None,
        *,
        force: bool = False,
    ) -> Edge:
        """Add a typed edge src -> dst; the weight defaults to the type's valence.

        A SUPERSEDES edge may not close a cycle (``InvalidInputError``), nor retire a locked
        belief unless src is locked too or ``force`` says the user wants it
        (``LockedError``): credo.knowledge.supersession."""
        from credo.edge_types import EDGE_VALENCE, Edge, EdgeType, parse_edge_type

        src, dst, edge_type = self._id(src), self._id(dst), parse_edge_type(type)
        if weight is None:
            weight = EDGE_VALENCE[edge_type]
        if (
            isinstance(weight, bool)
            or not isinstance(weight, int | float)
            or not math.isfinite(weight)
            or not -1.0 <= weight <= 1.0
        ):
            raise InvalidInputError(f"edge weight {weight!r} must be a number within [-1, 1]")
        if src == dst:
            itself = (
                ": a belief cannot supersede itself" if edge_type is EdgeType.SUPERSEDES else ""
            )
            raise InvalidInputError(f"self-edge {src!r} -> {dst!r} is not allowed{itself}")
        if anchor_text is not None:
            from credo.knowledge import identity

            anchor_text = identity.clean_content(anchor_text)
        now = time.time()
        edge = Edge(src, dst, edge_type, float(weight), anchor_text, now)
        with self.store.transaction(), self.store.write_errors():
            new, old = self._live(src), self._live(dst)
            if self.store.get_edge(src, dst, edge_type) is not None:
                raise ConflictError(f"edge {src} -{edge_type.value}-> {dst} already exists")
            if edge_type is EdgeType.SUPERSEDES:
                from credo.knowledge.supersession import check_supersedes

                verb = f"relate {src} {dst} SUPERSEDES"
                check_supersedes(self.store, new, old, force=force, verb=verb)
            self.store.insert_edges([edge])
            self.store.append_log(
                [
                    (
                        now,
                        "relate",
                        src,
                        self.source,
                        {
                            "dst": dst,
                            "type": edge_type.value,
                            "weight": edge.weight,
                            "anchor_text": anchor_text,
                        },
                    )
                ]
            )
        return edge

    def resolve(self, winner: str, loser: str, *, force: bool = False) -> list[Edge]:
        """Settle a contradiction: ``winner`` SUPERSEDES and RESOLVES ``loser``, in one
        transaction (the edges not yet there; ``ConflictError`` when both are). A locked
        loser takes a locked winner or ``force``, as in ``relate``. Returns the edges
        written."""
        from credo.edge_types import EdgeType

        winner, loser, written = self._id(winner), self._id(loser), []
        if winner == loser:  # else the cycle check words it as a supersession already made
            raise InvalidInputError(
                f"{winner} is both winner and loser: a belief cannot resolve a contradiction "
                "with itself; give the two beliefs that disagree"
            )
        with self.store.transaction(), self.store.write_errors():
            for kind in (EdgeType.SUPERSEDES, EdgeType.RESOLVES):
                if self.store.get_edge(winner, loser, kind) is None:
                    if kind is EdgeType.SUPERSEDES:
                        from credo.knowledge.supersession import check_supersedes

                        new, old = self._live(winner), self._live(loser)
                        verb = f"resolve {winner} {loser}"
                        check_supersedes(self.store, new, old, force=force, verb=verb)
                    written.append(self.relate(winner, loser, kind, force=True))
            if not written:
                raise ConflictError(f"{winner} already supersedes and resolves {loser}")
        return written

    def conflicts(self) -> list[Conflict]:
        """The open contradictions: live beliefs joined by CONTRADICTS, neither superseded,
        the pair not resolved (a locked belief first: it outranks the other)."""
        from credo.retrieval.lineage import open_conflicts

        self.store.check_current()
        return open_conflicts(self.store)

    def history(self, belief_id: str) -> History:
        """A belief's lineage: every belief joined to it by SUPERSEDES, either way, with
        dates, origins and which of them are current (forgotten ones too: an audit view)."""
        from credo.retrieval.lineage import lineage

        return lineage(self.store, self.get(belief_id).id)

    def forget(self, belief_id: str, *, hard: bool = False) -> None:
        """Soft-delete a belief (kept for audit, out of retrieval), or with ``hard`` remove it
        with its edges, anchors and the text of its log entries."""
        now = time.time()
        with self.store.transaction(), self.store.write_errors():
            belief = self.store.require_belief(self._id(belief_id))
            belief_id = belief.id
            if hard:
                # Its line statistics first: the rows go with the belief, the counts would not.
                self.store.drop_passage_lines([belief_id])
                self.store.drop_passage_definitions([belief_id])  # (and its definitions')
                self.store.hold_cites_to(belief_id)  # (the links to it wait: ingest rule)
                self.store.delete_belief(belief_id)
                self.store.redact_log(belief_id)
                self.store.append_log([(now, "forget_hard", belief_id, self.source, None)])
                self.store.purge_deleted()
            elif belief.deleted_at is None:
                self.store.set_deleted(belief_id, now, now)
                self.store.append_log([(now, "forget", belief_id, self.source, None)])

    def feedback(self, belief_id: str, signal: Signal) -> Belief:
        """Record that a retrieved belief was used (alpha + 1) or harmful (beta + 1)."""
        if signal not in ("used", "harmful"):
            raise InvalidInputError(f"feedback {signal!r} must be 'used' or 'harmful'")
        belief_id, now = self._id(belief_id), time.time()
        with self.store.transaction(), self.store.write_errors():
            belief = self._live(belief_id)
            alpha = belief.alpha + (signal == "used")
            beta = belief.beta + (signal == "harmful")
            self.store.set_evidence(belief_id, alpha, beta, now)
            self.store.append_log([(now, "feedback", belief_id, self.source, {"signal": signal})])
        return self.store.require_belief(belief_id)

    # -- retrieval -------------------------------------------------------------------------
    def retrieve(
        self,
        query: str,
        *,
        token_budget: int | None = None,
        lanes: Mapping[str, bool] | None = None,
        use_intentional_clustering: bool | None = None,
        cluster_edge_weight_floor: float | None = None,
        cluster_diversity_target: int | None = None,
        with_doc_anchors: bool = False,
        include_superseded: bool = False,
        compress: str = "auto",
    ) -> RetrievalResult:
        """The beliefs that matter for ``query``, packed into ``token_budget`` tokens.

        Locked beliefs come first (the project's, then the user-global store's, marked
        ``scope="global"``: credo.agent.global_store); the rest are ranked by the lanes
        (docs/RETRIEVAL.md) and packed by score, or by intentional clustering when it is on.
        Clustering resolves as env ``CREDO_INTENTIONAL_CLUSTERING`` > the argument >
        ``[retrieval]`` in .credo.toml > the default. A belief that a live belief supersedes
        is left out (its successor stands in its place) unless ``include_superseded``;
        beliefs that contradict each other are packed together (docs/RETRIEVAL.md § Beliefs
        change). Long candidates are rendered cut to what the query matches (``compress``:
        "auto", the default, when they do not all fit whole; "always"; "off": never;
        docs/RETRIEVAL.md § Compress), and charged as rendered. Same store and query give a
        byte-identical result.
        """
        settings = self.settings.retrieval
        env = os.environ.get("CREDO_INTENTIONAL_CLUSTERING", "").strip()
        if env:
            clustering_on = parse_bool(env, name="CREDO_INTENTIONAL_CLUSTERING")
        elif use_intentional_clustering is not None:
            clustering_on = use_intentional_clustering
        else:
            clustering_on = settings.use_intentional_clustering
        with self.store.one_version():  # one version read a retrieve, the HRR switch's too
            hrr = self.store.meta_get("hrr_dim") is not None
            found = global_store.global_locks(self)  # the user's own rules, marked
            options, checked = self._last_options.made(
                (settings, hrr, found, token_budget, lanes, clustering_on),
                (cluster_edge_weight_floor, cluster_diversity_target),
                (with_doc_anchors, include_superseded, compress),
            )
            return pipeline.retrieve(self.store, query, options, checked=checked)

    def enable_hrr(self, dim: int | None = None) -> int:
        """Turn on the HRR structural lane's persisted traces: build them once from the
        stored edges; from then on every write updates them incrementally. Returns the
        number of edges encoded."""
        from credo.retrieval import hrr, hrr_sync

        size = hrr.DEFAULT_DIM if dim is None else dim
        if isinstance(size, bool) or not isinstance(size, int) or not 16 <= size <= 8192:
            raise InvalidInputError(f"HRR dimension {dim!r} must be an integer in [16, 8192]")
        with self.store.transaction(), self.store.write_errors():
            count = hrr_sync.build(self.store, size, self.store.iter_edges())
        return count

    def disable_hrr(self) -> None:
        from credo.retrieval import hrr_sync

        with self.store.transaction(), self.store.write_errors():
            hrr_sync.disable(self.store)
