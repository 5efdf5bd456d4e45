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
