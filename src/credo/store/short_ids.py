"""Short belief ids: the block shows the shortest unique prefix of an id, and every place
that takes an id takes that prefix back (git's way with commit hashes).

A derived id (``b`` and 15 hex digits, knowledge/identity.py) costs 19 characters a line in
the block, ~9% of a documentation pack of 29 lines; most of it tells the model nothing. So
a derived id is shown as its shortest prefix of at least ``SHORT_CHARS`` characters that no
other id in its store starts with (forgotten beliefs count: ``credo show`` reads them), and
``full_id`` turns such a prefix back into the id. An id a person or a record chose
(``credo remember --id``, an import) is always shown whole: it was chosen to be read.

A prefix is unique when it is shown; a belief written later may share it, and then the
prefix names two beliefs: ``full_id`` refuses it (``AmbiguousIdError``, listing them)
instead of guessing, as git does. With 28 bits at the shortest, each belief written later
shares a given 8-character prefix with odds of one in 268 million.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from itertools import compress, filterfalse
from operator import not_

from credo.errors import InvalidInputError

SHORT_CHARS = 8  # "b" and 7 hex digits: 28 bits, as git's default abbreviation
AMBIGUOUS_SHOWN = 5  # candidates an ambiguous prefix's error lists
# A derived id's hex: 15 digits (knowledge/identity.derived_id), lengthened 4 at a time on the
# rare prefix collision (Memory.remember, ingest's _free_ids), up to the whole sha256's 64.
_DERIVED_HEX = r"[0-9a-f]{15}(?:[0-9a-f]{4}){0,12}|[0-9a-f]{64}"
_DERIVED = re.compile(rf"b(?:{_DERIVED_HEX})")


# The two below are compiled on first use (`cache`): a one-shot hook needs neither.
@cache
def _derived_lines() -> re.Pattern[str]:
    """``_DERIVED``, one per line of a text: a retrieve's candidates sorted out in one scan
    (ids hold no control character: identity.check_id)."""
    return re.compile(rf"^b(?:{_DERIVED_HEX})$", re.MULTILINE)


@cache
def _derived_prefix() -> re.Pattern[str]:
    """What a derived id's short form can be: at least SHORT_CHARS of it, at most all."""
    return re.compile(rf"b[0-9a-f]{{{SHORT_CHARS - 1},64}}")


# (prefix, limit) -> up to ``limit`` stored ids starting with ``prefix``, in id order
# (``Store.ids_with_prefix``).
PrefixLookup = Callable[[str, int], list[str]]
# ids -> those whose first ``SHORT_CHARS`` characters start another stored id too
# (``Store.sharing_short_prefix``: one statement for a retrieve's candidates).
SharedLookup = Callable[[list[str]], set[str]]


class AmbiguousIdError(InvalidInputError):
    """A short id that names more than one belief."""


def derived_ids(ids: Iterable[str]) -> list[str]:
    """Those of ``ids`` that are derived, as ``Shown`` finds them (the others it shows
    whole, whatever the query)."""
    return _derived_lines().findall("\n".join(ids))


def _derived_flags(ids: list[str]) -> list[bool]:
    """``shortenable`` of each of ``ids``, C-level through a memo: a warm query asks about
    the same ~170 ids again and again, and a regular expression over them costs more than
    the lookups (a pure function of the id: kept across versions, started over past the
    bound)."""
    try:  # (a KeyError: an id not met yet; no scan of the flags for a None, ~160 a query)
        return list(map(_IS_DERIVED.__getitem__, ids))
    except KeyError:
        pass
    if len(_IS_DERIVED) + len(ids) > _MAX_IS_DERIVED:
        _IS_DERIVED.clear()
    for i in ids:
        if i not in _IS_DERIVED:
            _IS_DERIVED[i] = _DERIVED.fullmatch(i) is not None
    return list(map(_IS_DERIVED.__getitem__, ids))


_IS_DERIVED: dict[str, bool] = {}
_MAX_IS_DERIVED = 100_000  # (~5 MB at most)


def learn_derived(ids: list[str]) -> None:
    """Put ``shortenable`` of each of ``ids`` in the memo ``_derived_flags`` reads, by one
    scan of them all (``derived_ids``), when they fit it: a warm index's beliefs, told at
    index read, so that a first pass over new queries runs no expression on an id. Ids
    holding a line break (none can: identity.check_id) are left to the memo's own way."""
    if len(_IS_DERIVED) + len(ids) > _MAX_IS_DERIVED or any("\n" in i for i in ids):
        return
    _IS_DERIVED.update(dict.fromkeys(ids, False))
    _IS_DERIVED.update(dict.fromkeys(derived_ids(ids), True))


