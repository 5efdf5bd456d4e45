"""The words of a note's compound names, for the keyword index's context column.

unicode61 cuts text at ``_`` and ``.``, so ``get_next_fire_time`` and ``apscheduler.jobstores``
are found by their words already, but a camelCase or PascalCase name is one token:
"Decision: we keep jobs in the SQLAlchemyJobStore" was not found by "which job store do we
use". An ingested passage's context (knowledge/ingest/context.py) carries the words of the
names of its path, titles and body, split, in the index's context column. A belief that
has no context (a note, a decision, a fact, a conversation's turn: nothing the ingester
wrote) is indexed with the words of its own text's compound names in that column instead
(``index_context``): the same column and the same split (store/identifier.py), read by the
FTS5 triggers and view (m017) and by PostgreSQL's tokenizer alike. The belief's stored
context stays "": the words are the index's, not a place shown with the belief.

Only a belief without a context: a passage's context is what its reader wrote (its body's
names split already in code), and a change there is a reader change with its own benches.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re
from functools import cache, lru_cache

from credo.store.index_text import index_text

# A word whose case changes inside it (as store/identifier.py's _CASE_CHANGE): a lower-case
# letter or digit before an upper-case one, or an acronym before a word.
_CASE_CHANGE = r"[a-z0-9][A-Z]|[A-Z][A-Z][a-z]"
_NAME = r"[A-Za-z][A-Za-z0-9]*"
# In a text that is not all ASCII a name starts at a letter of any script: read from its
# first ASCII letter, "İstanbulCity" gave "stanbul city", "naïveBayes" "ve bayes" (review85).
# (the ASCII pattern for the rest: str.isascii is a flag, and the wide class costs more)
_ANY_NAME = r"[^\W\d_][^\W_]*"
# What every case change holds, an upper-case letter after a letter or digit, written to
# start with its rare letter: the regex engine skips to each upper-case letter in C, a
# quarter of `_CASE_CHANGE`'s cost on prose (whose every character may start it).
_UPPER_INSIDE = r"[A-Z](?<=[A-Za-z0-9][A-Z])"


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    """Compiled at first use: the hook imports the store for every prompt."""
    return tuple(map(re.compile, (_UPPER_INSIDE, _CASE_CHANGE, _NAME, _ANY_NAME)))


# An update's trigger reads a row's text twice (as OLD and NEW: a forget, an edit of its
# evidence): the words of the last few texts are kept.
@lru_cache(maxsize=64)
def compound_words(text: str) -> str:
    """The words of the camelCase and PascalCase names of ``text`` that split into two or
    more (``SQLAlchemyJobStore`` -> "sql alchemy job store"), each word once, in order;
    "" when it has none (most prose: one scan in C)."""
    upper_inside, case_change, name, any_name = _patterns()
    if upper_inside.search(text) is None:
        return ""
    ascii_text = text.isascii()
    from credo.store.identifier import identifier_parts  # (imports fts, which imports us)

    words: dict[str, None] = {}
    for word in (name if ascii_text else any_name).findall(text):
        # (no upper-case letter past the first: no case change, and no regex call)
        if not word[1:].islower() and case_change.search(word):
            parts = identifier_parts(word)
            if len(parts) >= 2:
                words.update(dict.fromkeys(parts))
    found = " ".join(words)
    # (as the index reads a context: a query's "strasse" for "Straße", an "İ" as "i")
    return found if ascii_text or found.isascii() else index_text(found)


def index_context(content: str, context: str) -> str:
    """The context column as the keyword index reads it: ``context`` by the index's rule
    (store/index_text.py), or, for a belief without one, its text's `compound_words`."""
    return index_text(context) if context else compound_words(content)
