"""The one token estimator, charged in the currency that is rendered.

A belief's line in the memory block is ``[id] content`` (``[id locked]`` for a locked one)
with the content escaped, at 4 characters per token (the estimate the LoCoMo reference
figures use). What the line says about the belief's standing is inside the brackets and
charged with it (``[b2; replaces b1]``, ``[b3; conflicts with b4]``, ``[b1; superseded by
b2]``: ``marks``), and so is the place of a passage ingest read from a document: its line
range, `` (L40-L58)``, under the block's lines naming its file and section
(retrieval/place.py), or its whole trail, `` (at docs/auth.md › OAuth2 › Scopes
L40-L58)``, on a line that stands alone. The other document anchors are metadata and cost
nothing (seed: doc-linker spec memo), but for a capture's transcript: its long path is
shown short and charged, when the budget has room for it (``capture_hint``). A locked
belief is charged for its line alone (``belief_tokens``); the pack's lines, with the file
and section lines among them, are charged as one text (``place.Charges`` over
``line_chars``), so the estimate is rounded up once per pack, not once per line.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from credo.types import DocAnchor

CHARS_PER_TOKEN = 4

# One translate() pass: a space for anything that breaks a line (a stored text cannot start
# a line of its own, so it cannot forge an entry, a file or section line, or the end of the
# block). Quotes stay as they are: belief text is element content, never an attribute
# value, so a quote cannot end anything there, and "&#x27;" would charge 6 characters.
_BREAKS: dict[int, str] = {code: " " for code in (*range(32), 0x7F, 0x85, 0x2028, 0x2029)}

# What is neutralised of the markup: a "<" that could close the block (``</credo-memory>``,
# ``< / credo-memory``) or any tag around it (the host's wrappers: ``</system-reminder>``),
# open a tag like it (a name with a hyphen, as custom wrappers have: ``<credo-memory``,
# ``<system-reminder``; or any ``<credo...``), or end a text (a kept line's last character,
# ``escape_content``: the next line might finish it). It becomes ``&lt;``. White space and
# invisible format characters (zero-width, bidi marks) between are skipped, as a reader
# would. Code keeps its ``->``, ``&&``, ``a < b``, ``List<String>``: a ``>`` or an ``&``
# alone closes nothing, and no entity is written but this one.
TAG_OPENER = "&lt;"
_TAG_EXTRA = len(TAG_OPENER) - 1


@cache
def _tag_start() -> re.Pattern[str]:
    """Compiled at the first text holding a "<" (not at import: most texts have none).
    What may stand between the "<" and the tag is anything but a word character or an
    angle bracket, not only white space: an invisible character (a zero-width space, a soft
    hyphen, a combining mark: ``<`` U+200B ``/credo-memory>``) may be dropped by whatever reads
    the block, and a reader then sees the tag (day-review73). Such a character inside the
    name too: a name is anything but white space, "/" or an angle bracket up to its hyphen,
    and "credo" may hold anything but a word character or white space between its letters."""
    inside = r"[^\w\s<>]*"
    credo = inside.join("credo")
    return re.compile(
        rf"<(?!{_COMMENT % credo})(?=[^\w<>]*(?:$|/|[A-Za-z][^\s<>/]*-|{credo}))", re.IGNORECASE
    )


# An HTML comment's opener opens no tag: ``<!-- markdownlint-disable-line -->``, ``<!--
# prettier-ignore -->`` are what a Markdown project's docs teach, and its code matches them
# (``/<!--\s*markdownlint-/``): the block showed ``&lt;!-- markdownlint-disable-file -->``, a
# text to copy that no longer works (probe89). Unless a closing tag's "/", credo's name or
# the end follows it, as they would a plain "<".
_COMMENT = r"!--(?![^\w<>]*(?:$|/|%s))"


def _plain(text: str) -> bool:
    """True only when ``escape`` leaves ``text`` as it is: every character it replaces is
    a control or line separator (not printable), and it holds no ``<``. (False for some
    text that needs no escape, e.g. with a no-break space or ``a < b``:
    the callers then escape exactly.) Cheaper than a regular expression's search, and
    nothing to compile at import."""
    return text.isprintable() and "<" not in text


def escape(text: str) -> str:
    """Escape text for the memory block: no stored text can close or open the block's tag,
    or one like it (``_tag_start``: that ``<`` becomes ``&lt;``), or start a line of its own
    (line breaks and other control characters become spaces), so it can never forge an
    entry or the end of the block. Everything else reads as written (``def f(x) -> None``)."""
    if _plain(text):
        return text  # the common case, and the hot one: costs are computed per candidate
    out = text.translate(_BREAKS)
    return _tag_start().sub(TAG_OPENER, out) if "<" in out else out


def escaped_len(text: str) -> int:
    """``len(escape(text))`` without building the escaped text (a passage of a document
    holds line breaks, so it is escaped, and its line is counted on every query)."""
    if "<" not in text:
        return len(text)
    return len(text) + _TAG_EXTRA * len(_tag_start().findall(text.translate(_BREAKS)))


# A configuration passage (YAML, TOML, JSON, INI key blocks: knowledge/chunk/config.py), a
# Dockerfile's or a Makefile's (chunk/config_lines.py) and a code passage (chunk/code.py: a
# definition's signature, then its docstring's paragraphs and comments, one a line) keep their
# lines in the block: ``jobs:`` over ``  test:`` over ``    runs-on: ...``, or a recipe's
# commands under its target, on one line read as noise. Each line after the first is a line of
# its own that starts with the gutter, so the block's own lines stay the only ones that start
# otherwise: no passage line can pass for an entry (``[b1 locked]``), a file or section line,
# or the closing tag. The gutter is charged: `` `` was 1 character per line break, ``\n| `` is 3.
# Which passages keep them is read from the text alone: the charge is computed from a belief's
# (id, text, marks, place) in several retrieval modules, none of which knows the file's kind.
GUTTER = "| "
_KEPT_BREAK = "\n" + GUTTER
_KEPT_EXTRA = len(_KEPT_BREAK) - 1

# A Dockerfile's instructions, in capitals as Dockerfiles write them (prose's "Run the tests"
# is not one), and a Makefile's directives: lines of a key block too.
_DOCKERFILE = (
    "FROM|RUN|CMD|LABEL|EXPOSE|ENV|ADD|COPY|ENTRYPOINT|VOLUME|USER|WORKDIR|ARG|ONBUILD"
    "|STOPSIGNAL|HEALTHCHECK|SHELL|MAINTAINER"
)
_MAKEFILE = "ifdef|ifndef|ifeq|ifneq|else|endif|define|endef|-?include|sinclude|override|vpath"
# go.mod's directives, each with the shape of what follows it there (prose starts with "go"
# and "use" too): ``module x``, ``go 1.13``, ``require (``, ``require x v1``, ``replace x =>``.
_LINE_END = r"(?=[ \t]*+(?://|\n|$))"
# (and go.work's ``use ./dir``, Go 1.24's ``tool golang.org/x/...``, Go 1.25's ``ignore
# ./dir``, a pre-release ``go 1.21rc1``: without them such a file showed as one run-on line)
_GOMOD = (
    rf"module[ \t]++[\w.~/-]++{_LINE_END}"
    rf"|go[ \t]++1\.\d++(?:\.\d++|(?:rc|beta)\d++)?{_LINE_END}"
    r"|toolchain[ \t]++go1\.|(?:require|exclude)[ \t]++[\w.~/-]++[ \t]++v\d"
    r"|replace[ \t]++[\w.~/-]++(?:[ \t]++v\S++)?[ \t]++=>|retract[ \t]++\[?v\d"
    r"|godebug[ \t]++\w++="
    rf"|(?:use|ignore)[ \t]++(?:\.\.?+(?:/[\w.~/-]*+)?|/[\w.~/-]++){_LINE_END}"
    rf"|tool[ \t]++[\w-]++\.[\w.~-]*+/[\w.~/-]++{_LINE_END}"
    rf"|(?:require|replace|exclude|retract|godebug|use|tool|ignore)[ \t]*+\({_LINE_END}"
)


@cache
def _key_block() -> re.Pattern[str]:
    """Two lines or more, each a key block's: indented (a nested key, a list's or a long
    value's next line, a recipe's command), a table header, a bracket, a comment or a list
    item, a key then ``:`` or ``=`` (``name: test``, ``line-length = 88``, ``"strict": true``,
    a Makefile's ``$(CSS): $(SCSS)``), a Dockerfile instruction (``FROM python:3.12``), a
    Makefile directive (``ifdef HAS_UV``) or a go.mod one (``go 1.13``). A Markdown passage's
    title or sentence is none of these, nor an API list's ``CCompiler.warn(msg): Write a
    warning``."""
    name = r"(?:\$[({][^\s)}]*+[)}]|[\w.$@*/%-])[\w.$@*/%-]*+"  # ``$(CSS)``, never ``f(x)``
    key = rf"[\"']?{name}[\"']?[ \t]*+[:=]"
    # (a lookahead first: a prose line fails it in a few steps, not in each word's branch)
    docker = rf"(?=[A-Z]{{2}})(?:{_DOCKERFILE})[ \t]"
    make = rf"(?=[a-z-]{{4}})(?:{_MAKEFILE})\b"
    gomod = rf"(?=[a-z]{{2}})(?:{_GOMOD})"
    line = rf"(?:[ \t]|[\[\]{{}}#;]|//|-[ \t]|{key}|{docker}|{make}|{gomod})[^\n]*"
    return re.compile(rf"{line}(?:\n{line})+")


@cache
def _code_head() -> re.Pattern[str]:
    """A code passage's first line: a definition's signature as the code reader writes it
    (``def f(x) -> None``, ``class Retry:``, ``async function get(url)``, ``export const
    x = ...``) or a module's assignment (``__all__ = [...]``, ``TIMEOUT: float = 2.0``). Its
    other lines are the docstring's paragraphs and the comments, one a line: flattened,
    ``:param timeout: ...`` and a comment ran on after the summary as one sentence."""
    py_def = r"(?:async[ \t]+)?def[ \t]+\w+[ \t]*\(|class[ \t]+\w+[ \t]*[(:]"
    js_def = (
        r"(?:export[ \t]+(?:default[ \t]+)?)?(?:async[ \t]+)?function\b\*?[ \t]*[\w$]*[ \t]*\("
        r"|(?:export[ \t]+)?(?:const|let|var)[ \t]+[\w$]+[ \t]*(?::[^=\n]*)?=(?!=)"
        r"|(?:export[ \t]+(?:default[ \t]+)?)?class[ \t]+[\w$]+[ \t]*(?:\{|extends\b)"
    )
    annotation = r"[\w.\[\]\"']++(?:[ \t]*+[,|][ \t]*+[\w.\[\]\"']++)*+"  # no sentence's words
    assign = rf"[A-Za-z_]\w*+(?:[ \t]*+:[ \t]*+{annotation})?[ \t]*+=(?!=)"
    return re.compile(rf"{py_def}|{js_def}|{assign}")  # (the rest of the line: not read)


# The words a definition starts with (``_code_head``); an assignment has its "=" on the
# first line. Checked before the pattern: most passages are prose, and a string method's
# "no" costs a fraction of a regular expression's (the charge runs on every candidate).
_HEAD_WORDS = ("def", "class", "async", "export", "function", "const", "let", "var")


def keeps_lines(text: str) -> bool:
    """Whether the block shows ``text`` (a belief's content) on its own lines: a key block,
    or a code passage (``_code_head``)."""
    first = text.find("\n")
    if first < 0:
        return False
    if (text.startswith(_HEAD_WORDS) or text.find("=", 0, first) >= 0) and _code_head().match(text):
        return True
    return _key_block().fullmatch(text) is not None


def escape_content(text: str) -> str:
    """A belief's content as the block shows it: ``escape``, but a key block's line breaks
    start lines of their own, behind the ``GUTTER`` (``keeps_lines``)."""
    if not keeps_lines(text):
        return escape(text)
    return _KEPT_BREAK.join(map(_escape_kept, text.split("\n")))


# A kept line keeps its tabs: a Makefile's recipe starts with one, and a tab cannot start a
# line of the block. (A tab is counted as the space ``escape`` writes: the length is the same.)
_KEPT_LINE: dict[int, str] = {code: " " for code in _BREAKS if code != ord("\t")}


def _escape_kept(line: str) -> str:
    """``escape`` for one line of a passage that keeps its lines, its tabs as written."""
    if _plain(line):
        return line
    out = line.translate(_KEPT_LINE)
    return _tag_start().sub(TAG_OPENER, out) if "<" in out else out


def content_len(text: str) -> int:
    """``len(escape_content(text))``, counted."""
    if not keeps_lines(text):
        return escaped_len(text)
    if "<" not in text:
        return len(text) + _KEPT_EXTRA * text.count("\n")
    lines = text.split("\n")
    return sum(map(escaped_len, lines)) + len(_KEPT_BREAK) * (len(lines) - 1)


MARK_IDS = 3  # ids named in one mark; the rest are counted ("+2 more")


def marks(
    replaces: Sequence[str] = (),
    conflicts: Sequence[str] = (),
    superseded_by: Sequence[str] = (),
    scope: str = "",
) -> str:
    """What the line says about a belief's standing (SYSTEM.md § Beliefs change), to go
    inside its brackets: ``; replaces b1``, ``; conflicts with b4, b5``, ``; superseded by
    b2``; first, where it comes from when not the project's own store (``; global``).
    Ids hold no spaces (identity.check_id), so no id can forge a clause."""
    text = "; " + scope if scope else ""
    if replaces:
        text += "; replaces " + listed(replaces, MARK_IDS)
    if conflicts:
        text += "; conflicts with " + listed(conflicts, MARK_IDS)
    if superseded_by:
        text += "; superseded by " + listed(superseded_by, MARK_IDS)
    return text


def listed(texts: Sequence[str], most: int) -> str:
    """The first ``most`` of ``texts``, escaped and comma-separated, then how many more."""
    if len(texts) == 1:
        return escape(texts[0])
    shown = ", ".join(escape(t) for t in texts[:most])
    more = len(texts) - most
    return f"{shown}, +{more} more" if more > 0 else shown


# How many characters of the transcript's name (Claude Code's session id) a hint keeps:
# enough to tell a project's sessions apart, and to find the file.
HINT_NAME_CHARS = 8


def capture_hint(anchor: DocAnchor) -> str:
    """What the block and the search text show of a capture's anchor, the transcript the
    user said it in (credo.agent.capture: a ``manual`` anchor to a ``.jsonl`` file, its
    position ``turn N``): ``transcript 3f2a9c1e turn 3``, not a path of a hundred
    characters under ``~/.claude/projects/``; "" for any other anchor. The JSON and
    ``credo show`` keep the whole URI."""
    name = anchor.doc_uri.rpartition("/")[2]
    turn = anchor.position_hint
    if anchor.anchor_type != "manual" or not name.endswith(".jsonl") or name == ".jsonl":
        return ""
    if turn is not None and not (turn.startswith("turn ") and turn[5:].isdigit()):
        return ""  # (a manual anchor someone gave a .jsonl file, with a place of its own)
    hint = "transcript " + name.removesuffix(".jsonl")[:HINT_NAME_CHARS]
    return f"{hint} {turn}" if turn else hint


def hint_tokens(hint: str) -> int:
    """What showing ``hint`` adds to a line, `` (from HINT)``, at most (the line's own
    estimate is rounded up apart)."""
    return estimate(f" (from {escape(hint)})")


def entry_text(
    belief_id: str, content: str, locked: bool, marked: str = "", trail: str = "", lines: str = ""
) -> str:
    """A belief's line in the memory block, as charged (its other anchors are free
    metadata); ``marked`` is its ``marks``, ``trail`` its place in a document, shown whole
    (`` (at TRAIL)``), or ``lines`` its line range alone (`` (L40-L58)``), for a passage
    the block shows under its file and section lines (retrieval/place.py)."""
    lock = " locked" if locked else ""
    place = f" (at {escape(trail)})" if trail else f" ({escape(lines)})" if lines else ""
    return f"[{escape(belief_id)}{lock}{marked}] {escape_content(content)}{place}\n"


def estimate(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


def line_chars(
    belief_id: str, content: str, locked: bool, marked: str = "", trail: str = "", lines: str = ""
) -> int:
    """``len(entry_text(...))``; computed per candidate on every retrieval, so it counts
    the line's characters without building it: ``[`` id ``] `` content newline, plus
    `` locked`` for a locked belief, plus the marks (escaped already), plus `` (at ``
    trail ``)`` for one with a trail, or `` (`` lines ``)``, each text as escaped."""
    if (
        _plain(belief_id)
        and _plain(content)
        and (not trail or _plain(trail))  # (most lines have neither)
        and (not lines or _plain(lines))
    ):  # (the common case: no text changes length)
        place = len(trail) + 6 if trail else len(lines) + 3 if lines else 0
        return len(belief_id) + len(content) + len(marked) + (11 if locked else 4) + place
    place = escaped_len(trail) + 6 if trail else escaped_len(lines) + 3 if lines else 0
    return (
        escaped_len(belief_id) + content_len(content) + len(marked) + (11 if locked else 4) + place
    )


def belief_tokens(
    belief_id: str, content: str, locked: bool, marked: str = "", trail: str = "", lines: str = ""
) -> int:
    """``estimate(entry_text(...))``: a line charged on its own (a locked belief's)."""
    return -(-line_chars(belief_id, content, locked, marked, trail, lines) // CHARS_PER_TOKEN)
