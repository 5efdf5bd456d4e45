"""Split a configuration file (YAML, TOML, JSON) into one chunk per meaningful section.

"Which Python versions does CI test", "what does ruff ignore": the answer is a block of a
``pyproject.toml`` or a workflow, and its key path says what the block is about. So the
file is read by its grammar (`config_tree`) into keys, and cut along them:

- A block (the whole file, then a key's lines: a TOML table, a YAML key's block, a JSON
  member's) that fits `PASSAGE_CAP` is one chunk; a larger one is cut at the keys nested
  in it (its own lines before the first, a TOML table's header, are a chunk of their own),
  and a block without nested keys (a long list, a ``run: |`` script) at line ends.
- A comment line directly above a key belongs to that key's block (it is often the
  explanation: ``# mypyc doesn't support free threaded builds``); every other line stays
  in the block it sits in, so each chunk's lines are exactly the file's.
- Neighbouring chunks are joined while they fit the cap when both are under
  `PASSAGE_FLOOR` (``[tool.hatch.version]`` and ``[tool.hatch.build]``), or when one is
  and the other is its direct subsection or parent, with the key path they share.
- The text is the block's lines as written, dedented, without blank lines or lines of
  brackets alone, with secrets redacted (`credo.knowledge.redact`: ``password: [redacted]``;
  configuration is where credentials are written, and a passage may reach a prompt); the
  section is the key path (``("jobs", "test", "strategy")``: the trail
  ``ci.yml › jobs › test › strategy``); the context holds the camelCase keys
  (``compilerOptions``), which ingest splits into words. Role "config": passages take
  each chunk as it is (`credo.knowledge.chunk.passage`).

A file whose grammar is missing, whose parse fails or runs past its budget, is read as
plain text: its lines cut within the cap, with no key path. Never an exception.
"""

from __future__ import annotations

import re

from credo.knowledge.chunk.config_lines import LINE_LANGUAGES, read_lines
from credo.knowledge.chunk.config_tree import MAX_DEPTH, Entry, read_entries
from credo.knowledge.chunk.model import Chunk, find_urls, is_meaningful, source_lines, unique
from credo.knowledge.chunk.passage import PASSAGE_CAP, PASSAGE_FLOOR
from credo.knowledge.redact import redact

# A single line longer than this (a long URL list, an embedded blob) is cut in the text:
# its range stays exact, its words past the cut are not a passage's business.
MAX_LINE_CHARS = 2 * PASSAGE_CAP
_COMMENT_MARKS = ("#", "//")
_INI_COMMENT_MARKS = ("#", ";")
# A JavaScript configuration object's (`code_config`): a JSDoc block's lines too.
JS_COMMENT_MARKS = ("//", "/*", "*")
# Top-level blocks of these stay apart whatever their size: an INI section, a build stage, a
# Makefile rule is what a question names (``tox.ini › testenv:lint``, ``Makefile › test``).
_APART = frozenset({"ini", "dockerfile", "make", "just"})
_CAMEL = re.compile(r"[a-z0-9][A-Z]")
_GLOB_EXTENSIONS = re.compile(r"\*\.(\{[^}]*\}|[\w+]+)")
# A block this short is a key alone (``jobs:``, ``[tool.x]``, ``name: test``): a head after
# it joins it, and both go with what they open; any other joins a neighbour.
_BARE_HEAD = 60

Block = tuple[tuple[str, ...], int, int]  # key path, first row, last row (0-based)


def split_config(text: str, language: str, words: str = "") -> list[Chunk]:
    """Chunks of a configuration file in `language` ("yaml", "toml", "json", one of
    `config_lines.LINE_LANGUAGES`, or any other name: plain lines), in file order, each
    with `words` (what the file is, by its name: `language.NAME_WORDS`) in its context.
    Pure, deterministic, never raises."""
    raw = source_lines(text.replace("\x00", " "))
    if language in LINE_LANGUAGES:
        entries: list[Entry] | None = read_lines(raw, language)
    else:
        entries = read_entries("\n".join(raw).encode("utf-8", "replace"), language)
    marks = _INI_COMMENT_MARKS if language == "ini" else _COMMENT_MARKS
    if entries is None:  # read as plain text: its lines, cut within the cap
        entries = []
    return key_chunks(
        raw, entries, 0, len(raw) - 1, words, marks=marks, apart=language in _APART,
        ini=language == "ini",
    )  # fmt: skip


