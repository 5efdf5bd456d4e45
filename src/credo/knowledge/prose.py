"""A prompt's prose and its sentences (``credo.knowledge.capture``).

What a person types to a coding agent mixes prose with pasted code, logs, config, quoted
answers and documents. Capture reads only the prose: ``sentences`` gives the spans of the
sentences of the lines that read as prose (not inside a fence, a comment block, a pasted
document or a run of machine-shaped lines), split at sentence ends and bullets.
"""

from __future__ import annotations

import re

from credo.knowledge import paste

_LINE = re.compile(r"[^\n]*\n?")
# Where sentences split: a list bullet or heading mark, a sentence end (not after an
# abbreviation).
BULLET = re.compile(r"[ \t]*(?:[-*+•]\s+|\d+[.)]\s+|#{1,6}\s+|\[[ xX]\]\s+)")
ABBREV = re.compile(
    r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp|fig|no|mr|mrs|ms|dr|st|jr|sr)\.|(?<!')\b[A-Za-z]\.)$",
    re.IGNORECASE,
)
SENTENCE_END = re.compile(r"[.!?]+[\"')\]]*(?=\s+)")
# An e-mail style quote ("> I moved formatPrice into utils"), not a shell prompt (">>>").
_QUOTE_LINE = re.compile(r"^\s*>(?!>)")
_WORD = re.compile(r"(?<![\w:./-])[A-Za-z]{2,}(?![\w:./-])")
QUOTE_MIN_WORDS = 4
_TERMINAL = re.compile(r"[.!?:;]\W*$")
WRAP_CHARS = 60  # a line this long may have been wrapped by hand; a shorter one ended
# A line opened by a comment marker of C-like languages or Lisp/ini/asm ("// Never call Close
# twice", "; always check the property"): no one starts a line of prose with one.
_COMMENT_LINE = re.compile(r"^\s*(?://(?!/)|;)")
# A line wholly inside quotation marks ('"Never restart the workers. Always deploy from ..."'):
# someone else's words handed over, as a "> " quote is (4 lines in 4 files, all negative).
_QUOTED_LINE = re.compile(r"^\s*(?:[-*]\s+)?[\"“][^\"“”\n]{12,}[\"”][.,;]?\s*$")
# An env file's line ("DATABASE_URL=postgres://...", "export LOG_LEVEL=debug"): 51 lines of 16
# prompts over the dev files, none of prose; a "# always ..." comment between two is the file's.
_ENV_LINE = re.compile(r"^\s*(?:export\s+)?[A-Z][A-Z0-9_]*=\S*\s*$")
# A Makefile target ("test: schema") or a one-word key: above an indented recipe line it is
# code (21 such lines in 13 dev prompts, all negative), and a "# never ..." comment over it is.
_TARGET = re.compile(r"^[\w./${}()%-]+::?\s*$")
# With prerequisites ("build: deps") only above a tab: "Location: EU" is a label's shape too.
_TARGET_DEPS = re.compile(r"^[\w./${}()%-]+::?(?:\s+[\w./${}()%-]+)+\s*$")
# A shell command with a flag and nothing of a sentence ("kubectl get pods -n payments"):
# right above its output (no blank line between), it heads the paste.
_COMMAND = re.compile(
    r"^\s*(?:\$\s+)?[a-z][\w.-]*(?:\s+[\w./:@=,-]+)*?\s+--?[a-z][\w-]*(?:[\s=]+[\w./:@=,-]+)*\s*$"
)


