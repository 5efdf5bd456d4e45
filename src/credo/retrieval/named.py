"""A definition the question names, brought into the candidates whatever its keyword rank.

"what does Execute return" names cobra's ``Command.Execute``; but "execute" is in 210 of
cobra's 595 passages (every test calls ``executeCommand``), so the definition, whose
passage holds "execute" and not "return", ranked 72nd by BM25F, past the keyword limit
(day-probe76): no lane saw it. A word written as an identifier is written (capitalised
where no sentence starts, camelCase, snake_case: ``Execute``, ``ExactArgs``,
``from_boxed``) that is a definition's name (the last section of a passage's trail,
``command.go › Command › Execute L964-L970``, compared case-insensitively) brings that
definition's own passage (its head: ``Store.passage_definitions``) in as a keyword hit, at
the score BM25F gives it. At most ``PER_NAME`` for one name, the most specific first: the
name as written before one only equal in case, then outside test code, then the shortest
definition, then by trail. One whose name is as written, and which the name tells apart
(``_telling``), scores as the best keyword hit: the word is the one that matches best,
however common (else ``Execute`` came in 43rd).

A path, ``Error::msg`` (Rust, C++) or ``Error.msg`` (Python, JS, Go), names the definition
``msg`` inside ``Error``: a passage whose trail ends ``› Error › msg L..`` (or whose file
is ``error.*`` and ends ``› msg L..``). That is no guess at a topic but the definition
itself, as a file's path names the file (retrieval/head.py): each one so named leads the
ranking (``lift_paths``), its gain listed as the part ``named``.

A question with no capital past its first letter, no ``_``, ``:`` or ``.`` is not read
further (C-level string checks); one that names nothing asks nothing of the store.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import chain
from typing import TYPE_CHECKING, NamedTuple

from credo.retrieval.head import first_line
from credo.retrieval.prior import is_test
from credo.retrieval.rank import ID, PARTS, SCORE, Ranked
from credo.retrieval.specific import GRAIN, by_id, by_score, sections
from credo.types import TRAIL_SEPARATOR, line_span, split_lines

if TYPE_CHECKING:
    from credo.store import Store
    from credo.store.defns import DefnHit
    from credo.store.fts import CandidateRow

PER_NAME = 3  # definitions one name brings in: a name is a method of several types at most
MAX_NAMES = 4  # names looked up for one question (in one index read)
_ALL = 1 << 30  # (``context_phrase_ids``: every row the name scores in)

# ``A::b`` or ``A.b`` (not a file name's ``.py``: the doc lane reads those; the owner and
# the name are identifiers, the name starting with a letter or ``_``).
_PATH = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)(?:::|\.)([A-Za-z_][A-Za-z0-9_]*)\b")
_WORD = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*")
# Where a sentence starts: a capital there is the sentence's ("What ...", "... . How do").
_SENTENCE_START = re.compile(r"(?:^|[.?!:;]\s+)\W*$")
_FILE_SUFFIXES = frozenset(
    "py pyi js mjs cjs ts tsx jsx go rs rb java kt c h cc cpp hpp cs md rst txt toml yaml yml "
    "json cfg ini sh html css".split()
)


class Named(NamedTuple):
    """A name the question writes as an identifier, and the owner its path gives ("" for
    a bare name)."""

    owner: str
    name: str


def named_in(text: str) -> tuple[Named, ...]:
    """``_named_in``, for a question that may name something: one with a capital past its
    first letter, or a ``_``, ``:`` or ``.`` (most questions: none, and C-level checks)."""
    rest = text[1:]
    if rest == rest.lower() and "_" not in rest and ":" not in rest and "." not in rest:
        return ()
    return _named_in(text)


@lru_cache(maxsize=64)  # (both steps of a query read it)
def _named_in(text: str) -> tuple[Named, ...]:
    """The paths (``Error::msg``) and identifier-shaped words (``Execute``, ``ExactArgs``,
    ``from_boxed``) of a question, paths first, each once, at most ``MAX_NAMES``. A
    capitalised word that starts a sentence is the sentence's ("What", "How": not read)."""
    out: dict[tuple[str, str], None] = {}
    taken: list[tuple[int, int]] = []
    for m in _PATH.finditer(text):
        taken.append(m.span())  # ("mergeConfig.js" names a file, not the function)
        if m.group(2).lower() in _FILE_SUFFIXES or min(len(m.group(1)), len(m.group(2))) < 2:
            continue
        out[(m.group(1), m.group(2))] = None
    for m in _WORD.finditer(text):
        word = m.group(0)
        if any(a <= m.start() < b for a, b in taken) or len(word) < 2:
            continue
        if _identifier_shaped(word) or (
            _capitalised(word) and _SENTENCE_START.search(text, 0, m.start()) is None
        ):
            out.setdefault(("", word), None)
    return tuple(Named(owner, name) for owner, name in out)[:MAX_NAMES]


