"""Writing one changed file of an ingest run: its beliefs and their ``ingest`` anchors, the
beliefs whose text left it, its DERIVED_FROM and CITES edges, its ``derived`` anchors, its
ledger row and its log (the rules of `credo.knowledge.ingest`)."""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from credo.edge_types import Edge
from credo.errors import InvalidInputError
from credo.knowledge import identity
from credo.knowledge.chunk import Chunk, language_for, source_lines
from credo.knowledge.chunk.acronym import definitions as acronyms_of
from credo.knowledge.chunk.language import PROSE_LANGUAGES
from credo.knowledge.docuri import line_hint, normalise_doc_uri
from credo.knowledge.ingest.context import context_field
from credo.knowledge.ingest.copies import union
from credo.knowledge.ingest.edges import ingest_edge, settle
from credo.knowledge.ingest.state import Deferred, LogRow, Run, file_exists
from credo.knowledge.ingest.walk import Read
from credo.knowledge.redact import redact
from credo.knowledge.retention import of_passage
from credo.store.defn_stats import file_rows
from credo.store.edge_files import EdgeSource
from credo.store.line_stats import LinesRow, encode
from credo.store.rows import FileAnchor, IngestedFile, NewBelief
from credo.store.value_migration import VALUE_KIND
from credo.types import DocAnchor

if TYPE_CHECKING:  # (annotations only: the protocol's class costs ~1 ms to build)
    from credo.store import Store

# Schemes whose links are web documents; other "x:" links (mailto:, tel:) are not anchors.
_URL = re.compile(r"^(?:https?|ftp)://", re.I)
# A bare word that may name a file: it holds a "/" or ends in a short extension.
_PATHLIKE = re.compile(r"^(?:[\w.~-]+/)*[\w.-]+(?:/|\.[A-Za-z0-9]{1,10})$")
_WORD_EDGE = "`'\"()[]{}<>,;:!?*"


class Piece(NamedTuple):
    index: int  # position in the chunk list
    chunk: Chunk
    content: str
    digest: str


