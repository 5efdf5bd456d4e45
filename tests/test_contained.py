"""In code, a definition's head below its own member yields (retrieval/contained.py), on
both backends through ``Memory.retrieve``, and as a pure function."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.contained import AGAIN, heads_after_members
from credo.retrieval.rank import Scored, as_scored

BOTH_BACKENDS = True

POOL = '''"""Connection pools."""


class Pool:
    """A pool of connections: it hands out a connection and takes the connection back.

    The pool keeps idle connections for reuse and opens a new connection when none is idle.
    """

    def __init__(self, size):
        self.size = size
        self.idle = []

    def acquire(self):
        """Hand out an idle connection from the pool, or open a new connection."""
        if self.idle:
            return self.idle.pop()
        return open_connection()

    def release(self, conn):
        """Take a connection back into the pool."""
        self.idle.append(conn)


def open_connection():
    """Open a new connection to the server."""
    return object()


def drain(pool):
    """Close every idle connection a pool holds and empty the pool."""
    for conn in pool.idle:
        conn.close()
    pool.idle.clear()
'''
QUESTION = "How does the pool hand out an idle connection, and how are idle connections closed?"


def _section(trail: str) -> str:
    return trail.rsplit(" L", 1)[0]


def test_a_class_head_below_its_member_goes_below_another_definition(
    memory: Memory, tmp_path: Path
) -> None:
    path = tmp_path / "pool.py"
    path.write_text(POOL, encoding="utf-8")
    memory.ingest(path)
    result = memory.retrieve(QUESTION, token_budget=100_000)
    shown = [_section(b.trail) for b in result.beliefs]
    # Before: the head (just below its members, members.py) came before open_connection.
    assert shown.index("pool.py › open_connection") < shown.index("pool.py › Pool")
    assert shown.index("pool.py › Pool › acquire") < shown.index("pool.py › Pool")
    head = result.beliefs[shown.index("pool.py › Pool")]
    assert head.lanes["contained"] == pytest.approx(-head.score * (1 / AGAIN - 1), abs=1e-6)
    assert sum(head.lanes.values()) == pytest.approx(head.score, abs=1e-6)
    assert all("contained" not in b.lanes for b in result.beliefs if b is not head)
    assert memory.retrieve(QUESTION, token_budget=100_000) == result  # deterministic


def test_a_head_below_its_member_yields_and_nothing_else_does() -> None:
    ranked = [Scored("m", 1.0, {"bm25f": 1.0}), Scored("h", 0.9, {"bm25f": 0.9}),
              Scored("f", 0.6, {"bm25f": 0.6}), Scored("d", 0.5, {"bm25f": 0.5}),
              Scored("mod", 0.4, {"bm25f": 0.4})]  # fmt: skip
    trails = {
        "m": "lib/c.js › Container › walkRules L426-L448",
        "h": "lib/c.js › Container L34-L449",
        "f": "lib/other.js › Container L1-L9",  # the same name in another file: not inside
        "d": "docs/c.md › Container L1-L5",  # documentation never yields
        "mod": "lib/c.js L1-L20",  # module-level code never yields
    }
    out = as_scored(heads_after_members(ranked, trails))
    assert [s.id for s in out] == ["m", "f", "d", "h", "mod"]
    assert out[3].score == pytest.approx(0.45)
    assert out[3].lanes == {"bm25f": 0.9, "contained": pytest.approx(-0.45)}


def test_a_head_above_its_member_or_without_trails_stays() -> None:
    ranked = [Scored("h", 1.0, {"bm25f": 1.0}), Scored("m", 0.9, {"bm25f": 0.9})]
    assert heads_after_members(ranked, {}) is ranked  # notes
    trails = {"h": "a.py › A L1-L30", "m": "a.py › A › run L5-L9"}
    assert heads_after_members(ranked, trails) is ranked  # the head first: it stays
    # a documentation parent below its child stays (spread.py: parents are often asked)
    docs = [Scored("c", 1.0, {"bm25f": 1.0}), Scored("p", 0.9, {"bm25f": 0.9})]
    assert heads_after_members(docs, {"c": "g.md › A › B L5-L9", "p": "g.md › A L1-L4"}) is docs


_places = st.sampled_from(
    [("a.py",), ("a.py", "A"), ("a.py", "A", "run"), ("a.py", "A", "run", "inner"),
     ("b.py", "A"), ("g.md", "A"), ("g.md", "A", "B")]
)  # fmt: skip


@given(st.lists(st.tuples(_places, st.floats(0.01, 3.0)), max_size=16))
def test_only_heads_below_what_they_hold_yield_and_the_parts_add_up(
    rows: list[tuple[tuple[str, ...], float]],
) -> None:
    ids = [f"b{i:02}" for i in range(len(rows))]
    ranked = [
        Scored(i, round(s, 9), {"bm25f": round(s, 9)}) for i, (_, s) in zip(ids, rows, strict=True)
    ]
    ranked.sort(key=lambda s: (-s.score, s.id))
    place = {i: p for i, (p, _) in zip(ids, rows, strict=True)}
    trails = {i: " › ".join(p) + f" L{n}-L{n + 1}" for n, (i, p) in enumerate(place.items())}
    out = as_scored(heads_after_members(ranked, trails))
    assert out == heads_after_members(ranked, trails)  # deterministic
    assert sorted(s.id for s in out) == sorted(ids)
    assert [s.score for s in out] == sorted((s.score for s in out), reverse=True)
    before = {s.id: s for s in ranked}
    for at, s in enumerate(ranked):
        p = place[s.id]
        holds = any(len(place[o.id]) > len(p) and place[o.id][: len(p)] == p for o in ranked[:at])
        yields = holds and len(p) >= 2 and not p[0].endswith(".md")
        got = next(x for x in out if x.id == s.id)
        if yields:
            assert got.score == pytest.approx(before[s.id].score * AGAIN)
            assert sum(got.lanes.values()) == pytest.approx(got.score)
        else:
            assert got == before[s.id]


def test_a_type_named_as_its_methods_outer_part_yields_though_it_does_not_hold_them() -> None:
    """The rule reads names, not lines (measured: asking that the head's lines hold the
    member's lost urfave-cli-c12, semver-c01, semver-m01 and chi-c13, day-review68)."""
    ranked = [Scored("serve", 1.6, {"bm25f": 1.6}), Scored("type", 0.2, {"bm25f": 0.2}),
              Scored("close", 0.1, {"bm25f": 0.1})]  # fmt: skip
    trails = {
        "serve": "server.go › Server › Serve L8-L11",
        "type": "server.go › Server L3-L6",  # the struct: fields, its doc comment
        "close": "server.go › Server › Close L13-L16",
    }
    out = as_scored(heads_after_members(ranked, trails))
    assert [s.id for s in out] == ["serve", "type", "close"]
    assert out[1].score == pytest.approx(0.1) and out[1].lanes["contained"] == pytest.approx(-0.1)


def test_a_configuration_table_below_its_own_key_stays() -> None:
    """Before (day-mf68's first form): a workflow's job below one of its steps yielded, and
    config_questions' black-c02 lost its answer from the first ten."""
    ranked = [Scored("k", 1.0, {"bm25f": 1.0}), Scored("t", 0.9, {"bm25f": 0.9})]
    trails = {
        "k": ".github/workflows/test.yml › jobs › main › steps L40-L45",
        "t": ".github/workflows/test.yml › jobs › main L32-L45",
    }
    assert heads_after_members(ranked, trails) is ranked
