"""A past participle in a query also asks for its verb (store/inflection.py ``verb_of``).

Porter (1980), the index's stemmer, keeps "overwritten" (overwritten) apart from
"overwrite" (overwrit) and "taken" (taken) from "take" (take). A reader asks whether values
are "overwritten"; the code says ``overwrite=False``. The query side closes that gap by a
rule of English morphology over the query's own words, as it does for -ly adverbs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.snippet import Terms
from credo.store.fts import STOPWORDS, query_terms
from credo.store.inflection import (
    adjective_of,
    base_word,
    positive_of,
    verb_of,
    with_base_words,
)
from credo.store.stem import stem


@pytest.mark.parametrize(
    ("word", "verb"),
    [
        ("overwritten", "overwrite"),
        ("written", "write"),
        ("rewritten", "rewrite"),
        ("hidden", "hide"),
        ("overridden", "override"),
        ("taken", "take"),
        ("mistaken", "mistake"),
        ("given", "give"),
        ("driven", "drive"),
        ("chosen", "choose"),
        ("shown", "show"),
        ("known", "know"),
        ("thrown", "throw"),
        ("grown", "grow"),
        # not participles of a verb the stemmer keeps apart
        ("token", None),
        ("often", None),
        ("listen", None),
        ("hyphen", None),
        ("brown", None),
        ("down", None),
        ("seven", None),
        ("open", None),
        ("written_by", None),
        # a short stem; a base that is no word matches nothing the index holds
        ("eaten", None),
        ("gotten", "gote"),
    ],
)
def test_verb_of(word: str, verb: str | None) -> None:
    assert verb_of(word) == verb


def test_the_verb_is_what_the_index_holds_for_the_verb() -> None:
    assert stem("overwritten") != stem("overwrite")  # the gap (if Porter closes it, drop it)
    assert stem(verb_of("overwritten") or "") == stem("overwrite") == "overwrit"


@given(st.text(alphabet="abdegiknorstvwh", min_size=1, max_size=14))
def test_a_verb_is_a_new_stem_of_four_letters_or_more(word: str) -> None:
    verb = verb_of(word)
    if verb is None:
        return
    assert word.endswith(("en", "own"))
    assert stem(verb) != stem(word) and len(stem(verb)) >= 4 and verb not in STOPWORDS
    assert verb.startswith(word[:-4])  # the participle's own letters, its ending changed


@given(st.text(alphabet="aeiklnostvwy", min_size=1, max_size=14))
def test_a_word_is_an_adverb_or_a_participle_not_both(word: str) -> None:
    assert adjective_of(word) is None or verb_of(word) is None
    assert base_word(word) == (adjective_of(word) or positive_of(word) or verb_of(word))


@pytest.mark.parametrize(
    ("query", "added"),
    [
        ("are existing values overwritten?", ["overwrite"]),
        ("a cost compared to hand-written classes", []),  # a compound's adjective
        ("is a well-known port chosen", ["choose"]),
        ("how the lazily-loaded module is shown", ["lazy", "show"]),  # an adverb still asks
    ],
)
def test_a_participle_in_a_hyphenated_compound_asks_for_no_verb(
    query: str, added: list[str]
) -> None:
    terms = query_terms(query)
    assert with_base_words(terms, query)[len(terms) :] == added
    assert base_word("written", compound=True) is None and base_word("written") == "write"


def test_a_query_without_such_a_word_asks_exactly_as_before() -> None:
    terms = query_terms("which session hooks are merged into the request")
    assert with_base_words(terms) is terms


def test_an_overwritten_question_finds_the_overwrite_passage(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    memory.import_records(
        [
            {"kind": "belief", "id": "merge", "content": "Merge: overwrite=False keeps values"},
            {"kind": "belief", "id": "other", "content": "Cookies are kept in the jar as values"},
        ]
    )
    ids = [b.id for b in memory.retrieve("are existing values overwritten in the jar?").beliefs]
    assert ids[0] == "merge"
    assert "overwrit" in Terms("are existing values overwritten?").stems
    memory.close()
