"""L0's placement of the locked beliefs, kept per store version (SYSTEM.md § Retrieval).

Every query places every lock: a user's rules stand in every block. What a lock costs
(``tokens.belief_tokens``) hangs on its shown id, its text, its trail and its marks: the
shown id and the text on the store version alone, and the marks of a project lock on the
version too (a lock's mark names only the other locks it conflicts with, what supersedes
it, what it hides: retrieval/currency.py), a global lock's on nothing (it is marked
"global"). So a long-lived process places them once per version and what it needs: the
budget, the truth step's standing for the locks, the locks it retired, the global locks
(``LockPlaces.key``); a query replays the placement and the forms its ids were shown in
(``Shown.met``). Costed per query, 300 locks took ~1.4 ms (300 ``belief_tokens`` calls)
and lifted a warm first-pass query from 8.6M to 14.6M instructions at 10k beliefs.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from credo.retrieval.compress import VERBATIM
from credo.retrieval.standing import NO_STANDING, place_locked
from credo.store.short_ids import Shown
from credo.types import GLOBAL_SCOPE, Belief, RetrievedBelief

if TYPE_CHECKING:
    from credo.retrieval.truth_graph import Standing, TruthGraph

# Placements kept per version: a key is a budget and what the truth step said of the locks
# (a handful at one version: a process asks at a few budgets, with history on or off).
MAX_PLACINGS = 64


class Placing:
    """One placement of the locks (``place_locked``'s answer): what the placed ones cost in
    all, the ids of those it lists as overflow, the forms its look-ups showed ids in, in
    the order asked (the locks', and those their marks name), and each placed lock's
    fields in the result (``rows``: all but its ``lanes``, a dict each result owns)."""

    __slots__ = ("forms", "overflow_ids", "rows", "used")

    def __init__(
        self,
        placed: list[Belief],
        overflow: list[Belief],
        costs: list[int],
        forms: tuple[tuple[str, str], ...],
        standing: "Mapping[str, Standing]",
        shared: Collection[str],
    ) -> None:
        self.used = sum(costs)
        self.overflow_ids = tuple(b.id for b in overflow)
        self.forms = forms
        self.rows = lock_rows(placed, costs, standing, shared)

    def beliefs(self) -> list[RetrievedBelief]:
        """The placed locks as the result lists them, first (each with a ``lanes`` of its
        own: a caller may edit one result's without touching another's)."""
        return as_beliefs(self.rows)


LockRow = tuple[tuple[object, ...], tuple[object, ...]]


def lock_rows(
    placed: list[Belief],
    costs: list[int],
    standing: "Mapping[str, Standing]",
    shared: Collection[str],
) -> list[LockRow]:
    """Each placed lock's result fields, less its ``lanes`` (a result owns its own)."""
    return [
        (
            (b.id, b.content, 0.0, True, cost),
            (
                None,
                *standing.get(b.id, NO_STANDING),
                b.trail,
                GLOBAL_SCOPE if b.id in shared else "",
                VERBATIM,  # a lock is never cut
                b.content,
                len(b.content),
                b.retention,
                "",  # a lock never folds a sibling (retrieval/siblings.py)
                (),
            ),
        )
        for b, cost in zip(placed, costs, strict=True)
    ]


def as_beliefs(rows: list[LockRow]) -> list[RetrievedBelief]:
    """The placed locks as the result lists them, first, each with a ``lanes`` of its own."""
    return [_new(RetrievedBelief, (*head, {"locked": 1.0}, *tail)) for head, tail in rows]


_new = tuple.__new__  # (a RetrievedBelief without its Python-level __new__)


class LockPlaces:
    """A store version's placements of its locks (kept in ``TruthReader.kept``, which a
    write starts over), made by ``place_locked`` on a query's first need and replayed by
    every later query that needs the same one."""

    __slots__ = ("_global", "_id_set", "_locks", "_placings", "_touched", "ids")

    def __init__(self, locks: list[Belief]) -> None:
        self._locks = locks
        self.ids = [b.id for b in locks]  # (in placement order: the caller must not edit it)
        self._id_set = frozenset(self.ids)
        self._placings: dict[object, Placing] = {}
        self._global: tuple[Belief, ...] | None = None  # the global locks placed with them
        self._touched: tuple[object, set[str]] | None = None  # (``touched``: graph, answer)

    @staticmethod
    def at(kept: dict[str, object], locks: list[Belief]) -> "LockPlaces":
        """The one kept in ``kept`` (a store version's) for ``locks``, made on first use;
        a new one when the locks differ (the objects are the version's own: compared by
        identity first)."""
        found = kept.get("locks")
        if not isinstance(found, LockPlaces) or found._locks != locks:
            found = kept["locks"] = LockPlaces(locks)
        return found

    def touched(self, graph: "TruthGraph", every: Mapping[str, object]) -> set[str]:
        """The locks with a truth link (``TruthGraph.touched``, which reads them into
        ``graph``), kept with the graph that answered (the version's: ``every``, the
        reader's every truth edge, is the version's too). Not to be edited."""
        kept = self._touched
        if kept is None or kept[0] is not graph:
            kept = self._touched = (graph, graph.touched(self.ids, every))
        return kept[1]

    def key(
        self,
        budget: int,
        standing: "Mapping[str, Standing]",
        retired: Collection[str],
        found: tuple[Belief, ...],
        shared: Collection[str],
    ) -> object:
        """What a placement of this version's locks hangs on besides the version: the budget,
        the standing the truth step gave the locks (usually none; the global ones placed,
        ``shared``, are marked "global" whatever it is, but the result lists it), the locks
        it retired, and the global locks (their tuple is the global store version's own: a
        new one starts the placements over)."""
        if found is not self._global:
            self._placings.clear()
            self._global = found
        said: tuple[object, ...] = ()
        if standing:
            said = tuple(sorted((i, standing[i]) for i in self._id_set.intersection(standing)))
            if shared:
                said += tuple((i, standing[i]) for i in shared if i in standing)
        return (budget, said, frozenset(retired) if retired else None)

    def kept(self, key: object) -> Placing | None:
        """The placement made for ``key`` at this version, if any (``replay`` it)."""
        return self._placings.get(key)

    @staticmethod
    def replay(placing: Placing, shown: Shown) -> None:
        """Give ``shown`` the forms ``placing``'s look-ups took, in their order, as though
        the locks were placed again (``Shown.changed`` lists them first, as it would)."""
        if placing.forms:
            shown.met(placing.forms)

    def place(
        self,
        key: object,
        locks: list[Belief],
        budget: int,
        marked: Mapping[str, str],
        shown: Shown,
        standing: "Mapping[str, Standing]",
        shared: Collection[str],
    ) -> Placing:
        """``place_locked(locks, budget, marked, shown)``, kept for ``key``. ``shown`` must
        show no id short yet (L0 asks first): the forms it then holds are those L0 took."""
        before = len(shown)
        placed, overflow, costs = place_locked(locks, budget, marked, shown)
        forms = tuple((i, s) for n, (i, s) in enumerate(shown.items()) if s != i and n >= before)
        if len(self._placings) >= MAX_PLACINGS:
            self._placings.clear()
        done = self._placings[key] = Placing(placed, overflow, costs, forms, standing, shared)
        return done
