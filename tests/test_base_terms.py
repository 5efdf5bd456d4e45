"""``base_terms``: the query's terms with their base words, read once a query by ``_rank``
and ``snippet.Terms`` both."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import credo.retrieval.base_terms as base_terms_module
from credo.retrieval.base_terms import base_terms
from credo.retrieval.snippet import Terms
from credo.store.fts import query_terms
from credo.store.inflection import with_base_words
from credo.store.letter_digits import with_letter_digit_forms
from credo.store.stem import stem, tokens

_TEXTS = [
    "how is the cache lazily invalidated",
    "taken tests",
    "",
    "the a of",
    "well-known hand-written parsers",
    "checkRateLimit callers",
    "Straße café 東京都",
    "lines 2 and 4 of release 4.10.2",
    "are HTTP/2 connections reused, and is utf8 assumed?",
]


def _reference(text: str) -> list[str]:
    """What ``base_terms`` answers, worked out plainly: the base words, then a letters and
    number name's other form (store/letter_digits.py)."""
    return with_letter_digit_forms(with_base_words(query_terms(text), text), text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TEXTS) | st.text(max_size=40), max_size=8))
def test_base_terms_are_with_base_words_of_query_terms_in_any_order_asked(
    texts: list[str],
) -> None:
    """Asked in any order, repeated or not: each answer is the plain reference's, and a
    caller that changes its list changes no later answer."""
    for text in texts:
        got = base_terms(text)
        assert got == _reference(text)
        got.append("changed by its caller")
        assert base_terms(text) == _reference(text)


def test_terms_read_after_rank_s_do_not_work_them_out_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``snippet.Terms`` of the query ``_rank`` has just read: no second
    ``with_base_words(query_terms(...))`` (fails before glue74: Terms worked them out again)."""
    calls: list[str] = []

    def counted(terms: list[str], text: str = "") -> list[str]:
        calls.append(text)
        return with_base_words(terms, text)

    monkeypatch.setattr(base_terms_module, "with_base_words", counted)
    query = "where are the retried uploads taken from"
    ranked = base_terms(query)  # (as _rank reads them)
    terms = Terms(query)
    assert calls == [query]
    words = with_base_words(query_terms(query), query)
    assert terms.stems == frozenset(stem(t) for term in words for t in tokens(term))
    assert ranked == with_base_words(query_terms(query), query)
