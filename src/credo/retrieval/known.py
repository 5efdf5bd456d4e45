"""What the compress stage knows of beliefs at one store version (``Known``): their lines
and whether a person stated them, kept by a long-lived process while the store does not
change (retrieval/compress.py charges the lines it reads here)."""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Callable
from itertools import compress as selected
from itertools import filterfalse

__all__ = ["MAX_KNOWN", "Known"]


class Known:
    """What the compress stage reads of beliefs that holds while the store stays at one
    version, made as the queries meet them (never for every belief: a million-belief store
    would hold a million entries): ``lines``, the line of each belief whose text is short
    (never cut) with its text whole (``whole_line``); ``long``, the same for a long text
    when a query shows it whole or asks whether the pack fits it whole (a passage of a
    document: its line counted once, not on every query); ``plain``, those of them no query at
    the version marks nor shortens (``Costs.fill``); ``short``, those no query marks whose
    derived id is shown short, with its form (``Shown.forms``, taken back by ``Shown.met``);
    ``groups``, a group kept aside's leader -> the lines of its others the truth graph
    does not know (``standing.GroupLines``: their ids shown short);
    ``kept``, the lines of those whose marks are the truth graph's own
    (``standing.Marks.kept``), with the standing they hold for (a query that gives the
    belief that very tuple marks it the same way) and the forms of the ids they show short;
    ``stated``, whether a person stated or corrected it (``Store.stated``); and ``labels``,
    the text of its leading label ("" for none: the speaker lane's ``label_of``). A long-lived
    process keeps one per store version (the truth links' memo holds it:
    ``TruthReader.kept``), so a write, by this process or another, starts a new one. Each
    is started over past ``MAX_KNOWN`` entries. ``graph``: the version's truth graph made at
    index read with it (retrieval/truth_ahead.py; None: not made), which the store's truth
    memo keeps (``TruthQueries._adopt_truth``); ``names``: the definitions' names made at
    index read with it (a name, lowercased -> the live, unlocked passages whose trail ends
    with it, in id order: retrieval/named.py's ``names_ahead``; None: not made), which a
    question naming a definition reads instead of the context index."""

    __slots__ = (
        "graph",
        "groups",
        "kept",
        "labels",
        "lines",
        "long",
        "names",
        "plain",
        "short",
        "stated",
    )

    def __init__(self) -> None:
        self.lines: dict[str, int] = {}
        # (apart from ``lines``: those made ahead, the short lines a first pass reads, are
        # never started over for the sake of long lines met later)
        self.long: dict[str, int] = {}
        # (standing, chars) or, with ids shown short, (standing, chars, their forms)
        self.kept: dict[
            str, tuple[object, int] | tuple[object, int, tuple[tuple[str, str], ...]]
        ] = {}
        self.plain: dict[str, int] = {}
        # (those of ``plain``'s kind whose derived id is shown short: with its form)
        self.short: dict[str, tuple[int, tuple[tuple[str, str], ...]]] = {}
        self.stated: dict[str, bool] = {}
        self.labels: dict[str, str] = {}
        self.groups: dict[str, dict[str, int]] = {}
        self.graph: object = None
        self.names: dict[str, tuple[str, ...]] | None = None

    @staticmethod
    def at(
        kept: "dict[str, object]",
        read: Callable[[list[str]], set[str]],
        ahead: "Callable[[], object] | None" = None,
    ) -> "tuple[Known, Callable[[list[str]], set[str]]]":
        """The one kept in ``kept`` (a store version's), made on first use, and ``read``
        (``Store.stated``) through it; or the one made at index read (``ahead``)."""
        found = kept.get("compress")
        if not isinstance(found, Known):
            made = None if ahead is None else ahead()
            found = kept["compress"] = made if isinstance(made, Known) else Known()
        return found, found.stated_of(read)

    def stated_of(self, read: Callable[[list[str]], set[str]]) -> Callable[[list[str]], set[str]]:
        """``read`` (``Store.stated``) asked only about the ids not known yet."""
        known = self.stated

        def stated(ids: list[str]) -> set[str]:
            out = set(selected(ids, map(known.get, ids)))  # (None: not known, read below)
            unread = list(filterfalse(known.__contains__, ids))
            if unread:
                found = read(unread)
                out |= found
                if len(known) >= MAX_KNOWN:
                    known.clear()
                known.update(zip(unread, map(found.__contains__, unread), strict=True))
            return out

        return stated


MAX_KNOWN = 100_000
