"""A packed conflict group shows the user's newer word first (retrieval/told_first.py): the
member that disputes another (the CONTRADICTS edge's source) and was told after it leads,
whatever the ids; a lock still outranks what contradicts it; both sides stay marked."""

from __future__ import annotations

import json
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from credo.memory import Memory
from credo.retrieval.told_first import newer_first, told_order
from credo.store.truth import CONTRADICTS, told_later
from tests.conftest import CliRun

OLD = "Date formatting in the web app uses Moment"
NEW = "Moment was replaced by Luxon."
ASK = "how is date formatting done in the web app, Moment or Luxon"


# --- the order of one group ----------------------------------------------------------------


def test_the_newer_source_leads_the_older_one_stays_put() -> None:
    created = {"a": 1.0, "b": 2.0}
    assert told_order(("a", "b"), {("b", "a")}, created) == ["b", "a"]
    assert told_order(("b", "a"), {("b", "a")}, created) is None  # (already first)
    # An older belief that disputes a newer one is no newer word: nothing moves.
    assert told_order(("b", "a"), {("a", "b")}, created) is None


def test_a_tie_in_time_or_an_unknown_time_moves_nothing() -> None:
    assert told_order(("a", "b"), {("b", "a")}, {"a": 1.0, "b": 1.0}) is None
    assert told_order(("a", "b"), {("b", "a")}, {"a": 1.0}) is None
    assert told_order(("a", "b"), set(), {"a": 1.0, "b": 2.0}) is None


def test_in_a_larger_group_the_newest_disputer_leads() -> None:
    created = {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0}
    disputes = {("b", "a"), ("d", "a")}
    assert told_order(("a", "b", "c", "d"), disputes, created) == ["d", "b", "a", "c"]


def test_only_a_group_packed_whole_at_its_leader_is_reordered() -> None:
    packed = ["x", "a", "b", "y"]
    rows = ({"a": ("", 1.0, 1.0, None, 1.0), "b": ("", 1.0, 1.0, None, 2.0)},)
    groups = {"a": ("a", "b")}
    got = newer_first(packed, packed, groups.get, {("b", "a")}, rows)
    assert got == ["x", "b", "a", "y"] and packed == ["x", "a", "b", "y"]  # (a copy)
    cut = ["x", "a", "y"]  # (the group not whole here: left alone)
    assert newer_first(cut, cut, groups.get, {("b", "a")}, rows) is cut


members = st.lists(st.sampled_from("abcdef"), min_size=2, max_size=6, unique=True)


@settings(max_examples=300, deadline=None)
@given(
    group=members,
    data=st.data(),
)
def test_told_order_is_a_permutation_led_by_newer_disputers(group: list[str], data) -> None:
    times = data.draw(st.lists(st.integers(0, 3), min_size=len(group), max_size=len(group)))
    created = {m: float(t) for m, t in zip(group, times, strict=True)}
    pairs = st.tuples(st.sampled_from(group), st.sampled_from(group))
    disputes = set(data.draw(st.lists(pairs, max_size=6)))
    got = told_order(tuple(group), disputes, created)
    assert got == told_order(tuple(group), set(disputes), dict(created))  # deterministic
    if got is None:
        return
    assert sorted(got) == sorted(group) and got != group

    def newer(m: str) -> bool:
        return any((m, o) in disputes and created[o] < created[m] for o in group)

    ahead = [m for m in got if newer(m)]
    assert got[: len(ahead)] == ahead  # the newer disputers first, newest first
    assert [created[m] for m in ahead] == sorted((created[m] for m in ahead), reverse=True)
    assert got[len(ahead) :] == [m for m in group if not newer(m)]  # the rest as they were


# --- through the engine --------------------------------------------------------------------


def _pair(path: Path, new_id: str, *, lock_old: bool = False, old_disputes: bool = False):
    memory = Memory(path / f"{new_id}.db")
    memory.remember(OLD, id="old", lock=lock_old)
    time.sleep(0.01)  # (told later)
    memory.remember(NEW, id=new_id)
    if old_disputes:
        memory.relate("old", new_id, "CONTRADICTS", force=True)
    else:
        memory.relate(new_id, "old", "CONTRADICTS", force=True)
    return memory


def test_the_newer_disputing_word_is_served_first_whatever_its_id(tmp_path: Path) -> None:
    """Before: ``aaa`` led and ``zzz`` came after the old belief (score, then id)."""
    for new_id in ("aaa", "zzz"):
        with _pair(tmp_path, new_id) as memory:
            got = [(b.id, b.conflicts) for b in memory.retrieve(ASK).beliefs]
            again = [(b.id, b.conflicts) for b in memory.retrieve(ASK).beliefs]
        assert got == [(new_id, ("old",)), ("old", (new_id,))] == again


def test_an_older_belief_disputing_a_newer_one_keeps_the_packed_order(tmp_path: Path) -> None:
    """The old belief matches more of the question, so it leads its group, as before."""
    for new_id in ("aaa", "zzz"):
        with _pair(tmp_path, new_id, old_disputes=True) as memory:
            got = [b.id for b in memory.retrieve(ASK).beliefs]
        assert got == ["old", new_id]


def test_a_lock_still_outranks_the_newer_word(tmp_path: Path) -> None:
    with _pair(tmp_path, "aaa", lock_old=True) as memory:
        got = [(b.id, b.locked) for b in memory.retrieve(ASK).beliefs]
    assert got == [("old", True), ("aaa", False)]


