"""split_rst: rule tables, line-range invariants, hypothesis properties, a realistic Sphinx
page, and a sweep over the real reStructuredText trees found on this machine."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import ROLES, Chunk, language_for, split_file, split_rst
from credo.knowledge.chunk import rst as rst_module
from credo.knowledge.doctor import belief_words, range_holds, words


def lines_of(text: str) -> list[str]:
    """Universal-newline lines, computed independently of credo.knowledge.chunk."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def check_rst(chunks: Sequence[Chunk], text: str) -> None:
    """Every invariant a chunk list must satisfy against its source `text`.

    Ranges are checked as `credo doctor` checks anchors (`range_holds`: the lines hold the
    chunk's words in order). The doctor leaves a leading ``Name: `` label out of that
    check; a chunk such as "Default: `'/'`" then has no words left, so its full words are
    checked instead.
    """
    lines = lines_of(text)
    for index, chunk in enumerate(chunks):
        assert chunk.text, chunk
        if chunk.role == "code":  # an example keeps its lines (its comments end at them)
            assert chunk.text == chunk.text.strip(), chunk
        else:
            assert chunk.text == " ".join(chunk.text.split()), chunk
        assert 1 <= chunk.start_line <= chunk.end_line <= len(lines), chunk
        assert chunk.role in ROLES, chunk
        assert all(chunk.links), chunk
        if belief_words(chunk.text):
            assert range_holds(lines, chunk.start_line, chunk.end_line, chunk.text), chunk
        else:
            assert _holds_words(lines, chunk), chunk
        if chunk.heading_index is not None:
            assert 0 <= chunk.heading_index < index
            parent = chunks[chunk.heading_index]
            assert parent.role == "heading"
            own = chunk.section[:-1] if chunk.role == "heading" else chunk.section
            assert own == parent.section, (chunk, parent)
        elif chunk.role == "heading":
            assert len(chunk.section) == 1 and chunk.section[0] == chunk.text
        elif chunk.role != "text":
            assert chunk.section == ()


def _holds_words(lines: list[str], chunk: Chunk) -> bool:
    remaining = iter(
        w for line in lines[chunk.start_line - 1 : chunk.end_line] for w in words(line)
    )
    return all(word in remaining for word in words(chunk.text))


def brief(chunks: Sequence[Chunk]) -> list[tuple[str, int, int, str]]:
    return [(c.text, c.start_line, c.end_line, c.role) for c in chunks]


# --- rule table -------------------------------------------------------------------------------

