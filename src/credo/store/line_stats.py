"""Line-level term statistics of documentation passages, kept at ingest for the line lane.

A passage (knowledge/chunk/passage.py) joins a section's paragraphs, bullets and headings
with newlines; the line lane (retrieval/lanes/line.py) scores a passage by its best line.
To score a line it needs the line's stems and the store's line statistics, and tokenising
~50 candidates' lines per query costs ~4-8 ms in Python. So ingest stores them:

- ``passage_lines``, one row per documentation passage: each line's Porter stems
  (``store/stem.py``, what FTS5 indexes) joined by spaces, lines joined by newlines (a line
  without a token is left out), and the context field's stems (length filler left out);
  with the line count, the summed line lengths and the context's length.
- ``line_df``: for each stem, the number of stored lines that hold it; and, under keys that
  start with a space (no stem does), the totals the lane's averages come from
  (``PASSAGES``, ``LINES``, ``LENGTH``, ``CONTEXT``).

Both backends write through ``LineWrites`` and ``deltas``: the change a batch of rows
makes to ``line_df``, counted from the rows it replaces, so re-ingest stays incremental
and an unchanged row changes nothing. A hard forget drops the passage's row and counts
with it (``Memory.forget``), so no stem of its text stays behind; a soft forget keeps
them, as it keeps the text (the lane reads live beliefs only).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain
from typing import TypeVar

from credo.store.stem import ASCII_FOLD, STEMS, tokens
from credo.types import shown_context

PASSAGES = " passages"
LINES = " lines"
LENGTH = " length"
CONTEXT = " context"
TOTALS = (PASSAGES, LINES, LENGTH, CONTEXT)

K = TypeVar("K")
R = TypeVar("R")
LinesRow = tuple[str, str]
"""(lines, context): a passage's stems as stored (see the module docstring)."""


def encode(content: str, context: str) -> LinesRow:
    """The stored form of a passage with ``content`` and ``context``."""
    if content.isascii():  # `tokens` of each line, with one fold for them all
        cut = list(map(str.split, content.translate(ASCII_FOLD).split("\n")))
    else:
        cut = [tokens(line) for line in content.split("\n")]
    known = STEMS.__getitem__
    lines = [" ".join(map(known, words)) for words in cut if words]
    placed = shown_context(context)  # (the length filler counts toward no line)
    return "\n".join(lines), " ".join(map(known, tokens(placed)))


def contribution(row: LinesRow) -> Counter[str]:
    """What one stored row adds to ``line_df``: each stem once per line holding it, and
    the totals."""
    return contributions([row])


def contributions(rows: Sequence[LinesRow]) -> Counter[str]:
    """What ``rows`` add to ``line_df`` together: the sum of their `contribution`s."""
    # Every line of every row, split in C: joining the rows by "\n" and splitting again
    # gives exactly each row's own lines.
    texts = [lines for lines, _ in rows if lines]
    split = list(map(str.split, "\n".join(texts).split("\n"))) if texts else []
    # One count over every line's distinct stems: Counter's C loop, not one update a line
    # or a row.
    counts: Counter[str] = Counter(chain.from_iterable(map(set, split)))
    counts[PASSAGES] += len(rows)
    counts[LINES] += len(split)
    counts[LENGTH] += sum(map(len, split))
    counts[CONTEXT] += sum(map(len, map(str.split, [context for _, context in rows])))
    return counts


def deltas(
    old: Mapping[K, R],
    new: Mapping[K, R],
    count: Callable[[list[R]], Counter[str]] = contributions,  # type: ignore[assignment]
) -> dict[str, int]:
    """The change to a df table when the rows ``old`` (by key, those stored) are replaced
    by ``new`` (a row absent from ``new`` is removed), rows counted together by ``count``
    (passages' lines by default; store/defn_stats.py counts definitions); zero changes
    left out."""
    change = count([row for key, row in new.items() if old.get(key) != row])
    change.subtract(count([row for key, row in old.items() if new.get(key) != row]))
    return {k: v for k, v in sorted(change.items()) if v}


def changed(
    old: Mapping[str, LinesRow], new: Iterable[tuple[str, LinesRow]]
) -> dict[str, LinesRow]:
    """The rows of ``new`` that differ from what is stored (the rest need no write)."""
    return {belief_id: row for belief_id, row in new if old.get(belief_id) != row}


class LineWrites:
    """What both backends do when ingest writes or drops passages' rows: read the rows
    stored for those ids, keep ``line_df`` in step with the difference, and write only the
    rows that changed. A backend supplies the four statements."""

    def set_passage_lines(self, rows: Iterable[tuple[str, LinesRow]]) -> None:
        """Store each (belief id, encoded row); rows equal to the stored one are skipped."""
        new = dict(rows)
        if not new:
            return
        old = self._lines_rows(list(new))
        write = changed(old, new.items())
        if not write:
            return
        self._apply(deltas({k: old[k] for k in write if k in old}, write))
        self._write_rows(write)

    def drop_passage_lines(self, ids: Iterable[str]) -> None:
        """Remove the rows of ``ids`` (passages that left their file) and their counts."""
        old = self._lines_rows(list(ids))
        if not old:
            return
        self._apply(deltas(old, {}))
        self._delete_rows(sorted(old))

    def _lines_rows(self, ids: list[str]) -> dict[str, LinesRow]:
        raise NotImplementedError

    def _apply(self, change: dict[str, int]) -> None:
        raise NotImplementedError

    def _write_rows(self, rows: dict[str, LinesRow]) -> None:
        raise NotImplementedError

    def _delete_rows(self, ids: list[str]) -> None:
        raise NotImplementedError