def test_a_dispute_between_two_brought_along_members_orders_them_cold_as_warm(
    tmp_path: Path,
) -> None:
    """The leader is the only candidate; its others ``m1`` and ``m2`` are off the query,
    brought along, and ``m2`` disputes ``m1`` (told later). A cold store read only the
    leader's links and listed lead, m1, m2 (by id); warm read every edge and listed lead,
    m2, m1: the order the rule gives (hypothesis found it in test_lazy_aside)."""
    db = tmp_path / "m.db"
    with Memory(db) as memory:
        for i, (belief, text) in enumerate(
            [("m1", "kitchen onions one"), ("m2", "kitchen garlic two"), ("lead", "deploy tool")]
        ):
            if i:
                time.sleep(0.01)  # (told in this order)
            memory.remember(text, id=belief)
        memory.relate("m1", "lead", "CONTRADICTS", force=True)
        memory.relate("lead", "m2", "CONTRADICTS", force=True)
        memory.relate("m2", "m1", "CONTRADICTS", force=True)
    answers = []
    for warm in (False, True):
        with Memory(db) as memory:
            if warm:
                assert memory.store.build_warm()
            answers += [[b.id for b in memory.retrieve("deploy tool").beliefs] for _ in range(2)]
    assert answers == [["lead", "m2", "m1"]] * 4


def test_the_listing_and_its_json_show_the_newer_word_first(run: CliRun) -> None:
    old = run("remember", OLD, check=True).stdout.strip()
    time.sleep(0.01)
    new = run("remember", NEW, check=True).stdout.strip()
    run("relate", new, old, "CONTRADICTS", check=True)
    found = json.loads(run("search", ASK, "--json", check=True).stdout)["beliefs"]
    assert [(b["id"], b["conflicts"]) for b in found] == [(new, [old]), (old, [new])]
    for flags in ([], ["--json"]):  # the click command and the fast path agree
        fast = run("search", ASK, *flags, check=True).stdout
        assert fast == run("search", ASK, "--cluster", *flags, check=True).stdout
    listed = run("search", ASK, check=True).stdout
    assert listed.index(NEW) < listed.index(OLD)
    # ``credo conflicts`` names the newer word first too (before: the lower id, ``old``'s
    # or the new one's by chance)
    [pair] = json.loads(run("conflicts", "--json", check=True).stdout)["conflicts"]
    assert (pair["first"]["id"], pair["second"]["id"]) == (new, old)


def test_the_conflicts_listing_puts_a_lock_then_the_newer_word_first(tmp_path: Path) -> None:
    for new_id, lock_old, old_disputes, want in [
        ("aaa", False, False, ("aaa", "old")),
        ("zzz", False, False, ("zzz", "old")),
        ("zzz", True, False, ("old", "zzz")),  # the lock outranks
        ("zzz", False, True, ("old", "zzz")),  # an older side disputing: by id
        ("aaa", False, True, ("aaa", "old")),
    ]:
        with _pair(tmp_path, new_id, lock_old=lock_old, old_disputes=old_disputes) as memory:
            [c] = memory.conflicts()
        assert (c.first.id, c.second.id) == want
        tmp_path = tmp_path / "next"
        tmp_path.mkdir()


# --- the skip: a store whose disputes were all told in order ---------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.sampled_from("abcdef"), st.integers(0, 3), min_size=2),
    st.lists(st.tuples(st.sampled_from("abcdef"), st.sampled_from("abcdef")), max_size=8),
)
def test_no_dispute_told_later_means_no_group_moves(
    told: dict[str, int], pairs: list[tuple[str, str]]
) -> None:
    """``told_later`` is the skip's test: when it finds no dispute told after what it
    disputes, no group made of the store's beliefs moves (``told_order`` is None)."""
    disputes = {(s, d) for s, d in pairs if s != d and s in told and d in told}
    links: dict[str, list[tuple[str, str, str]]] = {}
    for s, d in sorted(disputes):
        links.setdefault(s, []).append((s, d, CONTRADICTS))
        links.setdefault(d, []).append((s, d, CONTRADICTS))
    ends = {i: (False, ("", 1.0, 1.0, None, float(t)), True) for i, t in told.items()}
    later = told_later({i: tuple(got) for i, got in links.items()}, ends)
    assert later == any(told[s] > told[d] for s, d in disputes)  # (the oracle)
    created = {i: float(t) for i, t in told.items()}
    group = tuple(sorted(told))
    if not later:
        assert told_order(group, disputes, created) is None
        assert told_order(group[::-1], disputes, created) is None


def test_the_skip_never_goes_stale_under_writes_through_another_connection(
    tmp_path: Path,
) -> None:
    """A warm store whose only dispute is an older belief disputing a newer one: nothing
    can move, and the version's reader says so. A newer dispute written through another
    connection moves its group on the next query, warm as cold; forgetting it puts it back."""
    path = tmp_path / "s.db"
    with Memory(path) as memory:
        memory.remember(OLD, id="old")
        time.sleep(0.01)
        memory.remember(NEW, id="mid")
        memory.relate("old", "mid", "CONTRADICTS", force=True)  # (told before what it disputes)
    with Memory(path) as warm, Memory(path) as other:
        assert warm.store.build_warm()
        assert warm.retrieve(ASK).beliefs[0].id == "old"
        assert warm.store.truth_reader().told_in_order()
        time.sleep(0.01)
        other.remember("Luxon was replaced by date-fns in the web app.", id="new")
        other.relate("new", "old", "CONTRADICTS", force=True)
        moved = [(b.id, b.conflicts) for b in warm.retrieve(ASK).beliefs]
        assert not warm.store.truth_reader().told_in_order()
        with Memory(path) as cold:
            assert moved == [(b.id, b.conflicts) for b in cold.retrieve(ASK).beliefs]
        assert moved[0][0] == "new"
        other.forget("new")
        back = [b.id for b in warm.retrieve(ASK).beliefs]
        with Memory(path) as cold:
            assert back == [b.id for b in cold.retrieve(ASK).beliefs]
        assert back[0] == "old"
