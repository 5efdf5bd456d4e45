"""The compress stage's text rules (retrieval/compress.py): a candidate's text cut to a
query-biased snippet or a headline, as spans of the stored text.

Loaded only when the pack first meets a candidate long enough to be cut (its regular
expressions cost a fresh process ~1 ms to compile; a hook whose candidates are all short
never pays it). The rules are stated in compress.py's docstring and docs/RETRIEVAL.md §
Compress.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re
from typing import NamedTuple

from credo.retrieval.base_terms import base_terms
from credo.retrieval.compress import HEADLINE, SHORT_CHARS, SNIPPET, VERBATIM
from credo.store.index_text import has_special, index_words
from credo.store.stem import fold, stem, tokens

SNIPPET_CAP = 280  # a sentence longer than this (~70 tokens) is cut to a window of it
HEADLINE_MIN = 60  # a first sentence shorter than this (a heading) takes the next one
HEADLINE_CAP = 160
MIN_SAVING = 40  # a cut must save at least this many characters (~10 tokens)
GAP = "…"

# A sentence ends at a line break, or after . ! ? (and a closing quote or bracket) and
# white space when the next word does not start in lower case ("e.g. the" stays whole).
_BOUNDARY = re.compile(r"([.!?][\"')\]”’]?)\s+")
_ASCII_WORD = re.compile(r"[a-z0-9]*")
_ASCII_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789").__contains__
_UNICODE_WORD = re.compile(r"[^\W_]+")
_SPACE = re.compile(r"\s")

Span = tuple[int, int]


class Compressed(NamedTuple):
    """A candidate as rendered: its strategy, the text shown, and the spans of the stored
    text that text keeps, in order (joined by the white space between them, or by " … "
    where text was cut: each piece between two "…" is a substring of the stored text)."""

    strategy: str
    text: str
    spans: tuple[Span, ...]


class Terms:
    """The query's terms as the keyword index holds them (porter stems of the folded
    tokens of ``query_terms``, with their base words: ``inflection.with_base_words``),
    and a finder for the words of a text that carry them."""

    __slots__ = ("_heads", "stems")

    def __init__(self, query: str) -> None:
        terms = base_terms(query)  # (``_rank`` read them a moment before)
        self.stems = frozenset(stem(t) for term in terms for t in tokens(term))
        self._heads: list[str] | None = None

    def hits(self, text: str) -> list[tuple[int, str]]:
        """(offset, stem) of each word of ``text`` whose stem is a query term, in order."""
        wanted = self.stems
        if not wanted:
            return []
        if not text.isascii():
            if has_special(text):  # CJK bigrams, emoji: where each token starts
                return [(at, s) for at, w in index_words(text) if (s := stem(fold(w))) in wanted]
            return [
                (m.start(), s)
                for m in _UNICODE_WORD.finditer(text)
                if (s := stem(fold(m.group()))) in wanted
            ]
        heads = self._heads
        if heads is None:
            heads = self._heads = sorted({head(s) for s in wanted if s.isascii()})
        lower = text.lower()
        found: dict[int, str] = {}
        for prefix in heads:
            at = lower.find(prefix)
            while at >= 0:
                end = _ASCII_WORD.match(lower, at).end()  # type: ignore[union-attr]
                if (
                    (at == 0 or not _ASCII_ALNUM(lower[at - 1]))
                    and at not in found
                    and (s := stem(lower[at:end])) in wanted
                ):
                    found[at] = s
                at = lower.find(prefix, end)
        return sorted(found.items())


def head(stem_: str) -> str:
    """What every word with this porter stem starts with: the stem, but for a last "e",
    "i" or "l" that the stemmer may have written ("hope" <- "hoping", "happi" <- "happy",
    "capabl" <- "capabilities"; tested), so only words that start so need stemming."""
    return stem_[:-1] if len(stem_) > 1 and stem_[-1] in "eil" else stem_


def sentences(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """The sentences of ``text[start:end]`` as (start, end) spans of ``text``, without
    surrounding white space: a line break always ends one."""
    stop = len(text) if end is None else end
    spans: list[Span] = []
    while start < stop:
        line_end = text.find("\n", start, stop)
        line_end = stop if line_end < 0 else line_end
        spans += _line_sentences(text, start, line_end)
        start = line_end + 1
    return spans


def _line_sentences(text: str, start: int, end: int) -> list[Span]:
    """The sentences of one line, ``text[start:end]`` (no line break inside)."""
    spans: list[Span] = []
    for boundary in _BOUNDARY.finditer(text, start, end):
        after = boundary.end()
        if after < end and text[after].islower():
            continue  # "e.g. the": not the end of a sentence
        _keep(text, start, boundary.start() + len(boundary.group(1)), spans)
        start = after
    _keep(text, start, end, spans)
    return spans


def _keep(text: str, start: int, end: int, spans: list[Span]) -> None:
    piece = text[start:end]
    stripped = piece.strip()
    if stripped:
        start += len(piece) - len(piece.lstrip())
        spans.append((start, start + len(stripped)))


def _line(text: str, offset: int) -> Span:
    """The line of ``text`` around ``offset``: a line break always ends a sentence, so the
    sentences of a line are found without reading the rest of the text."""
    end = text.find("\n", offset)
    return text.rfind("\n", 0, offset) + 1, len(text) if end < 0 else end


def verbatim(text: str) -> Compressed:
    return Compressed(VERBATIM, text, ((0, len(text)),) if text else ())


def compress(
    text: str,
    terms: Terms,
    *,
    keep: bool = False,
    headline: bool = False,
    cap: int = SNIPPET_CAP,
) -> Compressed:
    """``text`` rendered for the query ``terms`` (the module docstring's rules); ``keep``:
    a locked or user-stated belief, always verbatim; ``headline``: its headline whatever
    the query, and ``cap`` a snippet's length (a snapshot below the head, with the
    retention rule "headline" or "tight")."""
    if keep or len(text) <= SHORT_CHARS:
        return verbatim(text)
    hits = [] if headline else terms.hits(text)
    if hits:
        strategy, spans = SNIPPET, _snippet(text, hits, cap)
    else:
        strategy, spans = HEADLINE, _headline(text)
    shown = join(text, spans)
    if not spans or len(shown) > len(text) - MIN_SAVING:
        return verbatim(text)
    return Compressed(strategy, shown, tuple(spans))


def join(text: str, spans: list[Span] | tuple[Span, ...]) -> str:
    """The kept spans, " … " where text between them (or before or after) was cut."""
    if not spans:
        return ""
    out = [f"{GAP} "] if text[: spans[0][0]].strip() else []
    previous = None
    for start, end in spans:
        if previous is not None:
            gap = text[previous:start]
            out.append(f" {GAP} " if gap.strip() else gap)  # white space kept as it is
        out.append(text[start:end])
        previous = end
    if text[spans[-1][1] :].strip():
        out.append(f" {GAP}")
    return "".join(out)


def _snippet(text: str, hits: list[tuple[int, str]], cap: int = SNIPPET_CAP) -> list[Span]:
    """The sentence that carries the most distinct query terms (the earlier on a tie), cut
    to a window of ``cap`` characters around its first matching word when it is longer."""
    carried: dict[Span, dict[str, int]] = {}  # sentence -> stem -> its first offset
    parts: list[Span] = []
    line_end = -1
    index = 0
    for offset, found in hits:  # in document order, so are the sentences found
        if offset >= line_end:  # the sentences of the hit's line, read once
            line_start, line_end = _line(text, offset)
            parts = _line_sentences(text, line_start, line_end)
            index = 0
        while index < len(parts) - 1 and parts[index][1] <= offset:
            index += 1
        if parts:
            carried.setdefault(parts[index], {}).setdefault(found, offset)
    # Each hit lies in a sentence of its line, so there is one at least; max() keeps the
    # first of equals: the earlier sentence (``carried`` is in document order).
    (start, end), stems = max(carried.items(), key=lambda item: len(item[1]))
    if end - start > cap:
        start, end = _window(text, start, end, min(stems.values()), cap)
    return [(start, end)]


def _headline(text: str) -> list[Span]:
    kept: list[Span] = []
    size = 0
    line_start, line_end = 0, -1
    while line_end < len(text):
        line_start, line_end = _line(text, line_end + 1)
        for start, end in sentences(text, line_start, line_end):
            if not kept and end - start > HEADLINE_CAP:
                return [_window(text, start, end, start, HEADLINE_CAP)]
            if kept and (size >= HEADLINE_MIN or size + 1 + end - start > HEADLINE_CAP):
                return kept
            kept.append((start, end))
            size += end - start + (1 if size else 0)
    return kept


def _window(text: str, start: int, end: int, focus: int, cap: int) -> Span:
    """At most ``cap`` characters of ``text[start:end]`` around ``focus`` (a third of the
    cap before it), cut at white space so no word is split."""
    left = max(start, min(focus - cap // 3, end - cap))
    right = min(end, left + cap)
    if left > start:  # start at the next word
        space = _SPACE.search(text, left, right)
        left = space.end() if space and space.end() <= focus else left
    if right < end:  # end at the last whole word
        cut = text.rfind(" ", left, right + 1)
        right = cut if cut > max(left, focus) else right
    while right > left and text[right - 1].isspace():
        right -= 1
    return left, right
