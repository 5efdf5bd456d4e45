"""The engine's reads of the store give exactly what the plain queries give.

The warm path reads the keyword index's best rows, the graph's links, the lock list and the
pack's groups in forms made for speed; each test compares one with the plain query or
filter it replaces, in order, and retrieval over ties and locks stays deterministic.
"""

from __future__ import annotations

import contextlib
import math
import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.errors import InvalidInputError
from credo.store.fts import (
    ANCHOR_WEIGHT,
    CONTENT_WEIGHT,
    CONTEXT_WEIGHT,
    CandidateRow,
)
from credo.types import Belief, EdgeType

# -- store reads for the engine ------------------------------------------------------------

EXACT_KEYWORD_SQL = (
    "SELECT b.id, -bm25(beliefs_fts, ?, ?, ?) AS s FROM beliefs_fts "
    "JOIN beliefs b ON b.rid = beliefs_fts.rowid "
    "WHERE beliefs_fts MATCH ? AND b.locked = 0 "
    "ORDER BY s DESC, b.id LIMIT ?"
)


def _row(belief: Belief) -> CandidateRow:
    return (belief.content, belief.alpha, belief.beta, belief.session, belief.created_at)


def _exact_keyword(memory: Memory, expression: str, limit: int) -> list[tuple[str, float]]:
    weights = (CONTENT_WEIGHT, ANCHOR_WEIGHT, CONTEXT_WEIGHT)
    rows = memory.store.conn.execute(EXACT_KEYWORD_SQL, (*weights, expression, limit))
    return [(str(r[0]), float(r[1])) for r in rows]


