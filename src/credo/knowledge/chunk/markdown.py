"""Split Markdown into section-aware chunks, reading the block structure markdown-it-py finds.

The blocks and their lines come from markdown-it-py (CommonMark plus GitHub tables): each
block token carries the lines it spans (`Token.map`), so every chunk keeps the exact line
range of its text. The inline text of a block is cleaned as `credo.knowledge.chunk.inline`
documents (link targets, reference links included, go to `Chunk.links`). The rules:

- Headings (ATX ``#`` and setext ``===``/``---``) are "heading" chunks and open a section;
  `Chunk.section` is the heading path. A heading chunk's own section ends with its own
  title, and its `heading_index` points at its parent heading. The range of a setext
  heading is its text lines, not the underline. An empty heading closes deeper sections
  and opens none. A heading inside a blockquote, a list item or a MyST directive is a
  paragraph, not a section.
- A paragraph is one "paragraph" chunk; past `MAX_PARAGRAPH_CHARS` it is split into
  "sentence" chunks, each with the lines it touches.
- List items (``-``, ``*``, ``+``, ``1.``, ``1)``): the first paragraph of each item is one
  "bullet" chunk, marker removed, task boxes (``[ ]``, ``[x]``) kept because they carry
  meaning. Later paragraphs of the item are "paragraph" chunks, and a nested item is a
  bullet of its own (a parent's chunk never repeats its children's words, so each line
  belongs to one chunk). A long item is split into sentences.
- Blockquotes are read as Markdown without their ``>`` marks (nesting flattened); GitHub
  alert markers (``[!NOTE]``) are dropped.
- Tables: each row, the header included and the ``---|---`` delimiter row excluded, is one
  "paragraph" chunk with its cells joined by `` | ``.
- Code: each fenced (`````` or ``~~~``; an unclosed fence runs to the end, as in
  CommonMark) or indented code block is one "code" chunk. Its text is the block's content
  without the fences, its lines kept (unlike every other chunk's text, not normalised: a
  comment ends at its line's end), its range the whole block with its fence lines, its
  section the enclosing heading path. Passages fold code into their context, not their
  text (`credo.knowledge.chunk.passage`). A code block's title, which the page shows over
  it (a fence's ``title="mkdocs.yml"``, a MyST code directive's ``:caption:``), is a
  "paragraph" chunk at its line, read as written.
- MyST: target lines such as ``(label)=`` are dropped, roles such as ``{ref}`text```
  read as their text (`credo.knowledge.chunk.inline`), and a fence whose info string names
  a prose directive (``{note}``, ``{warning}``, ``{versionadded}``, ``{admonition}``...) is
  read as Markdown (its ``:option:`` lines dropped; the text on an admonition's opening
  line, ``{note} Text``, its first line), not as code. Other directives
  (``{eval-rst}``, ``{code-block}``, ``{toctree}``...) are code. A colon fence
  (``:::{note}`` ... ``:::``) is read as the backtick fence it means
  (`credo.knowledge.chunk.colon_fence`), and so is a container (VitePress' ``::: info
  Note``, Docusaurus' ``:::tip[Title]``): its title, else its type, then its Markdown.
- MkDocs: a mkdocstrings autodoc line (``::: package.Object``) reads as the object's
  dotted path, its indented option block as nothing
  (`credo.knowledge.chunk.mkdocstrings`). A heading's attribute list (attr_list's
  ``## Name {: #name }``, closing hashes before it too) is not part of its title. A
  content tab (``=== "macOS"`` and the block indented under it) reads as its title and
  the block's Markdown, and so does an admonition (``!!! note "Title"``)
  (`credo.knowledge.chunk.mkdocs_blocks`).
- MDX (a ``.mdx`` file: ``mdx=True``): no indented code, as MDX has none (a component's
  indented content is Markdown: a list, fence or other block four or more columns in opens
  there, under a paragraph's line too, and a list's items are measured from its own indent),
  and a line holding one component tag alone is a block of its own
  (`credo.knowledge.chunk.mdx`); a paragraph of ES module imports alone (``import Tabs from
  '@theme/Tabs'``) is dropped, and in a ``.md`` page only when the names it binds are the
  page's component tags (elsewhere a renderer shows it); a component's name and title
  attributes are text (`credo.knowledge.chunk.inline`).
- HTML blocks are paragraphs with their tags removed (so badge rows vanish); raw-text
  blocks (``<script>``, ``<style>``, ``<pre>``, ``<textarea>``), processing instructions,
  declarations, CDATA and comments leave nothing.
- Front matter: YAML (``---``) or TOML (``+++``) on line 1 is skipped, except its
  ``title`` when the page has no level-1 heading of its own: the site shows that title as
  the page's (MkDocs, Docusaurus, Jekyll, Hugo), so it is the page's heading, at its line.
  Its ``description`` is the first paragraph under the page's title, at its line: under that
  heading, or under the page's own level-1 heading (an agent skill's ``SKILL.md``, a
  Docusaurus page), or the page's opening paragraph when it has no title at all.
- Skipped: link reference
  definitions (their targets still resolve ``[text][label]`` links), thematic breaks, and
  any chunk with fewer than `MIN_MEANINGFUL_CHARS` letters or digits.
- Hostile input: any string is read (NUL becomes U+FFFD as CommonMark says, a BOM is
  dropped, ``\\r\\n`` and ``\\r`` end lines); what nests deeper than `MAX_NESTING`
  parser levels (nine nested lists, nineteen nested quotes) is not read, so nothing
  recurses without bound.

markdown-it-py is imported on the first call, never at import time: the read path does not
load it.
"""

