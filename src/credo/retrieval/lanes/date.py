"""The date lane: calendar dates the query names select candidates by when they were written.

"What did Caroline do on 8 May 2023?" is about what was said that day. The lane reads
absolute dates in the query and scores the candidates (beliefs some other lane found)
whose ``created_at`` falls inside:

    a day    "2023-05-08", "8 May 2023", "8th May, 2023", "May 8, 2023", "May 8,2023"   1.0
    a month  "May 2023", "in February 2023"                                            0.5

A bare month ("in May") or year ("2023") names too much time to say anything and is
ignored; relative dates ("yesterday", "last week") are not read. Impossible dates
(31 February, 2023-13-01) are ignored, not read as their month. Days and months are UTC:
``created_at`` is a POSIX timestamp and the lane has no time zone to read it in, so a
belief written at 23:30 in New York falls on the next day. The scores and the weight (0.5,
rank.DEFAULT_WEIGHTS) were chosen on LoCoMo dev conversations 26 and 30 and confirmed on
41, 42 and 43 (docs/RETRIEVAL.md).

Failure mode: a date can name what a belief is about rather than when it was written ("the
deadline is 13 October 2023"); the lane then lifts the candidates written that day, not
the belief about the deadline. The lane only reorders candidates the other lanes found, and
its weight bounds the lift to half the keyword lane's best.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from functools import cache

DAY_SCORE = 1.0
MONTH_SCORE = 0.5
MAX_WINDOWS = 16  # dates read from one query; a pasted calendar must not cost per candidate

_MONTH_NAMES = (
    "january february march april may june july august september october november december"
).split()
MONTHS = {name: number for number, name in enumerate(_MONTH_NAMES, start=1)}
MONTHS.update({name[:3]: number for name, number in list(MONTHS.items())})
MONTHS["sept"] = 9
# Exactly the names above, written as a trie so that a word fails on its first letters (a
# flat alternation of 25 names costs ~10 us per query); the lookahead skips other words.
_M = (
    "(?=[adfjmnos])(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?"
    "|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_YEAR = re.compile(r"\d{4}")  # every form names a year: most queries are done after one scan


@cache
def _forms() -> tuple[re.Pattern[str], ...]:
    """The ISO, day-month-year, month-day-year and month-year patterns, compiled on the
    first query that holds a year: the month names make them cost ~2 ms to compile, which a
    process that never meets a year (a hook run, a one-shot search) need not pay."""
    return (
        re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"),
        re.compile(
            rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_M})\.?,?\s*(\d{{4}})\b", re.IGNORECASE
        ),
        re.compile(rf"\b({_M})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s*(\d{{4}})\b", re.IGNORECASE),
        re.compile(rf"\b({_M})\.?,?\s+(\d{{4}})\b", re.IGNORECASE),
    )


def windows(text: str) -> list[tuple[float, float, float]]:
    """(start, end, score) of each day or month ``text`` names, [start, end) in POSIX
    seconds (UTC), in the order found: ISO dates, day-month-year, month-day-year, then
    month-year outside the dates already read. At most ``MAX_WINDOWS``."""
    if _YEAR.search(text) is None:
        return []
    iso, day_month_year, month_day_year, month_year = _forms()
    found: list[tuple[float, float, float]] = []
    # Spans of the days read, valid or not, which a month must not read again: "31 February
    # 2023" is no date, not February.
    days: list[tuple[int, int]] = []

    def add(year: int, month: int, day: int | None, span: tuple[int, int]) -> None:
        if day is not None:
            days.append(span)
        try:
            if day is None:
                start = datetime(year, month, 1, tzinfo=UTC)
                end = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
            else:
                start = datetime(year, month, day, tzinfo=UTC)
                end = start + timedelta(days=1)
        except (ValueError, OverflowError):  # 31 February, month 13, year 0 or past 9999
            return
        score = MONTH_SCORE if day is None else DAY_SCORE
        found.append((start.timestamp(), end.timestamp(), score))

    for match in iso.finditer(text):
        add(int(match[1]), int(match[2]), int(match[3]), match.span())
    for match in day_month_year.finditer(text):
        add(int(match[3]), MONTHS[match[2].lower()], int(match[1]), match.span())
    for match in month_day_year.finditer(text):
        add(int(match[3]), MONTHS[match[1].lower()], int(match[2]), match.span())
    for match in month_year.finditer(text):
        if not any(a <= match.start() < b for a, b in days):
            add(int(match[2]), MONTHS[match[1].lower()], None, match.span())
    return found[:MAX_WINDOWS]


def date_lane(
    found: list[tuple[float, float, float]], created_at: dict[str, float]
) -> dict[str, float]:
    """The best score of a window each candidate (id -> created_at) was written in."""
    out: dict[str, float] = {}
    for belief_id, when in created_at.items():
        best = 0.0
        for start, end, score in found:
            if start <= when < end and score > best:
                best = score
        if best:
            out[belief_id] = best
    return out
