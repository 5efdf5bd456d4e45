"""Markdown inline markup to plain belief text, collecting link targets on the way.

Kept: the words a reader sees, inline code with its backticks, link and image text,
autolink URLs, the names and titles an MDX component shows (``<ParamField body="timeout">``,
``<Step title="...">``). Removed: emphasis and strikethrough marks, link targets (they go to
`links`), image sources, HTML tags and comments, footnote references, backslash escapes,
GitHub alert markers. HTML character references (``&amp; &ensp; &mdash; &#39;``) become
their characters (`model.decode_entities`; `doctor.words` decodes the file's lines alike).
Text inside code spans is never touched. A MyST role (``{ref}`text```, ``{func}`~a.b```)
reads as its text, without the role name or backticks: its title when written
``title <target>``, else its content without a leading ``~`` or ``!``.

An image's source is the picture's file, not a text the passage cites, and a link that holds
images alone is a badge (``[![Build Status](.../badge.svg)](.../actions)``,
``<a href=...><img src=...></a>``): decoration, whose targets went to `links` and showed as
every README hit's sources, ~60 tokens each (probe90, logrus). Neither goes to `links`. A
heading's title (``images=False``) reads without its images: logrus' ``# Logrus <img ...>
[![Build Status](...)](...) [![Go Reference](...)](...)`` was the trail "Logrus Build Status
Build Status Go Reference" of every passage of its README.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from credo.knowledge.chunk.model import decode_entities, find_urls, normalise, unique
from credo.knowledge.chunk.paired import sub_paired

# Code spans and backslash escapes are swapped for numbered placeholders first, so no later
# rule rewrites their content; NUL cannot occur in the text (see `clean_inline`).
_MASK_START = re.compile(r"[`\\]")
_ESCAPABLE = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_PLACEHOLDER = re.compile(r"\x00(\d+)\x00")
# A MyST role name, as in {ref}`target`; and a role's "title <target>" content.
_ROLE_NAME = re.compile(r"[A-Za-z][\w:.+-]*")
_ROLE_TITLE = re.compile(r"(.*?\S)\s*<[^<>]*>\s*$", re.S)
# Any character some rule below reacts to; text without one is only whitespace-normalised.
_MARKUP = re.compile(r"[`\\<\[*_~&\x00]")

# A link target: <anything> or a URL with balanced parentheses, then an optional title.
_TARGET = (
    r"\(\s*(<[^<>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?\s*\)"
)
# Link text: brackets nest one level ("[a [b] c]"); written unrolled, which re runs fast.
_LABEL = r"\[([^\[\]]*(?:\[[^\[\]]*\][^\[\]]*)*)\]"
_IMAGE = re.compile("!" + _LABEL + _TARGET)
_LINK = re.compile(_LABEL + _TARGET)
_REFERENCE = re.compile(r"(!?)" + _LABEL + r"\[([^\[\]]*)\]")
_SHORTCUT = re.compile(r"(!?)\[([^\[\]]+)\](?![\[(:])")
# Reference images, read before the links around them (compiled on first use).
_REFERENCE_IMAGE = "!" + _LABEL + r"\[([^\[\]]*)\]"
_SHORTCUT_IMAGE = r"!\[([^\[\]]+)\]()(?![\[(:])"
# An image's text is held between these while links are read (a link holding images alone is
# a badge: `_badge`); neither can occur in the text read (`clean_inline` drops them).
_IMAGE_OPEN, _IMAGE_CLOSE = "\x01", "\x02"
_IMAGE_TEXT = re.compile("\x01([^\x01\x02]*)\x02")
# What a badge link's text holds besides blanks: images, marked, or HTML ``<img>`` tags.
# (This and the next are compiled on first use, by re's cache: few texts hold a badge.)
_BADGE_PART = r"\x01[^\x01\x02]*\x02|<img\b[^<>]*>"
# An HTML badge: a link around images alone (attrs' sponsors, a README's centred badge row).
_HTML_BADGE = r"<a\s[^<>]*>(?:\s*<img\b[^<>]*>)+\s*</a>"
_FOOTNOTE = re.compile(r"\[\^[^\[\]\s]+\]:?")
_ALERT = re.compile(r"\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]", re.I)
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*|[^<>\s@]+@[^<>\s@]+\.[^<>\s@]+)>")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
# Tags side by side are one gap ("1.8.0_51</li><li>3.14.1" is two values, not one word).
_HTML_TAG = re.compile(r"(?:</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>)+")
# An MDX component (a capitalised tag: Mintlify's <ParamField body="timeout">, <Step
# title="...">, Docusaurus' <TabItem label="...">) shows these attributes' values as text:
# a field's name, a step's, tab's or card's title. An HTML tag's title is a hover tooltip.
# (Compiled on first use, by re's cache: few pages hold a component.)
_COMPONENT = r"<[A-Z][A-Za-z0-9]*\s([^<>]*)>"
SHOWN_ATTRIBUTE = r"\b(?:title|label|caption|name|body|path|query|header)=\"([^\"]*)\""
_HTML_TARGET = re.compile(r"\bhref\s*=\s*[\"']([^\"']+)[\"']", re.I)
_BREAK_TAG = re.compile(r"<br\s*/?>", re.I)
# Underscores inside a word are no emphasis (CommonMark): "like__this__one" and "APP__DB__HOST"
# read as written, not "likethisone" (probe89: markdownlint's MD050 page).
_STRONG = re.compile(
    r"(\*\*)(?=\S)(.+?)(?<=\S)\*\*|(?<![\w\\])(__)(?=\S)(.+?)(?<=\S)__(?!\w)", re.S
)
# A strong inside a strong of the other kind: "**a __b__ c**" (a run of markers, a blank to
# fill in as "**Name: ______**", is none)
_INNER_STRONG = re.compile(
    r"(?<![*_])(\*\*)(?=[^\s*_])(.+?)(?<=[^\s*_])\*\*(?![*_])"
    r"|(?<![\w\\*_])(__)(?=[^\s*_])(.+?)(?<=[^\s*_])__(?![\w*_])",
    re.S,
)
# Where each may open and close (`paired.sub_paired`: a long paragraph's strong marks in
# near-linear time, review91; compiled on the first long paragraph).
_STRONG_OPEN = r"(?=\*\*\S)|(?<![\w\\])(?=__\S)"
_STRONG_CLOSE = {"*": r"(?<=\S)(?=\*\*)", "_": r"(?<=\S)(?=__(?!\w))"}
_INNER_OPEN = r"(?<![*_])(?=\*\*[^\s*_])|(?<![\w\\*_])(?=__[^\s*_])"
_INNER_CLOSE = {
    "*": r"(?<=[^\s*_])(?=\*\*(?![*_]))",
    "_": r"(?<=[^\s*_])(?=__(?![\w*_]))",
}
_EMPHASIS_STAR = re.compile(r"\*(?=[^\s*])([^*]+?)(?<=[^\s*])\*")
_EMPHASIS_UNDERSCORE = re.compile(r"(?<![\w\\])_(?=[^\s_])([^_]+?)(?<=[^\s_])_(?!\w)")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~", re.S)
_STRIKE_OPEN = r"(?=~~\S)"
_STRIKE_CLOSE = {"~": r"(?<=\S)(?=~~)"}
_HARD_BREAK = re.compile(r"\\\n")


def clean_inline(
    raw: str, refs: Mapping[str, str], *, images: bool = True
) -> tuple[str, tuple[str, ...]]:
    """Belief text and link targets of a piece of Markdown inline content.

    `refs` maps lower-cased reference labels to their targets, so ``[text][label]`` and
    ``[label]`` resolve like inline links. Without `images`, an image reads as nothing (a
    heading's badges are not its title); with them, as its text.
    """
    if not _MARKUP.search(raw):
        # Most paragraphs carry no markup at all: skip every rule (it keeps ingest fast).
        return normalise(raw), unique(find_urls(raw))
    raw = raw.replace("\x00", "")
    if "\x01" in raw or "\x02" in raw:
        # (`_IMAGE_OPEN`'s, `_IMAGE_CLOSE`'s: a space each, as the source's words are cut
        # there: "00\x020_" dropped whole read "000_", a word its line does not hold)
        raw = raw.replace("\x01", " ").replace("\x02", " ")
    masked, kept = _mask(raw)
    links: list[str] = []
    prose = _strip_prose(masked, refs, links, images)
    links.extend(find_urls(prose))
    text = _unmask(prose, kept) if kept else prose
    return normalise(text.replace("\x00", "")), unique(links)


def _mask(raw: str) -> tuple[str, list[str]]:
    """Swap code spans and backslash escapes for placeholders (CommonMark span rules)."""
    if "`" not in raw and "\\" not in raw:
        return raw, []
    if "\\\n" in raw:
        raw = _HARD_BREAK.sub(" ", raw)
    kept: list[str] = []
    out: list[str] = []
    position = 0
    while (match := _MASK_START.search(raw, position)) is not None:
        start = match.start()
        if raw[start] == "\\":
            end = start + 2 if raw[start + 1 : start + 2] in _ESCAPABLE else start + 1
            piece = raw[start + 1 : end] or "\\"
        else:
            end = _code_span_end(raw, start)
            piece = raw[start:end]
            if end < 0:  # no closing run: the backticks are literal text
                end = _run_end(raw, start)
                piece = raw[start:end]
            elif raw[start - 1 : start] == "}" and (role := _role_start(raw, position, start)) >= 0:
                out.append(raw[position:role])
                position, piece = start, _role_text(piece)
        out.append(raw[position:start])
        out.append(f"\x00{len(kept)}\x00")
        kept.append(piece)
        position = end
    out.append(raw[position:])
    return "".join(out), kept


def _role_start(raw: str, position: int, start: int) -> int:
    """Offset of the ``{name}`` that ends at `start` (a MyST role), or -1."""
    brace = raw.rfind("{", position, start)
    if brace < 0 or not _ROLE_NAME.fullmatch(raw, brace + 1, start - 1):
        return -1
    return brace


def _role_text(span: str) -> str:
    """What a MyST role shows: its title, or its target without ``~``/``!``."""
    content = span.strip("`").strip()
    titled = _ROLE_TITLE.match(content)
    return titled.group(1) if titled else content.lstrip("~!")


def _run_end(raw: str, start: int) -> int:
    end = start
    while end < len(raw) and raw[end] == "`":
        end += 1
    return end


def _code_span_end(raw: str, start: int) -> int:
    """End of the code span opened by the backtick run at `start`, or -1 if it never closes.

    The closing run must have exactly the opening run's length.
    """
    opener_end = _run_end(raw, start)
    run = raw[start:opener_end]
    found = raw.find(run, opener_end)
    while found >= 0:
        run_end = _run_end(raw, found)
        if run_end - found == len(run):
            return run_end
        found = raw.find(run, run_end)
    return -1


def _unmask(text: str, kept: list[str]) -> str:
    def restore(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return kept[index] if index < len(kept) else ""

    return _PLACEHOLDER.sub(restore, text)


def _strip_prose(text: str, refs: Mapping[str, str], links: list[str], images: bool) -> str:
    """Apply every removal rule to text outside code spans.

    Order matters: comments go first (a link inside one is not a link), then links (a
    target may be written ``<a b.md>``, which would read as a tag), then HTML.
    """
    if "<!--" in text:
        text = _HTML_COMMENT.sub(" ", text)
    if "[" in text:
        text = _strip_links(text, refs, links, images)
    if "<" in text:
        text = _strip_html(text, links)
    if "*" in text or "_" in text or "~" in text:
        text = _strip_emphasis(text)
    if "&" in text:
        text = decode_entities(text)
    return text


def _strip_html(text: str, links: list[str]) -> str:
    text = _AUTOLINK.sub(lambda m: _autolink(m, links), text)
    if "=" in text:
        if "<img" in text or "<IMG" in text:
            text = re.sub(_HTML_BADGE, " ", text, flags=re.I)  # (a badge's link is no citation)
        links.extend(_HTML_TARGET.findall(text))
    text = _BREAK_TAG.sub(" ", text)
    return _HTML_TAG.sub(_tag_gap, text)


def _tag_gap(match: re.Match[str]) -> str:
    """A removed tag, or run of tags, leaves a space only between two word characters
    ("2<sup>30</sup>", "<li>Linux</li><li>Windows</li>"), or the values an MDX component
    shows, spaced."""
    text, start, end = match.string, match.start(), match.end()
    tags = match.group(0)
    if '="' in tags and (shown := _component_text(tags)):
        return f" {shown} "
    joins_words = (
        start > 0 and end < len(text) and text[start - 1].isalnum() and text[end].isalnum()
    )
    return " " if joins_words else ""


def _component_text(tags: str) -> str:
    """The attribute values the MDX components among ``tags`` show, in order."""
    if not any(tag[:1].isupper() for tag in tags.split("<")):
        return ""  # (HTML tags only, most runs: no pattern compiled or run)
    return " ".join(
        value.strip()
        for component in re.finditer(_COMPONENT, tags)
        for value in re.findall(SHOWN_ATTRIBUTE, component.group(1))
        if value.strip()
    )


def _autolink(match: re.Match[str], links: list[str]) -> str:
    target = match.group(1)
    if "@" not in target or ":" in target:
        links.append(target)
    return target


def _strip_links(text: str, refs: Mapping[str, str], links: list[str], images: bool) -> str:
    if "[^" in text:
        text = _FOOTNOTE.sub("", text)
    if "[!" in text:
        text = _ALERT.sub(" ", text)
    # Images first, reference images too: in a badge, [![alt](image)](target) or
    # [![alt][image]][target], the image sits inside the link (an outer reference link read
    # first kept "![alt][image]" as its text, which read "![PyPI Version]pypi-v-image":
    # mkdocs', express' badge rows).
    marked = "![" in text
    if marked:
        text = _IMAGE.sub(_image, text)
        if refs:
            text = re.sub(_REFERENCE_IMAGE, lambda m: _reference_image(m, refs), text)
            text = re.sub(_SHORTCUT_IMAGE, lambda m: _reference_image(m, refs), text)
    if "](" in text:
        text = _LINK.sub(lambda m: _inline_link(m, links), text)
    if refs:
        text = _REFERENCE.sub(lambda m: _reference(m, refs, links), text)
        text = _SHORTCUT.sub(lambda m: _shortcut(m, refs, links), text)
    if marked:
        text = _IMAGE_TEXT.sub(r"\1" if images else " ", text)
    return text


def _image(match: re.Match[str]) -> str:
    """An image's text, marked (its source is no citation: the module's docstring)."""
    return f"{_IMAGE_OPEN}{match.group(1)}{_IMAGE_CLOSE}"


def _badge(text: str) -> bool:
    """Whether a link's `text` holds images alone (a badge: its target is decoration)."""
    if _IMAGE_OPEN not in text and "<img" not in text and "<IMG" not in text:
        return False
    return not re.sub(_BADGE_PART, "", text, flags=re.I).strip()


