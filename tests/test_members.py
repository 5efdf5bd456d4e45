"""In code, a class's head after its members that rank with it (retrieval/members.py): the
rule over given rankings, how a class is told from a function by the definition rows
alone, and the rule in real retrievals, warm and cold."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.members import members_first
from credo.retrieval.rank import Scored, as_scored
from credo.retrieval.specific import TOP
from credo.store.defn_stats import encode
from credo.store.stem import stem, tokens
from tests.lane_runs import cold_then_warm, two_fresh_stores


def _terms(text: str) -> str:
    return encode(stem(t) for t in tokens(text))[0]


CLASS_OWN = _terms("class Pool: A pool of open connections.")
PUT = _terms("def put(self, conn): self.queue.append(conn)")
GET = _terms("def get(self): return self.queue.pop()")
# A function's row counts its nested function's lines too.
OUTER = _terms("def outer(x): def inner(y): return y + 1  return inner(x)")
INNER = _terms("def inner(y): return y + 1")

TRAILS = {
    "head": "pool.py › Pool L1-L20",
    "doc": "pool.py › Pool L2-L6",  # a paragraph of the class's docstring
    "put": "pool.py › Pool › put L8-L12",
    "get": "pool.py › Pool › get L14-L20",
    "other": "other.py › helper L1-L5",
    "outer": "fn.py › outer L1-L9",
    "inner": "fn.py › outer › inner L2-L4",
}
ROWS = {
    "head": [("pool.py", 1, 20, CLASS_OWN, 12, True)],
    "doc": [("pool.py", 1, 20, CLASS_OWN, 12, False)],
    "put": [("pool.py", 8, 12, PUT, 9, True)],
    "get": [("pool.py", 14, 20, GET, 8, True)],
    "other": [("other.py", 1, 5, _terms("def helper(): pass"), 4, True)],
    "outer": [("fn.py", 1, 9, OUTER, 14, True)],
    "inner": [("fn.py", 2, 4, INNER, 7, True)],
}


def _ranked(*pairs: tuple[str, float]) -> list[Scored]:
    return [Scored(i, s, {"bm25f": s}) for i, s in pairs]


def _stepped(order: list[str], steps: list[int], gap: float) -> list[Scored]:
    """``order`` ranked at scores falling from 1.0 by ``step * gap`` each (0: a tie), in the
    pipeline's order (score desc, id asc)."""
    score, pairs = 1.0, []
    for i, step in zip(order, steps, strict=True):
        score = round(score - step * gap, 9)
        pairs.append((i, score))
    return sorted(_ranked(*pairs), key=lambda s: (-s.score, s.id))


def _order(ranked: list[Scored]) -> list[str]:
    return [s.id for s in as_scored(ranked)]


def test_a_class_head_goes_just_below_its_last_member_in_the_first_ranks() -> None:
    ranked = _ranked(("head", 1.5), ("other", 1.2), ("put", 1.1), ("get", 0.9), ("doc", 0.5))
    out = as_scored(members_first(ranked, TRAILS, ROWS))
    assert _order(out) == ["other", "put", "get", "head", "doc"]
    head = out[3]
    assert head.score == round(0.9 - 1e-9, 9)
    assert head.lanes["members"] == round(head.score - 1.5, 9)
    assert abs(sum(head.lanes.values()) - head.score) < 1e-9  # the parts still add up


def test_a_function_above_its_nested_function_stays_where_it_is() -> None:
    ranked = _ranked(("outer", 1.4), ("inner", 1.0))
    assert members_first(ranked, TRAILS, ROWS) is ranked


def test_what_is_not_a_head_with_a_member_below_it_stays() -> None:
    below_members = _ranked(("put", 1.5), ("head", 1.2), ("get", 1.0))  # a member above
    assert _order(members_first(below_members, TRAILS, ROWS)) == ["put", "get", "head"]
    not_the_head = _ranked(("doc", 1.5), ("put", 1.0))  # a docstring paragraph, not the head
    assert members_first(not_the_head, TRAILS, ROWS) is not_the_head
    unread = _ranked(("head", 1.5), ("put", 1.0))  # the lane read no row for the member
    assert members_first(unread, TRAILS, {"head": ROWS["head"]}) is unread
    alone = _ranked(("head", 1.5), ("other", 1.0))
    assert members_first(alone, TRAILS, ROWS) is alone


