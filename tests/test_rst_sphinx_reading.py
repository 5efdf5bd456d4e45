"""What a Sphinx page's markup must not lose on its way into chunks (bench/reading_audit.py
found each case on a dev tree's reference pages)."""

from __future__ import annotations

from credo.knowledge.chunk import split_rst
from credo.knowledge.doctor import range_holds


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


def test_a_named_directive_s_label_is_the_context_of_its_whole_body() -> None:
    """A signature leads its first paragraph only; the rest of a long description (a
    field list, more paragraphs, code) was found by no word of the name it describes
    (scrapy's, flask's and setuptools' reference pages: 7% of the lines of a description).
    Its label is now their context, as a section title is its passages' trail."""
    text = (
        ".. py:method:: Spider.from_crawler(crawler)\n\n"
        "   Create a spider.\n\n"
        "   :param crawler: the crawler\n\n"
        "   More words.\n\n"
        "   .. code-block:: python\n\n"
        "      make()\n\n"
        "   .. versionchanged:: 2.11\n\n"
        "      Settings may change.\n\n"
        "After the directive.\n"
    )
    chunks = split_rst(text)
    assert [(c.text, c.context) for c in chunks] == [
        ("Spider.from_crawler(crawler): Create a spider.", ""),
        ("param crawler: the crawler", "Spider.from_crawler(crawler)"),
        ("More words.", "Spider.from_crawler(crawler)"),
        ("make()", "Spider.from_crawler(crawler)"),
        ("versionchanged 2.11: Settings may change.", "Spider.from_crawler(crawler)"),
        ("After the directive.", ""),
    ]


def test_an_admonition_or_version_label_is_no_context() -> None:
    """Only a directive whose argument names its content passes it on: a note has no
    argument, a version label says when, not what."""
    text = (
        ".. note::\n\n   First.\n\n   Second.\n\n"
        ".. versionchanged:: 2.1\n\n   First.\n\n   Second one.\n"
    )
    assert {c.context for c in split_rst(text)} == {""}


def test_a_table_cell_beside_a_list_is_found_in_its_row() -> None:
    """Each cell of a row is looked for from the row's start: the short cell beside a
    cell holding a list was looked for after the list's last line, matched by its words
    far down the file, and every block between was lost (600 lines of scrapy's
    news.rst, from its "scrapy.extensions.*" row on)."""
    text = (
        "+--------------+-----------------+\n"
        "| * old.one    | new.place       |\n"
        "| * old.two    |                 |\n"
        "+--------------+-----------------+\n"
        "\n"
        "Bug fixes in between.\n"
        "\n"
        "- Moved to new.place at last.\n"
    )
    assert brief(text) == [
        ("old.one", 2, 2),
        ("old.two", 3, 3),
        ("new.place", 2, 2),
        ("Bug fixes in between.", 6, 6),
        ("Moved to new.place at last.", 8, 8),
    ]


def test_a_code_tab_is_code_of_its_section() -> None:
    """sphinx-tabs' ``code-tab`` holds code, as ``code-block`` does (it was skipped:
    nox's usage page lost the commands it shows)."""
    text = ".. tabs::\n\n   .. code-tab:: console CLI options\n\n      nox -s lint tests\n"
    assert [(c.text, c.start_line, c.end_line, c.role) for c in split_rst(text)] == [
        ("nox -s lint tests", 3, 5, "code")
    ]


def test_a_tab_s_name_leads_its_text_but_is_no_context() -> None:
    """A tab's name picks one presentation of the same content ("pyproject.toml" beside
    "setup.py"): it leads the tab's first paragraph, and names nothing further."""
    text = (
        ".. tab:: pyproject.toml\n\n   Write this.\n\n   .. code-block:: toml\n\n      value = 1\n"
    )
    assert [(c.text, c.context) for c in split_rst(text)] == [
        ("pyproject.toml: Write this.", ""),
        ("value = 1", ""),
    ]


def test_a_suffix_escaped_onto_a_role_keeps_the_paragraph() -> None:
    r"""``:class:`~trio.abc.Listener`\s`` renders "Listeners" (as Sphinx shows it, and as
    `credo doctor` reads the source), a word the placing index split in two: the paragraph
    could not be placed and was lost (trio's reference-io.rst and history.rst, flask's
    urlprocessors.rst)."""
    text = "Helpers for one or more\n:class:`~trio.abc.Listener`\\s, and more words.\n"
    chunks = split_rst(text)
    assert brief(text) == [("Helpers for one or more trio.abc.Listeners, and more words.", 1, 2)]
    assert range_holds(text.split("\n"), 1, 2, chunks[0].text)


