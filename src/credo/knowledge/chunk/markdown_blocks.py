"""From markdown-it block tokens to chunks: the reading half of `split_markdown`.

The token stream is flat (``*_open`` ... ``*_close``), so it is read in one loop with a
little state (open quotes, open list items, the current table row) and no recursion,
however deep the document nests. Only a MyST prose directive is parsed again (its content
is Markdown), at most `MAX_DIRECTIVE_DEPTH` directives deep.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from credo.knowledge.chunk.inline import clean_inline
from credo.knowledge.chunk.model import Chunk, is_meaningful, normalise
from credo.knowledge.chunk.sentence import Line, split_paragraph

if TYPE_CHECKING:
    from collections.abc import Sequence

    from markdown_it import MarkdownIt
    from markdown_it.token import Token

# A directive inside a directive inside a directive is read; deeper ones are code.
MAX_DIRECTIVE_DEPTH = 3

# Spans a sentence boundary must not cut: code spans and inline links or images.
_PROTECTED = re.compile(r"(`+).+?\1|!?\[[^\[\]]*\]\([^()]*\)", re.S)
_ALERT_LINE = re.compile(r"[ \t]*\[![A-Za-z]+\][ \t]*$")
_MYST_TARGET = re.compile(r"[ \t]*\([^()\n]+\)=[ \t]*$")
# HTML blocks that hold no prose: raw text (CommonMark type 1), processing instructions,
# declarations and CDATA (types 3 to 5).
_RAW_HTML = re.compile(
    r"[ \t]*(?:<(?:script|pre|style|textarea)(?:[\s>]|$)|<\?|<!\[CDATA\[|<![A-Za-z])", re.I
)
# A heading's attribute list (Python-Markdown's attr_list, MkDocs; Pandoc): "## Name {: #name }",
# "## Name ## { #name .wide }". Every word in it is an id, a class or a key=value: markup.
# (a value read one way only: quoted, or unquoted and starting with no quote; read both
# ways, '{ a="b" a="b" ... x' backtracked through 2^n readings: review86)
# (an unquoted value holds no "{": read from each "{" of "{a={a={a=...", a value running to
# the line's end was quadratic, 16 s for a 40 KB heading: review88)
_ATTR = r"""(?:[#.][\w:.\\-]+|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s{}"'][^\s{}]*))"""
# (searched from each "{", not from each blank before it: a run of blanks read again from
# each of its places was quadratic in a long heading)
# After attr_list's "{:" a bare word is an attribute too ("{: #test-skip env-var toml}",
# cibuildwheel's options); without the colon "{ a b }" may be prose, so it stays.
_BARE_OR_ATTR = rf"(?:{_ATTR}|[\w-]+)"
_HEADING_ATTRS = re.compile(
    rf"(?:\{{:[ \t]*{_BARE_OR_ATTR}(?:[ \t]+{_BARE_OR_ATTR})*"
    rf"|\{{[ \t]*{_ATTR}(?:[ \t]+{_ATTR})*)[ \t]*\}}[ \t]*$"
)
# A fence's title (pymdownx.superfences, MkDocs Material): ```yaml title="mkdocs.yml".
# (This and the caption are compiled on first use, by re's cache: few pages hold one, and
# a compile at import costs every ingest.)
_FENCE_TITLE = r"""(?:^|[ \t])title=(?:"([^"]*)"|'([^']*)')"""
# MyST's code directives and their caption option, which Sphinx shows above the code.
_CAPTIONED_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "literalinclude"})
_CAPTION_OPTION = r"[ \t]*:caption:[ \t]+(\S.*)$"
_DIRECTIVE = re.compile(r"\{([A-Za-z][\w:.+-]*)\}[ \t]*(.*)$")
OPTION_LINE = re.compile(r"[ \t]*:[\w-]+:(?:[ \t].*)?$")
# MyST directives whose content is prose (read as Markdown); their argument, for the
# titled ones, is prose too.
_TITLED_DIRECTIVES = frozenset(
    "admonition topic sidebar dropdown card tab-item grid-item-card rubric margin".split()
)
PROSE_DIRECTIVES = _TITLED_DIRECTIVES | frozenset(
    "attention caution danger error hint important note seealso tip warning todo "
    "versionadded versionchanged versionremoved deprecated epigraph pull-quote "
    "highlights tab-set grid div container info details success".split()
)
# An ES module import line, as MDX files open (a quoted module, "from" before it or not).
_IMPORT = r"""import[ \t]+(?:[^'"\n]*?[ \t]from[ \t]*)?["'][^"'\n]+["'][ \t]*;?[ \t]*$"""
# What an import line binds: its words before "from", bar a renamed name ("A as B" binds B),
# the keywords and the quoted module of a side-effect import ("import './a.css'" binds none).
_NOT_BOUND = r"""^import\b|\btype\b|(?:[\w$]+|\*)[ \t]+as\b|[ \t]from[ \t].*$|["'][^"']*["']"""
# Directives that take no argument: MyST reads the text on their opening line as the first
# line of their content ("```{note} If you find that ...", click's docs; "::::{note} Here's a
# note!", sphinx-book-theme's).
_CONTENT_ON_OPENING = frozenset(
    "attention caution danger error hint important note seealso tip warning todo "
    "epigraph pull-quote highlights info details success".split()
)
# The boxes VitePress and Docusaurus write as colon containers ("::: info Note"), read as
# these directives (`colon_fence`): the title on the opening line is its first paragraph.
CONTAINER_TYPES = frozenset(
    "info details tip note warning danger caution important success".split()
)
# MyST's version notes: their argument is the version, then (on the opening line, as
# Sphinx's ``.. versionchanged:: 2.1 text``) what changed; read as the reStructuredText
# reader labels them (rst_parse ``_Version``): "versionchanged 2.1 text".
_VERSION_DIRECTIVES = frozenset("versionadded versionchanged versionremoved deprecated".split())
# Tokens that open a block inside a list item: after one, the item's first block is taken.
_BLOCK_OPENERS = frozenset(
    "heading_open blockquote_open bullet_list_open ordered_list_open fence code_block "
    "html_block table_open hr".split()
)


