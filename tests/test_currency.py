"""Beliefs change (SYSTEM.md § Beliefs change; issue 15): supersession, contradiction and
duplicates shape what retrieval packs, through the API, with every bad input defined."""

from __future__ import annotations

import gc
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.errors import ConflictError, InvalidInputError, LockedError, NotFoundError
from credo.knowledge import dedup
from credo.retrieval.compress import SHORT_CHARS, Known
from credo.retrieval.currency import TruthGraph, resolve, resolve_lazy
from credo.retrieval.rank import ID, Scored, Weights, as_scored
from credo.retrieval.standing import GroupLines, Marks, picked
from credo.store.short_ids import Shown
from credo.store.truth import TruthFacts
from credo.tokens import entry_text, estimate, marks
from tests import currency_reference as reference

ROW = ("text", 1.0, 1.0, None, 0.0)


def fetch_from(edges: Iterable[tuple[str, str, str]], locked: Iterable[str] = ()):
    """A ``Fetch`` over a fixed set of truth edges between live beliefs."""
    by_id: dict[str, list[tuple[str, str, str]]] = {}
    for edge in edges:
        by_id.setdefault(edge[0], []).append(edge)
        by_id.setdefault(edge[1], []).append(edge)
    locks = frozenset(locked)

    def fetch(ids: Iterable[str]) -> TruthFacts:
        found = {i: tuple(sorted(by_id[i])) for i in ids if i in by_id}
        far = {e for i, got in found.items() for edge in got for e in edge[:2] if e != i}
        return found, {e: ROW for e in far}, frozenset(far & locks)

    return fetch


def scored(*pairs: tuple[str, float]) -> list[Scored]:
    return [Scored(i, s, {"bm25f": s}) for i, s in pairs]


def run(ranked: list[Scored], edges, locks=(), locked=(), **kw):
    rows = {s.id: ROW for s in ranked}
    graph = TruthGraph(fetch_from(edges, locked))
    return resolve(ranked, rows, list(locks), graph, weights=Weights(), **kw)


# -- the pure rules ---------------------------------------------------------------------------
def test_no_truth_links_change_nothing() -> None:
    ranked = scored(("a", 1.0), ("b", 0.5))
    assert run(ranked, [("x", "y", "SUPERSEDES")]).ranked == ranked


def test_a_superseded_candidate_gives_its_place_to_its_successor() -> None:
    state = run(scored(("old", 1.0), ("x", 0.8)), [("new", "old", "SUPERSEDES")])
    assert [s.id for s in as_scored(state.ranked)] == ["new", "x"]
    new = as_scored(state.ranked)[0]
    assert new.score == 1.0 and new.lanes == {"supersedes": 1.0}
    assert state.superseded == ("old",)
    assert state.standing["new"][0] == ("old",)
    assert state.rows["new"] == ROW


def test_a_ranked_successor_is_raised_to_its_predecessors_score() -> None:
    state = run(scored(("old", 1.0), ("new", 0.6)), [("new", "old", "SUPERSEDES")])
    assert [(s.id, s.score) for s in as_scored(state.ranked)] == [("new", 1.0)]
    assert as_scored(state.ranked)[0].lanes == {"bm25f": 0.6, "supersedes": 0.4}


def test_chains_resolve_to_the_newest_live_belief() -> None:
    edges = [("b", "a", "SUPERSEDES"), ("c", "b", "SUPERSEDES")]
    state = run(scored(("a", 1.0)), edges)
    assert [s.id for s in as_scored(state.ranked)] == ["c"]
    assert state.standing["c"][0] == ("b",)  # replaces what it hides directly


def test_two_successors_both_stand_in() -> None:
    edges = [("b", "a", "SUPERSEDES"), ("c", "a", "SUPERSEDES")]
    assert [s.id for s in as_scored(run(scored(("a", 1.0)), edges).ranked)] == ["b", "c"]