def test_an_option_sphinx_adds_to_a_docutils_directive_keeps_its_content() -> None:
    """Sphinx gives docutils' directives options docutils does not know (an admonition's
    ``:collapsible:``, since Sphinx 8.2; a rubric's ``:heading-level:``, since 7.4):
    docutils refused the whole directive, and its text was lost (sphinx's own directives
    page, found by the reading audit of trees credo had never seen)."""
    text = (
        ".. note::\n"
        "   :collapsible:\n\n"
        "   This note folds.\n\n"
        ".. admonition:: Example\n"
        "   :collapsible: open\n\n"
        "   This example folds too.\n\n"
        ".. rubric:: A small heading\n"
        "   :heading-level: 2\n"
        "   :class: small\n\n"
        "After them.\n"
    )
    assert brief(text) == [
        ("This note folds.", 4, 4),
        ("Example: This example folds too.", 6, 9),
        ("A small heading", 11, 11),
        ("After them.", 15, 15),
    ]


def test_a_changelog_release_is_a_section_titled_by_its_version() -> None:
    """The ``changelog`` extension (alembic, mako, dogpile.cache, SQLAlchemy) says a
    release's version and each change's tags and tickets in options, which were dropped:
    every change of alembic's 6,000-line changelog had "Changelog" as its only trail. A
    release is now a section titled by its version, a change led by its tags and tickets,
    which are the context of the rest of it."""
    text = (
        "Changelog\n=========\n\n"
        ".. changelog::\n"
        "    :version: 1.20.1\n"
        "    :released: October 21, 2026\n\n"
        "    .. change::\n"
        "        :tags: bug, autogenerate\n"
        "        :tickets: 1085, 1090\n\n"
        "        Fixed comments.\n\n"
        "        More about it.\n\n"
        "    .. change::\n"
        "        :tags: feature\n"
        "        :tickets:\n\n"
        "        Added a flag.\n\n"
        ".. changelog::\n"
        "    :version: 1.20.0\n\n"
        "    .. change::\n\n"
        "        Untagged.\n"
    )
    chunks = split_rst(text)
    assert [(c.text, c.start_line, c.end_line, c.section, c.context) for c in chunks] == [
        ("Changelog", 1, 1, ("Changelog",), ""),
        ("1.20.1", 5, 5, ("Changelog", "1.20.1"), ""),
        ("Released: October 21, 2026", 6, 6, ("Changelog", "1.20.1"), ""),
        ("bug, autogenerate, #1085, #1090: Fixed comments.", 8, 12, ("Changelog", "1.20.1"), ""),
        ("More about it.", 14, 14, ("Changelog", "1.20.1"), "bug, autogenerate, #1085, #1090"),
        ("feature: Added a flag.", 16, 20, ("Changelog", "1.20.1"), ""),
        ("1.20.0", 23, 23, ("Changelog", "1.20.0"), ""),
        ("Untagged.", 27, 27, ("Changelog", "1.20.0"), ""),
    ]


def test_an_old_change_s_name_leads_it_unless_a_ticket_number() -> None:
    """alembic's older entries are named (``.. change:: fk_schema_compare``): the name was
    their label before the options were read, and stays one; a number is its ticket's."""
    text = (
        ".. change:: fk_schema_compare\n"
        "    :tags: bug\n\n"
        "    Fixed it.\n\n"
        ".. change:: 413\n"
        "    :tickets: 413\n\n"
        "    Fixed that.\n"
    )
    assert brief(text) == [
        ("fk_schema_compare, bug: Fixed it.", 1, 4),
        ("#413: Fixed that.", 6, 9),
    ]


def test_a_changelog_without_a_version_is_its_content() -> None:
    """Another extension's ``changelog`` (no ``:version:``) keeps its content only."""
    text = "Intro.\n\n.. changelog::\n    :towncrier: ../\n\n    Unreleased notes.\n"
    assert brief(text) == [("Intro.", 1, 1), ("Unreleased notes.", 6, 6)]


def test_a_description_s_type_default_and_value_follow_its_label() -> None:
    """A ``confval``'s ``:type:`` and ``:default:`` (Sphinx 7.4), an attribute's ``:type:``
    and ``:value:``: Sphinx shows them under the name; dropped with the other options, the
    default of every setting on Sphinx's configuration page was in no passage."""
    text = (
        ".. confval:: user_agent\n"
        "   :type: :code-py:`str`\n"
        "   :no-index:\n"
        "   :default: :code-py:`'Mozilla/5.0\n"
        "             Sphinx/X.Y.Z'`\n\n"
        "   Set the User-Agent.\n\n"
        "   More.\n\n"
        ".. attribute:: Request.meta\n"
        "   :value: {}\n\n"
        "   Metadata.\n\n"
        ".. confval:: plain\n\n"
        "   No options.\n"
    )
    chunks = split_rst(text)
    assert [(c.text, c.start_line, c.end_line, c.context) for c in chunks] == [
        ("user_agent: Type: str; Default: 'Mozilla/5.0 Sphinx/X.Y.Z'", 1, 5, ""),
        ("Set the User-Agent.", 7, 7, "user_agent"),
        ("More.", 9, 9, "user_agent"),
        ("Request.meta: Value: {}", 11, 12, ""),
        ("Metadata.", 14, 14, "Request.meta"),
        ("plain: No options.", 16, 18, ""),
    ]


