"""``retrieval/line_floor.py``: the long candidates and the least their lines cost, from the
texts or from their lengths read once."""

from hypothesis import given, settings
from hypothesis import strategies as st

from credo.retrieval.line_floor import SHORT_CHARS, least_chars, long_ids, text_lengths


@settings(max_examples=300, deadline=None)
@given(texts=st.lists(st.text(max_size=2 * SHORT_CHARS), max_size=30))
def test_answers_from_texts_and_from_lengths_read_once_agree(texts: list[str]) -> None:
    """Both forms give what the definitions say: the ids longer than ``SHORT_CHARS`` in
    order, and each line's text, id and four characters of markup summed."""
    ids = [f"n{i}" for i in range(len(texts))]
    content = dict(zip(ids, texts, strict=True))
    lengths = text_lengths(ids, content)
    want_long = [i for i in ids if len(content[i]) > SHORT_CHARS]
    want_least = sum(len(content[i]) + len(i) + 4 for i in ids)
    assert long_ids(ids, content) == long_ids(ids, content, lengths) == want_long
    assert least_chars(ids, content) == least_chars(ids, content, lengths) == want_least


def test_a_text_exactly_short_is_not_long() -> None:
    """The bound is inclusive: ``SHORT_CHARS`` characters stay verbatim."""
    content = {"a": "x" * SHORT_CHARS, "b": "x" * (SHORT_CHARS + 1)}
    assert long_ids(["a", "b"], content) == ["b"]
