"""Near-identical passages shown once: a packed passage whose text is the same as a better-ranked
one's once each passage's own names are taken out is folded into it, and named on its line.

Code repeats itself: ``Client.get`` and ``Client.head`` differ in one word, ``AsyncClient``'s
methods copy ``Client``'s with ``async`` and ``await`` added, a library ships the same
function in two builds (``v4/classic/schemas.ts`` and ``v4/mini/schemas.ts``). Ranked on their
own, such copies score alike and take the top places together: a reader sees one answer
four times and misses the next distinct one. The fold keeps the first (the best-ranked) and
names the others on its line, where they are, so the reader still learns each one exists
and can open it:

    [b4] def get(self, url, ...) ... (L1036-L1063; also AsyncClient › get L1751-L1778)

What makes two passages siblings (``near_identical``): their *shapes* match, a shape being the
multiset of the words of a passage's text less the names of its own place, which differ
between siblings by definition: each identifier equal (in any case) to one of its section
titles' names is taken out whole (``get`` and ``GET`` in ``Client › get``; a parameter
``auth`` of ``_send_handling_auth`` stays), the others are split at case changes and
underscores (``ZodMiniEmail`` -> zod mini email), and the words of its file's path are
taken out of what remains (``mini`` in ``v4/mini/schemas.ts``). Two shapes match when
the words they share make at least ``SAME_SHARE`` of both (Dice over multisets), and each
has at least ``MIN_WORDS``: a bare ``def close(self)`` says too little to call two
passages the same.

Only passages that ingest placed (a trail of ``place.parse``'s form) take part, and only
plain ones: a lock, or a belief that replaces or contradicts another, is never folded and
never folds another. Folding happens after the pack, in the listing (not in the candidate
set: ranking and the pack are unchanged); the pack is then charged again as it renders (the
folded lines leave it, the ``also`` text joins the first's line: ``recharge``), so its
tokens are still the estimate of its text, and never past the budget (else no fold).

Pure and deterministic: beliefs in, beliefs out, by listing order and text alone.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Mapping, Sequence

from credo.retrieval.place import Place, Places, parse, tokens_of, whole_chars
from credo.tokens import escaped_len
from credo.types import DocAnchor, RetrievedBelief

SAME_SHARE = 0.9  # Dice share of words two shapes must have in common
MIN_WORDS = 6  # a shape with fewer words is never folded (nor folds another)
MAX_NAMED = 3  # siblings named on one line; more are left in the listing as they were
ALSO = "also "  # starts the text naming a passage's siblings, after its lines

# Identifiers and numbers, in any script: a passage's prose in Russian or Chinese is its
# words too (else two different passages quoting one call would have the same shape).
_NAMES = re.compile(r"(?:[^\W\d]|\$)[\w$]*|\d+")
# Words as identifiers are read: runs of capitals before a capitalised word, capitalised or
# lower-case runs, capitals, digits ("ZodMiniEmail" -> zod mini email).
_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_PARTS = re.compile(r"[^\W_]+")  # runs of letters and digits, in any script


def words(text: str) -> list[str]:
    """The words of ``text``: ASCII runs split as identifiers are read, others whole."""
    if text.isascii():
        return [w.lower() for w in _WORDS.findall(text)]
    return [
        w.lower()
        for part in _PARTS.findall(text)
        for w in (_WORDS.findall(part) if part.isascii() else (part,))
    ]


def shape(content: str, place: Place) -> Counter[str]:
    """The words of ``content`` less its own names: identifiers equal to a name in its
    section titles, then the words of its file's path."""
    names = {n.lower() for n in _NAMES.findall(place.section)}
    kept = " ".join([n for n in _NAMES.findall(content) if n.lower() not in names])
    # (one pass over the kept identifiers: no word spans the spaces that join them)
    counts = Counter(words(kept))
    for word in words(place.file):
        counts.pop(word, None)
    return counts