class BlockReader:
    """Turns block tokens into chunks, keeping the open sections across every read."""

    def __init__(self, md: MarkdownIt, refs: dict[str, str], mdx: bool = False) -> None:
        self.md = md
        self.refs = refs
        self.mdx = mdx  # (an ``.mdx`` page: its import paragraphs are module imports)
        self.chunks: list[Chunk] = []
        # Open headings, outermost first: (level, title, index of its chunk).
        self.headings: list[tuple[int, str, int]] = []
        self.pending: Line | None = None  # a summary waiting for the page's level-1 heading

    def clean(self, raw: str) -> tuple[str, tuple[str, ...]]:
        return clean_inline(raw, self.refs)

    def read(
        self,
        tokens: Sequence[Token],
        lines: list[str],
        base: int = 0,
        env: dict[str, Any] | None = None,
        depth: int = 0,
    ) -> None:
        """Read `tokens` parsed from `lines`, whose first line is source line ``base + 1``.

        `env` is the parser's environment (its reference definitions serve a directive's
        content too); `depth` counts the directives around `lines`.
        """
        env = env if env is not None else {}
        contained = depth > 0
        quotes = 0
        items: list[bool] = []  # per open list item: is its first block still to come?
        row: list[str] = []
        row_line = 0
        for index, token in enumerate(tokens):
            kind = token.type
            role = "paragraph"
            if items and (kind in _BLOCK_OPENERS or kind == "paragraph_open"):
                role = "bullet" if items[-1] else role  # an item's first block is its bullet
                items[-1] = False
            if kind == "paragraph_open":
                text = _lines(tokens[index + 1], token, lines, base, 0)
                if (
                    "import" in tokens[index + 1].content[:6]
                    and _imports(text, quotes or contained or items)
                    and (self.mdx or _components(text, lines))
                ):
                    continue  # MDX's module imports: the page shows none of them
                self._paragraph(_prose(text, quotes > 0), role)
            elif kind == "heading_open":
                drop = 1 if token.markup in ("=", "-") else 0  # the setext underline
                text = _lines(tokens[index + 1], token, lines, base, drop)
                if contained or quotes or items:
                    self._paragraph(_prose(text, quotes > 0), role)
                else:
                    self._heading(_prose(text, False), int(token.tag[1:] or 1))
                    if self.pending is not None and token.tag == "h1":
                        self._paragraph([self.pending], "paragraph")
                        self.pending = None
            elif kind == "blockquote_open":
                quotes += 1
            elif kind == "blockquote_close":
                quotes -= 1
            elif kind == "list_item_open":
                items.append(True)
            elif kind == "list_item_close" and items:
                items.pop()
            elif kind == "tr_open":
                row, row_line = [], base + _span(token, len(lines))[0] + 1
            elif kind in ("th_open", "td_open") and index + 1 < len(tokens):
                row.append(tokens[index + 1].content)
            elif kind == "tr_close":
                while row and not row[-1].strip():
                    row.pop()  # cells GFM adds to a short row, or empty ones at its end
                self._paragraph([(row_line, " | ".join(row))], "paragraph")
            elif kind == "fence":
                self._fence(token, lines, base, env, depth)
            elif kind == "code_block":
                self._code(token, lines, base)
            elif kind == "html_block" and not _RAW_HTML.match(token.content):
                self._paragraph(_html_lines(token, lines, base), "paragraph")

    def open_page(self, line: int, title: str) -> None:
        """Open the page's section with a title its front matter gives (`split_markdown`)."""
        self._heading([(line, title)], 1)

    def summary(self, line: int, text: str, under_title: bool = False) -> None:
        """A paragraph the front matter gives the page (`split_markdown`): now, or, when the
        page writes its own level-1 heading (``under_title``), as the first paragraph under it.
        An agent skill's ``SKILL.md`` puts its ``description:`` (what the skill does and when
        to use it) above its ``# Title``: it was read nowhere (md89)."""
        if under_title:
            self.pending = (line, text)
        else:
            self._paragraph([(line, text)], "paragraph")

    # -- what each block becomes ------------------------------------------------------------
    def _where(self) -> tuple[tuple[str, ...], int | None]:
        section = tuple(title for _, title, _ in self.headings)
        return section, (self.headings[-1][2] if self.headings else None)

    def _paragraph(self, lines: list[Line], role: str) -> None:
        if not lines:
            return
        section, parent = self._where()
        self.chunks.extend(split_paragraph(lines, role, self.clean, section, parent, _PROTECTED))

    def _heading(self, lines: list[Line], level: int) -> None:
        """Append a heading chunk and make it the innermost open section.

        Its title is its text without images: a badge or an emoji picture beside the name
        (``# Logrus <img ...> [![Build Status](...)](...)``) is not the title, and a title
        is in every passage's trail under it. A heading of images alone (a logo) is titled
        by their text."""
        raw = "\n".join(content for _, content in _without_attrs(lines))
        text, links = clean_inline(raw, self.refs, images=False)
        if not is_meaningful(text, 1) and "![" in raw:
            text, links = self.clean(raw)
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        if not lines or not is_meaningful(text, 1):
            return  # an empty heading closes deeper sections but opens none
        parent = self.headings[-1][2] if self.headings else None
        section = (*(title for _, title, _ in self.headings), text)
        start, end = lines[0][0], lines[-1][0]
        self.chunks.append(Chunk(text, start, end, "heading", section, parent, links))
        self.headings.append((level, text, len(self.chunks) - 1))

    def _code(self, token: Token, lines: list[str], base: int, content: str | None = None) -> None:
        # Lines kept, not normalised: a comment ends at its line's end (chunk/example).
        text = (token.content if content is None else content).strip()
        if not is_meaningful(text):
            return
        start, end = _span(token, len(lines))
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1  # an unclosed fence runs to the end; its range stops at its last text
        section, parent = self._where()
        self.chunks.append(Chunk(text, base + start + 1, base + end, "code", section, parent))

    def _fence(
        self, token: Token, lines: list[str], base: int, env: dict[str, Any], depth: int
    ) -> None:
        """Code, or a MyST prose directive (``{note}``...), whose content is Markdown."""
        directive = _DIRECTIVE.match(token.info.strip())
        if directive is None:
            if "title=" in token.info and (title := re.search(_FENCE_TITLE, token.info)):
                line = base + _span(token, len(lines))[0] + 1
                self._caption(line, title.group(1) or title.group(2) or "")
            self._code(token, lines, base)
            return
        content = token.content.split("\n")
        inner = _without_options(content)
        name, argument = directive.group(1).lower(), directive.group(2)
        if name not in PROSE_DIRECTIVES or depth >= MAX_DIRECTIVE_DEPTH:
            if name in _CAPTIONED_DIRECTIVES:
                line = base + _span(token, len(lines))[0] + 1
                self._directive_caption(content, inner, line)
            self._code(token, lines, base, "\n".join(inner))
            return
        start = _span(token, len(lines))[0]
        if argument and (name in _TITLED_DIRECTIVES or name in _CONTENT_ON_OPENING):
            self._paragraph([(base + start + 1, argument)], "paragraph")
        elif name in _VERSION_DIRECTIVES:
            self._paragraph([(base + start + 1, f"{name} {argument}".strip())], "paragraph")
        inner_env: dict[str, Any] = {"references": dict(env.get("references", {}))}
        tokens = self.md.parse("\n".join(inner), inner_env)
        self.read(tokens, inner, base + start + 1, inner_env, depth + 1)

    def _caption(self, line: int, title: str) -> None:
        """A code block's title, shown above it on the page ("copier.yml", "Special Lines"):
        a paragraph at the fence's line, so a reader finds the example by the name the page
        gives it. Its text as written: neither renderer reads markup in it
        ("my_pkg/__init__.py")."""
        text = normalise(title)
        if is_meaningful(text):
            section, parent = self._where()
            self.chunks.append(Chunk(text, line, line, "paragraph", section, parent))

    def _directive_caption(self, content: list[str], inner: list[str], line: int) -> None:
        """A MyST code directive's ``:caption:`` option (its option lines are blanked in
        `inner`): the title Sphinx shows above the code, at its option's line."""
        for offset, (written, kept) in enumerate(zip(content, inner, strict=True)):
            if written == kept:
                break
            caption = re.match(_CAPTION_OPTION, written)
            if caption is not None:
                self._caption(line + offset + 1, caption.group(1))


