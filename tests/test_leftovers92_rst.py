"""reStructuredText readings stop 63 left alone (leftovers92, issue #14).

- A glossary entry of several terms over one definition (Sphinx's ``master document`` /
  ``root document``): docutils read the terms as a paragraph and the definition as a block
  quote with no term; now one entry, "master document, root document: The document ...".
- An image's ``:alt:`` text (a figure's too) was skipped with the image; it is a paragraph
  at its line, as Markdown's ``![alt](src)`` is read.
"""

from __future__ import annotations

from credo.knowledge.chunk.model import source_lines
from credo.knowledge.chunk.rst import split_rst
from credo.knowledge.doctor import range_holds

GLOSSARY = """Glossary
========

.. glossary::

   builder
      A class that converts parsed documents.

   master document
   root document
      The document that contains the root ``toctree`` directive.

      A second paragraph of it.

   environment
      A structure where information is saved.
"""


def rows(text: str) -> list[tuple[int, int, str, str]]:
    return [(c.start_line, c.end_line, c.role, c.text) for c in split_rst(text)]


def test_a_glossary_entry_of_two_terms_is_one_entry() -> None:
    assert rows(GLOSSARY) == [
        (1, 1, "heading", "Glossary"),
        (6, 7, "bullet", "builder: A class that converts parsed documents."),
        (
            9,
            11,
            "bullet",
            "master document, root document: The document that contains the root "
            "`toctree` directive.",
        ),
        (13, 13, "paragraph", "A second paragraph of it."),
        (15, 16, "bullet", "environment: A structure where information is saved."),
    ]


def test_a_glossary_s_ranges_hold_their_words() -> None:
    lines = source_lines(GLOSSARY)
    for chunk in split_rst(GLOSSARY):
        assert range_holds(lines, chunk.start_line, chunk.end_line, chunk.text), chunk


def test_a_glossary_of_three_terms_first_in_the_list() -> None:
    text = ".. glossary::\n\n   a term one\n   b term two\n   c term three\n      Its text.\n"
    assert rows(text) == [(3, 6, "bullet", "a term one, b term two, c term three: Its text.")]


def test_a_quote_after_a_paragraph_outside_a_glossary_stays_a_quote() -> None:
    text = "Some words\nmore words\n   an indented quote.\n"
    assert [t for _, _, _, t in rows(text)] == ["Some words more words", "an indented quote."]


IMAGES = """Title
=====

.. image:: img/lifecycle.png
   :alt: Diagram of the request lifecycle

.. figure:: img/y.png
   :alt: Alt words of the figure
   :width: 300

   Caption of the figure here.

.. image:: no-alt.png
"""


def test_an_image_s_alt_text_is_a_paragraph_at_its_line() -> None:
    assert rows(IMAGES) == [
        (1, 1, "heading", "Title"),
        (5, 5, "paragraph", "Diagram of the request lifecycle"),
        (8, 8, "paragraph", "Alt words of the figure"),
        (11, 11, "paragraph", "Caption of the figure here."),
    ]


def test_a_linked_image_s_alt_stays_unread() -> None:
    # A README's badges: ".. image:: https://img.shields.io/..." with ":target:".
    text = (
        "T\n=\n\n.. image:: https://img.shields.io/pypi/v/x.svg\n   :alt: PyPI version\n"
        "   :target: https://pypi.org/project/x\n\nBody text.\n"
    )
    assert [t for _, _, _, t in rows(text)] == ["T", "Body text."]


def test_a_substituted_image_s_alt_stays_unread() -> None:
    text = "T\n=\n\n.. |logo| image:: logo.png\n   :alt: The project logo\n\nText |logo| here.\n"
    assert [t for _, _, _, t in rows(text)] == ["T", "Text logo here."]


SUBSECTIONS = """Page
====

.. confval:: my_option

   The option text.

   Examples
   --------

   First example para.

   Sub ex
   ~~~~~~

   Sub para.

   Second
   ------

   Second para.

After the directive.
"""


def test_a_title_in_a_directive_s_body_opens_a_subsection_of_it() -> None:
    chunks = split_rst(SUBSECTIONS)
    assert [(c.start_line, c.role, c.section, c.text, c.context) for c in chunks] == [
        (1, "heading", ("Page",), "Page", ""),
        (4, "paragraph", ("Page",), "my_option: The option text.", ""),
        (8, "heading", ("Page", "Examples"), "Examples", "my_option"),
        (11, "paragraph", ("Page", "Examples"), "First example para.", "my_option"),
        (13, "heading", ("Page", "Examples", "Sub ex"), "Sub ex", "my_option"),
        (16, "paragraph", ("Page", "Examples", "Sub ex"), "Sub para.", "my_option"),
        (18, "heading", ("Page", "Second"), "Second", "my_option"),
        (21, "paragraph", ("Page", "Second"), "Second para.", "my_option"),
        (23, "paragraph", ("Page",), "After the directive.", ""),
    ]


def test_a_subsection_s_passage_carries_its_trail() -> None:
    from credo.knowledge.ingest.split import split_passages

    passages = split_passages("docs/conf.rst", SUBSECTIONS).chunks
    trails = [(p.start_line, p.end_line, p.section) for p in passages]
    assert (8, 11, ("Page", "Examples")) in trails
    assert (23, 23, ("Page",)) in trails


def test_a_card_s_header_and_footer_lines_stay_paragraphs() -> None:
    # sphinx-design: "^^^" ends a card's header, "+++" opens its footer; no sections.
    text = (
        "T\n=\n\n.. grid-item-card::\n\n    panel header\n    ^^^^^^^^^^^^\n"
        "    panel content\n    +++++++++++++\n    panel footer\n"
    )
    assert [(c.role, c.section, c.text) for c in split_rst(text)] == [
        ("heading", ("T",), "T"),
        ("paragraph", ("T",), "panel header"),
        ("paragraph", ("T",), "panel content"),
        ("paragraph", ("T",), "panel footer"),
    ]