def near_identical(a: Counter[str], b: Counter[str]) -> bool:
    """Both shapes have ``MIN_WORDS`` words or more, and share ``SAME_SHARE`` of them."""
    size_a, size_b = a.total(), b.total()
    if min(size_a, size_b) < MIN_WORDS:
        return False
    # (Dice can reach the share only when the sizes are close: a cheap test first)
    if 2 * min(size_a, size_b) < SAME_SHARE * (size_a + size_b):
        return False
    shared = (a & b).total()
    return 2 * shared >= SAME_SHARE * (size_a + size_b)


# A passage's shape, its size and its distinct words, by (trail, text): a shape is the
# stored passage's alone, so a long-lived process makes each once (bounded, then cleared).
Shaped = tuple[Counter[str], int, frozenset[str]]
_SHAPED: dict[tuple[str, str], "Shaped | None"] = {}
MAX_SHAPED = 4096
_UNSHAPED = object()  # not in the cache (a shape may be None)


def _shaped(content: str, trail: str) -> "Shaped | None":
    key = (trail, content)
    # (one read, not a test then a read: another thread's retrieval, on another store of
    # the server, may clear the cache between the two)
    made = _SHAPED.get(key, _UNSHAPED)
    if made is not _UNSHAPED:
        return made  # type: ignore[return-value]
    place = parse(trail)
    counts = shape(content, place) if place is not None else None
    made = (counts, counts.total(), frozenset(counts)) if counts is not None else None
    if len(_SHAPED) >= MAX_SHAPED:
        _SHAPED.clear()
    _SHAPED[key] = made
    return made


def _matches(a: Shaped, b: Shaped) -> bool:
    """``near_identical``, after two tests in C over the sizes and the distinct words: each
    word of one missing from the other is at least one word the two cannot share."""
    size_a, size_b = a[1], b[1]
    need = SAME_SHARE * (size_a + size_b) / 2  # the words they must share
    if min(size_a, size_b) < MIN_WORDS or min(size_a, size_b) < need:
        return False
    if size_a - len(a[2] - b[2]) < need or size_b - len(b[2] - a[2]) < need:
        return False
    return near_identical(a[0], b[0])


def sibling_name(first: Place, other: Place) -> str:
    """How ``first``'s line names ``other``: its section and lines when in the same file,
    else its whole trail."""
    if other.file == first.file and other.section:
        return f"{other.section} {other.lines}"
    return other.trail


def also_text(names: Sequence[str]) -> str:
    return ALSO + "; ".join(names)


def _foldable(belief: RetrievedBelief) -> bool:
    return not (belief.locked or belief.replaces or belief.conflicts or belief.superseded_by)


def fold(beliefs: Sequence[RetrievedBelief]) -> dict[int, list[int]]:
    """Index of a first passage -> the indices of its siblings folded into it (at most
    ``MAX_NAMED``, in listing order); {} when none. A sibling is folded into the first
    passage above it whose shape it matches, that is not itself folded."""
    # The firsts so far, by size: only those of a size the share allows are tried, in
    # listing order (``_sizes``), so a query compares few pairs however long its listing.
    sizes: list[int] = []
    firsts: list[tuple[int, Shaped]] = []  # (index, shape), in ``sizes``' order
    folded: dict[int, list[int]] = {}
    for index, belief in enumerate(beliefs):
        if not belief.trail or not _foldable(belief):
            continue
        mine = _shaped(belief.content, belief.trail)
        if mine is None or mine[1] < MIN_WORDS:  # (no place to name it by; too short)
            continue
        low, high = _sizes(mine[1])
        near = sorted(firsts[bisect_left(sizes, low) : bisect_right(sizes, high)])
        for first, theirs in near:
            if _matches(theirs, mine) and len(folded.get(first, ())) < MAX_NAMED:
                folded.setdefault(first, []).append(index)
                break
        else:
            at = bisect_right(sizes, mine[1])
            sizes.insert(at, mine[1])
            firsts.insert(at, (index, mine))
    return folded