def sharing_flags(ids: Iterable[str]) -> dict[str, bool]:
    """Each derived id among ``ids`` (every id a store holds, forgotten ones too) -> whether
    its ``SHORT_CHARS`` prefix starts another of ``ids``: ``Store.sharing_short_prefix``'s
    answer for all of them at once (a warm index's, made at index read). The ids that start
    with a prefix are a run of the sorted ids around the one it is taken from, so a look at
    its two neighbours answers (code-point order: SQLite's BINARY over UTF-8)."""
    ordered = sorted(ids)
    last = len(ordered) - 1
    at = {x: n for n, x in enumerate(ordered)}
    flags: dict[str, bool] = {}
    for x in derived_ids(ordered):
        n, prefix = at[x], x[:SHORT_CHARS]
        flags[x] = (n > 0 and ordered[n - 1].startswith(prefix)) or (
            n < last and ordered[n + 1].startswith(prefix)
        )
    return flags


def shortenable(belief_id: str) -> bool:
    """Whether ``belief_id`` is a derived id (so longer than its shortest form). A chosen id
    of another length is shown whole even when it looks like hex ("bcafe12345")."""
    return _DERIVED.fullmatch(belief_id) is not None


def shortest(belief_id: str, lookup: PrefixLookup) -> str:
    """The shortest prefix of ``belief_id`` (at least ``SHORT_CHARS`` long) that no other
    stored id starts with; the id itself when it is not a derived one, or when no shorter
    prefix is unique (an id that is a prefix of another's)."""
    if not shortenable(belief_id):
        return belief_id
    for width in range(SHORT_CHARS, len(belief_id)):
        prefix = belief_id[:width]
        if lookup(prefix, 2) == [belief_id]:
            return prefix
    return belief_id


def full_id(text: str, exists: Callable[[str], bool], lookup: PrefixLookup) -> str:
    """The stored id that ``text`` names: ``text`` itself when an id is exactly that, else
    the one id a short form (a derived id's prefix of ``SHORT_CHARS`` or more) starts; else
    ``text`` unchanged, for the caller's not-found error to name.

    Raises:
        AmbiguousIdError: ``text`` is a prefix of two or more stored ids and none is ``text``.
    """
    if not isinstance(text, str) or exists(text):
        return text
    if _derived_prefix().fullmatch(text) is None:
        return text
    found = lookup(text, AMBIGUOUS_SHOWN + 1)
    if len(found) == 1:
        return found[0]
    if found:
        more = ", ..." if len(found) > AMBIGUOUS_SHOWN else ""
        named = ", ".join(found[:AMBIGUOUS_SHOWN])
        raise AmbiguousIdError(
            f"short id {text!r} names more than one belief ({named}{more}); give more of it"
        )
    return text


def prefix_bounds(prefix: str) -> tuple[str, str]:
    """(low, high) such that an id starts with ``prefix`` exactly when low <= id < high, in
    code-point order (SQLite's BINARY collation; PostgreSQL's columns are ``COLLATE "C"``).
    ``prefix`` is a derived id's prefix: its last character is never the highest."""
    return prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)


