"""The records of ingest's own state, which export and import carry beside beliefs, edges
and anchors (issue #14): parsing them, and what an import does with them.

``{"kind":"ingested_file","path":..,"first_belief":..,"size":..,"mtime":..,
"ingested_at":..,"beliefs":..}`` is a row of the ledger of files ingest read;
``{"kind":"edge_source","file":..,"src":..,"dst":..,"type":..,"cited_file":..}`` says that
an ingested file states an edge ingest wrote (store/edge_files.py; ``cited_file`` is the
file a CITES links to, else ``""``); ``{"kind":"pending_cite","file":..,"src":..,
"cited_file":..}`` is a link that waits for its file to have a cite target. Without them
an imported edge has no file that states it, so ingest takes it for another writer's and
never removes it: a link deleted after the import left its CITES for good.

Why the ledger travels too: a file of the ledger that vanishes from a walked folder is
retired by the next ingest (its beliefs stale, its edges gone), and a CITES to a file the
ledger does not hold is taken for a link to a file that left (it waits again). Without
the ledger, the copy would keep a deleted file's beliefs and edges for good, and an ingest
of any other path would turn the imported CITES into waiting links. Its ``content_hash``
does not travel: what ingest derives per file (passage lines, definitions) is no record, so an
imported row holds ``""`` (unread, as migrations leave it) and the next ingest reads each
file again, keeping every belief whose text it finds.

An import only adds: a ledger row for a path the store holds already is left as it is,
rows already held add nothing, and a row whose edge the store held before the import
without any file stating it (``relate``, a capture) is skipped, so ingest never takes
another writer's edge. A row naming a file the ledger still does not hold (the source's
m012 backfill of a file that had vanished) is settled by the next ingest run, as it would
have been in the source.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from credo.edge_types import EdgeType
from credo.errors import CredoError, RecordsError
from credo.knowledge.derived_records import (
    AcronymsRecord,
    ContextRecord,
    DefinitionsRecord,
    DerivedRecord,
    DerivedState,
    LinesRecord,
)

if TYPE_CHECKING:
    from credo.knowledge.records import Fields
    from credo.store import Store

KINDS = ("ingested_file", "edge_source", "pending_cite")
# bigint columns on PostgreSQL; a count or a size past this is no real file's.
MAX_COUNT = 2**63 - 1
CITES = EdgeType.CITES.value


class IngestedFileRecord(NamedTuple):
    line: int
    path: str
    first_belief: str | None = None
    size: int = 0
    mtime: float = 0.0
    ingested_at: float | None = None
    beliefs: int = 0


class EdgeSourceRecord(NamedTuple):
    line: int
    file: str
    src: str
    dst: str
    type: str  # an ``EdgeType`` value, as stored
    cited_file: str = ""


class PendingCiteRecord(NamedTuple):
    line: int
    file: str
    src: str
    cited_file: str


IngestRecord = IngestedFileRecord | EdgeSourceRecord | PendingCiteRecord

_KEYS = {
    "ingested_file": frozenset("kind path first_belief size mtime ingested_at beliefs".split()),
    "edge_source": frozenset("kind file src dst type cited_file".split()),
    "pending_cite": frozenset("kind file src cited_file".split()),
}


def parse(kind: str, f: Fields) -> IngestRecord:
    """One record of ``kind`` (one of ``KINDS``), every field checked; errors name the line."""
    f.check_keys(_KEYS[kind])
    if kind == "ingested_file":
        return IngestedFileRecord(
            f.line,
            f.text("path", required=True) or "",
            f.text("first_belief"),
            _count(f, "size"),
            f.number("mtime") or 0.0,
            f.time("ingested_at"),
            _count(f, "beliefs"),
        )
    if kind == "edge_source":
        type_name = (f.text("type", required=True) or "").upper()  # as an edge record's
        if type_name not in _TYPES:
            raise f.error(f"unknown edge type {type_name!r}; known: {', '.join(_TYPES)}")
        cited = f.text("cited_file") or ""
        if cited and type_name != CITES:
            raise f.error(f"field 'cited_file' is for a CITES edge only, not {type_name}")
        return EdgeSourceRecord(
            f.line,
            f.text("file", required=True) or "",
            f.text("src", required=True) or "",
            f.text("dst", required=True) or "",
            type_name,
            cited,
        )
    return PendingCiteRecord(
        f.line,
        f.text("file", required=True) or "",
        f.text("src", required=True) or "",
        f.text("cited_file", required=True) or "",
    )


_TYPES = tuple(t.value for t in EdgeType)


def _count(f: Fields, key: str) -> int:
    value = f.obj.get(key, 0)
    if value is None:
        return 0
    if type(value) is not int or not 0 <= value <= MAX_COUNT:
        raise f.error(f"field {key!r} must be an integer from 0 to {MAX_COUNT}, got {value!r}")
    return value


class IngestState:
    """The ingest state records of one import: kept as the file is read, checked and
    written once the import's beliefs and edges are in the store (``write``)."""

    def __init__(self, source: str, root: Path) -> None:
        # (no reference to the import's plan: nothing an import builds may be cyclic, the
        # collector is off while it runs: knowledge/importer.py)
        self.source, self.root = source, root
        self.files: list[IngestedFileRecord] = []
        self.file_lines: dict[str, int] = {}
        self.sources: list[EdgeSourceRecord] = []
        self.pending: list[PendingCiteRecord] = []
        self.derived = DerivedState()  # ranking's rows (knowledge/derived_records.py)
        self._uris: dict[str, str] = {}

    def add(self, rec: IngestRecord | DerivedRecord) -> None:
        """Keep one record, its file names normalised as the store holds them."""
        if type(rec) is LinesRecord:
            self.derived.add(rec, "")
        elif type(rec) in (DefinitionsRecord, AcronymsRecord, ContextRecord):
            self.derived.add(rec, self._uri(rec.file, rec.line))
        elif type(rec) is IngestedFileRecord:
            path = self._uri(rec.path, rec.line)
            first = self.file_lines.setdefault(path, rec.line)
            if first != rec.line:
                raise self.error(
                    rec.line, f"duplicate ingested_file {path!r} (first on line {first})"
                )
            self.files.append(rec._replace(path=path))
        elif type(rec) is EdgeSourceRecord:
            cited = rec.cited_file and self._uri(rec.cited_file, rec.line)
            self.sources.append(rec._replace(file=self._uri(rec.file, rec.line), cited_file=cited))
        elif type(rec) is PendingCiteRecord:
            self.pending.append(
                rec._replace(
                    file=self._uri(rec.file, rec.line),
                    cited_file=self._uri(rec.cited_file, rec.line),
                )
            )

    def error(self, line: int, message: str) -> RecordsError:
        return RecordsError(f"{self.source}:{line}: {message}; nothing was imported")

    def _uri(self, name: str, line: int) -> str:
        """``name`` as ingest names a file under this store's root (as anchors are
        normalised: a ``file:///`` URI under the root becomes a relative path)."""
        found = self._uris.get(name)
        if found is None:
            from credo.knowledge.docuri import normalise_doc_uri

            try:
                found = normalise_doc_uri(name, root=self.root).uri
            except CredoError as exc:
                raise self.error(line, str(exc)) from None
            self._uris[name] = found
        return found

    def write(
        self,
        store: Store,
        new_edges: Iterable[tuple[str, str, str]],
        now: float,
        added: Iterable[str] = (),
    ) -> int:
        """Check the records against the store, which holds the import's beliefs and edges
        by now (``new_edges``: those this import inserted; ``added``: its new beliefs), then
        add their rows. Returns the rows added; raises ``RecordsError`` (the caller rolls
        back) on a bad one."""
        derived = self.derived
        if not (self.files or self.sources or self.pending or derived.any()):
            return 0
        from credo.store.rows import IngestedFile

        keys = {r[2:5] for r in self.sources}
        stored = store.existing_edge_keys(keys)
        problems = self._unknown_beliefs(store) + derived.problems(store)
        problems += [
            (r.line, f"edge {r.src} -{r.type}-> {r.dst} is not an edge in the file or the store")
            for r in self.sources
            if r[2:5] not in stored
        ]
        if problems:
            raise self.error(*min(problems))  # the first line's
        # Ingest's: inserted by this import, or stated by some file of the store already.
        theirs = keys.intersection(new_edges)
        theirs |= store.owned_edge_keys(keys - theirs)
        rows = sorted({r[1:] for r in self.sources if r[2:5] in theirs})
        ledger = sorted(
            IngestedFile(
                f.path,
                "",  # unread: the next ingest reads the file (the module docstring)
                f.size,
                f.mtime,
                now if f.ingested_at is None else f.ingested_at,
                f.beliefs,
                f.first_belief,
            )
            for f in self.files
        )
        files = store.add_ingested_files(ledger)
        sources = store.insert_edge_sources(rows)
        pending = store.insert_pending_cites(sorted({r[1:] for r in self.pending}))
        ranking = derived.write(store, added)
        named = {r[0] for r in rows} - self.file_lines.keys()
        if any(store.get_ingested_file(file) is None for file in sorted(named)):
            from credo.store.edge_files import UNSETTLED

            store.meta_set(UNSETTLED, "1")
        if files or sources or pending or ranking:
            counts = {"ingested_files": files, "edge_sources": sources, "pending_cites": pending}
            if ranking:  # (an export from before these records logs as it did)
                counts["ranking_rows"] = ranking
            store.append_log([(now, "ingest_state", None, self.source, counts)])
        return files + sources + pending  # (the ranking rows are ingest's, not its state)

    def _unknown_beliefs(self, store: Store) -> list[tuple[int, str]]:
        """(line, message) of each first belief or waiting link's src that is no belief."""
        named = [(f.line, f.first_belief) for f in self.files if f.first_belief is not None]
        named += [(p.line, p.src) for p in self.pending]
        known = store.existing_ids({belief for _, belief in named})
        return [
            (line, f"belief {belief!r} is not a known belief id")
            for line, belief in named
            if belief not in known
        ]
