"""What a records import logs in ``ingest_log`` (knowledge/importer.py):

- one ``import`` row per new belief (belief_id, source_path, its text and session): the row
  the anchor backfill and a rebuild read (built in SQL from the new rows: ``log_beliefs``);
- one ``corroborate`` row per corroboration of a stored belief, one ``link`` row per anchor;
- edges in ``relate_batch`` rows of up to ``EDGE_LOG_BATCH`` edges each (belief_id NULL,
  payload ``{"edges": [[src, dst, type, weight], ...]}``, the fields the per-edge rows
  carried before), because a row per edge cost as much as inserting the edge itself. Two
  kinds keep one ``relate`` row each, as ``Memory.relate`` writes it: an edge with anchor
  text (that text must be erasable by a hard forget, which redacts the rows of the
  forgotten belief) and a SUPERSEDES edge (``dedup.undo`` replays per-edge ``relate`` rows
  to find the edges it owns);
- one ``ingest_state`` row (belief_id NULL, payload: the ledger, ``edge_files`` and
  ``pending_cites`` rows added) when the file carried ingest's state that added any
  (knowledge/ingest_records.py).
"""

from __future__ import annotations

import json
from operator import itemgetter
from typing import Any

from credo.edge_types import EdgeType
from credo.store.bulk import has_anchor_text
from credo.store.edges import EdgeRow

LogRow = tuple[float, str, str | None, str | None, dict[str, Any] | str | None]

# Edges per ``relate_batch`` log row.
EDGE_LOG_BATCH = 10_000

_LOGGED_FIELDS = itemgetter(0, 1, 2, 3)  # src, dst, type, weight


def edge_log(edges: list[EdgeRow], now: float, src: str) -> list[LogRow]:
    """The log rows of new edges: ``relate`` rows for those that need one, ``relate_batch``
    rows for the rest (see the module docstring)."""
    log: list[LogRow] = []
    batched = edges
    supersedes = EdgeType.SUPERSEDES.value
    if has_anchor_text(edges) or supersedes in set(map(itemgetter(2), edges)):
        batched = []
        for edge in edges:
            s, d, t, weight, anchor_text, _ = edge
            if anchor_text is None and t != supersedes:
                batched.append(edge)
            else:
                payload = {"dst": d, "type": t, "weight": weight, "anchor_text": anchor_text}
                log.append((now, "relate", s, src, payload))
    for start in range(0, len(batched), EDGE_LOG_BATCH):
        rows = list(map(_LOGGED_FIELDS, batched[start : start + EDGE_LOG_BATCH]))
        log.append((now, "relate_batch", None, src, json.dumps({"edges": rows})))
    return log