def _prose_lines(text: str) -> list[tuple[int, int, bool]]:
    """(start, end, is_bullet) of each line that reads as prose, not pasted code or logs;
    (-1, -1, False) marks a break where pasted lines were."""
    rows: list[tuple[int, int, str]] = []  # start, end, "prose" | "pasted" | "blank" | "hash"
    in_fence = False
    # A pasted block without fences: "script" from a shebang to the next blank line; "doc"
    # after a line naming a document ("# CONTRIBUTING.md (excerpt)"), its bullets and blanks.
    block = ""
    for match in _LINE.finditer(text):
        start, end = match.span()
        if start == end:
            break
        line = text[start:end].rstrip("\r\n")
        if paste.FENCE.match(line):
            in_fence = not in_fence
            rows.append((start, start, "fence"))
            continue
        if not in_fence and block != "comment" and paste.COMMENT_OPEN.match(line):
            block = "comment"  # a C comment block: its " * Never call ..." lines are code
        if not in_fence and not rows and line.startswith("#!"):
            block = "script"
        elif not in_fence and (paste.DOC_HEADER.match(line) or _doc_intro(line)):
            block = "doc"
        elif (block == "script" and not line.strip()) or (
            block == "doc" and line.strip() and not BULLET.match(line)
        ):
            block = ""
        if in_fence or block:
            state = "pasted"
            if block == "comment" and "*/" in line:
                block = ""
        elif quoted_prose(line) or _QUOTED_LINE.match(line):
            state = "quoted"  # "> what the agent said": someone else's words, not a paste
        elif line.strip() and rows and rows[-1][2] == "pasted":
            state = "pasted"  # a line glued to a log or code line (no blank between) is part of it
        elif not line.strip():
            state = "blank"
        elif _pasted_line(line):
            state = "pasted"
        else:
            state = "hash" if paste.HASH_COMMENT.match(line) else "prose"
        rows.append((start, start + len(line), state))
    for index, (start, end, state) in enumerate(rows):
        if state == "prose" and _heads_output(text, rows, index):
            rows[index] = (start, end, "pasted")  # "kubectl get pods -n payments" above its output
    lines: list[tuple[int, int, bool]] = []
    for index, (start, end, state) in enumerate(rows):
        if state == "hash" and _next_to_paste(rows, index):
            state = "pasted"  # "# always pin versions" between Dockerfile lines is a comment
        if state in ("fence", "quoted"):
            state = "pasted"  # no sentence runs across it; the reply after a quote is prose
        if state in ("prose", "hash"):
            lines.append((start, end, BULLET.match(text, start, end) is not None))
        elif lines and lines[-1][0] >= 0:
            lines.append((-1, -1, False))  # a break: no sentence runs across pasted lines
    return lines


def after_paste(text: str, start: int) -> bool:
    """Does the sentence at ``start`` open a line right under pasted code or output (the last
    non-blank line before it a fence or a code or log line)? Its "this" or "it" then points
    at the paste ("this is in a legacy block, refactor ..."). A quoted line of prose does not
    count: the user's reply to the agent's words follows it."""
    head = text[:start]
    if head.rstrip(" \t")[-1:] not in ("\n", ""):
        return False  # the sentence starts mid-line, after another sentence
    lines = [line for line in head.splitlines() if line.strip()]
    if not lines:
        return False
    last = lines[-1]
    return bool(paste.FENCE.match(last)) or (not quoted_prose(last) and _pasted_line(last))


def _pasted_line(line: str) -> bool:
    return bool(
        _COMMENT_LINE.match(line)
        or paste.INDENTED_CODE.match(line)
        or paste.LOG_LINE.match(line)
        or paste.CODE_TAIL.search(line)
        or paste.ASSIGNMENT.match(line)
        or _ENV_LINE.match(line)
        or _machine_shaped(line)
        or _symbol_heavy(line)
    )


def quoted_prose(line: str) -> bool:
    """An e-mail style quote of prose ("> I moved formatPrice into utils so ..."). The reply
    after it is the user's own text, so it does not glue onto the quote as a log line would;
    a quoted tool line ("> Task :app:compileKotlin") still does."""
    quote = _QUOTE_LINE.match(line)
    return quote is not None and len(_WORD.findall(line, quote.end())) >= QUOTE_MIN_WORDS