def _span(token: Token, count: int) -> tuple[int, int]:
    """The token's lines, 0-based with the end excluded, clamped to the `count` lines."""
    if token.map is None:
        return 0, 0
    start, end = token.map
    start = min(max(start, 0), count)
    return start, min(max(end, start), count)


def _lines(inline: Token, block: Token, lines: list[str], base: int, drop: int) -> list[Line]:
    """Each line of a block's inline text with its source line number.

    markdown-it strips the text of a paragraph or heading as a whole, so a line of only
    Unicode spaces at either edge can vanish from it: the text lines are then matched to
    the source lines they still fit (almost never needed; it keeps every range exact).
    """
    start, end = _span(block, len(lines))
    end -= drop
    parts = inline.content.split("\n")
    count = end - start
    if count <= 0:
        return []
    if len(parts) > count:
        parts = [*parts[: count - 1], " ".join(parts[count - 1 :])]
    shift = 0
    if len(parts) < count:
        last = len(parts) - 1
        fits = (
            lead
            for lead in range(count - last)
            if parts[0] in lines[start + lead] and parts[-1] in lines[start + lead + last]
        )
        shift = next(fits, 0)
    first = base + start + shift + 1
    return [(first + offset, part) for offset, part in enumerate(parts)]


def _without_attrs(lines: list[Line]) -> list[Line]:
    """A heading's lines without the attribute list that ends it (and the closing hashes
    before it, markdown-it's "## Name ## {: #name }"): the list names its anchor and style,
    which no reader sees."""
    if not lines or "{" not in lines[-1][1]:
        return lines
    number, last = lines[-1]
    attrs = _HEADING_ATTRS.search(last)
    if attrs is None:
        return lines
    bare = last[: attrs.start()].rstrip(" \t")
    # Closing hashes: a run of "#" that is the whole text or follows a blank ("C#" is a name).
    before = bare.rstrip("#")
    if before != bare and (not before or before[-1] in " \t"):
        bare = before.rstrip(" \t")
    return [*lines[:-1], (number, bare)]