def _sizes(size: int) -> tuple[int, int]:
    """The sizes a shape of ``size`` words may share ``SAME_SHARE`` of its words with (the
    smaller must hold the shared words), widened by one each way: ``_matches`` decides."""
    return (
        int(SAME_SHARE * size / (2 - SAME_SHARE)) - 1,
        int(size * (2 - SAME_SHARE) / SAME_SHARE) + 1,
    )


def folded_listing(
    beliefs: Sequence[RetrievedBelief], folds: Mapping[int, Sequence[int]]
) -> tuple[list[RetrievedBelief], list[int]]:
    """The listing with each fold's siblings left out and named on its first's line
    (``also``, ``siblings``), and the index in ``beliefs`` of each belief kept."""
    gone = {i for siblings in folds.values() for i in siblings}
    out: list[RetrievedBelief] = []
    kept: list[int] = []
    for index, belief in enumerate(beliefs):
        if index in gone:
            continue
        if (siblings := folds.get(index)) is not None:
            first = parse(belief.trail)
            assert first is not None  # (``fold`` folds only parsed places)
            names = [sibling_name(first, parse(beliefs[i].trail)) for i in siblings]  # type: ignore[arg-type]
            belief = belief._replace(
                also=also_text(names), siblings=tuple(beliefs[i].id for i in siblings)
            )
        out.append(belief)
        kept.append(index)
    return out, kept


def also_chars(also: str) -> int:
    """What ``also`` adds to its line: ``; `` and the text, inside the line's brackets."""
    return 2 + escaped_len(also) if also else 0


def recharge(
    beliefs: list[RetrievedBelief], lines: Mapping[str, int], places: Places
) -> tuple[list[RetrievedBelief], int]:
    """The unlocked ``beliefs`` charged again as their lines render, in listing order (each
    its line, its ``also`` text and the file and section lines it is the first to need),
    and what they cost in all."""
    unlocked = [b for b in beliefs if not b.locked]
    ids = [b.id for b in unlocked]
    grown = {b.id: lines[b.id] + also_chars(b.also) for b in unlocked}
    out: list[RetrievedBelief] = []
    chars = 0
    added = iter(whole_chars(ids, grown, places))
    for belief in beliefs:
        if belief.locked:
            out.append(belief)
            continue
        before = chars
        chars += next(added)
        out.append(belief._replace(tokens=tokens_of(chars) - tokens_of(before)))
    return out, tokens_of(chars)


def folded(
    beliefs: list[RetrievedBelief], lines: Mapping[str, int], places: Places, room: int
) -> tuple[list[RetrievedBelief], int] | None:
    """The packed ``beliefs`` (locks first, then by rank) with their siblings folded and
    charged again (``recharge``: the unlocked ones' tokens in all), or None when none folds
    or the folded lines would cost more than ``room`` (the budget the pack had): the pack
    then stands as it is. (A name is most often shorter than the line it replaces, but a
    sibling in another file, under file and section lines that stay, is named by its whole
    trail, which may be longer.)"""
    folds = fold(beliefs)
    if not folds:
        return None
    listing, _ = folded_listing(beliefs, folds)
    charged, used = recharge(listing, lines, places)
    return (charged, used) if used <= room else None


def anchors_with_siblings(
    belief: RetrievedBelief, found: Mapping[str, list[DocAnchor]]
) -> tuple[DocAnchor, ...]:
    """A passage's anchors, then the ingest anchors (the places) of its folded siblings: they
    are named on its line."""
    own = tuple(found.get(belief.id, ()))
    if not belief.siblings:
        return own
    theirs = (a for s in belief.siblings for a in found.get(s, ()) if a.anchor_type == "ingest")
    return own + tuple(theirs)


__all__ = [
    "ALSO",
    "MAX_NAMED",
    "MIN_WORDS",
    "SAME_SHARE",
    "also_chars",
    "anchors_with_siblings",
    "fold",
    "folded",
    "folded_listing",
    "near_identical",
    "recharge",
    "shape",
    "words",
]