def _inline_link(match: re.Match[str], links: list[str]) -> str:
    target = match.group(2)
    if target.startswith("<") and target.endswith(">"):
        target = target[1:-1]
    if not _badge(match.group(1)):
        links.append(target)
    return match.group(1)


def _reference(match: re.Match[str], refs: Mapping[str, str], links: list[str]) -> str:
    """A reference link (``[text][label]``, ``[text][]``); an image's is read before
    (`_reference_image`), so one left here names no reference and stays as written."""
    label = normalise(match.group(3) or match.group(2)).lower()
    if match.group(1) or label not in refs:
        return match.group()
    if not _badge(match.group(2)):
        links.append(refs[label])
    return match.group(2)


def _shortcut(match: re.Match[str], refs: Mapping[str, str], links: list[str]) -> str:
    label = normalise(match.group(2)).lower()
    if match.group(1) or label not in refs:
        return match.group()
    if not _badge(match.group(2)):
        links.append(refs[label])
    return match.group(2)


def _reference_image(match: re.Match[str], refs: Mapping[str, str]) -> str:
    """A reference image (``![alt][label]``, ``![alt][]``, ``![alt]``), its text marked."""
    groups = match.groups()
    label = normalise(groups[-1] or groups[0]).lower()
    if label not in refs:
        return match.group()
    return f"{_IMAGE_OPEN}{groups[0]}{_IMAGE_CLOSE}"


def _strong_text(match: re.Match[str]) -> str:
    inner = match.group(2) if match.group(1) else match.group(4)
    # (and a strong of the other kind inside it: "**a __b__ c**", "__a **b** c__", which one
    # pass left as "a __b__ c" and "a *b* c": review90)
    other = "__" if match.group(1) else "**"
    if other not in inner:
        return inner
    return sub_paired(_INNER_STRONG, _INNER_OPEN, _INNER_CLOSE, _inner_strong, inner)


def _inner_strong(match: re.Match[str]) -> str:
    return match.group(2) if match.group(1) else match.group(4)


def _strip_emphasis(text: str) -> str:
    if "**" in text or "__" in text:
        text = sub_paired(_STRONG, _STRONG_OPEN, _STRONG_CLOSE, _strong_text, text)
    if "*" in text:
        text = _EMPHASIS_STAR.sub(r"\1", text)
    if "_" in text:
        text = _EMPHASIS_UNDERSCORE.sub(r"\1", text)
    if "~~" in text:
        text = sub_paired(_STRIKE, _STRIKE_OPEN, _STRIKE_CLOSE, r"\1", text)
    return text