def key_chunks(
    raw: list[str],
    entries: list[Entry],
    lo: int,
    hi: int,
    words: str = "",
    *,
    marks: tuple[str, ...] = _COMMENT_MARKS,
    apart: bool = False,
    ini: bool = False,
    held: bool = False,
    paragraphs: frozenset[int] = frozenset(),
) -> list[Chunk]:
    """The chunks of rows ``lo..hi`` (0-based, inclusive) of `raw`, a block whose keys are
    `entries`, cut as the module says: a whole configuration file, or a code module's
    configuration object (`code_config`; its code rows blanked by the caller). With
    `held`, a joined block's context holds the keys it joined (`_held`)."""
    lines = _Rows(raw, marks, lo, hi)
    keys: dict[int, list[str]] = {}
    _key_rows(entries, keys)
    chunks: list[Chunk] = []
    blocks = _blocks(entries, (), lo, hi, lines, 0, whole=not apart)
    joined = _joined(blocks, lines, apart=apart, paragraphs=paragraphs)
    names = _held(blocks, joined) if held else [()] * len(joined)
    for (trail, first, last), own in zip(joined, names, strict=True):
        body = redact(_text(lines, first, last))
        if not is_meaningful(body):
            continue
        camel = [k for row in range(first, last + 1) for k in keys.get(row, ()) if is_camel(k)]
        camel.extend(own)
        if ini:
            camel.extend(_glob_languages(trail))
        links = unique(find_urls(body))
        context = " ".join(unique([*words.split(), *camel]))
        chunks.append(Chunk(body, first + 1, last + 1, "config", trail, None, links, context))
    return chunks


def _blocks(
    entries: list[Entry],
    trail: tuple[str, ...],
    lo: int,
    hi: int,
    lines: _Rows,
    depth: int,
    *,
    whole: bool = True,
) -> list[Block]:
    """Rows ``lo..hi`` (a block whose nested keys are `entries`) cut as the module says;
    without `whole`, cut at its keys even when it fits the cap (a file's sections)."""
    lo, hi = _trimmed(lines, lo, hi)
    if hi < lo:
        return []
    if _size(lines, lo, hi) <= PASSAGE_CAP and (whole or not entries):
        return [(trail, lo, hi)]
    if not entries or depth > MAX_DEPTH:
        return _pieces(trail, lo, hi, lines)
    inside = [e for e in entries if lo <= e.start <= hi]
    if not inside:
        return _pieces(trail, lo, hi, lines)
    starts = [
        _pulled_back(lines, e.start, lo if i == 0 else inside[i - 1].start + 1)
        for i, e in enumerate(inside)
    ]
    out: list[Block] = []
    if starts[0] > lo:
        out.extend(_pieces(trail, lo, starts[0] - 1, lines))
    for index, entry in enumerate(inside):
        end = starts[index + 1] - 1 if index + 1 < len(inside) else hi
        out.extend(_blocks(entry.children, trail + entry.key, starts[index], end, lines, depth + 1))
    return out


def _pieces(trail: tuple[str, ...], lo: int, hi: int, lines: _Rows) -> list[Block]:
    """A block without nested keys, cut at line ends into pieces within the cap (a last
    piece under the floor joins the one before)."""
    lo, hi = _trimmed(lines, lo, hi)
    if hi < lo:
        return []
    pieces: list[list[int]] = []
    size = 0
    for row in range(lo, hi + 1):
        length = len(_clean(lines[row])) + 1
        if not pieces or (size + length > PASSAGE_CAP and size > 0):
            pieces.append([row, row])
            size = 0
        pieces[-1][1] = row
        size += length
    if len(pieces) > 1 and size < PASSAGE_FLOOR:
        tail = pieces.pop()
        pieces[-1][1] = tail[1]
    return [(trail, first, last) for first, last in pieces]


