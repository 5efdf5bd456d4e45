"""The query's terms with their base words, worked out once a query.

``_rank`` (retrieval/pipeline.py) reads ``with_base_words(query_terms(text), text)`` first,
and ``snippet.Terms`` reads the same of the same text when the pack renders a long
candidate (about every other query): ~35k instructions done twice (cachegrind, on the 10k
bench's queries). The last text's answer is kept, so the second read is a lookup.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from credo.store.fts import query_terms
from credo.store.inflection import with_base_words

# (text, its terms): one tuple, so a thread reads a text with its own terms, never another's
_last: tuple[str | None, tuple[str, ...]] = (None, ())


def base_terms(text: str) -> list[str]:
    """``with_base_words(query_terms(text), text)``: a new list each call (a caller may
    change its own), the last text's answer kept."""
    global _last
    last = _last
    if last[0] == text:
        return list(last[1])
    terms = with_base_words(query_terms(text), text)
    _last = (text, tuple(terms))
    return terms