def _identifier_shaped(word: str) -> bool:
    """snake_case, camelCase or PascalCase (not an acronym: "HTTP", "JSON")."""
    if "_" in word.strip("_"):
        return True
    return any(c.isupper() for c in word[1:]) and any(c.islower() for c in word)


def _capitalised(word: str) -> bool:
    """``Execute``: an identifier only where no sentence starts (the caller asks)."""
    return word[0].isupper() and word[1:].islower()


def _last_name(trail: str) -> str:
    """The name a trail ends with, without its line range (``a.go › T › Run L3-L9`` ->
    Run); "" for a trail with no section (a file's own lines). ``sections``' last title,
    without making the others (``names_ahead`` asks it of every passage)."""
    _, separator, last = split_lines(trail)[0].rpartition(TRAIL_SEPARATOR)
    return last.strip() if separator else ""


def _owner_matches(trail: str, owner: str) -> bool:
    """Whether the section before the trail's last one is ``owner`` (case-insensitively),
    or, the name being the file's own, the file's stem (``api.get``: ``api.py › get``)."""
    path, titles = sections(trail)
    wanted = owner.lower()
    if len(titles) >= 2:
        return titles[-2].lower() == wanted
    return path.rsplit("/", 1)[-1].split(".", 1)[0].lower() == wanted


class Found(NamedTuple):
    """The head passages of the definitions a question names: every one (in order), and
    those whose name is as the question writes it and tells them apart (``_telling``)."""

    every: list[str]
    as_written: list[str]


def named_definitions(store: Store, asked: list[Named]) -> Found:
    """The head passages of the definitions ``asked`` (``named_in``) names; empty lists
    when the store holds none of them. The passages whose trail ends with each name
    (``_passages_named``), then one read of their definitions, however many names."""
    by_name, trails = _passages_named(store, [named.name.lower() for named in asked])
    if not by_name:
        return Found([], [])
    matching = {
        named: [i for i in by_name.get(named.name.lower(), ()) if _owns(named, trails[i])]
        for named in asked
    }
    if not any(matching.values()):
        return Found([], [])
    defined = store.passage_definitions(list(chain.from_iterable(matching.values())))
    out: dict[str, None] = {}
    written: dict[str, None] = {}
    for named, found in matching.items():
        if not found:
            continue
        heads = _heads(defined, found, trails)
        heads.sort(key=lambda i: _specific(trails[i], named.name))
        for i in heads[:PER_NAME]:
            out[i] = None
            if _last_name(trails[i]) == named.name and _telling(named, trails[i]):
                written[i] = None
    return Found(list(out), list(written))


def _passages_named(
    store: Store, names: list[str]
) -> tuple[dict[str, Sequence[str]], Mapping[str, str]]:
    """Each of ``names`` (lowercased) some live, unlocked passage's trail ends with
    (case-insensitively) -> those passages, in id order; and their trails. From the map the
    warm index made of its version (``names_ahead``: no read but their trails, which it
    caches); else one read of the context index for all the names (an OR of their phrases:
    a passage whose trail ends with a name holds it in its context, the trail being its
    first line, so each name's rows are among them), then one of their trails."""
    held = getattr(store.warm_ahead(), "names", None)
    if held is not None:
        by_name = {name: found for name in dict.fromkeys(names) if (found := held.get(name))}
        if not by_name:
            return {}, {}
        trails = store.trails(chain.from_iterable(by_name.values()))
        # (one another connection deleted as this query ran has no trail: left out, as the
        # context read's trails leave it out)
        return {name: [i for i in found if i in trails] for name, found in by_name.items()}, trails
    ids = store.context_phrase_ids(list(dict.fromkeys(names)), limit=_ALL)
    if not ids:
        return {}, {}
    trails = store.trails(ids)
    wanted = set(names)
    read: dict[str, list[str]] = {}
    for i, trail in trails.items():
        if (name := _last_name(trail).lower()) in wanted:
            read.setdefault(name, []).append(i)
    return dict(read), trails


