"""Where a packed passage sits, said once: the pack shows a document's passages under one
line naming their file and one line per section title, so each passage's own line carries
only its line range.

A passage's trail (``docs/guide/auth.md › OAuth2 › Scopes L40-L58``) took 27–38% of a
1,500-token pack's characters, and most packed passages share a file with a better-ranked
one, often a section too (docs/BENCHMARKS.md § Places said once). The block therefore reads:

    in docs/guide/auth.md             a file line: the passages below are in this file
    [b4] text (L1-L12)                a passage outside any section: its lines
    › OAuth2                          a section title's line
    [b2] text (L20-L38)               a passage of "OAuth2": its lines
      › Scopes                        a subsection's title, indented under its parent
    [b1] text (L40-L58)               a passage of "OAuth2 › Scopes"
    [b9] text (L59-L70)
      › Tokens
    [b7] text (L80-L95)
    in docs/other.md
    ...

Every line says one thing and starts with what it is: ``in `` a file, ``› `` (after its
indent) a section title, ``[`` a belief. A passage's full trail is its file line, the
title lines above it (the nearest at each indent) and its lines, joined as ingest wrote
them (``Place.trail``). A passage whose text starts with its section's title shows it
once, on the title's line (``Places.untitled``). Beliefs without a trail of that form
(notes, conversation turns, locks, whose trail stays whole on their line) come first, in
their order; then each file at the place of its best passage: its passages outside any
section, then each title at the place of its best passage, a title's own passages (by
rank) before its subsections.

Charged as rendered, with the one estimator (``tokens.estimate``) over the pack's lines
taken as one text: a file or title line costs its characters, and the first passage
packed under it pays for them (``Charges``: the pack's greedy order decides, in both pack
modes and for conflict groups). So the tokens a pack reports are the estimate of the text
of the lines it renders (locks aside: each is charged for its own line, before the pack).
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Iterable, Mapping, Sequence

from credo.retrieval.bundle import GROUP, Aside
from credo.tokens import CHARS_PER_TOKEN, escape, line_chars
from credo.types import TRAIL_SEPARATOR, split_lines

FILE_MARK = "in "  # starts a file line
SECTION_MARK = "› "  # starts a section line, after its indent
INDENT = "  "  # a section line's indent per level below the outermost


class Place:
    """A passage's trail in its three parts: ``file``, ``section`` (its titles joined by
    `` › ``, "" outside any section) and ``lines`` (``L40-L58``). A plain class, not a
    ``NamedTuple``: this module loads with every first query (a hook's), and a named tuple
    class costs ~0.3 ms to make."""

    __slots__ = ("file", "lines", "section")

    def __init__(self, file: str, section: str, lines: str) -> None:
        self.file = file
        self.section = section
        self.lines = lines

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Place):
            return NotImplemented
        return (self.file, self.section, self.lines) == (other.file, other.section, other.lines)

    def __hash__(self) -> int:
        return hash((self.file, self.section, self.lines))

    def __repr__(self) -> str:
        return f"Place({self.file!r}, {self.section!r}, {self.lines!r})"

    def as_dict(self) -> dict[str, str]:
        return {"file": self.file, "section": self.section, "lines": self.lines}

    @property
    def trail(self) -> str:
        """The trail the parts came from, exactly (``parse`` is its inverse)."""
        head = f"{self.file}{TRAIL_SEPARATOR}{self.section}" if self.section else self.file
        return f"{head} {self.lines}"


def parse(trail: str) -> Place | None:
    """The parts of a trail as ingest writes it (``path › Title › ... L4-L9``), or None for
    any other (a belief without one, or a trail of another form: shown whole)."""
    head, lines = split_lines(trail)
    if not lines:
        return None
    file, separator, section = head.partition(TRAIL_SEPARATOR)
    if not file or (separator and not section):
        return None
    return Place(file, section, lines)


def file_line(file: str) -> str:
    return f"{FILE_MARK}{escape(file)}\n"


def section_line(title: str, depth: int) -> str:
    """The line of one section title, ``depth`` titles deep (1: the outermost), indented
    two spaces a level under its parent's."""
    return f"{INDENT * (depth - 1)}{SECTION_MARK}{escape(title)}\n"


def titles(section: str) -> list[str]:
    """A section's titles, outermost first."""
    return section.split(TRAIL_SEPARATOR) if section else []


# The lines a passage sits under, outermost first, as (key, characters): its file's line
# (key: the file), then each title's line (key: the file and the titles down to it).
Heads = tuple[tuple[str, int], ...]


def heads(place: Place | None) -> Heads:
    if place is None:
        return ()
    file = place.file
    out = [(file, len(file_line(file)))]
    path = ""
    indent = len(INDENT)
    for depth, title in enumerate(titles(place.section)):
        path = f"{path}{TRAIL_SEPARATOR}{title}" if path else title
        # len(section_line(title, depth + 1)), without building the line when nothing in
        # the title is escaped (escape keeps the length of all but ``&<>``)
        size = len(escape(title)) if "&" in title or "<" in title or ">" in title else len(title)
        out.append((f"{file}\n{path}", indent * depth + len(SECTION_MARK) + size + 1))
    return tuple(out)


# A trail's heads depend on its text alone, and a long-lived process meets the same passages
# query after query (a warm docs query made each packed passage's heads anew: ~3% of its
# time). Made as queries ask for them (never at index read), kept across queries and store
# versions, started over past the bound (a few hundred bytes an entry).
_HEADS_MAX = 50_000
_heads_memo: dict[str, Heads] = {}


def trail_heads(trail: str) -> Heads:
    """``heads(parse(trail))``, made once per trail text."""
    found = _heads_memo.get(trail)
    if found is None:
        if len(_heads_memo) >= _HEADS_MAX:
            _heads_memo.clear()
        found = _heads_memo[trail] = heads(parse(trail))
    return found


class Opened:
    """The file and section lines a block already shows, and what a passage's would add:
    its file's line, and the line of each title on its section's path not shown yet."""

    __slots__ = ("shown",)

    def __init__(self, shown: set[str] | None = None) -> None:
        self.shown: set[str] = set() if shown is None else shown

    def cost(self, needed: Heads) -> int:
        """Characters of the lines in ``needed`` (``heads``) that are not shown yet."""
        shown = self.shown
        # A line is shown only with every line above it: the innermost says for all.
        if not needed or needed[-1][0] in shown:
            return 0
        return sum(chars for key, chars in needed if key not in shown)

    def open(self, needed: Heads) -> int:
        """Show the lines of ``needed``; returns the characters of those not shown yet."""
        cost = self.cost(needed)
        if cost:
            self.shown.update(key for key, _ in needed)
        return cost

    def copy(self) -> "Opened":
        return Opened(set(self.shown))


class Places(dict[str, "Place | None"]):
    """id -> its ``Place`` (None: shown whole or without a trail), parsed on first lookup
    from ``trails`` (id -> trail, for the beliefs that have one); ``shown`` maps an id to
    the form its line shows (credo.store.short_ids.Shown; whole when not given)."""

    __slots__ = ("_heads", "_shown", "_trails", "flat")

    def __init__(self, trails: Mapping[str, str], shown: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self._trails = trails
        self._heads: dict[str, Heads] = {}
        self._shown = shown
        # No belief has a trail: none sits under a file or section line (a store of notes).
        self.flat = not trails

    @property
    def shown(self) -> Mapping[str, str] | None:
        """The form each id is shown in (None: whole)."""
        return self._shown

    def heads(self, belief_id: str) -> Heads:
        """The file and section lines the belief sits under (``heads``), made once."""
        found = self._heads.get(belief_id)
        if found is None:
            trail = self._trails.get(belief_id)
            found = self._heads[belief_id] = () if trail is None else trail_heads(trail)
        return found

    def __missing__(self, belief_id: str) -> Place | None:
        trail = self._trails.get(belief_id)
        found = self[belief_id] = None if trail is None else parse(trail)
        return found

    def trail(self, belief_id: str) -> str:
        """The belief's trail as stored ("" for none)."""
        return self._trails.get(belief_id, "")

    def untitled(self, belief_id: str, text: str) -> str | None:
        """``text`` without its first line when that line is the title of the section the
        block shows it under (ingest folds a section's heading into its first passage, and
        the section line above says it already); None when nothing is dropped (no place, a
        first line of another text, or nothing but a gap mark left)."""
        place = self[belief_id]
        if place is None or not place.section:
            return None
        title = place.section.rpartition(TRAIL_SEPARATOR)[2]
        if not text.startswith(title) or text[len(title) : len(title) + 1] != "\n":
            return None
        rest = text[len(title) + 1 :]
        return rest if rest.strip(" …\n") else None

    def line_chars(self, belief_id: str, text: str, marked: str) -> int:
        """The characters of the belief's own line showing ``text``: with its line range
        alone when the block shows it under its file and section lines, else its trail."""
        place = self[belief_id]
        trail = self.trail(belief_id) if place is None else ""
        if self._shown is not None:
            belief_id = self._shown[belief_id]
        if place is None:
            return line_chars(belief_id, text, False, marked, trail)
        return line_chars(belief_id, text, False, marked, lines=place.lines)


def tokens_of(chars: int) -> int:
    """The estimator (``tokens.estimate``) over a text of ``chars`` characters."""
    return -(-chars // CHARS_PER_TOKEN)


class Charges:
    """What each pack unit costs given the units packed before it, in tokens: the pack's
    lines are charged as one text (the estimator over all their characters, rounded up
    once), so a unit costs what its characters add to that estimate: its own line
    (``lines``: each belief's line as rendered, in characters) and the file and section
    lines it is the first to need. A conflict group (``members``: leader -> members in
    rank order) adds its members' lines in order, each member seeing the lines the earlier
    ones opened.

    The packs look a unit's cost up (``charges[unit]``, pure) and call ``take(unit)`` when
    they pack it; ``charged`` then holds what each packed belief was charged, and the
    charges of the packed beliefs add up to the estimate of the lines they render."""

    __slots__ = (
        "_aside",
        "_chars",
        "_flat",
        "_lines",
        "_members",
        "_opened",
        "_places",
        "charged",
        "known",
    )

    def __init__(
        self,
        lines: Mapping[str, int],
        places: Places,
        members: Mapping[str, Sequence[str]] | None = None,
        aside: Aside | None = None,
    ) -> None:
        self._lines = lines
        self._places = places
        self._members = members or {}
        # (more groups, kept aside by the truth step: each read from its entry when reached)
        self._aside: Aside = aside or {}
        self._opened = Opened()
        self._chars = 0  # the characters of the lines taken so far
        self.charged: dict[str, int] = {}
        self._flat = places.flat  # (then every unit costs its lines alone)
        # A group's leader -> lines known already of its members (id -> characters), put
        # in ``lines`` before the group's are read, when set (a pack without file or
        # section lines: the truth graph's per-version lines of a group kept aside).
        self.known: Mapping[str, Mapping[str, int]] | None = None

    def _group(self, unit: str) -> Sequence[str] | None:
        """The members of the group ``unit`` leads (given whole, or kept aside), or None."""
        group = self._members.get(unit) if self._members else None
        if group is None and self._aside and (info := self._aside.get(unit)) is not None:
            return info[GROUP]  # type: ignore[no-any-return]
        return group

    def __getitem__(self, unit: str) -> int:
        group = self._group(unit)
        if self._flat:
            if group is None:
                added = self._lines[unit]
            else:
                lines = self._lines
                if self.known is not None and (found := self.known.get(unit)) is not None:
                    lines.update(found)  # type: ignore[attr-defined]
                added = sum(map(lines.__getitem__, group))  # (C-level: no frame per group)
        elif group is None:
            needed = self._places.heads(unit)
            shown = self._opened.shown
            added = self._lines[unit]
            # The common case, inline (a pack asks once per unit it reaches): no place,
            # or the innermost line shown, which is shown only with every line above it.
            if needed and needed[-1][0] not in shown:
                added += sum(chars for key, chars in needed if key not in shown)
        else:
            heads = self._places.heads
            lines = self._lines
            needed = [heads(m) for m in group]
            if any(needed):  # a look-up must not open anything: the group is tried on a copy
                opened = self._opened.copy()
                added = sum(lines[m] + opened.open(n) for m, n in zip(group, needed, strict=True))
            else:  # (no member under a file or section line: most groups, notes)
                added = sum(map(lines.__getitem__, group))
        chars = self._chars
        return -(-(chars + added) // CHARS_PER_TOKEN) + (-chars // CHARS_PER_TOKEN)

    def fitting_prefix(self, units: Sequence[str], budget: int) -> tuple[int, int] | None:
        """``pack.fitting_prefix`` over these charges, taking what fits, in one loop: on a
        flat pack (no file or section lines) a unit's charge is its lines' characters
        over the running total, looked up once (the generic loop asks ``[unit]`` and
        ``take`` each, two calls a unit, ~65 a query). None when not flat: the caller
        loops."""
        if not self._flat:
            return None
        lines, charged, members, known = self._lines, self.charged, self._members, self.known
        aside = self._aside
        start = chars = self._chars
        # The charges of units taken in turn add up to the estimate of their characters less
        # that of those before them: a unit fits while the characters stay within ``limit``
        # (no running sum of charges), and each is charged what its end adds to the estimate.
        before = -(-start // CHARS_PER_TOKEN)  # (the estimate so far, tokens_of)
        limit = CHARS_PER_TOKEN * (budget + before)
        for index, unit in enumerate(units):
            # (``_group``, inline: hot loop; no leader is in both, so either is asked first)
            if aside and (info := aside.get(unit)) is not None:
                group = info[GROUP]
            elif not members or (group := members.get(unit)) is None:  # a single belief
                after = chars + lines[unit]
                if after > limit:
                    self._chars = chars
                    return index, before + (-start // CHARS_PER_TOKEN)
                estimate = -(-after // CHARS_PER_TOKEN)
                charged[unit] = estimate - before
                before = estimate
                chars = after
                continue
            # (a group, as ``[unit]`` then ``take``: each member over the ones before it)
            if known is not None and (found := known.get(unit)) is not None:
                lines.update(found)  # type: ignore[attr-defined]
            if chars + sum(map(lines.__getitem__, group)) > limit:
                self._chars = chars
                return index, before + (-start // CHARS_PER_TOKEN)
            for member in group:
                chars += lines[member]
                estimate = -(-chars // CHARS_PER_TOKEN)
                charged[member] = estimate - before
                before = estimate
        self._chars = chars
        return len(units), before + (-start // CHARS_PER_TOKEN)

    def take(self, unit: str) -> None:
        if self._flat:
            lines, charged = self._lines, self.charged
            for member in self._group(unit) or (unit,):
                before = self._chars
                self._chars = chars = before + lines[member]
                charged[member] = -(-chars // CHARS_PER_TOKEN) + (-before // CHARS_PER_TOKEN)
            return
        for member in self._group(unit) or (unit,):
            before = self._chars
            self._chars += self._lines[member] + self._opened.open(self._places.heads(member))
            self.charged[member] = tokens_of(self._chars) - tokens_of(before)


def whole_chars(ids: Iterable[str], lines: Mapping[str, int], places: Places) -> Iterable[int]:
    """The characters each of ``ids`` adds, packed in this order: its line and the file and
    section lines it is the first to need (what ``Charges`` charges a score-order pack)."""
    if places.flat:
        return map(lines.__getitem__, ids)
    return _opening(ids, lines, places)


def _opening(ids: Iterable[str], lines: Mapping[str, int], places: Places) -> Iterable[int]:
    opened = Opened()
    for i in ids:
        yield lines[i] + opened.open(places.heads(i))


class Row:
    """One belief's place in the block: its index in the result, the file and section
    lines printed just before it ("" for none), and its ``Place`` (None: shown whole)."""

    __slots__ = ("index", "opens", "place")

    def __init__(self, index: int, opens: str, place: Place | None) -> None:
        self.index = index
        self.opens = opens
        self.place = place


class _Node:
    """A file or a section in the block's outline: its passages, then its subsections."""

    __slots__ = ("children", "passages")

    def __init__(self) -> None:
        self.passages: list[int] = []
        self.children: dict[str, _Node] = {}  # title -> node, in first-seen order


def arrange(trails: Sequence[str], grouped: Sequence[bool]) -> list[Row]:
    """The block's order for beliefs given in rank order, by their trails; ``grouped[i]``
    False keeps belief i's trail whole on its line (a lock). Deterministic: the module
    docstring's order, which depends only on the ranks and the trails."""
    rows: list[Row] = []
    files: dict[str, _Node] = {}
    places: list[Place | None] = []
    for index, trail in enumerate(trails):
        place = parse(trail) if grouped[index] and trail else None
        places.append(place)
        if place is None:
            rows.append(Row(index, "", None))
            continue
        node = files.setdefault(place.file, _Node())
        for title in titles(place.section):
            node = node.children.setdefault(title, _Node())
        node.passages.append(index)

    def visit(node: _Node, opens: str, depth: int) -> None:
        for index in node.passages:
            rows.append(Row(index, opens, places[index]))
            opens = ""
        for title, child in node.children.items():
            visit(child, opens + section_line(title, depth + 1), depth + 1)
            opens = ""

    for file, node in files.items():
        visit(node, file_line(file), 0)
    return rows
