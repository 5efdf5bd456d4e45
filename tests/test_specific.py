"""A section before the section around it (retrieval/specific.py), and the keyword read it
uses (``Store.keyword_scores``), on both backends."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.rank import Scored, as_scored
from credo.retrieval.specific import TOP, specific_first, without_lines
from credo.store.fts import query_terms

BOTH_BACKENDS = True

PAGE = """\
# Packaging Entry Points

Entry points let an installed package expose a command line tool.

## Project Files

A line under the scripts table of the project file names the command and its function.

## Testing

Run the tool's tests with the packaging entry points installed in a virtual environment.
"""


def test_keyword_scores_are_the_keyword_lanes_scores(memory: Memory, tmp_path: Path) -> None:
    page = tmp_path / "entry-points.md"
    page.write_text(PAGE, encoding="utf-8")
    memory.ingest(page)
    for query in ("packaging entry points", "project scripts line", "tests virtual"):
        terms = query_terms(query)
        ranked = dict(memory.store.keyword_search(terms, limit=100))
        ids = sorted(ranked)[:2]
        assert memory.store.keyword_scores(terms, ids) == {i: ranked[i] for i in ids}
    assert memory.store.keyword_scores([], ["x"]) == {}
    assert memory.store.keyword_scores(["packaging"], []) == {}
    assert memory.store.keyword_scores(["packaging"], ["no-such-belief"]) == {}


def _trail(path: str, *sections: str) -> str:
    return " › ".join((path, *sections)) + " L1-L9"


PARENT = _trail("docs/entry-points.md", "Packaging Entry Points")
CHILD = _trail("docs/entry-points.md", "Packaging Entry Points", "Project Files")
TERMS = ["packaging", "entry", "points", "project", "scripts"]


def _scores(table: dict[str, dict[str, float]]):
    """A fake ``Store.keyword_scores``: each belief's per-term scores summed (BM25 is a sum
    over the query's terms); the calls are kept."""
    asked: list[tuple[list[str], list[str]]] = []

    def scores_of(terms: list[str], ids: list[str]) -> dict[str, float]:
        asked.append((terms, ids))
        return {
            i: sum(table[i].get(t, 0.0) for t in terms)
            for i in ids
            if i in table and any(t in table[i] for t in terms)
        }

    return scores_of, asked


# Per-term scores: the parent's heading words count more for the parent; "project" and
# "scripts" (the child's heading, and its text) more for the child.
HEADING = {"packaging": 5.0, "entry": 5.0, "points": 5.0}
TABLE = {
    "p": {**HEADING, "project": 3.0, "scripts": 2.0},
    "c": {"packaging": 2.0, "entry": 4.0, "points": 4.0, "project": 6.0, "scripts": 4.0},
}


def _ranked() -> list[Scored]:
    return [
        Scored("p", 1.77, {"bm25f": 0.974, "heat": 0.3, "line": 0.496}),
        Scored("c", 1.733, {"bm25f": 1.0, "heat": 0.233, "line": 0.5}),
        Scored("x", 1.2, {"bm25f": 0.7, "line": 0.5}),
    ]


def test_a_child_whose_own_heading_adds_a_query_word_goes_above_its_parent() -> None:
    scores_of, asked = _scores(TABLE)
    ranked = _ranked()
    out = as_scored(specific_first(ranked, {"p": PARENT, "c": CHILD}, TERMS, {"p": 21.0, "c": 21.6},
                         scores_of, lambda _: 1.0))  # fmt: skip
    assert [s.id for s in out] == ["c", "p", "x"]
    lifted = out[0]
    assert lifted.score == round(1.77 + 1e-9, 9) > out[1].score
    assert lifted.lanes["specific"] == pytest.approx(1.77 + 1e-9 - 1.733)
    assert sum(lifted.lanes.values()) == pytest.approx(lifted.score)
    # The child's new heading word, then the parent's own heading's words, for the two.
    assert asked == [(["project"], ["p", "c"]), (["packaging", "entry", "points"], ["p", "c"])]
    assert [s.id for s in ranked] == ["p", "c", "x"]  # the input is not changed


