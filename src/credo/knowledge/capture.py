"""Deterministic capture: which sentences of a user's prompt state a durable rule, preference
or correction worth keeping as a belief (issue #16; SYSTEM.md § "The agent's day").

No model, stdlib ``re`` only, the same answer every time. The method follows aelfrice, the
reference system: regex *signal classes* (``credo.knowledge.signals``) and *guards* that veto.

1. The prompt is capped (``SCAN_CHARS``) and redacted (``credo.knowledge.redact``) first, so a
   statement is always a verbatim piece of the redacted prompt and never carries a secret.
2. Pasted material is dropped line by line: fenced and indented code, quoted lines
   (``> ...``), stack traces, shell sessions, log lines, diffs and lines shaped like code.
3. What is left is split into sentences (markdown bullets and headings, line breaks, ``.!?``
   with abbreviations kept whole; a soft-wrapped line continues its sentence).
4. A sentence counts when at least two independent signal classes fire, one of them saying
   what to do or how things are (``directive``, ``preference`` or ``assertion``), and no
   guard vetoes it (a question, a hypothetical, an instruction for this turn only, a report
   about the code like "the build always fails"). A correction needs its marker ("No,",
   "Actually", "that's wrong") plus a durable, preference or assertion signal, or two others.
   A bare "No." (or a short correction with no content of its own: "No, that's the old
   hostname.") lends its correction to the sentence after it (both are kept as the text).
   Some constructions carry two signals in their grammar and count alone: the *frames* of
   ``credo.knowledge.frames`` (a first-person preference, a quantified law "every PR needs",
   "we don't <verb>", "from now on ...", "remember that <present-tense fact>").

Precision comes first (target >= 0.95 on ``bench/capture.py``'s labelled set): a missed
statement can be said again, a wrong one becomes a belief the agent is shown in every session.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from credo.knowledge import frames as fr
from credo.knowledge import signals as sig
from credo.knowledge.acknowledge import is_acknowledgement
from credo.knowledge.redact import redact

__all__ = ["SCAN_CHARS", "Statement", "extract_statements", "is_acknowledgement"]

Kind = Literal["correction", "preference", "rule"]
Origin = Literal["user_corrected", "user_stated"]

SCAN_CHARS = 20_000  # a longer prompt is a paste; its head is where a person states rules
MAX_SENTENCE_CHARS = 600  # a longer "sentence" is prose pasted from elsewhere, not a rule
LEND_MAX_WORDS = 12  # "No, that's the old hostname.": short enough to be only the correction

CORE = frozenset({"directive", "preference", "assertion", "habitual"})
CORRECTION_PARTNERS = frozenset({"durable", "preference", "assertion", "contrast"})
# "everywhere", "anything": general, but as common in one-off tasks ("fix it everywhere"), so
# they back a preference, an assertion or a correction, never a bare directive.
WEAK = "generic"


@dataclass(frozen=True)
class Statement:
    """One captured statement.

    Attributes:
        text: the sentence(s), verbatim from the redacted prompt, stripped.
        kind: ``correction``, ``preference`` or ``rule``.
        origin: ``user_corrected`` for a correction, else ``user_stated``.
        negated: lower-case terms the statement rules out ("npm" in "never use npm").
        asserted: lower-case terms it prescribes ("pnpm"); both feed supersession matching.
        signals: the signal classes that fired, sorted.
    """

    text: str
    kind: Kind
    origin: Origin
    negated: tuple[str, ...]
    asserted: tuple[str, ...]
    signals: tuple[str, ...]


def extract_statements(prompt: str) -> list[Statement]:
    """The durable rules, preferences and corrections stated in ``prompt``, in prompt order."""
    text = redact(prompt[:SCAN_CHARS])
    spans = _sentences(text)
    out: list[Statement] = []
    carry: int | None = None  # start of a bare "No." that lends its correction onward
    for start, end in spans:
        sentence = text[start:end]
        if sig.BARE_CORRECTION.match(sentence):
            carry = start
            continue
        statement, lends = _classify(
            text[carry if carry is not None else start : end], sentence, carried=carry is not None
        )
        carry = start if lends else None
        if statement is not None:
            out.append(statement)
    return out


# --- sentences ---------------------------------------------------------------------------

_LINE = re.compile(r"[^\n]*\n?")
_TERMINAL = re.compile(r"[.!?:;]\W*$")


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
        if sig.FENCE.match(line):
            in_fence = not in_fence
            rows.append((start, start, "pasted"))
            continue
        if not in_fence and not rows and line.startswith("#!"):
            block = "script"
        elif not in_fence and sig.DOC_HEADER.match(line):
            block = "doc"
        elif (block == "script" and not line.strip()) or (
            block == "doc" and line.strip() and not sig.BULLET.match(line)
        ):
            block = ""
        if in_fence or block:
            state = "pasted"
        elif not line.strip():
            state = "blank"
        elif (
            sig.INDENTED_CODE.match(line)
            or sig.LOG_LINE.match(line)
            or sig.CODE_TAIL.search(line)
            or _symbol_heavy(line)
        ):
            state = "pasted"
        else:
            state = "hash" if sig.HASH_COMMENT.match(line) else "prose"
        rows.append((start, start + len(line), state))
    lines: list[tuple[int, int, bool]] = []
    for index, (start, end, state) in enumerate(rows):
        if state == "hash" and _next_to_paste(rows, index):
            state = "pasted"  # "# always pin versions" between Dockerfile lines is a comment
        if state in ("prose", "hash"):
            lines.append((start, end, sig.BULLET.match(text, start, end) is not None))
        elif lines and lines[-1][0] >= 0:
            lines.append((-1, -1, False))  # a break: no sentence runs across pasted lines
    return lines


def _next_to_paste(rows: list[tuple[int, int, str]], index: int) -> bool:
    for step in (-1, 1):
        at = index + step
        while 0 <= at < len(rows) and rows[at][2] == "blank":
            at += step
        if 0 <= at < len(rows) and rows[at][2] == "pasted":
            return True
    return False


def _symbol_heavy(line: str) -> bool:
    """A line that is mostly punctuation and digits: a table row, a path list, a hash dump."""
    stripped = line.strip()
    if len(stripped) < 24:
        return False
    letters = sum(ch.isalpha() or ch.isspace() for ch in stripped)
    return letters / len(stripped) < 0.7


def _sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans over the prose lines of ``text``."""
    units: list[tuple[int, int]] = []
    current: tuple[int, int] | None = None
    for start, end, bullet in _prose_lines(text):
        if start < 0:
            if current:
                units.append(current)
            current = None
            continue
        soft_wrap = (
            current is not None
            and not bullet
            and not _TERMINAL.search(text[current[0] : current[1]])
            and text[start:end].lstrip()[:1].islower()
        )
        if soft_wrap and current is not None:
            current = (current[0], end)
        else:
            if current:
                units.append(current)
            current = (start, end)
    if current:
        units.append(current)
    spans: list[tuple[int, int]] = []
    for start, end in units:
        bullet = sig.BULLET.match(text, start, end)
        spans.extend(_split(text, bullet.end() if bullet else start, end))
    return spans


