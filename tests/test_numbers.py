"""A number the question says alone is not matched by a dotted number's part
(retrieval/numbers.py): the pure rules, and a store's ranking on both backends, cold and warm."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.numbers import alone_numbers, only_dotted, without_dotted
from credo.store.fts import query_terms
from tests.lane_runs import cold_then_warm

BOTH_BACKENDS = True


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("emphasise lines 2 and 4, starting at 10.", ["2", "4", "10"]),
        ("what changed in 4.10.2?", []),
        ("release 4.10.2 and line 2", ["2"]),  # said alone once: alone
        ("utf-8 and HTTP/2", ["8", "2"]),
        ("v2.1.0 and h2o", []),  # "v2" and "h2o" are words, 1 and 0 a release's parts
        ("no numbers here", []),
        ("port 5000, not 5000.1", ["5000"]),
    ],
)
def test_the_numbers_a_question_says_alone(text: str, expected: list[str]) -> None:
    assert alone_numbers(text, query_terms(text)) == expected


@pytest.mark.parametrize(
    ("text", "numbers", "expected"),
    [
        ("4.10.2\nFIX: a crash.", ["2", "4", "10"], ["2", "10"]),  # 4 leads its release
        ("Lines 2 and 4 of release 4.10.2", ["2", "4"], []),  # held alone too
        ("New 9.6: line 10 starts the block", ["10", "6"], ["6"]),
        ("New 9.6: line 10 starts the block", ["9"], []),  # version 9 asks for 9.6
        ("docs/about/releases/6.0.md › 6.0 Notes", ["6", "0"], ["0"]),
        ("Python 3.8 or newer; see 2.1.", ["3", "8", "2", "1"], ["8", "1"]),
        ("on 04.10.2023", ["4", "04", "10", "2023"], ["10"]),  # a date's year is a year
        ("4.10.2023 and 1.2.2031", ["2023", "2031"], []),
        ("release 1.19.2020.1 and 5.1920", ["2020", "1920"], ["2020"]),  # no year: dots follow
        ("nothing numeric", ["2"], []),
        ("L320-L393 and 2020-01-01", ["2020", "01"], []),  # a date's parts are not dotted
        ("version 2.", ["2"], []),  # a full stop is no dot between digits
        ("4.2 and 2² m", ["2"], ["2"]),  # "2²" is one token to FTS5: no 2 alone there
    ],
)
def test_a_text_holds_a_number_only_dotted(
    text: str, numbers: list[str], expected: list[str]
) -> None:
    assert only_dotted(text, numbers) == expected


def _additive(table: dict[str, dict[str, float]]):
    """A fake ``Store.keyword_scores``: a belief's per-term scores summed (BM25 is a sum
    over the query's terms); the calls are kept."""
    asked: list[tuple[list[str], list[str]]] = []

    def scores_of(terms: list[str], ids: list[str]) -> dict[str, float]:
        asked.append((terms, ids))
        out = {i: sum(table[i].get(t, 0.0) for t in terms) for i in ids}
        return {i: s for i, s in out.items() if s > 0}

    return scores_of, asked


def _no_trails(ids: list[str]) -> dict[str, str]:
    return {}


def _no_extras(ids: list[str]) -> dict[str, str]:
    return {}


QUESTION = "How do I number lines starting at 10, and emphasise lines 2 and 4?"
TEXTS = {
    "release": "4.10.2\nFIX: Failure with code highlight.",
    "guide": "Line numbers start at 1; lines 2 and 4 are emphasised.",
    "bare": "4.10.2\nFIX: lines",
}
TABLE = {
    "release": {"2": 0.5, "4": 0.5, "10": 0.5},
    "guide": {"lines": 1.0, "2": 0.4, "4": 0.4},
    "bare": {"2": 0.5, "4": 0.5, "10": 0.5, "lines": 0.3},
}


def test_a_release_heading_loses_what_the_question_s_numbers_scored_for_it() -> None:
    terms = query_terms(QUESTION)
    found = {i: sum(t.values()) for i, t in TABLE.items()}
    scores_of, asked = _additive(TABLE)
    out = without_dotted(
        QUESTION, terms, found, TEXTS.__getitem__, _no_trails, scores_of, _no_extras
    )
    # "release" and "bare" lose what 10 and 2, later parts of their release, scored, and
    # keep 4, the part the rest refines (the module docstring); "guide" holds 2 and 4 on
    # their own and keeps them.
    assert out == {
        "release": pytest.approx(0.5),
        "guide": found["guide"],
        "bare": pytest.approx(0.8),
    }
    assert asked == [(["10", "2"], ["bare", "release"])]