def _prose(lines: list[Line], in_quote: bool) -> list[Line]:
    """Drop MyST target lines, and in a quote the GitHub alert marker line."""
    kept = [line for line in lines if not (")=" in line[1] and _MYST_TARGET.match(line[1]))]
    if in_quote and kept and _ALERT_LINE.match(kept[0][1]):
        kept = kept[1:]
    return kept


def _html_lines(token: Token, lines: list[str], base: int) -> list[Line]:
    start, end = _span(token, len(lines))
    parts = token.content.split("\n")[: end - start]
    return [(base + start + offset + 1, part.strip()) for offset, part in enumerate(parts)]


def _imports(lines: list[Line], nested: object) -> bool:
    """Whether a paragraph, not ``nested`` in a quote, list or directive, is MDX's ESM imports
    only (``import { Badge } from "/b.mdx"``, ``import Tabs from '@theme/Tabs';``): fastmcp's
    Mintlify pages and Docusaurus' open so. (Called for a paragraph that starts with the word.)"""
    if nested or not lines:
        return False
    return all(content.startswith("import") and re.match(_IMPORT, content) for _, content in lines)


def _components(imports: list[Line], page: list[str]) -> bool:
    """Whether a plain Markdown page uses every name its import paragraph binds as a
    component tag (``import Tabs from '@theme/Tabs'`` and ``<Tabs>``: a Docusaurus page written
    in ``.md``, which Docusaurus reads as MDX). Elsewhere the paragraph is text a Markdown
    renderer shows, as written (review91: a plain ``.md`` page's ``import x from 'y'`` was
    dropped)."""
    bound = " ".join(re.sub(_NOT_BOUND, " ", content) for _, content in imports)
    names = re.findall(r"[A-Za-z_$][\w$]*", bound)
    text = "\n".join(page)
    return bool(names) and all(re.search(rf"<{re.escape(name)}[\s/>.]", text) for name in names)


def _without_options(content: list[str]) -> list[str]:
    """A directive's content lines with its leading options blanked (lines keep their place).

    Options are ``:name: value`` lines, or a YAML block between ``---`` lines.
    """
    lines = list(content)
    index = 0
    if lines and lines[0].strip() == "---":
        closing = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
        for index in range(closing + 1 if closing else 0):
            lines[index] = ""
        index = closing + 1 if closing else 0
    while index < len(lines) and OPTION_LINE.match(lines[index]):
        lines[index] = ""
        index += 1
    return lines
