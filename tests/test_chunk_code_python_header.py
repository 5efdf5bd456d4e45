"""A Python header's comments and the signature cap: a comment the cap would cut stays whole.

A comment between a ``def``'s colon and its first statement (or between its parameters) is
part of its header, kept in the signature as written. When the header passed
`MAX_SIGNATURE_CHARS`, `signature` cut it, and the comment's words past the cut were in no
chunk (urllib3's ``HTTPConnection.request``: "... This only triggers if the connection is
re-used."; 12 of 2,190 definitions of the dev Python corpora). Main (21029d04) fails the
first and the property test.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import split_code
from credo.store.stem import tokens
from tests.test_chunk_code import check

_PARAMETERS = ", ".join(f"option_{n}: bool = True" for n in range(10))
_LONG = f"""\
class Connection:
    def request(self, {_PARAMETERS}) -> None:
        # Update the socket's timeout value to send the request.
        # This only triggers if the connection is re-used.
        if self.sock is not None:
            self.sock.settimeout(self.timeout)
"""


def test_a_comment_the_cap_would_cut_is_a_comment_of_the_definition() -> None:
    chunks = split_code(_LONG, "python")
    head = next(c for c in chunks if c.section == ("Connection", "request"))
    assert head.role == "definition" and "#" not in head.text and "socket" not in head.text
    assert head.text.endswith("option_9: bool = True) -> None")
    comments = [
        (c.text, c.start_line, c.end_line, c.section) for c in chunks if c.role == "code_comment"
    ]
    assert comments == [
        (
            "Update the socket's timeout value to send the request. This only triggers if the"
            " connection is re-used.",
            3,
            4,
            ("Connection", "request"),
        )
    ]
    check(chunks, _LONG)


def test_a_short_header_keeps_its_comment_as_written() -> None:
    source = "def f(a):\n    # Says what f does.\n    return a\n"
    [chunk] = split_code(source, "python")
    assert chunk.text == "def f(a): # Says what f does."


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=0, max_value=20),
    st.lists(st.integers(min_value=1, max_value=40), min_size=1, max_size=4),
)
def test_every_header_comment_word_is_in_a_chunk_over_its_line(
    parameters: int, comment_words: list[int]
) -> None:
    names = ", ".join(f"p{n}" for n in range(parameters))
    comment_rows = [
        "    # " + " ".join(f"w{row}x{k}" for k in range(count))
        for row, count in enumerate(comment_words)
    ]
    source = f"def target({names}):\n" + "\n".join(comment_rows) + "\n    return None\n"
    chunks = split_code(source, "python")
    for number, row in enumerate(comment_rows, 2):
        held: set[str] = set()
        for chunk in chunks:
            if chunk.start_line <= number <= chunk.end_line:
                held |= set(tokens(chunk.text))
        assert set(tokens(row)) <= held, (number, [c.text for c in chunks])
    check(chunks, source)


def test_overloads_cut_at_the_cap_keep_their_return_annotations_apart() -> None:
    """Two overloads of one long header that differ past the cap (openai's
    ``Transcriptions.create``): cut alike, they were one text, one belief, the second in
    none. The cut keeps each one's return annotation."""
    long = ", ".join(f"option_{n}: str | None = None" for n in range(12))
    source = f"""\
class Client:
    @overload
    def create(self, {long}, stream: Literal[False]) -> Reply: ...

    @overload
    def create(self, {long}, stream: Literal[True]) -> Stream[Reply]: ...
"""
    heads = [c.text for c in split_code(source, "python") if c.role == "definition"][1:]
    assert len(heads) == 2 and heads[0] != heads[1]
    assert heads[0].endswith(" … ) -> Reply") and heads[1].endswith(" … ) -> Stream[Reply]")