CASES = [
    pytest.param(
        "=====\nTitle\n=====\n\nBody text here.\n",
        [("Title", 2, 2, "heading"), ("Body text here.", 5, 5, "paragraph")],
        id="title-over-and-underline-excluded",
    ),
    pytest.param(
        "Title\n=====\n\nIntro line one\nline two.\n",
        [("Title", 1, 1, "heading"), ("Intro line one line two.", 4, 5, "paragraph")],
        id="title-underline",
    ),
    pytest.param(
        "- first item\n  continued\n- second item\n\n  second paragraph\n\n  - nested item\n",
        [
            ("first item continued", 1, 2, "bullet"),
            ("second item", 3, 3, "bullet"),
            ("second paragraph", 5, 5, "paragraph"),
            ("nested item", 7, 7, "bullet"),
        ],
        id="bullet-list",
    ),
    pytest.param(
        "1. one thing\n2. two things\n\n#. auto one\n#. auto two\n",
        [
            ("one thing", 1, 1, "bullet"),
            ("two things", 2, 2, "bullet"),
            ("auto one", 4, 4, "bullet"),
            ("auto two", 5, 5, "bullet"),
        ],
        id="enumerated-list",
    ),
    pytest.param(
        "term\n   Its definition\n   on two lines.\n\nother : kind\n   Classified.\n",
        [
            ("term: Its definition on two lines.", 1, 3, "bullet"),
            ("other (kind): Classified.", 5, 6, "bullet"),
        ],
        id="definition-list",
    ),
    pytest.param(
        ":Author: Jane Doe\n:param path: Where the file\n   lives.\n:returns: Nothing.\n",
        [
            ("Author: Jane Doe", 1, 1, "bullet"),
            ("param path: Where the file lives.", 2, 3, "bullet"),
            ("returns: Nothing.", 4, 4, "bullet"),
        ],
        id="field-list",
    ),
    pytest.param(
        "-v, --verbose   Print more.\n--config=FILE   Read FILE.\n",
        [
            ("-v, --verbose: Print more.", 1, 1, "bullet"),
            ("--config=FILE: Read FILE.", 2, 2, "bullet"),
        ],
        id="option-list",
    ),
    pytest.param(
        ".. note:: Inline note\n   text.\n\n.. warning::\n\n   Body of the warning.\n\n"
        ".. admonition:: Own title\n\n   Own body.\n",
        [
            ("Inline note text.", 1, 2, "paragraph"),
            ("Body of the warning.", 6, 6, "paragraph"),
            ("Own title: Own body.", 8, 10, "paragraph"),
        ],
        id="admonitions",
    ),
    pytest.param(
        ".. versionadded:: 2.0\n\n.. versionchanged:: 2.1 Inline reason.\n\n"
        ".. deprecated:: 3.0\n   Use :func:`other` instead.\n",
        [
            ("versionadded 2.0", 1, 1, "paragraph"),
            ("versionchanged 2.1: Inline reason.", 3, 3, "paragraph"),
            ("deprecated 3.0: Use other instead.", 5, 6, "paragraph"),
        ],
        id="version-directives",
    ),
    pytest.param(
        "Before.\n\n.. code-block:: python\n   :caption: x\n\n   import os\n\n"
        ".. literalinclude:: ../x.py\n\n.. toctree::\n   :maxdepth: 2\n\n   install\n\n"
        ".. autofunction:: flask.url_for\n\n.. highlight:: text\n\nAfter.\n",
        [
            ("Before.", 1, 1, "paragraph"),
            ("import os", 3, 6, "code"),  # from the directive to its last line of code
            ("After.", 19, 19, "paragraph"),
        ],
        id="code-kept-toctree-autodoc-skipped",
    ),
    pytest.param(
        "Run this::\n\n    pip install flask\n\nOr this:\n\n::\n\n    make\n\n>>> 1 + 1\n2\n"
        "\n.. sourcecode:: pycon\n\n   >>> app.run()\n\n\n.. testcode::\n\n   run(1)\n",
        [
            ("Run this:", 1, 1, "paragraph"),
            ("pip install flask", 3, 3, "code"),
            ("Or this:", 5, 5, "paragraph"),
            ("make", 9, 9, "code"),
            # Doctest blocks and directives are tests, their printed output included: skipped.
            (">>> app.run()", 14, 16, "code"),
        ],
        id="literal-and-code-blocks-doctests-skipped",
    ),
    pytest.param(
        ".. a comment\n   spanning lines\n\n.. |name| replace:: Flask\n\n.. _label:\n\n"
        ".. _site: https://example.org\n\nText |name| here.\n",
        [("Text name here.", 10, 10, "paragraph")],
        id="comments-substitutions-targets-skipped",
    ),
    pytest.param(
        "Call :func:`~flask.Flask.route`, see :ref:`the guide <guide>` and :unknown:`x y`,"
        "\n:class:`Flask`\\ s, ``code``\\ s, *em* and **strong**\\ [#]_.\n",
        [
            (
                "Call flask.Flask.route, see the guide and x y, Flask s, `code`s, em and strong.",
                1,
                2,
                "paragraph",
            )
        ],
        id="roles-and-inline-markup-cleaned",
    ),
    pytest.param(
        "===  =====\nKey  Value\n===  =====\na    one\nbb   two\n===  =====\n",
        [
            ("Key | Value", 2, 2, "paragraph"),
            ("a | one", 4, 4, "paragraph"),
            ("bb | two", 5, 5, "paragraph"),
        ],
        id="simple-table",
    ),
    pytest.param(
        "+------+---------+\n| Name | Purpose |\n+======+=========+\n| Jinja| Template|\n"
        "|      | engine  |\n+------+---------+\n",
        [("Name | Purpose", 2, 2, "paragraph"), ("Jinja | Template engine", 4, 5, "paragraph")],
        id="grid-table",
    ),
    pytest.param(
        ".. list-table:: Caption\n   :header-rows: 1\n\n   * - Head A\n     - Head B\n"
        "   * - cell one\n     - cell two\n",
        [
            ("Caption", 1, 1, "paragraph"),
            ("Head A | Head B", 4, 5, "paragraph"),
            ("cell one | cell two", 6, 7, "paragraph"),
        ],
        id="list-table",
    ),
    pytest.param(
        "+-------+-------+\n| left  | right |\n| more  | again |\n+-------+-------+\n",
        [("left more", 2, 3, "paragraph"), ("right again", 2, 3, "paragraph")],
        id="table-row-out-of-order-split-by-cell",
    ),
    pytest.param(
        ".. py:function:: send_file(path)\n   :noindex:\n\n   Send a file.\n\n"
        ".. tabs::\n\n   .. tab:: Linux\n\n      Use apt.\n\n.. seealso:: The other page.\n",
        [
            ("send_file(path): Send a file.", 1, 4, "paragraph"),
            ("Linux: Use apt.", 8, 10, "paragraph"),
            ("The other page.", 12, 12, "paragraph"),
        ],
        id="unknown-directives-keep-text",
    ),
    pytest.param(
        "| Line one\n| Line two\n\n.. [1] A footnote.\n\n.. figure:: logo.png\n\n   The caption.\n",
        [
            ("Line one Line two", 1, 2, "paragraph"),
            ("A footnote.", 4, 4, "paragraph"),
            ("The caption.", 8, 8, "paragraph"),
        ],
        id="line-block-footnote-figure",
    ),
    pytest.param(
        "Intro.\n\n.. contents:: On this page\n\n----------\n\nNext.\n",
        [("Intro.", 1, 1, "paragraph"), ("Next.", 7, 7, "paragraph")],
        id="contents-and-transition-skipped",
    ),
    pytest.param(
        "Title\r\n=====\r\n\r\n- item one\r\n  more\r\n\r\nEnd.\r\n",
        [
            ("Title", 1, 1, "heading"),
            ("item one more", 4, 5, "bullet"),
            ("End.", 7, 7, "paragraph"),
        ],
        id="crlf",
    ),
    pytest.param(
        "Title\r=====\r\rBody\rtext.\r",
        [("Title", 1, 1, "heading"), ("Body text.", 4, 5, "paragraph")],
        id="cr",
    ),
    pytest.param(
        "\ufeffTitle\n=====\n\n\tTabbed quote\ttext.\n\na\x00b words\x0chere\u2028too\n",
        [
            ("Title", 1, 1, "heading"),
            ("Tabbed quote text.", 4, 4, "paragraph"),
            ("a\ufffdb words here too", 6, 6, "paragraph"),
        ],
        id="bom-tabs-nul-foreign-breaks",
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_rules(text: str, expected: list[tuple[str, int, int, str]]) -> None:
    chunks = split_rst(text)
    assert brief(chunks) == expected
    check_rst(chunks, text)


def test_nested_sections_give_the_heading_trail() -> None:
    text = (
        "Guide\n=====\n\nInstall\n-------\n\nStep one.\n\nWindows\n~~~~~~~\n\nUse py.\n\n"
        "Usage\n-----\n\nRun it.\n\nSecond\n======\n\nMore.\n"
    )
    chunks = split_rst(text)
    trails = [(c.text, c.section, c.heading_index) for c in chunks]
    assert trails == [
        ("Guide", ("Guide",), None),
        ("Install", ("Guide", "Install"), 0),
        ("Step one.", ("Guide", "Install"), 1),
        ("Windows", ("Guide", "Install", "Windows"), 1),
        ("Use py.", ("Guide", "Install", "Windows"), 3),
        ("Usage", ("Guide", "Usage"), 0),
        ("Run it.", ("Guide", "Usage"), 5),
        ("Second", ("Second",), None),
        ("More.", ("Second",), 7),
    ]
    check_rst(chunks, text)


def test_links_go_to_chunk_links() -> None:
    text = (
        "Read `the docs <https://docs.example/>`_, `PyPI`_, `anon <https://a.example/>`__,\n"
        "`Other`__, :doc:`install`, :doc:`Guide </guide/index>`, :download:`x.zip` and\n"
        "https://bare.example/page.\n\n.. _PyPI: https://pypi.org/p/\n\n__ https://other.example/\n"
    )
    (chunk,) = split_rst(text)
    assert (
        chunk.text
        == "Read the docs, PyPI, anon, Other, install, Guide, x.zip and https://bare.example/page."
    )
    assert chunk.links == (
        "https://docs.example/",
        "https://pypi.org/p/",
        "https://a.example/",
        "https://other.example/",
        "install.rst",
        "/guide/index.rst",
        "x.zip",
        "https://bare.example/page",
    )


def test_indirect_targets_resolve() -> None:
    text = "See `alias`_.\n\n.. _alias: real_\n.. _real: https://real.example/\n"
    assert split_rst(text)[0].links == ("https://real.example/",)


def test_long_paragraph_splits_into_sentences_with_their_lines() -> None:
    filler = "This sentence is filler to pass the paragraph limit here. " * 11
    text = (
        "- " + filler.strip() + " This one starts here\n  and ends on the next line. The final"
        " sentence is here.\n"
    )
    chunks = split_rst(text)
    assert {c.role for c in chunks} == {"sentence"}
    spanning = next(c for c in chunks if c.text.startswith("This one starts"))
    assert (spanning.start_line, spanning.end_line) == (1, 2)
    assert (chunks[-1].text, chunks[-1].start_line) == ("The final sentence is here.", 2)
    check_rst(chunks, text)


def test_sentence_links_stay_with_their_sentence() -> None:
    text = (
        "A sentence that pads the paragraph out. " * 8
    ) + "See `site <https://s.example/>`_ now."
    chunks = split_rst(text)
    assert [c.links for c in chunks if c.links] == [("https://s.example/",)]
    assert chunks[-1].links == ("https://s.example/",)


def test_ranges_are_recovered_where_docutils_lines_mislead() -> None:
    # docutils gives a term the last line of its definition, and ``id`` occurs there too.
    text = (
        "``name``\n  The name.\n\n``id``\n  A string, the ``id``\n  of the target.\n\n"
        "``kind``\n  .. versionadded:: 2.1\n\n  The ``kind`` of it.\n"
    )
    chunks = split_rst(text)
    assert brief(chunks) == [
        ("`name`: The name.", 1, 2, "bullet"),
        ("`id`: A string, the `id` of the target.", 4, 6, "bullet"),
        ("`kind`", 8, 8, "bullet"),
        ("versionadded 2.1", 9, 9, "paragraph"),
        ("The `kind` of it.", 11, 11, "paragraph"),
    ]
    check_rst(chunks, text)


def test_line_endings_do_not_change_chunks() -> None:
    text = "Title\n=====\n\n:field: value\n\n.. note:: Noted.\n\nEnd of it.\n"
    unix = split_rst(text)
    assert split_rst(text.replace("\n", "\r\n")) == unix
    assert split_rst(text.replace("\n", "\r")) == unix


# --- a realistic Sphinx page ------------------------------------------------------------------

SPHINX_PAGE = """\
.. _quickstart:

Quickstart
==========

.. currentmodule:: flask

Eager to get started? This page gives a good introduction to Flask. Follow
:doc:`installation` to set up a project and install Flask first.

.. contents::
   :local:


A Minimal Application
---------------------

A minimal Flask application looks something like this:

.. code-block:: python

    from flask import Flask

    app = Flask(__name__)

So what did that code do?

1.  First we imported the :class:`~flask.Flask` class. An instance of
    this class will be our WSGI application.
2.  Next we create an instance of this class.

.. admonition:: Debug Mode

    The ``flask run`` command can do more than just start the development
    server. By enabling debug mode, the server will automatically reload.

    .. warning::

        The debugger allows executing arbitrary Python code from the
        browser. Do not run the development server in production.

.. versionchanged:: 2.2
    The ``--debug`` option replaces ``FLASK_ENV``.


Routing
-------

Modern web applications use meaningful URLs to help users. Use the
:meth:`~Flask.route` decorator to bind a function to a URL. See
`Werkzeug's docs <https://werkzeug.palletsprojects.com/>`_ for more.

Converter types:

========== ==========================================
``string`` (default) accepts any text without a slash
``int``    accepts positive integers
========== ==========================================

:param rule: The URL rule string.
:type rule: str

.. autoclass:: Flask
    :members:
"""


def test_a_realistic_sphinx_page() -> None:
    chunks = split_rst(SPHINX_PAGE)
    assert brief(chunks) == [
        ("Quickstart", 3, 3, "heading"),
        (
            "Eager to get started? This page gives a good introduction to Flask. Follow "
            "installation to set up a project and install Flask first.",
            8,
            9,
            "paragraph",
        ),
        ("A Minimal Application", 15, 15, "heading"),
        ("A minimal Flask application looks something like this:", 18, 18, "paragraph"),
        ("from flask import Flask\n\napp = Flask(__name__)", 20, 24, "code"),
        ("So what did that code do?", 26, 26, "paragraph"),
        (
            "First we imported the flask.Flask class. An instance of this class will be our "
            "WSGI application.",
            28,
            29,
            "bullet",
        ),
        ("Next we create an instance of this class.", 30, 30, "bullet"),
        (
            "Debug Mode: The `flask run` command can do more than just start the development "
            "server. By enabling debug mode, the server will automatically reload.",
            32,
            35,
            "paragraph",
        ),
        (
            "The debugger allows executing arbitrary Python code from the browser. Do not run "
            "the development server in production.",
            39,
            40,
            "paragraph",
        ),
        ("versionchanged 2.2: The `--debug` option replaces `FLASK_ENV`.", 42, 43, "paragraph"),
        ("Routing", 46, 46, "heading"),
        (
            "Modern web applications use meaningful URLs to help users. Use the Flask.route "
            "decorator to bind a function to a URL. See Werkzeug's docs for more.",
            49,
            51,
            "paragraph",
        ),
        ("Converter types:", 53, 53, "paragraph"),
        ("`string` | (default) accepts any text without a slash", 56, 56, "paragraph"),
        ("`int` | accepts positive integers", 57, 57, "paragraph"),
        ("param rule: The URL rule string.", 60, 60, "bullet"),
        ("type rule: str", 61, 61, "bullet"),
    ]
    routing = next(c for c in chunks if c.text.startswith("Modern web"))
    assert routing.section == ("Quickstart", "Routing")
    assert routing.links == ("https://werkzeug.palletsprojects.com/",)
    assert chunks[1].links == ("installation.rst",)
    check_rst(chunks, SPHINX_PAGE)


# --- routing, isolation, fallbacks ------------------------------------------------------------


def test_rst_and_rest_files_are_read_as_rst() -> None:
    assert language_for("docs/index.rst") == language_for("NOTES.REST") == "rst"
    assert language_for("a.txt") == language_for("b.text") == "text"
    assert split_file("docs/x.rst", "Title\n=====\n\nBody.")[0].role == "heading"


def test_docutils_is_imported_only_when_rst_is_split() -> None:
    probe = (
        "import sys\n"
        "import credo.knowledge.chunk as chunk\n"
        "chunk.split_file('a.txt', 'Title\\n=====')\n"
        "assert 'docutils' not in sys.modules\n"
        "chunk.split_rst('Title\\n=====')\n"
        "assert 'docutils' in sys.modules\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr


def test_docutils_registries_are_left_as_found() -> None:
    from docutils.parsers.rst import directives, roles

    before = directives._directives, roles._roles  # type: ignore[attr-defined]
    snapshot = dict(before[0]), dict(before[1])
    split_rst(".. code-block:: py\n\n   x\n\n:func:`f` and .. tabs::\n\n.. mystery:: y\n")
    after = directives._directives, roles._roles  # type: ignore[attr-defined]
    assert after[0] is before[0] and after[1] is before[1]
    assert (dict(after[0]), dict(after[1])) == snapshot


def test_nothing_is_printed(capfd: pytest.CaptureFixture[str]) -> None:
    split_rst(
        "Title\n===\n\n.. bogus::\n\n*unclosed `ref <x>`_ :no:`role`\n\n.. include:: /etc/passwd\n"
    )
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")


def test_files_and_raw_html_are_never_read() -> None:
    text = (
        ".. include:: /etc/hostname\n\n.. raw:: html\n\n   <b>secret</b>\n\n"
        ".. csv-table::\n   :file: /etc/hostname\n\nText.\n"
    )
    assert brief(split_rst(text)) == [("Text.", 10, 10, "paragraph")]


@pytest.mark.parametrize(
    "text",
    [
        "x" * (rst_module.MAX_RST_CHARS + 1),
        "word " * 2500,  # a line past docutils' 10,000-character limit
        "+" + "--+" * 120 + "\n" + ("|" + "ab|" * 120 + "\n+" + "--+" * 120 + "\n") * 90,
        "".join(" " * depth + "- deep\n\n" for depth in range(0, 1200, 2)),
    ],
    ids=["huge", "long-line", "huge-table", "too-deep"],
)
def test_pathological_input_falls_back_to_plain_text(text: str) -> None:
    chunks = split_rst(text)
    assert chunks and {c.role for c in chunks} <= {"text", "sentence"}
    check_rst(chunks, text)


def test_a_parse_past_its_budget_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rst_module, "_BUDGET_SECONDS", -1.0)
    chunks = split_rst("Title\n=====\n\nBody text.\n")
    assert brief(chunks) == [("Title", 1, 1, "text"), ("Body text.", 4, 4, "text")]


# --- hypothesis -------------------------------------------------------------------------------

_PIECES = st.sampled_from(
    [
        "alpha beta",
        "Gamma delta.",
        "e.g. x1",
        "über 日本",
        "``lit``",
        "*em*",
        "**strong**",
        "`ref`_",
        "`t <https://x.io/a>`_",
        ":func:`~a.b`",
        ":ref:`L <t>`",
        "|sub|",
        "[1]_",
        "foo\\ s",
        "\\*",
        "a\x00b",
        "\t",
        "``",
        "*",
        "`",
    ]
)


@st.composite
def _line(draw: st.DrawFn) -> str:
    text = " ".join(draw(st.lists(_PIECES, min_size=1, max_size=5)))
    kind = draw(
        st.sampled_from(
            [
                "plain",
                "plain",
                "blank",
                "blank",
                "underline",
                "overline",
                "bullet",
                "enum",
                "indent",
                "field",
                "option",
                "directive",
                "unknown",
                "version",
                "code",
                "literal",
                "comment",
                "target",
                "grid",
                "simple",
                "line",
                "raw",
            ]
        )
    )
    return {
        "plain": text,
        "blank": "",
        "underline": draw(st.sampled_from("=-~^")) * draw(st.integers(1, 12)),
        "overline": "=" * 8,
        "bullet": " " * draw(st.integers(0, 4)) + draw(st.sampled_from("-*+")) + " " + text,
        "enum": f"{draw(st.integers(0, 12))}. {text}",
        "indent": " " * draw(st.integers(1, 8)) + text,
        "field": f":{draw(st.sampled_from(['param x', 'Author', 'returns']))}: {text}",
        "option": f"-{draw(st.sampled_from('abc'))} FILE  {text}",
        "directive": ".. "
        + draw(st.sampled_from(["note", "warning", "admonition", "topic"]))
        + ":: "
        + text,
        "unknown": ".. " + draw(st.sampled_from(["tab", "py:function", "confval"])) + ":: " + text,
        "version": ".. versionchanged:: 1.0 " + text,
        "code": ".. code-block:: python",
        "literal": text + "::",
        "comment": ".. " + text,
        "target": ".. _" + draw(st.sampled_from(["t", "ref", "sub"])) + ": https://t.io",
        "grid": draw(st.sampled_from(["+---+---+", "| a | b |", "+===+===+"])),
        "simple": draw(st.sampled_from(["===  ===", "a    b"])),
        "line": "| " + text,
        "raw": draw(st.text(max_size=20)),
    }[kind]


rst_documents = st.lists(_line(), max_size=25).map("\n".join)


@given(rst_documents)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_rst_properties(text: str) -> None:
    chunks = split_rst(text)
    check_rst(chunks, text)
    assert split_rst(text) == chunks


@given(st.text(alphabet="=-*`_:|.+\\ \n\r\t\x00ab1>[]<#~", max_size=200))
@settings(max_examples=150, deadline=None)
@example("11\\`1")  # an escaped backtick: the passage's "11`1" is what its line holds
def test_markup_soup_never_raises(text: str) -> None:
    check_rst(split_rst(text), text)


@given(st.text(max_size=300))
@settings(max_examples=100, deadline=None)
def test_arbitrary_text_never_raises(text: str) -> None:
    check_rst(split_rst(text), text)


# --- real trees -------------------------------------------------------------------------------

_ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1*[ \t]*$")


def expected_titles(text: str) -> list[tuple[int, int]]:
    """(title line, depth) of each section title, from the adornments alone: a title is a
    line at the left margin after a blank line, underlined (and maybe overlined) with one
    repeated punctuation character; styles take levels in order of first use, and a
    style that would skip a level is docutils' "inconsistent title" (no section)."""
    lines = [line.replace("\ufeff", "") for line in lines_of(text)]
    styles: list[tuple[str, bool]] = []
    found: list[tuple[int, int]] = []
    depth = 0
    index = 0
    while index + 1 < len(lines):
        line, below = lines[index], lines[index + 1]
        after_blank = index == 0 or not lines[index - 1].strip()
        style = None
        if (
            after_blank
            and _ADORNMENT.match(line)
            and index + 2 < len(lines)
            and below.strip()
            and lines[index + 2].rstrip() == line.rstrip()
            and len(line.strip()) >= len(below.strip())
        ):
            style, number, skip = (line[0], True), index + 2, 3
        elif (
            after_blank
            and line.strip()
            and not line[0].isspace()
            and not _ADORNMENT.match(line)
            and _ADORNMENT.match(below)
            and (len(below.rstrip()) >= 4 or len(below.rstrip()) >= len(line.rstrip()))
        ):
            style, number, skip = (below[0], False), index + 1, 2
        if style is None:
            index += 1
            continue
        level = styles.index(style) + 1 if style in styles else len(styles) + 1
        if level <= depth + 1:
            if style not in styles:
                styles.append(style)
            depth = level
            found.append((number, level))
        index += skip
    return found


def _rst_trees() -> list[Path]:
    cache = Path(os.environ.get("CREDO_BENCH_CACHE", Path.home() / ".cache" / "credo-bench"))
    roots = [*sorted(cache.glob("flask-*")), *sorted(Path("/usr/share").glob("cmake*/Help"))]
    roots.append(Path("/usr/share/doc"))
    roots.append(Path(sysconfig.get_paths()["purelib"]))  # installed packages' .rst files
    return [root for root in roots if root.is_dir()]


def _sample(root: Path, limit: int = 150) -> list[Path]:
    """Up to `limit` of the tree's .rst files, spread evenly over its sorted list (the
    whole of a tree: ``CREDO_RST_SWEEP=all``)."""
    found = sorted(root.rglob("*.rst"))
    if os.environ.get("CREDO_RST_SWEEP") == "all":
        return found
    return found[:: max(1, -(-len(found) // limit))]


_RST_FILES = [path for root in _rst_trees() for path in _sample(root)]


@pytest.mark.skipif(not _RST_FILES, reason="no reStructuredText trees on this machine")
def test_real_rst_trees() -> None:
    """Every chunk of every real file holds its lines; headings follow the adornments;
    no real file falls back to plain text."""
    total = 0
    for path in _RST_FILES:
        text = path.read_text(encoding="utf-8", errors="replace")
        chunks = split_rst(text)
        check_rst(chunks, text)
        headings = [(c.start_line, len(c.section)) for c in chunks if c.role == "heading"]
        assert headings == expected_titles(text), path
        assert "text" not in {c.role for c in chunks}, path
        total += len(chunks)
    assert total > 0


def test_an_autodoc_directive_with_prose_keeps_it_labelled_with_the_name() -> None:
    text = ".. autofunction:: attrs.evolve\n\n   Prose written under the directive.\n"
    chunks = split_rst(text)
    assert [(c.text, c.start_line, c.end_line) for c in chunks] == [
        ("attrs.evolve: Prose written under the directive.", 1, 3)
    ]


def test_a_doc_role_without_a_title_shows_no_leading_slash() -> None:
    """Sphinx shows a page's title for ``:doc:`/signer```, never "/signer" (itsdangerous'
    concepts.rst read "The /signer is the basic system"); the link's target is unchanged."""
    text = "The :doc:`/signer` signs bytes; see :doc:`../api/timed` and :doc:`Guide </guide>`.\n"
    (chunk,) = split_rst(text)
    assert chunk.text == "The signer signs bytes; see api/timed and Guide."
    assert chunk.links == ("/signer.rst", "../api/timed.rst", "/guide.rst")


def test_a_cross_reference_s_leading_dot_is_not_shown() -> None:
    """Sphinx shows ``:meth:`.Operations.batch_alter_table``` as
    "Operations.batch_alter_table" (the dot only steers the lookup); alembic's batch.rst
    read ".Operations.batch_alter_table". A file's dot stays, and so does C++'s."""
    text = (
        "The :meth:`.Operations.batch_alter_table` method, :paramref:`~.Ops.x.reflect_args`,"
        " :py:class:`.MetaData` and :func:`~a.b` read :file:`.gitignore` and"
        " :cpp:class:`.Local`.\n"
    )
    (chunk,) = split_rst(text)
    assert chunk.text == (
        "The Operations.batch_alter_table method, Ops.x.reflect_args, MetaData and a.b read"
        " .gitignore and .Local."
    )
