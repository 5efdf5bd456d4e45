"""The compress stage: how each candidate is rendered in the pack, chosen before it is packed.

SYSTEM.md names the pipeline rank -> cluster -> compress -> pack. What reaches the agent is
the pack, and a long passage that answers with one sentence would spend a budget's worth of
lines on the rest. So each candidate is rendered by one of three strategies, and the pack
charges what is rendered (``tokens.belief_tokens`` over the rendered text):

- **verbatim**: the text as stored. Always for what a person stated or corrected (origin
  ``user_stated`` / ``user_corrected``, kind ``correction``), for locked beliefs (placed by
  L0, never compressed), for any text of at most ``SHORT_CHARS`` characters (~50 tokens: a
  cut would save too little to be worth a gap), and, in "auto", for the head of the
  ranking: the best candidates whose whole lines fit in ``HEAD_SHARE`` of the budget
  (``head_ids``: the answer sits most often there, and a cut there is where it is lost).
- **snippet** (query-biased), for the candidates below the head: the one sentence that
  carries the most distinct query terms (ties: the earlier), with "…" where text is cut. A
  term is what the keyword index makes of a query word (``store.stem``: unicode61 folding
  and porter stems, tested against FTS5), so a sentence "carries" a term exactly when the
  keyword lane would match it there. A sentence longer than ``SNIPPET_CAP`` characters is
  cut to a window of the cap around its first matching word, at word boundaries. One
  sentence, not several: below the head a candidate is a pointer with its best evidence,
  and the shorter line lets more of the ranking into the pack (bench figures:
  docs/BENCHMARKS.md § Compress before pack).
- **headline**: when no sentence carries a term (a candidate the graph or session lanes
  brought), the first sentence, joined by the next ones while it is shorter than
  ``HEADLINE_MIN`` (a heading alone says little) and within ``HEADLINE_CAP``.

A candidate's retention class (a snapshot: a changelog entry, a dated status; a transient
note) may change its rendering, by the rules in ``RETENTION_RULES`` that are on
(``DEFAULT_RETENTION_RULES``: "tight", a shorter snippet; the others measured and off:
docs/BENCHMARKS.md § Retention classes). ``Classes`` reads the classes in one batch.

A snippet or headline that would save fewer than ``MIN_SAVING`` characters is verbatim
instead. Sentences are cut at line breaks and after ``.``, ``!`` or ``?`` (a closing quote
or bracket may follow) when the next word does not start in lower case. Every kept piece is
a span of the stored text, in order (``snippet.Compressed.spans``): a snippet never changes a
character it keeps. The full text stays reachable: ``credo show ID``, the MCP tool
``get_belief``, and for a passage of a document its place (file, section, lines), which
the block says above and on its line (retrieval/place.py, which also drops a passage's
first line when it is the section title the line above shows).

Pure and deterministic: text and query in, text out. This module is the stage (what is
cut, what it costs); the text rules live in ``retrieval/snippet.py``, loaded when the pack
first reaches a long candidate. The query's terms are computed once per retrieve
(``snippet.Terms``), and only the candidates the pack reaches are rendered.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from itertools import accumulate, count, filterfalse, islice, repeat, takewhile
from itertools import compress as kept_by
from math import floor
from typing import TYPE_CHECKING, Any

from credo.errors import InvalidInputError
from credo.retrieval.known import MAX_KNOWN, Known
from credo.retrieval.line_floor import SHORT_CHARS, least_chars, long_ids
from credo.retrieval.place import Places, tokens_of, whole_chars
from credo.tokens import CHARS_PER_TOKEN, escape, line_chars

if TYPE_CHECKING:  # the text rules load with the first long candidate
    from credo.retrieval.bundle import Members
    from credo.retrieval.snippet import Compressed, Terms

VERBATIM = "verbatim"
SNIPPET = "snippet"
HEADLINE = "headline"
COMPRESS_MODES = ("auto", "always", "off")  # pipeline.Options.compress
HEAD_SHARE = 0.25  # "auto": the ranking's head, shown whole, costs at most this share
# What a long candidate's retention class (credo.types.RETENTIONS) changes, for a snapshot
# or a transient belief (never for one a person stated, which stays verbatim):
#   "head"      it is not shown whole in the head of the ranking: a changelog section or a
#               dated status is a list of separate items, and the query-biased snippet
#               keeps the one the query names;
#   "headline"  below the head it is shown as its headline, not a snippet;
#   "tight"     below the head its snippet is cut to ``TIGHT_CAP`` characters, not the
#               usual cap: one item of a record, around the words the query names.
RETENTION_RULES = ("head", "headline", "tight")
TIGHT_CAP = 160
# On by default: what helped, measured (docs/BENCHMARKS.md § Retention classes).
DEFAULT_RETENTION_RULES: frozenset[str] = frozenset({"tight"})


class Costs(dict[str, int]):
    """The characters of each candidate's own line as the compress stage renders it,
    computed on first lookup from its content, marks and place (``place.Places``: its
    trail whole, or its line range under its file and section lines), which
    ``place.Charges`` charges in tokens; ``cut`` holds the candidates it cut."""

    __slots__ = (
        "_classes",
        "_content",
        "_headlines",
        "_keep",
        "_kept_lines",
        "_kept_short",
        "_kept_standing",
        "_known",
        "_linked",
        "_long",
        "_marked",
        "_plain",
        "_query",
        "_read",
        "_shown",
        "_terms",
        "_tight",
        "_trails",
        "_whole",
        "cut",
        "untitled",
    )

    def __init__(
        self,
        content: Mapping[str, str],
        marked: Mapping[str, str],
        trails: Places,
        query: str,
        keep: "set[str] | Callable[[], set[str]]",
        classes: "Classes | None" = None,
        shown: Mapping[str, str] | None = None,
        known: "Known | None" = None,
    ) -> None:
        super().__init__()
        self._content = content
        self._marked = marked
        self._trails = trails
        self._query = query
        self._terms: Terms | None = None  # read only when a long candidate is rendered
        self._keep = keep
        self._classes = classes
        self._headlines = classes is not None and "headline" in classes.rules
        self._tight = classes is not None and "tight" in classes.rules
        self.cut: dict[str, Compressed] = {}
        self.untitled: dict[str, str] = {}  # the text shown without its section's title
        # The form each id is shown in: ``shown`` on a flat store (``Places.flat``, where
        # ``trails`` is never asked for a place), else the one ``trails`` was given.
        self._shown = shown if trails.flat and shown is not None else trails.shown
        # id -> its line with its text whole and no marks, kept at the store version
        self._known = Known() if known is None else known
        self._whole = self._known.lines
        self._long = self._known.long
        # A belief's line with the marks the truth graph keeps with it (``Known.kept``), and
        # this query's standing of each belief when such marks can be taken (``Marks``)
        self._kept_lines = self._known.kept
        self._kept_short = self._known.short
        self._kept_standing = getattr(marked, "standing_of", None)
        # ``Known.plain`` once ``fill`` is told which beliefs have truth links (``_read`` and
        # ``_linked``: the truth graph's; None: no candidate has one)
        self._plain: dict[str, int] | None = None
        self._read: set[str] | None = set()
        self._linked: Collection[str] | None = set()

    def __missing__(self, belief_id: str) -> int:
        # (a derived id's plain line, its short form taken as though asked)
        if (hit := self._kept_short.get(belief_id)) is not None and self._shown.met(hit[1]):  # type: ignore[union-attr]
            chars = self[belief_id] = hit[0]
            return chars
        # (a relevant belief on a store in dispute, ~19 a query: no text, marks or id read)
        if (hit := self._kept_lines.get(belief_id)) is not None:
            standing_of = self._kept_standing
            # (ids shown short: their forms taken as though asked, as the line asks them)
            if (
                standing_of is not None
                and standing_of(belief_id) is hit[0]
                and (len(hit) == 2 or self._shown.met(hit[2]))  # type: ignore[union-attr,misc]
            ):
                chars = self[belief_id] = hit[1]
                return chars
        text = self._content[belief_id]
        if len(text) > SHORT_CHARS and belief_id not in self._kept():
            from credo.retrieval.snippet import SNIPPET_CAP, Terms, compress

            terms = self._terms
            if terms is None:
                terms = self._terms = Terms(self._query)
            classes = self._classes
            record = classes is not None and belief_id in classes.cut_below_head()
            shown = compress(
                text,
                terms,
                headline=record and self._headlines,
                cap=TIGHT_CAP if record and self._tight else SNIPPET_CAP,
            )
            if shown.strategy != VERBATIM:
                self.cut[belief_id] = shown
                return self._placed(belief_id, shown.text)
        # Shown whole: its line but for the marks and the id's short form is the belief's
        # alone at this store version, made once (``shown_whole``, inline: the hot path).
        short = len(text) <= SHORT_CHARS
        whole = self._whole if short else self._long
        chars = whole.get(belief_id)
        if chars is None:
            chars = whole_line(self._trails, belief_id, text)
            if chars is None:  # its first line dropped (``_placed``): left to each query
                return self._placed(belief_id, text)
            if len(whole) >= MAX_KNOWN:
                whole.clear()
            whole[belief_id] = chars
        marked = self._marked[belief_id]  # (asked before the id, as ``shown_whole`` asks)
        shown = self._shown
        if shown is not None and (as_shown := shown[belief_id]) is not belief_id:
            chars += id_chars(as_shown) - id_chars(belief_id)
            if not marked and short and self._plain is not None and self._unlinked(belief_id):
                forms = shown.forms((belief_id,))  # type: ignore[attr-defined]
                if forms is not None:
                    keep(self._kept_short, belief_id, (chars, forms))
        elif (
            not marked
            and short
            and (plain := self._plain) is not None
            and self._unlinked(belief_id)
        ):
            keep(plain, belief_id, chars)  # (``fill`` costs it from now on)
        # (a marked line, its id shown whole or short: kept with the truth graph's standing)
        if marked and short and shown is not None and self._kept_standing is not None:
            self._keep_marked(belief_id, chars + len(marked))
        chars += len(marked)
        self[belief_id] = chars
        return chars

    def _unlinked(self, belief_id: str) -> bool:
        """Whether the belief has no truth link at the store version (``fill``)."""
        linked = self._linked
        read = self._read  # (None: every belief is known, those in ``linked`` linked)
        return linked is None or (belief_id not in linked and (read is None or belief_id in read))

    def _keep_marked(self, belief_id: str, chars: int) -> None:
        """Keep the line (``chars``) of a belief marked as the truth graph keeps it, with
        that standing and the forms of the ids it shows short (``Shown.forms``: they hang on
        the store's ids alone, and ``Shown.met`` gives them back in the order asked)."""
        said = self._marked.kept(belief_id)  # type: ignore[attr-defined]
        if said is None:
            return
        replaces, conflicts, superseded_by = said
        forms = self._shown.forms((*replaces, *conflicts, *superseded_by, belief_id))  # type: ignore[union-attr]
        if forms is not None:
            keep(self._kept_lines, belief_id, (said, chars, forms) if forms else (said, chars))

    def fill(
        self, ids: Iterable[str], truth: object, every: "Mapping[str, object] | None" = None
    ) -> None:
        """Cost in one C-level pass the ``ids`` whose line the store version fixes whole
        (``Known.plain``), and from then on keep those met that way: a short text (never
        cut), its id shown whole (``Shown`` sets the ids it never shortens up front) and no
        truth link, so no marks, whatever the query: costing it asks ``Marks`` and ``Shown``
        nothing, so which are costed, and when, changes no answer. ``truth``: True when no
        candidate has a truth link, else the store version's truth graph (its ``read`` and
        ``linked`` beliefs: ``TruthGraph``), if kept (anything else: not known, none kept).
        ``every``: every truth link by belief at the version, when all are read (the truth
        reader's ``every``: a belief without an entry has none, read by the graph or not)."""
        plain = self._known.plain
        read, linked = getattr(truth, "read", None), getattr(truth, "linked", None)
        if truth is True:
            self._plain, self._linked = plain, None
        elif every is not None and isinstance(linked, set):
            self._plain, self._read, self._linked = plain, None, every  # type: ignore[assignment]
        elif isinstance(read, set) and isinstance(linked, set):
            self._plain, self._read, self._linked = plain, read, linked
        if plain:
            found = list(filter(plain.__contains__, ids))
            self.update(zip(found, map(plain.__getitem__, found), strict=True))

    def _placed(self, belief_id: str, text: str) -> int:
        """The characters of the line showing ``text``, counted as ``Places`` counts them;
        a passage's first line, when it is its section's title, is said by the section line
        above it (retrieval/place.py): shown once."""
        if self._trails.flat:  # (no place: the marks asked before the id, as Places asks)
            marked = self._marked[belief_id]
            shown = self._shown
            as_shown = belief_id if shown is None else shown[belief_id]
            cost = self[belief_id] = line_chars(as_shown, text, False, marked)
            return cost
        short = self._trails.untitled(belief_id, text)
        if short is not None:
            self.untitled[belief_id] = text = short
        cost = self[belief_id] = self._trails.line_chars(belief_id, text, self._marked[belief_id])
        return cost

    def _kept(self) -> set[str]:
        keep = self._keep
        if not isinstance(keep, set):  # read when the first long candidate is met
            keep = self._keep = keep(self) if isinstance(keep, _Head) else keep()
        return keep

    def shown(self, belief_id: str) -> tuple[str, str]:
        """(strategy, text shown on its line) of a candidate whose cost was asked for."""
        strategy, text = self._rendered(belief_id)
        return strategy, self.untitled.get(belief_id, text)

    def shown_all(self, ids: Sequence[str]) -> list[tuple[str, str]]:
        """``shown`` of each of ``ids``, in turn: C-level when none was untitled, the few
        cut (~1 a query in three) then put in their places (a call each cost ~730
        instructions a packed belief)."""
        if self.untitled:
            return list(map(self.shown, ids))
        out = list(zip(repeat(VERBATIM), map(self._content.__getitem__, ids)))
        if (cut := self.cut) and not cut.keys().isdisjoint(ids):
            for n in kept_by(count(), map(cut.__contains__, ids)):
                out[n] = cut[ids[n]][:2]
        return out

    def _rendered(self, belief_id: str) -> tuple[str, str]:
        """(strategy, text) as the strategy renders it, its section's title included."""
        found = self.cut.get(belief_id)
        return (VERBATIM, self._content[belief_id]) if found is None else found[:2]

    def carried(self, belief_id: str) -> frozenset[str]:
        """The query terms (as the keyword index stems them) that the candidate's line
        shows once rendered: what the cluster pack's aspect gate reads."""
        self[belief_id]  # renders it: the text below is what is shown
        terms = self._terms
        if terms is None:
            from credo.retrieval.snippet import Terms

            terms = self._terms = Terms(self._query)
        # The title's words count: the section line above the candidate's shows them.
        return frozenset(stem for _, stem in terms.hits(self._rendered(belief_id)[1]))


def whole_line(places: Places, belief_id: str, text: str) -> int | None:
    """The characters of the belief's own line showing ``text`` whole, with its id whole
    and no marks (a line's marks add their length, a short id its own); None when the
    block drops the line's first line (``Places.untitled``). Nothing in it depends on the
    query: it is the belief's text and trail, fixed at a store version."""
    if places.flat:
        return line_chars(belief_id, text, False)
    place = places[belief_id]
    if place is None:
        return line_chars(belief_id, text, False, "", places.trail(belief_id))
    if places.untitled(belief_id, text) is not None:
        return None
    return line_chars(belief_id, text, False, "", lines=place.lines)


def shown_whole(
    known: Known,
    places: Places,
    marked: Mapping[str, str],
    shown: Mapping[str, str] | None,
    belief_id: str,
    text: str,
) -> int | None:
    """The characters of the belief's line showing its ``text`` whole, with its marks and
    its id as ``shown``: ``whole_line``, kept in ``known`` (``Known.lines`` for a short
    text, one never cut, ``Known.long`` for a long one), plus the marks and what the short
    id changes; None where ``whole_line`` is None. The marks are asked before the id, the
    order ``Places.line_chars`` asks them in (``Shown.changed`` lists ids in the order
    asked)."""
    whole = known.lines if len(text) <= SHORT_CHARS else known.long
    chars = whole.get(belief_id)
    if chars is None:
        chars = whole_line(places, belief_id, text)
        if chars is None:
            return None
        keep(whole, belief_id, chars)
    chars += len(marked[belief_id])
    if shown is not None and (as_shown := shown[belief_id]) is not belief_id:
        chars += id_chars(as_shown) - id_chars(belief_id)
    return chars


def keep(known: "dict[str, Any]", belief_id: str, chars: object) -> None:
    """``known[belief_id] = chars``, ``known`` started over past ``MAX_KNOWN`` entries."""
    if len(known) >= MAX_KNOWN:
        known.clear()
    known[belief_id] = chars


def id_chars(belief_id: str) -> int:
    """The characters an id takes on its line (``tokens.escape`` keeps a plain one)."""
    return len(escape(belief_id))


class Carried(dict[str, frozenset[str]]):
    """The query terms each pack unit shows (``Costs.carried``; a conflict group's, the
    union of its members'), read on first lookup: the cluster pack asks only for the
    candidates ranked above a representative it would promote."""

    __slots__ = ("_costs", "_members")

    def __init__(
        self, costs: Costs, members: "Mapping[str, Sequence[str]] | Members | None" = None
    ):
        # (``Members``: ``Units.all_members``, read as a mapping but not one by type)
        super().__init__()
        self._costs = costs
        self._members = members or {}

    def __missing__(self, unit: str) -> frozenset[str]:
        members = self._members.get(unit, (unit,))
        found = self[unit] = frozenset().union(*map(self._costs.carried, members))
        return found


class Classes:
    """The retention class of each candidate that is not a fact (``Store.retention``): the
    long candidates' read in one batch when the compress stage first asks (``read``), the
    other packed ones' after the pack (``of_packed``); and the rules that read them."""

    __slots__ = ("_found", "_read", "asked", "over", "rules")

    def __init__(
        self,
        read: Callable[[list[str]], dict[str, str]],
        ids: list[str],
        content: Mapping[str, str],
        rules: frozenset[str] | None = None,
        asked: list[str] | None = None,
    ) -> None:
        """``asked``: the long ones among ``ids`` when the caller knows them (in any order)."""
        self._read = read
        self.asked = long_ids(ids, content) if asked is None else asked
        self.over = (ids, content)  # what ``asked`` was read from
        self.rules = DEFAULT_RETENTION_RULES if rules is None else rules
        self._found: dict[str, str] | None = None

    @staticmethod
    def check_rules(rules: object) -> None:
        if rules is not None and (
            not isinstance(rules, frozenset) or not rules <= set(RETENTION_RULES)
        ):
            raise InvalidInputError(
                f"retention_rules {rules!r} must be a frozenset of {', '.join(RETENTION_RULES)}"
            )

    def cut_below_head(self) -> dict[str, str]:
        """The classes read when a rule renders them differently below the head, else {}."""
        return self.read() if self.rules & {"headline", "tight"} else {}

    def read(self) -> dict[str, str]:
        found = self._found
        if found is None:
            found = self._found = self._read(self.asked) if self.asked else {}
        return found

    def of_packed(self, packed: list[str]) -> dict[str, str]:
        """The classes of the ``packed`` ids that are not facts: one more batch for those
        the compress stage did not read (none on a store of facts alone)."""
        found = self._found
        covered = set(self.asked) if found is not None else set()
        unread = list(filterfalse(covered.__contains__, packed))
        more = self._read(unread) if unread else {}
        return {**(found or {}), **more} if more else (found or {})


def verbatim_ids(
    ids: list[str],
    content: Mapping[str, str],
    marked: Mapping[str, str],
    trails: Places,
    budget: int,
    mode: str,
    stated: Callable[[list[str]], set[str]],
    classes: Classes | None = None,
    least: int | None = None,
    known: "Known | None" = None,
) -> "set[str] | Callable[[], set[str]]":
    """The long candidates the compress stage must show verbatim (it never cuts short
    ones): all of them when compression is off or when every candidate fits the budget
    whole (``mode`` "auto": a cut would only hide text for nothing); else what a person
    stated or corrected, read by ``stated`` (``Store.stated``, one batched query), and in
    "auto" the head of the ranking (``head_ids``: with the rule "head", its snapshot and
    transient candidates, read by ``classes``, left out); worked out only when the pack
    first reaches a long candidate: returned as that reader. ``ids`` are in rank order;
    ``least`` is ``least_chars(ids, content)`` when the caller knows it; ``known``: what is
    known at the store version, when kept (``Known``: its lines)."""
    # (the long candidates are those ``classes`` reads: the same pass, made once)
    if classes is not None and classes.over[0] is ids and classes.over[1] is content:
        long = classes.asked
    else:
        long = long_ids(ids, content)
    if not long or mode == "off":
        return set(long)
    if mode == "auto" and _fits_whole(ids, content, marked, trails, budget, least, known):
        return set(long)
    if mode == "always":
        return lambda: stated(long)
    if classes is None or "head" not in classes.rules:
        return _Head(
            lambda costs: (
                stated(long) | head_ids(ids, content, marked, trails, budget, None, known, costs)
            )
        )
    return _Head(
        lambda costs: (
            stated(long)
            | head_ids(ids, content, marked, trails, budget, classes.read(), known, costs)
        )
    )


class _Head:
    """What ``verbatim_ids`` returns in "auto" when it cannot tell yet: called, the long
    candidates shown whole (what a person stated, and the head of the ranking); ``Costs``
    calls it with itself, so the head's short lines are the costs it charges (a short text
    is never cut: its whole line is its line), counted once for both."""

    __slots__ = ("_read",)

    def __init__(self, read: "Callable[[Mapping[str, int] | None], set[str]]") -> None:
        self._read = read

    def __call__(self, costs: Mapping[str, int] | None = None) -> set[str]:
        return self._read(costs)


def head_ids(
    ids: list[str],
    content: Mapping[str, str],
    marked: Mapping[str, str],
    trails: Places,
    budget: int,
    cut: Mapping[str, str] | None = None,
    known: Known | None = None,
    costs: Mapping[str, int] | None = None,
) -> set[str]:
    """The best-ranked candidates shown whole: the longest prefix of ``ids`` (rank order)
    whose whole lines cost at most ``HEAD_SHARE`` of the budget. The answer sits most often
    in the first few candidates, and a cut there is where it is lost (a sentence that
    restates the query is kept, the next one that answers it is not); further down, the
    shorter line is what lets one more candidate into the pack. The ids in ``cut`` are not
    shown whole, nor counted. ``costs``: the lines ``Costs`` charges, when given (a short
    candidate's, its whole line)."""
    if cut:
        ids = [i for i in ids if i not in cut]
    added = whole_chars(ids, _WholeLines(content, marked, trails, known, costs), trails)
    # A prefix's estimate (tokens_of, a ceiling of chars / 4) is within the share exactly
    # while its chars are within 4 * floor(share): the prefix is found C-level, the lines
    # costed up to the first past it, as a loop would.
    limit = CHARS_PER_TOKEN * floor(HEAD_SHARE * budget)
    fits = takewhile(limit.__ge__, accumulate(added))
    return set(islice(ids, len(list(fits))))  # (ids may be an ``Expanding``: no slices)


def _fits_whole(
    ids: list[str],
    content: Mapping[str, str],
    marked: Mapping[str, str],
    trails: Places,
    budget: int,
    least: int | None = None,
    known: Known | None = None,
) -> bool:
    # A line costs at least (its text + id + "[] \n") / 4: most packs are ruled out here.
    if least is None:
        least = least_chars(ids, content)
    if least > CHARS_PER_TOKEN * budget:
        return False
    whole = 0
    for chars in whole_chars(ids, _WholeLines(content, marked, trails, known), trails):
        whole += chars
        if tokens_of(whole) > budget:
            return False
    return True


class _WholeLines(dict[str, int]):
    """id -> the characters of its own line with its text whole, on first lookup
    (``shown_whole``; a line the store version fixes whole, ``Known.plain``, as it is)."""

    __slots__ = ("_content", "_costs", "_known", "_marked", "_places", "_plain")

    def __init__(
        self,
        content: Mapping[str, str],
        marked: Mapping[str, str],
        places: Places,
        known: Known | None = None,
        costs: Mapping[str, int] | None = None,
    ):
        super().__init__()
        self._costs = costs
        self._content = content
        self._marked = marked
        self._places = places
        self._known = known = Known() if known is None else known
        self._plain = known.plain

    def __missing__(self, belief_id: str) -> int:
        cost = self._plain.get(belief_id)  # (no marks nor short id to ask for)
        if cost is not None:
            self[belief_id] = cost
            return cost
        text = self._content[belief_id]
        costs = self._costs
        if costs is not None and len(text) <= SHORT_CHARS:  # (never cut: the same line)
            cost = self[belief_id] = costs[belief_id]
            return cost
        places = self._places
        cost = shown_whole(self._known, places, self._marked, places.shown, belief_id, text)
        if cost is None:  # (its first line dropped: the section line above says it)
            text = places.untitled(belief_id, text) or text
            cost = places.line_chars(belief_id, text, self._marked[belief_id])
        self[belief_id] = cost
        return cost
