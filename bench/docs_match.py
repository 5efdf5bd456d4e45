"""When a ranked hit counts as finding a labelled section: the match rules of docs_multi.

    overlap   the paths are equal and the line ranges overlap (the rule until stop 41).
    within    overlap, and at most ``OUTSIDE_MAX`` of the hit's lines lie outside the
              label's extent. A label's extent is its own lines plus, in a code corpus,
              its lead: the doc comment, decorator and blank lines directly above its
              first line (``lead_start``).

Why ``within``: under ``overlap`` a class head whose lines span the whole class (546 lines)
matches every method label inside it, for credo and the fts5-func baselines alike, and a
user handed that hit has not been given a function-level answer. Labels are written from
the ``def`` / ``function`` line, but a definition's doc comment and decorators are part of
it for a reader (JSDoc blocks above the ws development set's labels reach 34 lines), hence
the lead. ``OUTSIDE_MAX`` (3) leaves room for layout around a unit, not content: a trailing
blank line, a closing bracket, an rst title's overline. A hit inside the lead alone does
not overlap the label and does not match: ``within`` only ever removes matches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

RULES = ("overlap", "within")
OUTSIDE_MAX = 3
# A stripped line that opens, continues or closes a comment, or is a decorator.
_LEAD_PREFIXES = ("#", "//", "/*", "*", "@")


@dataclass(frozen=True, slots=True)
class Loc:
    path: str
    start: int
    end: int

    def overlaps(self, other: Loc) -> bool:
        return self.path == other.path and self.start <= other.end and other.start <= self.end


Match = Callable[[Loc, Loc], bool]  # (hit location, label) -> matches


def overlap(hit: Loc, label: Loc) -> bool:
    return hit.overlaps(label)


def _is_lead_line(text: str) -> bool:
    stripped = text.strip()
    return stripped.startswith(_LEAD_PREFIXES) or stripped.endswith("*/")


def lead_start(lines: Sequence[str], start: int) -> int:
    """First line (1-based) of the comment / decorator run directly above line ``start``.

    Blank lines count only between lead lines or between the run and ``start`` (a JSDoc
    block may sit a blank line above its function); ``start`` itself when there is none.
    """
    first = start
    line = start - 1
    while line >= 1:
        if not lines[line - 1].strip():
            line -= 1
            continue
        if not _is_lead_line(lines[line - 1]):
            break
        first = line
        line -= 1
    return first


@dataclass(frozen=True, slots=True)
class Within:
    """The ``within`` rule; ``extents`` maps a label to the first line of its extent."""

    extents: Mapping[Loc, int]
    outside_max: int = OUTSIDE_MAX

    def __call__(self, hit: Loc, label: Loc) -> bool:
        if not hit.overlaps(label):
            return False
        first = min(self.extents.get(label, label.start), label.start)
        outside = max(0, first - hit.start) + max(0, hit.end - label.end)
        return outside <= self.outside_max


def make_rule(
    name: str, kind: str, texts: Mapping[str, Sequence[str]], labels: Iterable[Loc]
) -> Match:
    """The rule called ``name`` for a corpus of ``kind`` whose files hold ``texts``.

    Raises:
        ValueError: ``name`` is not one of ``RULES``.
    """
    if name == "overlap":
        return overlap
    if name != "within":
        raise ValueError(f"unknown match rule {name!r}; use one of {', '.join(RULES)}")
    extents: dict[Loc, int] = {}
    if kind == "code":
        for label in labels:
            lines = texts.get(label.path)
            if lines is not None and 1 <= label.start <= len(lines):
                extents[label] = lead_start(lines, label.start)
    return Within(extents)