@pytest.fixture(scope="module")
def ties(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    """Many beliefs with equal scores (the same words, the same length), some locked:
    the keyword query's fast path must see that its cut may fall inside a tie."""
    folder = tmp_path_factory.mktemp("ties")
    memory = Memory(folder / "m.db", root=folder)
    rng = random.Random(4)
    words = ["alpha", "beta", "gamma", "delta", "omega"]
    rows: list[dict[str, object]] = []
    for i in range(400):
        text = " ".join(rng.choice(words) for _ in range(rng.choice([3, 3, 3, 5])))
        rows.append({"kind": "belief", "id": f"t{i:03d}", "content": f"{text} n{i % 7}"})
    memory.import_records(rows)
    # Some beliefs sit somewhere (the context column): the third weight counts, and the
    # beliefs of one context still tie among themselves.
    contexts = ["docs/alpha.md › Gamma", "docs/omega.md › N3", "src/beta.py › delta"]
    with memory.store.transaction():
        memory.store.conn.executemany(
            "UPDATE beliefs SET context = ? WHERE id = ?",
            [(contexts[i % 3], f"t{i:03d}") for i in range(0, 400, 4)],
        )
    for i in range(0, 400, 9):
        memory.lock(f"t{i:03d}")
    return memory


@pytest.mark.parametrize("limit", [0, 1, 5, 50, 51, 120, 1000, -1])
@pytest.mark.parametrize("terms", [["alpha"], ["alpha", "omega"], ["n3"], ["gamma", "n1"]])
def test_keyword_fast_path_equals_the_exact_query(
    ties: Memory, terms: list[str], limit: int
) -> None:
    expression = " OR ".join(f'"{t}"' for t in terms)
    hits, found = ties.store.keyword_beliefs(terms, limit=limit)
    assert list(hits.items()) == _exact_keyword(ties, expression, limit)
    assert set(found) == set(hits)
    for belief_id, row in found.items():
        assert row == _row(ties.get(belief_id))


def test_graph_reads_for_the_engine(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    rng = random.Random(2)
    ids = [f"g{i:02d}" for i in range(40)]
    memory.import_records(
        [
            {
                "kind": "belief",
                "id": i,
                "content": f"note {i}",
                "session": f"s{n % 3}" if n % 2 else None,
            }
            for n, i in enumerate(ids)
        ]
    )
    kinds = [t.value for t in EdgeType]
    seen: set[tuple[str, str, str]] = set()
    for _ in range(150):
        src, dst, kind = rng.choice(ids), rng.choice(ids), rng.choice(kinds)
        if src != dst and (src, dst, kind) not in seen:
            seen.add((src, dst, kind))
            memory.relate(src, dst, kind)
    memory.lock("g03")
    memory.forget("g04")
    memory.feedback("g05", "used")
    frontier = [i for i in ids[:10] if i != "g04"]  # live ids, as the lanes pass them
    links, ends = memory.store.links_with_ends(frontier, limit=600)
    assert links == memory.store.links_touching(frontier, limit=600)
    reached = {e for link in links for e in (link.src, link.dst)}
    assert reached - set(frontier) <= set(ends) <= reached
    assert "g04" not in reached
    for belief_id, row in ends.items():
        belief = memory.get(belief_id)
        assert row == (None if belief.locked else _row(belief))
    assert memory.store.links_with_ends(frontier, limit=7)[0] == links[:7]
    # The dialog lane's read: TEMPORAL_NEXT successors that are live and unlocked, with rows.
    pairs, rows = memory.store.successors(frontier, edge_type="TEMPORAL_NEXT", limit=600)
    want = sorted(
        (e.src, e.dst)
        for e in memory.store.edges_touching(frontier)
        if e.type is EdgeType.TEMPORAL_NEXT
        and e.src in frontier
        and (far := memory.get(e.dst)).deleted_at is None
        and not far.locked
    )
    assert len(want) >= 2 and pairs == want
    assert rows == {dst: _row(memory.get(dst)) for _, dst in want}
    assert memory.store.successors(frontier, edge_type="TEMPORAL_NEXT", limit=1)[0] == want[:1]
    candidates = ids[5:30]
    for floor in (-1.0, 0.0, 0.4, 0.5, math.inf):
        got = memory.store.pairs_among(candidates, min_weight=floor)
        want = [e for e in memory.store.edges_for_beliefs(candidates) if e.weight >= floor]
        assert sorted(got) == sorted((e.src, e.dst) for e in want)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=st.sampled_from(["alpha", "alpha omega", "n3 gamma", "beta delta n6", "zzz"]))
def test_retrieval_over_ties_and_locks_is_deterministic(ties: Memory, query: str) -> None:
    first = ties.retrieve(query, token_budget=300)
    assert ties.retrieve(query, token_budget=300) == first


@pytest.mark.parametrize("max_links", [600, 5])
def test_cluster_pairs_reuse_the_seed_links(tmp_path: Path, max_links: int) -> None:
    """Clustering reads only the non-seed candidates' edges and takes the seeds' from the
    graph lanes' links: together, exactly the candidate-induced edges above the floor."""
    from credo.retrieval import pipeline as retrieval

    memory = Memory(tmp_path / "m.db", root=tmp_path)
    rng = random.Random(9)
    words = ["deploy", "cache", "staging", "token", "graph", "lake"]
    ids = [f"p{i:02d}" for i in range(60)]
    memory.import_records(
        [{"kind": "belief", "id": i, "content": " ".join(rng.sample(words, 3))} for i in ids]
    )
    kinds = [t.value for t in EdgeType]
    for _ in range(200):
        src, dst, kind = rng.choice(ids), rng.choice(ids), rng.choice(kinds)
        if src != dst and memory.store.get_edge(src, dst, EdgeType(kind)) is None:
            with contextlib.suppress(InvalidInputError):  # a SUPERSEDES cycle is refused
                memory.relate(src, dst, kind)
    memory.lock("p07")
    memory.forget("p08")
    options = retrieval.Options(graph_max_links=max_links)
    for query in ["deploy cache", "staging graph lake", "token"]:
        ranked, _, around, _, _ = retrieval._rank(memory.store, query, options)
        assert (around is None) == (max_links == 5)
        ids_ranked = [belief_id for belief_id, _, _ in ranked]
        for floor in (0.0, 0.4, 0.6):
            got = retrieval.candidate_pairs(memory.store, ids_ranked, around, floor)
            assert sorted(got) == sorted(memory.store.pairs_among(ids_ranked, min_weight=floor))


def test_the_lock_list_is_read_again_after_any_write(tmp_path: Path) -> None:
    """Locks are cached per store version: every kind of change shows on the next read."""
    db = tmp_path / "m.db"
    memory = Memory(db, root=tmp_path)
    a = memory.remember("alpha note about deploys")
    b = memory.remember("beta note about caches")
    store = memory.store
    assert store.current_locks() == []
    memory.lock(a)
    assert [x.id for x in store.current_locks()] == [a]
    assert memory.retrieve("note").beliefs[0].locked
    memory.unlock(a)
    assert store.current_locks() == []
    # another connection's commit
    with Memory(db, root=tmp_path) as other:
        other.lock(b)
    assert [x.id for x in store.current_locks()] == [b]
    # a write rolled back after the lock list was read inside the transaction
    with pytest.raises(RuntimeError), store.transaction():
        memory.lock(a)
        assert {x.id for x in store.current_locks()} == {a, b}
        raise RuntimeError("roll back")
    assert [x.id for x in store.current_locks()] == [b]
    memory.forget(b)
    assert store.current_locks() == []
    assert store.current_locks() == store.locked_beliefs()


@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.text(max_size=12), max_size=20))
def test_json_array_is_what_json_dumps_means(values: list[str]) -> None:
    """Batched reads pass ids as a JSON array; the plain-text fast path must decode to the
    same list as json.dumps' text, whatever the ids hold."""
    import json

    from credo.store.db import json_array

    assert json.loads(json_array(values)) == values
    assert json_array(v for v in values) == json_array(values)
    if any("\x00" in v for v in values):
        return  # SQLite's text ends at NUL, whoever wrote the JSON
    with contextlib.closing(sqlite3.connect(":memory:")) as conn:
        rows = conn.execute("SELECT value FROM json_each(?) ORDER BY key", (json_array(values),))
        assert [r[0] for r in rows] == values


