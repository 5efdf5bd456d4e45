"""SessionStart gives the person's own live statements (credo.agent.startup): a rule,
preference or correction told to the memory is in the next session's block, newest first,
after the locks, within a share of the budget, and never crowds out the locks or, beyond
its share, the used beliefs; superseded and contested ones are passed over, but for the
newest side of a dispute among the person's own statements (their latest word), marked."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.agent import journal
from credo.agent.startup import STATED_SHARE, session_start
from credo.store.rows import NewBelief
from credo.surfaces.render import memory_block
from credo.tokens import estimate

RULE = "We always run go test with -race here"


def _use(memory: Memory, ids: list[str]) -> None:
    journal.log_injection(
        memory, event="prompt", session="s", prompt="p", belief_ids=ids, tokens=1, chars=4
    )


def _said(memory: Memory, rows: list[tuple[str, str, str, float]]) -> None:
    """(id, text, kind, created_at) stated by the person (origin by kind, as capture)."""
    origin = {"correction": "user_corrected"}
    with memory.store.transaction():
        memory.store.insert_beliefs(
            NewBelief(
                i, text, f"h-{i}", kind, origin.get(kind, "user_stated"), False, 1, 1, None, at, at
            )
            for i, text, kind, at in rows
        )


def test_a_rule_never_injected_is_there_after_the_locks(memory: Memory) -> None:
    lock = memory.remember("Always use pnpm, never npm", lock=True)
    used = memory.remember("Deploys go through ops/deploy.sh")
    memory.remember("The logo is blue")  # a plain remember (factual): no evidence, no place
    _use(memory, [used])
    _said(
        memory,
        [("rule", RULE, "requirement", 1.0), ("pref", "Prefer short names", "preference", 2.0)],
    )
    result = session_start(memory, token_budget=600)
    assert result.ids == [lock, "pref", "rule", used]  # the newest statement first
    assert result.beliefs[1].lanes == {"stated": 1.0} and result.beliefs[1].score == 0
    assert RULE in memory_block(result)


def test_only_statements_on_a_fresh_store(memory: Memory) -> None:
    _said(memory, [("fix", "No, the port is 8080 not 80", "correction", 1.0)])
    assert session_start(memory, token_budget=600).ids == ["fix"]


def test_superseded_contested_harmful_and_forgotten_statements_are_left_out(
    memory: Memory,
) -> None:
    _said(
        memory,
        [
            ("old", "Use tabs", "preference", 1.0),
            ("new", "Use four spaces, not tabs", "correction", 2.0),
            ("left", "Releases on Friday", "requirement", 3.0),
            ("right", "Never release on Friday", "requirement", 4.0),
            ("bad", "Always skip the linters", "requirement", 5.0),
            ("gone", "Ship from the laptop", "requirement", 6.0),
        ],
    )
    memory.relate("new", "old", "SUPERSEDES")
    memory.relate("left", "right", "CONTRADICTS")
    memory.feedback("bad", "harmful")
    memory.forget("gone")
    result = session_start(memory, token_budget=600)
    # Both sides of the dispute are the person's: their newest word is shown, marked.
    assert result.ids == ["right", "new"] and result.beliefs[1].replaces == ("old",)
    assert result.beliefs[0].conflicts == ("left",) and "left" in result.superseded
    memory.resolve("right", "left")  # settled: the winner is shown, the loser is history
    settled = session_start(memory, token_budget=600)
    assert settled.ids == ["right", "new"] and settled.beliefs[0].conflicts == ()


def test_statements_take_half_while_used_beliefs_wait_and_never_the_locks(
    memory: Memory,
) -> None:
    lock = memory.remember("Always use pnpm, never npm", lock=True)
    used = [memory.remember(f"Used belief number {n} about the deploy") for n in range(10)]
    _use(memory, used)
    _said(
        memory, [(f"s{n:02d}", f"Rule {n}: " + "word " * 12, "requirement", n) for n in range(40)]
    )
    result = session_start(memory, token_budget=300)
    assert result.ids[0] == lock and result.used_tokens <= 300
    said = [b for b in result.beliefs if "stated" in b.lanes]
    assert [b.id for b in said] == [f"s{n:02d}" for n in range(39, 39 - len(said), -1)]
    start = min(result.ids.index(i) for i in used)
    first = result.beliefs[1:start]  # the share, before the used ones
    assert first and all("stated" in b.lanes for b in first)
    assert sum(b.tokens for b in first) <= int((300 - result.beliefs[0].tokens) * STATED_SHARE)
    assert set(used) <= set(result.ids)  # the used beliefs all placed; more statements after
    assert len(said) > len(first)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    specs=st.lists(
        st.tuples(
            st.sampled_from(["requirement", "preference", "correction", "factual"]),
            st.integers(0, 2),  # uses
            st.integers(0, 80),  # padding
            st.integers(0, 5),  # created_at: ties break by id
        ),
        min_size=1,
        max_size=8,
    ),
    budget=st.integers(0, 300),
)
def test_statements_first_newest_first_within_the_budget(
    tmp_path: Path, specs: list[tuple[str, int, int, int]], budget: int
) -> None:
    with Memory(":memory:", root=tmp_path) as memory:
        _said(
            memory,
            [
                (f"b{n}", f"belief {n} " + "w" * pad, kind, at)
                for n, (kind, _, pad, at) in enumerate(specs)
            ],
        )
        for n, (_, uses, _, _) in enumerate(specs):
            for _ in range(uses):
                _use(memory, [f"b{n}"])
        stated = sorted(
            (-at, f"b{n}") for n, (kind, _, _, at) in enumerate(specs) if kind != "factual"
        )
        newest = [i for _, i in stated]
        wide = session_start(memory, token_budget=100_000)
        assert [b.id for b in wide.beliefs][: len(newest)] == newest  # all of them, first
        useful = {f"b{n}" for n, (_, uses, _, _) in enumerate(specs) if uses}
        assert set(wide.ids) == set(newest) | useful
        result = session_start(memory, token_budget=budget)
        assert result.used_tokens <= budget
        # The statements without use place by the share or after the used beliefs: newest
        # first either way (a used one may also place by its usefulness).
        unused = [i for i in result.ids if i in newest and i not in useful]
        assert unused == [i for i in newest if i in unused]
        if newest and budget >= 100:  # room for a statement of the share, however long
            assert result.ids[0] == newest[0]
        assert session_start(memory, token_budget=budget) == result  # deterministic


def test_both_backends_read_the_same_statements(tmp_path: Path) -> None:
    """store/journal.py and store/postgres/ledger.py read the statements by the same rule."""
    from tests.conftest import postgres_store

    rows = [
        ("a", "Use tabs", "preference", 2.0),
        ("b", "Never force-push", "requirement", 2.0),  # a tie on time: by id
        ("c", "No, port 8080", "correction", 3.0),
        ("d", "The logo is blue", "factual", 4.0),
        ("e", "Skip the linters", "requirement", 1.0),
    ]
    with postgres_store() as url:
        picks = []
        for location in (str(tmp_path / "m.db"), url):
            with Memory(location, root=tmp_path) as memory:
                _said(memory, rows)
                memory.feedback("e", "harmful")
                _use(memory, ["a", "a"])
                _use(memory, ["a"])
                got = memory.store.user_statements(limit=2)
                picks.append([(b.id, b.kind, times) for b, times in got])
    assert picks[0] == picks[1] == [("c", "correction", 0), ("a", "preference", 2)]


def test_the_statements_are_read_through_their_own_index(memory: Memory) -> None:
    """SessionStart runs every session: the read must not scan every belief (a 1M store)
    nor sort them; the partial index holds the statements in the order asked."""
    from credo.store.journal import JournalTable

    plan = [
        str(row[-1])
        for row in memory.store.conn.execute("EXPLAIN QUERY PLAN " + JournalTable._STATED, (5,))
    ]
    assert any("USING INDEX beliefs_user_statements" in step for step in plan), plan
    assert not any("TEMP B-TREE" in step for step in plan), plan


DECISION = (
    "Decision: we build every regex through RegexBuilder with size_limit(1 << 20) so "
    "untrusted patterns cannot use 10 MB each"
)
CORRECTION = (
    "Correction: the default DFA cache limit is 2 MB per thread, not 10 MB; 10 MB is the "
    "compiled program size_limit"
)
CHANGED = (
    "Decision changed: we no longer lower size_limit; we keep the 10 MB default and reject "
    "patterns longer than 1000 characters before compiling"
)


def test_the_latest_word_of_a_dispute_among_the_persons_statements_is_shown(
    memory: Memory,
) -> None:
    """probe81: a decision, a correction and a change of decision; capture marks the change
    in conflict with both, and SessionStart showed nothing of the person's words."""
    decision = memory.remember(DECISION, kind="requirement")
    correction = memory.remember(CORRECTION, kind="correction")
    changed = memory.remember(CHANGED, kind="correction")
    against = {e.dst for e in memory.edges(changed) if e.src == changed and e.type == "CONTRADICTS"}
    assert against == {decision, correction}  # capture's own marks (the probe's store)
    result = session_start(memory, token_budget=600)
    assert result.ids == [changed]
    assert set(result.beliefs[0].conflicts) == {decision, correction}
    assert set(result.superseded) == {decision, correction}
    block = memory_block(result)
    assert CHANGED in block and DECISION not in block and CORRECTION not in block
    assert "; conflicts with " in block
    # Charged as rendered, the mark with it, each id in its short form.
    line = next(x for x in block.splitlines() if CHANGED in x)
    assert line.startswith(f"[{changed[:8]}; conflicts with ")
    assert estimate(line + "\n") == result.beliefs[0].tokens == result.used_tokens
    assert session_start(memory, token_budget=600) == result  # deterministic


