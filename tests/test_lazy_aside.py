"""The groups the truth step keeps aside, read where a reader reaches them (``bundle.Expanding``,
``bundle.Members``, ``short_ids.Shown`` asked as met) against the same groups listed up front:
every reading pattern sees the same ids, every look-up the same answer, and a retrieve gives
the very result the eager listing gives, warm or cold, derived ids or chosen ones."""

from __future__ import annotations

import tempfile
from itertools import islice
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval import pipeline
from credo.retrieval.bundle import Expanding, Members, expanded, expanded_aside
from credo.store.short_ids import Shown


@st.composite
def asides(draw: st.DrawFn) -> tuple[list[str], dict[str, tuple[object, ...]]]:
    """Ranked ids and groups kept aside, as ``Currency.tails`` holds them (fields 2 and 3
    read): some others are ids of the ranking or of another group, or the leader itself
    (a conflict of a belief with itself), so a repeat is listed as often as eagerly."""
    ids = [f"n{i}" for i in range(draw(st.integers(0, 12)))]
    pool = [*ids, *(f"m{i}" for i in range(6))]
    tails: dict[str, tuple[object, ...]] = {}
    for leader in draw(st.lists(st.sampled_from(ids), unique=True)) if ids else ():
        others = tuple(draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3)))
        tails[leader] = (None, None, (leader, *others), others)
    return ids, tails


# A reading: each step names an iterator (0-2) and how many ids it takes; -1 takes the rest.
_READS = st.lists(st.tuples(st.integers(0, 2), st.integers(-1, 5)), max_size=8)
_LOOKS = st.lists(st.sampled_from(["len", "whole", "list", "bool", "in"]), max_size=3)


@settings(max_examples=400, deadline=None)
@given(asides(), _READS, _LOOKS, _LOOKS)
def test_the_lazy_expansion_reads_as_the_eager_list_whatever_the_pattern(
    given_aside: tuple[list[str], dict[str, tuple[object, ...]]],
    reads: list[tuple[int, int]],
    before: list[str],
    after: list[str],
) -> None:
    """Iterators taken side by side, stopped early, resumed, read whole again, with ``len``,
    ``bool``, ``in`` and ``whole`` asked before or after: each sees the eager list's ids, in
    its order, repeats included."""
    ids, tails = given_aside
    eager = expanded(ids, {leader: info[2] for leader, info in tails.items()})  # type: ignore[misc]
    assert expanded_aside(ids, tails) == eager  # type: ignore[arg-type]
    lazy = Expanding(ids, tails)  # type: ignore[arg-type]

    def look(asks: list[str]) -> None:
        for ask in asks:
            if ask == "len":
                assert len(lazy) == len(eager)
            elif ask == "whole":
                assert lazy.whole() == eager
            elif ask == "list":
                assert list(lazy) == eager
            elif ask == "bool":
                assert bool(lazy) == bool(eager)
            else:
                assert all(i in lazy for i in eager) and "absent" not in lazy

    look(before)
    walks = [iter(lazy) for _ in range(3)]
    seen: list[list[str]] = [[], [], []]
    for walk, count in reads:
        taken = list(walks[walk] if count < 0 else islice(walks[walk], count))
        seen[walk] += taken
        assert seen[walk] == eager[: len(seen[walk])]
    look(after)
    assert list(lazy) == eager and ids == [i for i in ids]  # (the ranking left as it was)


@given(asides(), st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), max_size=4))
def test_members_answer_as_the_dict_they_replaced(
    given_aside: tuple[list[str], dict[str, tuple[object, ...]]],
    eager_pairs: list[tuple[int, int]],
) -> None:
    """``Members`` against ``{**aside, **eager}`` (the dict ``Units.members`` was): get with
    and without a default, ``in``, ``[]`` (KeyError on a miss), keys, iteration in the same
    order, ``len``, ``dict()``."""
    ids, tails = given_aside
    free = [i for i in ids if i not in tails]
    eager = {free[a % len(free)]: (free[a % len(free)], f"f{b}") for a, b in eager_pairs if free}
    members = Members(eager, tails)  # type: ignore[arg-type]
    listed = {**{leader: info[2] for leader, info in tails.items()}, **eager}
    assert list(members) == list(listed) and list(members.keys()) == list(listed)
    assert len(members) == len(listed) and dict(members) == listed  # type: ignore[call-overload]
    for key in [*listed, *ids, "absent"]:
        assert (key in members) == (key in listed)
        assert members.get(key) == listed.get(key)
        assert members.get(key, ("d",)) == listed.get(key, ("d",))
        if key in listed:
            assert members[key] == listed[key]
        else:
            with pytest.raises(KeyError):
                members[key]


