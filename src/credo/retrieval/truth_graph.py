"""The live truth links around some beliefs (SYSTEM.md § Beliefs change), read through the
store as a query needs them and kept, with what is derived from them, while the store stays
at one version (retrieval/pipeline.py keeps one graph per version). Which belief is current
and what is packed is decided with it in ``credo.retrieval.currency``.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from credo.retrieval.line_floor import SHORT_CHARS, least_chars, long_ids
from credo.store.fts import CandidateRow
from credo.store.short_ids import shortenable
from credo.store.truth import CONTRADICTS, RESOLVES, SUPERSEDES, TruthFacts
from credo.tokens import escape, line_chars, marks

Fetch = Callable[[Iterable[str]], TruthFacts]
NO_IDS: tuple[str, ...] = ()
# (replaces, conflicts with, superseded by): what a belief's marks say (tokens.marks).
Standing = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
_NONE: frozenset[str] = frozenset()
# What a belief in the pack by relevance brings (``TruthGraph.as_relevant``).
Relevant = tuple[
    Standing | None,
    tuple[str, ...],
    tuple[str, ...],
    tuple[str, ...],
    Mapping[str, Standing],
    Mapping[str, CandidateRow],
    Mapping[str, str],
    tuple[str, ...],
    tuple[str, ...],
    int,
    str | None,
    Standing,
    str | None,
    Mapping[str, int],
]


def _plain_marks(conflicts: tuple[str, ...]) -> str | None:
    """The marks of a standing of ``conflicts`` only, when the block shows each id whole
    (none is a derived id it shortens: ``short_ids.shortenable``); else None. One id (an
    entry's brought marks, ``(x,)``, and most entries' own) is made inline: a first meeting
    costs a memo probe and four calls less; more are kept (asked again by other entries)."""
    if len(conflicts) == 1:  # (most: ``marks`` of one id, without the calls or the memo)
        return None if shortenable(x := conflicts[0]) else _CONFLICTS_WITH + escape(x)
    found = _PLAIN_MARKS.get(conflicts, _UNKNOWN)
    if found is _UNKNOWN:
        if len(_PLAIN_MARKS) >= _MAX_PLAIN_MARKS:
            _PLAIN_MARKS.clear()
        found = _PLAIN_MARKS[conflicts] = (
            None if any(map(shortenable, conflicts)) else marks((), conflicts, ())
        )
    return found  # type: ignore[return-value]


# (conflicts -> their marks or None: a pure function, kept across versions up to a bound)
_PLAIN_MARKS: dict[tuple[str, ...], str | None] = {}
_MAX_PLAIN_MARKS = 50_000
_UNKNOWN = object()
_CONFLICTS_WITH = marks((), ("",), ())  # what ``marks`` puts before a lone conflict's id


class LockMemo:
    """What a truth graph keeps of its version's locks (``conflict_groups.lock_conflicts``):
    worked out once, not per lock per query."""

    __slots__ = ("given", "lock_set", "marks", "retired", "wanted")

    def __init__(self, given: tuple[str, ...], lock_set: set[str], wanted: Sequence[str]) -> None:
        self.given = given  # the lock ids, in placement order
        self.lock_set = lock_set  # the same, as a set
        self.wanted = wanted  # the locks their conflicts name
        # Each lock's mark (``lock_marks``) and the locks a live belief supersedes (the
        # step's supersession, ``currency.resolve_lazy``): None until made.
        self.marks: dict[str, Standing] | None = None
        self.retired: frozenset[str] | None = None


class TruthGraph:
    """The live truth links around some beliefs, read through ``fetch`` as they are needed.

    ``successors(x)``: the beliefs that supersede x directly; ``predecessors(x)``: those x
    supersedes directly. Both need x read (``load``); ``reach`` and everything built on it
    need x's upward closure read (``close_upward``).
    """

    def __init__(self, fetch: Fetch) -> None:
        self._fetch = fetch
        self.read: set[str] = set()
        self.rows: dict[str, CandidateRow] = {}
        self.locked: set[str] = set()
        self._succ: dict[str, list[str]] = {}
        self._pred: dict[str, list[str]] = {}
        self._against: dict[str, list[str]] = {}  # CONTRADICTS, either direction
        # (src, dst) of each CONTRADICTS edge read: who disputes whom, for the order a
        # conflict group is shown in (retrieval/told_first.py)
        self.disputes: set[tuple[str, str]] = set()
        # The leaders of groups kept aside whose order told_first worked out, and those
        # whose group it reorders -> that order: fixed at a version, as the groups are.
        self.told: tuple[set[str], dict[str, list[str]]] = (set(), {})
        self._settled: set[tuple[str, str]] = set()  # RESOLVES, both orders
        self._reach: dict[str, frozenset[str]] = {}
        self._conflicts: dict[str, tuple[str, ...]] = {}
        # x -> (its current conflicts, the unlocked ones among them): fixed at a version.
        self._live: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        self._relevant: dict[str, Relevant] = {}  # x -> as_relevant(x)
        self._bringers: dict[str, list[str]] = {}  # y -> each x whose as_relevant lists y
        self._closed: set[str] = set()  # the beliefs whose upward closure is read
        # Beliefs met as a far end with no live SUPERSEDES edge: current, hiding nothing,
        # their closure known without reading them.
        self._still: set[str] = set()
        self.linked: set[str] = set()  # the beliefs read that have a truth link
        # Every linked belief read, and every unlocked one in dispute worked out as relevant
        # (retrieval/truth_ahead.py): a query reads nothing and asks nothing first.
        self.whole = False
        # Whether no linked belief has a derived id (so each is shown whole, whatever the
        # query: the pipeline asks ``short_ids.Shown`` for the others of the groups kept
        # aside as met, no statement needed): known of a graph made whole.
        self.plain_ids = False
        # The locks' conflicts among themselves and the marks they give the locks, fixed at
        # a version as the locks are (``conflict_groups.lock_conflicts``).
        self.lock_memo: LockMemo | None = None

    @property
    def empty(self) -> bool:
        return not self.linked

    def touched(self, ids: Collection[str], every: Mapping[str, object] | None = None) -> set[str]:
        """Those of ``ids`` that have a truth link (read first). ``every``: the belief ->
        links of every truth edge at this version, when the store holds them all (the
        reader's ``every``): then only those with a link are read."""
        if every is not None:
            found = every.keys() & ids
            if not self.read.issuperset(found):
                self.load(found)
            return found
        self.load(ids)
        return self.linked.intersection(ids)

    def linked_in_order(self, ids: Iterable[str], every: Mapping[str, object]) -> list[str]:
        """Those of ``ids`` that have a truth link, in their order (read first): ``touched``
        for the ranked ids when the store holds every truth edge, in the order the step
        walks them."""
        if self.whole:  # (``linked`` holds every's keys: a set's probe touches less memory)
            return list(filter(self.linked.__contains__, ids))
        order = list(filter(every.__contains__, ids))
        if not self.read.issuperset(order):
            self.load(order)
        return order

    def touches(self, ids: Iterable[str]) -> bool:
        """Whether any of ``ids`` (read) has a truth link."""
        linked = self.linked
        return any(i in linked for i in ids)

    def load(self, ids: Collection[str]) -> None:
        if self.read.issuperset(ids):
            return
        missing = [i for i in dict.fromkeys(ids) if i not in self.read]
        if not missing:
            return
        self.add(missing, self._fetch(missing))

    def add(self, ids: Iterable[str], facts: TruthFacts) -> None:
        """Take in the facts read for ``ids`` (``load`` reads them; a caller may have them)."""
        self.read.update(ids)
        links, rows, locked = facts[0], facts[1], facts[2]
        self.rows.update(rows)
        self.locked |= locked
        if len(facts) > 3:
            self._still |= facts[3]  # type: ignore[misc]
        self.linked.update(links)
        for belief_id, found in links.items():
            for src, dst, kind in found:
                other = dst if src == belief_id else src
                if kind == SUPERSEDES:
                    side = self._pred if src == belief_id else self._succ
                    side.setdefault(belief_id, []).append(other)
                elif kind == CONTRADICTS:
                    self._against.setdefault(belief_id, []).append(other)
                    self.disputes.add((src, dst))
                elif kind == RESOLVES:
                    self._settled.update(((belief_id, other), (other, belief_id)))

    def disputes_among(self, ids: Collection[str]) -> set[tuple[str, str]]:
        """``disputes`` with every CONTRADICTS edge among ``ids`` in it: those of ``ids`` not
        read are read (one statement). A group's leader is read, its others often not (met
        as far ends), yet the order it is shown in follows their edges too (told_first.py),
        as every edge read at once gives them (``whole``)."""
        if not self.read.issuperset(ids):
            self.load(ids)
        return self.disputes

    def close_upward(self, ids: Iterable[str]) -> None:
        """Read ``ids`` and every belief that supersedes one of them, transitively."""
        closed = self._closed
        frontier = [i for i in dict.fromkeys(ids) if i not in closed]
        seen = set(frontier)
        while frontier:
            self.load(frontier)
            above = [
                y
                for x in frontier
                for y in self._succ.get(x, NO_IDS)
                if y not in seen and y not in closed
            ]
            frontier = list(dict.fromkeys(above))
            seen.update(frontier)
        closed |= seen  # (what is read stays read while the graph lives)

    def settle(self, ids: Iterable[str]) -> None:
        """Make ``current`` and ``hides`` exact for ``ids``: ``close_upward`` for those not
        known to have no SUPERSEDES edge (such a belief needs no read for either)."""
        still = self._still
        self.close_upward([i for i in ids if i not in still] if still else ids)

    def successors(self, x: str) -> Sequence[str]:
        return self._succ.get(x, NO_IDS)

    def reach(self, x: str) -> frozenset[str]:
        """Every belief that supersedes ``x``, directly or through others."""
        if x not in self._succ:
            return _NONE
        found = self._reach.get(x)
        if found is None:
            seen: set[str] = set()
            stack = list(self.successors(x))
            while stack:
                y = stack.pop()
                if y not in seen:
                    seen.add(y)
                    stack.extend(self.successors(y))
            found = self._reach[x] = frozenset(seen)
        return found

    def superseded_by(self, x: str) -> tuple[str, ...]:
        """The live beliefs that supersede ``x`` directly and do not descend from it."""
        return tuple(sorted(y for y in self.successors(x) if x not in self.reach(y)))

    @property
    def superseded_any(self) -> Mapping[str, list[str]]:
        """The beliefs read that a live belief supersedes (-> those that do)."""
        return self._succ

    def current(self, x: str) -> bool:
        return x not in self._succ or not self.superseded_by(x)

    def heads(self, x: str) -> tuple[str, ...]:
        """The current beliefs that supersede ``x``, directly or through a chain."""
        return tuple(sorted(y for y in self.reach(x) if self.current(y)))

    def hides(self, y: str) -> tuple[str, ...]:
        """The beliefs ``y`` supersedes directly and that do not supersede it back."""
        below = self._pred.get(y)
        if below is None:
            return NO_IDS
        reach = self.reach(y)
        return tuple(sorted(x for x in below if x not in reach))

    @property
    def superseding(self) -> Mapping[str, list[str]]:
        """The beliefs read that supersede another (-> the ones they supersede)."""
        return self._pred

    def supersedes_any(self, ids: Iterable[str]) -> bool:
        """Whether any of ``ids`` (read) supersedes or is superseded by a live belief."""
        succ, pred = self._succ, self._pred
        return bool(succ or pred) and any(i in succ or i in pred for i in ids)

    @property
    def against(self) -> Mapping[str, list[str]]:
        """The beliefs read that have a CONTRADICTS edge (-> the other ends)."""
        return self._against

    def conflicts(self, x: str) -> tuple[str, ...]:
        """The beliefs joined to ``x`` by CONTRADICTS and not by RESOLVES (read, current or
        not), each once. ``x`` must be read, and so must they for what uses them."""
        found = self._conflicts.get(x)
        if found is None:
            against = self._against.get(x, NO_IDS)
            settled = self._settled
            found = self._conflicts[x] = tuple(
                dict.fromkeys(y for y in against if (x, y) not in settled)
            )
        return found

    def as_relevant(self, x: str) -> Relevant:
        """What ``x`` brings when it is in the pack by relevance (``live_conflicts``, kept):
        its standing (None when it has no current conflict), its unlocked current
        conflicts; and when none of them is met otherwise, the group they make with it
        (``x`` first, the others by id), the others, their standing, their rows, their
        texts, those of them that supersede a belief (read: their links are read
        when the conflicts are settled, unless known to have no SUPERSEDES edge); what
        the compress stage reads of the others without their texts: those longer than
        ``SHORT_CHARS``, and the least their lines can cost (``compress.least_chars``);
        and the marks (``tokens.marks``) of ``x``'s standing when the block shows every id
        it names whole (None otherwise: ``standing.Marks`` names them), the others'
        standing (one for all: conflicts with ``x``) and its marks, likewise; and the
        characters of the others' lines as the compress stage renders them when nothing
        about them depends on the query (``compress.Costs``: a short text, shown whole,
        under no file or section line, those marks), for those it knows."""
        found = self._relevant.get(x)
        if found is None:
            others, free = self.live_conflicts(x)
            if len(free) == 1 and len(others) == 1:  # (most)
                found = self._relevant[x] = self._one_conflict(x, others, free)
            else:
                found = self._relevant[x] = self._in_general(x, others, free)
        return found

    def _in_general(self, x: str, others: tuple[str, ...], free: tuple[str, ...]) -> Relevant:
        """``as_relevant`` of ``x`` with any conflicts: the reference ``_one_conflict``
        must equal (tests/test_currency.py)."""
        rest = tuple(sorted(free)) if len(free) > 1 else free
        bringers = self._bringers
        for y in rest:
            if (by := bringers.get(y)) is None:
                bringers[y] = [x]
            else:
                by.append(x)
        # (far ends' rows; one that is x itself has none: never a group of its own)
        rows = {y: row for y in rest if (row := self.rows.get(y)) is not None}
        texts = {y: row[0] for y, row in rows.items()}
        # (``conflicts`` names each once)
        named = tuple(sorted(set(others))) if len(others) > 1 else others
        said = (NO_IDS, named, NO_IDS) if others else None
        brought = (NO_IDS, (x,), NO_IDS)
        marked = _plain_marks(brought[1])
        pred = self._pred
        supersede = tuple(y for y in rest if y in pred) if pred else NO_IDS
        # (one that supersedes a belief may be marked with what it hides: not known here)
        lines = (
            {
                y: line_chars(y, text, False, marked)
                for y, text in texts.items()
                if len(text) <= SHORT_CHARS and not shortenable(y)
            }
            if marked is not None and not supersede
            else {}
        )
        if len(texts) == 1:  # (most: ``long_ids`` and ``least_chars`` of one, inline)
            ((y, text),) = texts.items()
            long = (y,) if len(text) > SHORT_CHARS else NO_IDS
            least = len(text) + len(y) + 4
        else:
            listed = list(texts)
            long, least = tuple(long_ids(listed, texts)), least_chars(listed, texts)
        return (
            said,
            free,
            (x, *rest),
            rest,
            dict.fromkeys(rest, brought),
            rows,
            texts,
            supersede,
            long,
            least,
            None if said is None else _plain_marks(said[1]),
            brought,
            marked,
            lines,
        )

    def _one_conflict(self, x: str, others: tuple[str, ...], free: tuple[str, ...]) -> Relevant:
        """``as_relevant`` of ``x`` when its one current conflict is unlocked (most beliefs
        a query meets in a store in dispute: ~40 a first-pass query at a million beliefs):
        the same values, made without the general case's comprehensions and calls (each
        id's ``shortenable`` asked once)."""
        (y,) = free
        bringers = self._bringers
        if (by := bringers.get(y)) is None:
            bringers[y] = [x]
        else:
            by.append(x)
        brought = (NO_IDS, (x,), NO_IDS)
        marked = None if shortenable(x) else _CONFLICTS_WITH + escape(x)  # (``_plain_marks``)
        derived = shortenable(y)
        pred = self._pred
        supersede = free if pred and y in pred else NO_IDS
        row = self.rows.get(y)
        if row is None:  # (x's conflict is x itself: no row of its own)
            rows: dict[str, CandidateRow] = {}
            texts: dict[str, str] = {}
            lines: dict[str, int] = {}
            long, least = NO_IDS, 0
        else:
            text = row[0]
            rows, texts = {y: row}, {y: text}
            short = len(text) <= SHORT_CHARS
            lines = (
                {y: line_chars(y, text, False, marked)}
                if marked is not None and not supersede and short and not derived
                else {}
            )
            long, least = NO_IDS if short else free, len(text) + len(y) + 4
        return (
            (NO_IDS, others, NO_IDS),
            free,
            (x, y),
            free,
            {y: brought},
            rows,
            texts,
            supersede,
            long,
            least,
            None if derived else _CONFLICTS_WITH + escape(y),
            brought,
            marked,
            lines,
        )

    @property
    def relevant_known(self) -> Mapping[str, Relevant]:
        """The beliefs whose ``as_relevant`` is kept."""
        return self._relevant

    @property
    def bringers(self) -> Mapping[str, list[str]]:
        """A belief -> the beliefs whose kept ``as_relevant`` lists it among the others."""
        return self._bringers

    @property
    def live_known(self) -> Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]]:
        """The beliefs whose ``live_conflicts`` are kept."""
        return self._live

    def live_conflicts(self, x: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(the current beliefs among ``conflicts(x)``, the unlocked ones among those), in
        ``conflicts`` order. ``x`` must be read; its conflicts are settled here."""
        found = self._live.get(x)
        if found is None:
            others = self.conflicts(x)
            if others:
                # (settled already, most often: in the batch the step settles first, or met
                # as far ends with no SUPERSEDES edge)
                if not (self._still.issuperset(others) or self._closed.issuperset(others)):
                    self.settle(others)
                succ = self._succ
                if succ:
                    others = tuple(y for y in others if y not in succ or self.current(y))
            locked = self.locked
            free = tuple(y for y in others if y not in locked) if locked else others
            found = self._live[x] = (others, free)
        return found
