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


@settings(max_examples=300, deadline=None)
@given(texts=st.dictionaries(st.text(min_size=1, max_size=12), st.text(max_size=300), max_size=30))
def test_any_ids_and_texts_give_the_definitions(texts: dict[str, str]) -> None:
    """Ids of any characters (wide, astral, combining: the ids' characters are counted by
    one join, the texts' by length) give the definitions' answers, from texts and from
    lengths."""
    ids = list(texts)
    lengths = text_lengths(ids, texts)
    want_least = sum(len(texts[i]) + len(i) + 4 for i in ids)
    assert least_chars(ids, texts) == least_chars(ids, texts, lengths) == want_least
    want_long = [i for i in ids if len(texts[i]) > SHORT_CHARS]
    assert long_ids(ids, texts) == long_ids(ids, texts, iter(lengths)) == want_long
