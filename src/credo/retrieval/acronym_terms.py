"""A query's words bridged through the acronyms the project itself defines: a query saying
"version control" also asks for "vcs" where a page writes "version control systems (VCS)",
and one saying "VCS" also asks for "version control systems".

Ingest learns the definitions (knowledge/chunk/acronym.py, Schwartz and Hearst 2003) and
keeps them by file (store/acronyms.py); no word list is shipped. An acronym stands for its
whole long form, so each bridge is one term: the acronym, or the long form as a phrase
(FTS5 matches a quoted phrase's words in order, stemmed).

Gated as derived_terms gates a word's relatives, by the index's counts (``term_rows``, a
phrase's too): a bridge is asked for only when the index holds it in at least as many rows
as the reader's own term, so it weighs no more in BM25 (IDF falls as that count grows).
Without the gate, a long form spelt out once (in its definition) beside an acronym used on
every page would rank the definition first for a reader who wrote the acronym, and the
other way round.

The reader may spell out the long form whole or leave out its first or last word ("version
control" for "version control systems", "package index" for "Python Package Index"); the
gate then compares the acronym with the words the reader wrote, as a phrase: a sub-phrase
the project uses for other things too ("Python package") is commoner than the acronym and
is refused. An acronym the project spells out two ways is left alone (which one the reader
means is not known).
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from credo.retrieval.base_terms import base_terms
from credo.retrieval.derived_terms import with_relatives
from credo.store.fts import MAX_QUERY_TERMS, STOPWORDS
from credo.store.stem import stem

if TYPE_CHECKING:
    from credo.store.protocol import Store

_WORD = re.compile(r"[a-z0-9]+")

# short form -> (its long form's words, their stems): content words only, lower case.
Table = dict[str, tuple[tuple[str, ...], tuple[str, ...]]]


def terms_asked(store: "Store", text: str) -> list[str]:
    """The query's terms: its words and their base words (base_terms.py), the relatives the
    index admits (derived_terms.py), then the acronym bridges it admits (this module)."""
    return with_acronyms(store, with_relatives(store, base_terms(text)), text)


def with_acronyms(store: "Store", terms: list[str], text: str) -> list[str]:
    """``terms``, then the bridges the index's counts admit (module docstring), within
    ``MAX_QUERY_TERMS``; ``terms`` itself when none applies."""
    pairs = store.acronyms()
    if not pairs:  # most stores: a project whose prose defines no acronym
        return terms
    extra = bridges(table_of(pairs), terms, text, store.term_rows)
    if not extra:
        return terms
    return (terms + extra)[: max(MAX_QUERY_TERMS, len(terms))]


@lru_cache(maxsize=8)  # (one store's pairs, as read once a version: the same tuple)
def table_of(pairs: tuple[tuple[str, str], ...]) -> Table:
    """The (short, long) ``pairs`` as a table; a short form with two long forms (by stem)
    is left out."""
    found: dict[str, set[tuple[str, ...]]] = {}
    words: dict[tuple[str, ...], tuple[str, ...]] = {}
    for short, long in pairs:
        content = tuple(w for w in _WORD.findall(long) if w not in STOPWORDS)
        key = tuple(map(stem, content))
        found.setdefault(short, set()).add(key)
        words.setdefault(key, content)
    table: Table = {}
    for short, keys in found.items():
        if len(keys) == 1:
            (key,) = keys
            table[short] = (words[key], key)
    return table


def bridges(
    table: Table,
    terms: list[str],
    text: str,
    term_rows: Callable[[list[str]], dict[str, int]],
) -> list[str]:
    """The bridges ``terms`` (read from ``text``) take through ``table``, each held by the
    index (``term_rows``: term or phrase -> rows holding it) in at least as many rows as
    the reader's own term or phrase; none already among ``terms``."""
    named = {short: " ".join(table[short][0]) for short in table if short in terms}
    spelt = {s: said for s, said in _spelt_out(table, text).items() if s not in terms}
    if not named and not spelt:
        return []
    rows = term_rows(sorted({*named, *named.values(), *spelt, *spelt.values()}))
    extra = [long for short, long in named.items() if _admits(rows, short, long)]
    extra += [short for short, said in spelt.items() if _admits(rows, said, short)]
    return [term for term in dict.fromkeys(extra) if term not in terms]


def _admits(rows: dict[str, int], reader: str, bridge: str) -> bool:
    return rows.get(bridge, 0) >= max(rows.get(reader, 0), 1)


def _spelt_out(table: Table, text: str) -> dict[str, str]:
    """short form -> the words of its long form ``text`` writes in a row (all of them, or
    all but the first or the last, and at least two), as one phrase."""
    words = [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]
    if len(words) < 2:
        return {}
    said = f" {' '.join(map(stem, words))} "
    found: dict[str, str] = {}
    for short, (long, key) in table.items():
        runs = ((0, len(key)),) if len(key) == 2 else ((0, len(key)), (1, len(key)), (0, -1))
        for start, end in runs:
            if f" {' '.join(key[start:end])} " in said:
                found[short] = " ".join(long[start:end])
                break
    return found
