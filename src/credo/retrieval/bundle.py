"""Conflict groups as pack units: beliefs that must be packed together, or not at all.

``currency`` says which beliefs contradict each other (a *group*, docs/RETRIEVAL.md § Beliefs
change). Neither pack knows about groups: both take ranked ids and their costs. So a group
goes to the pack as one unit under its best-ranked member's id (its *leader*), costing the
sum of its members (``place.Charges``), and comes back as its members. Both packs (score
order, intentional clustering) then keep a group whole with no change of their own, and
every rule they follow (stop at the first unit that does not fit; one representative per
cluster) holds for units. Pure: ids and costs in, ids out.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from itertools import chain, filterfalse, repeat
from typing import Any

# A group kept aside, as the truth step keeps it (``Currency.tails``: ``Relevant``): a
# tuple whose field ``GROUP`` is the group (its leader first), field ``OTHERS`` the rest.
Aside = Mapping[str, Sequence[Any]]
GROUP = 2
OTHERS = 3


class Units:
    """The ranked ids with each group folded into its leader.

    Attributes:
        ids: the leaders and the beliefs in no group, in rank order (a subsequence of the
            ranking, so still (score desc, id asc)).
        members: leader -> its group's members, in rank order: the groups given whole
            (``groups``); those kept ``aside`` are read from their entries where asked.
        aside: leader -> its entry, for the groups kept aside (``Aside``).
    """

    __slots__ = ("_eager", "_lead", "aside", "ids", "members")

    def __init__(
        self,
        ranked_ids: Sequence[str],
        groups: Iterable[Sequence[str]],
        aside: Aside | None = None,
    ) -> None:
        """``groups`` hold their members in rank order (``currency`` gives them so), all
        of them in ``ranked_ids``. ``aside`` maps more leaders in ``ranked_ids`` to their
        entries (``Aside``): groups whose other members are not in ``ranked_ids``
        (``Currency.tails``), nor ever in the pairs given to ``pairs``, and none of them a
        leader in ``groups``. Nothing is read of them here: a query keeps dozens aside and
        the pack reaches a third. ``ranked_ids`` is kept as ``ids`` when no group has a
        follower in it: it must not change."""
        eager: dict[str, tuple[str, ...]] = {g[0]: tuple(g) for g in groups}
        self._eager = eager
        # (set-level work: a query on a store in dispute holds dozens of groups)
        followers = set().union(*(g[1:] for g in eager.values())) if eager else None
        if not followers:
            self.ids: Sequence[str] = ranked_ids
        elif len(followers) <= _FEW:  # (C-level: a copy, then each follower found by identity)
            self.ids = ids = list(ranked_ids)
            for follower in followers:
                ids.remove(follower)
        else:
            self.ids = list(filterfalse(followers.__contains__, ranked_ids))
        self.members: Mapping[str, Sequence[str]] = eager
        self.aside: Aside = aside or {}
        self._lead: dict[str, str] | None = None

    def pairs(self, pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        """Edges between beliefs as edges between their units (an edge that joins a
        follower to its own leader dropped). An edge of a belief to itself given in
        ``pairs`` may stay: the packs join clusters by union-find, where it joins nothing
        (``cluster.pack_ranked``)."""
        lead = self._lead
        if lead is None:  # (only the followers move: a leader is its own unit)
            lead = self._lead = {m: g[0] for g in self._eager.values() for m in g[1:]}
        pairs = pairs if isinstance(pairs, list) else list(pairs)
        if not lead:
            return pairs
        # (a query's followers touch one or two of its ~50 pairs, moved one by one, the rest
        # kept where they are; two probes a pair, less than a keys view's isdisjoint each)
        touched = [i for i, (a, b) in enumerate(pairs) if a in lead or b in lead]
        if not touched:
            return pairs
        get = lead.get
        out = pairs.copy()
        for i in reversed(touched):
            a, b = out[i]
            a, b = get(a, a), get(b, b)
            if a == b:
                del out[i]
            else:
                out[i] = (a, b)
        return out

    def share(self, clusters: dict[str, int], unit_ids: Collection[str]) -> None:
        """Put each member of a group in ``groups`` among ``unit_ids`` in its leader's
        cluster (``clusters``: unit -> cluster; the groups aside are left to the caller)."""
        eager = self._eager
        # (the few groups looked for among the units, not each unit among the groups)
        for leader, group in eager.items():
            if leader in unit_ids:
                clusters.update(zip(group, repeat(clusters.get(leader))))

    def ranked(self, unit_ids: Iterable[str]) -> set[str]:
        """The beliefs of ``unit_ids`` that are in the ranked ids: a group kept aside
        (``aside``) gives only its leader."""
        chosen = set(unit_ids)
        eager = self._eager
        if eager and not chosen.isdisjoint(eager):
            chosen.update(chain.from_iterable(map(eager.get, chosen.intersection(eager))))
        return chosen

    def expand(self, unit_ids: Iterable[str]) -> list[str]:
        """The beliefs of ``unit_ids``, each group's members in rank order at its place."""
        if not self.aside:
            return expanded(unit_ids, self.members)
        return expanded_aside(unit_ids, self.aside, self.members)

    def all_members(self) -> "Members":
        """``members`` with the groups kept aside, each read from its entry when asked."""
        return Members(self.members, self.aside)


