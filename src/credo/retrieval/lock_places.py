"""L0's placement of the locked beliefs, kept per store version (SYSTEM.md § Retrieval).

Every query places every lock: a user's rules stand in every block. What a lock costs
(``tokens.belief_tokens``) hangs on its shown id, its text, its trail and its marks: the
shown id and the text on the store version alone, and the marks of a project lock on the
version too (a lock's mark names only the other locks it conflicts with, what supersedes
it, what it hides: retrieval/currency.py), a global lock's on nothing (it is marked
"global"). So a long-lived process places them once per version and what it needs: the
budget, the truth step's standing for the locks, the locks it retired, the global locks
(``Placing.key``); a query replays the placement and the forms its ids were shown in
(``Shown.met``), where 300 locks cost ~1.4 ms of 60,000 ``belief_tokens`` calls a query.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from credo.retrieval.standing import place_locked
from credo.store.short_ids import Shown
from credo.types import Belief

if TYPE_CHECKING:
    from credo.retrieval.truth_graph import Standing

# Placements kept per version: a key is a budget and what the truth step said of the locks
# (a handful at one version: a process asks at a few budgets, with history on or off).
MAX_PLACINGS = 64


class Placing:
    """One placement of the locks (``place_locked``'s answer), the ids of those it lists
    as overflow, and the forms its look-ups showed ids in, in the order asked (the locks',
    and those their marks name)."""

    __slots__ = ("costs", "forms", "overflow", "overflow_ids", "placed", "used")

    def __init__(
        self,
        placed: list[Belief],
        overflow: list[Belief],
        costs: list[int],
        forms: tuple[tuple[str, str], ...],
    ) -> None:
        self.placed = placed
        self.overflow = overflow
        self.costs = costs
        self.used = sum(costs)
        self.overflow_ids = tuple(b.id for b in overflow)
        self.forms = forms


class LockPlaces:
    """A store version's placements of its locks (kept in ``TruthReader.kept``, which a
    write starts over), made by ``place_locked`` on a query's first need and replayed by
    every later query that needs the same one."""

    __slots__ = ("_global", "_id_set", "_locks", "_placings", "ids")

    def __init__(self, locks: list[Belief]) -> None:
        self._locks = locks
        self.ids = [b.id for b in locks]  # (in placement order: the caller must not edit it)
        self._id_set = frozenset(self.ids)
        self._placings: dict[object, Placing] = {}
        self._global: tuple[Belief, ...] | None = None  # the global locks placed with them

    @staticmethod
    def at(kept: dict[str, object], locks: list[Belief]) -> "LockPlaces":
        """The one kept in ``kept`` (a store version's) for ``locks``, made on first use;
        a new one when the locks differ (the objects are the version's own: compared by
        identity first)."""
        found = kept.get("locks")
        if not isinstance(found, LockPlaces) or found._locks != locks:
            found = kept["locks"] = LockPlaces(locks)
        return found

    def key(
        self,
        budget: int,
        standing: "Mapping[str, Standing]",
        retired: Collection[str],
        found: tuple[Belief, ...],
    ) -> object:
        """What a placement of this version's locks hangs on besides the version: the budget,
        the standing the truth step gave the locks (usually none), the locks it retired, and
        the global locks (their tuple is the global store version's own: a new one starts
        the placements over)."""
        if found is not self._global:
            self._placings.clear()
            self._global = found
        ids = self._id_set
        said = (
            tuple(sorted((i, standing[i]) for i in ids.intersection(standing))) if standing else ()
        )
        return (budget, said, frozenset(retired) if retired else None)

    def place(
        self,
        key: object,
        locks: list[Belief],
        budget: int,
        marked: Mapping[str, str],
        shown: Shown,
    ) -> Placing:
        """``place_locked(locks, budget, marked, shown)`` for this ``key``, kept; a kept one
        gives ``shown`` the forms its look-ups took, in their order."""
        done = self._placings.get(key)
        if done is not None:
            if done.forms:
                shown.met(done.forms)
            return done
        # (nothing is shown short before L0 asks: every form taken is one it asked for)
        before = len(shown)
        placed, overflow, costs = place_locked(locks, budget, marked, shown)
        forms = tuple((i, s) for n, (i, s) in enumerate(shown.items()) if s != i and n >= before)
        if len(self._placings) >= MAX_PLACINGS:
            self._placings.clear()
        done = self._placings[key] = Placing(placed, overflow, costs, forms)
        return done
