"""``Memory``'s document verbs: the root their paths are relative to, anchors, ingest, doctor
and records. `credo.memory.Memory` mixes the class in: split off where the idea splits
(beliefs and retrieval there, files and their anchors here), it imports nothing above
``knowledge/`` and only lazily what each verb needs, so a read loads none of it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from credo.errors import InvalidInputError
from credo.types import DocAnchor

if TYPE_CHECKING:  # (the write paths' reports: a process that only retrieves never loads them)
    from credo.config import PostgresUrl
    from credo.knowledge.doctor import BackfillReport, DoctorReport
    from credo.knowledge.export import ExportReport
    from credo.knowledge.importer import ImportReport
    from credo.knowledge.ingest import IngestReport
    from credo.knowledge.root import RootKeeper
    from credo.store import Store


class Documents:
    """The document half of `credo.Memory` (which sets these attributes)."""

    store: Store
    path: Path | PostgresUrl
    source: str
    workdir: Path
    _root: Path | None
    _keeper: RootKeeper | None

    def full_id(self, belief_id: str) -> str:
        raise NotImplementedError  # (Memory's)

    def _id(self, belief_id: str) -> str:
        raise NotImplementedError  # (Memory's: full_id for a write)

    # -- the root --------------------------------------------------------------------------
    @property
    def root(self) -> Path:
        """The folder document paths are relative to: ``root=`` if given, else the one the
        store remembers, else the one its first write of a path will take
        (`credo.knowledge.root`)."""
        return self._roots().current()

    @root.setter
    def root(self, value: str | os.PathLike[str]) -> None:
        self._root = Path(value).resolve()
        self._keeper = None

    def _roots(self) -> RootKeeper:
        from credo.knowledge.root import RootKeeper  # (a read that names no file never asks)

        keeper = self._keeper
        if keeper is None or keeper.workdir != self.workdir:
            keeper = self._keeper = RootKeeper(self.store, self.path, self.workdir, self._root)
        return keeper

    # -- document anchors ------------------------------------------------------------------
    def link(
        self,
        belief_id: str,
        doc_uri: str,
        *,
        anchor_type: str = "manual",
        position_hint: str | None = None,
        lines: str | tuple[int, int] | None = None,
        must_exist: bool = False,
    ) -> DocAnchor:
        """Anchor a belief to a document (idempotent on (belief_id, normalised doc_uri)).
        ``must_exist``: a local file that is not there raises InvalidInputError, nothing
        stored (the CLI and MCP ask it: a typo is refused, not kept)."""
        from credo.knowledge.linker import link_belief_to_document

        root = self._roots().for_doc(doc_uri)
        anchor = link_belief_to_document(
            self.store,
            self._id(belief_id),
            doc_uri,
            anchor_type,
            position_hint,
            root=root,
            lines=lines,
            source=self.source,
            must_exist=must_exist,
        )
        if root is not None:
            self._roots().keep(root)
        return anchor

    def unlink(
        self, belief_id: str, doc_uri: str, *, lines: str | tuple[int, int] | None = None
    ) -> list[DocAnchor]:
        """Drop a belief's anchors to a document and return them: with a line range (in
        ``doc_uri``'s ``#L12-L30`` or ``lines``) that one anchor, without one every anchor to
        that document. The file need not exist (a deleted file's anchor is what this
        clears). Raises NotFoundError for an unknown id, AnchorNotFoundError (a
        NotFoundError) for an anchor the belief does not have; nothing changes then."""
        from credo.knowledge.linker import unlink_belief_from_document

        return unlink_belief_from_document(
            self.store,
            self._id(belief_id),
            doc_uri,
            root=self._roots().for_doc(doc_uri),
            lines=lines,
            source=self.source,
        )

    def anchors(self, belief_id: str) -> list[DocAnchor]:
        """A belief's document anchors, oldest first."""
        from credo.knowledge.linker import get_doc_anchors

        return get_doc_anchors(self.store, self.full_id(belief_id))

    def anchors_for_beliefs(self, belief_ids: Iterable[str]) -> dict[str, list[DocAnchor]]:
        """Anchors of many beliefs in one query."""
        from credo.knowledge.linker import get_doc_anchors_batch

        return get_doc_anchors_batch(self.store, belief_ids)

    def beliefs_for_doc(
        self, doc_uri_or_path: str, *, include_forgotten: bool = False
    ) -> list[DocAnchor]:
        """The reverse lookup: anchors pointing at a document; a folder path (or any path
        prefix ending in '/') lists every document under it. Forgotten beliefs keep their
        anchors for audit; ``include_forgotten`` lists them too."""
        if not isinstance(doc_uri_or_path, str) or not doc_uri_or_path.strip():
            raise InvalidInputError("document path is empty; give a path, folder or URL")
        raw = doc_uri_or_path.strip()
        folder = raw.endswith("/")
        from credo.knowledge.docuri import normalise_doc_uri

        normalised = normalise_doc_uri(raw, root=self._roots().for_doc(raw)).uri
        if folder and not normalised.endswith("/"):
            normalised += "/"
        found = self.store.anchors_for_doc(normalised, prefix=True)
        if include_forgotten or not found:
            return found
        live = self.store.live_ids(a.belief_id for a in found)
        return [a for a in found if a.belief_id in live]

    # -- documents -------------------------------------------------------------------------
    def ingest(
        self,
        *paths: str | os.PathLike[str],
        progress: Callable[[int, int, str], None] | None = None,
        vendored: bool = False,
    ) -> IngestReport:
        """Read files and folders into beliefs (Markdown by section, code by docstrings and
        comments, YAML, TOML and JSON by key, text by paragraph), each anchored to its file
        and line range; lock files and JSON dumps are skipped, unchanged files too, changed
        ones re-anchored (rules: the `credo.knowledge.ingest` docstring). A folder's walk
        leaves vendored folders (``vendor/``, ``third_party/``...) out unless ``vendored``;
        a folder named in ``paths`` is read."""
        from credo.knowledge.ingest import ingest_paths

        if not paths:
            raise InvalidInputError("give at least one file or folder to ingest")
        root = self._roots().for_write(Path(os.path.abspath(paths[0])))
        report = ingest_paths(self.store, paths, root=root, progress=progress, vendored=vendored)
        self._roots().keep(root)
        return report

    def doctor(self, *, fix: bool = False) -> DoctorReport:
        """Check every anchor: files that vanished, line ranges that no longer hold the
        belief's text; with ``fix``, move ranges to where the text now is."""
        from credo.knowledge.doctor import check_anchors, fix_anchors

        if not fix:
            return check_anchors(self.store, self.root)
        root = self.root
        report = fix_anchors(self.store, root)
        if report.fixed:
            self._roots().keep(root)
        return report

    def backfill_anchors(self) -> BackfillReport:
        """Anchor beliefs that have none, from the source paths in ``ingest_log``."""
        from credo.knowledge.doctor import backfill_anchors

        root = self.root
        report = backfill_anchors(self.store, root)
        if report.anchored:
            self._roots().keep(root)
        return report

    # -- records ---------------------------------------------------------------------------
    def import_records(
        self, source: str | os.PathLike[str] | Iterable[dict[str, Any] | str]
    ) -> ImportReport:
        """Import JSONL records (a path, or an iterable of dicts / JSON lines) in one
        transaction: a malformed line aborts it with its line number; nothing is written."""
        if isinstance(source, os.PathLike):
            source = Path(source)
        from credo.knowledge import importer  # the read path (hook, search) never parses records

        root = self.root
        with self.store.write_errors():
            report = importer.import_records(self.store, source, root=root)
        if report.anchors_added or report.ingest_rows_added:
            self._roots().keep(root)
        return report

    def export_records(self, path: str | os.PathLike[str] | IO[str]) -> ExportReport:
        """Write every belief, edge and anchor, and ingest's state of which file states which
        edge, as JSONL (sorted, byte-stable). The file is written beside its target and
        renamed into place, so a failed export leaves no half file; a text stream (stdout)
        is written in order."""
        from credo.knowledge.export import export_records

        return export_records(self.store, path)
