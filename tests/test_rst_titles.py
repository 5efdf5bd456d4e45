"""A reST code example's caption and a table's title are text of the page (rst89, issue
#14): Sphinx shows a ``code-block``'s or ``literalinclude``'s ``:caption:`` above the code
(flask's "``wsgi.py``", a file name readers search by), and a ``table``/``list-table``/
``csv-table`` title above every row. Before, the caption was dropped with the option
lines (`bench/reading_audit.py`: flask's code lost 1.7% -> 1.0%) and the title was one
paragraph, no context of the rows below it (trio's reference-io.rst overview table)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import split_rst
from credo.knowledge.chunk.model import source_lines
from credo.knowledge.doctor import range_holds


def brief(text: str) -> list[tuple[str, str, int, int, str]]:
    return [(c.role, c.text, c.start_line, c.end_line, c.context) for c in split_rst(text)]


def test_a_code_block_caption_is_a_paragraph_at_its_line() -> None:
    text = (
        "Deploy\n======\n\n"
        ".. code-block:: python\n"
        "    :caption: ``wsgi.py``\n"
        "    :linenos:\n\n"
        "    from hello import app\n"
    )
    assert brief(text)[1:] == [
        ("paragraph", "`wsgi.py`", 5, 5, ""),
        ("code", "from hello import app", 4, 8, ""),
    ]
    assert split_rst(text)[1].section == ("Deploy",)


def test_a_caption_with_no_language_and_a_literalinclude_caption() -> None:
    text = (
        ".. code-block::\n"
        "   :caption: The app factory\n\n"
        "   create_app()\n\n"
        ".. literalinclude:: ../examples/tutorial/flaskr/db.py\n"
        "   :caption: ``flaskr/db.py``\n"
        "   :lines: 1-5\n"
    )
    assert brief(text) == [
        ("paragraph", "The app factory", 2, 2, ""),
        ("code", "create_app()", 1, 4, ""),
        ("paragraph", "`flaskr/db.py`", 7, 7, ""),
    ]


def test_an_option_that_is_no_caption_or_code_that_says_caption_is_no_caption() -> None:
    text = (
        ".. code-block:: text\n"
        "   :emphasize-lines: 1\n\n"
        "   :caption: not an option\n\n"
        ".. literalinclude:: a.py\n"
    )
    assert brief(text) == [("code", ":caption: not an option", 1, 4, "")]


def test_a_table_title_is_the_context_of_every_row() -> None:
    text = (
        ".. list-table:: Frozen Delights\n"
        "   :header-rows: 1\n\n"
        "   * - Treat\n"
        "     - Quantity\n"
        "   * - Albatross\n"
        "     - 2.99\n"
        "   * - Crunchy Frog\n"
        "     - 1.49\n\n"
        ".. table:: Options of the build command\n\n"
        "   =======  ================\n"
        "   option   what it does\n"
        "   =======  ================\n"
        "   --force  builds everything\n"
        "   =======  ================\n\n"
        "After the tables.\n"
    )
    assert brief(text) == [
        ("paragraph", "Frozen Delights", 1, 1, ""),
        ("paragraph", "Treat | Quantity", 4, 5, "Frozen Delights"),
        ("paragraph", "Albatross | 2.99", 6, 7, "Frozen Delights"),
        ("paragraph", "Crunchy Frog | 1.49", 8, 9, "Frozen Delights"),
        ("paragraph", "Options of the build command", 11, 11, ""),
        ("paragraph", "option | what it does", 14, 14, "Options of the build command"),
        ("paragraph", "--force | builds everything", 16, 16, "Options of the build command"),
        ("paragraph", "After the tables.", 19, 19, ""),
    ]


def test_a_csv_table_title_reaches_cells_read_one_at_a_time_and_nests_innermost() -> None:
    text = (
        ".. confval:: formats\n\n"
        "   The formats.\n\n"
        "   .. csv-table:: Known formats\n"
        '      :header: "Name", "Notes"\n\n'
        '      "json", "- one\n\n        - two"\n\n'
        "   Last words.\n"
    )
    assert [(c.text, c.context) for c in split_rst(text)] == [
        ("formats: The formats.", ""),
        ("Known formats", "formats"),
        ("Name | Notes", "Known formats"),
        ("json", "Known formats"),
        ("one", "Known formats"),
        ("two", "Known formats"),
        ("Last words.", "formats"),
    ]


def test_an_untitled_table_has_no_context() -> None:
    text = "=====  =====\nleft   right\n=====  =====\nred    green\n=====  =====\n"
    assert [c.context for c in split_rst(text)] == ["", ""]


_TEXT = st.text(alphabet=st.characters(blacklist_characters="\n\r\x00"), max_size=30)


@settings(max_examples=150, deadline=None)
@given(_TEXT, _TEXT, st.sampled_from(["code-block:: python", "literalinclude:: a.py", "code::"]))
def test_any_caption_or_title_is_read_with_a_true_range(
    caption: str, title: str, directive: str
) -> None:
    text = (
        f"T\n=\n\n.. {directive}\n   :caption: {caption}\n\n   x = 1\n\n"
        f".. list-table:: {title}\n\n   * - a cell\n     - b cell\n   * - c cell\n     - d\n"
    )
    lines = source_lines(text)
    for chunk in split_rst(text):
        assert range_holds(lines, chunk.start_line, chunk.end_line, chunk.text), chunk
