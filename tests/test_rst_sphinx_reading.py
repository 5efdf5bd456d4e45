"""What a Sphinx page's markup must not lose on its way into chunks (bench/reading_audit.py
found each case on a dev tree's reference pages)."""

from __future__ import annotations

from credo.knowledge.chunk import split_rst


def brief(text: str) -> list[tuple[str, int, int]]:
    return [(c.text, c.start_line, c.end_line) for c in split_rst(text)]


def test_a_described_class_keeps_its_signature_and_body() -> None:
    """``.. class::`` is Sphinx's Python class description, not docutils' styling
    directive: read as docutils', the body (nested attributes included) went to a pending
    node and was lost (every ``.. class::`` of scrapy's reference pages)."""
    text = (
        ".. class:: TextResponse(url, [encoding])\n\n"
        "    Adds encoding capabilities.\n\n"
        "    .. attribute:: TextResponse.text\n\n"
        "       Response body, as a string.\n"
    )
    assert brief(text) == [
        ("TextResponse(url, [encoding]): Adds encoding capabilities.", 1, 3),
        ("TextResponse.text: Response body, as a string.", 5, 7),
    ]