def test_a_legacy_cycle_hides_nobody() -> None:
    """Written before the rule (or by hand): every belief on it stays current."""
    edges = [("a", "b", "SUPERSEDES"), ("b", "a", "SUPERSEDES")]
    state = run(scored(("a", 1.0), ("b", 0.5)), edges)
    assert {s.id for s in as_scored(state.ranked)} == {"a", "b"} and state.superseded == ()
    # ...until something outside supersedes a member
    state = run(scored(("a", 1.0), ("b", 0.5)), [*edges, ("c", "a", "SUPERSEDES")])
    assert "a" in state.superseded and "c" in {s.id for s in as_scored(state.ranked)}


def test_history_keeps_the_superseded_after_their_successors() -> None:
    state = run(scored(("old", 1.0)), [("new", "old", "SUPERSEDES")], include_superseded=True)
    assert [s.id for s in as_scored(state.ranked)] == ["new", "old"]
    assert state.standing["old"][2] == ("new",) and state.superseded == ()


def test_a_locked_successor_stays_in_l0() -> None:
    state = run(scored(("old", 1.0)), [("L", "old", "SUPERSEDES")], locks=["L"], locked=["L"])
    assert state.ranked == [] and state.superseded == ("old",)
    assert state.standing["L"][0] == ("old",)


def test_a_superseded_lock_is_retired() -> None:
    state = run([], [("new", "L", "SUPERSEDES")], locks=["L"], locked=["L"])
    assert state.retired_locks == {"L"}


def test_contradicting_beliefs_form_one_group_at_the_best_place() -> None:
    state = run(scored(("a", 1.0), ("x", 0.8), ("b", 0.3)), [("a", "b", "CONTRADICTS")])
    assert [(s.id, s.score) for s in as_scored(state.ranked)] == [
        ("a", 1.0),
        ("b", 1.0),
        ("x", 0.8),
    ]
    assert state.groups == (("a", "b"),)
    assert state.standing["a"][1] == ("b",) and state.standing["b"][1] == ("a",)
    assert as_scored(state.ranked)[1].lanes == {"bm25f": 0.3, "contradicts": 0.7}


def test_a_conflict_is_brought_along_but_brings_no_other() -> None:
    edges = [("a", "p", "CONTRADICTS"), ("p", "q", "CONTRADICTS")]
    state = run(scored(("a", 1.0)), edges)
    assert [s.id for s in as_scored(state.ranked)] == ["a", "p"]
    assert state.brought == {"p"} and state.standing["p"][1] == ("a",)


def test_a_resolved_or_superseded_partner_is_no_conflict() -> None:
    resolved = [("a", "b", "CONTRADICTS"), ("a", "b", "RESOLVES")]
    assert run(scored(("a", 1.0)), resolved).groups == ()
    replaced = [("a", "b", "CONTRADICTS"), ("c", "b", "SUPERSEDES")]
    state = run(scored(("a", 1.0)), replaced)
    assert state.groups == () and [s.id for s in as_scored(state.ranked)] == ["a"]


def test_a_lock_outranks_what_contradicts_it() -> None:
    state = run(scored(("x", 1.0)), [("x", "L", "CONTRADICTS")], locks=["L"], locked=["L"])
    assert [s.id for s in as_scored(state.ranked)] == ["x"] and state.groups == ()
    assert state.standing["x"][1] == ("L",) and "L" not in state.standing


def test_two_locks_in_conflict_mark_each_other() -> None:
    state = run([], [("L1", "L2", "CONTRADICTS")], locks=["L1", "L2"], locked=["L1", "L2"])
    assert state.standing["L1"][1] == ("L2",) and state.standing["L2"][1] == ("L1",)


def test_graph_reach_and_heads() -> None:
    graph = TruthGraph(fetch_from([("b", "a", "SUPERSEDES"), ("c", "b", "SUPERSEDES")]))
    graph.close_upward(["a"])
    assert graph.reach("a") == {"b", "c"} and graph.heads("a") == ("c",)
    assert graph.hides("c") == ("b",) and not graph.current("b")


