"""split_markdown: rule tables, hypothesis properties and a sweep over real Markdown files."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import ROLES, Chunk, split_markdown
from credo.knowledge.chunk.doc_markup import decoded_outside_spans
from credo.knowledge.doctor import belief_words, range_holds, words

_WORD = re.compile(r"\w+")


def lines_of(text: str) -> list[str]:
    """Universal-newline lines, computed independently of credo.knowledge.chunk."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def check_chunks(chunks: Sequence[Chunk], text: str) -> None:
    """Every invariant a chunk list must satisfy against its source `text`.

    The words property: each word of a chunk occurs in the source lines start..end once
    markup and whitespace are ignored (words are compared on the run of word characters,
    since dropping markup can join "foo**bar**" into "foobar"), and the chunk's word
    characters appear there in order. A docstring's "qualified.name: " prefix is metadata
    and is removed first. The source's entities read as their characters, as
    `doctor.words` reads them (a passage shows "&eacute;" as "é") or as written (code).
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
        if chunk.heading_index is not None:
            assert 0 <= chunk.heading_index < index
            # Markdown sections hang from headings, code scopes from their docstrings.
            assert chunks[chunk.heading_index].role in ("heading", "docstring")
        body = chunk.text
        if chunk.role == "docstring" and chunk.section:
            prefix = ".".join(chunk.section) + ": "
            assert body.startswith(prefix), chunk
            body = body[len(prefix) :]
        source = "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
        # (as written, or decoded: where a code span ends is the reader's to know)
        spans = ["".join(_WORD.findall(s)) for s in (source, decoded_outside_spans(source))]
        words = _WORD.findall(body)
        missing = [word for word in words if all(word not in span for span in spans)]
        assert not missing, (chunk, missing)
        assert any(_is_subsequence("".join(words), span) for span in spans), chunk


def _is_subsequence(needle: str, haystack: str) -> bool:
    remaining = iter(haystack)
    return all(char in remaining for char in needle)


def check_markdown(chunks: Sequence[Chunk], text: str) -> None:
    """`check_chunks`, and what `credo doctor` checks: each range holds its words in order.

    Where dropping markup joined two source words into one ("[Record][]s" reads "Records"),
    the doctor's word-by-word comparison cannot see the joined word; `check_chunks`' check
    on the run of word characters covers those chunks.
    """
    check_chunks(chunks, text)
    lines = lines_of(text)
    for chunk in chunks:
        needle = belief_words(chunk.text)
        span = "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
        if needle and set(needle) <= set(words(span)):
            assert range_holds(lines, chunk.start_line, chunk.end_line, chunk.text), chunk


def brief(chunks: Sequence[Chunk]) -> list[tuple[str, int, int, str]]:
    return [(c.text, c.start_line, c.end_line, c.role) for c in chunks]


# --- rule tables -------------------------------------------------------------------------

CASES = [
    pytest.param("", [], id="empty"),
    pytest.param("   \n\n\t\n", [], id="blank"),
    pytest.param("# Title", [("Title", 1, 1, "heading")], id="atx"),
    pytest.param("## Title ##", [("Title", 1, 1, "heading")], id="atx-closing-hashes"),
    pytest.param("#NoSpace is text", [("#NoSpace is text", 1, 1, "paragraph")], id="hash-no-space"),
    pytest.param("Title\n=====", [("Title", 1, 1, "heading")], id="setext-1"),
    pytest.param(
        "Two line\ntitle\n-----", [("Two line title", 1, 2, "heading")], id="setext-2-multiline"
    ),
    pytest.param(
        "First line\nsecond line.", [("First line second line.", 1, 2, "paragraph")], id="para"
    ),
    pytest.param(
        "One para.\n\nTwo para.",
        [("One para.", 1, 1, "paragraph"), ("Two para.", 3, 3, "paragraph")],
        id="two-paras",
    ),
    pytest.param(
        "- one\n- two\n  continued\n* three\n+ four",
        [
            ("one", 1, 1, "bullet"),
            ("two continued", 2, 3, "bullet"),
            ("three", 4, 4, "bullet"),
            ("four", 5, 5, "bullet"),
        ],
        id="bullets",
    ),
    pytest.param(
        "1. first\n2) second\n10. tenth",
        [("first", 1, 1, "bullet"), ("second", 2, 2, "bullet"), ("tenth", 3, 3, "bullet")],
        id="ordered",
    ),
    pytest.param(
        "- outer\n  - inner\n    - deepest",
        [("outer", 1, 1, "bullet"), ("inner", 2, 2, "bullet"), ("deepest", 3, 3, "bullet")],
        id="nested",
    ),
    pytest.param(
        "- [ ] todo item\n- [x] done item",
        [("[ ] todo item", 1, 1, "bullet"), ("[x] done item", 2, 2, "bullet")],
        id="task-list-kept",
    ),
    pytest.param(
        "- item\n\n  second paragraph of item",
        [("item", 1, 1, "bullet"), ("second paragraph of item", 3, 3, "paragraph")],
        id="loose-item-paragraph",
    ),
    pytest.param(
        "Text before\n- a bullet",
        [("Text before", 1, 1, "paragraph"), ("a bullet", 2, 2, "bullet")],
        id="bullet-interrupts-paragraph",
    ),
    pytest.param(
        "In the year\n2019. it rained",
        [("In the year 2019. it rained", 1, 2, "paragraph")],
        id="ordered-not-1-does-not-interrupt",
    ),
    # Code blocks are "code" chunks now (they were dropped): content without the fences,
    # range with them.
    pytest.param(
        "```\n# not a heading\n```\nAfter fence",
        [("# not a heading", 1, 3, "code"), ("After fence", 4, 4, "paragraph")],
        id="backtick-fence",
    ),
    pytest.param(
        "~~~python\n# comment\n~~~\n\nAfter",
        [("# comment", 1, 3, "code"), ("After", 5, 5, "paragraph")],
        id="tilde-fence",
    ),
    pytest.param(
        "````\n```\n# inside\n```\n````\nOut",
        [("```\n# inside\n```", 1, 5, "code"), ("Out", 6, 6, "paragraph")],
        id="longer-fence",
    ),
    pytest.param(
        "```\n# unclosed\n\nText\n\n",
        [("# unclosed\n\nText", 1, 4, "code")],  # runs to the end; the range stops at its text
        id="unclosed-fence-runs-to-end",
    ),
    pytest.param(
        "Para\n\n    indented code\n    # not heading\n\nAfter",
        [
            ("Para", 1, 1, "paragraph"),
            ("indented code\n# not heading", 3, 4, "code"),
            ("After", 6, 6, "paragraph"),
        ],
        id="indented-code",
    ),
    pytest.param("```\nx = 1\n```", [], id="code-too-short-skipped"),
    pytest.param(
        "Para\n    lazy continuation",
        [("Para lazy continuation", 1, 2, "paragraph")],
        id="indent-continues-paragraph",
    ),
    pytest.param(
        "---\ntitle: x\ntags: [a]\n---\n# Real",
        [("Real", 5, 5, "heading")],
        id="yaml-front-matter",
    ),
    pytest.param("+++\ndate = 'x'\n+++\nBody", [("Body", 4, 4, "paragraph")], id="toml-front"),
    pytest.param(
        "---\nno closing front matter line",
        [("no closing front matter line", 2, 2, "paragraph")],
        id="unclosed-front-matter",
    ),
    pytest.param("Text\n\n---\n\n***\n___", [("Text", 1, 1, "paragraph")], id="hr-skipped"),
    pytest.param(
        "<!-- hidden\n\nstill hidden -->\nShown", [("Shown", 4, 4, "paragraph")], id="html-comment"
    ),
    pytest.param(
        "Before <!-- note --> after", [("Before after", 1, 1, "paragraph")], id="inline-comment"
    ),
    pytest.param(
        '<p align="center">\n  <b>Fast</b> engine\n</p>',
        [("Fast engine", 1, 3, "paragraph")],
        id="html-block-text-kept",
    ),
    pytest.param('<div>\n<img src="logo.png">\n</div>', [], id="html-block-no-text"),
    pytest.param(
        "<script>\nvar x = 'words here';\n</script>\nOk text",
        [("Ok text", 4, 4, "paragraph")],
        id="script-skipped",
    ),
    pytest.param(
        "> quoted line\n> second\n>\n> third para",
        [("quoted line second", 1, 2, "paragraph"), ("third para", 4, 4, "paragraph")],
        id="blockquote",
    ),
    pytest.param("> quoted\nlazy line", [("quoted lazy line", 1, 2, "paragraph")], id="quote-lazy"),
    pytest.param(
        "> > nested deep quote", [("nested deep quote", 1, 1, "paragraph")], id="quote-nested"
    ),
    pytest.param(
        "> [!NOTE]\n> Use the flag.", [("Use the flag.", 2, 2, "paragraph")], id="gh-alert"
    ),
    pytest.param(
        "> # Quoted heading", [("Quoted heading", 1, 1, "paragraph")], id="quote-heading-demoted"
    ),
    pytest.param("> - quoted bullet", [("quoted bullet", 1, 1, "bullet")], id="quote-bullet"),
    pytest.param(
        "| Option | Meaning |\n|:---|---:|\n| `--json` | prints JSON |\n| --x | a \\| b |",
        [
            ("Option | Meaning", 1, 1, "paragraph"),
            ("`--json` | prints JSON", 3, 3, "paragraph"),
            ("--x | a | b", 4, 4, "paragraph"),
        ],
        id="table-rows",
    ),
    pytest.param(
        "Option | Meaning\n--- | ---\nfoo | bar baz",
        [("Option | Meaning", 1, 1, "paragraph"), ("foo | bar baz", 3, 3, "paragraph")],
        id="table-no-outer-pipes",
    ),
    pytest.param("a | b\n---", [("a | b", 1, 1, "heading")], id="cell-count-mismatch-is-setext"),
    pytest.param("---", [], id="lone-rule"),
    pytest.param("- ok\n- ...\n- ab", [], id="too-short-skipped"),
    pytest.param(
        "[ref]: https://example.com\n\nSee [the docs][ref] and [ref].",
        [("See the docs and ref.", 3, 3, "paragraph")],
        id="reference-links",
    ),
    pytest.param(
        "Note this[^1].\n\n[^1]: The footnote text.",
        [("Note this.", 1, 1, "paragraph"), ("The footnote text.", 3, 3, "paragraph")],
        id="footnotes",
    ),
    pytest.param("\ufeff# BOM title", [("BOM title", 1, 1, "heading")], id="bom"),
    pytest.param(
        "# A\r\n\r\nWindows text\r\nmore",
        [("A", 1, 1, "heading"), ("Windows text more", 3, 4, "paragraph")],
        id="crlf",
    ),
    pytest.param(
        "Old\rmac\r\rpara", [("Old mac", 1, 2, "paragraph"), ("para", 4, 4, "paragraph")], id="cr"
    ),
    pytest.param(
        "- ```\n  code in item\n  ```\n- after",
        [("code in item", 1, 3, "code"), ("after", 4, 4, "bullet")],  # code is kept now
        id="fence-item",
    ),
    # Nested items are bullets of their own, and a parent's chunk holds only its own lines.
    pytest.param(
        "- parent text\n  continued\n  - child one\n  - child two\n- next",
        [
            ("parent text continued", 1, 2, "bullet"),
            ("child one", 3, 3, "bullet"),
            ("child two", 4, 4, "bullet"),
            ("next", 5, 5, "bullet"),
        ],
        id="nested-items-own-chunks",
    ),
    # GFM: a table's body runs to a blank line, pipes or not; a short row has no empty tail.
    pytest.param(
        "aaa | bbb\n--- | ---\nccc\n| | ddd |\n\nafter",
        [
            ("aaa | bbb", 1, 1, "paragraph"),
            ("ccc", 3, 3, "paragraph"),
            ("| ddd", 4, 4, "paragraph"),
            ("after", 6, 6, "paragraph"),
        ],
        id="table-rows-gfm",
    ),
    # A heading in a list item is no section: it is the item's bullet.
    pytest.param("- # Head in item", [("Head in item", 1, 1, "bullet")], id="heading-in-item"),
    # CommonMark: a list item may start with a blank line; its text is on the next one.
    pytest.param("-\n  item text", [("item text", 2, 2, "bullet")], id="item-starts-blank"),
    # CommonMark: a reference definition is no paragraph, wherever it stands.
    pytest.param(
        "Text.\n\n[x]: https://x.io\n[y]: <a b.md>\n\nSee [x] and [it][y].",
        [("Text.", 1, 1, "paragraph"), ("See x and it.", 6, 6, "paragraph")],
        id="reference-definitions-skipped",
    ),
    pytest.param(
        "> [!WARNING]\n> Mind the gap.\n>\n> Second para.",
        [("Mind the gap.", 2, 2, "paragraph"), ("Second para.", 4, 4, "paragraph")],
        id="gh-alert-two-paragraphs",
    ),
    pytest.param(
        "- item\n\n  > quoted in item",
        [("item", 1, 1, "bullet"), ("quoted in item", 3, 3, "paragraph")],
        id="quote-in-item",
    ),
    pytest.param(
        "<pre>\nkept out\n</pre>\n\n<?php echo 'x'; ?>\n\n<!DOCTYPE html>\n\nShown",
        [("Shown", 9, 9, "paragraph")],
        id="raw-html-skipped",
    ),
    pytest.param(
        "Setext\n\t\n<b>bold</b> words\n---",
        [("Setext", 1, 1, "paragraph"), ("bold words", 3, 3, "heading")],
        id="setext-after-html-inline",
    ),
    # MyST targets are dropped, roles read as their text.
    pytest.param("(install)=\n# Install", [("Install", 2, 2, "heading")], id="myst-target"),
    pytest.param(
        "(a-label)=\nText after the target",
        [("Text after the target", 2, 2, "paragraph")],
        id="myst-target-before-text",
    ),
    pytest.param(
        "Use {func}`~click.echo` and {ref}`the guide <guide>` or {doc}`api`.",
        [("Use click.echo and the guide or api.", 1, 1, "paragraph")],
        id="myst-roles",
    ),
    # MyST prose directives are Markdown; other directives are code.
    pytest.param(
        "# T\n\n```{note}\n:class: tip\n\nA **note** to read.\n\n## Not a section\n```",
        [
            ("T", 1, 1, "heading"),
            ("A note to read.", 6, 6, "paragraph"),
            ("Not a section", 8, 8, "paragraph"),
        ],
        id="myst-note",
    ),
    pytest.param(
        "```{admonition} Titled note\nBody of the note.\n```",
        [("Titled note", 1, 1, "paragraph"), ("Body of the note.", 2, 2, "paragraph")],
        id="myst-admonition-title",
    ),
    pytest.param(
        "```{warning}\n---\nclass: tip\n---\nBody text here.\n```",
        [("Body text here.", 5, 5, "paragraph")],
        id="myst-yaml-options-dropped",
    ),
    pytest.param(
        "```{eval-rst}\n.. autoclass:: click.Command\n```",
        [(".. autoclass:: click.Command", 1, 3, "code")],
        id="myst-eval-rst-is-code",
    ),
    pytest.param(
        "```{code-block} python\n:linenos:\nprint(value)\n```",
        [("print(value)", 1, 4, "code")],
        id="myst-code-block-options-dropped",
    ),
    pytest.param(
        "````{tip}\nPrefer this.\n\n```python\nrun(fast=True)\n```\n````",
        [("Prefer this.", 2, 2, "paragraph"), ("run(fast=True)", 4, 6, "code")],
        id="myst-directive-holds-code",
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_blocks(text: str, expected: list[tuple[str, int, int, str]]) -> None:
    chunks = split_markdown(text)
    assert brief(chunks) == expected
    check_markdown(chunks, text)


INLINE_CASES = [
    ("**bold** and *em* and _em_ and ~~gone~~", "bold and em and em and gone", ()),
    ("keep `inline *code*` as is", "keep `inline *code*` as is", ()),
    ("``a ` b`` spans", "``a ` b`` spans", ()),
    ("snake_case_name stays", "snake_case_name stays", ()),
    # Underscores inside a word are no strong emphasis (CommonMark; markdownlint's MD050 page
    # read "like__this__one" as "likethisone": probe89); at a word's edges they are.
    ("underscores like__this__one.", "underscores like__this__one.", ()),
    ("set APP__DB__HOST=x, __strong__ and __init__", "set APP__DB__HOST=x, strong and init", ()),
    # A strong inside a strong of the other kind (one pass left "a __b__ c", "a *b* c"); a
    # run of markers, a blank to fill in, is none (review90)
    ("**a __b__ c** and __x **y** z__", "a b c and x y z", ()),
    ("**Name: ______**", "Name: ______", ()),
    ("2 * 3 * 4 math", "2 * 3 * 4 math", ()),
    ("see [the docs](https://x.io/a_(b)) now", "see the docs now", ("https://x.io/a_(b)",)),
    ('[text](<a b.md> "Title") x', "text x", ("a b.md",)),
    # An image's source is no citation, nor a badge's target (a link of images alone): they
    # showed as a README hit's sources (probe90, logrus). The text stays.
    ("![logo alt](img/logo.png) text", "logo alt text", ()),
    ("[![badge](https://b.io/x.svg)](https://ci.io) ok", "badge ok", ()),
    (
        "[![a](x.svg) ![b](y.svg)](https://ci.io) [![c](z.svg) and text](https://t.io)",
        "a b c and text",
        ("https://t.io",),
    ),
    ('[<img alt="gh" src="https://s.io/g.svg">](https://gh.io) ok then', "ok then", ()),
    (
        '<a href="https://ci.io"><img src="b.svg"></a> <a href="https://d.io">Docs</a>',
        "Docs",
        ("https://d.io",),
    ),
    (
        'see <a href="https://d.io">the docs <img src="i.png"></a>',
        "see the docs",
        ("https://d.io",),
    ),
    ("visit <https://auto.io/p> now", "visit https://auto.io/p now", ("https://auto.io/p",)),
    ("mail <me@example.com> ok", "mail me@example.com ok", ()),
    ("bare https://bare.io/path. end", "bare https://bare.io/path. end", ("https://bare.io/path",)),
    ("a `https://in.code` b", "a `https://in.code` b", ()),
    ("\\*not emphasis\\* here", "*not emphasis* here", ()),
    ("press <kbd>Ctrl</kbd> now", "press Ctrl now", ()),
    ('<a href="https://h.io">anchor</a> text', "anchor text", ("https://h.io",)),
    ("Tom &amp; Jerry &lt;3 &copy;", "Tom & Jerry <3 ©", ()),
    # Every character reference is its character (anyhow's README heading, reading76);
    # one without its ";" or a name HTML lacks stays, and a code span keeps its own.
    ("Anyhow&ensp;¯\\_(°ペ)_/¯", "Anyhow ¯_(°ペ)_/¯", ()),
    ("a &mdash; b&hellip; caf&eacute; &#x41;&#66;", "a — b… café AB", ()),
    ("R&D &notice &bogus; ?a=1&copy=2", "R&D &notice &bogus; ?a=1&copy=2", ()),
    ("`&amp;` &amp;", "`&amp;` &", ()),
    ("dup [a](https://d.io) [b](https://d.io)", "dup a b", ("https://d.io",)),
    ("role {class}`click.Group` here", "role click.Group here", ()),
    ("titled {doc}`the page <path/page>` ok", "titled the page ok", ()),
    ("not a role {x y}`code` here", "not a role {x y}`code` here", ()),
    ("open {ref}`never closed", "open {ref}`never closed", ()),
    # Targets as written, not as markdown-it stores them (percent-encoded).
    ("[über](docs/über.md) page", "über page", ("docs/über.md",)),
]


@pytest.mark.parametrize(("source", "text", "links"), INLINE_CASES)
def test_inline(source: str, text: str, links: tuple[str, ...]) -> None:
    (chunk,) = split_markdown(source)
    assert chunk.text == text
    assert chunk.links == links
    check_markdown([chunk], source)


def test_sections_and_heading_index() -> None:
    text = (
        "# Install\n\nIntro text.\n\n## From source\n\nRun make.\n\n"
        "### Deep\n\n## Docker\n\nPull it."
    )
    chunks = split_markdown(text)
    by_text = {c.text: c for c in chunks}
    assert by_text["Install"].section == ("Install",)
    assert by_text["Install"].heading_index is None
    assert by_text["Intro text."].section == ("Install",)
    assert by_text["Intro text."].heading_index == chunks.index(by_text["Install"])
    assert by_text["From source"].section == ("Install", "From source")
    assert by_text["From source"].heading_index == chunks.index(by_text["Install"])
    assert by_text["Run make."].section == ("Install", "From source")
    assert by_text["Deep"].section == ("Install", "From source", "Deep")
    assert by_text["Pull it."].section == ("Install", "Docker")
    assert by_text["Pull it."].heading_index == chunks.index(by_text["Docker"])


def test_text_before_any_heading_is_top_level() -> None:
    (chunk, _) = split_markdown("Preamble text.\n\n# Later")
    assert chunk.section == ()
    assert chunk.heading_index is None


def test_skipped_heading_levels_and_empty_heading() -> None:
    chunks = split_markdown("# A\n### C\ntext under c\n##\nafter empty")
    assert [c.section for c in chunks] == [("A",), ("A", "C"), ("A", "C"), ("A",)]


def test_long_paragraph_splits_into_sentences_with_line_ranges() -> None:
    sentences = [f"Sentence number {n} talks about topic {n} in some detail." for n in range(20)]
    # Two sentences per source line, so each sentence sits on a known line.
    text = "\n".join(" ".join(sentences[i : i + 2]) for i in range(0, 20, 2))
    chunks = split_markdown(text)
    assert [c.role for c in chunks] == ["sentence"] * 20
    assert [c.text for c in chunks] == sentences
    assert [c.start_line for c in chunks] == [n // 2 + 1 for n in range(20)]
    check_markdown(chunks, text)


def test_sentence_spanning_lines_touches_both() -> None:
    filler = "This sentence is filler to pass the limit of the paragraph. " * 12
    text = (
        filler.strip()
        + " This one starts here\nand ends on the next line. The final sentence here."
    )
    chunks = split_markdown(text)
    spanning = next(c for c in chunks if c.text.startswith("This one starts"))
    assert (spanning.start_line, spanning.end_line) == (1, 2)
    assert chunks[-1].text == "The final sentence here."


def test_sentence_split_respects_abbreviations_and_links() -> None:
    long = "Use a flag, e.g. Foo or Bar, see [Read it. Now](https://x.io) for more. " * 15
    chunks = split_markdown(long)
    assert all(c.role == "sentence" for c in chunks)
    assert all(c.text.endswith("for more.") for c in chunks)
    assert all(c.links == ("https://x.io",) for c in chunks)


def test_long_bullet_splits_too() -> None:
    text = "- " + "A bullet sentence that keeps going for a while. " * 20
    chunks = split_markdown(text)
    assert len(chunks) == 20
    assert {c.role for c in chunks} == {"sentence"}


def test_deterministic_and_pure() -> None:
    text = "# T\n\n- a list item\n\nParagraph [x](y)."
    assert split_markdown(text) == split_markdown(text)
    assert text == "# T\n\n- a list item\n\nParagraph [x](y)."


def test_chunk_is_frozen() -> None:
    (chunk,) = split_markdown("Some text.")
    with pytest.raises(AttributeError):
        chunk.text = "other"  # type: ignore[misc]


def test_code_chunks_sit_in_their_section() -> None:
    text = "# Guide\n\n## Install\n\n```sh\npip install credo\n```\n\n    make build-all\n"
    chunks = split_markdown(text)
    code = [c for c in chunks if c.role == "code"]
    assert [(c.text, c.start_line, c.end_line) for c in code] == [
        ("pip install credo", 5, 7),
        ("make build-all", 9, 9),
    ]
    install = next(i for i, c in enumerate(chunks) if c.text == "Install")
    assert all(c.section == ("Guide", "Install") and c.heading_index == install for c in code)
    assert all(c.links == () and c.context == "" for c in code)
    check_markdown(chunks, text)


def test_reference_definitions_keep_their_written_target() -> None:
    text = "Read [the guide][g] and [API].\n\n[g]: <docs/a guide.md> 'T'\n[api]:\n  ref/über.md"
    (chunk,) = split_markdown(text)
    assert chunk.text == "Read the guide and API."
    assert chunk.links == ("docs/a guide.md", "ref/über.md")


def test_reference_definition_in_a_container_resolves_too() -> None:
    (chunk,) = split_markdown("> [q]: https://q.io/a%20b\n\nSee [q].")
    assert (chunk.text, chunk.links) == ("See q.", ("https://q.io/a b",))


def test_front_matter_lines_keep_their_numbers() -> None:
    text = "\ufeff---\r\ntitle: x\r\n...\r\n# Real\r\n\r\nBody\ttext"
    chunks = split_markdown(text)
    assert brief(chunks) == [("Real", 4, 4, "heading"), ("Body text", 6, 6, "paragraph")]
    check_markdown(chunks, text)


@pytest.mark.parametrize(
    "text",
    [
        "\u3000\nedge words here\n\u3000",
        "> \u2003\n> quoted words here\n> \u2003",
        "Title words\n\u00a0\n===",
        "a\x00b words\x00 here",
        "\t- tabbed\titem\n\t\tcontinued",
    ],
    ids=["unicode-space-edges", "quote-unicode-edges", "setext-unicode-edge", "nul", "tabs"],
)
def test_odd_whitespace_keeps_ranges_exact(text: str) -> None:
    chunks = split_markdown(text)
    assert chunks
    check_markdown(chunks, text)


def test_nul_reads_as_replacement_character() -> None:
    (chunk,) = split_markdown("a\x00b words")
    assert chunk.text == "a\ufffdb words"


@pytest.mark.parametrize(
    "text",
    [
        ">" * 5000 + " deep",
        "\n".join(">" * depth + " text" for depth in range(1000)),
        "\n".join("  " * depth + "- item" for depth in range(1000)),
        "- " * 5000 + "x",
        "- - - - - - - - - - x\n" * 2000,
        "\n".join("> - " * (depth % 60) + "word" for depth in range(1000)),
        "".join("`" * (3 + n) + "{note}\n" for n in range(300, 0, -1)) + "text",
        "[" * 20000 + "]" * 20000,
        "|" + "a|" * 2000 + "\n|" + "-|" * 2000 + "\n" + "x\n" * 2000,
    ],
    ids=[
        "quotes",
        "quote-stairs",
        "list-stairs",
        "list-line",
        "list-lines",
        "mixed",
        "directives",
        "brackets",
        "wide-table",
    ],
)
def test_pathological_nesting_never_raises_nor_recurses_deep(text: str) -> None:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(300)  # the parser and the reader stay well inside this
    try:
        started = time.process_time()
        chunks = split_markdown(text)
        spent = time.process_time() - started
    finally:
        sys.setrecursionlimit(limit)
    check_markdown(chunks, text)
    # Not a speed target (bench/ingest_docs.py measures ingest): a guard against a blow-up,
    # in this process's CPU seconds, which a loaded machine does not stretch as it stretches
    # the wall clock (22.8 s wall seen under load). Each input takes well under a second.
    assert spent < 30


def test_nesting_within_the_cap_is_read_and_beyond_it_skipped() -> None:
    text = "\n".join("  " * depth + f"- item {depth}" for depth in range(12))
    assert [c.text for c in split_markdown(text)] == [f"item {d}" for d in range(9)]
    assert split_markdown(">" * 19 + " deep quote")[0].text == "deep quote"
    assert split_markdown(">" * 20 + " too deep") == []


def test_markdown_it_is_imported_only_when_markdown_is_split() -> None:
    probe = (
        "import sys\n"
        "import credo.knowledge.chunk as chunk\n"
        "assert 'markdown_it' not in sys.modules\n"
        "chunk.split_markdown('# Title')\n"
        "assert 'markdown_it' in sys.modules\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr


def test_fast_on_100kb() -> None:
    block = (
        "## Section title\n\nA paragraph with a [link](https://example.com) and `code`,\n"
        "spanning two lines of **plain** prose.\n\n- a bullet item\n- another bullet\n\n"
        "```\ncode block\n```\n\n| a | b |\n|---|---|\n| cell one | cell two |\n\n"
    )
    text = block * (100_000 // len(block))
    split_markdown(text)
    started = time.process_time()
    chunks = split_markdown(text)
    spent = time.process_time() - started
    assert len(chunks) > 2000
    # markdown-it-py is pure Python: ~0.2-0.3 s for this table-heavy 100 KB (a table makes
    # three tokens per cell). A guard against a blow-up, in CPU seconds (a loaded machine
    # stretches the wall clock); bench/ingest_docs.py measures the speed.
    assert spent < 10


# --- hypothesis ----------------------------------------------------------------------------

_WORDS = st.sampled_from(
    ["alpha", "Beta", "gamma", "Delta", "e.g.", "x1", "42", "über", "日本", "snake_case", "A."]
)
_URLS = st.sampled_from(["https://ex.io/a", "docs/x.md", "<https://ex.io/b>", "#anchor"])


@st.composite
def _inline(draw: st.DrawFn) -> str:
    words = draw(st.lists(_WORDS, min_size=1, max_size=8))
    decorated = []
    for word in words:
        style = draw(
            st.sampled_from(["", "", "**", "*", "_", "`", "~~", "link", "img", "tag", "role"])
        )
        if style == "role":
            decorated.append(draw(st.sampled_from(["{ref}`", "{func}`~", "{doc}`t <"])) + word)
            decorated[-1] += ">`" if decorated[-1].startswith("{doc}") else "`"
        elif style == "link":
            decorated.append(f"[{word}]({draw(_URLS)})")
        elif style == "img":
            decorated.append(f"![{word}]({draw(_URLS)})")
        elif style == "tag":
            decorated.append(f"<b>{word}</b>")
        else:
            decorated.append(f"{style}{word}{style}")
    return " ".join(decorated) + draw(st.sampled_from(["", ".", "!", "?", " &amp;", " \\*"]))


@st.composite
def _line(draw: st.DrawFn) -> str:
    text = draw(_inline())
    kind = draw(
        st.sampled_from(
            [
                "plain",
                "plain",
                "plain",
                "blank",
                "blank",
                "heading",
                "bullet",
                "ordered",
                "indent",
                "quote",
                "fence",
                "tilde",
                "setext",
                "rule",
                "table",
                "delimiter",
                "comment",
                "comment_end",
                "front",
                "refdef",
                "html",
                "raw",
                "target",
                "directive",
                "colon",
                "option",
                "odd-space",
            ]
        )
    )
    return {
        "plain": text,
        "blank": "",
        "heading": "#" * draw(st.integers(1, 7)) + " " + text,
        "bullet": " " * draw(st.integers(0, 6)) + draw(st.sampled_from("-*+")) + " " + text,
        "ordered": f"{draw(st.integers(0, 12))}. {text}",
        "indent": " " * draw(st.integers(1, 9)) + text,
        "quote": "> " * draw(st.integers(1, 3)) + text,
        "fence": "```" + draw(st.sampled_from(["", "python", "`"])),
        "tilde": "~~~~",
        "setext": draw(st.sampled_from(["===", "---", "-"])),
        "rule": "* * *",
        "table": f"| {text} | {text} |",
        "delimiter": "|---|:--:|",
        "comment": "<!-- " + text,
        "comment_end": text + " -->",
        "front": "---",
        "refdef": f"[{text}]: https://ref.io",
        "html": f"<div>{text}",
        "raw": draw(st.text(max_size=20)),
        "target": f"({draw(st.sampled_from(['label', 'a/b', 'x-y']))})=",
        "directive": "```{" + draw(st.sampled_from(["note", "eval-rst", "admonition"])) + "}",
        "colon": draw(st.sampled_from([":::{note}", ":::", "::::{tab-set}", ":::{admonition} T"])),
        "option": ":class: tip",
        "odd-space": draw(st.sampled_from(["\u3000", "\u00a0", "\t", "\x0c", "\x00"])),
    }[kind]


markdown_documents = st.lists(_line(), max_size=30).map("\n".join)


@given(markdown_documents)
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_generated_markdown_properties(text: str) -> None:
    chunks = split_markdown(text)
    check_markdown(chunks, text)
    assert split_markdown(text) == chunks


@given(st.text())
def test_arbitrary_text_never_raises(text: str) -> None:
    chunks = split_markdown(text)
    check_markdown(chunks, text)
    assert split_markdown(text) == chunks


@given(st.text(alphabet="#-*_`~>|<!=[]()\\ \n\r\t\x00.:1aZ&;{}", max_size=200))
def test_markup_soup_never_raises(text: str) -> None:
    check_markdown(split_markdown(text), text)


# --- real files -----------------------------------------------------------------------------

_ROOTS = (sys.prefix, "/usr/share/doc", "/usr/lib/node_modules", "/usr/local/lib", "/usr/lib/jvm")
_MAX_FILES = 120
_MAX_BYTES = 400_000


def real_files(suffixes: tuple[str, ...], limit: int = _MAX_FILES) -> list[Path]:
    """Files with `suffixes` found on this machine, in a stable order, at most `limit`."""
    found: list[Path] = []
    for root in _ROOTS:
        found.extend(_walk(Path(root), suffixes, limit - len(found)))
        if len(found) >= limit:
            break
    return found


def _walk(root: Path, suffixes: tuple[str, ...], limit: int) -> Iterator[Path]:
    if limit <= 0 or not root.is_dir():
        return
    count = 0
    for directory, subdirectories, names in os.walk(root):
        subdirectories.sort()
        for name in sorted(names):
            path = Path(directory, name)
            if name.lower().endswith(suffixes) and _readable_size(path):
                yield path
                count += 1
                if count >= limit:
                    return


def _readable_size(path: Path) -> bool:
    try:
        return path.is_file() and 500 < path.stat().st_size < _MAX_BYTES
    except OSError:
        return False


_MARKDOWN_FILES = real_files((".md", ".markdown"))


@pytest.mark.skipif(not _MARKDOWN_FILES, reason="no Markdown files on this machine")
def test_real_markdown_files() -> None:
    total = 0
    for path in _MARKDOWN_FILES:
        text = path.read_text(encoding="utf-8", errors="replace")
        chunks = split_markdown(text)
        check_markdown(chunks, text)
        total += len(chunks)
    assert total > 0


def test_the_quiet_parser_gives_markdown_its_own_tokens(caplog: pytest.LogCaptureFixture) -> None:
    # credo's parser runs markdown-it's block rules with their DEBUG logging silenced
    # (markdown._quiet); the tokens must be the stock parser's, and nothing is logged.
    from markdown_it import MarkdownIt

    from credo.knowledge.chunk import markdown

    text = (
        "---\ntitle: x\n---\n# Title\n\nSetext\n------\n\npara *one*\nline two\n\n"
        "- item\n  1. nested\n     > quote\n\n```py\ncode\n```\n\n    indented\n\n***\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n<div>\nhtml\n</div>\n\n[ref]: https://x.y\n"
    )
    stock = MarkdownIt("commonmark", {"maxNesting": markdown.MAX_NESTING}).enable("table")
    stock.disable(["inline", "text_join"])
    with caplog.at_level("DEBUG", logger="markdown_it"):
        quiet = markdown._parser().parse(text, {})
    assert not [r for r in caplog.records if r.name.startswith("markdown_it")]
    assert [t.as_dict() for t in quiet] == [t.as_dict() for t in stock.parse(text, {})]
