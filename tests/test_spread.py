"""A section already shown yields to those not yet shown (retrieval/spread.py), on both
backends through ``Memory.retrieve``, and as a pure function."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.rank import Scored, as_scored
from credo.retrieval.specific import sections
from credo.retrieval.spread import AGAIN, asks_several, spread

BOTH_BACKENDS = True

# A section long enough to be cut into two passages, each full of the question's words
# for its second half, and a short section that answers its first half.
GUIDE = """\
# Guide

## Frozen Classes

A frozen class refuses assignment: setting a field on a frozen instance raises
FrozenInstanceError, because the generated setattr forbids every change after init. This
keeps hashing stable and lets instances live in sets and dict keys without surprises when
someone mutates them later. A frozen instance is a value: two equal frozen instances stay
equal for their whole life, whatever code holds them, and a field assignment that would
break that raises instead of passing silently.

Assigning to a field of a frozen instance inside your own methods fails the same way; use
object.__setattr__ in __attrs_post_init__ when a derived field must be computed once, and
document why the frozen field is written there. Subclasses of a frozen class are frozen
too, and a field assignment on a frozen subclass instance fails with the same error and
the same message naming the field.

Slotted frozen classes behave alike: the field assignment fails with the same error, and
deleting a field of a frozen instance raises it as well, so frozen instances are read-only
from outside and from inside.

Performance of frozen classes is close to plain ones: the assignment guard only costs at
setattr time, and reading a field of a frozen instance is as fast as for any other instance.

## Evolve