def test_marks_are_short_and_capped() -> None:
    assert marks() == ""
    assert marks(("a",), ("b", "c")) == "; replaces a; conflicts with b, c"
    assert marks((), (), tuple("abcde")) == "; superseded by a, b, c, +2 more"


# -- through Memory: supersession -------------------------------------------------------------
@pytest.fixture
def m(tmp_path: Path):
    with Memory(":memory:", root=tmp_path) as memory:
        yield memory


def deploy(m: Memory) -> tuple[str, str]:
    old = m.remember("We deploy with Capistrano to the staging servers", id="old")
    new = m.remember("We deploy with Kamal to the staging servers since March", id="new")
    return old, new


@pytest.mark.parametrize("clustering", [True, False])
def test_the_issue_scenario(m: Memory, clustering: bool) -> None:
    old, new = deploy(m)
    before = m.retrieve("how do we deploy to staging", use_intentional_clustering=clustering)
    assert before.ids[0] == old  # the problem issue 15 reports
    m.relate(new, old, "SUPERSEDES")
    after = m.retrieve("how do we deploy to staging", use_intentional_clustering=clustering)
    assert after.ids == [new] and after.superseded == (old,)
    assert after.beliefs[0].replaces == (old,) and after.beliefs[0].score == before.beliefs[0].score
    history = m.retrieve(
        "how do we deploy to staging",
        use_intentional_clustering=clustering,
        include_superseded=True,
    )
    assert history.ids == [new, old] and history.beliefs[1].superseded_by == (new,)


def test_a_retrieve_in_dispute_leaves_no_garbage_for_the_cycle_collector(m: Memory) -> None:
    """A query whose groups are kept aside frees what it made as it returns: no reference
    cycle (a ``Marks`` holding a method bound to itself was one), which the server, holding
    the collector off while it answers, would pile up between collections."""
    for n in range(6):
        a = m.remember(f"The cache for service {n} lives in Redis", id=f"a{n}")
        b = m.remember(f"Invoices for region {n} are rounded per line", id=f"b{n}")
        m.relate(a, b, "CONTRADICTS")
    m.retrieve("where does the cache live")  # (the truth graph and per-version lines made)
    gc.collect()
    gc.disable()
    try:
        result = m.retrieve("where does the cache live")
        assert "b0" in result.ids and result.beliefs[0].conflicts  # (brought along, aside)
        del result
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_forgetting_the_successor_makes_the_old_belief_current_again(m: Memory) -> None:
    old, new = deploy(m)
    m.relate(new, old, "SUPERSEDES")
    m.forget(new)
    assert m.retrieve("deploy staging").ids == [old]
    m.remember("We deploy with Kamal to the staging servers since March")  # revives it
    assert m.retrieve("deploy staging").ids == [new]
    m.forget(new, hard=True)
    assert m.retrieve("deploy staging").ids == [old]
    assert m.get(old).deleted_at is None  # nothing lost


def test_a_forgotten_link_breaks_the_chain(m: Memory) -> None:
    """Only live beliefs and their edges count: with the middle of a chain forgotten, its
    ends no longer touch, as after a hard forget."""
    a = m.remember("Deploy tool is Capistrano", id="a")
    b = m.remember("Deploy tool is Kamal", id="b")
    c = m.remember("Deploy tool is Kamal 2", id="c")
    m.relate(b, a, "SUPERSEDES")
    m.relate(c, b, "SUPERSEDES")
    assert m.retrieve("deploy tool").ids == [c]
    m.forget(c)
    assert m.retrieve("deploy tool").ids == [b]
    m.remember("Deploy tool is Kamal 2")
    m.forget(b)
    assert sorted(m.retrieve("deploy tool").ids) == [a, c]


