"""An -ly adverb in a query also asks for its adjective (store/inflection.py ``with_base_words``).

Porter (1980), the index's stemmer, keeps "lazily" (lazili) apart from "lazy" (lazi) and
"exactly" (exactli) from "exact", while it folds "usually" into "usual". The query side
closes that gap by a rule of English morphology over the query's own words.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.snippet import Terms
from credo.store.fts import MAX_QUERY_TERMS, STOPWORDS, query_terms
from credo.store.inflection import (
    adjective_of,
    base_words,
    with_base_words,
)
from credo.store.stem import stem


@pytest.mark.parametrize(
    ("word", "adjective"),
    [
        ("lazily", "lazy"),
        ("easily", "easy"),
        ("exactly", "exact"),
        ("explicitly", "explicit"),
        ("directly", "direct"),
        ("correctly", "correct"),
        ("quickly", "quick"),
        ("carefully", "careful"),
        ("particularly", "particular"),
        # Porter joins these already: nothing to add
        ("usually", None),
        ("differently", None),
        ("possibly", None),
        ("automatically", None),
        # not adverbs of an adjective: verbs in -ply, short stems, a stopword base
        ("apply", None),
        ("reply", None),
        ("supply", None),
        ("multiply", None),
        ("early", None),
        ("daily", None),
        ("likely", None),
        ("mostly", None),
        ("only", None),
        # not adverbs at all
        ("lazy", None),
        ("loading", None),
    ],
)
def test_adjective_of(word: str, adjective: str | None) -> None:
    assert adjective_of(word) == adjective


def test_the_adjective_is_what_the_index_holds_for_the_adjective() -> None:
    assert stem("lazily") != stem("lazy")  # the gap (if Porter closes it, drop the rule)
    assert stem(adjective_of("lazily") or "") == stem("lazy") == "lazi"


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=14))
def test_an_adjective_is_a_new_stem_of_four_letters_or_more(word: str) -> None:
    adjective = adjective_of(word)
    if adjective is None:
        return
    assert word.endswith("ly") and not word.endswith("ply")
    assert stem(word).endswith("li") and stem(adjective) != stem(word)
    assert len(stem(adjective)) >= 4 and adjective not in STOPWORDS
    assert word.startswith(adjective[:-1])  # the adverb's own letters ("-ily" -> "-y")


# Random words, and words each rule of with_base_words answers (adverb, participle,
# superlative, spelling) or must leave alone ("request", "latest").
_NAMED = ["fastest", "easiest", "request", "latest", "lazily", "written", "normalised", "setup"]
_WORDS = st.lists(
    st.one_of(
        st.text(alphabet="abcdeiklnotvwyz ", min_size=1, max_size=12), st.sampled_from(_NAMED)
    ),
    max_size=60,
)


@given(_WORDS)
def test_with_base_words_keeps_the_terms_and_appends_each_base_word_once(words: list[str]) -> None:
    terms = query_terms(" ".join(words))
    expanded = with_base_words(terms)
    assert expanded[: len(terms)] == terms
    assert len(set(expanded)) == len(expanded) <= max(MAX_QUERY_TERMS, len(terms))
    wanted = [a for t in terms for a in base_words(t) if a not in terms]
    assert expanded[len(terms) :] == list(dict.fromkeys(wanted))[: len(expanded) - len(terms)]
    if not any(base_words(t) for t in terms):
        assert expanded is terms  # a query without such an adverb asks exactly as before


def test_a_lazily_question_finds_the_lazy_passage(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    memory.import_records(
        [
            {"kind": "belief", "id": "lazy", "content": "Lazy loading defers the import"},
            {"kind": "belief", "id": "other", "content": "Which groups load their commands"},
        ]
    )
    ids = [b.id for b in memory.retrieve("which groups load lazily?").beliefs]
    assert ids[0] == "lazy"
    assert "lazi" in Terms("which groups load lazily?").stems
    memory.close()