def _doc_intro(line: str) -> bool:
    stripped = line.rstrip()
    return (
        stripped.endswith(":")
        and len(stripped) <= paste.DOC_INTRO_CHARS
        and paste.DOC_INTRO.search(stripped) is not None
    )


def _heads_output(text: str, rows: list[tuple[int, int, str]], index: int) -> bool:
    """Is row ``index`` a shell command or a Makefile target glued to the pasted line under
    it (no blank line between)?"""
    after = index + 1
    if after >= len(rows) or rows[after][2] != "pasted":
        return False
    start, end, _ = rows[index]
    line = text[start:end]
    if _COMMAND.match(line) or _TARGET.match(line):
        return True
    return text[end + 1 : end + 2] == "\t" and _TARGET_DEPS.match(line) is not None


def _next_to_paste(rows: list[tuple[int, int, str]], index: int) -> bool:
    for step in (-1, 1):
        at = index + step
        while 0 <= at < len(rows) and rows[at][2] == "blank":
            at += step
        if 0 <= at < len(rows) and rows[at][2] == "pasted":
            return True
    return False


def _machine_shaped(line: str) -> bool:
    """A log or config line by its shape: ``key=value`` pairs, a qualified exception name, a
    ``key: value`` line with a quoted, bracketed, block or one-token value."""
    return (
        len(paste.KEY_VALUE.findall(paste.INLINE_CODE.sub(" ", line))) >= 2  # in backticks: prose
        or paste.QUALIFIED_EXCEPTION.match(line) is not None
        or paste.CONFIG_LINE.match(line) is not None
    )


_LETTER = re.compile(r"[^\W\d_]|\s")


def _symbol_heavy(line: str) -> bool:
    """A line that is mostly punctuation and digits: a table row, a path list, a hash dump."""
    stripped = line.strip()
    if len(stripped) < 24:
        return False
    return len(_LETTER.findall(stripped)) / len(stripped) < 0.7


def sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans over the prose lines of ``text``."""
    units: list[tuple[int, int]] = []
    current: tuple[int, int] | None = None
    in_item = False  # the current unit opened with a bullet
    last_line = 0  # length of the previous prose line
    for start, end, bullet in _prose_lines(text):
        if start < 0:
            if current:
                units.append(current)
            current = None
            continue
        line = text[start:end]
        # A list item continues on an indented line, or after a line long enough to have been
        # wrapped by hand; a short item then a line at the margin ("- still need to tell
        # Dana" then "nothing else changed, keep going") is a new paragraph, however cased.
        soft_wrap = (
            current is not None
            and not bullet
            and not _TERMINAL.search(text[current[0] : current[1]])
            and line.lstrip()[:1].islower()
            and (not in_item or line[:1] in " \t" or last_line >= WRAP_CHARS)
        )
        last_line = end - start
        if soft_wrap and current is not None:
            current = (current[0], end)
        else:
            if current:
                units.append(current)
            current = (start, end)
            in_item = bullet
    if current:
        units.append(current)
    spans: list[tuple[int, int]] = []
    for start, end in units:
        bullet = BULLET.match(text, start, end)
        spans.extend(_split(text, bullet.end() if bullet else start, end))
    return spans


def _split(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Split one unit at sentence ends, keeping abbreviations and decimals whole."""
    out: list[tuple[int, int]] = []
    begin = start
    for match in SENTENCE_END.finditer(text, start, end):
        stop = match.end()
        head = text[begin:stop].rstrip()
        if ABBREV.search(head.rstrip("\"')]")):
            continue
        out.append((begin, stop))
        begin = stop
    out.append((begin, end))
    spans = []
    for a, b in out:
        piece = text[a:b]
        lead = len(piece) - len(piece.lstrip())
        trail = len(piece) - len(piece.rstrip())
        if b - trail > a + lead:
            spans.append((a + lead, b - trail))
    return spans
