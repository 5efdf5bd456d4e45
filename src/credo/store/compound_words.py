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
# In a text that is not all ASCII its letters are read by their shapes
# (store/identifier.py's ``letter_shapes``: upper, lower, digit, other), so a name starts at
# a letter of any script and a case change is one between letters of any script: read from
# its first ASCII letter, "İstanbulCity" gave "stanbul city" (review85); read only where an
# ASCII capital follows an ASCII letter, "caféLatte", "ΑλφαΒήτα" and "ИмяФайла" gave nothing,
# and a combining mark cut "naïveBayes" (NFD) into "ve bayes" (review86).
# What every case change holds, an upper-case letter after a letter or digit, written to
# start with its rare letter: the regex engine skips to each upper-case letter in C, a
# quarter of `_CASE_CHANGE`'s cost on prose (whose every character may start it).
_UPPER_INSIDE = r"[A-Z](?<=[A-Za-z0-9][A-Z])"


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    """Compiled at first use: the hook imports the store for every prompt."""
    return tuple(map(re.compile, (_UPPER_INSIDE, _CASE_CHANGE, _NAME)))


class _NameShapes(dict[int, str]):
    """A character's shape (store/identifier.py's ``letter_shapes``), a letter without case
    (CJK, Thai) read as a lower-case one: it is inside a name ("東京TowerBridge"), and the
    name's parts leave it out. Found once per character."""

    def __missing__(self, code: int) -> str:
        from credo.store.identifier import letter_shapes

        char = chr(code)
        shape = letter_shapes(char)
        self[code] = shape = "a" if shape == "_" and char.isalpha() else shape
        return shape


_NAME_SHAPES = _NameShapes()


# An update's trigger reads a row's text twice (as OLD and NEW: a forget, an edit of its
# evidence): the words of the last few texts are kept.
@lru_cache(maxsize=64)
def compound_words(text: str) -> str:
    """The words of the camelCase and PascalCase names of ``text`` that split into two or
    more (``SQLAlchemyJobStore`` -> "sql alchemy job store"), each word once, in order;
    "" when it has none (most prose: one scan in C)."""
    upper_inside, case_change, name = _patterns()
    ascii_text = text.isascii()
    from credo.store.identifier import identifier_parts  # (imports fts, which imports us)

    shapes = text if ascii_text else text.translate(_NAME_SHAPES)  # (same places)
    if upper_inside.search(shapes) is None:
        return ""
    words: dict[str, None] = {}
    for found in name.finditer(shapes):
        shape = found.group()
        # (no upper-case letter past the first: no case change, and no regex call)
        if not shape[1:].islower() and case_change.search(shape):
            parts = identifier_parts(text[found.start() : found.end()])
            if len(parts) >= 2:
                words.update(dict.fromkeys(parts))
    joined = " ".join(words)
    # (as the index reads a context: a query's "strasse" for "Straße", an "İ" as "i")
    return joined if ascii_text or joined.isascii() else index_text(joined)


def index_context(content: str, context: str) -> str:
    """The context column as the keyword index reads it: ``context`` by the index's rule
    (store/index_text.py), or, for a belief without one, its text's `compound_words`."""
    return index_text(context) if context else compound_words(content)
