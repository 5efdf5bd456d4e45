"""The text a reader sees in a doctree node, for `split_rst`'s walker.

Emphasis marks go, inline literals keep single backticks (as Markdown's code spans do),
roles render as their text (a role's explicit target, `rst_import.TARGET`, is collected
with its title for the chunk's context), footnote and citation references go,
``|substitution|`` references stay as their name. A reference's target goes with its
anchor text to the chunk's links (`rst_links`). docutils' null-escaped text loses its
backslashes; an escaped space (``:class:`Flask`\\ s``) joins what surrounds it, but
between two words stays a space so that both words remain words of the source.
"""

from __future__ import annotations

import re
from typing import Any

from credo.knowledge.chunk.model import normalise
from credo.knowledge.chunk.rst_import import TARGET
from credo.knowledge.chunk.rst_links import Links

# The marker of an escaped space until the text is joined (`split_rst` turns any \x01 of
# the source into a space, so that only this one is left).
ESCAPED_SPACE = "\x01"
_JOINED_WORDS = re.compile(r"(?<=\w)\x01+(?=\w)")
_INLINE_SKIP = frozenset(
    "footnote_reference citation_reference image raw system_message generated".split()
)


def render(
    node: Any, links: Links, targets: list[tuple[str, str]]
) -> tuple[str, list[tuple[str, str]]]:
    """The text a reader sees in `node`, and its (link target, anchor text) pairs; its
    roles' explicit targets (with their titles) are added to `targets`."""
    pieces: list[str] = []
    found: list[tuple[str, str]] = []
    _inline(node, links, pieces, found, targets)
    text = "".join(pieces)
    if ESCAPED_SPACE in text:
        text = _JOINED_WORDS.sub(" ", text).replace(ESCAPED_SPACE, "")
    return normalise(text), found


def _inline(
    node: Any,
    links: Links,
    pieces: list[str],
    found: list[tuple[str, str]],
    targets: list[tuple[str, str]],
) -> None:
    for child in node.children:
        tag = child.tagname
        if tag == "#text":
            text = str(child)
            pieces.append(unescape(text) if "\x00" in text else text)  # (most have none)
        elif tag in _INLINE_SKIP:
            continue
        elif tag == "literal":
            pieces.extend(("`", unescape(child.astext()), "`"))
        else:
            if tag == "reference":
                target = links.uri(child)
                if target:
                    found.append((target, normalise(child.astext())))
            elif tag == "inline" and TARGET in child.attributes:
                targets.append((child[TARGET], normalise(unescape(child.astext()))))
            _inline(child, links, pieces, found, targets)


def unescape(text: str) -> str:
    """docutils' null-escaped text with backslashes removed and escaped whitespace (which
    reStructuredText drops) marked, for `render` to resolve."""
    if "\x00" not in text:
        return text
    text = text.replace("\x00 ", ESCAPED_SPACE).replace("\x00\n", ESCAPED_SPACE)
    return text.replace("\x00", "")


def options(group: Any) -> tuple[str, list[tuple[str, str]]]:
    """An option group as written: "-o FILE, --output=FILE"."""
    written: list[str] = []
    for option in group.children:
        # An option argument's text starts with its delimiter ("=FILE", " FILE").
        written.append("".join(unescape(child.astext()) for child in option.children))
    return normalise(", ".join(written)), []