def test_a_class_that_names_its_member_as_often_as_the_member_does_is_left_alone() -> None:
    # (taken for a function: the cost of telling a class by its members' names alone)
    naming = {**ROWS, "head": [("pool.py", 1, 20, _terms("class Pool: put, put get get"), 9, True)]}
    ranked = _ranked(("head", 1.5), ("put", 1.1), ("get", 0.9))
    assert members_first(ranked, TRAILS, naming) is ranked


def test_a_member_below_the_first_ranks_is_not_read() -> None:
    filler = [(f"x{n:02d}", 1.4 - n / 100) for n in range(TOP - 1)]
    ranked = _ranked(("head", 1.5), *filler, ("put", 0.1))
    trails = {**TRAILS, **{i: f"x.py › f{i} L1-L2" for i, _ in filler}}
    assert members_first(ranked, trails, ROWS) is ranked


def _nest(outer: str, inner: str, method: str) -> tuple[dict[str, str], dict[str, list]]:
    """A class ``outer`` around a class ``inner`` around a method: trails and rows."""
    trails = {
        outer: "nest.py › Outer L1-L30",
        inner: "nest.py › Outer › Inner L5-L20",
        method: "nest.py › Outer › Inner › fetch L8-L12",
    }
    rows = {
        outer: [("nest.py", 1, 30, _terms("class Outer: holds things"), 5, True)],
        inner: [("nest.py", 5, 20, _terms("class Inner: holds more"), 5, True)],
        method: [("nest.py", 8, 12, _terms("def fetch(self): return self.item"), 6, True)],
    }
    return trails, rows


@pytest.mark.parametrize(
    "ids", [("a_outer", "b_inner", "c_fetch"), ("z_outer", "y_inner", "x_fetch")]
)
def test_nested_classes_go_below_their_members_whatever_their_ids(
    ids: tuple[str, str, str],
) -> None:
    outer, inner, method = ids
    trails, rows = _nest(outer, inner, method)
    ranked = _ranked((outer, 1.5), (inner, 1.2), (method, 1.0))
    out = as_scored(members_first(ranked, trails, rows))
    assert _order(out) == [method, inner, outer]
    assert [s.score for s in out] == [1.0, round(1.0 - 1e-9, 9), round(1.0 - 2e-9, 9)]
    for s in out:  # (a head moved twice lists what it lost once, in one part)
        assert abs(sum(s.lanes.values()) - s.score) < 1e-9


def test_a_moved_head_at_the_edge_of_the_first_ranks_keeps_the_list_in_order() -> None:
    # the last member at rank 10 and rank 11 on its score: the head goes below both
    filler = [(f"x{n:02d}", 1.4 - n / 100) for n in range(TOP - 2)]
    ranked = _ranked(("head", 1.5), *filler, ("put", 0.5), ("a_tie", round(0.5 - 1e-9, 9)))
    ranked.sort(key=lambda s: (-s.score, s.id))
    trails = {**TRAILS, **{i: f"x.py › f{i} L1-L2" for i, _ in filler}, "a_tie": "t.py › t L1-L2"}
    out = as_scored(members_first(ranked, trails, ROWS))
    assert out == sorted(out, key=lambda s: (-s.score, s.id))
    assert _order(out)[-3:] == ["put", "a_tie", "head"]


_IDS = sorted(ROWS)


@settings(max_examples=200, deadline=None)
@given(
    order=st.permutations(_IDS),
    scores=st.lists(
        st.floats(min_value=0.01, max_value=3.0, allow_nan=False), min_size=7, max_size=7
    ),
)
def test_the_same_candidates_best_first_and_only_class_heads_move_below_their_members(
    order: list[str], scores: list[float]
) -> None:
    ranked = sorted(
        _ranked(*zip(order, (round(s, 9) for s in scores), strict=True)),
        key=lambda s: (-s.score, s.id),
    )
    out = as_scored(members_first(ranked, TRAILS, ROWS))
    assert sorted(_order(out)) == sorted(_order(ranked))
    assert [s.score for s in out] == sorted((s.score for s in out), reverse=True)
    moved = {s.id for s in out if "members" in s.lanes}
    assert moved <= {"head"}
    place = {s.id: n for n, s in enumerate(out)}
    if moved:
        assert place["head"] > max(place[m] for m in ("put", "get") if m in place)
    else:
        before = {s.id: n for n, s in enumerate(ranked)}
        assert not any(before["head"] < before[m] for m in ("put", "get"))
    for s in out:
        assert abs(sum(s.lanes.values()) - s.score) < 1e-9


