"""The context field of an ingested belief: where it sits, in words a query may use.

A passage often never names its topic; its page path and section headings do. So each
ingested belief carries a context, indexed by BM25F in its own column (weight
``credo.store.fts.CONTEXT_WEIGHT``) and never shown as its text:

- line 1, the trail: the file's repo-relative path, then the section titles outermost
  first, joined by `` › ``, then the line range (``docs/guide/auth.md › OAuth2 › Scopes
  L40-L58``); what a hit shows, charged to the budget with it;
- line 2, only when there is something to add: the passage's own section title (in code,
  its definition's name) once more, then the words FTS5's tokenizer would not find on its
  own (camelCase names split: ``AxiosHeaders`` -> ``axios headers``), then the chunk's
  own context words (in code, the names a definition's body uses), then, in a code file
  only, the full words of the abbreviations among its identifier parts that the row does
  not hold already (``cfg`` -> configuration, ``hdrs`` -> header; chunk/abbreviation.py);
- a last line only for a short passage: filler up to `LENGTH_FLOOR_TOKENS` tokens (below).

Why the own title twice: every passage under a section repeats that section's title in its
trail, so a deep page's ancestor titles match a query as strongly as the one heading that
says what this passage is about, and a short passage under a matching ancestor (an
"Installation › Vundle" three lines long under "Official plugin") outranks the section the
question names. Counting the innermost title twice makes the trail say, in BM25's terms,
which of its titles is this passage's (docs/BENCHMARKS.md § Ranking, third pass). In prose,
the own title's camelCase names bring their words the second time too: a heading that
names an identifier ("`customLevels` (Object)") is about "custom levels", and its words
would otherwise count once, as an ancestor's do (tidy81; pino's "how to add a custom log
level" went from outside the 50 keyword hits to #5). A code definition's name is left as
it was: the definition lane reads it as written.

Why filler: BM25 divides a term's weight by the row's length (all columns' tokens), so a
passage of a few words (a signature without a docstring, a three-line subsection) turns
the words of its trail, which every passage of its section carries alike, into a large
lift over the passage the question is about. FTS5's ``bm25()`` takes no floor on that
length, so a passage whose content and context hold fewer than `LENGTH_FLOOR_TOKENS`
tokens carries `LENGTH_FILLER` up to it: a word no query holds, which only counts toward
the length. Only ingested passages carry it; a note's length is its own.

Why the abbreviations' words, and only in the context: a reader asks where "the callback"
is registered and the code says ``cb``. Written into the context once each, they bridge
the vocabulary without counting a word the row already holds a second time. Measured
(docs/BENCHMARKS.md, abbrev59): the same words added to the definition lane's statistics
too, or a query word asking for its abbreviations as well, lost on more corpora than they
won; prose files are left as they are.
"""

from __future__ import annotations

import re
from functools import lru_cache

from credo.knowledge.chunk import Chunk
from credo.knowledge.chunk.abbreviation import expanded
from credo.knowledge.chunk.language import PROSE_LANGUAGES, language_for
from credo.knowledge.docuri import line_hint
from credo.knowledge.identity import MAX_CONTEXT_CHARS
from credo.store.stem import ASCII_FOLD, STEMS, token_count
from credo.types import LENGTH_FILLER, TRAIL_SEPARATOR

# A lower-case or digit run followed by an upper-case letter, or an acronym before a word
# ("HTTPHeaderDict" -> "HTTP Header Dict") but not before its plural's "s" ("combineURLs"
# -> "combine URLs", not "UR Ls"): chunk/code_names.py splits names the same way.
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])(?![A-Z]s(?![a-z]))")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
# The passage floor's 200 characters (chunk/passage.py) in tokens, at ~5 characters each.
LENGTH_FLOOR_TOKENS = 40


def trail(uri: str, section: tuple[str, ...], start: int, end: int) -> str:
    """``path › Section › Subsection L4-L9``: a hit's place, as shown and as indexed."""
    return f"{TRAIL_SEPARATOR.join((uri, *section))} {line_hint(start, end)}"


