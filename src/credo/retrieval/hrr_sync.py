"""Keeping persisted HRR traces in step with the edges table, incrementally.

When the HRR lane is enabled for a store (``_meta`` key ``hrr_dim``), every connection that
writes registers temporary triggers on ``edges``: each inserted or deleted edge (cascades
included) calls a Python function that queues (src, dst, type, ±1). Before the write
transaction commits, the queue is applied to the traces of the touched beliefs only (read
their BLOBs, add or subtract one bound term each, write them back): traces are never
rebuilt per query, and a rolled-back transaction leaves them untouched.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from credo.edge_types import Edge
    from credo.store import Store  # (annotations only: the protocol costs ~1 ms to build)

META_DIM = "hrr_dim"
META_FORMAT = "hrr_format"


def enabled_dim(store: Store) -> int | None:
    dim = store.meta_get(META_DIM)
    return int(dim) if dim else None


def apply_edges(store: Store, dim: int, changes: Iterable[tuple[str, str, str, int]]) -> None:
    """Add (+1) or remove (-1) edge terms to the persisted traces of their endpoints."""
    batch = list(changes)
    if not batch:
        return
    from credo.retrieval.hrr import HrrIndex  # numpy: loaded only once the lane is on

    touched = sorted({end for src, dst, _, _ in batch for end in (src, dst)})
    index = HrrIndex(dim)
    for belief_id in touched:
        index.add_item(belief_id)
    for belief_id, blob in store.load_traces(touched).items():
        index.load_trace(belief_id, blob)
    for src, dst, edge_type, sign in batch:
        if sign > 0:
            index.add_edge(src, dst, edge_type)
        else:
            index.remove_edge(src, dst, edge_type)
    alive = store.existing_ids(touched)  # a hard-deleted belief's trace went with it
    store.save_traces(
        {
            belief_id: (None if not index.trace(belief_id).any() else index.trace_bytes(belief_id))
            for belief_id in touched
            if belief_id in alive
        }
    )


class HrrSync:
    """Queues edge changes seen by the temp triggers; flushes them before COMMIT."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.pending: list[tuple[str, str, str, int]] = []
        # The triggers are made before the first write (~0.7 ms): a process that only
        # reads (the hook, a search) never pays for them. Every write is a transaction.
        store.before_first_write(lambda: store.watch_edges(self._queue))
        store.before_commit(self.flush)

    def _queue(self, src: str, dst: str, edge_type: str, sign: int) -> None:
        self.pending.append((src, dst, edge_type, sign))

    def flush(self) -> None:
        pending, self.pending = self.pending, []
        dim = enabled_dim(self.store)
        if dim is not None:
            apply_edges(self.store, dim, pending)


def build(store: Store, dim: int, edges: Iterable[Edge]) -> int:
    """Enable the lane: compute every trace from the stored edges once. Returns edges seen."""
    from credo.retrieval.hrr import HRR_FORMAT

    store.clear_traces()
    store.meta_set(META_DIM, str(dim))
    store.meta_set(META_FORMAT, HRR_FORMAT)
    changes = [(e.src, e.dst, e.type.value, 1) for e in edges]
    apply_edges(store, dim, changes)
    return len(changes)


def disable(store: Store) -> None:
    store.clear_traces()
    store.meta_set(META_DIM, None)
    store.meta_set(META_FORMAT, None)