from __future__ import annotations

import re
import types
from functools import cache
from typing import TYPE_CHECKING, Any

from credo.knowledge.chunk.colon_fence import indented_code, rewrite_colon_fences
from credo.knowledge.chunk.markdown_blocks import BlockReader
from credo.knowledge.chunk.mkdocs_blocks import rewrite_mkdocs_blocks
from credo.knowledge.chunk.mkdocstrings import rewrite_autodoc_lines
from credo.knowledge.chunk.model import Chunk, normalise, source_lines

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

# Token nesting markdown-it reads before it skips the rest of a container: CommonMark's
# preset value. Each nested list costs two levels and each quote one, so nine nested lists
# or nineteen nested quotes are read. The parser recurses about two frames a level, far
# below Python's limit; its work per line grows with the depth it reads (with a cap of 40,
# 200 KB of ten-deep "- - ... - x" lines took 8 s instead of 0.03 s).
MAX_NESTING = 20
# A reference definition as written: the label, then the target (``<...>`` or a word).
# Front matter's page title: MkDocs, Docusaurus, Jekyll and Hugo show it as the page's title
# (its H1, when the page writes none). Compiled on first use: few files have front matter.
_TITLE_KEY = r"title[ \t]*[:=][ \t]*(.*)$"
# Its one-sentence summary of the page, read under that title: Mintlify shows it below the
# title; MkDocs, Docusaurus, VitePress and Jekyll give it to search engines, link previews and
# their own site search (fastmcp's 144 pages, md89).
_DESCRIPTION_KEY = r"description[ \t]*[:=][ \t]*(.*)$"
_REF_DEF = re.compile(r"[ \t]*\[((?:[^\[\]\\]|\\.)*)\]:[ \t]*\n?[ \t]*(<[^<>\n]*>|\S+)")


def split_markdown(text: str, mdx: bool = False) -> list[Chunk]:
    """Split Markdown `text` into chunks; see the module docstring for the rules.

    ``mdx``: the text is MDX (a ``.mdx`` file), which has no indented code: Mintlify and
    Docusaurus indent a component's Markdown under it, and fastmcp's 392 such lines of prose,
    fences and fields were read as code blocks; a component's tag line is a block of its own.

    Pure and deterministic; never raises on any input string.
    """
    lines = source_lines(text)
    if lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    if "\x00" in text:
        lines = [line.replace("\x00", "\ufffd") for line in lines]
    first = _after_front_matter(lines)
    title = _front_matter_value(lines, first, _TITLE_KEY) if first > 1 else None
    summary = _front_matter_value(lines, first, _DESCRIPTION_KEY) if first > 1 else None
    if first > 1:
        lines[: first - 1] = [""] * (first - 1)  # blank, so line numbers stay as they are
    if "===" in text or "!!!" in text or "???" in text:
        lines = rewrite_mkdocs_blocks(lines)  # MkDocs' tabs and admonitions, as Markdown
    fenced = lines
    if ":::" in text:
        lines = rewrite_autodoc_lines(lines)  # mkdocstrings' "::: a.B" read as "a.B"
        fenced = rewrite_colon_fences(lines)  # MyST's ":::{note}" read as "```{note}"
    md = _mdx_parser() if mdx else _parser()
    env: dict[str, Any] = {}
    tokens = md.parse("\n".join(fenced), env)
    if fenced is not lines and (code := indented_code(tokens, lines, fenced)):
        fenced = rewrite_colon_fences(lines, code)  # (rare: a colon line in indented code)
        env = {}
        tokens = md.parse("\n".join(fenced), env)
    lines = fenced
    refs = _references(env, lines)
    reader = BlockReader(md, refs, mdx)
    if title is not None or summary is not None:  # (few pages: the scan reads every token)
        titled = _has_title(tokens)
        if title is not None and not titled:
            reader.open_page(*title)
        if summary is not None:
            reader.summary(*summary, under_title=titled)
    reader.read(tokens, lines, 0, env)
    return reader.chunks