def test_a_dispute_with_a_document_passage_keeps_both_sides_out(memory: Memory) -> None:
    _said(memory, [("rule", "Never release on Friday", "requirement", 2.0)])
    with memory.store.transaction():
        memory.store.insert_beliefs(
            [
                NewBelief(
                    "doc",
                    "Releases on Friday",
                    "h-doc",
                    "factual",
                    "document",
                    False,
                    1,
                    1,
                    None,
                    3.0,
                    3.0,
                )
            ]
        )
    fact = memory.remember("We release whenever main is green")  # a plain remember: factual
    _said(memory, [("pref", "Release from the CI only", "preference", 4.0)])
    _use(memory, ["doc", fact])
    memory.relate("rule", "doc", "CONTRADICTS")
    memory.relate("pref", fact, "CONTRADICTS")
    result = session_start(memory, token_budget=600)
    assert result.ids == []  # neither side is shown: not all of them are the person's
    assert set(result.superseded) == {"rule", "doc", "pref", fact}


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    ats=st.lists(st.integers(0, 4), min_size=2, max_size=6),
    pairs=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=8),
)
def test_a_statement_is_shown_when_newer_than_every_side_it_disputes(
    tmp_path: Path, ats: list[int], pairs: list[tuple[int, int]]
) -> None:
    with Memory(":memory:", root=tmp_path) as memory:
        _said(memory, [(f"s{n}", f"statement {n}", "requirement", at) for n, at in enumerate(ats)])
        against: dict[str, set[str]] = {}
        for a, b in pairs:
            x, y = f"s{a % len(ats)}", f"s{b % len(ats)}"
            if x != y and y not in against.get(x, ()):
                memory.relate(x, y, "CONTRADICTS")
                against.setdefault(x, set()).add(y)
                against.setdefault(y, set()).add(x)
        newest = [i for _, i in sorted((-at, f"s{n}") for n, at in enumerate(ats))]
        rank = {i: n for n, i in enumerate(newest)}
        latest = [i for i in newest if all(rank[o] > rank[i] for o in against.get(i, ()))]
        result = session_start(memory, token_budget=100_000)
        assert result.ids == latest
        assert all(set(b.conflicts) == against.get(b.id, set()) for b in result.beliefs)
        assert session_start(memory, token_budget=100_000) == result