def _held(blocks: list[Block], joined: list[Block]) -> list[tuple[str, ...]]:
    """For each of `joined` (`blocks` joined, in order), the keys one level below the key
    path it shares that its blocks sit under, in file order; none for a block alone.

    Joined, Vite's ``plugins`` and ``server`` read as the file's root, and airbnb's small
    rules as ``rules``: their keys, in the context field, say what the passage holds. They
    are keys at that path as long as every trail element is a key or a named item (never a
    position: `code_config` lifts an unnamed item's keys into its array's), which is why
    only code's configuration objects ask for them (a JSON array's items are positions).
    """
    out: list[tuple[str, ...]] = []
    index = 0
    for shared, _first, last in joined:
        names: list[str] = []
        count = 0
        while index < len(blocks) and blocks[index][1] <= last:
            trail = blocks[index][0]
            if len(trail) > len(shared) and trail[len(shared)] not in names:
                names.append(trail[len(shared)])
            index += 1
            count += 1
        out.append(tuple(names) if count > 1 else ())
    return out


def _joined(
    blocks: list[Block],
    lines: _Rows,
    *,
    apart: bool = False,
    paragraphs: frozenset[int] = frozenset(),
) -> list[Block]:
    """Neighbouring blocks joined, with the key path they share:

    - a block under the floor with a key path takes the blocks nested in it that follow,
      whatever the cap, as a lone heading takes the paragraph after it (``steps:``,
      ``[tool.ruff.lint]``: a key's head line goes with what it opens);
    - otherwise two blocks join while they fit the cap when both are under the floor
      (``[tool.hatch.version]`` and ``[tool.hatch.build]``), or one is and the other is
      its parent or child. A small block and a large sibling or unrelated one stay apart:
      joined, the large one's key path would be lost (``[tool.mypy]`` after the
      ``[tool.towncrier]`` tables would read ``tool``), unless the small one is a key
      alone (``name: test``), which means nothing as a passage of its own;
    - with `apart`, two top-level blocks never join (each keeps its name as its trail);
    - with `paragraphs` (the rows blank in the source: a code module's configuration
      object), two blocks with a blank row between them never join, a head and its first
      block aside: airbnb's rules, each with its comment and a blank line after it, are
      answers of their own (``rules › no-console``), which a 27-line join buried.
    """
    out: list[Block] = []
    sizes: list[int] = []
    head: tuple[str, ...] = ()  # the small head the last block ends in, awaiting its keys
    taken = False  # whether the last block holds more than heads
    for index, (trail, first, last) in enumerate(blocks):
        size = _size(lines, first, last)
        after = blocks[index + 1][0] if index + 1 < len(blocks) else ()
        opening = size < PASSAGE_FLOOR and _opens(trail, after)
        if out:
            before, start, end = out[-1]
            small = sizes[-1] < PASSAGE_FLOOR, size < PASSAGE_FLOOR
            shared = _shared(before, trail)
            # a blank line the author left between them (`paragraphs`)
            gap = bool(paragraphs) and any(row in paragraphs for row in range(end + 1, first))
            if _opens(head, trail) and not (opening and sizes[-1] >= _BARE_HEAD):
                joins = not (gap and taken)  # (a head takes its first block whatever)
            elif opening:
                joins = False  # it opens the next block: it goes with that one
            else:
                # parent and child: joined, the parent's key path holds both
                related = shared in (before, trail) and abs(len(before) - len(trail)) == 1
                fits = sizes[-1] + 1 + size <= PASSAGE_CAP
                tiny = min(sizes[-1], size) < _BARE_HEAD  # a key alone: never a passage
                joins = fits and (all(small) or (related and any(small)) or tiny)
                if apart and len(before) <= 1 and len(trail) <= 1 and before != trail:
                    joins = False
                joins = joins and not gap
            if joins:
                out[-1] = (shared, start, last)
                sizes[-1] = _size(lines, start, last)
                still = sizes[-1] < PASSAGE_FLOOR and _opens(shared, after)
                head = trail if opening else shared if still else ()
                taken = taken or not opening
                continue
        out.append((trail, first, last))
        sizes.append(size)
        head = trail if opening else ()
        taken = not opening
    return out


def _opens(head: tuple[str, ...], trail: tuple[str, ...]) -> bool:
    """Whether a block at `trail` is nested in the key `head` (the file's root is none)."""
    return 0 < len(head) < len(trail) and trail[: len(head)] == head


