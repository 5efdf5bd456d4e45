"""The query's terms with their base words (and a letters-and-number name's other form),
worked out once a query.

``_rank`` (retrieval/pipeline.py) reads ``with_base_words(query_terms(text), text)`` first,
and ``snippet.Terms`` reads the same of the same text when the pack renders a long
candidate (about every other query): ~35k instructions done twice (cachegrind, on the 10k
bench's queries). The last text's answer is kept, so the second read is a lookup.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from credo.retrieval.last_answer import keeps_last
from credo.store.fts import query_terms
from credo.store.inflection import with_base_words
from credo.store.letter_digits import with_letter_digit_forms

# The query's own words (``query_terms``), the last text's kept: read here, then by the
# spread step's "asks several things" gate (retrieval/spread.py), ~60k instructions a read.
query_words = keeps_last(query_terms)


@keeps_last
def base_terms(text: str) -> list[str]:
    """``with_base_words(query_terms(text), text)``, then the other form of a name of
    letters and a number ("HTTP/2" asks for ``http2``: ``with_letter_digit_forms``): a
    new list each call (a caller may change its own), the last text's answer kept."""
    return with_letter_digit_forms(with_base_words(query_words(text), text), text)
