"""A README's badges: not a heading's title, and their URLs are no passage's sources.

logrus' README opens ``# Logrus <img ...> [![Build Status](...)](...) ... [![Go Reference]
(...)](...)``: its title read "Logrus Build Status Build Status Go Reference", the trail of
every passage of the file (indexed in their context field, shown in every hit), and the
badges' image and link URLs were the sources of its first passage (probe90, stop 63).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk.inline import clean_inline
from credo.knowledge.chunk.markdown import split_markdown

LOGRUS = (
    '# Logrus <img src="http://i.imgur.com/hTeVwmJ.png" width="40" height="40" alt=":walrus:"'
    ' class="emoji" title=":walrus:"/> [![Build Status](https://github.com/sirupsen/logrus/'
    "workflows/CI/badge.svg)](https://github.com/sirupsen/logrus/actions?query=workflow%3ACI)"
    " [![Build Status](https://travis-ci.org/sirupsen/logrus.svg?branch=master)](https://"
    "travis-ci.org/sirupsen/logrus) [![Go Reference](https://pkg.go.dev/badge/github.com/"
    "sirupsen/logrus.svg)](https://pkg.go.dev/github.com/sirupsen/logrus)\n\n"
    "Logrus is a structured logger for Go (golang).\n\n"
    "#### Fields\n\nLogrus encourages careful, structured logging through logging fields.\n"
)


def test_a_heading_s_badges_are_not_its_title() -> None:
    chunks = split_markdown(LOGRUS)
    assert [c.text for c in chunks if c.role == "heading"] == ["Logrus", "Fields"]
    assert {c.section for c in chunks} == {("Logrus",), ("Logrus", "Fields")}
    assert all(c.links == () for c in chunks)


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ("# Proj [![Docs](https://d.io/b.svg)](https://d.io)", "Proj"),
        ("## Usage ![logo](logo.png)", "Usage"),
        ("# Proj [![Build][ci-badge]][ci]", "Proj"),
        (
            '# <img src="logo.png" alt="RxJS Logo"> RxJS: Reactive Extensions',
            "RxJS: Reactive Extensions",
        ),
        # a heading of images alone (a logo) is titled by their text, as before
        ("# ![Rich](logo.svg)", "Rich"),
        ("# [![Rich](logo.svg)](https://rich.io)", "Rich"),
        # markup inside code is not an image
        ("# Write `![alt](src)` for an image", "Write `![alt](src)` for an image"),
        ("# Links [like this](https://l.io)", "Links like this"),
    ],
)
def test_heading_titles(heading: str, title: str) -> None:
    text = f"{heading}\n\nSome words under it.\n\n[ci-badge]: https://ci.io/b.svg\n[ci]: https://ci.io\n"
    chunks = split_markdown(text)
    assert chunks[0].role == "heading"
    assert chunks[0].text == title
    assert chunks[1].section == (title,)


def test_reference_badges_read_as_their_text() -> None:
    """A reference-style badge, ``[![PyPI Version][pypi-v-image]][pypi-v-link]`` (mkdocs',
    express' and mcp's READMEs), read "![PyPI Version]pypi-v-image": the outer reference link
    was read first and its text, the image, left as written."""
    text = (
        "# MkDocs\n\n"
        "[![PyPI Version][pypi-v-image]][pypi-v-link]\n"
        "[![Build Status][GHAction-image]][GHAction-link]\n\n"
        "[pypi-v-image]: https://img.shields.io/pypi/v/mkdocs.svg\n"
        "[pypi-v-link]: https://pypi.org/project/mkdocs/\n"
        "[GHAction-image]: https://github.com/mkdocs/mkdocs/workflows/CI/badge.svg\n"
        "[GHAction-link]: https://github.com/mkdocs/mkdocs/actions\n"
    )
    paragraph = split_markdown(text)[1]
    assert paragraph.text == "PyPI Version Build Status"
    assert paragraph.links == ()


def test_reference_images_and_links_keep_their_meaning() -> None:
    text = (
        "See [the guide][g] and ![diagram][d], ![shortcut] and [g].\n\n"
        "[g]: guide.md\n[d]: img/d.png\n[shortcut]: img/s.png\n"
    )
    (chunk,) = split_markdown(text)
    assert chunk.text == "See the guide and diagram, shortcut and g."
    assert chunk.links == ("guide.md",)


def test_an_unresolved_reference_image_stays_as_written() -> None:
    (chunk,) = split_markdown("Text ![alt][nowhere] and [x][nowhere] here.\n")
    assert chunk.text == "Text ![alt][nowhere] and [x][nowhere] here."


def test_control_characters_in_the_text_are_no_image_marks() -> None:
    (chunk,) = split_markdown("# A \x01b\x02 c [d](e.md)\n")
    assert chunk.text == "A b c d"
    assert chunk.links == ("e.md",)


_PIECES = st.sampled_from(
    [
        "word",
        "Title",
        "![alt](a.png)",
        "![alt][img]",
        "![img]",
        "[![b](b.svg)](https://ci.io)",
        "[![b][img]][ci]",
        "[text](https://t.io)",
        "[ci]",
        '<img src="i.png" alt="x">',
        '<a href="https://h.io"><img src="h.svg"></a>',
        '<a href="https://d.io">Docs</a>',
        "`![code](c)`",
        "\x01",
        "\x02",
        "[",
        "]",
        "(",
        ")",
        "!",
        " ",
    ]
)
_REFS = {"img": "https://img.io/b.svg", "ci": "https://ci.io/page"}


@given(st.lists(_PIECES, max_size=12).map("".join))
@settings(max_examples=300)
def test_a_title_without_images_keeps_the_links_and_a_subsequence_of_the_text(raw: str) -> None:
    """Reading without images drops text, never adds any, and finds the same links; no
    image mark is left in a text (a control character the file holds may be, as before)."""
    with_images, links = clean_inline(raw, _REFS)
    without, same_links = clean_inline(raw, _REFS, images=False)
    assert same_links == links
    shown = iter("".join(with_images.split()))  # (an image may sit inside a word: "a![b](c)")
    assert all(any(c == d for d in shown) for c in "".join(without.split()))
    for mark in ("\x01", "\x02"):
        assert with_images.count(mark) <= raw.count(mark)
        assert without.count(mark) <= raw.count(mark)
