"""Definition-level term statistics of code, kept at ingest for the definition lane.

A code passage (knowledge/chunk/passage.py) holds a definition's signature and doc, or a
comment inside it: the body is indexed as the names it uses, each once (the context
field). The function baselines of issue #14 index the whole definition as written, so a
name its body keeps coming back to counts every time it is used. The definition lane
(retrieval/lanes/defn.py) adds that unit as evidence of its own, and for it ingest stores:

- ``definitions``, one row per definition of a code file (the code chunker's
  "definition" chunks: whole lines, decorators and doc comment included; definitions with
  the same lines are one): its file, first and last line, its length in tokens, and its
  stem counts, every use of every token stemmed as FTS5 indexes it (``store/stem.py``),
  encoded as `` stem:count stem:count `` (stems sorted; no stem holds a space or colon).
  A definition that declares members (a class, struct, trait...) is counted over its own
  lines only: its methods are rows of their own (``file_rows``).
- ``passage_definitions``: for each code passage of a file, the innermost definition
  whose lines hold the passage's lines (a passage outside every definition has no row).
  A passage whose text is in two files has a row for each.
- ``defn_df``: for each stem, the number of stored definitions that hold it; and, under
  keys that start with a space (no stem does), the totals the mean length comes from
  (``DEFINITIONS``, ``LENGTH``).

Both backends write through ``DefnWrites``: a changed file's rows are replaced by
difference (an unchanged definition writes nothing, and ``defn_df`` moves by the rows that
changed), and a vanished file's rows and counts are dropped. A hard forget of a passage
drops the definitions that hold its text, with their counts (``Memory.forget``); a soft
forget keeps them, as it keeps the text (the lane reads live beliefs only).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from itertools import chain, islice

from credo.store.line_stats import deltas as _deltas
from credo.store.stem import ASCII_FOLD, STEMS, tokens

# A passage is its definition's head when it is anchored at exactly the definition's lines:
# the code chunker gives the definition chunk the whole definition's range, and every other
# passage inside it a smaller one. Ingest writes the anchor and the row together, so they
# agree; the anchor's primary key (belief_id, doc_uri) answers it.
HEAD_SQL = (
    "EXISTS (SELECT 1 FROM belief_documents a WHERE a.belief_id = p.belief_id "
    "AND a.doc_uri = p.file || '#L' || p.start_line || '-L' || p.end_line)"
)

DEFINITIONS = " definitions"
LENGTH = " length"
TOTALS = (DEFINITIONS, LENGTH)

Span = tuple[int, int]
"""A definition's first and last line (1-based, inclusive)."""
DefnRow = tuple[str, int, bool]
"""(terms, length, value): a definition's stem counts as stored, its length in tokens, and
whether it is a module-level constant's (store/values.py; the ``value`` column). The lane
scores a constant's row like any other, but no statistic counts it (``contributions``), so
the other definitions' scores are what they were without constants."""


def line_stems(lines: Sequence[str]) -> list[list[str]]:
    """Each line's stems, in order (a definition's stems are its lines' stems joined: the
    tokenizer never joins two lines)."""
    known = STEMS.__getitem__
    text = "\n".join(lines)
    if text.isascii():  # `tokens` of each line, with one fold for them all
        cut = text.translate(ASCII_FOLD).split("\n")
        if len(cut) == len(lines):  # (a line holding "\n" itself takes the general way)
            return [list(map(known, line.split())) for line in cut]
    return [list(map(known, tokens(line))) for line in lines]


def encode(stems: Iterable[str], value: bool = False) -> DefnRow:
    """The stored form of a definition whose tokens stem to ``stems`` (``value``: a
    constant's)."""
    counts = Counter(stems)
    terms = "".join(f" {t}:{counts[t]}" for t in sorted(counts))
    return (terms + " " if terms else ""), sum(counts.values()), value


def term_count(terms: str, t: str) -> int:
    """How many times stem ``t`` occurs in a stored ``terms`` (0 when it does not)."""
    at = terms.find(f" {t}:")
    if at < 0:
        return 0
    start = at + len(t) + 2
    return int(terms[start : terms.index(" ", start)])


def decode(terms: str) -> dict[str, int]:
    """A stored ``terms`` back as stem -> count."""
    return {t: int(n) for t, _, n in (w.rpartition(":") for w in terms.split())}


def file_rows(
    lines: Sequence[str],
    spans: Iterable[Span],
    passages: Iterable[tuple[str, Span]],
    scopes: Iterable[Span] = (),
    values: Collection[Span] = (),
) -> tuple[dict[Span, DefnRow], dict[str, Span]]:
    """One code file's rows: its definitions (``spans``) over its ``lines``, and each
    passage (belief id, its lines) -> the innermost definition holding it. Innermost: the
    latest-starting of those that hold it, the shortest among those starting there.

    A definition that declares members (``scopes``: a class, struct, trait...) is counted
    over its own lines, less those of the definitions nested in it: a method is a unit of
    its own, counted in its own row, and counted again in its class it gave the class's
    head the evidence of every method, so the head outranked the method a question asked
    about (docs/BENCHMARKS.md, issue #14, day-code42). A function keeps its nested
    functions' lines: they are part of what it does. A module-level constant's row
    (``values``) is flagged as one (``DefnRow``)."""
    ordered = sorted(set(spans), key=lambda s: (s[0], -s[1]))
    if not ordered:
        return {}, {}
    stems = line_stems(lines[: max(b for _, b in ordered)])
    members = frozenset(scopes)
    defs: dict[Span, DefnRow] = {}
    for at, (a, b) in enumerate(ordered):
        parts = _own_parts(ordered, at) if (a, b) in members else [(a, b)]
        defs[(a, b)] = encode(
            chain.from_iterable(
                chain.from_iterable(stems[max(c, 1) - 1 : min(d, len(stems))]) for c, d in parts
            ),
            (a, b) in values,
        )
    starts = [a for a, _ in ordered]
    inner: dict[str, Span] = {}
    for belief_id, (start, end) in passages:
        # Back from the last definition starting at or before the passage: the first that
        # holds it starts latest, and is the shortest of those starting there.
        for at in range(bisect_right(starts, start) - 1, -1, -1):
            if end <= ordered[at][1]:
                inner[belief_id] = ordered[at]
                break
    return defs, inner


