"""``conflict_groups.gather``'s joined groups: the beliefs that join a shared conflict are
read from the graph's per-version bringers, and the groups' leaders are those joiners unless
a relevant member does not join (entries a real graph never makes: conflicts are symmetric
among current unlocked beliefs), when every walked belief is asked."""

from __future__ import annotations

from credo.retrieval.conflict_groups import gather
from credo.retrieval.rank import Scored, as_scored
from credo.retrieval.truth_graph import NO_IDS

ROW = ("text", 1.0, 1.0, None, 0.0)


class _Entries:
    """What ``gather`` reads of a ``TruthGraph`` whose every relevant belief has its entry:
    the entries (``as_relevant``'s first three fields, the rest padded), the bringers they
    record and the far ends' rows."""

    def __init__(self, free: dict[str, tuple[str, ...]]) -> None:
        self.relevant_known = {
            x: ((NO_IDS, ys, NO_IDS), ys, (x, *sorted(ys)), *([None] * 11))
            for x, ys in free.items()
        }
        self.bringers: dict[str, list[str]] = {}
        for x, ys in free.items():
            for y in ys:
                self.bringers.setdefault(y, []).append(x)
        self.against = dict(free)
        self.rows = {y: ROW for ys in free.values() for y in ys}

    def conflicts(self, x: str) -> tuple[str, ...]:
        return self.against.get(x, NO_IDS)


def _scored(*pairs: tuple[str, float]) -> list[Scored]:
    return [Scored(i, s, {"bm25f": s}) for i, s in pairs]


def _gather(ranked: list[Scored], graph: _Entries, touched: set[str]):
    return gather(ranked, graph, [], touched, {})  # type: ignore[arg-type]


def test_a_conflict_met_twice_joins_both_bringers_and_not_a_third() -> None:
    """a and c both bring y: one group at a's place, c raised after it, y brought along;
    e's group of its own stays kept aside, though the graph lists e among z's bringers."""
    graph = _Entries({"a": ("y",), "c": ("y",), "e": ("z",), "q": ("z",)})
    ranked = _scored(("a", 0.9), ("b", 0.8), ("c", 0.7), ("e", 0.6))
    out, ids, groups, standing, brought, tails = _gather(ranked, graph, {"a", "c", "e"})
    assert groups == (("a", "c", "y"),)
    assert ids == ["a", "c", "y", "b", "e"]
    assert [s.score for s in as_scored(out)] == [0.9, 0.9, 0.9, 0.8, 0.6]
    assert standing["y"] == (NO_IDS, ("a", "c"), NO_IDS)
    assert set(brought) == {"y"} and set(tails) == {"e"}


def test_a_relevant_member_that_does_not_join_is_still_placed() -> None:
    """x brings y, which is relevant itself but whose entry (made by hand: never so in a real
    graph) does not name x: y meets no shared conflict, yet it is in x's group, so it leads
    nothing and moves to x's place (the leaders are then every walked member)."""
    graph = _Entries({"x": ("y",), "y": ("z",)})
    ranked = _scored(("x", 0.9), ("w", 0.8), ("y", 0.5))
    out, ids, groups, standing, brought, tails = _gather(ranked, graph, {"x", "y"})
    assert groups == (("x", "y"),)
    assert ids == ["x", "y", "w"]
    assert out[1] == Scored("y", 0.9, {"bm25f": 0.5, "contradicts": 0.4})
    assert standing["x"] == (NO_IDS, ("y",), NO_IDS) and standing["y"] == (NO_IDS, ("z",), NO_IDS)
    assert not brought and not tails
