"""The context field of an ingested belief: its trail, its own title again, the camelCase
words split, the cap."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk import Chunk
from credo.knowledge.chunk.abbreviation import ABBREVIATIONS, NOT_PLURALS
from credo.knowledge.chunk.language import PROSE_LANGUAGES, language_for
from credo.knowledge.identity import MAX_CONTEXT_CHARS
from credo.knowledge.ingest import context as context_module
from credo.knowledge.ingest.context import (
    LENGTH_FILLER,
    LENGTH_FLOOR_TOKENS,
    TRAIL_SEPARATOR,
    context_field,
    trail,
)
from credo.store.stem import stem, tokens

# A passage long enough that its field carries no filler (the tests of the filler below).
LONG_TEXT = " ".join(f"word{i}" for i in range(LENGTH_FLOOR_TOKENS))


def chunk(
    section: tuple[str, ...] = (),
    context: str = "",
    lines: tuple[int, int] = (3, 9),
    text: str = LONG_TEXT,
) -> Chunk:
    return Chunk(text, lines[0], lines[1], "paragraph", section, None, (), context)


@pytest.mark.parametrize(
    ("uri", "section", "lines", "expected"),
    [
        (
            "docs/guide/auth.md",
            ("OAuth2", "Scopes"),
            (40, 58),
            "docs/guide/auth.md › OAuth2 › Scopes L40-L58",
        ),
        ("notes.txt", (), (1, 1), "notes.txt L1-L1"),
        ("a.md", ("Only",), (7, 7), "a.md › Only L7-L7"),
        ("file:///tmp/x.md", ("A", "B", "C"), (1, 30), "file:///tmp/x.md › A › B › C L1-L30"),
    ],
)
def test_trail_is_the_path_then_the_sections_then_the_lines(
    uri: str, section: tuple[str, ...], lines: tuple[int, int], expected: str
) -> None:
    assert trail(uri, section, *lines) == expected
    assert TRAIL_SEPARATOR == " › "


@pytest.mark.parametrize(
    ("uri", "section", "words"),
    [
        # A file named in camelCase: its words are found as a reader would type them.
        ("lib/core/AxiosHeaders.js", (), "axios headers"),
        # An acronym before a word ends where the word begins (after the own title).
        # (in a code file, "dict" also reads as the word it stands for: the last line)
        (
            "src/urllib3/_collections.py",
            ("HTTPHeaderDict",),
            "HTTPHeaderDict http header dict dictionary",
        ),
        ("src/x.js", ("XMLHttpRequest", "open"), "open xml http request"),
        ("src/x.py", ("parseURLQuery",), "parseURLQuery parse url query"),
        ("src/x.go", ("utf8Decoder",), "utf8Decoder utf8 decoder"),
        # A word split twice (path and section) is written once.
        ("src/AxiosError.js", ("AxiosError",), "AxiosError axios error"),
    ],
)
def test_camel_case_names_are_split_into_words_on_line_two(
    uri: str, section: tuple[str, ...], words: str
) -> None:
    head, _, extra = context_field(uri, chunk(section)).partition("\n")
    assert head == trail(uri, section, 3, 9)
    assert extra == words


@pytest.mark.parametrize(
    ("uri", "section"),
    [
        ("docs/guide.md", ("Install", "Upgrade")),  # plain words: the tokenizer finds them
        ("src/snake_case_module.py", ("read_file",)),  # underscores split already
        ("docs/API.md", ("HTTP", "URL")),  # an acronym alone is one word
    ],
)
def test_without_anything_else_to_add_line_two_is_the_own_title(
    uri: str, section: tuple[str, ...]
) -> None:
    assert context_field(uri, chunk(section)) == f"{trail(uri, section, 3, 9)}\n{section[-1]}"


def test_outside_any_section_the_context_is_the_trail_alone() -> None:
    assert context_field("notes.txt", chunk(())) == trail("notes.txt", (), 3, 9)


def test_the_own_title_counts_twice_its_ancestors_once() -> None:
    """The innermost title is this passage's; the ancestors' are every sibling's too."""
    field = context_field("docs/editors.md", chunk(("Vim", "Official plugin", "Vundle")))
    index = field.lower()
    assert index.count("vundle") == 2
    assert index.count("official plugin") == 1 and index.count("vim") == 1


