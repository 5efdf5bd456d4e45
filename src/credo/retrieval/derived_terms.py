"""A query word's derived relative (a -tion noun's verb, a verb's -tion noun), asked for
only where it can weigh no more than the reader's own word.

``store/derivation.py`` tells "description" from "describe" where Porter stems them apart.
Asked for at full weight (as base words are), the relative was measured to hurt more
questions than it helped (stop 56, terms75): the derived word is usually much rarer in the
project than the reader's word, so its IDF is higher and one stray occurrence ("describe"
once in a comment, where the API says ``description`` everywhere) outranks the real
match. BM25's weight of a term is its IDF, ``log((N - n + 0.5) / (n + 0.5))``, which falls
as the count ``n`` of rows holding it grows; so the relative is asked for only when the
index holds it in at least as many rows as the reader's word: then a row that holds only
the relative scores no more than a like row that holds the reader's word (the same term
frequency and length). A reader's word the project never uses (n = 0) is the plain
vocabulary gap: any relative the project holds is asked for.

An agent noun's verb and a comparative's adjective ("formatter" -> format, "older" ->
old) are no such equal: the verb names far more than the thing that does it, so it is
nearly always the commoner word and the count admits it, and measured so (stop 57) it
helped 2 bench questions and hurt 7 ("contributor" -> contribute, "constructor" ->
construct, "crawler" -> crawl, "older" -> old: each asked about the thing itself). Such a
wider word is asked for only where the project never uses the reader's (n = 0): "Which
formatter do we use?" in a project that says ``ruff format`` and nothing of a formatter.

Two count reads (``Store.term_rows``: the words, then the relatives they may take) for a
query with such a word, one when no relative can be admitted; none for the rest.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from functools import lru_cache
from typing import TYPE_CHECKING

from credo.store.derivation import base_of_agent, derived_of
from credo.store.fts import MAX_QUERY_TERMS
from credo.store.stem import stem

if TYPE_CHECKING:
    from credo.store.protocol import Store

# As inflection._TERMS_KEPT: a word's relative is a function of the word alone.
_TERMS_KEPT = 4096
_derived = lru_cache(maxsize=_TERMS_KEPT)(derived_of)
_wider = lru_cache(maxsize=_TERMS_KEPT)(base_of_agent)


def relatives(terms: list[str]) -> dict[str, str]:
    """term -> its derived relative (``derivation.derived_of``), for the terms that have
    one whose stem no term of ``terms`` has already."""
    others = list(map(_derived, terms))  # (C-level: most terms have none, all cached)
    if others.count(None) == len(others):
        return {}
    # A relative the query asks for already by another word of the same stem ("logger" ->
    # "log" beside "logging") would count that stem twice, as a second term of its own.
    asked = set(map(stem, terms))
    return {
        term: other
        for term, other in zip(terms, others, strict=True)
        if other is not None and stem(other) not in asked
    }


def admitted(related: dict[str, str], rows: dict[str, int]) -> list[str]:
    """The relatives of ``related`` (term -> relative) held by the index in at least as
    many rows as their term (``rows``: term -> rows holding it, absent for none), a wider
    word (``base_of_agent``) only for a term held nowhere; each once, in the order of
    their terms."""
    kept = (
        other
        for term, other in related.items()
        if rows.get(other, 0) >= max(rows.get(term, 0), 1)
        and (term not in rows or _wider(term) != other)
    )
    return list(dict.fromkeys(kept))


def with_relatives(store: "Store", terms: list[str]) -> list[str]:
    """``terms``, then the relatives ``admitted`` by the index's counts, within
    ``MAX_QUERY_TERMS``; ``terms`` itself when no term has a relative."""
    related = relatives(terms)
    if not related:
        return terms
    rows = store.term_rows(list(related))
    # A wider word is admitted only for a word held nowhere: most agent nouns are held, and
    # their verb need not be counted (each count is an FTS5 statement on a cold index).
    asked = [o for t, o in related.items() if t not in rows or _wider(t) != o]
    if not asked:
        return terms
    rows = {**rows, **store.term_rows(asked)}
    extra = admitted(related, rows)
    if not extra:
        return terms
    return (terms + extra)[: max(MAX_QUERY_TERMS, len(terms))]