def test_a_question_without_a_number_alone_reads_nothing() -> None:
    found = {"release": 1.5}
    scores_of, asked = _additive(TABLE)

    def no_trails(ids: list[str]) -> dict[str, str]:
        raise AssertionError("no read expected")

    for question in ("what changed in 4.10.2?", "line numbers"):
        terms = query_terms(question)
        assert (
            without_dotted(
                question, terms, found, TEXTS.__getitem__, no_trails, scores_of, no_trails
            )
            == found
        )
    assert asked == []


def test_a_number_in_the_trail_alone_counts_as_held_alone() -> None:
    trails = {"release": "docs/changelog.md › Changelog › Line 2 notes L1-L9"}
    found = {"release": 1.5}
    scores_of, _ = _additive(TABLE)
    terms = query_terms(QUESTION)
    out = without_dotted(
        QUESTION, terms, found, TEXTS.__getitem__, lambda ids: trails, scores_of, _no_extras
    )
    assert out["release"] == pytest.approx(1.0)  # 2 alone in its trail, 4 leads: 10 taken


def test_the_rest_the_index_holds_is_read_only_for_hits_about_to_lose() -> None:
    """A number the index holds alone past the trail (a code example's names in the
    context, "step_2"; an edge's anchor text) keeps what it scored; the rest is read only
    for the hits the text and trail alone would make lose."""
    found = {i: sum(t.values()) for i, t in TABLE.items()}
    scores_of, asked = _additive(TABLE)
    read: list[list[str]] = []

    def extras_of(ids: list[str]) -> dict[str, str]:
        read.append(ids)
        return {"release": "docs/changelog.md › 4.10.2 L1-L9\nstep_2 step_10"}

    terms = query_terms(QUESTION)
    out = without_dotted(
        QUESTION, terms, found, TEXTS.__getitem__, _no_trails, scores_of, extras_of
    )
    assert out == {"release": found["release"], "guide": found["guide"], "bare": 0.8}
    assert read == [["bare", "release"]] and asked == [(["10", "2"], ["bare"])]


def test_a_trail_without_a_line_range_is_read_whole() -> None:
    """A trail without a range (an imported record's context) that says " L" is not cut
    short there: its heading's number alone is held."""
    trails = {"release": "notes › Lines 2 and 10"}
    found = {"release": 1.5}
    scores_of, _ = _additive(TABLE)
    out = without_dotted(
        QUESTION,
        query_terms(QUESTION),
        found,
        TEXTS.__getitem__,
        lambda ids: trails,
        scores_of,
        lambda ids: {i: trails[i] for i in ids},
    )
    assert out == found


_DIGITS = st.sampled_from(["1", "2", "4", "10", "13", "2020"])
_PIECES = st.one_of(
    _DIGITS,
    st.lists(_DIGITS, min_size=2, max_size=3).map(".".join),
    st.sampled_from(["lines", "fix", "v2", "h2o", "-", ".", ", ", "\n"]),
)
_TEXT = st.lists(_PIECES, max_size=8).map(" ".join)


@given(
    question=_TEXT,
    texts=st.dictionaries(st.sampled_from("abcdef"), _TEXT, min_size=1),
    extras=st.dictionaries(st.sampled_from("abcdef"), _TEXT),
    weights=st.dictionaries(_DIGITS, st.floats(0.01, 2.0)),
    base=st.floats(0.0, 3.0),
)
def test_scores_only_fall_and_only_for_hits_holding_a_number_only_dotted(
    question: str,
    texts: dict[str, str],
    extras: dict[str, str],
    weights: dict[str, float],
    base: float,
) -> None:
    terms = query_terms(question)
    table = {i: {**weights, "lines": base} for i in texts}
    found = {i: sum(t.values()) for i, t in table.items()}
    scores_of, _ = _additive(table)
    out = without_dotted(
        question, terms, found, texts.__getitem__, _no_trails, scores_of, lambda ids: extras
    )
    numbers = alone_numbers(question, terms)
    assert list(out) == [i for i in found if i in out]  # order kept
    for belief_id, score in found.items():
        # (the text decides which numbers a hit may lose; the rest the index holds only
        # keeps them: a number held alone there is held)
        spurious = only_dotted(texts[belief_id], numbers)
        spurious = only_dotted(f"{texts[belief_id]}\n{extras.get(belief_id, '')}", spurious)
        if not spurious:
            assert out[belief_id] == score
        else:
            taken = sum(weights.get(n, 0.0) for n in spurious)
            if score - taken > 0:
                assert out[belief_id] == pytest.approx(score - taken)
            else:
                assert belief_id not in out


