"""In code, a definition that holds a passage ranked above it yields (issue #14).

A class's head passage (``lib/container.js › Container``) holds every member nested in it
(``lib/container.js › Container › walkRules``). When a member already ranks above the head,
the head adds what the member's file and class are, which the member's own line shows,
and takes one of the first ten places from a passage of another definition: of the 18
code questions of the dev and spent sets that miss an answer group, 13 hold such a head in
their first ten (day-mf68, from the rankings ``bench/group_misses.py`` studies).
``members.py`` puts a head just below its last member among the first ten; here it then
counts ``AGAIN`` of its score, so a passage of another definition on nearly the same score
goes before it.

The rule: among the first ``WINDOW`` ranked, a code passage whose section (its trail less
the line range: the path and the definition names, at least one name) is the outer part of
the section of a passage ranked above it counts ``AGAIN`` of its score; the list is sorted
again (stable). What it gives up is its part ``contained`` (below zero; the parts still add
up to the score). Documentation passages never yield: a page's or section's introduction
above its subsections is often the answer (a parent section yielding lost groups on the
dev sets, ``spread.py``), nor configuration (``CODE_EXTENSIONS`` names the source files: a
workflow's job below its own steps is often the answer, config_questions' black-c02).
Module-level code (a trail of only the path) never yields, nor does a passage to itself.
The rule reads names, not lines: a Go or Rust type's definition is named as the outer part
of its methods (``server.go › Server`` above ``server.go › Server › Serve``, a Rust struct
above its ``impl``'s functions) without holding them, and it yields too. Four of the nine
rises below come from that (urfave-cli-c12, semver-c01, semver-m01, chi-c13): asking that
the head's lines hold the member's lost all four (day-review68).

Measured (day-mf68, offline over the dev and spent sets' first 40 hits, then the whole
bench): nine questions' first match rises (urllib3-c23, sqlparse-c05, urfave-cli-c12,
semver-c01, semver-m01, commander-c05, postcss-c14, postcss-c20, chi-c13), none falls;
no multi-fact group is won or lost. A same-named definition in another module yielding too
lost groups (ws-m03, postcss-m05) and attrs' hit@5.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from credo.retrieval.rank import ID, SCORE, Ranked, rescored
from credo.retrieval.specific import by_score, without_lines
from credo.types import TRAIL_SEPARATOR, is_code_path

AGAIN = 0.5  # the share of its score a head keeps below its own member
WINDOW = 40  # the first ranks read (as spread.py)


@lru_cache(maxsize=8192)  # (asked of the first WINDOW's trails each query: a lookup when met)
def _section(trail: str) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]] | None:
    """A code passage's section as (path, name, ...) and the sections outside it that
    name a definition (its outer parts, path + at least one name); None for documentation,
    configuration or module-level code."""
    parts = tuple(without_lines(trail).split(TRAIL_SEPARATOR))
    if len(parts) < 2 or not is_code_path(parts[0]):
        return None
    return parts, tuple(parts[:n] for n in range(2, len(parts)))


def heads_after_members(ranked: list[Ranked], trails: Mapping[str, str]) -> list[Ranked]:
    """``ranked`` with each code passage that holds the section of one ranked above it,
    among the first ``WINDOW``, counting ``AGAIN`` of its score, sorted again by score
    (stable); the same list when none does."""
    outer: set[tuple[str, ...]] = set()  # the outer sections of the passages met
    out: list[Ranked] | None = None
    for at, scored in enumerate(ranked[:WINDOW]):
        trail = trails.get(scored[ID])
        if not trail:
            continue
        known = _section(trail)
        if known is None:
            continue
        section, around = known
        if section in outer:
            if out is None:
                out = ranked.copy()
            out[at] = rescored(scored, round(scored[SCORE] * AGAIN, 9), "contained")
        if around:
            outer.update(around)
    if out is None:
        return ranked
    out.sort(key=by_score, reverse=True)
    return out
