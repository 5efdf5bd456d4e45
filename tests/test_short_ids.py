"""Short belief ids (credo/short_ids.py): the block names a belief by the shortest unique
prefix of its id, and every place that takes an id takes that prefix back."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.errors import InvalidInputError, NotFoundError
from credo.store.short_ids import (
    SHORT_CHARS,
    AmbiguousIdError,
    Shown,
    derived_ids,
    full_id,
    sharing_flags,
    shortest,
)
from credo.surfaces.render import memory_block, result_json

BOTH_BACKENDS = True

# Derived ids ("b" + 15 hex digits) drawn from few leading digits, so that many share long
# prefixes: the case the shortening has to get right.
_IDS = st.lists(
    st.tuples(
        st.sampled_from(["0", "0a", "0a1b", "0a1b2c3", "0a1b2c3d4"]),
        st.text("0af", min_size=15, max_size=15),
    ).map(lambda parts: "b" + (parts[0] + parts[1])[:15]),
    min_size=1,
    max_size=40,
    unique=True,
)


def _lookup(ids: list[str]):
    ordered = sorted(ids)

    def lookup(prefix: str, limit: int) -> list[str]:
        return [i for i in ordered if i.startswith(prefix)][:limit]

    return lookup


@settings(max_examples=300, deadline=None)
@given(_IDS)
def test_the_short_form_is_the_shortest_prefix_no_other_id_starts_with(ids: list[str]) -> None:
    lookup = _lookup(ids)
    for belief_id in ids:
        short = shortest(belief_id, lookup)
        assert belief_id.startswith(short) and len(short) >= SHORT_CHARS
        others = [i for i in ids if i != belief_id]
        if short != belief_id:
            assert not any(i.startswith(short) for i in others)
        if len(short) > SHORT_CHARS:  # one character less would name another id too
            assert any(i.startswith(short[:-1]) for i in others)
        assert full_id(short, set(ids).__contains__, lookup) == belief_id  # and back


# Other ids a store may hold beside derived ones: chosen ids, some a derived id's prefix, and
# ids past "b" in code-point order (non-ASCII).
_OTHERS = st.lists(
    st.sampled_from(["b0a1b2c3", "b0a1b2c", "b0", "n12", "b0a1b2c3d4e5f6a7x", "bé", "b0a1b2c3é"]),
    max_size=4,
    unique=True,
)


@settings(max_examples=200, deadline=None)
@given(_IDS, _OTHERS)
def test_the_flags_made_at_index_read_are_the_statements_answers(
    ids: list[str], others: list[str]
) -> None:
    """``sharing_flags`` (a warm index's, for every id at once) answers for each derived id
    what the store's statement answers (``SHARING_SHORT_PREFIX``, over the same ids)."""
    import sqlite3

    from credo.store.beliefs import SHARING_SHORT_PREFIX

    held = sorted(set(ids) | set(others))
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE beliefs (id TEXT PRIMARY KEY)")
    conn.executemany("INSERT INTO beliefs VALUES (?)", [(i,) for i in held])
    derived = derived_ids(held)
    found = {r[0] for r in conn.execute(SHARING_SHORT_PREFIX, (json.dumps(derived),))}
    flags = sharing_flags(reversed(held))
    assert set(flags) == set(derived)
    assert {i for i, shared in flags.items() if shared} == found


def test_ids_a_person_chose_and_short_ids_are_shown_whole() -> None:
    lookup = _lookup(["deploy-rule-2024", "b1234"])
    assert shortest("deploy-rule-2024", lookup) == "deploy-rule-2024"
    assert shortest("b1234", lookup) == "b1234"
    assert shortest("B0123456789ABCDE", lookup) == "B0123456789ABCDE"  # not a derived id
    # Hex after a "b", but not a derived id's length: a person's choice, shown whole.
    assert shortest("bcafe12345", lookup) == "bcafe12345"
    assert shortest("b0a1b2c3d4e5f60", lookup) == "b0a1b2c3d4e5f60"
    assert shortest("b0a1b2c3d4e5f6012", lookup) == "b0a1b2c3d4e5f6012"
    # A derived id lengthened past a prefix collision (4 digits at a time) is still derived.
    longer = "b0a1b2c3d4e5f6012345"
    assert shortest(longer, _lookup([longer])) == "b0a1b2c3"


def test_a_prefix_of_two_ids_is_refused_with_both_named() -> None:
    ids = ["b0a1b2c3d4e5f601", "b0a1b2c3d4e5f602", "b0a1b2c3ffffffff"]
    lookup = _lookup(ids)
    with pytest.raises(AmbiguousIdError, match="b0a1b2c3d4e5f601, b0a1b2c3d4e5f602"):
        full_id("b0a1b2c3d4", set(ids).__contains__, lookup)
    assert full_id("b0a1b2c3f", set(ids).__contains__, lookup) == "b0a1b2c3ffffffff"
    # Too short to be a short id, or not one at all: given back for the not-found error.
    assert full_id("b0a1b2c", set(ids).__contains__, lookup) == "b0a1b2c"
    assert full_id("b0a1b2c3-x", set(ids).__contains__, lookup) == "b0a1b2c3-x"
    # Longer than a derived id: no derived id's short form.
    assert full_id("b0a1b2c3d4e5f6011", set(ids).__contains__, lookup) == "b0a1b2c3d4e5f6011"


def test_a_prefix_cut_too_short_says_so(memory: Memory) -> None:
    # `credo show b0d3` said only "no belief with id 'b0d3'", true of every 4-digit prefix.
    belief = memory.remember("a note to name by a short prefix")
    short = belief[:4]
    with pytest.raises(NotFoundError, match=rf"'{short}' \(a short id is at least 8 char"):
        memory.get(short)
    with pytest.raises(NotFoundError, match=r"^no belief with id 'bzz'$"):
        memory.get("bzz")  # not a derived id's prefix: nothing to add
    assert memory.get(belief[:8]).id == belief


def test_an_exact_id_wins_over_the_ids_it_is_a_prefix_of() -> None:
    ids = ["b0a1b2c3d", "b0a1b2c3d4e5f6"]
    assert full_id("b0a1b2c3d", set(ids).__contains__, _lookup(ids)) == "b0a1b2c3d"


def test_the_store_lists_ids_by_prefix_forgotten_ones_too(memory: Memory) -> None:
    ids = ["b0a1b2c3d4e5f601", "b0a1b2c3d4e5f61", "b0a1b2c3ffffff0", "b0a1b2c4000000", "b0a1b2c"]
    for n, belief_id in enumerate(ids):
        memory.remember(f"note number {n} about prefixes", id=belief_id)
    memory.forget(ids[1])
    store = memory.store
    assert store.ids_with_prefix("b0a1b2c3", 10) == ids[:3]
    assert store.ids_with_prefix("b0a1b2c3d4e5f6", 1) == ids[:1]
    assert store.ids_with_prefix("b0a1b2c4", 10) == [ids[3]]
    assert store.ids_with_prefix("b0a1b2c5", 10) == []


def test_every_write_and_read_takes_the_short_id(memory: Memory, tmp_path: Path) -> None:
    old = memory.remember("We deploy with Capistrano to the staging servers")
    new = memory.remember("We deploy with Kamal to the staging servers since March")
    other = memory.remember("The staging servers run Ubuntu 24.04")
    (tmp_path / "deploy.md").write_text("# Deploy\n\nKamal.\n", encoding="utf-8")
    short = {i: i[:SHORT_CHARS] for i in (old, new, other)}
    memory.relate(short[new], short[old], "SUPERSEDES")
    assert [e.src for e in memory.edges(short[old])] == [new]
    history = memory.history(short[old])
    assert history.id == old and history.current == (new,)
    assert memory.lock(short[new]).locked and not memory.unlock(short[new]).locked
    assert memory.feedback(short[new], "used").alpha == 2.0
    assert memory.link(short[new], "deploy.md").belief_id == new
    assert [a.belief_id for a in memory.anchors(short[new])] == [new]
    memory.relate(other, new, "CONTRADICTS")
    assert memory.resolve(short[new], short[other])[0].src == new
    memory.forget(short[other])
    assert memory.get(short[other]).deleted_at is not None
    with pytest.raises(NotFoundError):
        memory.get("b" + "f" * 7)


def test_the_block_names_beliefs_by_their_short_ids(memory: Memory) -> None:
    old = memory.remember("We deploy with Capistrano to the staging servers")
    new = memory.remember("We deploy with Kamal to the staging servers since March")
    rule = memory.remember("Never deploy to staging on a Friday", lock=True)
    memory.relate(new, old, "SUPERSEDES")
    result = memory.retrieve("how do we deploy to staging")
    block = memory_block(result)
    assert f"[{rule[:8]} locked] Never deploy" in block
    assert f"[{new[:8]}; replaces {old[:8]}] We deploy with Kamal" in block
    assert new not in block and old not in block
    found = {b["id"]: b["short_id"] for b in json.loads(json.dumps(result_json(result)))["beliefs"]}
    assert found == {rule: rule[:8], new: new[:8]}


def test_two_ids_sharing_a_prefix_are_shown_long_enough_to_tell_apart(memory: Memory) -> None:
    first = memory.remember("deploy staging with kamal", id="b0a1b2c3d4e5f601")
    second = memory.remember("deploy staging on weekdays", id="b0a1b2c3d4ffff01")
    result = memory.retrieve("deploy staging")
    assert result.short_ids == {first: "b0a1b2c3d4e", second: "b0a1b2c3d4f"}
    block = memory_block(result)
    assert "[b0a1b2c3d4e] deploy staging with kamal" in block
    with pytest.raises(AmbiguousIdError):
        memory.get("b0a1b2c3d4")
    assert isinstance(AmbiguousIdError("x"), InvalidInputError)  # a typed, bad-input error


@pytest.mark.sqlite_only
def test_a_warm_index_knows_every_shared_prefix_from_its_read(tmp_path: Path) -> None:
    """A small store's warm index answers ``sharing_short_prefix`` for every derived id from
    what it read (no statement on a first pass), as the statement answers; forgotten ids
    still count, and the block shows the same short ids."""
    db = tmp_path / "s.db"
    with Memory(db, root=tmp_path) as memory:
        ids = [
            memory.remember("deploy staging with kamal", id="b0a1b2c3d4e5f601"),
            memory.remember("deploy staging on weekdays", id="b0a1b2c3d4ffff01"),
            memory.remember("deploy staging from the laptop", id="b0a1b2c4d4ffff01"),
            memory.remember("deploy staging by hand"),
        ]
        gone = memory.remember("deploy staging on fridays", id="b0a1b2c4aaaaaa01")
        memory.forget(gone, hard=False)
        cold = memory.store.sharing_short_prefix(ids)
        want = memory.retrieve("deploy staging")
    assert cold == set(ids[:3])
    with Memory(db, root=tmp_path) as memory:
        assert memory.store.build_warm()
        held = memory.store._warm._shared  # type: ignore[union-attr]
        assert {*ids, gone} <= set(held)
        assert memory.store.sharing_short_prefix(ids) == cold
        assert memory.retrieve("deploy staging") == want


@pytest.mark.sqlite_only
def test_the_cli_takes_a_short_id_and_refuses_an_ambiguous_one(run) -> None:
    first = run("remember", "deploy staging with kamal", "--id", "b0a1b2c3d4e5f601", check=True)
    assert first.returncode == 0
    run("remember", "deploy staging on weekdays", "--id", "b0a1b2c3d4ffff01", check=True)
    shown = run("show", "b0a1b2c3d4e", "--json", check=True)
    assert json.loads(shown.stdout)["belief"]["id"] == "b0a1b2c3d4e5f601"
    run("lock", "b0a1b2c3d4f", check=True)
    done = run("forget", "b0a1b2c3d4")
    assert done.returncode != 0
    assert done.stderr.strip().count("\n") == 0 and "more than one belief" in done.stderr
    assert json.loads(run("show", "b0a1b2c3d4ffff01", "--json").stdout)["belief"]["locked"]
    gone = run("forget", "b0a1b2c3d4e", check=True)  # names the whole id it forgot
    assert gone.stdout.strip() == "forgot b0a1b2c3d4e5f601 (project store)"


def test_shown_asks_which_prefixes_are_shared_only_when_a_derived_id_is_looked_up() -> None:
    """``Shown`` reads which candidates share their short prefix (one statement) at the
    first derived id looked up, not before: a warm query's lines give most forms back
    (``met``); the forms are the same either way, and a chosen id is shown whole, set as
    first asked for (a query lists ~170 candidates; its block asks for a few)."""
    first, second, chosen = "b" + "1" * 15, "b" + "2" * 15, "n1"
    calls: list[list[str]] = []

    def shared(ids: list[str]) -> set[str]:
        calls.append(ids)
        return {second}

    def lookup(prefix: str, limit: int) -> list[str]:
        return [i for i in (first, second, "b" + "2" * 8 + "3" * 7) if i.startswith(prefix)][:limit]

    shown = Shown([first, chosen, second], shared, lookup, set())
    assert dict(shown) == {} and shown[chosen] is chosen and not calls
    assert shown.form(first) == first[:8] and shown.changed() == {}
    assert calls == [[first, second]]
    assert shown[second] == second[:10] and shown[first] == first[:8]
    assert shown.changed() == {second: second[:10], first: first[:8]}
    assert calls == [[first, second]]  # (once a query)
    assert derived_ids([first, chosen, "bcafe12345", second]) == [first, second]


def test_ids_met_later_are_shown_as_listed_ones_would_be() -> None:
    """An id not among the candidates, met later (the others of a group the truth step
    keeps aside, asked as the pack reaches them), takes the form it would take listed: one
    not derived is shown whole, the very id, with no statement or range read asked; what
    is shown short stays the same."""
    first, chosen, other = "b" + "1" * 15, "n1", "n2"
    calls: list[object] = []

    def lookup(prefix: str, limit: int) -> list[str]:
        calls.append(prefix)
        return [first][:limit] if first.startswith(prefix) else []

    def shared(ids: list[str]) -> set[str]:
        calls.append(tuple(ids))
        return set()

    listed = Shown([first, chosen, other], shared, lookup, set())
    met = Shown([first, chosen], shared, lookup, set())
    assert met[first] == listed[first] == first[:8]
    calls.clear()
    assert met[other] is other and listed[other] is other and not calls
    assert dict(met) == dict(listed) and met.changed() == listed.changed() == {first: first[:8]}
    held = Shown([first, chosen], shared, lookup, set(), {first: False})  # (a warm index's)
    assert held[other] is other and held[first] == first[:8] and not calls


_MIXED = st.lists(
    st.one_of(_IDS.map(lambda ids: ids[0]), st.sampled_from(["n1", "n2", "bcafe12345", "x"])),
    min_size=1,
    max_size=30,
    unique=True,
)


@settings(max_examples=300, deadline=None)
@given(_MIXED, st.data())
def test_shown_gives_each_id_its_listed_form_in_any_order_asked(
    ids: list[str], data: st.DataObject
) -> None:
    """Against a plain reference (each id's ``shortest`` over every id, or the id itself
    when another store's): any candidates, ids met later, ``whole`` ids, a warm index's
    ``sharing``, asked in any order, give the same forms, and ``changed`` lists the ids
    shown short in the order first asked (``Shown`` holds none of the candidates shown
    whole until asked: ``__missing__``)."""
    lookup = _lookup(ids)
    candidates = data.draw(st.lists(st.sampled_from(ids), unique=True))
    whole = set(data.draw(st.lists(st.sampled_from(ids), unique=True, max_size=3)))
    flags = sharing_flags(ids) if data.draw(st.booleans()) else None

    def shared(asked: list[str]) -> set[str]:
        return {i for i in asked if any(o != i and o.startswith(i[:SHORT_CHARS]) for o in ids)}

    shown = Shown(candidates, shared, lookup, whole, flags)
    order = data.draw(st.lists(st.sampled_from(ids), min_size=1))
    expected: dict[str, str] = {}
    for belief_id in order:
        form = belief_id if belief_id in whole else shortest(belief_id, lookup)
        assert shown[belief_id] == form and shown.form(belief_id) == form
        if form != belief_id:
            expected.setdefault(belief_id, form)
    assert shown.changed() == expected
    assert list(shown.changed()) == list(expected)


def test_with_a_warm_index_s_answers_shown_makes_no_pass_over_the_candidates() -> None:
    """Given ``sharing`` (every derived id's answer, made at index read), ``Shown`` looks
    each id up alone as it is asked for: the candidates are not even sorted out into
    derived and chosen (``_derived_flags``'s memo is not asked about them), and the forms
    are those a listing gives."""
    from credo.store import short_ids

    derived, chosen = "b" + "7" * 15, "n-warm-only"
    short_ids._IS_DERIVED.pop(derived, None)
    short_ids._IS_DERIVED.pop(chosen, None)

    def refused(*_: object) -> list[str]:
        raise AssertionError("no statement nor range read with the warm answers")

    shown = Shown([derived, chosen], refused, refused, set(), {derived: False})
    assert derived not in short_ids._IS_DERIVED and chosen not in short_ids._IS_DERIVED
    assert shown[derived] == derived[:SHORT_CHARS] and shown[chosen] is chosen
    assert shown.changed() == {derived: derived[:SHORT_CHARS]}