def test_superseding_a_superseded_belief_is_allowed(m: Memory) -> None:
    a = m.remember("Port is 8080", id="a")
    b = m.remember("Port is 8081", id="b")
    c = m.remember("Port is 9090", id="c")
    m.relate(b, a, "SUPERSEDES")
    m.relate(c, a, "SUPERSEDES")  # a tree: both successors are current
    assert sorted(m.retrieve("port").ids) == [b, c]
    m.relate(c, b, "SUPERSEDES")  # and now a chain: c is the newest
    assert m.retrieve("port").ids == [c]


def test_bad_supersession_is_refused_and_loses_nothing(m: Memory) -> None:
    a = m.remember("Port is 8080", id="a")
    b = m.remember("Port is 8081", id="b")
    c = m.remember("Port is 9090", id="c")
    with pytest.raises(InvalidInputError, match="cannot supersede itself"):
        m.relate(a, a, "SUPERSEDES")
    m.relate(b, a, "SUPERSEDES")
    with pytest.raises(InvalidInputError, match="would close a cycle"):
        m.relate(a, b, "SUPERSEDES")
    m.relate(c, b, "SUPERSEDES")
    m.forget(b)  # a forgotten belief still counts: reviving it would bring the cycle back
    with pytest.raises(InvalidInputError, match="would close a cycle"):
        m.relate(a, c, "SUPERSEDES")
    with pytest.raises(NotFoundError, match="no belief with id 'nope'"):
        m.relate("nope", a, "SUPERSEDES")
    with pytest.raises(NotFoundError, match="forgotten"):
        m.relate(a, b, "CONTRADICTS")
    assert m.stats().beliefs == 2 and m.stats().deleted == 1
    assert m.stats().edges_by_type == {"SUPERSEDES": 2}


def test_a_cycle_in_an_import_is_refused_with_its_line(m: Memory) -> None:
    m.remember("Port is 8080", id="a")
    m.remember("Port is 8081", id="b")
    m.relate("b", "a", "SUPERSEDES")
    rows = [
        {"kind": "belief", "id": "c", "content": "Port is 9090"},
        {"kind": "edge", "src": "c", "dst": "b", "type": "SUPERSEDES"},
        {"kind": "edge", "src": "a", "dst": "c", "type": "SUPERSEDES"},
    ]
    with pytest.raises(InvalidInputError, match=r":3: a SUPERSEDES c would close a cycle"):
        m.import_records(rows)
    assert m.stats().beliefs == 2  # nothing imported


def test_a_legacy_cycle_in_the_store_loses_nothing(m: Memory) -> None:
    a = m.remember("Port is 8080", id="a")
    b = m.remember("Port is 8081", id="b")
    m.relate(b, a, "SUPERSEDES")
    with m.store.transaction():  # as an older credo could have written it
        m.store.conn.execute(
            "INSERT INTO edges(src, dst, type, weight, created_at) "
            "VALUES ('a', 'b', 'SUPERSEDES', 0, 0)"
        )
    assert sorted(m.retrieve("port").ids) == [a, b]
    assert m.history(a).current == ("a", "b")


def test_a_lock_is_retired_only_by_the_user(m: Memory) -> None:
    rule = m.remember("Never deploy on Fridays", id="rule", lock=True)
    loose = m.remember("Deploy any day of the week", id="loose")
    with pytest.raises(LockedError, match="only the user can retire a lock") as caught:
        m.relate(loose, rule, "SUPERSEDES")
    assert "credo relate loose rule SUPERSEDES --force" in str(caught.value)
    assert m.retrieve("deploy").ids[0] == rule
    m.relate(loose, rule, "SUPERSEDES", force=True)
    result = m.retrieve("deploy")
    assert result.ids == [loose] and result.beliefs[0].replaces == (rule,)
    history = m.retrieve("deploy", include_superseded=True)
    assert history.beliefs[0].id == rule and history.beliefs[0].superseded_by == (loose,)