def test_a_topic_s_or_sidebar_s_title_is_the_context_of_its_body() -> None:
    """A topic's, a sidebar's or a generic admonition's title was a paragraph of its own:
    the body's later paragraphs were found by no word of it (alembic's "merge mechanics"
    topic, pyramid's sidebars). It now leads the first paragraph and is the context of
    the rest, as a named directive's label is."""
    text = (
        ".. sidebar:: Asset Specifications\n\n"
        "   First.\n\n"
        "   Second.\n\n"
        ".. topic:: merge mechanics\n\n"
        "   The upgrade.\n\n"
        "   ::\n\n"
        "      alembic upgrade\n\n"
        ".. topic:: Contents\n"
        "   :class: contents\n\n"
        "   Skipped.\n"
    )
    chunks = split_rst(text)
    assert [(c.text, c.start_line, c.end_line, c.context) for c in chunks] == [
        ("Asset Specifications: First.", 1, 3, ""),
        ("Second.", 5, 5, "Asset Specifications"),
        ("merge mechanics: The upgrade.", 7, 9, ""),
        ("alembic upgrade", 13, 13, "merge mechanics"),
    ]


def test_a_line_block_with_an_indented_line_keeps_its_lines_in_order() -> None:
    """An indented line is a nested line block: its lines were read before the outer
    block's, the outer lines then placed after it were not found, and the lines above it
    were lost (pydata-sphinx-theme's kitchen sink)."""
    text = "Intro.\n\n| First line.\n|     Indented line.\n| Last line.\n\nAfter.\n"
    assert brief(text) == [
        ("Intro.", 1, 1),
        ("First line. Indented line. Last line.", 3, 5),
        ("After.", 7, 7),
    ]


def test_a_label_is_the_context_of_its_split_lead_s_later_sentences() -> None:
    """A lead paragraph past the paragraph limit is split into sentences; the label led the
    first only, and the later ones were found by no word of it (pyramid's "About Release
    Numbering" sidebar)."""
    sentence = "A minor release adds features and stays compatible with older releases. "
    text = ".. confval:: numbering\n\n   " + sentence * 30 + "\n\n   Next paragraph.\n"
    chunks = split_rst(text)
    assert len(chunks) > 3
    assert chunks[0].text.startswith("numbering: A minor release") and chunks[0].context == ""
    assert {c.context for c in chunks[1:]} == {"numbering"}


def test_a_section_title_in_a_description_s_body_is_kept() -> None:
    """Sphinx allows a section title in a description's body (scrapy's "settings"
    subsection inside a middleware's ``.. class::``); docutils refused it, and the walker
    skipped the report, so the title was lost. It was then a rubric (a paragraph); it is now
    a subsection of the body (leftovers92): its title in the trail of the blocks under it."""
    text = (
        ".. class:: MetaCopyDetectionMiddleware\n\n"
        "   Warns about meta keys.\n\n"
        "   MetaCopyDetectionMiddleware settings\n"
        "   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n\n"
        "   More.\n"
    )
    chunks = split_rst(text)
    assert [(c.text, c.start_line, c.end_line, c.context) for c in chunks] == [
        ("MetaCopyDetectionMiddleware: Warns about meta keys.", 1, 3, ""),
        ("MetaCopyDetectionMiddleware settings", 5, 5, "MetaCopyDetectionMiddleware"),
        ("More.", 8, 8, "MetaCopyDetectionMiddleware"),
    ]


def test_a_paragraph_of_a_thousand_addresses_is_read_as_rest() -> None:
    """docutils reads e-mail addresses and URIs by recursing on the text after each one: a
    paragraph of a thousand (celery's "Wall of Contributors") passed Python's recursion
    limit, and the whole page fell back to plain text (no section, no markup read)."""
    wall = "\n".join(f"Person {n} <person{n}@example.com>" for n in range(1200))
    text = "Title\n=====\n\nThe ``intro``.\n\n" + wall + "\n"
    chunks = split_rst(text)
    assert chunks[0].text == "Title" and chunks[0].role == "heading"
    assert chunks[1].text == "The `intro`."
    assert {c.role for c in chunks} <= {"heading", "paragraph", "sentence"}
