"""The compress stage: how each candidate is rendered in the pack, chosen before it is packed.

SYSTEM.md names the pipeline rank -> cluster -> compress -> pack. What reaches the agent is
the pack, and a long passage that answers with one sentence would spend a budget's worth of
lines on the rest. So each candidate is rendered by one of three strategies, and the pack
charges what is rendered (``tokens.belief_tokens`` over the rendered text):

- **verbatim**: the text as stored. Always for what a person stated or corrected (origin
  ``user_stated`` / ``user_corrected``, kind ``correction``), for locked beliefs (placed by
  L0, never compressed), and for any text of at most ``SHORT_CHARS`` characters (~50
  tokens: a cut would save too little to be worth a gap).
- **snippet** (query-biased): the sentences that carry the query's terms, in document
  order, with "…" where text is cut. A term is what the keyword index makes of a query
  word (``store.stem``: unicode61 folding and porter stems, tested against FTS5), so a
  sentence "carries" a term exactly when the keyword lane would match it there.
  Sentences are chosen greedily by how many of the query's terms not yet covered they add
  (ties: the earlier sentence), while the snippet stays within ``SNIPPET_CAP`` characters;
  the first is always kept (a sentence longer than the cap is cut to a window of the cap
  around its first matching word, at word boundaries).
- **headline**: when no sentence carries a term (a candidate the graph or session lanes
  brought), the first sentence, joined by the next ones while it is shorter than
  ``HEADLINE_MIN`` (a heading alone says little) and within ``HEADLINE_CAP``.

A snippet or headline that would save fewer than ``MIN_SAVING`` characters is verbatim
instead. Sentences are cut at line breaks and after ``.``, ``!`` or ``?`` (a closing quote
or bracket may follow) when the next word does not start in lower case. Every kept piece is
a span of the stored text, in order (``Compressed.spans``): a snippet never changes a
character it keeps. The full text stays reachable: ``credo show ID``, the MCP tool
``get_belief``, and for a passage of a document its trail (``path › section L40-L58``),
which the rendered line carries.

Pure and deterministic: text and query in, text out; the query's terms are computed once
per retrieve (``Terms``) and only the candidates the pack reaches are compressed.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re
from typing import NamedTuple

from credo.store.fts import query_terms
from credo.store.stem import fold, stem, tokens

VERBATIM = "verbatim"
SNIPPET = "snippet"
HEADLINE = "headline"
STRATEGIES = (VERBATIM, SNIPPET, HEADLINE)

SHORT_CHARS = 200  # at most this long: verbatim (~50 tokens)
SNIPPET_CAP = 280  # a snippet's kept text, at most (~70 tokens), but its first sentence
HEADLINE_MIN = 60  # a first sentence shorter than this (a heading) takes the next one
HEADLINE_CAP = 160
MIN_SAVING = 40  # a cut must save at least this many characters (~10 tokens)
GAP = "…"

# A sentence ends at a line break, or after . ! ? (and a closing quote or bracket) followed
# by white space and a character that is not a lower-case letter ("e.g. the" stays whole).
_BOUNDARY = re.compile(r"\s*\n\s*|(?:(?<=[.!?])|(?<=[.!?][\"')\]”’]))\s+(?=[^a-z\s])")
_SPACE = re.compile(r"\s")

Span = tuple[int, int]


class Compressed(NamedTuple):
    """A candidate as rendered: its strategy, the text shown, and the spans of the stored
    text that text keeps, in order (joined by " " or by " … " where text was cut)."""

    strategy: str
    text: str
    spans: tuple[Span, ...]


class Terms:
    """The query's terms as the keyword index holds them (porter stems of the folded
    tokens of ``query_terms``), and a finder for the words of a text that carry them."""

    __slots__ = ("_finder", "stems")

    def __init__(self, query: str) -> None:
        self.stems = frozenset(stem(t) for term in query_terms(query) for t in tokens(term))
        self._finder: re.Pattern[str] | None = None

    def hits(self, text: str) -> list[tuple[int, str]]:
        """(offset, stem) of each word of ``text`` whose stem is a query term, in order."""
        if not self.stems:
            return []
        wanted = self.stems
        if not text.isascii():
            return [
                (m.start(), s)
                for m in re.finditer(r"[^\W_]+", text)
                if (s := stem(fold(m.group()))) in wanted
            ]
        finder = self._finder
        if finder is None:
            # A porter stem is the word's prefix but for its last letter ("hope" <- "hoping",
            # "happi" <- "happy"), so only words that start so need stemming (tested).
            heads = sorted({s[:-1] or s for s in wanted if s.isascii()}, key=lambda h: (-len(h), h))
            if not heads:
                return []
            alternation = "|".join(map(re.escape, heads))
            finder = self._finder = re.compile(
                rf"(?<![A-Za-z0-9])(?:{alternation})[A-Za-z0-9]*", re.IGNORECASE
            )
        return [
            (m.start(), s) for m in finder.finditer(text) if (s := stem(m.group().lower())) in wanted
        ]


def sentences(text: str) -> list[Span]:
    """The sentences of ``text`` as (start, end) spans, without surrounding white space."""
    spans: list[Span] = []
    start = 0
    for boundary in _BOUNDARY.finditer(text):
        _add(text, start, boundary.start(), spans)
        start = boundary.end()
    _add(text, start, len(text), spans)
    return spans


def _add(text: str, start: int, end: int, spans: list[Span]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        spans.append((start, end))


def verbatim(text: str) -> Compressed:
    return Compressed(VERBATIM, text, ((0, len(text)),) if text else ())


def compress(text: str, terms: Terms, *, keep: bool = False) -> Compressed:
    """``text`` rendered for the query ``terms`` (the module docstring's rules); ``keep``:
    a locked or user-stated belief, always verbatim."""
    if keep or len(text) <= SHORT_CHARS:
        return verbatim(text)
    parts = sentences(text)
    hits = terms.hits(text)
    if hits:
        strategy, spans = SNIPPET, _snippet(text, parts, hits)
    else:
        strategy, spans = HEADLINE, _headline(text, parts)
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
            out.append(f" {GAP} " if text[previous:start].strip() else " ")
        out.append(text[start:end])
        previous = end
    if text[spans[-1][1] :].strip():
        out.append(f" {GAP}")
    return "".join(out)


def _snippet(text: str, parts: list[Span], hits: list[tuple[int, str]]) -> list[Span]:
    """The sentences chosen by new-term coverage within the cap, in document order."""
    carried: dict[int, dict[str, int]] = {}  # sentence index -> stem -> first offset
    index = 0
    for offset, found in hits:
        while index + 1 < len(parts) and parts[index][1] <= offset:
            index += 1
        carried.setdefault(index, {}).setdefault(found, offset)
    covered: set[str] = set()
    chosen: dict[int, Span] = {}
    tried: set[int] = set()
    used = 0
    while True:
        best, gain = -1, 0
        for i, stems in carried.items():  # in document order: ties go to the earlier
            new = len(stems.keys() - covered)
            if i not in tried and new > gain:
                best, gain = i, new
        if best < 0:
            break
        tried.add(best)
        start, end = parts[best]
        if not chosen and end - start > SNIPPET_CAP:
            start, end = _window(text, start, end, min(carried[best].values()), SNIPPET_CAP)
        elif chosen and used + 3 + end - start > SNIPPET_CAP:
            continue  # does not fit; a shorter sentence may still add its terms
        chosen[best] = (start, end)
        used += end - start + (3 if used else 0)
        covered |= carried[best].keys()
    return [chosen[i] for i in sorted(chosen)]


def _headline(text: str, parts: list[Span]) -> list[Span]:
    if not parts:
        return []
    start, end = parts[0]
    if end - start > HEADLINE_CAP:
        return [_window(text, start, end, start, HEADLINE_CAP)]
    kept = [(start, end)]
    size = end - start
    for span in parts[1:]:
        if size >= HEADLINE_MIN or size + 1 + span[1] - span[0] > HEADLINE_CAP:
            break
        kept.append(span)
        size += 1 + span[1] - span[0]
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


__all__ = [
    "HEADLINE",
    "SNIPPET",
    "STRATEGIES",
    "VERBATIM",
    "Compressed",
    "Terms",
    "compress",
    "join",
    "sentences",
    "verbatim",
]
