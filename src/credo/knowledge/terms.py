"""What a captured statement rules out and what it prescribes (``credo.knowledge.capture``).

"never use npm, always pnpm" rules out ``npm`` and prescribes ``pnpm``; the two lists feed
supersession matching (``credo.knowledge.supersession``), so a later "we use npm now" can be
found to replace it.
"""

from __future__ import annotations

import re

from credo.knowledge import paste
from credo.knowledge import term_patterns as tp
from credo.knowledge.retraction import RULE_RETRACTION, taken_back

__all__ = ["clean_sentence", "statement_terms"]

_WS = re.compile(r"\s+")
_NEGATION_BEFORE = re.compile(r"(?:n't|\bnot|\bnever|\bstop|\bavoid|\bno)\s*$", re.IGNORECASE)
# "Celery was replaced by RQ": the subject is what is ruled out (the agent in "by" is
# asserted). The subject is a phrase: "the requests library was replaced by httpx" rules out
# requests, not "library" (``_replaced_subject``).
# A subject retired in the passive rules itself out: "Celery was replaced by RQ", and (stop 65's
# notes bench) "the private index was shut down", "the pdf-service was folded into ...".
_RETIRED_WORDS = (
    "replaced", "shut down", "retired", "decommissioned", "removed", "dropped", "closed",
    "turned off", "switched off", "folded into", "deprecated",
)  # fmt: skip
# (in the present only a state: "utils/ is deprecated", not "flags are removed after rollout"
# nor "issues are closed by the triager")
_STATE = r"(?:shut\s+down|retired|decommissioned|closed|turned\s+off|switched\s+off|deprecated)"
_REPLACED = re.compile(
    rf"((?:{tp.TERM_BARE}\s+){{0,2}}{tp.TERM_BARE})\s+(?:"
    r"(?:was|were|has\s+been|have\s+been|got)\s+(?:replaced\s+(?:by|with)|removed|dropped|"
    r"folded\s+into|{_STATE})\b|(?:is|are)\s+(?:now\s+)?{_STATE}\b(?!\s+by\b))".replace(
        "{_STATE}", _STATE
    ),
    re.IGNORECASE,
)
# Words before a subject's name that are not the name: "our old", "the legacy", a lead-in
# ("Actually Celery was replaced by RQ") or a conjunction ("since nose was replaced by ...").
_NOT_NAME = frozenset(
    """old legacy previous former current existing actually nope nah also btw fyi ok okay well
    oh hey wait since because that which where after before once now yes yeah""".split()
)


def _replaced_subject(phrase: str) -> str:
    """The name a replaced subject phrase gives: its words after the last determiner, lead-in
    or word like "old", without a last word that only names the kind ("the requests library" ->
    requests; "our old Makefile targets" -> makefile targets)."""
    found: list[str] = []
    for word in phrase.split():
        low = word.lower()
        found = [] if low in tp.STOP_TERMS or low in _NOT_NAME else [*found, word]
    if len(found) > 1 and found[-1].lower() in tp.TOOL_KINDS:
        found.pop()
    return " ".join(found)


# A change denied ("we have not moved from Jenkins to Actions", "Celery has not been replaced
# by RQ") rules nothing out and prescribes nothing: not the tools it names, nor the verb
# itself ("not moved").
_CHANGE_VERB = r"(?:moved|switched|migrated|changed|transitioned|replaced)\b"
_DENIAL = r"(?:n't|\bnot|\bnever)(?:\s+(?:yet|ever|been|really|actually|fully))*"
_DENIED_BEFORE = re.compile(rf"{_DENIAL}\s+$", re.IGNORECASE)
_DENIED_VERB = re.compile(rf"{_DENIAL}\s+{_CHANGE_VERB}", re.IGNORECASE)
_IS_CHANGE_VERB = re.compile(_CHANGE_VERB, re.IGNORECASE)
# A change only weighed or tried ("we considered switching CI from Travis to GitHub Actions
# but stayed", "we tried moving the build from webpack to esbuild to measure it") makes no
# change either: its old tool is still the one in use (review92).
_WEIGHED_BEFORE = re.compile(
    r"\b(?:consider(?:ed|ing)?|tried|trying|try|(?:think|thought|thinking|talk|talked|talking)"
    r"\s+about|discuss(?:ed|ing)|propos(?:ed|ing)|suggest(?:ed|ing)|evaluat(?:ed|ing)|"
    r"debat(?:ed|ing)|experiment(?:ed|ing)\s+with)\s+$",
    re.IGNORECASE,
)
_IS_CHANGING_VERB = re.compile(r"(?:mov|switch|migrat|chang|transition)ing\b", re.IGNORECASE)