def _split(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Split one unit at sentence ends, keeping abbreviations and decimals whole."""
    out: list[tuple[int, int]] = []
    begin = start
    for match in sig.SENTENCE_END.finditer(text, start, end):
        stop = match.end()
        head = text[begin:stop].rstrip()
        if sig.ABBREV.search(head.rstrip("\"')]")):
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


# --- classification ----------------------------------------------------------------------

_LEAD_IN = re.compile(
    r"""^(?:[\W_]+|(?:no|nope|nah|actually|ok|okay|also|and|but|so|btw|fyi|note|important|
    heads\s+up|reminder|pro\s+tip|one\s+more\s+thing|oh|hey|well|again|please\s+note|
    tbh|honestly|fwiw|imo|imho|to\s+be\s+honest|
    just\s+so\s+you\s+know|for\s+the\s+record|as\s+a\s+reminder|wait|hm+|um+|uh+|
    from\s+now\s+on|going\s+forward|moving\s+forward|from\s+here\s+on(?:\s+out)?|
    in\s+(?:the\s+)?future|in\s+general|generally|by\s+default|as\s+a\s+rule|
    (?:in|for|across)\s+(?:this|our|the)\s+(?:repo|repository|project|codebase|team|monorepo)|
    (?:that'?s|that\s+is|this\s+is|you'?re|you\s+are|it'?s)\s+(?:wrong|incorrect|not\s+right))
    (?:[\s,:;.!—–-]+|$))+""",
    re.IGNORECASE | re.VERBOSE,
)
_CONDITIONAL_RULE = re.compile(
    r"^(?:if|when|whenever|before|after|once)\b[^,?]{1,100},\s*(?:always|never|make\s+sure|"
    r"don'?t|do\s+not|please|remember)\b",
    re.IGNORECASE,
)
_MODAL = re.compile(r"\b(?:would|could|might)\b", re.IGNORECASE)
_NOT_ALWAYS = re.compile(r"\b(?:not|n't)\s+(?:always|ever)\b|\bnot\s+never\b", re.IGNORECASE)
_WS = re.compile(r"\s+")
# "that's not the function I meant" denies, it names no alternative: not a contrast.
_COPULA_NOT = re.compile(
    r"\b(?:that'?s|it'?s|this\s+is|that\s+is|it\s+is|rather|prefer)\s+not\b", re.IGNORECASE
)
_MEMO = re.compile(r"(?:remember|keep\s+in\s+mind|note|never\s+forget)\b", re.IGNORECASE)


def _clean(sentence: str) -> str:
    """The sentence as the signals read it: quoted text out (someone else's words), inline
    code reduced to its content, emphasis marks gone, one space between words."""
    clean = sig.INLINE_QUOTED.sub(" ", sentence)
    clean = sig.INLINE_CODE.sub(r"\1", clean)
    clean = clean.replace("**", "").replace("__", "").replace("’", "'")
    return _WS.sub(" ", clean).strip()


def _vetoed(clean: str, core: str) -> bool:
    if clean.rstrip("\"')]*_ ").endswith("?") or sig.QUESTION_LEAD.match(core):
        return True
    if _MODAL.search(core) and sig.HYPOTHETICAL.search(core):
        return True
    if sig.HYPOTHETICAL.search(core) and not _CONDITIONAL_RULE.match(core):
        return True
    return bool(
        sig.ONE_OFF.search(clean)
        or sig.REPORT.search(clean)
        or fr.REPORTED.search(clean)
        or fr.BANTER.search(clean)
        or fr.PRAISE.search(clean)
        or _NOT_ALWAYS.search(clean)
        or sig.CONTENT_FREE.match(core)
    )


def _fired(clean: str, core: str) -> set[str]:
    fired: set[str] = set()
    if sig.DIRECTIVE.search(core):
        fired.add("directive")
    if any(
        not sig.ARTIFACT_CLAUSE.search(clean, 0, m.start()) for m in sig.DURABLE.finditer(clean)
    ):
        fired.add("durable")
    if sig.PREFERENCE.search(clean):
        fired.add("preference")
    if sig.CONTRAST.search(_COPULA_NOT.sub(" ", clean)):
        fired.add("contrast")
    if sig.SCOPE.search(clean):
        fired.add("scope")
    if sig.ASSERTION.search(clean) or fr.NORMATIVE.search(clean):
        fired.add("assertion")
    if fr.HABITUAL.match(core) and not fr.NOW.search(core) and not sig.DIRECTIVE.match(core):
        fired.add("habitual")
    if sig.GENERIC.search(clean):
        fired.add(WEAK)
    if sig.CORRECTION_LEAD.match(clean) or sig.CORRECTION_ANY.search(clean):
        fired.add("correction")
    return fired


def _counts(fired: set[str], *, memo: bool) -> bool:
    """Whether the classes that fired make a statement; ``memo``: it opens with "remember
    that" or "keep in mind", asking that it be kept."""
    others = fired - {"correction", WEAK}
    if WEAK in fired and others & {"preference", "assertion"}:
        others.add(WEAK)
    if "correction" in fired and (others & CORRECTION_PARTNERS or len(others) >= 2):
        return True
    if others == {"directive", "contrast"} and not memo:
        return False  # "use X instead of Y" is as often this turn's choice as a rule
    return len(others) >= 2 and bool(others & CORE)


def _frame(clean: str, core: str) -> str | None:
    """The name of a construction that states a rule on its own (``credo.knowledge.frames``)."""
    if fr.PREFERENCE_FRAME.match(core):
        return "preference_frame"
    if fr.LAW.match(core) and not fr.NOW.search(core) and not fr.PERFECT.search(core):
        return "law"
    if fr.NEGATED_HABIT.match(core):
        return "negated_habit"
    if fr.MEMO.match(core) and not fr.PAST.search(core):
        return "memo"
    if fr.FUTURE_FRAME.search(clean) and len(core.split()) >= 3 and not fr.PLAN.search(core):
        return "future_frame"
    return None


def _classify(text: str, sentence: str, *, carried: bool) -> tuple[Statement | None, bool]:
    """The statement ``sentence`` makes, if any, and whether it corrects without content of
    its own ("No, that's the old hostname."), lending its correction to the next sentence."""
    if len(sentence) > MAX_SENTENCE_CHARS:
        return None, False
    clean = _clean(sentence)
    core = _LEAD_IN.sub("", clean)
    if not core or _vetoed(clean, core):
        return None, False
    fired = _fired(clean, core)
    if carried:
        fired.add("correction")
    if "correction" in fired and sig.RESTATEMENT.search(core):
        fired.add("assertion")  # "No, the table is `accounts`": the right fact, restated
    frame = _frame(clean, core)
    if frame:
        fired.add(frame)
    elif not _counts(fired, memo=_MEMO.match(core) is not None):
        lends = "correction" in fired and len(core.split()) <= LEND_MAX_WORDS
        return None, lends
    kind: Kind = "rule"
    if "correction" in fired:
        kind = "correction"
    elif "preference" in fired or frame == "preference_frame":
        kind = "preference"
    negated, asserted = _terms(clean)
    statement = Statement(
        text=text.strip(),
        kind=kind,
        origin="user_corrected" if kind == "correction" else "user_stated",
        negated=negated,
        asserted=asserted,
        signals=tuple(sorted(fired)),
    )
    return statement, False


# --- terms -------------------------------------------------------------------------------

_NEGATION_BEFORE = re.compile(r"(?:n't|\bnot|\bnever|\bstop|\bavoid|\bno)\s*$", re.IGNORECASE)


def _term(raw: str) -> str:
    term = raw.strip("`").strip().rstrip(".,;:!?)'\"").lower()
    return "" if term in sig.STOP_TERMS or len(term) > 40 else term


def _terms(clean: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What the statement rules out and what it prescribes, for supersession matching."""
    negated: list[str] = []
    for match in sig.NEGATED_TERM.finditer(clean):
        term = _term(match.group(1))
        if term and term not in negated:
            negated.append(term)
    asserted: list[str] = []
    for match in sig.LEADING_ALT.finditer(clean):
        term = _term(match.group(1) or match.group(2) or "")
        if term and term not in asserted:
            asserted.append(term)
    for match in sig.ASSERTED_TERM.finditer(clean):
        if _NEGATION_BEFORE.search(clean, 0, match.start()):
            continue
        term = _term(match.group(1))
        if term and term not in asserted:
            asserted.append(term)
    return tuple(negated), tuple(t for t in asserted if t not in negated)