def test_a_locked_successor_needs_no_force(m: Memory) -> None:
    old = m.remember("Never deploy on Fridays", id="old", lock=True)
    new = m.remember("Never deploy on Fridays or Mondays", id="new", lock=True)
    m.relate(new, old, "SUPERSEDES")
    result = m.retrieve("deploy")
    assert result.ids == [new] and result.beliefs[0].replaces == (old,)


# -- through Memory: contradiction --------------------------------------------------------------
@pytest.mark.parametrize("clustering", [True, False])
def test_contradicting_beliefs_are_packed_together(m: Memory, clustering: bool) -> None:
    kamal = m.remember("We deploy with Kamal", id="kamal")
    cap = m.remember("Capistrano is how releases go out", id="cap")
    for n in range(8):
        m.remember(f"Kamal note {n} about deploy hooks and kamal secrets", id=f"n{n}")
    m.relate(cap, kamal, "CONTRADICTS")
    result = m.retrieve("kamal deploy", use_intentional_clustering=clustering)
    assert cap in result.ids  # brought along, though it shares no word with the query
    # Side by side, the newer word that disputes the other first (conflict76: ``cap`` is the
    # edge's source, told after ``kamal``), though ``kamal`` brought it along.
    at = result.ids.index(cap)
    assert result.ids[at + 1] == kamal
    assert result.beliefs[at].conflicts == (kamal,) and result.beliefs[at + 1].conflicts == (cap,)
    # too tight for both: neither, never one side alone
    both = result.beliefs[at].tokens + result.beliefs[at + 1].tokens
    tight = m.retrieve("we deploy with kamal", token_budget=both - 1)
    assert kamal not in tight.ids and cap not in tight.ids
    assert {kamal, cap} <= set(tight.dropped)


def test_conflicts_and_resolve(m: Memory) -> None:
    a = m.remember("The API lives at /v1", id="a")
    b = m.remember("The API lives at /v2", id="b")
    rule = m.remember("The API is versioned in the path", id="rule", lock=True)
    m.relate(a, b, "CONTRADICTS")
    m.relate(rule, a, "CONTRADICTS")
    pairs = [(c.first.id, c.second.id) for c in m.conflicts()]
    assert pairs == [("a", "b"), ("rule", "a")]  # the locked side first
    written = m.resolve(b, a)
    assert [e.type.value for e in written] == ["SUPERSEDES", "RESOLVES"]
    assert m.conflicts() == []  # a is superseded: both of its disputes are closed
    assert m.retrieve("api").ids == [rule, b]
    with pytest.raises(ConflictError, match="already supersedes and resolves"):
        m.resolve(b, a)
    with pytest.raises(LockedError, match="credo resolve b rule --force"):
        m.resolve(b, rule)
    m.forget(b)
    assert [(c.first.id, c.second.id) for c in m.conflicts()] == [("rule", "a")]


def test_a_resolves_edge_alone_settles_a_pair(m: Memory) -> None:
    a = m.remember("Tabs for indentation", id="a")
    b = m.remember("Spaces for indentation", id="b")
    m.relate(a, b, "CONTRADICTS")
    m.relate(b, a, "RESOLVES")
    result = m.retrieve("indentation")
    assert sorted(result.ids) == [a, b]
    assert all(x.conflicts == () for x in result.beliefs) and m.conflicts() == []


def test_history_lists_the_lineage_with_dates_and_origins(m: Memory) -> None:
    a = m.remember("Python 3.10", id="a", origin="document")
    b = m.remember("Python 3.11", id="b")
    c = m.remember("Python 3.12", id="c", origin="user_corrected")
    m.relate(b, a, "SUPERSEDES")
    m.relate(c, b, "SUPERSEDES")
    m.forget(c)
    found = m.history(a)
    assert found.current == ("b",)
    assert [(s.belief.id, s.status) for s in found.steps] == [
        ("a", "superseded"),
        ("b", "current"),
        ("c", "forgotten"),
    ]
    assert found.steps[2].belief.origin == "user_corrected"
    assert found.steps[1].supersedes == ("a",) and found.steps[1].superseded_by == ("c",)
    with pytest.raises(NotFoundError):
        m.history("nope")