def _denied_change(clean: str, match: re.Match[str]) -> bool:
    """Whether a term ``match`` is part of a change of tool told as not made (or only
    weighed)."""
    start = match.start()
    if _DENIED_VERB.match(clean, start):
        return True  # "not moved", "not yet migrated", "not been replaced"
    if _IS_CHANGING_VERB.match(clean, start) and _WEIGHED_BEFORE.search(clean, 0, start):
        return True  # "considered switching from ..."
    return _IS_CHANGE_VERB.match(clean, start) is not None and bool(
        _DENIED_BEFORE.search(clean, 0, start)
    )


# "Never run the migrations without --dry-run": "without" under a negation of its own clause
# requires what follows it, it does not rule it out. A clause ends at punctuation before a
# space, not at the dot of a name ("Never run manage.py migrate without --fake-initial",
# "Don't call requests.get without a timeout").
_NEGATED_CLAUSE = re.compile(
    r"(?:n't|\bnot|\bnever|\bno)\b(?:[^,;:.!?]|[.:](?=[\w/]))*$", re.IGNORECASE
)


def _required(clean: str, match: re.Match[str]) -> bool:
    """Whether a negated ``match`` opened by "without" stands under a negation ("never ...
    without X"): X is then required."""
    start = match.start()
    return clean[start : start + 7].lower() == "without" and bool(
        _NEGATED_CLAUSE.search(clean, 0, start)
    )


def _term(raw: str) -> str:
    term = raw.strip("`").strip().rstrip(".,;:!?)'\"").lower()
    return "" if term in tp.STOP_TERMS or len(term) > 40 else term


def clean_sentence(sentence: str) -> str:
    """The sentence as the signals read it: quoted text out (someone else's words), inline
    code reduced to its content, emphasis marks gone, one space between words."""
    clean = paste.INLINE_QUOTED.sub(" ", sentence)
    clean = paste.INLINE_CODE.sub(r"\1", clean)
    clean = clean.replace("**", "").replace("__", "").replace("’", "'")
    return _WS.sub(" ", clean).strip()


def statement_terms(clean: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What the statement rules out and what it prescribes, for supersession matching."""
    patterns = tp.term_patterns()
    negated: list[str] = []
    found = [
        match.group(1)
        for match in patterns.negated.finditer(clean)
        if not _denied_change(clean, match) and not _required(clean, match)
    ]
    retracted = RULE_RETRACTION.match(clean)
    if retracted and retracted.group("after"):  # "never mind the pytz exception, keep ...": pytz
        found.insert(0, taken_back(clean) or "")
    low = clean.lower()
    if any(word in low for word in _RETIRED_WORDS):  # else the pattern tries every word
        found += [_replaced_subject(match.group(1)) for match in _REPLACED.finditer(clean)]
    for raw in found:
        term = _term(raw)
        if term and term not in negated:
            negated.append(term)
    leading: list[tuple[int, int]] = []
    for match in patterns.leading.finditer(clean):
        group = 1 if match.group(1) else 2
        if _term(match.group(group) or "") in tp.CHANGED_WORDS:
            continue  # "we moved over to Poetry" is no "X over Y"
        leading.append(match.span(group))
    prescribed: list[tuple[int, int]] = []
    for match in patterns.asserted.finditer(clean):
        if _NEGATION_BEFORE.search(clean, 0, match.start()) or _denied_change(clean, match):
            continue
        prescribed.append(match.span(1))
    asserted: list[str] = []
    for start, end in _phrases(clean, leading, prescribed):
        term = _term(clean[start:end])
        if term and term not in asserted:
            asserted.append(term)
    return tuple(negated), tuple(t for t in asserted if t not in negated)


_SPACE = re.compile(r"[ \t]+")


def _phrases(
    clean: str, leading: list[tuple[int, int]], prescribed: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The asserted terms' spans, the alternatives named first (``leading``) before the
    prescribed ones. A word the asserted pattern took right before an alternative's name is
    the start of one phrase: "with trusted publishing instead of the index" prescribes
    "trusted publishing", not "trusted" and "publishing" (a belief saying "we publish" does
    not already say it)."""
    joined: set[tuple[int, int]] = set()
    spans: list[tuple[int, int]] = []
    for start, end in leading:
        before = next(
            (span for span in prescribed if _SPACE.fullmatch(clean, span[1], start)), None
        )
        if before is not None and _term(clean[start:end]) and _term(clean[slice(*before)]):
            joined.add(before)
            start = before[0]
        spans.append((start, end))
    return spans + [span for span in prescribed if span not in joined]