@settings(max_examples=300, deadline=None)
@given(data=st.data(), n=st.integers(0, 40))
def test_ids_without_those_brought_along_equal_the_filter(data: st.DataObject, n: int) -> None:
    """``pipeline._without`` (a few removed from a copy, more filtered): the ranked ids less
    those a conflict brought along, in order, whichever way it takes."""
    from credo.retrieval.pipeline import _without

    ids = [f"n{i}" for i in data.draw(st.permutations(range(n)))]
    brought = frozenset(data.draw(st.lists(st.sampled_from(ids), unique=True)) if ids else ())
    assert _without(ids, brought) == [i for i in ids if i not in brought]


@settings(max_examples=300, deadline=None)
@given(data=st.data(), n=st.integers(0, 30))
def test_groups_aside_read_where_reached_equal_the_groups_expanded(
    data: st.DataObject, n: int
) -> None:
    """The groups kept aside read from their entries where a reader reaches them
    (``bundle.Expanding``, ``Units`` with ``aside``, ``place.Charges``) against each
    leader's group listed up front and expanded (``bundle.expanded``, the chain of
    one-tuples it replaced): the ids in order, read whole or stopped early, the dropped
    units expanded with the groups given whole too, and the charges of each unit."""
    from itertools import chain, islice

    from credo.retrieval.bundle import Expanding, Units, expanded
    from credo.retrieval.place import Charges, Places

    ids = [f"n{i}" for i in range(n)]
    leaders = data.draw(st.lists(st.sampled_from(ids), unique=True)) if ids else []
    tails = {}
    for leader in leaders:
        others = tuple(f"m{leader}-{k}" for k in range(data.draw(st.integers(1, 3))))
        tails[leader] = (None, None, (leader, *others), others)  # (``Relevant``: 2 and 3 read)
    groups_of = {leader: info[2] for leader, info in tails.items()}
    whole = expanded(ids, groups_of)
    assert whole == list(chain.from_iterable(map(groups_of.get, ids, zip(ids))))
    asked: list[str] = []

    class Entries(dict):  # type: ignore[type-arg]
        def get(self, key, default=None):  # type: ignore[no-untyped-def,override]
            asked.append(key)
            return super().get(key, default)

    lazy = Expanding(ids, Entries(tails))  # type: ignore[arg-type]
    stop = data.draw(st.integers(0, len(whole)))
    assert list(islice(lazy, stop)) == whole[:stop]
    # (read only as far as the reader went: no group past the last id it took)
    assert asked == [i for i in ids if i in whole[:stop]][: len(asked)]
    assert list(lazy) == whole and len(lazy) == len(whole) and list(lazy) == whole
    # Groups given whole (among the ids no leader aside leads, their followers left out).
    free = [i for i in ids if i not in tails]
    eager = []
    if len(free) >= 2 and data.draw(st.booleans()):
        eager = [tuple(data.draw(st.lists(st.sampled_from(free), min_size=2, unique=True)))]
    units = Units(ids, eager, tails)  # type: ignore[arg-type]
    listed = Units(ids, eager)
    listed.members = {**groups_of, **listed.members}  # (the groups aside listed up front)
    assert units.ids == listed.ids
    assert units.expand(units.ids) == listed.expand(listed.ids)
    assert dict(units.all_members()) == listed.members
    lines = {i: len(i) * 3 for i in whole}
    lazy_charges = Charges(lines, Places({}), units.members, units.aside)
    listed_charges = Charges(lines, Places({}), listed.members)
    assert [lazy_charges[u] for u in units.ids] == [listed_charges[u] for u in listed.ids]
    budget = data.draw(st.integers(0, 400))
    assert lazy_charges.fitting_prefix(units.ids, budget) == listed_charges.fitting_prefix(
        listed.ids, budget
    )
    assert lazy_charges.charged == listed_charges.charged