# -- duplicates ---------------------------------------------------------------------------------
def test_dedup_packs_one_of_each_group_carrying_its_evidence(m: Memory) -> None:
    texts = [
        "Deploys go through ops/deploy.sh on the build host",
        "Deploys go through ops/deploy.sh on the build host now",
        "deploys go through ops/deploy.sh on the build host!",
    ]
    ids = [m.remember(t) for t in texts]
    for _ in range(3):
        m.feedback(ids[0], "used")
    m.feedback(ids[1], "used")
    m.feedback(ids[1], "harmful")
    assert sorted(m.retrieve("deploy build host").ids) == sorted(ids)
    report = dedup.scan(m)
    applied = dedup.apply(m, report)
    keep = report.clusters[0].keep_id
    assert len(applied.written) == 2
    result = m.retrieve("deploy build host")
    assert result.ids == [keep] and set(result.beliefs[0].replaces) == set(ids) - {keep}
    # The kept one's posterior counts the group's positive evidence: alpha' = alpha +
    # sum(alpha_i - 1); its own beta stays.
    own = m.get(keep)
    alpha = own.alpha + sum(m.get(i).alpha - 1 for i in ids if i != keep)
    posterior = Weights().posterior * (alpha / (alpha + own.beta) - 0.5)
    assert result.beliefs[0].lanes["posterior"] == pytest.approx(posterior)
    dedup.undo(m)
    assert sorted(m.retrieve("deploy build host").ids) == sorted(ids)


def test_dedup_skips_a_member_that_already_supersedes_the_kept_one(m: Memory) -> None:
    old = m.remember("The staging port is 8080 for the api", id="old")
    new = m.remember("The staging port is 8080 for the api now", id="new")
    m.relate(old, new, "SUPERSEDES")  # the user said the older text holds
    applied = dedup.apply(m, dedup.scan(m))
    assert applied.written == () and applied.skipped_cycle == (("new", "old"),)


# -- the token budget is charged as rendered ---------------------------------------------------
def test_marks_are_charged_as_rendered(m: Memory) -> None:
    old, new = deploy(m)
    m.relate(new, old, "SUPERSEDES")
    other = m.remember("We deploy to staging by hand", id="other")
    m.relate(other, new, "CONTRADICTS")
    result = m.retrieve("deploy staging")
    # The pack's lines are charged as one text (retrieval/place.py): its marks included.
    lines = "".join(
        entry_text(b.id, b.content, b.locked, marks(b.replaces, b.conflicts))
        for b in result.beliefs
    )
    assert not any(b.locked for b in result.beliefs)
    assert result.used_tokens == estimate(lines) == sum(b.tokens for b in result.beliefs)
    assert [b.id for b in result.beliefs if "; " in b.id] == []
    assert any(b.replaces or b.conflicts for b in result.beliefs)


def test_a_retrieve_is_byte_identical(m: Memory) -> None:
    old, new = deploy(m)
    m.relate(new, old, "SUPERSEDES")
    other = m.remember("We deploy to staging by hand", id="other")
    m.relate(other, new, "CONTRADICTS")
    first = m.retrieve("deploy staging", include_superseded=True)
    assert all(m.retrieve("deploy staging", include_superseded=True) == first for _ in range(3))


def test_group_lines_read_a_groups_lines_from_its_entry_when_asked() -> None:
    """``standing.GroupLines``: what ``place.Charges.known`` reads, a leader's entry's lines
    (``Relevant``'s last field), None for a belief that leads no group kept aside."""
    graph = TruthGraph(fetch_from([("a", "b", "CONTRADICTS"), ("a", "c", "CONTRADICTS")]))
    graph.load(["a"])
    graph.settle(["b", "c"])
    tails = {"a": graph.as_relevant("a")}
    lines = GroupLines(tails)
    assert lines.get("a") is tails["a"][13]
    assert lines.get("b") is None and lines.get("b", 7) == 7
    assert not lines  # (it holds nothing: each read goes to the entry)