@cache
def _mdx_parser() -> MarkdownIt:
    """`_parser`'s rules without indented code, for MDX: markdown-it then reads an indented
    fence, HTML block or list as it reads one at the margin, as MDX does (a list's items
    measured from its own indent); and a line holding
    one component tag alone is a block of its own (`credo.knowledge.chunk.mdx`)."""
    from credo.knowledge.chunk.mdx import list_at_own_indent, mdx_tag, paragraph

    md = _parser.__wrapped__()  # (a parser of its own: the cached one stays CommonMark's)
    md.disable("code")
    ruler = md.block.ruler
    ruler.at("paragraph", paragraph, {"alt": ruler.__rules__[ruler.__find__("paragraph")].alt})
    listed = ruler.__rules__[ruler.__find__("list")]
    ruler.at("list", list_at_own_indent(listed.fn), {"alt": listed.alt})
    md.block.ruler.before("html_block", "mdx_tag", mdx_tag, {"alt": ["paragraph", "blockquote"]})
    return md


@cache
def _parser() -> MarkdownIt:
    """CommonMark with tables, block rules only: inline text is cleaned by credo's rules.

    Without the "normalize" core rule either: it rewrites ``\r\n``, ``\r`` and NUL, which
    `split_markdown` has already done to the text it parses (and so to a directive's content,
    cut from it), and its substitution rewrote every line break of every file."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).enable("table")
    md.disable(["normalize", "inline", "text_join"])
    ruler = md.block.ruler
    for rule in list(ruler.__rules__):
        ruler.at(rule.name, _quiet(rule.fn), {"alt": rule.alt})
    return md


class _Quiet:
    """A logger whose ``debug`` does nothing, in one C call: ``"".format`` ignores its
    arguments and formats nothing."""

    debug = staticmethod("".format)


def _quiet(rule: Any) -> Any:
    """``rule`` with its module's ``LOGGER`` silenced, for this parser only.

    Each of markdown-it's block rules logs "entering <rule>" at DEBUG on every call, and
    a rule is tried at every line it could start on: ~57,000 calls of ``Logger.debug``
    (two Python frames each, ~1.5% of ingesting black's docs) that log nothing unless the
    process asks for markdown-it's debug output, which credo's parses then no longer give.
    The rule's code is the library's own; only the name ``LOGGER`` it reads differs."""
    scope = dict(rule.__globals__)
    scope["LOGGER"] = _Quiet
    quiet = types.FunctionType(
        rule.__code__, scope, rule.__name__, rule.__defaults__, rule.__closure__
    )
    quiet.__kwdefaults__ = rule.__kwdefaults__  # (not a FunctionType argument)
    return quiet


def _after_front_matter(lines: list[str]) -> int:
    """1-based number of the first line after front matter (1 when there is none)."""
    opener = lines[0].rstrip()
    if opener not in ("---", "+++"):
        return 1
    closers = ("---", "...") if opener == "---" else ("+++",)
    for index in range(1, len(lines)):
        if lines[index].rstrip() in closers:
            return index + 2
    return 1


def _front_matter_value(lines: list[str], first: int, pattern: str) -> tuple[int, str] | None:
    """(line, value) of the front matter's key ``pattern`` reads (YAML ``title: X``, TOML
    ``title = "X"``; quotes dropped), or None. ``first`` is the line after the front matter."""
    key = pattern[:4]  # (a cheap test before the match: "titl", "desc")
    for number, line in enumerate(lines[1 : first - 2], start=2):
        found = re.match(pattern, line) if line.startswith(key) else None
        if found is not None:
            value = found.group(1).strip()
            if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"":
                value = value[1:-1]
            return (number, value) if value[:1] not in ("", "|", ">") else None
    return None


def _has_title(tokens: list[Any]) -> bool:
    """Whether the page has a level-1 heading of its own (outside lists and quotes)."""
    return any(t.type == "heading_open" and t.tag == "h1" and t.level == 0 for t in tokens)


def _references(env: dict[str, Any], lines: list[str]) -> dict[str, str]:
    """Reference labels (lower-cased, as `clean_inline` looks them up) to targets as written.

    markdown-it keeps each definition's lines; the target is read back from them, because
    the parser's own copy is percent-encoded. The parser's copy, decoded, is the fallback.
    """
    found: dict[str, str] = {}
    for key, definition in env.get("references", {}).items():
        span = definition.get("map") or (0, 0)
        written = _REF_DEF.match("\n".join(lines[span[0] : span[1]]))
        if written is not None:
            label, target = written.group(1), written.group(2)
            if target.startswith("<") and target.endswith(">"):
                target = target[1:-1]
        else:
            label = str(key)
            target = _parser().normalizeLinkText(str(definition.get("href", "")))
        found.setdefault(normalise(label).lower(), target)
    return found