@pytest.mark.parametrize(
    ("uri", "title", "words"),
    [
        ("docs/api.md", "`customLevels` (Object)", ("custom", "levels")),
        ("docs/api.rst", "``HTTPHeaderDict``", ("http", "header", "dict")),
        ("README.md", "Custom levels", ("custom", "levels")),
    ],
)
def test_a_prose_heading_counts_its_identifiers_words_twice(
    uri: str, title: str, words: tuple[str, ...]
) -> None:
    """A heading that names an identifier says what its section is about in the words a
    reader asks with ("how to add a custom log level"): they count twice, as the words of
    a heading written in words do (the own title's rule). Fails before tidy81: once."""
    index = tokens(context_field(uri, chunk(("API", title))))
    for word in words:
        assert index.count(word) == 2, (word, index)


def test_a_code_definitions_name_is_not_split_twice() -> None:
    """In code the own title is a definition's name, which the definition lane reads as
    written: its words count once, as before."""
    index = tokens(context_field("src/levels.js", chunk(("customLevels",))))
    assert index.count("custom") == 1


def test_the_chunks_own_context_words_follow_the_split_words() -> None:
    field = context_field("src/AxiosHeaders.js", chunk(("set",), "normalizeHeader toJSON value"))
    assert field == (
        "src/AxiosHeaders.js › set L3-L9\n"
        "set axios headers normalize header to json normalizeHeader toJSON value"
    )
    # The own title, then plain context words, make line two.
    field = context_field("a.md", chunk(("A",), "retry backoff"))
    assert field == "a.md › A L3-L9\nA retry backoff"
    assert context_field("a.md", chunk((), "retry backoff")) == "a.md L3-L9\nretry backoff"


def test_context_is_capped_at_max_context_chars() -> None:
    long_words = " ".join(f"wordNumber{i}" for i in range(1_000))
    field = context_field("src/x.py", chunk(("f",), long_words))
    assert len(field) == MAX_CONTEXT_CHARS
    assert field.startswith("src/x.py › f L3-L9\n")
    assert field == _uncapped("src/x.py", ("f",), long_words)[:MAX_CONTEXT_CHARS]


def _uncapped(
    uri: str, section: tuple[str, ...], context: str, lines: tuple[int, int] = (3, 9)
) -> str:
    """The field as `context_field` builds it, before the cap (a readable reference)."""
    words: dict[str, None] = {}
    head = trail(uri, section, *lines)
    for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", f"{head} {context}"):
        # Split before a capital that follows a small letter or digit, and before the last
        # capital of an acronym that starts a word, unless that word is the plural's "s".
        parts = re.split(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])(?!.s(?![a-z]))", word)
        if len(parts) > 1:
            words.update(dict.fromkeys(p.lower() for p in parts))
    own = _own_reference(uri, section)
    extra = " ".join(part for part in (own, " ".join(words), context) if part)
    return f"{head}\n{extra}" if extra else head


def _own_reference(uri: str, section: tuple[str, ...]) -> str:
    """The own title as line two repeats it: in a file that is not code (prose, or a name
    credo reads as nothing: the generated paths), followed by the distinct words of its
    camelCase names."""
    if not section:
        return ""
    own = section[-1]
    if language_for(uri) not in (None, *PROSE_LANGUAGES):
        return own
    words: dict[str, None] = {}
    for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", own):
        parts = re.split(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])(?!.s(?![a-z]))", word)
        if len(parts) > 1:
            words.update(dict.fromkeys(p.lower() for p in parts))
    return " ".join([own, *words])


_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,15}", fullmatch=True)


@given(
    uri=st.lists(_names, min_size=1, max_size=4).map("/".join),
    section=st.lists(_names, max_size=3).map(tuple),
    context=st.lists(_names, max_size=400).map(" ".join),
    start=st.integers(1, 10_000),
    length=st.integers(0, 100),
)
def test_context_field_properties(
    uri: str, section: tuple[str, ...], context: str, start: int, length: int
) -> None:
    """Line one is the trail; line two, if any, only words; never over the cap; the same
    input gives the same field."""
    piece = chunk(section, context, (start, start + length))
    field = context_field(uri, piece)
    assert field == context_field(uri, piece)
    assert len(field) <= MAX_CONTEXT_CHARS
    assert field == _uncapped(uri, section, context, (start, start + length))[:MAX_CONTEXT_CHARS]
    head = trail(uri, section, start, start + length)
    assert field.partition("\n")[0] == head[:MAX_CONTEXT_CHARS]
    assert field.count("\n") <= 1


def test_a_short_passage_is_filled_up_to_the_length_floor() -> None:
    """BM25's length norm would turn a short passage's trail into a lift: its field
    carries filler, a word no query holds, up to the floor (content and context)."""
    piece = chunk(("Vim", "Vundle"), text="or with Vundle:")
    field = context_field("docs/editors.md", piece)
    head, extra, filler = field.split("\n")
    assert head == trail("docs/editors.md", ("Vim", "Vundle"), 3, 9)
    assert extra == "Vundle"
    assert set(filler.split()) == {LENGTH_FILLER}
    assert len(tokens(piece.text)) + len(tokens(field)) == LENGTH_FLOOR_TOKENS
    # At the floor or above: no filler.
    assert LENGTH_FILLER not in context_field("docs/editors.md", chunk(("Vim", "Vundle")))


