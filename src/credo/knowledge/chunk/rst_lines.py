"""Where a piece of a reStructuredText doctree sits in its source: exact line ranges.

docutils' ``node.line`` is only a hint: a paragraph's is its first line, a title's the
line of its underline, a term's the last line of its definition, a field name has none,
and a directive's label is credo's own node. So each block is found again in the source
lines docutils read (tabs expanded, trailing blanks removed):

1. By its raw text. A paragraph's (title's, term's, line's...) ``rawsource`` is its source
   lines with the indentation and any list, field, option or directive marker removed.
   A *strong* match has the first raw line end its source line and each further raw line
   be a whole source line; a *weak* match (table cells) only has each raw line within its
   source line. The start is looked for at the hint and the lines around it, then
   forward from the end of the previous chunk, then back to the previous chunk's start
   (table cells share lines), a strong match preferred to a weak one.
2. By its words, when there is no raw text or it does not match: the tightest span of
   tokens holding the block's words in order, at or after the previous chunk's start,
   nearest the hint.

A term, a field name, an option group or a directive label is placed after the
paragraph that follows it: at the nearest line at or before that paragraph's start.

Every range found is checked: its lines hold the block's words in order (the rule of
`credo.knowledge.doctor.range_holds`). A long paragraph is cut into sentences by aligning
its words with the words of its lines.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterator
from itertools import accumulate, chain, compress, count, repeat
from operator import contains, mul, not_

from credo.store.stem import ASCII_FOLD

# Letters and digits only, case-folded: the words `credo.knowledge.doctor` compares.
_WORD = re.compile(r"[^\W_]+")
# The same on ASCII text, where `[^\W_]` is `[A-Za-z0-9]` and casefold is lower: the
# store's token fold (`ASCII_FOLD`: letters lower-cased, every other character but "\n" a
# space), cut by `str.split` (a third of a regular expression's work; `words` was ~4% of a
# Sphinx tree's ingest). "\n" stays, so that a whole file's lines are folded at once.
# Inline markup's end glued to a suffix by an escape: "`\\s" after a word.
_GLUED = re.compile(r"(?<=[^\W_])`\\(?=[^\W_])")
# How many first-word positions a word search tries, and how far apart its words may lie.
_MAX_CANDIDATES = 256
_SPAN_FACTOR = 2
_SPAN_SLACK = 24
# How far past the previous chunk a raw-text search looks before giving up.
_MAX_SCAN = 4000
# A weak match (see `SourceIndex._match`) is kept unless a strong one follows this closely.
_WEAK_REACH = 64
_STRONG = 2
_WEAK = 1
# How far before a definition its term (or a field body its name) may start.
_MAX_BACK = 64

Span = tuple[int, int]


def words(text: str) -> list[str]:
    """The normalised words ranges are checked by."""
    if text.isascii():
        return text.translate(ASCII_FOLD).split()
    return _WORD.findall(text.casefold())


class SourceIndex:
    """A file's lines as docutils reads them, and (built on first need) their words."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = [(line.expandtabs(8) if "\t" in line else line).rstrip() for line in lines]
        self._words: list[list[str]] | None = None  # each line's words, on first need
        self._token_lines: list[int] | None = None  # each word's line, in file order
        self._positions: dict[str, list[int]] = {}  # word -> its token indices
        self._first_token: list[int] = []  # [n]: first token on line n + 1 or later
        self._text: str | None = None  # the lines joined by "\n", on first need
        self._offsets: list[int] = []  # [n]: where line n + 1 starts in `_text`

    def line_words(self, number: int) -> list[str]:
        return self._every_line_words()[number - 1]

    def _every_line_words(self) -> list[list[str]]:
        """`words` of every line, computed at once: placing a file's blocks reads nearly
        all of its lines, and a file's ASCII lines are folded by one call."""
        if self._words is None:
            lines = self.lines
            text = "\n".join(lines)  # (no line holds "\n")
            if text.isascii():
                self._words = list(map(str.split, text.translate(ASCII_FOLD).split("\n")))
                if "`\\" in text:
                    self._glue_suffixes()
                return self._words
            # The ASCII lines, the others left empty: `str.translate` reads a non-ASCII
            # string a character at a time through the table (a changelog with a few
            # accented names had each of its ten thousand lines folded alone).
            ascii_lines = list(map(str.isascii, lines))
            text = "\n".join(map(mul, lines, ascii_lines))
            self._words = list(map(str.split, text.translate(ASCII_FOLD).split("\n")))
            for index in compress(count(), map(not_, ascii_lines)):
                self._words[index] = words(lines[index])
            if "`\\" in text:
                self._glue_suffixes()
        return self._words

    def _glue_suffixes(self) -> None:
        """A suffix escaped onto inline markup (``:class:`Listener`\\s``) is one word with
        it, as Sphinx renders it and `credo.knowledge.doctor` reads it: "listeners", not
        "listener" and "s" (its paragraph could not be placed, and was lost)."""
        assert self._words is not None
        for index, line in enumerate(self.lines):
            if "`\\" in line and _GLUED.search(line):
                self._words[index] = words(_GLUED.sub("", line))

    def place(
        self, needle: list[str], raw: str, hint: int | None, lo: int, after: int
    ) -> Span | None:
        """Lines of a block whose words are `needle`, at or after line `lo` (preferably at
        or after `after`), found by its `raw` text or else by its words; see the module
        docstring."""
        if not needle:
            return None
        if raw:
            raw_lines = [line.strip() for line in raw.split("\n")] if "\n" in raw else [raw.strip()]
            start = self._by_raw(raw_lines, hint, lo, after)
            if start is not None:
                span = (start, start + len(raw_lines) - 1)
                if self.holds(needle, *span):
                    return span
        return self.locate(needle, hint, lo, after)

    def place_before(self, needle: list[str], raw: str, last: int, lo: int) -> Span | None:
        """Lines of a block that starts at line `last` or before it (back to `lo`): the
        nearest start whose lines match `raw` (or, without it, hold `needle`)."""
        if not needle:
            return None
        raw_lines = [line.strip() for line in raw.split("\n")] if raw else []
        for start in range(last, max(lo, last - _MAX_BACK, 1) - 1, -1):
            if raw_lines:
                end = start + len(raw_lines) - 1
                if self._match(raw_lines, start) and self.holds(needle, start, end):
                    return start, end
            elif needle[0] in self.line_words(start):
                found = self.align(needle, start, min(last + len(needle), len(self.lines)))
                if found is not None:
                    return start, found[-1]
        return None

    def _by_raw(self, raw: list[str], hint: int | None, lo: int, after: int) -> int | None:
        """The start line of `raw` in the source; see `_match` for what a match is."""
        count = len(self.lines)
        if hint is not None:
            if hint >= after and self._match(raw, hint) == _STRONG:
                return hint  # the usual case: docutils' line is the first line
            near = [
                (start < after, -grade, abs(start - hint), start)
                for start in range(max(lo, hint - len(raw)), min(count, hint + 1) + 1)
                if (grade := self._match(raw, start))
            ]
            if near:
                return min(near)[-1]
        for first, last in ((after, count), (lo, after - 1)):
            weak: int | None = None
            # Only a line holding the first raw line can start a match: the others are
            # passed over in C. The scan stops as a scan of every line would: at the first
            # line past the weak match's reach (which matches no better than weakly).
            for start in self._holding(raw[0], max(first, 1), min(last, first + _MAX_SCAN)):
                if weak is not None and start > weak + _WEAK_REACH + 1:
                    break
                grade = self._match(raw, start)
                if grade == _STRONG:
                    return start
                if grade and weak is None:
                    weak = start
                if weak is not None and start - weak > _WEAK_REACH:
                    break
            if weak is not None:
                return weak
        return None

    def _holding(self, part: str, first: int, last: int) -> Iterator[int]:
        """The lines `first`..`last` (in order) that hold the string `part`."""
        last = min(last, len(self.lines))
        if first > last:
            return
        if self._text is None:
            self._text = "\n".join(self.lines)  # (no line holds "\n")
            self._offsets = list(accumulate(map((1).__add__, map(len, self.lines)), initial=0))
        text, offsets = self._text, self._offsets
        begin, end = offsets[first - 1], offsets[last] - 1
        while (found := text.find(part, begin, end)) >= 0:
            number = bisect_right(offsets, found)  # the line `found` is on
            yield number
            begin = offsets[number]  # the next line's start

    def _match(self, raw: list[str], start: int) -> int:
        """How well source lines from `start` match `raw`, docutils' raw text of a block
        (its lines stripped): `_STRONG` when the first raw line ends its source line (what
        precedes it is a list, field or directive marker) and each further one is a whole
        source line; `_WEAK` when each raw line is only within its source line (a table
        cell); 0 when they do not match."""
        count = len(raw)
        lines = self.lines
        if start < 1 or start + count - 1 > len(lines):
            return 0
        first, head = lines[start - 1], raw[0]
        if head not in first:
            return 0
        if count == 1:  # (most blocks: no further lines to compare)
            return _STRONG if first.endswith(head) else _WEAK
        rest = lines[start : start - 1 + count]
        if first.endswith(head) and raw[1:] == [line.strip() for line in rest]:
            return _STRONG
        return _WEAK if all(part in line for part, line in zip(raw[1:], rest, strict=True)) else 0

    def locate(self, needle: list[str], hint: int | None, lo: int, after: int) -> Span | None:
        """The tightest token span holding `needle` in order, starting at line `lo` or
        later; among spans not much wider than the needle, the one nearest the hint (or
        `after`)."""
        token_lines = self._index()
        first = self._positions.get(needle[0])
        if not first:
            return None
        limit = _SPAN_FACTOR * len(needle) + _SPAN_SLACK
        target = hint if hint is not None else after
        best: tuple[tuple[bool, int, int], int, int] | None = None
        begin = bisect_left(first, self._first_token[min(max(lo, 1), len(self.lines)) - 1])
        for position in first[begin : begin + _MAX_CANDIDATES]:
            end = self._greedy(needle, position, position + limit)
            if end is None:
                continue
            span = end - position
            start_line = token_lines[position]
            key = (span > len(needle) + len(needle) // 2 + 4, abs(start_line - target), span)
            if best is None or key < best[0]:
                best = (key, start_line, token_lines[end])
        return None if best is None else (best[1], best[2])

    def _greedy(self, needle: list[str], position: int, limit: int) -> int | None:
        """Token index of the last word when `needle` is matched greedily from
        `position` (which holds its first word), or None past `limit`."""
        for word in needle[1:]:
            found = self._positions.get(word)
            if not found:
                return None
            index = bisect_right(found, position)
            if index == len(found) or found[index] > limit:
                return None
            position = found[index]
        return position

    def _index(self) -> list[int]:
        """The line of every word of the file, in file order, and where each word occurs
        (`_positions`, `_first_token`)."""
        if self._token_lines is None:
            every = self._every_line_words() if self.lines else []  # ("" folds to one line)
            counts = list(map(len, every))
            self._first_token = list(accumulate(counts, initial=0))
            lines = map(repeat, range(1, len(every) + 1), counts)
            self._token_lines = list(chain.from_iterable(lines))
            positions: defaultdict[str, list[int]] = defaultdict(list)
            for position, word in enumerate(chain.from_iterable(every)):
                positions[word].append(position)
            self._positions = dict(positions)  # (a plain dict: `get` must not add words)
        return self._token_lines

    def holds(self, needle: list[str], start: int, end: int) -> bool:
        """True when lines `start`..`end` hold `needle`'s words in order."""
        if start < 1 or end > len(self.lines) or end < start:
            return False
        # One iterator over the lines' words: each `in` scans on from the last match, in C.
        remaining = chain.from_iterable(self._every_line_words()[start - 1 : end])
        return all(map(contains, repeat(remaining), needle))

    def align(self, needle: list[str], start: int, end: int) -> list[int] | None:
        """The line of each word of `needle`, matched in order (greedily) within lines
        `start`..`end`; None when they are not all there."""
        if start < 1 or end > len(self.lines) or end < start:
            return None
        found: list[int] = []
        wanted = iter(needle)
        word = next(wanted, None)
        for number in range(start, end + 1):
            for token in self.line_words(number):
                if token == word:
                    found.append(number)
                    word = next(wanted, None)
                    if word is None:
                        return found
        return None if word is not None else found

    def text(self, start: int, end: int) -> str:
        """The source of lines `start`..`end`, as one line."""
        return " ".join(line.strip() for line in self.lines[start - 1 : end])
