"""A belief's retention class, set when it is written (credo.types.RETENTIONS).

- **fact**: holds until someone changes it: reference text, a definition, a rule a person
  stated ("never push to main"). The default.
- **snapshot**: was true at a time and is kept as the record of that time: a changelog's
  entries, a passage under a version or dated heading ("## 2.1.0 (2024-03-01)"), a dated
  status line ("2024-05-02: the deploy is frozen"), a statement of how things stand now
  ("we are currently on Postgres 15").
- **transient**: meant for a while only: "for now, skip the flaky test", "just this once".

Told from the text and its place alone, by rules that read general properties of writing
(a file a changelog goes by, a heading that is a version or a date, a line that starts with
a date, a time-limiting phrase), so the class is the same on any corpus. The compress stage
reads it to choose a rendering (retrieval/compress.py). Pure; no I/O.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from credo.errors import InvalidInputError
from credo.store.changelog import is_changelog_path
from credo.types import RETENTIONS, split_trail

FACT = "fact"
SNAPSHOT = "snapshot"
TRANSIENT = "transient"


_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"  # "March", "Mar."
_DATE = (  # 2024-03-01, 2024-03, March 2024, March 1, 2024, 1 March 2024
    rf"(?:\d{{4}}-\d{{1,2}}(?:-\d{{1,2}})?|{_MONTH}\s+(?:\d{{1,2}},?\s+)?\d{{4}}"
    rf"|\d{{1,2}}\s+{_MONTH}\s+\d{{4}})"
)
_VERSION = r"v?\d+(?:\.\d+)+(?:[-.+]?[a-z0-9]+)*"
# A heading that names a release or a date, and nothing else but a date, a label or a
# bracket after it: "2.1.0", "v3.0.0-rc1 (2024-03-01)", "Version 3.1.3", "[1.2.0] - 2023-01-05",
# "Release 24.1.0", "Unreleased", "March 2024". Not "3.8 support" nor "1. Installation".
_RELEASE_HEADING = re.compile(
    rf"^(?:(?:version|release|changes in|what'?s new in)\s+)?"
    rf"\[?(?:{_VERSION}|{_DATE}|unreleased)\]?"
    r"(?:\s*(?:[-–—:]\s*.*|\(.*\)))?$",
    re.IGNORECASE,
)
# A line that starts with a date ("2024-05-02: ...", "- 3 March 2024 - ...") or says
# "as of" a date, a version or "today" (`_dated`). Each ingest compiles the first pattern
# (~8M instructions: `re` compiles in Python); the "as of" one, as large, only once a line
# starts with "as of" (`_AS_OF`, small), and the statement patterns only for a statement.
_DATED_LINE = re.compile(rf"^[-*•]?\s*\[?{_DATE}\]?\s*[-–—:,)]", re.IGNORECASE)
_AS_OF = re.compile(r"^[-*•]?\s*as of\s", re.IGNORECASE)


@cache
def _as_of_line() -> re.Pattern[str]:
    return re.compile(rf"^[-*•]?\s*as of\s+(?:{_DATE}|{_VERSION}|today|now)\b", re.IGNORECASE)


def _dated(text: str) -> bool:
    """Whether ``text`` (left-stripped) is a dated line, as one pattern
    ``^[-*•]?\\s*(?:<date line>|<as of line>)`` would match it."""
    return bool(_DATED_LINE.match(text) or (_AS_OF.match(text) and _as_of_line().match(text)))


@cache
def _now() -> re.Pattern[str]:
    """A statement of how things stand at the moment it was said."""
    return re.compile(
        r"\b(?:currently|at the moment|right now|as of (?:today|now)|these days"
        r"|this (?:week|sprint))\b",
        re.IGNORECASE,
    )


@cache
def _for_a_while() -> re.Pattern[str]:
    """A limit on how long an instruction holds."""
    return re.compile(
        r"\b(?:for now|for the (?:moment|time being)|for (?:this|the rest of this|today'?s?) "
        r"(?:session|conversation|task)|for today|just (?:this once|for today)|temporar(?:y|ily)|"
        r"until (?:further notice|tomorrow|next (?:week|release|sprint)|(?:mon|tues|wednes|thurs|"
        r"fri|satur|sun)day))\b",
        re.IGNORECASE,
    )


def resolve(given: str | None, text: str) -> str:
    """``given`` when it is a class (else an error naming the classes); None: the class of
    ``text`` as a statement (``of_statement``)."""
    if given is None:
        return of_statement(text)
    if given not in RETENTIONS:
        raise InvalidInputError(f"retention {given!r} must be one of {', '.join(RETENTIONS)}")
    return given


def of_passage(uri: str, section: tuple[str, ...], text: str) -> str:
    """The class of an ingested passage: its file's path ``uri``, its heading trail
    ``section`` (outermost first) and its text."""
    if _is_record_place(uri, section) or _dated(text.lstrip()):
        return SNAPSHOT
    return FACT


@lru_cache(maxsize=4_096)
def _is_record_place(uri: str, section: tuple[str, ...]) -> bool:
    """A changelog, or a section under a release or dated heading. Cached: an ingest asks
    for every passage of a file, and a section's passages share its trail."""
    return is_changelog_path(uri) or any(_RELEASE_HEADING.match(t.strip()) for t in section)


# The words each pattern above needs, looked for first: an import classifies every record
# it has no class for, and a regular expression with alternatives under ``\b`` costs
# ~15 us on a sentence, a substring test well under one.
_FOR_A_WHILE_WORDS = (
    "for now",
    "for the moment",
    "for the time",
    "for this",
    "for the rest",
    "for today",
    "this once",
    "temporar",
    "until ",
)
_NOW_WORDS = ("currently", "at the moment", "right now", "as of", "these days", "this week")
_NOW_WORDS += ("this sprint",)


def of_statement(text: str) -> str:
    """The class of a statement a person or an agent wrote (``remember``, a captured
    sentence): a rule or a preference is a fact unless it says how long it holds."""
    lower = text.lower()
    if any(w in lower for w in _FOR_A_WHILE_WORDS) and _for_a_while().search(text):
        return TRANSIENT
    if any(w in lower for w in _NOW_WORDS) and _now().search(text):
        return SNAPSHOT
    if _dated(text.lstrip()):
        return SNAPSHOT
    return FACT


def of_record(origin: str, text: str, context: str) -> str:
    """The class of an imported belief that does not say its own: a document's passage by
    its trail (the first line of ``context``: ``path › Section L4-L9``), anything else a
    fact. An import is bulk data (a conversation's turns, another store's notes), and the
    statement rules cost ~7 us a record, a seventh of an import's budget per belief; a
    record that knows its class says it (``"retention"``)."""
    trail = context.split("\n", 1)[0]
    if origin == "document" and trail:
        uri, section, _ = split_trail(trail)
        return of_passage(uri, section, text)
    return FACT