def _shared(one: tuple[str, ...], two: tuple[str, ...]) -> tuple[str, ...]:
    """The key path two joined blocks share (their common prefix)."""
    count = 0
    for a, b in zip(one, two, strict=False):
        if a != b:
            break
        count += 1
    return one[:count]


def _pulled_back(lines: _Rows, row: int, floor: int) -> int:
    """`row` moved up over the comment lines directly above it (none below `floor`)."""
    while row - 1 >= floor and lines[row - 1].strip().startswith(lines.marks):
        row -= 1
    return row


def _trimmed(lines: _Rows, lo: int, hi: int) -> tuple[int, int]:
    """``lo..hi`` without blank rows at either end."""
    hi = min(hi, len(lines) - 1)
    while lo <= hi and not lines[lo].strip():
        lo += 1
    while hi >= lo and not lines[hi].strip():
        hi -= 1
    return lo, hi


def _clean(line: str) -> str:
    line = line.rstrip()
    return line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS]


# A letter or digit: ``\w`` is ``str.isalnum`` and the underscore (the re module's rule).
_ALNUM = re.compile(r"[^\W_]")


def _kept(line: str) -> bool:
    # ``}``, ``],`` and ``---`` carry no words; a blank line none either.
    return _ALNUM.search(line) is not None


def _text(lines: _Rows, first: int, last: int) -> str:
    """Rows ``first..last`` as written, dedented, without the lines that carry no words."""
    kept = [line for line in lines.cleaned[first : last + 1] if line is not None]
    indent = min((len(line) - len(line.lstrip()) for line in kept), default=0)
    return "\n".join(line[indent:] for line in kept)


def _size(lines: _Rows, first: int, last: int) -> int:
    return lines.prefix[last + 1] - lines.prefix[first]


class _Rows:
    """A file's lines, and the running sum of their sizes in a chunk's text (what
    `_size` reads in constant time: blocks are measured again at every join)."""

    def __init__(
        self,
        rows: list[str],
        marks: tuple[str, ...] = _COMMENT_MARKS,
        lo: int = 0,
        hi: int | None = None,
    ) -> None:
        self.rows = rows
        self.marks = marks  # what starts a comment line in this file's language
        # Each row as a chunk's text holds it, None for one that carries no words. Only
        # rows lo..hi are read (the rest count as wordless): a module with thousands of
        # configuration objects (``export const``) reads each object's rows, not the file.
        n = len(rows)
        lo = max(lo, 0)
        hi = n - 1 if hi is None else min(hi, n - 1)
        inside = [_clean(line) if _kept(line) else None for line in rows[lo : hi + 1]]
        self.cleaned: list[str | None] = [None] * lo + inside + [None] * (n - lo - len(inside))
        self.prefix = [0] * (lo + 1)
        total = 0
        for line in inside:
            if line is not None:
                total += len(line) + 1
            self.prefix.append(total)
        self.prefix.extend([total] * (n + 1 - len(self.prefix)))

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, row: int) -> str:
        return self.rows[row]


def _key_rows(entries: list[Entry], keys: dict[int, list[str]]) -> None:
    stack = list(entries)
    while stack:
        entry = stack.pop()
        keys.setdefault(entry.start, []).extend(entry.key)
        stack.extend(entry.children)


def _glob_languages(trail: tuple[str, ...]) -> list[str]:
    """The languages an INI section's file glob names (``.editorconfig``'s ``[*.py]`` is
    about Python files, ``[*.{yml,yaml}]`` YAML's), by credo's own extension table."""
    from credo.knowledge.chunk.language import EXTENSIONS

    found: list[str] = []
    for part in trail:
        for extensions in _GLOB_EXTENSIONS.findall(part):
            for extension in extensions.strip("{}").split(","):
                language = EXTENSIONS.get(extension.strip().lower())
                if language is not None and language != extension.strip().lower():
                    found.append(language)
    return found


def is_camel(key: str) -> bool:
    """A key whose words FTS5 would not find on its own (``compilerOptions``)."""
    return _CAMEL.search(key) is not None and " " not in key
