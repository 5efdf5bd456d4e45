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
  Sentences are taken by how many distinct query terms they carry (ties: the earlier
  sentence), each only if it adds a term not yet shown and the snippet stays within
  ``SNIPPET_CAP`` characters; the first is always kept (a sentence longer than the cap is
  cut to a window of the cap around its first matching word, at word boundaries).
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
from collections.abc import Callable, Mapping
from typing import NamedTuple

from credo.store.fts import query_terms
from credo.store.stem import fold, stem, tokens
from credo.tokens import CHARS_PER_TOKEN, belief_tokens

VERBATIM = "verbatim"
SNIPPET = "snippet"
HEADLINE = "headline"
STRATEGIES = (VERBATIM, SNIPPET, HEADLINE)
COMPRESS_MODES = ("auto", "always", "off")  # pipeline.Options.compress

SHORT_CHARS = 200  # at most this long: verbatim (~50 tokens)
SNIPPET_CAP = 280  # a snippet's kept text, at most (~70 tokens), but its first sentence
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
    tokens of ``query_terms``), and a finder for the words of a text that carry them."""

    __slots__ = ("_heads", "stems")

    def __init__(self, query: str) -> None:
        self.stems = frozenset(stem(t) for term in query_terms(query) for t in tokens(term))
        self._heads: list[str] | None = None

    def hits(self, text: str) -> list[tuple[int, str]]:
        """(offset, stem) of each word of ``text`` whose stem is a query term, in order."""
        wanted = self.stems
        if not wanted:
            return []
        if not text.isascii():
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


def compress(text: str, terms: Terms, *, keep: bool = False) -> Compressed:
    """``text`` rendered for the query ``terms`` (the module docstring's rules); ``keep``:
    a locked or user-stated belief, always verbatim."""
    if keep or len(text) <= SHORT_CHARS:
        return verbatim(text)
    hits = terms.hits(text)
    if hits:
        strategy, spans = SNIPPET, _snippet(text, hits)
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


def _snippet(text: str, hits: list[tuple[int, str]]) -> list[Span]:
    """The sentences that carry the most of the query's terms, within the cap, in document
    order (module docstring)."""
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
    # Most distinct terms first, then the earlier; each taken if it adds a term and fits.
    ranked = sorted(carried.items(), key=lambda item: -len(item[1]))  # stable: earlier first
    covered: set[str] = set()
    chosen: list[Span] = []
    used = 0
    for (start, end), stems in ranked:
        if covered.issuperset(stems):
            continue
        if not chosen and end - start > SNIPPET_CAP:
            start, end = _window(text, start, end, min(stems.values()), SNIPPET_CAP)
        elif chosen and used + 3 + end - start > SNIPPET_CAP:
            continue  # does not fit; a shorter sentence may still add its terms
        chosen.append((start, end))
        used += end - start + (3 if used else 0)
        covered.update(stems)
    chosen.sort()
    return chosen


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


class Costs(dict[str, int]):
    """Token cost of each candidate as the compress stage renders it, computed on first
    lookup from its content, marks and trail; ``cut`` holds the candidates it cut."""

    __slots__ = ("_content", "_keep", "_marked", "_query", "_terms", "_trails", "cut")

    def __init__(
        self,
        content: Mapping[str, str],
        marked: Mapping[str, str],
        trails: Mapping[str, str],
        query: str,
        keep: "set[str] | Callable[[], set[str]]",
    ) -> None:
        super().__init__()
        self._content = content
        self._marked = marked
        self._trails = trails
        self._query = query
        self._terms: Terms | None = None  # read only when a long candidate is rendered
        self._keep = keep
        self.cut: dict[str, Compressed] = {}

    def __missing__(self, belief_id: str) -> int:
        text = self._content[belief_id]
        if len(text) > SHORT_CHARS and belief_id not in self._kept():
            terms = self._terms
            if terms is None:
                terms = self._terms = Terms(self._query)
            shown = compress(text, terms)
            if shown.strategy != VERBATIM:
                self.cut[belief_id] = shown
                text = shown.text
        trail = self._trails.get(belief_id, "")
        cost = self[belief_id] = belief_tokens(
            belief_id, text, False, self._marked[belief_id], trail
        )
        return cost

    def _kept(self) -> set[str]:
        keep = self._keep
        if not isinstance(keep, set):  # read when the first long candidate is met
            keep = self._keep = keep()
        return keep

    def shown(self, belief_id: str) -> tuple[str, str]:
        """(strategy, text shown) of a candidate whose cost was asked for."""
        found = self.cut.get(belief_id)
        return (VERBATIM, self._content[belief_id]) if found is None else found[:2]


def verbatim_ids(
    ids: list[str],
    content: Mapping[str, str],
    marked: Mapping[str, str],
    trails: Mapping[str, str],
    budget: int,
    mode: str,
    stated: Callable[[list[str]], set[str]],
) -> "set[str] | Callable[[], set[str]]":
    """The long candidates the compress stage must show verbatim (it never cuts short
    ones): all of them when compression is off or when every candidate fits the budget
    whole (``mode`` "auto": a cut would only hide text for nothing); else what a person
    stated or corrected, read by ``stated`` (``Store.stated``, one batched query) only when
    the pack first reaches a long candidate: returned as that reader."""
    long = [i for i in ids if len(content[i]) > SHORT_CHARS]
    if not long or mode == "off":
        return set(long)
    if mode == "auto" and _fits_whole(ids, content, marked, trails, budget):
        return set(long)
    return lambda: stated(long)


def _fits_whole(
    ids: list[str],
    content: Mapping[str, str],
    marked: Mapping[str, str],
    trails: Mapping[str, str],
    budget: int,
) -> bool:
    # A line costs at least (its text + id + "[] \n") / 4: most packs are ruled out here.
    if sum(len(content[i]) + len(i) + 4 for i in ids) > CHARS_PER_TOKEN * budget:
        return False
    whole = 0
    for i in ids:
        whole += belief_tokens(i, content[i], False, marked[i], trails.get(i, ""))
        if whole > budget:
            return False
    return True
