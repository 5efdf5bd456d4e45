"""A query's words bridged through the acronyms the project defines (chunk/acronym.py): a
query saying "version control" also asks for "vcs" where a page writes "version control
systems (VCS)", and one saying "VCS" also asks for the words it stands for.

Gated as derived_terms gates a word's relatives, by the index's counts (``term_rows``),
so the added word weighs no more in BM25 than the reader's own (IDF falls as the count of
rows holding a term grows):

- an acronym the query names asks for each word of its long form held in at least as
  many rows as the acronym (all of them when the acronym is held nowhere);
- a long form the query spells out asks for its acronym when the acronym is held in at
  least as many rows as the rarest of the reader's words it stands for. The reader may
  leave out one word of the long form, the one the index holds most often (its least
  telling word: "version control" for "version control systems", "package index" for
  "Python Package Index", never "Python package" for it).

An acronym the project spells out two ways is left alone (which one the reader means is
not known).

PROTOTYPE (stop 58, acro81): the project's definitions are read here from the stored
passages' texts, once per store object, not from a table ingest writes; it measures the
query side's effect and is not meant to ship as it is (see /tmp/s58/report_acro81.md).
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re
from typing import TYPE_CHECKING

from credo.knowledge.chunk.acronym import definitions
from credo.store.fts import MAX_QUERY_TERMS, STOPWORDS
from credo.store.stem import stem

if TYPE_CHECKING:
    from credo.store.protocol import Store

_WORD = re.compile(r"[a-z0-9]+")

# short form -> its long form's content words (as written, lower case); a short form
# with two long forms (by stem) is left out.
Table = dict[str, tuple[str, ...]]


def table_of(texts: list[str]) -> Table:
    """The project's acronyms, from the texts of its passages."""
    found: dict[str, set[tuple[str, ...]]] = {}
    words: dict[tuple[str, ...], tuple[str, ...]] = {}
    for text in texts:
        for short, long in definitions(text):
            content = tuple(w for w in _WORD.findall(long) if w not in STOPWORDS)
            key = tuple(map(stem, content))
            found.setdefault(short, set()).add(key)
            words.setdefault(key, content)
    return {short: words[next(iter(keys))] for short, keys in found.items() if len(keys) == 1}


def _store_table(store: "Store") -> Table:
    table = getattr(store, "_acronym_table", None)
    if table is None:
        conn = store.conn  # type: ignore[attr-defined]
        rows = conn.execute("SELECT content FROM beliefs WHERE deleted_at IS NULL").fetchall()
        table = table_of([content for (content,) in rows if "(" in content])
        store._acronym_table = table  # type: ignore[attr-defined]
    return table


def with_acronyms(store: "Store", terms: list[str], text: str) -> list[str]:
    """``terms``, then the acronym words the index's counts admit (module docstring),
    within ``MAX_QUERY_TERMS``; ``terms`` itself when none applies."""
    table = _store_table(store)
    if not table:
        return terms
    extra = asked_for(table, terms, text, store.term_rows)
    if not extra:
        return terms
    return (terms + extra)[: max(MAX_QUERY_TERMS, len(terms))]


def asked_for(table: Table, terms: list[str], text: str, term_rows) -> list[str]:  # noqa: ANN001
    """The words ``terms`` (from ``text``) ask for through ``table``, gated by
    ``term_rows`` (term or phrase -> rows holding it)."""
    named = [short for short in table if short in terms]
    spoken = {s: p for s, p in _spelt_out(table, text).items() if s not in terms}
    if not named and not spoken:
        return []
    longs = {short: " ".join(table[short]) for short in named}
    rows = term_rows(sorted({*named, *longs.values(), *spoken, *spoken.values()}))
    # each bridge only to a term held in at least as many rows as the reader's own
    extra = [longs[s] for s in named if rows.get(longs[s], 0) >= max(rows.get(s, 0), 1)]
    extra += [s for s, said in spoken.items() if rows.get(s, 0) >= max(rows.get(said, 0), 1)]
    return [w for w in dict.fromkeys(extra) if w not in terms]


def _spelt_out(table: Table, text: str) -> dict[str, str]:
    """short form -> the words of its long form the query writes in a row (all of them,
    or all but the first or the last, and at least two), as one phrase."""
    words = [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]
    if len(words) < 2:
        return {}
    stems = list(map(stem, words))
    joined = f" {' '.join(stems)} "
    found: dict[str, str] = {}
    for short, long in table.items():
        key = list(map(stem, long))
        runs = [(0, len(key))] if len(key) == 2 else [(0, len(key)), (1, len(key)), (0, -1)]
        for start, end in runs:
            if f" {' '.join(key[start:end])} " in joined:
                found[short] = " ".join(long[start:end])
                break
    return found
