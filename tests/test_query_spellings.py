"""A word English spells two ways also asks for its other spelling (store/inflection.py
``spelling_of``).

Porter (1980), the index's stemmer, stems "normalised" to ``normalis`` and "normalized" to
``normal``, "behaviour" to ``behaviour`` and "behavior" to ``behavior``: a reader who writes
British spelling misses the American text, and the other way round for -ise/-ize.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.snippet import Terms
from credo.store.fts import STOPWORDS, query_terms
from credo.store.inflection import base_words, spelling_of, with_base_words
from credo.store.stem import stem


@pytest.mark.parametrize(
    ("word", "other"),
    [
        ("normalised", "normalized"),
        ("normalisation", "normalization"),
        ("customising", "customizing"),
        ("optimiser", "optimizer"),
        ("analyse", "analyze"),
        ("serialize", "serialise"),  # both ways for -ise/-ize
        ("initializing", "initialising"),
        ("behaviour", "behavior"),
        ("neighbours", "neighbors"),
        ("honouring", "honoring"),
        ("favourite", "favorite"),
        # one way only for -our: "error" and "iterator" ask for nothing
        ("behavior", None),
        ("error", None),
        ("iterator", None),
        # too short to have a second spelling, or no such ending
        ("raised", None),
        ("sizes", None),
        ("hours", None),
        ("analysis", None),
        ("crisis", None),
        ("your", None),
    ],
)
def test_spelling_of(word: str, other: str | None) -> None:
    assert spelling_of(word) == other


def test_the_other_spelling_is_what_the_index_holds_for_it() -> None:
    assert stem("normalised") != stem("normalized")  # the gap (if Porter closes it, drop it)
    assert stem(spelling_of("normalised") or "") == stem("normalized") == "normal"
    assert stem(spelling_of("behaviours") or "") == stem("behaviors")


@given(st.text(alphabet="abceinorstuyzd", min_size=1, max_size=14))
def test_another_spelling_changes_one_ending_of_the_word(word: str) -> None:
    other = spelling_of(word)
    if other is None:
        return
    assert len(word) >= 6 and stem(other) != stem(word)
    assert len(stem(other)) >= 4 and other not in STOPWORDS
    if len(other) == len(word):  # -ise <-> -ize, -yse <-> -yze: one s for one z
        changed = [(a, b) for a, b in zip(word, other, strict=True) if a != b]
        assert len(changed) == 1 and set(changed[0]) == {"s", "z"}
    else:  # -our -> -or: one u fewer
        assert any(word[:i] + word[i + 1 :] == other for i, c in enumerate(word) if c == "u")
    assert other in base_words(word)


def test_a_question_without_such_a_word_asks_as_before() -> None:
    terms = query_terms("which iterator raises an error on the session")
    assert with_base_words(terms) is terms


def test_a_british_question_finds_the_american_passage(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    memory.import_records(
        [
            {"kind": "belief", "id": "norm", "content": "Hosts are normalized to lower case"},
            {"kind": "belief", "id": "other", "content": "Which hosts the pool keeps open"},
        ]
    )
    ids = [b.id for b in memory.retrieve("are hosts normalised?").beliefs]
    assert ids[0] == "norm"
    assert "normal" in Terms("are hosts normalised?").stems
    memory.close()


def test_a_terms_base_words_are_kept_and_answer_as_made_anew() -> None:
    """``with_base_words`` keeps each term's base words (a query's words recur across
    queries): asked again, and with the memo emptied, the same words in the same order."""
    from credo.store import inflection

    terms = ["normalised", "quickly", "fastest", "written", "hand", "colours"]
    text = "hand-written normalised colours, quickly the fastest"
    first = inflection.with_base_words(terms, text)
    assert inflection.with_base_words(terms, text) == first
    inflection._base_words_of.cache_clear()
    assert inflection.with_base_words(terms, text) == first
    assert first[: len(terms)] == terms and len(first) > len(terms)
    assert "written" in terms and "write" not in first  # a compound's participle asks no verb