def test_a_plain_id_met_before_any_derived_one_asks_no_statement() -> None:
    """An id not among the candidates and not derived (the others of a group aside, on a
    store whose linked beliefs have chosen ids) is shown whole as met, even when it is the
    first id looked up: the statement over the candidates' prefixes is not asked for it."""
    derived, chosen = "b" + "1" * 15, "n1"
    calls: list[object] = []

    def shared(ids: list[str]) -> set[str]:
        calls.append(tuple(ids))
        return set()

    def lookup(prefix: str, limit: int) -> list[str]:
        calls.append(prefix)
        return [derived][:limit] if derived.startswith(prefix) else []

    shown = Shown([derived, chosen], shared, lookup, set())
    assert shown["n2"] == "n2" and shown.form("n3") == "n3" and not calls
    assert shown[derived] == derived[:8] and calls == [(derived,)]  # (asked once, when needed)
    assert shown.changed() == {derived: derived[:8]}


# --- a retrieve over random stores in dispute: lazy against eager, warm against cold --------

M = 12


@st.composite
def disputes(draw: st.DrawFn) -> dict[str, object]:
    pairs = [(i, j) for i in range(M) for j in range(M) if i != j]
    return {
        "contradicts": draw(st.lists(st.sampled_from(pairs), unique=True, min_size=1, max_size=9)),
        "supersedes": draw(
            st.lists(st.sampled_from([(i, j) for i, j in pairs if i > j]), max_size=3)
        ),
        "locked": draw(st.sets(st.integers(0, M - 1), max_size=2)),
        "derived": draw(st.booleans()),
        "clustering": draw(st.booleans()),
        "history": draw(st.booleans()),
        "compress": draw(st.sampled_from(["auto", "always", "off"])),
        "budget": draw(st.integers(0, 40) | st.integers(40, 600) | st.just(100_000)),
    }


def _id(i: int, derived: bool) -> str:
    # (derived: half of them share their first 8 characters, shown by a longer prefix)
    return (f"b{'abcdef0' if i % 2 else f'{i:07x}'}{i:08x}") if derived else f"k{i}"


def _store(db: Path, spec: dict[str, object]) -> None:
    derived = bool(spec["derived"])
    rows: list[dict[str, object]] = [
        {
            "kind": "belief",
            "id": _id(i, derived),
            # (off the query, every third: met only as the far end of a link; some long)
            "content": (
                f"deploy tool release note {i}" + " with more deploy detail" * (i % 4) * 4
                if i % 3
                else f"kitchen recipe {i} with onions" + " and garlic" * (i % 5)
            ),
            "locked": i in spec["locked"],  # type: ignore[operator]
            "created_at": 1_700_000_000.0 + i,
            # (a trail on some: a group's others open file and section lines too)
            "context": f"guide{i % 2}.md › Deploy › Step {i % 3}" if i % 4 == 1 else "",
        }
        for i in range(M)
    ]
    seen: set[tuple[int, int]] = set()
    for kind in ("supersedes", "contradicts"):
        for i, j in spec[kind]:  # type: ignore[attr-defined]
            if (i, j) not in seen and (j, i) not in seen:
                seen.add((i, j))
                rows.append(
                    {
                        "kind": "edge",
                        "src": _id(i, derived),
                        "dst": _id(j, derived),
                        "type": kind.upper(),
                    }
                )
    with Memory(db, root=db.parent) as memory:
        memory.import_records(rows)


def _answers(db: Path, spec: dict[str, object], warm: bool) -> list[str]:
    with Memory(db, root=db.parent) as memory:
        if warm:
            assert memory.store.build_warm()
        return [
            repr(
                memory.retrieve(
                    query,
                    token_budget=spec["budget"],  # type: ignore[arg-type]
                    use_intentional_clustering=spec["clustering"],  # type: ignore[arg-type]
                    include_superseded=spec["history"],  # type: ignore[arg-type]
                    compress=spec["compress"],  # type: ignore[arg-type]
                )
            )
            for query in ("deploy tool release note", "kitchen recipe onions", "more detail")
            for _ in range(2)  # (again: what the first left known)
        ]


def _eager(ids: list[str], tails: object) -> list[str]:
    """The groups aside listed up front, as the pipeline listed them before ``Expanding``."""
    return expanded_aside(ids, tails)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(disputes())
# (cold read no edge between two members brought along, k6 disputing k3: warm showed k6 first)
@example(
    {
        "contradicts": [(0, 1), (6, 3), (3, 10), (10, 6)],
        "supersedes": [],
        "locked": set(),
        "derived": False,
        "clustering": False,
        "history": False,
        "compress": "auto",
        "budget": 100_000,
    }
)
def test_a_retrieve_reads_the_groups_aside_lazily_as_it_would_listed(
    spec: dict[str, object],
) -> None:
    """Both packs, every compress mode, history, tiny and huge budgets, locks, derived ids
    sharing a short prefix or chosen ids: the result (its short ids included) is the one
    the groups listed up front give, and a warm store gives what a cold one gives."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        _store(db, spec)
        cold = _answers(db, spec, warm=False)
        warm = _answers(db, spec, warm=True)
        with mock.patch.object(pipeline, "Expanding", _eager):
            listed = _answers(db, spec, warm=False)
            listed_warm = _answers(db, spec, warm=True)
    assert cold == warm == listed == listed_warm
