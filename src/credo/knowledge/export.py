"""Writing a store out as JSONL records (``Memory.export_records``; the format and its
parsing: knowledge/records.py): every belief, edge and anchor, then ingest's own state
(knowledge/ingest_records.py), each kind in key order, so the same store always gives the
same bytes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from credo.errors import StoreError
from credo.knowledge import derived_records
from credo.knowledge.retention import of_record

if TYPE_CHECKING:
    from collections.abc import Iterator

    from credo.edge_types import Edge
    from credo.store import Store
    from credo.store.rows import IngestedFile
    from credo.types import Belief, DocAnchor


def export_records(store: Store, path: str | os.PathLike[str] | IO[str]) -> ExportReport:
    """Write every record to ``path``, from one snapshot of the store. The file is written
    beside its target and renamed into place, so a failed export leaves no half file. A text
    stream (the CLI's ``credo export -``: stdout) is written as it is read."""
    if not isinstance(path, (str, os.PathLike)):
        with store.read_snapshot():
            counts = [_write(path, lines) for lines in _kinds(store)]
        path.flush()
        name = str(getattr(path, "name", "<stream>"))
        return ExportReport(counts[0], counts[1], counts[2], name, sum(counts[3:6]))
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        import tempfile  # export only; the read path (the hook) must not pay for it

        fd, tmp = tempfile.mkstemp(prefix=".credo-export-", dir=target.parent)
    except OSError as exc:
        raise StoreError(f"cannot write {target}: {exc.strerror or exc}") from exc
    try:
        # A read snapshot, not a write transaction: a store opened read-only exports too.
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out, store.read_snapshot():
            counts = [_write(out, lines) for lines in _kinds(store)]
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise StoreError(f"cannot write {target}: {exc.strerror or exc}") from exc
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return ExportReport(counts[0], counts[1], counts[2], str(target), sum(counts[3:6]))


def _kinds(store: Store) -> list[Iterator[str]]:
    """Each kind's lines, in the order they are written (lazy: read as written)."""
    return [
        map(belief_line, store.iter_beliefs()),
        map(edge_line, store.iter_edges()),
        map(anchor_line, store.iter_anchors()),
        map(ingested_file_line, store.ingested_files()),
        map(edge_source_line, store.iter_edge_sources()),
        map(pending_cite_line, store.iter_pending_cites()),
        map(derived_records.lines_line, store.iter_passage_lines()),
        (derived_records.definitions_line(store, f) for f in store.definition_files()),
        (derived_records.acronyms_line(f, pairs) for f, pairs in store.file_acronyms()),
        map(derived_records.context_line, store.iter_anchor_contexts()),
    ]


def _write(out: Any, lines: Iterator[str]) -> int:
    count = 0
    for line in lines:
        out.write(line + "\n")
        count += 1
    return count


class ExportReport(NamedTuple):
    """What ``Memory.export_records`` wrote: counts per record kind, and the file
    (``ingest_rows``: the ingest state records, knowledge/ingest_records.py)."""

    beliefs: int
    edges: int
    anchors: int
    path: str
    ingest_rows: int = 0


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
    if belief.context:
        obj["context"] = belief.context
    if belief.retention != of_record(belief.origin, belief.content, belief.context):
        obj["retention"] = belief.retention  # else import tells it again from the text
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


def ingested_file_line(row: IngestedFile) -> str:
    # (no content_hash: an imported row is read again, see knowledge/ingest_records.py)
    return _dump(
        {
            "kind": "ingested_file",
            "path": row.path,
            "first_belief": row.first_belief,
            "size": row.size,
            "mtime": row.mtime,
            "ingested_at": row.ingested_at,
            "beliefs": row.beliefs,
        }
    )


def edge_source_line(row: tuple[str, str, str, str, str]) -> str:
    file, src, dst, type_name, cited = row
    obj = {"kind": "edge_source", "file": file, "src": src, "dst": dst, "type": type_name}
    return _dump({**obj, "cited_file": cited})


def pending_cite_line(row: tuple[str, str, str]) -> str:
    file, src, cited = row
    return _dump({"kind": "pending_cite", "file": file, "src": src, "cited_file": cited})
