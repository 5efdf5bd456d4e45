"""Code identifiers' abbreviations read as the words they stand for (issue #14): the
table, its expansion, and an ingested identifier found by its full word."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo import Memory
from credo.knowledge.chunk import Chunk
from credo.knowledge.chunk.abbreviation import ABBREVIATIONS, NOT_PLURALS, expanded, expansion
from credo.knowledge.ingest.context import context_field
from credo.store.stem import stem, tokens

BOTH_BACKENDS = True  # the keyword index's terms must be the same on PostgreSQL


def test_the_table_is_lower_case_words_and_closed() -> None:
    """Keys are single lower-case identifier parts; values lower-case words; no value word
    is itself a key, so an expansion never asks for another (expanding twice adds nothing)."""
    for key, words in ABBREVIATIONS.items():
        assert re.fullmatch(r"[a-z]{2,}", key), key
        assert re.fullmatch(r"[a-z]+( [a-z]+)*", words), key
        for word in words.split():
            assert word not in ABBREVIATIONS, (key, word)
            assert stem(word) != stem(key), (key, word)  # else it bridges nothing


@pytest.mark.parametrize(
    "ambiguous",
    [
        "res",
        "desc",
        "mod",
        "ext",
        "tx",
        "ws",
        "cur",
        "op",
        "doc",
        "win",
        "min",
        "temp",
        "hist",
        "ns",
    ],
)
def test_ambiguous_abbreviations_stay_out(ambiguous: str) -> None:
    assert expansion(ambiguous) is None
    assert expansion(f"{ambiguous}s") is None


@pytest.mark.parametrize("word", sorted(NOT_PLURALS))
def test_a_plural_that_is_a_word_of_its_own_is_not_expanded(word: str) -> None:
    """``rms`` is a root mean square, not "removes"; ``socks`` the SOCKS proxy protocol."""
    assert word[:-1] in ABBREVIATIONS  # what the plural rule would have read it as
    assert expansion(word) is None
    piece = Chunk("def connect(proxy):\n    return proxy", 1, 2, "definition", (word,), None, ())
    assert not set(tokens(context_field(f"src/{word}.py", piece))) & {
        "remove",
        "socket",
        "length",
    }


@pytest.mark.parametrize(
    ("part", "words"),
    [
        ("cfg", "configuration"),
        ("cb", "callback"),
        ("hdrs", "header"),  # a plural reads as its singular's words
        ("kwargs", "keyword argument"),
        ("stats", "statistics"),  # a key ending in "s" is its own entry
        ("fd", "file descriptor"),
        ("config", "configuration"),
        ("cbs", "callback"),
        ("s", None),
        ("ss", None),
        ("timeout", None),
        ("CFG", None),  # parts come lower-cased from the splitters
    ],
)
def test_expansion(part: str, words: str | None) -> None:
    assert expansion(part) == words


@pytest.mark.parametrize(
    ("uri", "absent"),
    [
        ("src/reqHandlers/loader.py", "request"),  # a folder's parts name no abbreviation
        ("src/connection/pool.py", "connection"),  # a folder's words are held already
    ],
)
def test_the_folders_neither_expand_nor_count_twice(uri: str, absent: str) -> None:
    piece = Chunk(
        "def open_pool(conn):\n    return conn", 1, 2, "definition", ("open_pool",), None, ()
    )
    second_line = context_field(uri, piece).split("\n")[1]
    assert absent not in tokens(second_line)
    assert "connection" in tokens(context_field("src/pool.py", piece))  # elsewhere it is added


_PARTS = st.lists(
    st.one_of(st.sampled_from(sorted(ABBREVIATIONS)), st.from_regex(r"[a-z]{1,8}", fullmatch=True)),
    max_size=30,
)


@given(_PARTS)
def test_expanded_adds_only_new_words_once_and_is_idempotent(parts: list[str]) -> None:
    full = expanded(parts)
    assert len(full) == len(set(full))
    assert not set(full) & set(parts)  # never a part itself, so no part is lost or doubled
    wanted = [w for p in parts for w in (expansion(p) or "").split() if w not in parts]
    assert full == list(dict.fromkeys(wanted))  # first-seen order
    assert expanded([*parts, *full]) == []  # once expanded, nothing more to add
    assert expanded(parts) == full  # deterministic


@given(st.from_regex(r"[a-z][a-z0-9]{0,20}", fullmatch=True))
def test_porter_keeps_a_words_first_letter(word: str) -> None:
    """What the context's stem check relies on to stem only parts sharing an initial."""
    assert stem(word)[:1] == word[:1]