def test_group_lines_set_a_reached_leaders_kept_line_for_its_standing_only() -> None:
    """``GroupLines.get`` with ``costs``: a leader's line kept at the version for the very
    standing it holds (its entry's, ``Known.kept``) is set in ``costs`` as ``Costs`` would
    take it; not for another standing (one the step set), nor over a line set already."""
    graph = TruthGraph(fetch_from([("a", "b", "CONTRADICTS")]))
    graph.load(["a"])
    graph.settle(["b"])
    tails = {"a": graph.as_relevant("a")}
    known = Known()
    known.kept["a"] = (tails["a"][0], 42)
    shown = Shown(["a", "b"], lambda ids: set(), lambda prefix: [], {})
    costs: dict[str, int] = {}
    GroupLines(tails, known, shown, (), costs, {}).get("a")
    assert costs == {"a": 42}
    costs = {}
    GroupLines(tails, known, shown, (), costs, {"a": (("z",), ("b",), ())}).get("a")
    assert costs == {}
    costs = {"a": 7}
    GroupLines(tails, known, shown, (), costs, {}).get("a")
    assert costs == {"a": 7}
    costs = {}
    GroupLines(tails, known, shown, (), costs, None).get("a")  # (no standing: not set)
    assert costs == {}


def test_a_leader_kept_aside_keeps_its_standing_in_its_entry() -> None:
    """``resolve_lazy`` leaves a group kept aside's leader out of ``standing`` (its standing
    is its ``tails`` entry's first field, read where the pack reaches it); ``expanded`` puts
    it back; ``Marks`` and ``picked`` give the leader that standing, as for the eager step."""
    ranked = scored(("a", 1.0), ("x", 0.8))
    rows = {s.id: ROW for s in ranked}
    graph = TruthGraph(fetch_from([("a", "b", "CONTRADICTS")]))
    lazy = resolve_lazy(ranked, rows, [], graph, weights=Weights())
    assert set(lazy.tails) == {"a"} and "a" not in lazy.standing
    said = lazy.tails["a"][0]
    assert said == ((), ("b",), ())
    assert lazy.expanded().standing["a"] is said
    eager = run(ranked, [("a", "b", "CONTRADICTS")])
    assert eager.standing["a"] == said
    shown = Shown(["a", "x", "b"], lambda ids: set(), lambda prefix: [], {})
    assert Marks(lazy.standing, shown, lazy)["a"] == marks((), ("b",), ())
    assert Marks(lazy.standing, shown, lazy).kept("a") is said
    got = picked(lazy.ranked, {"a", "x"}, lazy.standing, lazy.tails)
    assert [(s[ID], st) for s, st in got] == [
        ("a", said),
        ("b", ((), ("a",), ())),
        ("x", ((), (), ())),
    ]


def test_a_leader_kept_aside_that_hides_a_belief_is_marked_with_both() -> None:
    """A leader kept aside whose standing the step sets (what it hides) keeps that standing
    in ``standing``, which wins over its entry's."""
    edges = [("a", "b", "CONTRADICTS"), ("a", "old", "SUPERSEDES")]
    ranked = scored(("a", 1.0), ("x", 0.8))
    rows = {s.id: ROW for s in ranked}
    graph = TruthGraph(fetch_from(edges))
    lazy = resolve_lazy(ranked, rows, [], graph, weights=Weights())
    assert "a" in lazy.tails and lazy.standing["a"] == (("old",), ("b",), ())
    shown = Shown(["a", "x", "b"], lambda ids: set(), lambda prefix: [], {})
    assert Marks(lazy.standing, shown, lazy)["a"] == marks(("old",), ("b",), ())
    assert run(ranked, edges).standing["a"] == (("old",), ("b",), ())