def test_no_lift_when_the_parent_still_leads_with_its_heading_credited_alike() -> None:
    # the heading words barely favour p
    scores_of, _ = _scores(
        {**TABLE, "c": {**TABLE["c"], "packaging": 4.5, "entry": 5.0, "points": 5.0}}
    )
    ranked = _ranked()
    out = specific_first(ranked, {"p": PARENT, "c": CHILD}, TERMS, {"p": 21.0},
                         scores_of, lambda _: 1.0)  # fmt: skip
    assert out is ranked


def test_the_history_weight_scales_what_is_taken() -> None:
    # 0.974 * 5 / 21 = 0.232 > 0.037 apart; at a factor of 0.1, 0.023 < 0.037: no lift.
    scores_of, _ = _scores(TABLE)
    ranked = _ranked()
    out = specific_first(ranked, {"p": PARENT, "c": CHILD}, TERMS, {"p": 21.0},
                         scores_of, lambda _: 0.1)  # fmt: skip
    assert out is ranked


def test_a_child_titled_only_in_its_ancestors_words_stays_below() -> None:
    # "Official plugin › Vim plugin": the child's heading adds no query word.
    parent = _trail("docs/editors.md", "Vim", "Official plugin")
    child = _trail("docs/editors.md", "Vim", "Official plugin", "Vim plugin")
    scores_of, asked = _scores({"p": {"official": 5.0}, "c": {"vim": 3.0, "plugin": 3.0}})
    ranked = _ranked()
    out = specific_first(ranked, {"p": parent, "c": child}, ["official", "vim", "plugin"],
                         {"p": 21.0}, scores_of, lambda _: 1.0)  # fmt: skip
    assert out is ranked and asked == []


@pytest.mark.parametrize("common", [1e-6, 2.2e-6])
def test_a_new_heading_word_in_most_of_the_index_tells_nothing(common: float) -> None:
    # "Slotted Classes" under "Immutability", for "make an attrs class immutable": "class"
    # is in more than half the rows, so FTS5 gives it its floor idf (1e-6).
    parent = _trail("docs/how.md", "How Does It Work?", "Immutability")
    child = _trail("docs/how.md", "How Does It Work?", "Immutability", "Slotted Classes")
    table = {"p": {"immutable": 4.2, "class": common / 2}, "c": {"immutable": 2.7, "class": common}}
    scores_of, asked = _scores(table)
    ranked = _ranked()
    out = specific_first(ranked, {"p": parent, "c": child}, ["make", "class", "immutable"],
                         {"p": 21.0}, scores_of, lambda _: 1.0)  # fmt: skip
    assert out is ranked and asked == [(["class"], ["p", "c"])]


@pytest.mark.parametrize(
    "child",
    [
        _trail("docs/other.md", "Packaging Entry Points", "Project Files"),  # another file
        _trail("docs/entry-points.md", "Project Files"),  # not below the parent
        PARENT,  # the same section
    ],
)
def test_only_a_descendant_in_the_same_file_is_compared(child: str) -> None:
    scores_of, asked = _scores(TABLE)
    ranked = _ranked()
    out = specific_first(ranked, {"p": PARENT, "c": child}, TERMS, {"p": 21.0},
                         scores_of, lambda _: 1.0)  # fmt: skip
    assert out is ranked and asked == []


def test_a_child_below_the_first_ranks_is_not_read() -> None:
    filler = [Scored(f"f{i:02}", 1.5 - i / 100, {"bm25f": 0.5}) for i in range(TOP)]
    ranked = [_ranked()[0], *filler, _ranked()[1]]
    scores_of, asked = _scores(TABLE)
    out = specific_first(ranked, {"p": PARENT, "c": CHILD}, TERMS, {"p": 21.0},
                         scores_of, lambda _: 1.0)  # fmt: skip
    assert out is ranked and asked == []