@given(text=st.text(max_size=400), section=st.lists(_names, max_size=3).map(tuple))
def test_every_field_reaches_the_floor_and_filler_only_fills(
    text: str, section: tuple[str, ...]
) -> None:
    piece = chunk(section, text=text)
    field = context_field("src/x.py", piece)
    assert len(tokens(text)) + len(tokens(field)) >= LENGTH_FLOOR_TOKENS
    lines = field.split("\n")
    if LENGTH_FILLER in field:
        assert set(lines[-1].split()) == {LENGTH_FILLER}
        assert LENGTH_FILLER not in "\n".join(lines[:-1])
        assert len(tokens(text)) + len(tokens("\n".join(lines[:-1]))) < LENGTH_FLOOR_TOKENS


_REF_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_REF_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")


def _camel_words_reference(text: str) -> str:
    """The camelCase split as first written: over the whole head and context at once."""
    words: dict[str, None] = {}
    for word in _REF_WORD.findall(text):
        parts = _REF_CAMEL.split(word)
        if len(parts) > 1:
            for part in parts:
                words.setdefault(part.lower(), None)
    return " ".join(words)


_NAMES = st.sampled_from(
    [
        "AxiosHeaders",
        "HTTPHeaderDict",
        "plain",
        "toJSON",
        "x2Y",
        "A",
        "",
        "reqCtx",
        "cb",
        "cfgs",
        "rms",
    ]
)


@given(
    st.sampled_from(
        [
            "docs/SomeGuide.md",
            "src/axiosCore.js",
            "notes.txt",
            "lib/cbHelpers/reqCore.js",
            "db/x.js",
        ]
    ),
    st.lists(st.lists(_NAMES, max_size=3).map(" ".join), max_size=3).map(tuple),
    st.lists(_NAMES, max_size=4).map(" ".join),
)
def test_camel_words_are_split_as_over_the_whole_head(
    uri: str, section: tuple[str, ...], context: str
) -> None:
    """The path's and titles' words are split once per section (cached), then the chunk's
    context's: the same words in the same order as one pass over the head and context."""
    field = context_field(uri, chunk(section, context))
    head = trail(uri, section, 3, 9)
    split = _camel_words_reference(f"{head} {context}")
    own = _own_reference(uri, section)
    full = _full_words_reference(uri, section, context) if uri.endswith(".js") else ""
    extra = " ".join(part for part in (own, split, context, full) if part)
    assert field == (f"{head}\n{extra}" if extra else head)


def _full_words_reference(uri: str, section: tuple[str, ...], context: str) -> str:
    """A code chunk's abbreviations as full words, written plainly: every lower-case word
    of the file name, the titles, the text and the context words (camelCase parts too, but
    not the folders'), each looked up in the table (a plural as its singular), kept when
    neither the chunk nor its folders hold a word of its stem."""
    folders, _, name = uri.rpartition("/")

    def words(*texts: str) -> list[str]:
        return [w.lower() for text in texts for w in re.findall(r"[A-Za-z0-9]+", text)]

    own = words(
        name,
        *section,
        LONG_TEXT,
        context,
        _camel_words_reference(" ".join((name, *section, context))),
    )
    held = {stem(w) for w in [*own, *words(folders, _camel_words_reference(folders))]}
    full: list[str] = []
    for word in own:
        plural = len(word) > 2 and word.endswith("s") and word not in NOT_PLURALS
        found = ABBREVIATIONS.get(word) or (ABBREVIATIONS.get(word[:-1]) if plural else None)
        for part in (found or "").split():
            if stem(part) not in held and part not in full:
                full.append(part)
    return " ".join(full)


def camel_parts_every_capital(text: str) -> list[str]:
    """`context._camel_parts` as it was before it passed over words whose only capital is
    their first letter."""
    found: list[str] = []
    for word in context_module._WORD.findall(text):
        if word.islower():
            continue
        parts = context_module._CAMEL.split(word)
        if len(parts) > 1:
            found.extend(part.lower() for part in parts)
    return found


@given(st.text(alphabet="aAbBsS09 _-.é", max_size=30))
def test_camel_parts_are_those_of_every_capitalised_word(text: str) -> None:
    assert context_module._camel_parts(text) == camel_parts_every_capital(text)