Call evolve to get a copy of an instance with one field changed; the original is left as it was.
"""
TOPICS = ("logging", "caching", "routing", "testing", "packaging", "templates")
QUESTION = (
    "How do I get a copy of an instance with one field changed, and why does assigning "
    "to a field of a frozen instance fail?"
)


def _pages(root: Path) -> list[Path]:
    out = [root / "guide.md"]
    out[0].write_text(GUIDE, encoding="utf-8")
    for topic in TOPICS:  # (an index of some size: the question's words are rare in it)
        page = root / f"{topic}.md"
        page.write_text(
            f"# {topic.title()}\n\nHow {topic} works in this project, with an example of "
            f"{topic} settings and the defaults each one takes.\n\n## More {topic}\n\n"
            f"Notes on {topic} for larger deployments and the options people change first.\n",
            encoding="utf-8",
        )
        out.append(page)
    return out


def _section(trail: str) -> str:
    return trail.rsplit(" L", 1)[0]


def test_the_section_that_answers_the_other_half_comes_before_a_second_passage(
    memory: Memory, tmp_path: Path
) -> None:
    memory.ingest(*_pages(tmp_path))
    result = memory.retrieve(QUESTION, token_budget=100_000)
    shown = [_section(b.trail) for b in result.beliefs[:3]]
    frozen, evolve = "guide.md › Guide › Frozen Classes", "guide.md › Guide › Evolve"
    # Before: both passages of Frozen Classes, then Evolve (the copy half's answer, third).
    assert shown == [frozen, evolve, frozen]
    second = result.beliefs[2]
    # (the score spread halved: before adjacent.py's gain, which scales it after)
    halved = second.score - second.lanes.get("adjacent", 0.0)
    assert second.lanes["again"] == pytest.approx(-halved * (1 / AGAIN - 1), abs=1e-6)
    assert sum(second.lanes.values()) == pytest.approx(second.score, abs=1e-6)
    assert "again" not in result.beliefs[0].lanes and "again" not in result.beliefs[1].lanes
    again = memory.retrieve(QUESTION, token_budget=100_000)
    assert again == result  # deterministic


@pytest.mark.sqlite_only
def test_a_question_about_one_thing_keeps_a_sections_passages_together(
    memory: Memory, tmp_path: Path
) -> None:
    memory.ingest(*_pages(tmp_path))
    one = "copy of an instance with one field changed, assigning to a field of a frozen instance"
    assert not asks_several(one)
    shown = [_section(b.trail) for b in memory.retrieve(one, token_budget=100_000).beliefs[:2]]
    assert shown == ["guide.md › Guide › Frozen Classes"] * 2


@pytest.mark.parametrize(
    ("question", "several"),
    [
        ("How do I mark text as inserted, and how do I write H2O with a lowered 2?", True),
        ("Where is the URL split, and where does the manager reuse the pool?", True),
        ("Which release stopped retrying 400; which setting turns it back on", True),
        ("Why is it skipped? How can I tell black a cell magic holds Python", True),
        ("how to call super().__init__ when subclassing a class that is not an attrs class", True),
        (
            "How do I install and try out the pybind11 example project and the nanobind one "
            "the docs ship",
            True,
        ),
        ("history of the cute attr.s and attr.ib names", False),
        ("why wasn't attrs added to the standard library instead of dataclasses", False),
        ("hash and compare instances by object identity", False),
        ("What is the minimum Python version?", False),
    ],
)
def test_asks_several(question: str, several: bool) -> None:
    assert asks_several(question) is several


def _trail(path: str, *titles: str, lines: str = "L1-L9") -> str:
    return " › ".join((path, *titles)) + f" {lines}"


def test_a_second_passage_goes_below_an_unseen_section_within_half_its_score() -> None:
    ranked = [Scored("a1", 1.0, {"bm25f": 1.0}), Scored("a2", 0.9, {"bm25f": 0.9}),
              Scored("b", 0.5, {"bm25f": 0.5}), Scored("c", 0.4, {"bm25f": 0.4})]  # fmt: skip
    trails = {
        "a1": _trail("d.md", "A", lines="L1-L9"),
        "a2": _trail("d.md", "A", lines="L10-L19"),
        "b": _trail("d.md", "B"),
        "c": _trail("e.md", "A"),  # the same title in another file: its own section
    }
    out = as_scored(spread(ranked, trails))
    assert [s.id for s in out] == ["a1", "b", "a2", "c"]
    assert out[2].score == pytest.approx(0.45)
    assert out[2].lanes == {"bm25f": 0.9, "again": pytest.approx(-0.45)}


def test_nothing_repeated_or_no_trail_leaves_the_ranking_as_it_is() -> None:
    ranked = [Scored("n1", 1.0, {"bm25f": 1.0}), Scored("n2", 0.9, {"bm25f": 0.9}),
              Scored("x", 0.8, {"bm25f": 0.8})]  # fmt: skip
    assert spread(ranked, {}) is ranked  # notes: each its own unit
    assert spread(ranked, {"x": _trail("d.md", "A")}) is ranked
    # a file's head (no heading) and a passage under a heading are two places
    trails = {"n1": "d.md L1-L3", "n2": _trail("d.md", "A"), "x": _trail("d.md", "A", "B")}
    assert spread(ranked, trails) is ranked


_places = st.sampled_from(
    [("d.md", ()), ("d.md", ("A",)), ("d.md", ("A", "B")), ("e.md", ("A",)), ("", None)]
)


@given(st.lists(st.tuples(_places, st.floats(0.01, 3.0)), max_size=16))
def test_each_sections_best_keeps_its_score_and_the_parts_add_up(
    rows: list[tuple[tuple[str, tuple[str, ...] | None], float]],
) -> None:
    ids = [f"b{i:02}" for i in range(len(rows))]
    scores = [round(s, 9) for _, s in rows]
    ranked = [Scored(i, s, {"bm25f": s}) for i, s in zip(ids, scores, strict=True)]
    ranked.sort(key=lambda s: (-s.score, s.id))
    trails = {
        i: _trail(path, *titles, lines=f"L{n}-L{n + 1}")
        for n, (i, ((path, titles), _)) in enumerate(zip(ids, rows, strict=True))
        if titles is not None
    }
    out = as_scored(spread(ranked, trails))
    assert out == spread(ranked, trails)  # deterministic
    assert sorted(s.id for s in out) == sorted(ids)
    assert [s.score for s in out] == sorted((s.score for s in out), reverse=True)
    before = {s.id: s for s in ranked}
    best: dict[tuple[str, tuple[str, ...]], str] = {}
    for s in ranked:
        if s.id in trails:
            best.setdefault(sections(trails[s.id]), s.id)
    for s in out:
        if s.id not in trails or best[sections(trails[s.id])] == s.id:
            assert s == before[s.id]
        else:
            assert s.score == pytest.approx(before[s.id].score * AGAIN)
            assert sum(s.lanes.values()) == pytest.approx(s.score)


def test_a_trail_without_a_line_range_is_its_own_section() -> None:
    """A context imported from records may end without `` L4-L9``: its last title's " L"
    ("› Logging", "Using Lua") is no range, and two such sections stay two (before, both
    were ``guide.md ›``, and "Locks" counted half)."""
    ranked = [Scored("a", 1.0, {"bm25f": 1.0}), Scored("b", 0.9, {"bm25f": 0.9}),
              Scored("c", 0.8, {"bm25f": 0.8})]  # fmt: skip
    trails = {"a": "guide.md › Logging", "b": "guide.md › Locks", "c": "guide.md › Using Lua"}
    assert spread(ranked, trails) is ranked
    # the same section, with and without a range, is still one
    out = as_scored(spread(ranked, {"a": "guide.md › Logging L1-L4", "b": "guide.md › Logging"}))
    assert [s.id for s in out] == ["a", "c", "b"]