TITLES = ["Packaging", "Entry Points", "Project Files", "Scripts", "Testing", "Install"]
_place = st.tuples(st.sampled_from(["a.md", "b.md"]), st.lists(st.sampled_from(TITLES), max_size=3))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(_place, st.floats(0.01, 3.0), st.floats(0.0, 1.0), st.floats(0.0, 30.0)),
        min_size=0,
        max_size=14,
    ),
    st.lists(st.sampled_from(["packaging", "entry", "points", "project", "scripts", "install"])),
)
def test_the_result_is_the_same_candidates_best_first(
    rows: list[tuple[tuple[str, list[str]], float, float, float]], terms: list[str]
) -> None:
    ids = [f"b{i:02}" for i in range(len(rows))]
    ranked = [
        Scored(i, round(score, 9), {"bm25f": bm25f} if bm25f else {"heat": score})
        for i, (_, score, bm25f, _) in zip(ids, rows, strict=True)
    ]
    ranked.sort(key=lambda s: (-s.score, s.id))
    trails = {i: _trail(p, *t) for i, ((p, t), *_) in zip(ids, rows, strict=True)}
    raw = {i: r for i, (*_, r) in zip(ids, rows, strict=True)}
    table = {i: {t: (r + len(t) * n) / 7 for n, t in enumerate(terms)} for i, r in raw.items()}
    scores_of, _ = _scores(table)
    out = as_scored(specific_first(ranked, trails, list(dict.fromkeys(terms)), raw, scores_of,
                         lambda _: 1.0))  # fmt: skip
    again = as_scored(specific_first(ranked, trails, list(dict.fromkeys(terms)), raw, scores_of,
                           lambda _: 1.0))  # fmt: skip
    assert out == again  # deterministic
    assert sorted(s.id for s in out) == sorted(ids)
    assert [(-s.score, s.id) for s in out] == sorted((-s.score, s.id) for s in out)
    assert out[TOP:] == ranked[TOP:]
    before = {s.id: s for s in ranked}
    for s in out:
        if s != before[s.id]:  # lifted: only up, by its part "specific"
            assert s.score > before[s.id].score
            assert s.lanes["specific"] == pytest.approx(s.score - before[s.id].score)


def test_what_is_taken_is_scaled_as_spread_and_support_scaled_the_score() -> None:
    """The ancestor's parts are compose's; spread (its part ``again``) halved its score, so
    its bm25f part counts half in it, and so does what is taken. Composed, p scored 3.54
    (bm25f 1.948): less the heading's 1.948 * 5 / 21 = 0.464 it is 3.076, halved 1.538,
    still over c's 1.4; taken whole (0.464 off 1.77) it fell under c (before: c lifted)."""
    scores_of, _ = _scores(TABLE)
    ranked = [
        Scored("p", 1.77, {"bm25f": 1.948, "heat": 0.6, "line": 0.992, "again": -1.77}),
        Scored("c", 1.4, {"bm25f": 0.8, "heat": 0.2, "line": 0.4}),
        Scored("x", 1.2, {"bm25f": 0.7, "line": 0.5}),
    ]
    out = specific_first(ranked, {"p": PARENT, "c": CHILD}, TERMS, {"p": 21.0},
                         scores_of, lambda _: 1.0)  # fmt: skip
    assert out is ranked
    # unhalved, the same parts lift c: the rule itself is unchanged
    whole = [Scored("p", 3.54, {k: v for k, v in ranked[0].lanes.items() if k != "again"}),
             Scored("c", 3.3, ranked[1].lanes), ranked[2]]  # fmt: skip
    lifted = as_scored(specific_first(whole, {"p": PARENT, "c": CHILD}, TERMS, {"p": 21.0},
                            scores_of, lambda _: 1.0))  # fmt: skip
    assert [s.id for s in lifted] == ["c", "p", "x"]


@pytest.mark.parametrize(
    ("trail", "kept"),
    [
        ("d.md › A › B L4-L9", "d.md › A › B"),
        ("d.md L1-L3", "d.md"),
        ("d.md › Using Lua L4-L9", "d.md › Using Lua"),
        ("d.md › Using Lua", "d.md › Using Lua"),  # (no range: imported from records)
        ("d.md › Logging", "d.md › Logging"),
        ("d.md › Step L2", "d.md › Step L2"),
        ("", ""),
    ],
)
def test_without_lines_drops_a_range_and_nothing_else(trail: str, kept: str) -> None:
    assert without_lines(trail) == kept