class FileWriter:
    """Writes one changed file inside the caller's transaction."""

    def __init__(
        self,
        run: Run,
        path: Path,
        uri: str,
        read: Read | None,
        chunks: list[Chunk],
        definitions: list[tuple[int, int]] | None = None,
        scopes: list[tuple[int, int]] | None = None,
    ) -> None:
        self.run = run
        self.store = run.store
        self.report = run.report
        self.path = path
        # The file's folder, as a path and as text (each built once: a link or a bare word
        # of every passage is looked up from it).
        self.folder = path.parent
        self.folder_name = os.fspath(self.folder)
        self.uri = uri
        self.read = read
        self.chunks = chunks
        self.now = time.time()
        self.log: list[LogRow] = []
        self.ids: dict[int, str] = {}  # chunk index -> belief id
        # (belief id, context) of every belief the file holds: its context in this file
        self.contexts: dict[str, str] = {}
        self.classes: list[tuple[str, str]] = []  # (belief id, retention) of kept beliefs
        self.rehomed: set[str] = set()  # beliefs whose other files are gone (`_rehome`)
        # Prose files' passages get line statistics for the line lane (store/line_stats.py).
        # Code is left out: a line of a definition's passage is its signature or a docstring
        # line, and scoring those as units lowered both code corpora (BENCHMARKS, eighth pass).
        self.prose = language_for(uri) in PROSE_LANGUAGES
        self.lines: list[tuple[str, LinesRow]] = []  # (belief id, line statistics): prose
        # Beliefs this writer created, and the anchors it gave them: no other anchor of
        # theirs can be stored (a new id was unused; anchors go with their belief).
        self.created: set[str] = set()
        self.anchored: set[tuple[str, str]] = set()
        # The code chunker's definitions (first and last line), for the definition lane,
        # and those of them that declare members (a class: its methods are not its lines).
        self.definitions = definitions or []
        self.scopes = scopes or []
        # The edges the file states (its DERIVED_FROM and the CITES whose target is known).
        self.stated: dict[EdgeSource, Edge] = {}
        self.pending: set[tuple[str, str]] = set()  # (src, cited file): links with no target

    def note(self, belief_id: str | None, payload: dict[str, Any]) -> None:
        self.log.append((self.now, "ingest", belief_id, self.uri, payload))

    def write(self) -> None:
        """Beliefs, anchors, edges, the ledger row and the log of one changed file."""
        pieces = self._pieces()
        old = {a.belief.id: a for a in self.store.ingest_anchors_of_file(self.uri)}
        self._write_beliefs(pieces, old)
        self._retire(old, keep=set(self.ids.values()))
        self._write_definitions(pieces)
        # the acronyms the file spells out (chunk/acronym.py), for the query side
        self.store.set_file_acronyms(
            self.uri, (d for p in pieces for d in acronyms_of(p.chunk.text))
        )
        cites = self._write_structure_and_cites()
        self._write_derived_anchors(pieces, old)
        assert self.read is not None
        ledger = IngestedFile(
            self.uri,
            self.read.digest,
            self.read.size,
            self.read.mtime,
            self.now,
            len(set(self.ids.values())),
            self._cite_target_id(),
        )
        self.run.first_belief[self.uri] = ledger.first_belief
        if cites:
            self.run.deferred.append(Deferred(ledger, cites, self.stated, self.pending))
            # Held in the ledger, unread ('' hash), until the run's end records it: a run
            # stopped before then leaves a file the next one reads again or, gone, retires
            # with the edges written here (a new file had no row to be retired by).
            self.store.record_ingested_files([ledger._replace(content_hash="")])
        else:
            self.store.record_ingested_files([ledger])
        self.store.append_log(self.log)

    def write_vanished(self) -> None:
        """The file is gone from its folder: retire its beliefs as if it were emptied."""
        old = {a.belief.id: a for a in self.store.ingest_anchors_of_file(self.uri)}
        self._retire(old, keep=set())
        self.report.edges_removed += settle(self.store, self.uri, {}, self.note)[1]
        self.store.set_pending_cites(self.uri, [])
        self.store.drop_file_definitions(self.uri)
        self.store.set_file_acronyms(self.uri, [])
        self.store.drop_ingested_file(self.uri)
        self.note(None, {"action": "vanished"})
        self.store.append_log(self.log)

    # -- beliefs and their ingest anchors --------------------------------------------------
    def _pieces(self) -> list[Piece]:
        pieces: list[Piece] = []
        for index, chunk in enumerate(self.chunks):
            try:
                content = identity.clean_content(chunk.text)
            except InvalidInputError:
                self.report.chunks_rejected += 1  # (and where: the summary names it)
                where = f"{self.uri}#L{chunk.start_line}-L{chunk.end_line}"
                self.report.chunks_rejected_at.append(where)
                continue
            pieces.append(Piece(index, chunk, content, identity.content_hash(content)))
        return pieces

    def _write_beliefs(self, pieces: list[Piece], old: dict[str, FileAnchor]) -> None:
        firsts: dict[str, Piece] = {}
        for piece in pieces:
            firsts.setdefault(piece.digest, piece)  # the first occurrence anchors the belief
        found = self.store.beliefs_by_hash(firsts)
        fresh = _free_ids(self.store, [d for d in firsts if d not in found])
        ids = {d: (found[d].id if d in found else fresh[d]) for d in firsts}
        self.ids = {piece.index: ids[piece.digest] for piece in pieces}
        new_beliefs = [self._new_belief(ids[d], firsts[d]) for d in fresh]
        self.created.update(fresh.values())
        self.store.insert_beliefs(new_beliefs)
        self._revive([key.id for key in found.values() if key.deleted_at is not None])
        unanchored: list[tuple[str, Piece]] = []
        corroborated: list[tuple[str, Piece]] = []
        for digest, piece in firsts.items():
            anchor = old.get(ids[digest])
            if anchor is not None:
                self._keep_or_move(anchor, piece)
                continue
            unanchored.append((ids[digest], piece))
            if digest in found:
                self._corroborate(ids[digest])
                if found[digest].origin == "document":
                    corroborated.append((ids[digest], piece))
        self._rehome(corroborated)
        self._add_ingest_anchors(unanchored)
        self._write_contexts(corroborated)
        self.store.set_retention(self.classes)
        self.store.set_passage_lines(self.lines)

    def _write_contexts(self, corroborated: list[tuple[str, Piece]]) -> None:
        """The context of the file's beliefs that this file places (new, kept, moved here:
        `_context`) and of those other files hold too: the union of their files' contexts
        (knowledge/ingest/copies.py). Only a belief held by several files keeps a row per
        file (``anchor_contexts``); one held by this file alone has this file's context."""
        contexts, created = self.contexts, self.created
        pieces = dict(corroborated)
        ids = [i for i in contexts if i not in created and i not in self.rehomed]
        ids += [i for i in pieces if i not in contexts]
        # the files other than this one holding each of them (read once: `_first_rows` too)
        files: dict[str, list[str]] = {}
        for belief_id, doc_uri in self.store.ingest_anchors_elsewhere(ids, self.uri) if ids else ():
            files.setdefault(belief_id, []).append(doc_uri.partition("#")[0])
        shared = set(files)
        alone = [i for i in contexts if i not in shared]
        self.store.set_contexts((i, contexts[i]) for i in alone if i not in created)
        self.store.drop_file_contexts((i, self.uri) for i in alone if i not in created)
        if not shared:
            return
        for belief_id in shared:
            if belief_id not in contexts:
                contexts[belief_id] = context_field(self.uri, pieces[belief_id].chunk)
        ordered = sorted(shared)
        self._first_rows(ordered, files)
        self.store.put_file_contexts(self.uri, ((i, contexts[i]) for i in ordered))
        self._recompose(ordered)

    def _first_rows(self, ids: list[str], files: Mapping[str, list[str]]) -> None:
        """A belief met in a second file had its first file's context alone, and no row:
        that context becomes the row of the file its trail names (of the first other file
        when it names none: a context imported from records). ``files``: each belief's
        other files, in path order."""
        rows = self.store.file_contexts(ids)
        lone = [i for i in ids if i not in rows]
        if not lone:
            return
        for belief_id, belief in self.store.get_beliefs(lone).items():
            if not belief.context or belief_id not in files:
                continue
            named = [f for f in files[belief_id] if belief.context.startswith(f + " ")]
            file = (named or files[belief_id])[0]
            self.store.put_file_contexts(file, [(belief_id, belief.context)])

    def _recompose(self, ids: list[str]) -> None:
        """Set the context of ``ids`` to the union of their files' (the files that hold an
        ``ingest`` anchor of theirs); a belief none of whose files has one keeps its own."""
        if ids:
            found = self.store.file_contexts(ids)
            self.store.set_contexts((i, union(found[i])) for i in ids if i in found)

    def _write_definitions(self, pieces: list[Piece]) -> None:
        """The file's definitions and each passage's innermost one (store/defn_stats.py),
        by difference with what is stored: a file without definitions keeps none."""
        if not self.definitions and not self.prose:  # (prose: never any; no read needed)
            self.store.drop_file_definitions(self.uri)
            return
        if not self.definitions:
            return
        assert self.read is not None
        placed: dict[str, tuple[int, int]] = {}
        for piece in pieces:  # the first occurrence of a text anchors its belief
            belief_id = self.ids[piece.index]
            placed.setdefault(belief_id, (piece.chunk.start_line, piece.chunk.end_line))
        lines = source_lines(self.read.text)
        # A definition's terms never hold what its passage redacted. (Only a file with
        # definitions has terms: a configuration file's lines were redacted when split.)
        for piece in pieces if self.definitions else ():
            if piece.chunk.role == "config":
                for row in range(piece.chunk.start_line - 1, min(piece.chunk.end_line, len(lines))):
                    lines[row] = redact(lines[row])
        values = {(p.chunk.start_line, p.chunk.end_line) for p in pieces if p.chunk.value}
        rows = file_rows(lines, self.definitions, placed.items(), self.scopes, values)
        self.store.set_file_definitions(self.uri, *rows)

    def _revive(self, ids: list[str]) -> None:
        """Stale beliefs whose text is back. Their ingest anchors into other files were
        kept for audit of files the text had left (a stale belief stands on no file), so
        they go now: a live belief's anchors must be true."""
        if not ids:
            return
        self.store.set_deleted_many(ids, None, self.now)
        self.report.beliefs_revived += len(ids)
        for belief_id in ids:
            self.note(belief_id, {"action": "revive"})
        leftovers = self.store.ingest_anchors_elsewhere(ids, self.uri)
        self.store.delete_anchors(leftovers)
        self.store.drop_file_contexts((b, uri.partition("#")[0]) for b, uri in leftovers)
        for belief_id, doc_uri in leftovers:
            self.note(belief_id, {"action": "unanchor", "doc_uri": doc_uri})

    def _new_belief(self, belief_id: str, piece: Piece) -> NewBelief:
        self.report.beliefs_added += 1
        context = self._context(belief_id, piece)
        retention = self._retention(piece)
        kind = VALUE_KIND if piece.chunk.value else "factual"
        self.note(
            belief_id,
            {
                "action": "add",
                "content": piece.content,
                "kind": kind,
                "origin": "document",
                "retention": retention,
                "lines": _hint(piece.chunk),
            },
        )
        return NewBelief(
            belief_id,
            piece.content,
            piece.digest,
            kind,
            "document",
            False,
            1.0,
            1.0,
            None,
            self.now,
            self.now,
            None,
            context,
            retention,
        )

    def _context(self, belief_id: str, piece: Piece) -> str:
        """The context field of ``piece``, with its line statistics noted for prose."""
        context = self.contexts.get(belief_id)
        if context is None:
            context = self.contexts[belief_id] = context_field(self.uri, piece.chunk)
        if self.prose:
            self.lines.append((belief_id, encode(piece.content, context)))
        return context

    def _retention(self, piece: Piece) -> str:
        return of_passage(self.uri, piece.chunk.section, piece.content)

    def _corroborate(self, belief_id: str) -> None:
        # Text already known from elsewhere: this file is one more witness for it.
        self.store.add_corroboration(belief_id, self.uri, None, self.now)
        self.report.beliefs_corroborated += 1
        self.note(belief_id, {"action": "corroborate"})

    def _rehome(self, corroborated: list[tuple[str, Piece]]) -> None:
        """A document passage met here whose other files are gone (the file moved, or its
        text left one file and came back in this one) is placed here: its context, which
        the trail of every hit prints and BM25F reads, named a file that no longer exists.
        While another of its files stands, the first one read keeps it (a copy changes
        nothing); one this run's walk left out (`Run.leaving`) no longer stands."""
        if not corroborated:
            return
        housed = {
            belief_id
            for belief_id, doc_uri in self.store.ingest_anchors_elsewhere(
                [belief_id for belief_id, _ in corroborated], self.uri
            )
            if file_exists(doc_uri.partition("#")[0], self.run.root)
            and not self.run.leaving(doc_uri.partition("#")[0])
        }
        for belief_id, piece in corroborated:
            if belief_id not in housed:  # (its other files' contexts are not its)
                self.rehomed.add(belief_id)
                self._context(belief_id, piece)
                self.classes.append((belief_id, self._retention(piece)))

    def _keep_or_move(self, anchor: FileAnchor, piece: Piece) -> None:
        # The text stayed; its place may not have (a heading renamed, the file moved).
        self._context(anchor.belief.id, piece)
        self.classes.append((anchor.belief.id, self._retention(piece)))
        new_uri = self._anchor_uri(piece.chunk)
        if anchor.doc_uri == new_uri:
            self.report.beliefs_kept += 1
            return
        self.store.move_anchor(anchor.belief.id, anchor.doc_uri, new_uri, _hint(piece.chunk))
        self.report.beliefs_moved += 1
        self.note(anchor.belief.id, {"action": "move", "from": anchor.doc_uri, "to": new_uri})

    def _add_ingest_anchors(self, anchors: list[tuple[str, Piece]]) -> None:
        rows = [
            DocAnchor(belief_id, self._anchor_uri(p.chunk), "ingest", _hint(p.chunk), self.now)
            for belief_id, p in anchors
        ]
        self._insert_anchors(rows)

    def _insert_anchors(self, rows: list[DocAnchor]) -> None:
        # A manual anchor may already hold the same URI; it stays, and nothing is logged.
        # Only the store can say so for a belief that existed before this file's write.
        created, anchored = self.created, self.anchored
        older = [(a.belief_id, a.doc_uri) for a in rows if a.belief_id not in created]
        present = self.store.existing_anchor_keys(older) if older else set[tuple[str, str]]()
        present |= anchored
        rows = [a for a in rows if (a.belief_id, a.doc_uri) not in present]
        anchored.update((a.belief_id, a.doc_uri) for a in rows if a.belief_id in created)
        self.store.insert_anchors(rows)
        self.report.anchors_added += len(rows)
        for a in rows:
            self.note(
                a.belief_id,
                {
                    "action": "anchor",
                    "doc_uri": a.doc_uri,
                    "anchor_type": a.anchor_type,
                    "position_hint": a.position_hint,
                },
            )

    def _anchor_uri(self, chunk: Chunk) -> str:
        return f"{self.uri}#{_hint(chunk)}"

    def _retire(self, old: dict[str, FileAnchor], keep: set[str]) -> None:
        """Beliefs whose text left the file: stale, or only unanchored (the rules of
        `credo.knowledge.ingest`)."""
        gone = [a for a in old.values() if a.belief.id not in keep and a.belief.deleted_at is None]
        if not gone:
            return
        elsewhere = {
            belief_id
            for belief_id, _ in self.store.ingest_anchors_elsewhere(
                [a.belief.id for a in gone], self.uri
            )
        }
        stale: list[str] = []
        unanchor: list[tuple[str, str]] = []
        for anchor in gone:
            belief = anchor.belief
            if belief.origin == "document" and not belief.locked and belief.id not in elsewhere:
                stale.append(belief.id)
                self.note(belief.id, {"action": "stale", "doc_uri": anchor.doc_uri})
            else:
                unanchor.append((belief.id, anchor.doc_uri))
                self.note(belief.id, {"action": "unanchor", "doc_uri": anchor.doc_uri})
                if belief.id in elsewhere:  # (its context may name this file: `run.py`)
                    self.run.unhoused.append((belief.id, self.uri))
        self.store.set_deleted_many(stale, self.now, self.now)
        self.store.drop_passage_lines(stale)
        self.store.delete_anchors(unanchor)
        self.store.drop_file_contexts((belief_id, self.uri) for belief_id, _ in unanchor)
        self._recompose(sorted({belief_id for belief_id, _ in unanchor} & elsewhere))
        self.report.beliefs_stale += len(stale)

    # -- edges ------------------------------------------------------------------------------
    def _write_structure_and_cites(self) -> list[tuple[str, str]]:
        """Settle the file's DERIVED_FROM and the CITES whose target is known (`edges`);
        return the CITES that wait for files read later in the run. The file's edges it no
        longer states go now, unless some wait: then with those, at the run's end."""
        deferred: list[tuple[str, str]] = []
        stated = self.stated
        for index, belief_id in self.ids.items():
            chunk = self.chunks[index]
            if chunk.heading_index is not None and chunk.heading_index in self.ids:
                edge = self._edge(belief_id, self.ids[chunk.heading_index], "DERIVED_FROM")
                stated.setdefault((edge.src, edge.dst, "DERIVED_FROM", ""), edge)
            for target_uri in self._cited_files(chunk):
                if target_uri in self.run.first_belief or target_uri not in self.run.tree:
                    target = self.run.cite_target(target_uri)
                    if target is not None and target != belief_id:
                        edge = self._edge(belief_id, target, "CITES")
                        stated.setdefault((belief_id, target, "CITES", target_uri), edge)
                    else:  # no target yet: the link waits for one (store/edge_files.py)
                        self.pending.add((belief_id, target_uri))
                else:
                    deferred.append((belief_id, target_uri))  # ingested later in this run
        added, removed = settle(self.store, self.uri, stated, self.note, drop=not deferred)
        self.report.edges_added += added
        self.report.edges_removed += removed
        if not deferred:
            self.store.set_pending_cites(self.uri, sorted(self.pending))
        return deferred

    def _edge(self, src: str, dst: str, type_name: str) -> Edge:
        return ingest_edge(src, dst, type_name, self.now)

    def _cited_files(self, chunk: Chunk) -> list[str]:
        """URIs of the other files of the ingested tree this chunk links to."""
        cited: list[str] = []
        for link in chunk.links:
            path = self.run.link_path(link, self.folder)
            if path is None:
                continue
            uri = self.run.uri(path)
            if uri != self.uri and uri not in cited:
                cited.append(uri)
        return cited

    def _cite_target_id(self) -> str | None:
        """What links to this file cite: the first top-level heading, else the first chunk."""
        for index, belief_id in self.ids.items():
            chunk = self.chunks[index]
            if chunk.role == "heading" and chunk.heading_index is None:
                return belief_id
        return next(iter(self.ids.values()), None)

    # -- derived anchors --------------------------------------------------------------------
    def _write_derived_anchors(self, pieces: list[Piece], old: dict[str, FileAnchor]) -> None:
        rows: dict[tuple[str, str], DocAnchor] = {}
        for piece in pieces:
            belief_id = self.ids[piece.index]
            for uri in self._mentions(piece.chunk):
                rows.setdefault(
                    (belief_id, uri), DocAnchor(belief_id, uri, "derived", None, self.now)
                )
        self._drop_underived(rows.keys(), old)
        self._insert_anchors(list(rows.values()))

    def _drop_underived(
        self, derived: Iterable[tuple[str, str]], old: dict[str, FileAnchor]
    ) -> None:
        """A kept belief read from this file alone has the derived anchors this reading
        gives it: one it no longer gives goes. Its text is the same, but what a bare name
        in it names may not be (a package's manifest came or went: ingest/package.py)."""
        kept = sorted(b for b in set(self.ids.values()) if b in old)
        if not kept:
            return
        elsewhere = {b for b, _ in self.store.ingest_anchors_elsewhere(kept, self.uri)}
        own = [b for b in kept if b not in elsewhere]
        given = set(derived)
        gone = sorted(
            (a.belief_id, a.doc_uri)
            for anchors in self.store.anchors_for(own).values()
            for a in anchors
            if a.anchor_type == "derived" and (a.belief_id, a.doc_uri) not in given
        )
        for belief_id, uri in gone:
            self.note(belief_id, {"action": "unanchor", "doc_uri": uri})
        self.store.delete_anchors(gone)

    def _mentions(self, chunk: Chunk) -> list[str]:
        """URLs and existing files the chunk names, as document URIs, each once; never the
        chunk's own file (an env.py comment saying "the needs of env.py": its hits showed
        "(from env.py)" under "in env.py", a line of the charged block for nothing)."""
        found: dict[str, None] = {}
        for link in chunk.links:
            if _URL.match(link):
                self._add_url(found, link)
            else:
                path = self.run.link_path(link, self.folder)
                if path is not None and self.run.is_file(path):
                    found.setdefault(self.run.uri(path), None)
        # Most words hold neither "/" nor "." and cannot name a file: skipped here in one
        # pass, not by a call each. The rest repeat across passages ("e.g.", a config
        # file's name): each is looked up once per folder and run.
        known = self.run.bare_paths
        folder = self.folder
        for word in [w for w in chunk.text.split() if "/" in w or "." in w]:
            key = (word, folder)
            if key in known:
                path = known[key]
            else:
                path = known[key] = self._bare_path(word)
            if path is not None:
                found.setdefault(self.run.uri(path), None)
        found.pop(self.uri, None)
        return list(found)

    def _add_url(self, found: dict[str, None], link: str) -> None:
        urls = self.run.urls  # a URL recurs across passages and files: normalised once
        if link not in urls:
            urls[link] = None
            # A URL too long or with control characters is not worth an anchor.
            with contextlib.suppress(InvalidInputError):
                urls[link] = normalise_doc_uri(link).uri
        uri = urls[link]
        if uri is not None:
            found.setdefault(uri, None)

    def _bare_path(self, word: str) -> Path | None:
        """The existing file a bare word names, if any (the rules of `credo.knowledge.ingest`)."""
        if "/" not in word and "." not in word:
            return None  # most words: no regex, no disk
        word = word.strip(_WORD_EDGE).rstrip(".")
        if "://" in word or not _PATHLIKE.match(word):
            return None
        relative = word.lstrip("/")
        # A bare name in a package's file names a file of that package (ingest/package.py):
        # not the root's, not one found once in the tree but in another package.
        package = None if "/" in word else self.run.packages.of(self.folder)
        bases = (self.folder_name,) if package else (self.folder_name, self.run.root_name)
        for base in bases:
            # (as text: `normpath` resolves what a `Path` join would, and most words name
            # no file, so no `Path` is built for them)
            candidate = os.path.normpath(os.path.join(base, relative))
            if self.run.is_file(candidate):
                return Path(candidate)
        if "/" in word:
            return None
        return (self.run.packages.names(package) if package else self.run.names).get(word)


def _hint(chunk: Chunk) -> str:
    return line_hint(chunk.start_line, chunk.end_line)


def _free_ids(store: Store, digests: list[str]) -> dict[str, str]:
    """New belief ids for new texts: 'b' + hash prefix, lengthened until unused (as
    ``Memory.remember`` does), checked for the whole file in one query."""
    ids = {d: identity.derived_id(d) for d in digests}
    taken = store.content_hashes(ids.values())
    used: set[str] = set()
    for digest, belief_id in ids.items():
        width = len(belief_id)
        while (taken.get(belief_id) not in (None, digest)) or belief_id in used:
            width += 4  # a 60-bit prefix collision: extend the prefix until it is unique
            belief_id = "b" + digest[: width - 1]
            taken.update(store.content_hashes([belief_id]))
        ids[digest] = belief_id
        used.add(belief_id)
    return ids
