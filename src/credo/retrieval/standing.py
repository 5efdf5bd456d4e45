"""What the block says of each belief's standing in the truth step's terms (SYSTEM.md §
Beliefs change): its marks (``Marks``: "replaces", "conflicts with", "superseded by", named
as the block shows ids), the locked beliefs placed first with theirs (``place_locked``), and
the packed beliefs in rank order with their standing, a group the step kept aside
(``Currency.tails``) expanded where it is packed (``picked``).
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Callable, Collection, Mapping, MutableMapping
from itertools import compress, repeat
from operator import itemgetter
from typing import TYPE_CHECKING

from credo.retrieval.compress import SHORT_CHARS, id_chars
from credo.retrieval.known import MAX_KNOWN, Known
from credo.retrieval.rank import ID, SCORE, Ranked, brought_along
from credo.store.short_ids import Shown
from credo.tokens import belief_tokens, line_chars, marks
from credo.types import Belief

if TYPE_CHECKING:  # loaded only when a candidate has truth links (``pipeline._currency``)
    from credo.retrieval.currency import Currency
    from credo.retrieval.truth_graph import Relevant, Standing

NO_STANDING = ((), (), ())  # a belief's standing when it has none: no marks


def picked(
    ranked: list[Ranked],
    chosen: set[str],
    standing: "Mapping[str, Standing]",
    tails: "Mapping[str, Relevant]",
    texts: "MutableMapping[str, str] | None" = None,
    clusters: "dict[str, int] | None" = None,
    ids: "list[str] | None" = None,
) -> "list[tuple[Ranked, Standing]]":
    """The packed beliefs in rank order with their standing: a group kept aside
    (``Currency.tails``) gives its others right after its leader, at its score, each
    brought along by it (``currency``'s ranking, expanded where it is packed); their texts
    go in ``texts``, when given, and each in its leader's cluster in ``clusters``, when it
    has any. ``chosen``: the packed beliefs of ``ranked``; ``ids``: ``ranked``'s ids in its
    order, when the caller holds them (read instead of each Ranked's)."""
    get = standing.get
    # (C-level: the packed ones of the ranking, by their ids)
    packed = compress(ranked, map(chosen.__contains__, map(_ID, ranked) if ids is None else ids))
    if not tails:
        return [(s, get(s[ID], NO_STANDING)) for s in packed]
    out: list[tuple[Ranked, Standing]] = []
    add = out.append
    group_of = tails.get
    for s in packed:
        i = s[ID]
        info = group_of(i)
        if info is None:
            add((s, get(i, NO_STANDING)))
            continue
        add((s, get(i) or info[0]))  # (a leader's, unless set since: its entry's first)
        score = s[SCORE]
        rest = info[3]
        # (the others' standing, one for all; one set on one since, e.g. what it hides,
        # comes first: only one that supersedes a belief, ``Relevant``'s eighth field)
        said = info[11]
        if texts is not None:
            texts.update(info[6])
        if info[7]:
            out += [(brought_along(m, score), get(m) or said) for m in rest]
            if clusters:
                clusters.update(zip(rest, repeat(clusters.get(i))))  # type: ignore[arg-type]
        elif clusters:  # (``brought_along``'s tuple, made without the call)
            cluster = clusters.get(i)
            for m in rest:
                add(((m, score, {"contradicts": score}), said))
                clusters[m] = cluster  # type: ignore[assignment]
        else:
            for m in rest:
                add(((m, score, {"contradicts": score}), said))
    return out


_ID = itemgetter(ID)  # of a Ranked


class GroupLines(dict[str, Mapping[str, int]]):
    """A group kept aside's leader -> the lines of its others (``place.Charges.known``),
    read from ``Currency.tails`` when the pack asks: it asks for the groups it reaches (~17
    of a query's ~42 on a store in dispute), so no map of them all is made per query. The
    truth graph knows the lines of others whose ids are shown whole (``Relevant``'s last
    field); with ``known`` (the store version's ``Known``) and ``shown``, those of others
    shown short are made at a group's first reach and kept in ``Known.groups``: a short
    form and the marks naming the leader hang on the store's ids alone (``Shown.form``).
    None is asked of ``shown``: the leader, costed first, asks for every other as its
    conflict, so ``Shown.changed`` lists them as before. Holds nothing itself.

    With ``costs`` (``compress.Costs``, whose ``Marks`` can take kept marks) and ``standing``
    (the step's), a reached leader's own line is set in ``costs`` here when the version's
    marked lines (``Known.kept``) hold it for the leader's standing (its entry's, unless the
    step set one): what ``Costs`` would work out on the pack's look-up of the leader, which
    comes right after this (the leader first), its ids' forms taken (``Shown.met``) at that
    same point; the pack then finds it without a call per leader."""

    __slots__ = ("_costs", "_groups", "_kept", "_shown", "_standing", "_tails", "_whole")

    def __init__(
        self,
        tails: "Mapping[str, Relevant]",
        known: "Known | None" = None,
        shown: Shown | None = None,
        whole: "Collection[str]" = (),
        costs: "MutableMapping[str, int] | None" = None,
        standing: "Mapping[str, Standing] | None" = None,
    ) -> None:
        super().__init__()
        self._tails = tails
        self._groups = None if known is None or shown is None else known.groups
        self._shown = shown
        self._whole = whole  # (another store's ids, shown whole this query: not kept)
        # (a leader's line is set only with all it reads: the step's standing, the marked lines)
        ready = standing is not None and known is not None and shown is not None
        self._costs = costs if ready else None
        self._kept = known.kept if known is not None else {}
        self._standing: Mapping[str, Standing] = {} if standing is None else standing

    def get(self, leader: str, default: object = None) -> object:  # type: ignore[override]
        info = self._tails.get(leader)
        if info is None:
            return default
        costs = self._costs
        if (
            costs is not None
            and leader not in costs
            and (hit := self._kept.get(leader)) is not None
            and (self._standing.get(leader) or info[0]) is hit[0]
            and (len(hit) == 2 or self._shown.met(hit[2]))  # type: ignore[union-attr,misc]
        ):
            costs[leader] = hit[1]  # type: ignore[misc]
        lines = info[13]
        groups = self._groups
        # (every other's line known, or one that supersedes a belief: its marks the query's;
        # ``kept_ahead`` asks the same, inline here on the hot path)
        if groups is None or len(lines) == len(info[3]) or info[7]:
            return lines
        if self._whole and any(map(self._whole.__contains__, info[2])):
            return lines
        found = groups.get(leader)
        if found is None:
            found = others_lines(info, self._shown.form)  # type: ignore[union-attr]
            if len(groups) >= MAX_KNOWN:
                groups.clear()
            groups[leader] = found
        return found

    @staticmethod
    def kept_ahead(info: "Relevant") -> bool:
        """Whether ``get`` keeps the lines of this group's others in ``Known.groups`` (the
        same test, made inline there): some other's line is one the truth graph does not
        know, and none of them supersedes a belief (whose marks are the query's)."""
        return len(info[13]) != len(info[3]) and not info[7]


def others_lines(info: "Relevant", form: "Callable[[str], str]") -> dict[str, int]:
    """The lines of a group kept aside's others with a short text (``info``: what its leader
    brings, ``TruthGraph.as_relevant``), as ``compress.Costs`` costs them: the line with the
    id whole, what its short form changes, the marks naming the leader as shown (its
    standing: ``Relevant``'s field 11, one for all). ``form``: an id -> the form the block
    shows it in at the store version (``Shown.form``)."""
    replaces, conflicts, superseded_by = info[11]
    marked = marks(replaces, tuple(map(form, conflicts)), superseded_by)
    out = dict(info[13])
    texts = info[6]
    for y in info[3]:
        text = texts.get(y)
        if y in out or text is None or len(text) > SHORT_CHARS:
            continue
        out[y] = line_chars(y, text, False) + id_chars(form(y)) - id_chars(y) + len(marked)
    return out


class Marks(dict[str, str]):
    """id -> its marks (``tokens.marks``), made on first lookup ("" for none). ``truth``: what
    the truth step made of the ranking (``currency.Currency``, None: nothing): each belief's
    standing; the others of a group kept aside (``Currency.tails``) take theirs from the
    group's entry, found through ``Currency.bringers``; and a relevant belief whose standing
    is the very one the truth graph keeps (``Currency.plain``) takes the marks kept with it
    when the block shows ids whole."""

    __slots__ = ("_bringers", "_kept", "_plain", "_shown", "_standing", "_tails", "standing_of")

    def __init__(
        self,
        standing: "Mapping[str, Standing]",
        shown: Mapping[str, str],
        truth: "Currency | None" = None,
    ) -> None:
        super().__init__()
        self._standing = standing
        self._shown = shown
        self._plain = type(shown) is Shown  # (an id that is not derived is shown whole)
        self._tails = truth.tails if truth is not None else None
        self._bringers = truth.bringers if truth is not None else {}
        self._kept = truth.plain if truth is not None and self._plain else None
        # (each belief's standing, when kept marks can be taken: what ``kept`` returned for a
        # belief at this store version holds again when this gives the very same tuple)
        self.standing_of: Callable[[str], Standing | None] | None = None
        if self._kept is not None:
            tails = self._tails
            self.standing_of = standing_lookup(standing, tails) if tails else standing.get

    def kept(self, belief_id: str) -> "Standing | None":
        """The belief's standing when it is the very tuple the truth graph keeps with it
        (``Currency.plain``), whatever ids it names: a later query at the store version whose
        standing for it is that tuple marks it the same way, each derived id in the form
        ``Shown`` gives it at the version; else None."""
        said = self._standing.get(belief_id)
        if said is None and self._tails and (own := self._tails.get(belief_id)) is not None:
            said = own[0]  # (a leader of a group kept aside)
        kept = self._kept
        if said is None or kept is None:
            return None
        info = kept.get(belief_id)
        return said if info is not None and info[0] is said else None

    def __missing__(self, belief_id: str) -> str:
        said = self._standing.get(belief_id)
        info = None  # (the truth graph's entry for it, when found on the way)
        if said is None and self._tails and (info := self._tails.get(belief_id)) is not None:
            said = info[0]  # (a leader of a group kept aside: its entry, the graph's own)
        if said is not None:
            kept = self._kept
            if (
                kept is not None
                and (info is not None or (info := kept.get(belief_id)) is not None)
                and info[0] is said
                and (text := info[10]) is not None
            ):
                self[belief_id] = text
                return text
        elif self._tails and (leaders := self._bringers.get(belief_id)) is not None:
            # (an other of a group aside: of one leader among those that list it, the one
            # in this query's groups aside, if any)
            for leader in leaders:
                if (info := self._tails.get(leader)) is not None:
                    if self._plain and (text := info[12]) is not None:
                        self[belief_id] = text
                        return text
                    said = info[11]
                    break
        if said is None:
            text = self[belief_id] = ""
            return text
        # (a standing the truth graph keeps, shown whole, had its marks taken above: what is
        # left is one a query made, or one naming a derived id)
        replaces, conflicts, superseded_by = said
        shown = self._shown.__getitem__
        named = (  # (each id asked of ``shown`` in this order: it lists the first asked first)
            tuple(map(shown, replaces)) if replaces else replaces,
            tuple(map(shown, conflicts)) if conflicts else conflicts,
            tuple(map(shown, superseded_by)) if superseded_by else superseded_by,
        )
        text = MARK_TEXTS.get(named)
        if text is None:
            if len(MARK_TEXTS) >= MAXMARK_TEXTS:
                MARK_TEXTS.clear()
            text = MARK_TEXTS[named] = marks(*named)
        self[belief_id] = text
        return text


def standing_lookup(
    standing: "Mapping[str, Standing]", tails: "Mapping[str, Relevant]"
) -> "Callable[[str], Standing | None]":
    """id -> its standing: set by the truth step, or as the leader of a group kept aside,
    its entry's first field (``Currency.tails``). (A closure over the two maps, not a bound
    method: ``Marks`` keeps it, and a bound method would make the Marks a reference cycle,
    left for the cycle collector to free after every query.)"""
    get, lead = standing.get, tails.get

    def of(belief_id: str) -> "Standing | None":
        said = get(belief_id)
        if said is None and (own := lead(belief_id)) is not None:
            return own[0]  # type: ignore[no-any-return]
        return said

    return of


# Standing, as the block names the ids -> its marks: a belief in dispute is marked the same
# way by every query at one store version, and making the text costs more than finding it
# (a pure function: kept across versions, started over past the bound).
MARK_TEXTS: dict["Standing", str] = {}
MAXMARK_TEXTS = 50_000


def place_locked(
    locked: list[Belief], budget: int, marked: Mapping[str, str], shown: Mapping[str, str]
) -> tuple[list[Belief], list[Belief], list[int]]:
    """L0: locked beliefs first, never trimmed for relevance; but if they alone exceed half
    the budget, the other half stays reserved for the query, and the locks beyond it are
    listed (``locked_overflow``), never dropped silently. Returns (placed, overflow, the
    placed beliefs' costs)."""
    costs = [belief_tokens(shown[b.id], b.content, True, marked[b.id], b.trail) for b in locked]
    cap = budget if sum(costs) <= budget // 2 else budget // 2
    placed: list[Belief] = []
    placed_costs: list[int] = []
    overflow: list[Belief] = []
    used = 0
    for belief, cost in zip(locked, costs, strict=True):
        if not overflow and used + cost <= cap:
            placed.append(belief)
            placed_costs.append(cost)
            used += cost
        else:
            overflow.append(belief)
    return placed, overflow, placed_costs