POOL = '''\
class ConnectionPool:
    """A pool of open connections: connections are put back after a request and taken
    out again for the next one, and a full pool discards what is put back."""

    def put_back(self, conn):
        """Put a connection back into the pool; a full pool discards it and closes it."""
        if self.full():
            conn.close()
            return
        self.queue.append(conn)

    def take_out(self):
        """Take a connection out of the pool, or open a new one when it is empty."""
        if not self.queue:
            return self.open()
        return self.queue.pop()


def retry(call, attempts):
    """Retry a call, waiting longer between attempts."""

    def wait(attempt):
        """Wait between attempts: longer after each failed attempt."""
        sleep(2**attempt)

    for attempt in range(attempts):
        try:
            return call()
        except OSError:
            wait(attempt)
'''


def test_in_a_retrieval_the_method_asked_about_comes_before_its_class(tmp_path: Path) -> None:
    (tmp_path / "pool.py").write_text(POOL)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        result = memory.retrieve("a full pool discards the connection put back", token_budget=5000)
        trails = [b.trail for b in result.beliefs]
        put_back = next(n for n, t in enumerate(trails) if "put_back" in t)
        head = next(n for n, t in enumerate(trails) if t.endswith("ConnectionPool L1-L16"))
        assert put_back < head
        assert "members" in result.beliefs[head].lanes
        nested = memory.retrieve("wait longer between failed attempts", token_budget=5000)
        assert not any("members" in b.lanes for b in nested.beliefs)  # a function stays


def test_the_warm_path_moves_the_same_heads(tmp_path: Path) -> None:
    (tmp_path / "pool.py").write_text(POOL)
    queries = ("a full pool discards the connection put back", "take a connection out")
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        cold = cold_then_warm(memory, queries)
    assert any("members" in dict(lanes) for found in cold for _, _, lanes in found)


def test_retrieval_with_the_rule_is_deterministic(tmp_path: Path) -> None:
    first, second = two_fresh_stores(
        tmp_path, "pool.py", POOL, ("a full pool discards the connection", "take out")
    )
    assert first == second


_FILLER = {f"x{n:02d}": f"x.py › f{n} L1-L2" for n in range(8)}


@settings(max_examples=200, deadline=None)
@given(
    order=st.permutations(_IDS + sorted(_FILLER)),
    steps=st.lists(st.integers(min_value=0, max_value=3), min_size=15, max_size=15),
)
def test_past_the_first_ranks_and_with_ties_the_result_is_in_the_pipelines_order(
    order: list[str], steps: list[int]
) -> None:
    # scores a grain apart or equal, so a moved head ties with what sits past rank 10
    ranked = _stepped(order, steps, 1e-9)
    out = as_scored(members_first(ranked, {**TRAILS, **_FILLER}, ROWS))
    assert out == sorted(out, key=lambda s: (-s.score, s.id))
    assert sorted(_order(out)) == sorted(_order(ranked))


_NEST_TRAILS, _NEST_ROWS = _nest("n_outer", "n_inner", "n_fetch")
_MEMBERS = {"head": ("put", "get"), "n_outer": ("n_inner", "n_fetch"), "n_inner": ("n_fetch",)}


@settings(max_examples=300, deadline=None)
@given(
    order=st.permutations(_IDS + sorted(_NEST_ROWS)),
    steps=st.lists(st.integers(min_value=0, max_value=2), min_size=10, max_size=10),
)
def test_every_class_head_moved_ends_below_all_its_members_nested_or_not(
    order: list[str], steps: list[int]
) -> None:
    ranked = _stepped(order, steps, 0.1)
    out = as_scored(members_first(ranked, {**TRAILS, **_NEST_TRAILS}, {**ROWS, **_NEST_ROWS}))
    assert out == sorted(out, key=lambda s: (-s.score, s.id))
    found = {s.id: s for s in out}
    before = {s.id: s.score for s in ranked}
    for head, members in _MEMBERS.items():
        if "members" in found[head].lanes:
            assert all(found[head].score < found[m].score for m in members)
        else:  # (it never scored as high as one of its members)
            assert all(before[head] < before[m] for m in members)
    for s in out:
        assert abs(sum(s.lanes.values()) - s.score) < 1e-9