_DERIVED = "b0123456789abcde"  # an id as ``remember`` derives it: shown in short form
_CHOSEN = ("a", "n12", "zz")


@settings(max_examples=200, deadline=None)
@given(
    x=st.sampled_from((*_CHOSEN, _DERIVED)),
    y=st.sampled_from(("y", "n7", "b0123456789abcdf")),
    length=st.integers(0, 2 * SHORT_CHARS),
    y_supersedes=st.booleans(),
)
def test_the_one_conflict_path_equals_the_general_one(
    x: str, y: str, length: int, y_supersedes: bool
) -> None:
    """``TruthGraph._one_conflict`` (a belief's one unlocked conflict, the common case) makes
    what the general ``_in_general`` makes: every field and the bringers it records."""
    edges = [(x, y, "CONTRADICTS")] + ([(y, "old", "SUPERSEDES")] if y_supersedes else [])
    by_id: dict[str, list[tuple[str, str, str]]] = {}
    for edge in edges:
        by_id.setdefault(edge[0], []).append(edge)
        by_id.setdefault(edge[1], []).append(edge)
    row = ("w" * length, 1.0, 1.0, None, 0.0)

    def fetch(ids: Iterable[str]) -> TruthFacts:
        found = {i: tuple(sorted(by_id[i])) for i in ids if i in by_id}
        far = {e for got in found.values() for edge in got for e in edge[:2]}
        return found, {e: row for e in far}, frozenset()

    made = []
    for path in (TruthGraph._one_conflict, TruthGraph._in_general):
        graph = TruthGraph(fetch)
        graph.load([x])
        graph.settle([y])
        others, free = graph.live_conflicts(x)
        assert len(others) == len(free) == 1  # the case the fast path takes
        made.append((path(graph, x, others, free), dict(graph.bringers)))
    assert made[0] == made[1]


_IDS = tuple("abcdefgh")
_KINDS = ("CONTRADICTS", "CONTRADICTS", "SUPERSEDES", "RESOLVES")


@settings(max_examples=300, deadline=None)
@given(
    edges=st.lists(
        st.tuples(st.sampled_from(_IDS), st.sampled_from(_IDS), st.sampled_from(_KINDS)),
        max_size=10,
        unique=True,
    ),
    order=st.permutations(_IDS),
    ranked_count=st.integers(1, len(_IDS)),
    locks=st.lists(st.sampled_from(_IDS), max_size=2, unique=True),
    in_place=st.booleans(),
)
def test_a_ranking_edited_in_place_is_the_one_the_reference_step_gives(
    edges: list[tuple[str, str, str]],
    order: list[str],
    ranked_count: int,
    locks: list[str],
    in_place: bool,
) -> None:
    """Where groups move beliefs, ``resolve_lazy(..., in_place=True)`` edits the caller's
    ranking and ids (else it leaves them as they were) into what the frozen reference step
    (tests/currency_reference.py) ranks."""
    ranking = [i for i in order[:ranked_count] if i not in locks]
    given_ranked = scored(*((i, 1.0 - n / 10) for n, i in enumerate(ranking)))
    rows = {s.id: ROW for s in given_ranked}
    ranked, ids = list(given_ranked), list(ranking)
    graph = TruthGraph(fetch_from(edges, locks))
    state = resolve_lazy(ranked, rows, locks, graph, weights=Weights(), ids=ids, in_place=in_place)
    if not in_place:
        assert ranked == given_ranked and ids == ranking
    elif state.groups and all(kind != "SUPERSEDES" for *_, kind in edges):
        assert state.ranked is ranked and state.ids is ids
    if state.ids is not None:
        assert state.ids == [s.id for s in as_scored(state.ranked)]
    graph = reference.TruthGraph(fetch_from(edges, locks))
    want = reference.resolve(list(given_ranked), rows, locks, graph, weights=Weights())
    got = state.expanded()
    assert (got.ranked, got.groups, got.standing) == (want.ranked, want.groups, want.standing)