class Shown(dict[str, str]):
    """id -> the form the block shows (``shortest``), worked out on first lookup. The
    candidates' are asked in one statement (``shared``) when the first derived one is
    looked up (most lines of a warm query give their forms back instead: ``met``): a derived
    id whose ``SHORT_CHARS`` prefix no other id starts is shown by it; any other (a prefix
    that another id shares, an id met later: a mark's) takes ``shortest``'s range reads. Ids
    in ``whole`` (another store's: a global lock) are shown whole, since this store cannot
    vouch that their prefix is unique. An id met later (a mark's, the others of a group the
    truth step keeps aside) takes the form it would take listed: one not derived is shown
    whole, with no statement asked. ``sharing``: every
    derived id's answer to ``shared`` at the store version, when the caller holds them all
    (``Store.short_prefix_sharing``: a warm index's, made at index read): each id is then
    looked up alone as it is asked for, and the candidates are never asked as a whole (a
    query in dispute lists ~165 and shows a third of them)."""

    __slots__ = ("_alone", "_asked", "_lookup", "_shared", "_sharing", "_short", "_whole")

    def __init__(
        self,
        candidates: list[str],
        shared: SharedLookup,
        lookup: PrefixLookup,
        whole: "set[str] | dict[str, object]",
        sharing: "Mapping[str, bool] | None" = None,
    ) -> None:
        super().__init__()
        self._lookup = lookup
        self._sharing = sharing
        self._whole = whole
        self._short = False  # whether any id is shown short (``changed`` lists them)
        # (C-level: a query in dispute asks for dozens more, the groups' others)
        listed = list(filterfalse(whole.__contains__, candidates)) if whole else candidates
        flags = _derived_flags(listed)
        self._asked = asked = list(compress(listed, flags))
        self._shared = shared
        self._alone: set[str] | None = None if asked else set()  # (``_alone_ids``)
        # The others are shown whole (not derived, or another store's): set here in one
        # C-level pass, not one ``__missing__`` each. ``changed`` lists none of them.
        if whole:
            others = list(filterfalse(set(asked).__contains__, candidates))
        elif not asked:  # (no derived id: every one shown whole, with no pass over them)
            others = candidates
        else:
            others = list(compress(candidates, map(not_, flags)))
        self.update(zip(others, others, strict=True))

    def _alone_ids(self) -> set[str]:
        """The derived candidates whose ``SHORT_CHARS`` prefix no other id starts."""
        alone = self._alone
        if alone is None:
            asked = self._asked
            alone = self._alone = set(asked).difference(self._shared(asked))
        return alone

    def _is_alone(self, belief_id: str) -> bool:
        """Whether ``belief_id`` is a derived id whose ``SHORT_CHARS`` prefix no other id
        starts (a candidate, or any id when ``sharing`` holds every answer; another id goes
        to ``shortest``, which gives such an id the same prefix)."""
        sharing = self._sharing
        if sharing is not None:
            return sharing.get(belief_id) is False
        # (an id met later that is not derived needs no answer: the statement over the
        # candidates is not asked for it, when no derived one has asked it yet)
        if self._alone is None and not shortenable(belief_id):
            return False
        return belief_id in self._alone_ids()

    def __missing__(self, belief_id: str) -> str:
        if belief_id in self._whole:
            shown = belief_id
        elif self._is_alone(belief_id):
            shown = belief_id[:SHORT_CHARS]
        else:
            shown = shortest(belief_id, self._lookup)
        self[belief_id] = shown
        if shown != belief_id:
            self._short = True
        return shown

    def form(self, belief_id: str) -> str:
        """The form ``belief_id`` is shown in (``shortest``), without asking for it:
        ``changed`` does not list it for this. An id another store's (``whole``) may be
        shown whole in this query: the caller leaves those out."""
        found = self.get(belief_id)
        if found is not None:
            return found
        if self._is_alone(belief_id):
            return belief_id[:SHORT_CHARS]
        return shortest(belief_id, self._lookup)

    def forms(self, ids: Iterable[str]) -> "tuple[tuple[str, str], ...] | None":
        """(id, the form shown) of those of ``ids`` asked already and shown short, in order;
        None when one is another store's (``whole``: a query's global locks, not the store
        version's). Apart from those, a form is a function of the store's ids (``shortest``,
        forgotten beliefs included), so a long-lived process may keep it per store version
        and give it back (``met``) instead of asking again."""
        whole = self._whole
        if whole and any(map(whole.__contains__, ids)):
            return None
        get = self.get
        return tuple((i, s) for i in ids if (s := get(i, i)) != i)

    def met(self, forms: "tuple[tuple[str, str], ...]") -> bool:
        """Take ``forms`` (``forms``, kept at this store version) as though each id were
        asked for in turn: ``changed`` lists them in the same order. False, taking nothing,
        when one is shown whole in this query (another store's)."""
        whole = self._whole
        if whole and any(whole.__contains__(i) for i, _ in forms):
            return False
        self.update(forms)  # (an id asked already keeps its place and its very form)
        self._short = True
        return True

    def changed(self) -> dict[str, str]:
        """The ids shown short, in the order they were first asked for (none without a
        look-up: a store whose ids were all chosen shows every one whole)."""
        if not self._short:
            return {}
        return {i: s for i, s in self.items() if s != i}