def context_field(uri: str, chunk: Chunk) -> str:
    """The context column of the belief `chunk` becomes in the file at `uri`."""
    head = trail(uri, chunk.section, chunk.start_line, chunk.end_line)
    # The camelCase words of the head and the chunk's context, in order: those of the path
    # and titles, which every passage of a section repeats, are split once (the line
    # range, "L4-L9", has none).
    trail_parts = _trail_parts(uri, chunk.section)
    context_parts = _camel_parts(chunk.context)
    split = " ".join(dict.fromkeys([*trail_parts, *context_parts]))
    code = _is_code(uri)
    own = _own_title(chunk.section[-1], code) if chunk.section else ""  # see the docstring
    full = _full_words(uri, chunk, trail_parts, context_parts) if code else ""
    extra = " ".join(part for part in (own, split, chunk.context, full) if part)
    text = f"{head}\n{extra}" if extra else head
    short = LENGTH_FLOOR_TOKENS - token_count(chunk.text, LENGTH_FLOOR_TOKENS)
    if short > 0:  # most passages reach the floor alone: the context is not counted then
        short -= token_count(text, short)
    if short > 0:  # see the module docstring
        text = f"{text}\n{' '.join([LENGTH_FILLER] * short)}"
    return text[:MAX_CONTEXT_CHARS]


@lru_cache(maxsize=4096)
def _own_title(title: str, code: bool) -> str:
    """The own title as line two repeats it: in prose, with the words of its camelCase
    names too, so that a heading naming an identifier ("`customLevels` (Object)") counts
    its words twice as a heading in words ("Custom levels") does (module docstring)."""
    if code:
        return title
    parts = _camel_parts(title)
    return f"{title} {' '.join(dict.fromkeys(parts))}" if parts else title


@lru_cache(maxsize=4096)
def _trail_parts(uri: str, section: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(_camel_parts(TRAIL_SEPARATOR.join((uri, *section))))


# Prose keeps its words: a page that writes "config" means it (measured, abbrev59: the docs
# corpora do not move), and only code names things by their abbreviations.
@lru_cache(maxsize=256)
def _is_code(uri: str) -> bool:
    language = language_for(uri)
    return language is not None and language not in PROSE_LANGUAGES


def _full_words(
    uri: str, chunk: Chunk, trail_parts: tuple[str, ...], context_parts: list[str]
) -> str:
    """The words the abbreviated identifier parts of a code chunk stand for
    (chunk/abbreviation.py: ``cfg`` -> configuration), those the row does not already hold
    by stem: a bridge from a reader's word to the code's, not a second count of it."""
    # The file's name, not its folders: every file under src/ would read "source". The
    # table is ASCII, so one fold of ASCII (non-ASCII runs are left whole and match no key)
    # finds its parts, a third of `tokens`' cost on text with a non-ASCII character.
    folders, _, name = uri.rpartition("/")
    folder_parts, folder_words = _folders(folders)
    text = " ".join((name, *chunk.section, chunk.text, chunk.context))
    parts = [
        *text.translate(ASCII_FOLD).split(),
        # No word runs across a "/": the trail's parts are the folders' parts, then those
        # of the name and titles.
        *trail_parts[len(folder_parts) :],
        *context_parts,
    ]
    full = expanded(parts)
    if not full:
        return ""
    # Porter never changes a word's first letter: only the parts that share one with a
    # full word can share its stem, so most parts are never stemmed. The folders are in
    # the row's trail: a word they hold is held too ("conn" under connection/ adds nothing).
    initials = {word[0] for word in full}
    words = {*parts, *folder_words}
    held = {STEMS[word] for word in words if word[:1] in initials}
    return " ".join(word for word in full if STEMS[word] not in held)


@lru_cache(maxsize=256)
def _folders(folders: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The camelCase parts of a file's folders, and all their folded words."""
    camel = tuple(_camel_parts(folders))
    return camel, (*folders.translate(ASCII_FOLD).split(), *camel)


def _camel_parts(text: str) -> list[str]:
    """The lower-cased parts of the camelCase words of `text`, in order, repeats kept."""
    found: list[str] = []
    for word in _WORD.findall(text):
        if word.islower():
            continue  # no capital letter, so no split: most words, skipped in one C call
        rest = word[1:]
        if rest.lower() == rest:
            continue  # every split is before a capital past the first letter: "Scrapy", "A"
        parts = _CAMEL.split(word)
        if len(parts) > 1:
            found.extend(part.lower() for part in parts)
    return found
