"""Group a file's fine chunks into section-bounded passages: the unit that is indexed.

A belief per bullet, heading or sentence (~80 characters) is too small for BM25: a
keyword-dense one-liner (a changelog bullet, a heading, a reference list) outranks the
paragraph that explains. So consecutive chunks of one section are joined into passages:

- A passage never crosses a section: a heading (in code, a definition) starts a new
  group, and only chunks with the same section trail join it.
- Chunks are added in order while the passage stays within `PASSAGE_CAP` characters; a
  single chunk longer than the cap is a passage of its own (splitters already cut long
  paragraphs into sentences).
- A group's last passage shorter than `PASSAGE_FLOOR` joins the one before it, so a
  section does not end in a fragment.
- A code example ("code" chunk) joins its section's passage as words, not as text: its
  names (each once) and the prose of its comments and docstrings (every word, as prose
  is; `credo.knowledge.chunk.example`) go to the passage's context (indexed, never
  shown) and its lines to its range, so a question about ``help_option_names``, or one
  that says what an example's comment says, finds the section that shows it. A section
  of code alone adds no passage.
- A heading is folded into its section's first passage (its text leads the passage, its
  line opens the range). A heading whose section holds nothing but subsections adds no
  passage of its own: its title is in every descendant's trail, which ingest indexes in
  the context field.
- A passage led by its heading whose text repeats an earlier passage of the file (an
  "Examples" heading over tabbed code alone, under each option of a reference page) leads
  with the titles of the sections around it, up to the first that tells it apart
  ("`test-skip` › Examples"): the same text is one belief, which ingest anchors at its first
  occurrence, so the later section, its examples' words and its lines were never found.
- Code definitions of one file with the same text (``def __init__(self)`` in two classes)
  each lead with their owners' names, every copy at one depth, the shortest that tells them
  all apart (``Reader › def __init__(self)``, ``Writer › def __init__(self)``; ``A › run ›
  def inner()``): the later copy, its body's words and its lines were in no belief. Every
  copy is led, the first too, so no copy's owner weighs in its text where a unique
  method's does not, and no copy's text hangs on another's (review92).
- Any other passage of one file with the same text (a changelog's note repeated under two
  versions; a docstring paragraph of a method and of its async twin) leads with the
  shortest run of its section titles that no copy of another trail ends with, the first
  copy too (``Scrapy 1.8.3 › These third-party...``); copies of one trail lead alike, and
  stay one belief. Configuration blocks are not led (a parent key in the text outranked
  black's schema on a config question).

The passage keeps the exact line range of what it joined, its section trail, and the
union of its chunks' links and context words, so anchors stay true and re-ingest stays
incremental (an unchanged passage has the same text, hence the same belief).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from credo.knowledge.chunk.example import example_words
from credo.knowledge.chunk.model import Chunk, unique, with_heading_index

# ~200 tokens: about one screen paragraph or a short section, what a reader cites.
PASSAGE_CAP = 800
PASSAGE_FLOOR = 200
# Roles that open a new section group even when the trail repeats (two "Example" headings
# at one level share a trail; so do two overloads of one function).
_OPENERS = frozenset({"heading", "definition"})
# Roles `_copies_told_apart` leaves: heading- and definition-led passages (told apart by
# their own rules), plain text (no trail; it passes through) and configuration blocks (a
# parent key in the text outranked black's schema on a question of config_questions).
_UNLED = frozenset({*_OPENERS, "text", "config"})
# A code example's names: at most this many per example.
MAX_CODE_WORDS = 80
# Between a repeated passage's outer titles and its text: credo.types.TRAIL_SEPARATOR, not
# imported: a split worker never loads credo.types.
_OUTER = " › "


def passages(
    chunks: Sequence[Chunk], *, cap: int = PASSAGE_CAP, floor: int = PASSAGE_FLOOR
) -> list[Chunk]:
    """The passages of `chunks` (one file's, in document order); see the module docstring.

    Pure and deterministic. Plain-text chunks (role "text") are already paragraphs, and
    configuration chunks (role "config") already key blocks cut to size: both pass through
    unchanged.
    """
    groups = _section_groups(chunks)
    out: list[Chunk] = []
    parents: list[tuple[tuple[str, ...], int]] = []  # (trail, passage index) of open sections
    for position, group in enumerate(groups):
        trail = group[0].section
        opens = group[0].role in _OPENERS
        while parents and not _under(trail, parents[-1][0], opens=opens):
            parents.pop()  # before any skip: a later sibling must not find this section open
        if _only_heading_before_child(group, groups[position + 1 : position + 2]):
            continue
        first = len(out)
        out.extend(_join(members) for members in _fill(group, cap, floor))
        if len(out) == first:
            continue  # code alone: nothing to read
        parent = parents[-1][1] if parents else None
        for index in range(first, len(out)):
            out[index] = with_heading_index(out[index], parent if index == first else first)
        if group[0].role in _OPENERS or (first == 0 and _is_file_header(group[0])):
            parents.append((trail, first))
    # Definitions first: a heading is led only when a passage's final text repeats it, not
    # a definition's text that its own rule then leads (hypothesis found the stale lead).
    return _copies_told_apart(_told_apart(_definitions_told_apart(out)))


def _told_apart(out: list[Chunk]) -> list[Chunk]:
    """``out`` with each heading-led passage that repeats an earlier one's text led by its
    outer section titles (the module docstring); a repeat no outer title tells apart stays
    as it is (one belief). Texts are compared as written (chunk texts are whitespace-
    normalised already): a repeat that differs in case only stays one belief, as before,
    and no text is case-folded (that cost ~1% of a docs tree's split)."""
    seen: set[str] = set()
    # (a lead no later passage holds either: a definition's lead, told apart first, comes
    # after the heading as often as before it)
    held = {chunk.text for chunk in out}
    for index, chunk in enumerate(out):
        text = chunk.text
        if text in seen and chunk.role == "heading":
            outer = chunk.section[:-1]  # (the section's own title leads the text already)
            for depth in range(1, len(outer) + 1):
                told = _OUTER.join((*outer[-depth:], text))
                if told not in held:
                    out[index] = chunk._replace(text=told)
                    text = told
                    held.add(told)
                    break
        seen.add(text)
    return out


def _definitions_told_apart(out: list[Chunk]) -> list[Chunk]:
    """``out`` with every definition-led passage whose text another one in the file repeats
    led by its owners' names, the first copy too: all copies of one text by the shortest
    run of outer titles that tells every copy apart and that no other passage's text has
    (the module docstring). Every copy is told apart alike, so no copy's owner weighs in
    its text where a unique method's does not, and no copy's text hangs on another's:
    ``A › run › def inner()`` and ``B › run › def inner()``, never ``run › def inner()``
    for the first (review92). Copies no run tells apart (a class written twice) each take
    the shortest run still free, as the first did."""
    copies = _repeated(out, lambda chunk: chunk.role == "definition")
    if not copies:
        return out
    taken = {chunk.text for chunk in out}
    for text, indexes in copies.items():
        outers = [out[index].section[:-1] for index in indexes]  # (its name is its signature's)
        for depth in range(1, max(len(outer) for outer in outers) + 1):
            told = [_OUTER.join((*outer[-depth:], text)) for outer in outers]
            if len(set(told)) == len(told) and taken.isdisjoint(told):
                break
        else:
            told = []
            for outer in outers:  # (none tells them all apart: each the shortest run free)
                runs = (_OUTER.join((*outer[-depth:], text)) for depth in range(1, len(outer) + 1))
                told.append(next((run for run in runs if run not in taken), text))
                taken.add(told[-1])
        for index, text_told in zip(indexes, told, strict=True):
            if text_told != text:
                out[index] = out[index]._replace(text=text_told)
        taken.update(told)
    return out


def _copies_told_apart(out: list[Chunk]) -> list[Chunk]:
    """``out`` with every other passage (not led by a heading or a definition) whose text
    another such passage of the file repeats led by the shortest run of its section titles
    that no copy of another trail ends with, the first copy too (the module docstring): a
    passage of a changelog's version repeated under a later one, a configuration block
    under two parents, a docstring paragraph of a method and of its async twin. Copies of
    one trail lead alike (one belief among them); when every copy has one trail, nothing
    tells them apart and they stay as they are. A configuration key or title the text's
    first line names already is not repeated before it."""
    copies = _repeated(out, lambda chunk: chunk.role not in _UNLED)
    if not copies:
        return out
    taken = {chunk.text for chunk in out}
    for text, indices in copies.items():
        outers = {index: _outer_titles(out[index]) for index in indices}
        trails = set(outers.values())
        if len(trails) == 1:
            continue  # nothing tells them apart
        deepest = max(len(outer) for outer in trails)
        tails = [Counter(outer[-depth:] for outer in trails) for depth in range(deepest + 1)]
        leads: dict[tuple[str, ...], str] = {}
        for outer in sorted(trails):
            for depth in range(1, len(outer) + 1):
                if tails[depth][outer[-depth:]] == 1:  # no other trail ends so
                    told = _OUTER.join((*outer[-depth:], text))
                    if told not in taken:
                        leads[outer] = told
                    break
        taken.update(leads.values())
        for index, outer in outers.items():
            if outer in leads:  # (copies of one trail alike: one belief among them)
                out[index] = out[index]._replace(text=leads[outer])
    return out


def _repeated(out: list[Chunk], kept: Callable[[Chunk], bool]) -> dict[str, list[int]]:
    """text -> the indexes of the ``kept`` passages holding it, for each text two or more of
    them hold, in the order of their first copies (both rules' copies, found one way)."""
    copies: dict[str, list[int]] = {}
    for index, chunk in enumerate(out):
        if kept(chunk):
            copies.setdefault(chunk.text, []).append(index)
    return {text: indexes for text, indexes in copies.items() if len(indexes) > 1}


def _outer_titles(chunk: Chunk) -> tuple[str, ...]:
    """The titles that may lead a repeated passage: its trail, less its own title when the
    text's first line holds it (a configuration block opens with its key)."""
    section = chunk.section
    if section and section[-1] in chunk.text.partition("\n")[0]:
        return section[:-1]
    return section


def _is_file_header(chunk: Chunk) -> bool:
    """A module docstring or file header comment: what a file's top definitions hang from."""
    return chunk.role == "docstring" and not chunk.section


def _section_groups(chunks: Sequence[Chunk]) -> list[list[Chunk]]:
    groups: list[list[Chunk]] = []
    for chunk in chunks:
        current = groups[-1] if groups else None
        if (
            current is None
            or chunk.role in _OPENERS
            or chunk.role == "text"
            or current[0].role == "text"
            or chunk.role == "config"  # (after "text": an ingest's hot loop)
            or current[0].role == "config"
            or chunk.section != current[0].section
        ):
            groups.append([chunk])
        else:
            current.append(chunk)
    return groups


def _only_heading_before_child(group: list[Chunk], following: list[list[Chunk]]) -> bool:
    """A lone heading whose next group is one of its subsections."""
    if len(group) != 1 or group[0].role != "heading" or not following:
        return False
    return _within(following[0][0].section, group[0].section)


def _under(trail: tuple[str, ...], section: tuple[str, ...], *, opens: bool) -> bool:
    """Whether a group with `trail` belongs to the open `section`: a subsection of it, or
    (for a group that opens no section of its own: a comment or docstring between two
    methods, a module comment between two functions) more of the section's own text."""
    return _within(trail, section) or (not opens and trail == section)


def _within(trail: tuple[str, ...], outer: tuple[str, ...]) -> bool:
    return len(trail) > len(outer) and trail[: len(outer)] == outer


def _fill(group: list[Chunk], cap: int, floor: int) -> list[list[Chunk]]:
    """The group's chunks cut into passages. Code joins whatever passage is open (or the
    next one); a lone heading always takes the chunk after it, whatever its size."""
    filled: list[list[Chunk]] = []
    waiting: list[Chunk] = []  # code met before any text
    size = 0
    for chunk in group:
        if chunk.role == "code":
            (filled[-1] if filled else waiting).append(chunk)
            continue
        length = len(chunk.text)
        joins = filled and (size + 1 + length <= cap or _only_text_is_heading(filled[-1]))
        if joins:
            filled[-1].append(chunk)
            size += 1 + length
        else:
            filled.append([*waiting, chunk])
            waiting = []
            size = length
    if len(filled) > 1 and size < floor:
        tail = filled.pop()
        filled[-1].extend(tail)
    return filled


def _only_text_is_heading(members: list[Chunk]) -> bool:
    texts = [m for m in members if m.role != "code"]
    return len(texts) == 1 and texts[0].role == "heading"


def _join(members: list[Chunk]) -> Chunk:
    if len(members) == 1:
        return members[0]
    texts = [m for m in members if m.role != "code"]
    head = texts[0]
    contexts = [m.context for m in members] + [_code_words(m) for m in members]
    return Chunk(
        text="\n".join(m.text for m in texts),
        start_line=min(m.start_line for m in members),
        end_line=max(m.end_line for m in members),
        role=head.role if head.role in _OPENERS else "passage",
        section=head.section,
        heading_index=None,
        links=unique([link for m in members for link in m.links]),
        context=" ".join(unique(contexts)),
    )


def _code_words(chunk: Chunk) -> str:
    if chunk.role != "code":
        return ""
    names, prose = example_words(chunk.text)
    return " ".join([*names[:MAX_CODE_WORDS], prose]).strip()