def names_ahead(ids: Iterable[str], trails: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """What ``_passages_named`` reads of the context index for any name, for every name at
    once: each name ``named_in`` can give (lowercased: an ASCII identifier of two characters
    or more) that the trail of one of ``ids`` (the live, unlocked beliefs; ``trails``: id ->
    trail, of the live ones with one) ends with -> those of ``ids``, in id order. Made at a
    warm index read (retrieval/ahead.py): a question naming a definition then reads no index
    (the context read was ~75% of the step: FTS5 decodes every column's positions of the
    name's terms to keep the context ones)."""
    if not trails:
        return {}
    unlocked = set(ids)
    found: dict[str, list[str]] = {}
    for belief_id, trail in trails.items():
        if belief_id in unlocked:
            name = _last_name(trail).lower()
            if len(name) > 1 and name.isascii() and name.isidentifier():
                found.setdefault(name, []).append(belief_id)
    return {name: tuple(sorted(held)) for name, held in found.items()}


def _owns(named: Named, trail: str) -> bool:
    """Whether ``trail``'s definition is inside the owner the path names (any, for a name)."""
    return not named.owner or _owner_matches(trail, named.owner)


def with_named(
    store: Store,
    text: str,
    terms: list[str],
    hits: dict[str, float],
    known: dict[str, CandidateRow | None],
) -> dict[str, float]:
    """The keyword ``hits`` with the definitions ``text`` names (``scored``), their rows
    read into ``known``: ``hits`` itself, changed or not."""
    asked = named_in(text)
    if not asked:
        return hits
    found = named_definitions(store, list(asked))
    if extra := [i for i in found.every if i not in hits]:
        hits.update(scored(store, terms, extra, known))
    # A name as written is the word that matches best: its definition scores as the best
    # keyword hit does (a word in 210 of 595 passages scores low on its own).
    best = max(hits.values(), default=0.0)
    for i in found.as_written:
        if i in hits:
            hits[i] = best
    return hits


def scored(
    store: Store, terms: list[str], ids: list[str], known: dict[str, CandidateRow | None]
) -> dict[str, float]:
    """``ids`` (named definitions no keyword hit holds) as keyword hits: each at the score
    BM25F gives it for ``terms`` (0.0 when none of them is its word), its row read into
    ``known``; a locked one is left to L0."""
    rows = store.live_unlocked(ids)
    known.update(rows)
    found = store.keyword_scores(terms, [i for i in ids if i in rows])
    return {i: found.get(i, 0.0) for i in ids if i in rows}


def _telling(named: Named, trail: str) -> bool:
    """Whether the name, as written, tells the definition apart: a path, a camelCase or
    snake_case word, or a capitalised word that is a member's name (Go's exported methods:
    ``Command › Execute``). A capitalised word naming a type is as often the thing the
    prose is about ("Markdown", "Flask", "Version"): mistune's "back into Markdown" raised
    ``class Markdown`` over the renderer asked about (heldout mistune-c21, 6th -> 8th)."""
    if named.owner or _identifier_shaped(named.name):
        return True
    return len(sections(trail)[1]) >= 2


def _heads(
    defined: Mapping[str, list[DefnHit]], ids: list[str], trails: Mapping[str, str]
) -> list[str]:
    """Those of ``ids`` that are a definition's own passage (its head), one per definition;
    ``defined``: the definitions the passages sit in (``Store.passage_definitions``, in id
    order: the first passage of a definition met is the one kept)."""
    wanted = set(ids)
    out: dict[tuple[str, int, int], str] = {}
    for belief_id, hits in defined.items():
        if belief_id not in wanted:
            continue
        for file, start, end, _terms, _length, head in hits:
            if head and first_line(trails[belief_id]) == start:
                out.setdefault((file, start, end), belief_id)
    return sorted(out.values())


def _specific(trail: str, written: str) -> tuple[bool, bool, int, str]:
    """The sort key: the name as written first, then outside test code, then shortest."""
    lines = line_span(split_lines(trail)[1])
    span = lines[1] - lines[0] if lines else 1 << 30
    return (_last_name(trail) != written, is_test(trail), span, trail)


def lift_paths(ranked: list[Ranked], trails: Mapping[str, str], text: str) -> list[Ranked]:
    """``ranked`` (score desc, id asc) with each definition a path in ``text`` names (its
    head: the first passage of its trail) just above the best candidate, in the order
    named; the same list when the question names no path or none moves."""
    paths = [n for n in named_in(text) if n.owner]
    if not paths or not ranked:
        return ranked
    named: dict[str, None] = {}
    for path in paths:
        heads: dict[str, tuple[int, str]] = {}  # a definition's trail -> its first passage
        wanted = path.name.lower()
        for s in ranked:
            trail = trails.get(s[ID])
            if trail and _last_name(trail).lower() == wanted and _owner_matches(trail, path.owner):
                line = first_line(trail) or 0
                key = split_lines(trail)[0]
                if key not in heads or (line, s[ID]) < heads[key]:
                    heads[key] = (line, s[ID])
        named.update((i, None) for _, i in sorted(heads.values(), key=lambda h: h[1])[:PER_NAME])
    return lifted(ranked, list(named))


def lifted(ranked: list[Ranked], named: list[str]) -> list[Ranked]:
    """``ranked`` with ``named`` (ids) just above the best candidate, in their order, each
    one's gain its part ``named``; the same list when none is ranked or moves."""
    if not named or not ranked:
        return ranked
    at = {s[ID]: n for n, s in enumerate(ranked)}
    places = [at[i] for i in named if i in at]
    if not places or places == list(range(len(places))):
        return ranked
    out = list(ranked)
    top = ranked[0][SCORE]
    for k, n in enumerate(reversed(places)):
        s = ranked[n]
        score = round(top + GRAIN * (k + 1), 9)
        out[n] = (s[ID], score, {**s[PARTS], "named": round(score - s[SCORE], 9)})
    out.sort(key=by_id)
    out.sort(key=by_score, reverse=True)
    return out