_CODE_NAMES = st.lists(
    st.sampled_from(["reqCtx", "cfg_dir", "cb", "HTTPHeaderDict", "msgs", "plain", "res", "x"]),
    max_size=6,
).map(" ".join)


@given(_CODE_NAMES, _CODE_NAMES)
def test_a_code_field_keeps_every_word_and_adds_the_full_words_last(
    text: str, context: str
) -> None:
    """In a code file the field is the same as a prose file's but for a last group of full
    words, none of whose stems the chunk held; a prose file gets none."""
    piece = Chunk(text or "x", 1, 2, "definition", ("load_cfg",), None, (), context)
    prose = context_field("pkg/loader.md", piece)
    code = context_field("pkg/loader.py", piece)
    assert code == context_field("pkg/loader.py", piece)
    prose_words, code_words = _words(prose), _words(code)
    assert code_words[: len(prose_words)] == prose_words
    added = code_words[len(prose_words) :]
    assert "configuration" in added  # the title's "cfg"
    held = {stem(w) for w in tokens(f"{piece.text} {context} load_cfg")}
    assert not {stem(w) for w in added} & held
    assert len(added) == len(set(added))


def _words(field: str) -> list[str]:
    """The field's words but the trail's path (which names the file) and any filler."""
    head, _, rest = field.partition("\n")
    return [w for w in tokens(f"{head.partition(' ')[2]} {rest}") if w != "credolengthfiller"]


SOURCE = '''\
def load_cfg(cb, cfg_dir):
    """Read the settings."""
    return cb(cfg_dir)


def render_page(title):
    """Draw one page of the report."""
    return title
'''


def test_both_backends_find_an_identifier_by_its_full_word(memory: Memory, tmp_path: Path) -> None:
    (tmp_path / "loader.py").write_text(SOURCE)
    memory.ingest(tmp_path / "loader.py")
    result = memory.retrieve("callback configuration", token_budget=2_000)
    assert [b.content for b in result.beliefs][:1] == [
        "def load_cfg(cb, cfg_dir): Read the settings."
    ]


@pytest.mark.sqlite_only
@pytest.mark.parametrize("warm", [False, True])
def test_an_ingested_identifier_is_found_by_its_full_word(tmp_path: Path, warm: bool) -> None:
    (tmp_path / "loader.py").write_text(SOURCE)
    (tmp_path / "notes.md").write_text("# Notes\n\nThe cfg of the page renderer.\n")
    db = tmp_path / "m.db"
    with Memory(db, root=tmp_path) as memory:
        memory.ingest(tmp_path / "loader.py", tmp_path / "notes.md")
    with Memory(db, root=tmp_path) as memory:
        if warm:
            assert memory.store.build_warm()
        result = memory.retrieve("configuration directory callback", token_budget=2_000)
        assert result.beliefs and "load_cfg" in result.beliefs[0].content
        # The Markdown page's "cfg" is prose: no full word is added to it.
        texts = [b.content for b in result.beliefs]
        assert not any("page renderer" in t for t in texts)


@pytest.mark.sqlite_only
def test_a_store_read_before_the_table_gains_its_words_on_the_next_ingest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unchanged file read by the reader before this one (no full words) is read once
    more: its kept passage's context is rewritten and found by the full word, once."""
    from credo.knowledge.ingest import context, walk

    (tmp_path / "loader.py").write_text(SOURCE)
    db = tmp_path / "m.db"
    with monkeypatch.context() as older:
        older.setattr(walk, "READER_VERSION", walk.READER_VERSION - 1)
        older.setattr(context, "expanded", lambda parts: [])
        with Memory(db, root=tmp_path) as memory:
            memory.ingest(tmp_path)
            assert not memory.retrieve("configuration callback", token_budget=2_000).beliefs
    with Memory(db, root=tmp_path) as memory:
        report = memory.ingest(tmp_path)
        assert (report.files_ingested, report.beliefs_added, report.beliefs_kept) == (1, 0, 2)
        hits = memory.retrieve("configuration callback", token_budget=2_000).beliefs
        assert [b.content for b in hits][:1] == ["def load_cfg(cb, cfg_dir): Read the settings."]
        assert memory.ingest(tmp_path).files_unchanged == 1
