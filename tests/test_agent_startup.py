"""SessionStart's pick (credo.agent.startup): locks first, then the most useful current
beliefs by the documented formula, within the budget, fast at 10k beliefs."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.agent import journal
from credo.agent.startup import W_CORROBORATION, W_FEEDBACK, W_USE, session_start
from credo.errors import InvalidInputError
from credo.store.rows import NewBelief
from credo.surfaces.render import memory_block
from credo.tokens import belief_tokens, entry_text, estimate


def _use(memory: Memory, ids: list[str], event: str = "prompt") -> None:
    journal.log_injection(
        memory, event=event, session="s", prompt="p", belief_ids=ids, tokens=1, chars=4
    )


def test_locks_then_the_most_used_then_nothing_without_evidence(memory: Memory) -> None:
    lock = memory.remember("Always use pnpm, never npm", lock=True)
    often = memory.remember("Deploys go through ops/deploy.sh")
    once = memory.remember("Staging mirrors production")
    never = memory.remember("The logo is blue")
    _use(memory, [lock, often, once])
    _use(memory, [often])
    result = session_start(memory, token_budget=600)
    assert result.ids == [lock, often, once]
    assert never not in result.ids
    assert result.beliefs[0].locked and not result.beliefs[1].locked
    assert result.beliefs[1].lanes == {"used": 1.0}  # 2 uses at the prior's mean 1/2
    block = memory_block(result)  # each named by its short id
    assert block.index(lock[:8]) < block.index(often[:8]) < block.index(once[:8])


def test_session_start_picks_are_not_uses(memory: Memory) -> None:
    a, b = memory.remember("alpha one"), memory.remember("beta two")
    _use(memory, [b])
    for _ in range(5):
        _use(memory, [a], event="session_start")
    assert session_start(memory, token_budget=600).ids == [b]


def test_feedback_corroboration_and_harm(memory: Memory) -> None:
    used = memory.remember("used once explicitly")
    memory.feedback(used, "used")  # alpha 2: 2 * 1 * 2/3
    stated = memory.remember("stated twice")
    memory.remember("stated twice")  # one corroboration: 1 * 1/2
    harmful = memory.remember("injected but harmful")
    _use(memory, [harmful, harmful])
    _use(memory, [harmful])
    memory.feedback(harmful, "harmful")  # beta 2 > alpha 1: left out, however used
    result = session_start(memory, token_budget=600)
    assert result.ids == [used, stated]
    assert result.beliefs[0].score == pytest.approx(4 / 3)
    assert result.beliefs[1].lanes == {"corroborated": 0.5}


def test_a_passage_repeated_in_other_files_is_not_useful(memory: Memory, tmp_path: Path) -> None:
    # Ingest corroborates a passage with its copies in other files: in a code project the
    # most repeated were "def __init__(self) -> None" and friends, and SessionStart showed
    # them as the project's most useful beliefs before any use.
    from credo.knowledge.ingest import ingest_paths

    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text(
            f"class {name[0].upper()}:\n    def close(self) -> None:\n        pass\n"
        )
    ingest_paths(memory.store, [tmp_path], root=tmp_path)
    close = [b for b in memory.store.iter_beliefs() if b.content.startswith("def close")]
    assert [b.corroborations for b in close] == [2]
    assert session_start(memory, token_budget=600).ids == []
    stated = memory.remember("Close every client you open")
    memory.remember("Close every client you open")  # a statement again still counts
    assert session_start(memory, token_budget=600).ids == [stated]


def test_superseded_and_contested_beliefs_are_passed_over(memory: Memory) -> None:
    old = memory.remember("The cache is memcached")
    new = memory.remember("The cache is redis on port 6380")
    memory.relate(new, old, "SUPERSEDES")
    left = memory.remember("Tabs for indentation")
    right = memory.remember("Spaces for indentation")
    memory.relate(left, right, "CONTRADICTS")
    calm = memory.remember("Tests run with pytest")
    _use(memory, [old, left, right, calm])  # uses: old 3, left 3, new 2, right 1, calm 1
    _use(memory, [old, new, left])
    _use(memory, [old, new, left])
    result = session_start(memory, token_budget=600)
    assert result.ids == [new, calm]
    assert result.beliefs[0].replaces == (old,)
    assert f"[{new[:8]}; replaces {old[:8]}]" in memory_block(result)  # short ids
    assert set(result.superseded) == {old, left, right}
    memory.resolve(left, right)  # settled: left is current again, right is history
    assert session_start(memory, token_budget=600).ids == [left, new, calm]


def test_a_lock_superseded_by_a_live_belief_is_retired(memory: Memory) -> None:
    old = memory.remember("Release on Fridays", lock=True)
    new = memory.remember("Release on Tuesdays", lock=True)
    memory.relate(new, old, "SUPERSEDES")
    assert session_start(memory, token_budget=600).ids == [new]


def test_the_budget_holds_and_locks_beyond_it_are_named(memory: Memory) -> None:
    locks = [memory.remember(f"lock number {n} " + "x" * 60, lock=True) for n in range(6)]
    rest = [memory.remember(f"used belief {n} " + "y" * 40) for n in range(6)]
    _use(memory, rest)
    cost = belief_tokens(locks[0][:8], memory.get(locks[0]).content, True)  # its short id
    result = session_start(memory, token_budget=3 * cost)
    assert [b.id for b in result.beliefs] == locks[:3]  # the whole budget is the locks'
    assert result.locked_overflow == tuple(locks[3:])
    assert result.used_tokens <= result.token_budget
    assert set(result.dropped) == set(rest)
    assert "3 more locked beliefs did not fit" in memory_block(result)
    assert session_start(memory, token_budget=0).ids == []


@pytest.mark.parametrize("bad", [-1, 1.5, True, "600"])
def test_a_bad_budget_is_refused(memory: Memory, bad: object) -> None:
    with pytest.raises(InvalidInputError, match="token_budget"):
        session_start(memory, token_budget=bad)  # type: ignore[arg-type]


def test_an_empty_store_gives_an_empty_block(memory: Memory) -> None:
    result = session_start(memory, token_budget=600)
    assert result.beliefs == () and memory_block(result) == ""


# -- the ranking against an oracle over every belief ----------------------------------------


def _oracle(memory: Memory) -> list[str]:
    """Every live unlocked belief with alpha >= beta and a usefulness above 0, by the
    documented formula (in the order the SQL computes it), ties by id."""
    scored = []
    for b in memory.store.iter_beliefs():
        if b.deleted_at is not None or b.locked or b.alpha < b.beta:
            continue
        used = memory.store.injection_count(b.id)
        again = 0 if b.origin == "document" else b.corroborations
        signal = W_USE * used + W_FEEDBACK * (b.alpha - 1.0) + W_CORROBORATION * again
        if (score := signal * b.alpha / (b.alpha + b.beta)) > 0:
            scored.append((-score, b.id))
    return [i for _, i in sorted(scored)]


belief_specs = st.lists(
    st.tuples(
        st.booleans(),  # locked
        st.integers(0, 3),  # uses
        st.integers(0, 2),  # used feedback
        st.integers(0, 2),  # harmful feedback
        st.integers(0, 2),  # corroborations
        st.integers(0, 120),  # padding: varied costs
    ),
    min_size=1,
    max_size=8,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(specs=belief_specs, budget=st.integers(0, 400))
def test_ranking_and_pack_match_the_oracle(
    tmp_path: Path, specs: list[tuple[bool, int, int, int, int, int]], budget: int
) -> None:
    with Memory(":memory:", root=tmp_path) as memory:
        for n, (locked, uses, used, harmful, again, pad) in enumerate(specs):
            text = f"belief {n} " + "w" * pad
            bid = memory.remember(text, lock=locked)
            for _ in range(again):
                memory.remember(text)
            for _ in range(used):
                memory.feedback(bid, "used")
            for _ in range(harmful):
                memory.feedback(bid, "harmful")
            for _ in range(uses):
                _use(memory, [bid])
        expected = _oracle(memory)
        wide = session_start(memory, token_budget=100_000)
        assert [b.id for b in wide.beliefs if not b.locked] == expected
        result = session_start(memory, token_budget=budget)
        locked_used = sum(b.tokens for b in result.beliefs if b.locked)
        useful = [b for b in result.beliefs if not b.locked]
        # A prefix of the ranking, charged as rendered, within what the locks left.
        assert [b.id for b in useful] == expected[: len(useful)]
        assert list(result.dropped) == expected[len(useful) :]
        # The useful beliefs' lines are charged as one text (retrieval/place.py), each
        # naming its belief by its short id (store/short_ids.py).
        short = result.short_ids
        lines = "".join(entry_text(short.get(b.id, b.id), b.content, False) for b in useful)
        assert all(short[b.id] == b.id[:8] for b in useful)  # no two share a prefix here
        assert sum(b.tokens for b in useful) == estimate(lines) <= max(budget - locked_used, 0)
        assert result.used_tokens <= budget
        assert session_start(memory, token_budget=budget) == result  # deterministic


# -- speed ----------------------------------------------------------------------------------


def test_fast_at_ten_thousand_beliefs(tmp_path: Path) -> None:
    rng = random.Random(7)
    now = time.time()
    path = tmp_path / "big.db"
    with Memory(path, root=tmp_path) as memory:
        rows = [
            NewBelief(
                f"b{i:05d}",
                f"belief {i} " + "word " * (2 if i < 15 else rng.randint(5, 60)),
                f"h{i}",
                "factual",
                "document",
                i < 15,
                1.0 + (rng.random() < 0.05) * rng.randint(1, 4),
                1.0,
                None,
                now,
                now,
            )
            for i in range(10_000)
        ]
        with memory.store.transaction():
            memory.store.insert_beliefs(rows)
            for _ in range(5_000):
                ids = [f"b{rng.randrange(10_000):05d}" for _ in range(rng.randint(1, 12))]
                memory.store.insert_injection(now, "s", "prompt", None, ids, 1, 1, "")
    with Memory(path, root=tmp_path) as memory:
        # Its cost is measured by bench/hook_latency.py (the session-start hook), not here.
        result = session_start(memory, token_budget=600)
        assert len(result.beliefs) > 15
        assert session_start(memory, token_budget=600) == result


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=st.lists(
        st.tuples(
            st.sampled_from([1.0, 1.0, 1.0, 1.25, 2.0, 3.0, 0.5]),  # alpha
            st.sampled_from([1.0, 1.0, 2.0, 0.75]),  # beta
            st.integers(0, 5),  # times injected
            st.integers(0, 2),  # corroborations
            st.booleans(),  # locked
            st.booleans(),  # forgotten
            st.sampled_from(["import", "document"]),  # origin: a document's copies don't count
        ),
        max_size=30,
    ),
    limit=st.integers(1, 6),
)
def test_the_candidate_read_is_exact_under_a_small_limit(
    tmp_path: Path, rows: list[tuple[float, float, int, int, bool, bool, str]], limit: int
) -> None:
    """The SQL scores only the beliefs that can place (store/journal.py): its top ``limit``
    equals the oracle's over every belief, however many plain beliefs it skips."""
    with Memory(":memory:", root=tmp_path) as memory:
        store = memory.store
        with store.transaction():
            store.insert_beliefs(
                NewBelief(f"b{n:02d}", f"text {n}", f"h{n}", "note", o, lk, a, b, None, 1, 1)
                for n, (a, b, _, _, lk, _, o) in enumerate(rows)
            )
            for n, (_, _, times, again, _, gone, _) in enumerate(rows):
                for _ in range(times):
                    store.insert_injection(1.0, "s", "prompt", None, [f"b{n:02d}"], 1, 1, "")
                for _ in range(again):
                    store.add_corroboration(f"b{n:02d}", "api", None, 1.0)
                if gone:
                    store.set_deleted(f"b{n:02d}", 2.0, 2.0)
        got = store.useful_beliefs(
            use_weight=W_USE,
            feedback_weight=W_FEEDBACK,
            corroboration_weight=W_CORROBORATION,
            limit=limit,
        )
        assert [b.id for b, _ in got] == _oracle(memory)[:limit]
        assert all(times == store.injection_count(b.id) for b, times in got)