CHANGES = """\
# Changelog

## 4.10.2

- **FIX**: Failure with code highlight when guessing is enabled.

## 10.4

- **NEW**: Blocks: new admonition types.
"""

GUIDE = """\
# Fences

## Highlighting Lines

To emphasise some lines of a code block, name them: `hl_lines="2 4"` emphasises lines 2
and 4 of the block.
"""


def test_release_headings_are_no_hits_for_a_question_s_counts(
    memory: Memory, tmp_path: Path
) -> None:
    (tmp_path / "changelog.md").write_text(CHANGES, encoding="utf-8")
    (tmp_path / "fences.md").write_text(GUIDE, encoding="utf-8")
    memory.ingest(tmp_path / "changelog.md", tmp_path / "fences.md")
    result = memory.retrieve("lines 2 and 4, starting at 10", token_budget=5000)
    # The release passages hold none of the question's words, only its numbers' digits
    # inside their releases: each keeps only its release's first part (4 of 4.10.2, 10 of
    # 10.4, which a question saying "version 4" would ask for), after the guide.
    assert [b.content.split("\n")[0] for b in result.beliefs] == [
        "Highlighting Lines",
        "4.10.2",
        "10.4",
    ]


def test_the_warm_path_gives_the_cold_paths_numbers(tmp_path: Path) -> None:
    (tmp_path / "changelog.md").write_text(CHANGES, encoding="utf-8")
    (tmp_path / "fences.md").write_text(GUIDE, encoding="utf-8")
    queries = ("emphasise lines 2 and 4 from 10", "what changed in 4.10.2", "fix 10 blocks")
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        cold = cold_then_warm(memory, queries)
    assert cold[0] and cold[0][0][0].startswith("Highlighting Lines")


RELEASES = """\
# Changelog

## 3.0.0

- Removed the legacy API and dropped Python 2.7.

## 2.4.1

- Fixed a crash in the parser.
"""

RETRIES = """\
# Retries

## Policy

The client retries a failed request; the legacy API retries 3 times before it gives up.
"""


def test_a_version_the_question_names_by_its_first_part_is_found(
    memory: Memory, tmp_path: Path
) -> None:
    """ "version 3" asks for release 3.0.0: the release keeps what 3 scores for it, and
    ranks above a passage that says 3 as a count."""
    (tmp_path / "changelog.md").write_text(RELEASES, encoding="utf-8")
    (tmp_path / "retries.md").write_text(RETRIES, encoding="utf-8")
    memory.ingest(tmp_path / "changelog.md", tmp_path / "retries.md")
    result = memory.retrieve("what changed in version 3 of the legacy API?", token_budget=5000)
    assert [b.content.split("\n")[0] for b in result.beliefs][:2] == ["3.0.0", "Policy"]


SETUP = """\
# Steps

## Setup

Configure the release 4.10.2 as the example shows.

```python
step_2 = configure()
```
"""

OTHER = """\
# Other

## Configure

Configure each step of the installer before the release.
"""


def test_a_number_a_code_example_holds_alone_is_held(memory: Memory, tmp_path: Path) -> None:
    """The example's ``step_2`` is the index's tokens step and 2 (context, past the trail):
    the passage holds 2 alone and keeps what it scores, as without the rule."""
    (tmp_path / "setup.md").write_text(SETUP, encoding="utf-8")
    (tmp_path / "other.md").write_text(OTHER, encoding="utf-8")
    memory.ingest(tmp_path / "setup.md", tmp_path / "other.md")
    store = memory.store
    terms = query_terms("step 2 configure release")
    hits, rows = store.keyword_beliefs(terms, limit=50)
    found = dict(hits)
    out = without_dotted(
        "step 2 configure release",
        terms,
        found,
        lambda i: rows[i][0],
        store.trails,
        store.keyword_scores,
        store.index_extras,
    )
    assert out == found and len(found) == 2


def test_an_edge_s_anchor_text_that_says_the_number_alone_is_held(memory: Memory) -> None:
    """A link's anchor text is indexed with the belief it points to: a number it says
    alone is held there, whatever the belief's own text holds (the linked note ranks first,
    as it did before the rule)."""
    release = memory.remember("Upgraded the parser to 4.10.2 last week.")
    notes = memory.remember("The parser review notes for each step.")
    memory.relate(notes, release, "RELATES_TO", anchor_text="step 2")
    for question in ("parser step 2", "step 2"):
        assert [b.id for b in memory.retrieve(question, token_budget=5000).beliefs] == [
            release,
            notes,
        ]
