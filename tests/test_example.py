"""`example_words`: a document's code example read as its names and its prose (comments and
docstrings), and what a passage indexes of it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo import Memory
from credo.knowledge.chunk import Chunk, split_file
from credo.knowledge.chunk.example import example_words
from credo.knowledge.chunk.passage import passages


@pytest.mark.parametrize(
    ("code", "names", "prose"),
    [
        ("x = load()  # read the saved index", ["load"], "# read the saved index"),
        ("# Key is the short name.\n'key': 1", ["key"], "# Key is the short name."),
        ("// retry with backoff\nretry(3);", ["retry"], "// retry with backoff"),
        ("/* block\n * comment */ int y;", ["int"], "/* block * comment */"),
        ("<!-- a page note -->\n<div/>", ["div"], "<!-- a page note -->"),
        (
            "-- all users\nSELECT name FROM users",
            ["SELECT", "name", "FROM", "users"],
            "-- all users",
        ),
        ('def f():\n    """Fetch the page."""\n    go()', ["def"], '"""Fetch the page."""'),
        ("## Title\ntext", ["text"], "## Title"),  # a Markdown example's heading
        ("$ tox -e py # Unit tests (also run by CI)", ["tox"], "# Unit tests (also run by CI)"),
    ],
)
def test_comments_and_docstrings_are_prose(code: str, names: list[str], prose: str) -> None:
    assert example_words(code) == (names, prose)


@pytest.mark.parametrize(
    "code",
    [
        "#include <stdio.h>",  # a directive, not a comment: no space after the mark
        "color: #fff;",
        "#!/bin/sh",
        "curl https://example.org/a//b",  # "//" inside a word
        'print("a # inside a string")',
        "echo 'no // comment here'",
        'template = """Fill the form."""',  # an assigned string is data, not a docstring
        "git checkout -- file",  # "--" that does not open its line
    ],
)
def test_marks_that_do_not_stand_apart_or_sit_in_strings_are_no_comment(code: str) -> None:
    assert example_words(code).prose == ""


@pytest.mark.parametrize(
    ("code", "prose"),
    [
        ("cp build/* dist/  # copy the wheels", "# copy the wheels"),
        ("rm -rf tmp/*\n# clean up after", "# clean up after"),
        ("ls src/*.py  // list them", "// list them"),
    ],
)
def test_a_glob_s_slash_star_hides_no_comment_after_it(code: str, prose: str) -> None:
    # "dir/*" opens no block comment, so nothing after it waits for a "*/" that never comes.
    assert example_words(code).prose == prose


def test_names_are_the_code_s_each_once_without_the_comments_words() -> None:
    code = "index = build_index()  # build the index once\nindex.save()\nbuild_index()"
    assert example_words(code).names == ["index", "build_index", "save"]


def test_a_comment_s_words_count_as_often_as_written() -> None:
    assert example_words("# name the name\n# name").prose.split().count("name") == 3


def test_unclosed_block_comments_and_docstrings_run_to_the_end() -> None:
    assert example_words("x = 1 /* open\nstill").prose == "/* open still"
    assert example_words('"""open\nstill').prose == '"""open still'


@given(st.text(alphabet=st.sampled_from(list("ab #/*-<!>\"'\n\\=")), max_size=200))
def test_any_text_is_read_deterministically_into_words_it_holds(code: str) -> None:
    names, prose = example_words(code)
    assert (names, prose) == example_words(code)
    assert len(names) == len(set(names)) and all(name in code for name in names)
    assert all(word in code for word in prose.split())


@pytest.mark.parametrize(
    "unit",
    [
        '"',
        "'",
        "/*",
        "<!--",
        '"""',
        "'''",
        '"""x"""',
        "# ",
        "//",
        "-- \n",
        " --",
        "\\",
        '"\\',
        " #x",
    ],
)
def test_hostile_input_is_read_in_linear_time(unit: str) -> None:
    """A mark repeated with no end (an unclosed string, comment or docstring), or many
    marks on one line, must not make the scan quadratic: 200,000 characters each."""
    started = time.process_time()
    example_words(unit * (200_000 // len(unit)))
    assert time.process_time() - started < 5  # linear: ~0.05 s; quadratic: minutes


def test_a_passage_indexes_its_example_s_comments_as_prose() -> None:
    """A question that says what an example's comment says ("a custom 404 page") finds
    the section that shows it: the comment's words, every one, reach the context."""
    text = (
        "# Errors\n\nRegister handlers on the app.\n\n"
        "```python\n@app.errorhandler(404)\ndef not_found(e):\n"
        "    # we return a custom 404 page for the blog\n"
        "    return render('404.html'), 404\n```\n"
    )
    (passage,) = passages(split_file("guide.md", text))
    words = passage.context.split()
    assert {"errorhandler", "not_found", "render", "html"} <= set(words)
    assert {"we", "return", "custom", "page", "for", "the", "blog"} <= set(words)
    assert passage.text == "Errors\nRegister handlers on the app."


def test_rst_literal_blocks_keep_their_lines_for_their_comments() -> None:
    text = "Title\n=====\n\nSee::\n\n    # fetch the remote page\n    get(url)\n"
    chunks = split_file("guide.rst", text)
    code = [c for c in chunks if c.role == "code"]
    assert [c.text for c in code] == ["# fetch the remote page\nget(url)"]
    (passage,) = passages(chunks)
    assert "fetch the remote page" in passage.context


def test_code_chunks_built_by_hand_still_give_their_names() -> None:
    chunks = [
        Chunk("Intro text long enough.", 1, 1, "paragraph", ("A",)),
        Chunk("ctx = dict(help_option_names=['-h'])", 2, 4, "code", ("A",)),
    ]
    (passage,) = passages(chunks)
    assert "help_option_names" in passage.context.split()


TESTS_PAGE = """\
# Tests

Run the whole suite with one command.

```console
$ make test  # the slow tests are skipped on CI
```

# Slow tests

The slow tests are skipped unless you ask for them.
"""


def test_a_question_in_a_comment_s_words_finds_the_section(memory: Memory, tmp_path: Path) -> None:
    """End to end: "CI" is only in the example's comment (a two-letter word, which names
    leave out); the section that shows it comes first, above the one that only says
    "skipped" (first before this reader)."""
    (tmp_path / "tests.md").write_text(TESTS_PAGE, encoding="utf-8")
    memory.ingest(tmp_path / "tests.md")
    result = memory.retrieve("which tests are skipped on CI?")
    assert result.beliefs[0].content.startswith("Tests\nRun the whole suite")