def test_both_backends_leave_a_document_s_copies_out(tmp_path: Path) -> None:
    """store/journal.py and store/postgres/ledger.py read usefulness by the same rule."""
    from tests.conftest import postgres_store

    origins = ["import", "document", "document", "user_stated"]
    with postgres_store() as url:
        picks = []
        for location in (str(tmp_path / "m.db"), url):
            with Memory(location, root=tmp_path) as memory:
                store = memory.store
                with store.transaction():
                    store.insert_beliefs(
                        NewBelief(
                            f"b{n:02d}", f"t {n}", f"h{n}", "note", o, False, 1, 1, None, 1, 1
                        )
                        for n, o in enumerate(origins)
                    )
                    for n, again in enumerate([1, 2, 0, 1]):
                        for _ in range(again):
                            store.add_corroboration(f"b{n:02d}", "docs/x.md", None, 1.0)
                    store.insert_injection(1.0, "s", "prompt", None, ["b02"], 1, 1, "")
                ranked = store.useful_beliefs(
                    use_weight=W_USE,
                    feedback_weight=W_FEEDBACK,
                    corroboration_weight=W_CORROBORATION,
                    limit=10,
                )
                picks.append([(b.id, times) for b, times in ranked])
    assert picks[0] == picks[1] == [("b00", 0), ("b02", 1), ("b03", 0)]