class Members:
    """Leader -> its group's members, read as a mapping: the groups given whole (``eager``)
    and those kept aside (``Aside``), read from their entries on lookup (for look-ups off
    the pack's hot path: ``compress.Carried``, the aspect gate's few)."""

    __slots__ = ("_aside", "_eager")

    def __init__(self, eager: Mapping[str, Sequence[str]], aside: Aside) -> None:
        self._eager = eager
        self._aside = aside

    def __getitem__(self, unit: str) -> Sequence[str]:
        group = self.get(unit)
        if group is None:
            raise KeyError(unit)
        return group

    def get(self, unit: str, default: Any = None) -> Any:  # (no KeyError raised per miss)
        group = self._eager.get(unit)
        if group is not None:
            return group
        info = self._aside.get(unit)
        return default if info is None else info[GROUP]

    def __contains__(self, unit: object) -> bool:
        return unit in self._eager or unit in self._aside

    def __iter__(self) -> Iterator[str]:
        # (the order of the dict it replaced, ``{**aside, **eager}``: none is in both)
        return chain(self._aside, self._eager)

    def keys(self) -> Iterator[str]:
        return iter(self)

    def __len__(self) -> int:
        return len(self._eager) + len(self._aside)


def expanded(ids: Iterable[str], groups: Mapping[str, Sequence[str]]) -> list[str]:
    """``ids`` in order, each that leads a group in ``groups`` in place of its members (the
    leader first)."""
    out: list[str] = []
    add = out.append
    get = groups.get
    # (a loop: a C-level chain over a one-tuple made for each id costs about twice as much)
    for i in ids:
        group = get(i)
        if group is None:
            add(i)
        else:
            out += group
    return out


def expanded_aside(
    ids: Iterable[str], aside: Aside, groups: Mapping[str, Sequence[str]] | None = None
) -> list[str]:
    """``expanded`` for the groups kept ``aside`` (each leader's others after it), and for
    ``groups`` too when given."""
    out: list[str] = []
    add = out.append
    get = aside.get
    if groups:
        given = groups.get
        for i in ids:
            if (group := given(i)) is not None:
                out += group
                continue
            add(i)
            if (info := get(i)) is not None:
                out += info[OTHERS]
        return out
    for i in ids:
        add(i)
        if (info := get(i)) is not None:
            out += info[OTHERS]
    return out


class Expanding:
    """``ids`` with the others of each group kept ``aside`` right after its leader, as a
    reader walks them: most readers stop early (the compress stage's head, the first id
    without a row), so a group is read only when reached; ``whole`` lists them all."""

    __slots__ = ("_aside", "_ids", "_whole")

    def __init__(self, ids: list[str], aside: Aside) -> None:
        self._ids = ids
        self._aside = aside
        self._whole: list[str] | None = None

    def __iter__(self) -> Iterator[str]:
        whole = self._whole
        return self._walk() if whole is None else iter(whole)

    def _walk(self) -> Iterator[str]:
        get = self._aside.get
        for i in self._ids:
            yield i
            info = get(i)
            if info is not None:
                yield from info[OTHERS]

    def __len__(self) -> int:
        return len(self.whole())

    def whole(self) -> list[str]:
        whole = self._whole
        if whole is None:
            whole = self._whole = expanded_aside(self._ids, self._aside)
        return whole


_FEW = 8  # followers removed one by one up to this many; past it, the ranking filtered
