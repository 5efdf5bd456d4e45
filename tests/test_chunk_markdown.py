"""split_markdown: rule tables, hypothesis properties and a sweep over real Markdown files."""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import ROLES, Chunk, split_markdown

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
    and is removed first.
    """
    lines = lines_of(text)
    for index, chunk in enumerate(chunks):
        assert chunk.text, chunk
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
        span = "".join(_WORD.findall("\n".join(lines[chunk.start_line - 1 : chunk.end_line])))
        words = _WORD.findall(body)
        missing = [word for word in words if word not in span]
        assert not missing, (chunk, missing)
        assert _is_subsequence("".join(words), span), chunk


def _is_subsequence(needle: str, haystack: str) -> bool:
    remaining = iter(haystack)
    return all(char in remaining for char in needle)


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
    pytest.param(
        "```\n# not a heading\n```\nAfter fence",
        [("After fence", 4, 4, "paragraph")],
        id="backtick-fence",
    ),
    pytest.param(
        "~~~python\n# comment\n~~~\n\nAfter", [("After", 5, 5, "paragraph")], id="tilde-fence"
    ),
    pytest.param(
        "````\n```\n# inside\n```\n````\nOut", [("Out", 6, 6, "paragraph")], id="longer-fence"
    ),
    pytest.param("```\n# unclosed\n\nText", [], id="unclosed-fence-runs-to-end"),
    pytest.param(
        "Para\n\n    indented code\n    # not heading\n\nAfter",
        [("Para", 1, 1, "paragraph"), ("After", 6, 6, "paragraph")],
        id="indented-code",
    ),
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
    pytest.param("+++\ntitle = 'x'\n+++\nBody", [("Body", 4, 4, "paragraph")], id="toml-front"),
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
        "- ```\n  code in item\n  ```\n- after", [("after", 4, 4, "bullet")], id="fence-item"
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_blocks(text: str, expected: list[tuple[str, int, int, str]]) -> None:
    chunks = split_markdown(text)
    assert brief(chunks) == expected
    check_chunks(chunks, text)


INLINE_CASES = [
    ("**bold** and *em* and _em_ and ~~gone~~", "bold and em and em and gone", ()),
    ("keep `inline *code*` as is", "keep `inline *code*` as is", ()),
    ("``a ` b`` spans", "``a ` b`` spans", ()),
    ("snake_case_name stays", "snake_case_name stays", ()),
    ("2 * 3 * 4 math", "2 * 3 * 4 math", ()),
    ("see [the docs](https://x.io/a_(b)) now", "see the docs now", ("https://x.io/a_(b)",)),
    ('[text](<a b.md> "Title") x', "text x", ("a b.md",)),
    ("![logo alt](img/logo.png) text", "logo alt text", ("img/logo.png",)),
    (
        "[![badge](https://b.io/x.svg)](https://ci.io) ok",
        "badge ok",
        ("https://b.io/x.svg", "https://ci.io"),
    ),
    ("visit <https://auto.io/p> now", "visit https://auto.io/p now", ("https://auto.io/p",)),
    ("mail <me@example.com> ok", "mail me@example.com ok", ()),
    ("bare https://bare.io/path. end", "bare https://bare.io/path. end", ("https://bare.io/path",)),
    ("a `https://in.code` b", "a `https://in.code` b", ()),
    ("\\*not emphasis\\* here", "*not emphasis* here", ()),
    ("press <kbd>Ctrl</kbd> now", "press Ctrl now", ()),
    ('<a href="https://h.io">anchor</a> text', "anchor text", ("https://h.io",)),
    ("Tom &amp; Jerry &lt;3 &copy;", "Tom & Jerry <3 &copy;", ()),
    ("dup [a](https://d.io) [b](https://d.io)", "dup a b", ("https://d.io",)),
]


@pytest.mark.parametrize(("source", "text", "links"), INLINE_CASES)
def test_inline(source: str, text: str, links: tuple[str, ...]) -> None:
    (chunk,) = split_markdown(source)
    assert chunk.text == text
    assert chunk.links == links
    check_chunks([chunk], source)


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
    check_chunks(chunks, text)


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


def test_fast_on_100kb() -> None:
    block = (
        "## Section title\n\nA paragraph with a [link](https://example.com) and `code`,\n"
        "spanning two lines of **plain** prose.\n\n- a bullet item\n- another bullet\n\n"
        "```\ncode block\n```\n\n| a | b |\n|---|---|\n| cell one | cell two |\n\n"
    )
    text = block * (100_000 // len(block))
    split_markdown(text)
    started = time.perf_counter()
    chunks = split_markdown(text)
    elapsed = time.perf_counter() - started
    assert len(chunks) > 2000
    # Pure Python: ~20-40 ms per 100 KB; the bound is loose so a slow CI box still passes.
    assert elapsed < 0.5


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
        style = draw(st.sampled_from(["", "", "**", "*", "_", "`", "~~", "link", "img", "tag"]))
        if style == "link":
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
    }[kind]


markdown_documents = st.lists(_line(), max_size=30).map("\n".join)


@given(markdown_documents)
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_generated_markdown_properties(text: str) -> None:
    chunks = split_markdown(text)
    check_chunks(chunks, text)
    assert split_markdown(text) == chunks


@given(st.text())
def test_arbitrary_text_never_raises(text: str) -> None:
    chunks = split_markdown(text)
    check_chunks(chunks, text)
    assert split_markdown(text) == chunks


@given(st.text(alphabet="#-*_`~>|<!=[]()\\ \n\t.:1aZ&;", max_size=200))
def test_markup_soup_never_raises(text: str) -> None:
    check_chunks(split_markdown(text), text)


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
        check_chunks(chunks, text)
        total += len(chunks)
    assert total > 0