def _own_parts(ordered: Sequence[Span], at: int) -> list[Span]:
    """The line runs of definition ``ordered[at]`` outside the definitions nested in it
    (``ordered``: by first line, longest first, so those nested in it follow it). Its first
    line always counts: a member opened on it (``class A { run() {``) shares it, and
    without it the definition would have no words of its own."""
    first, last = ordered[at]
    parts: list[Span] = [(first, first)]
    resume = first + 1  # the first line not yet inside a nested definition
    for start, end in islice(ordered, at + 1, None):
        if start > last:
            break
        if end > last:
            continue  # (a definition overlapping it but not nested: not its member)
        if start > resume:
            parts.append((resume, start - 1))
        resume = max(resume, end + 1)
    if resume <= last:
        parts.append((resume, last))
    return parts


def contribution(row: DefnRow) -> Counter[str]:
    """What one stored definition adds to ``defn_df``: each stem once, and the totals."""
    return contributions([row])


def contributions(rows: list[DefnRow]) -> Counter[str]:
    """What ``rows`` add to ``defn_df`` together: the sum of their `contribution`s, in
    one count."""
    rows = [row for row in rows if not row[2]]  # (not the constants': ``DefnRow``)
    counts: Counter[str] = Counter(
        w.rpartition(":")[0] for terms, _, _ in rows for w in terms.split()
    )
    counts[DEFINITIONS] += len(rows)
    counts[LENGTH] += sum(length for _, length, _ in rows)
    return counts


def deltas(old: Mapping[Span, DefnRow], new: Mapping[Span, DefnRow]) -> dict[str, int]:
    """The change to ``defn_df`` when a file's definitions ``old`` (those stored) are
    replaced by ``new`` (line_stats.deltas, definitions counted by ``contributions``)."""
    return _deltas(old, new, contributions)


class DefnWrites:
    """What both backends do when ingest writes or drops a code file's rows: read the rows
    stored for the file, keep ``defn_df`` in step with the difference, and write only what
    changed. A backend supplies the statements."""

    def set_file_definitions(
        self, file: str, definitions: Mapping[Span, DefnRow], passages: Mapping[str, Span]
    ) -> None:
        """Replace ``file``'s definitions and passage rows with these (an unchanged row is
        not written; a row absent here is removed)."""
        old_defs, old_passages = self._defn_file_rows(file)
        if not definitions and not old_defs and not passages and not old_passages:
            return
        self._defn_apply(deltas(old_defs, definitions))
        gone = sorted(s for s in old_defs if s not in definitions)
        write = {s: r for s, r in definitions.items() if old_defs.get(s) != r}
        self._defn_write_definitions(file, gone, write)
        left = sorted(b for b in old_passages if b not in passages)
        moved = {b: s for b, s in passages.items() if old_passages.get(b) != s}
        self._defn_write_passages(file, left, moved)

    def file_definitions(self, file: str) -> tuple[dict[Span, DefnRow], dict[str, Span]]:
        """``file``'s definitions and its passages' places (export: knowledge/derived_records)."""
        return self._defn_file_rows(file)

    def drop_file_definitions(self, file: str) -> None:
        """Remove a vanished file's rows and their counts."""
        self.set_file_definitions(file, {}, {})

    def drop_passage_definitions(self, ids: Iterable[str]) -> None:
        """A hard forget: the definitions each of ``ids`` sits in and those around it (their
        stems may hold its text) go, with their counts and every passage row pointing at
        them, so no stem of the forgotten text stays behind. A class around it goes too,
        though it no longer counts its methods' lines (the table does not say which
        definitions declare members): more than needed, never less. They come back when
        their file is ingested changed."""
        forgotten = set(ids)
        for file, (start, end) in self._defn_places(sorted(forgotten)):
            defs, passages = self._defn_file_rows(file)
            keep = {s: r for s, r in defs.items() if not (s[0] <= start and end <= s[1])}
            left = {b: s for b, s in passages.items() if s in keep and b not in forgotten}
            self.set_file_definitions(file, keep, left)

    def _defn_places(self, ids: list[str]) -> list[tuple[str, Span]]:
        raise NotImplementedError

    def _defn_file_rows(self, file: str) -> tuple[dict[Span, DefnRow], dict[str, Span]]:
        raise NotImplementedError

    def _defn_apply(self, change: dict[str, int]) -> None:
        raise NotImplementedError

    def _defn_write_definitions(
        self, file: str, gone: list[Span], rows: dict[Span, DefnRow]
    ) -> None:
        raise NotImplementedError

    def _defn_write_passages(self, file: str, gone: list[str], rows: dict[str, Span]) -> None:
        raise NotImplementedError
