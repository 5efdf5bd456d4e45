"""Doc comments read as their reader sees them: markup a rendered page hides, out.

Rust's ``///`` and Go's and JSDoc's doc comments are Markdown, and so are the other
comments of those languages in practice: ``[`Version`]`` shows as "Version", ```x``` as
"x", ``[the spec](crate::Spec)`` as "the spec", ``&mdash;`` as "—" (`read_markdown`);
a link's target that is not a URL (an intra-doc path) stays searchable in the chunk's
context (`link_targets`), a URL is one of its links, as rstlink70 reads reST's titles. A
Python docstring is reStructuredText: a directive (``.. note::``, ``.. versionadded::
2.0``) shows as its name, a word a reader searches, without the dots and colons; a code
block's directive is no word of the page (`read_rest`).

Only characters and words the page does not show are removed: every word left is a word
of the source lines, in their order, as anchors require (`doctor.range_holds`).

Left as written, measured (docs/BENCHMARKS.md § "Stop 54", docstr71): reST roles
(``:class:`~a.B```), double-backtick literals and field lists (``:param x:``). Each cut
moved urllib3's questions on near-ties, since a shorter chunk joins more of its
neighbours into a passage under `passage.PASSAGE_CAP`, one way on some and the other way
on others.
"""

from __future__ import annotations

import re

from credo.knowledge.chunk.model import decode_entities, find_urls, normalise, unique

# ``.. note::`` at a line's start (a docstring's rows are stripped): the name and what
# follows stay, the dots and colons go; a code block's directive and language go whole.
_DIRECTIVE = r"(?m)^\.\.[ \t]+(?:[A-Za-z][\w-]*:)?([A-Za-z][\w-]*)::([^\n]*)"
_CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "highlight"})

# Markdown: an inline link (its text shows), an intra-doc link to a name in backticks, a
# code span (its code shows). (Patterns compiled on first use, by `re`'s cache: most
# doc text holds none, and a compile at import costs every ingest.)
_MD_LINK = r"\[([^\[\]\n]+)\]\(([^()\s]+)\)"
_MD_CODE_LINK = r"\[`([^`\[\]\n]+)`\](?![(\[:])"
_MD_CODE = r"(?<!`)`([^`\n]+)`(?!`)"
_URL = r"[A-Za-z][\w+.-]*://"
# JSDoc's and TSDoc's inline link, ``{@link Target}``, ``{@link Target|its text}`` or
# ``{@link Target its text}`` (and ``@linkcode``, ``@linkplain``): the page shows the text,
# else the target (pino.d.ts: "see {@link https://...}", day-probe80). Group 1 the target,
# group 2 the text.
_JSDOC_LINK = r"\{@link(?:code|plain)?[ \t\n]+([^\s|{}]+)(?:[ \t\n]*\|[ \t\n]*|[ \t\n]+)?([^{}]*)\}"
# A code span, backticks and all (a run closes at the same run): its entities stay.
_MD_SPAN = r"(`+)[^\n]*?\1"


def _directive(match: re.Match[str]) -> str:
    name, rest = match.group(1), match.group(2)
    return "" if name in _CODE_DIRECTIVES else f"{name} {rest.lstrip()}".rstrip()


def _shown(match: re.Match[str]) -> str:
    """A link's text, with a space on a side where a word touches the markup: ``[a](b)c``
    is two words to `doctor.words` too, whose brackets part them (anchors hold)."""
    text, source = match.group(1), match.string
    before = " " if match.start() > 0 and source[match.start() - 1].isalnum() else ""
    after = " " if match.end() < len(source) and source[match.end()].isalnum() else ""
    return f"{before}{text}{after}"


def read_rest(raw: str) -> str:
    """`raw` reST as its page shows it: directives as their names."""
    return re.sub(_DIRECTIVE, _directive, raw) if ".. " in raw else raw


def read_markdown(raw: str) -> str:
    """`raw` Markdown as its page shows it: a link's text, a code span's code, an entity's
    character (semver's "Example:&ensp;`1.0.0-alpha`&ensp;&lt;&ensp;..."), a JSDoc
    ``{@link}``'s text or target."""
    if "&" in raw:
        raw = decoded_outside_spans(raw)
    if "{@link" in raw:  # (after the entities: "&eacute;{@link a}" shows "é a", two words)
        raw = re.sub(_JSDOC_LINK, _jsdoc_shown, raw)
    if "`" in raw:  # (code spans first: a link beside one then sees the glued word)
        raw = re.sub(_MD_CODE_LINK, _shown, raw)
        raw = re.sub(_MD_CODE, _code, raw)
    if "](" in raw:
        raw = re.sub(_MD_LINK, _shown, raw)
    return raw


def _jsdoc_shown(match: re.Match[str]) -> str:
    """A JSDoc link's text, else its target, parted from what it touches but a space or a
    bracket or stop (``{@link a}{@link b}``, ``{@link a}`b``` are two words; ``(see
    {@link URL})`` keeps its brackets tight)."""
    shown, source, start, end = (
        match.group(2).strip() or match.group(1),
        match.string,
        *match.span(),
    )
    before = "" if start == 0 or source[start - 1] in _OPENS else " "
    after = "" if end == len(source) or source[end] in _CLOSES else " "
    return f"{before}{shown}{after}"


_OPENS = frozenset(" \t\n([\"'")
_CLOSES = frozenset(" \t\n.,;:!?)]\"'")


def has_links(row: str) -> bool:
    """Whether `row` may hold a link whose target is no word of the page (`link_targets`)."""
    return "](" in row or "{@link" in row


def decoded_outside_spans(raw: str) -> str:
    """`raw` with its entities decoded, except inside a code span (it shows them)."""
    if "`" not in raw:
        return decode_entities(raw)
    pieces, position = [], 0
    for span in re.finditer(_MD_SPAN, raw):
        pieces += (decode_entities(raw[position : span.start()]), span.group())
        position = span.end()
    pieces.append(decode_entities(raw[position:]))
    return "".join(pieces)


def _code(match: re.Match[str]) -> str:
    """A code span's code, glued to a word it touches (```Reading`s`` shows "Readings"),
    as the page renders it and as `doctor.words` reads the line (its backticks dropped)."""
    return match.group(1)


def link_targets(raw: str) -> list[str]:
    """The targets of `raw`'s Markdown links and JSDoc ``{@link Target text}`` links that
    are no URL (``crate::Spec``): the text shows only the link's words, the context keeps
    the target's."""
    targets = []
    if "](" in raw:
        targets = [m.group(2) for m in re.finditer(_MD_LINK, raw)]
    if "{@link" in raw:
        targets += [m.group(1) for m in re.finditer(_JSDOC_LINK, raw) if m.group(2).strip()]
    return [target for target in targets if not re.match(_URL, target)]


def clean_rest(raw: str) -> tuple[str, tuple[str, ...]]:
    """A docstring piece's text and links (a `sentence.Cleaner`), read as reST."""
    return normalise(read_rest(raw)), unique(find_urls(raw))


def clean_markdown(raw: str) -> tuple[str, tuple[str, ...]]:
    """A doc comment piece's text and links (a `sentence.Cleaner`), read as Markdown."""
    return normalise(read_markdown(raw)), unique(find_urls(raw))
