"""The acronyms a project spells out (knowledge/chunk/acronym.py), kept by file at ingest
(store/acronyms.py) and bridging a query's words (retrieval/acronym_terms.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo import Memory
from credo.knowledge.chunk.acronym import definitions
from credo.retrieval.acronym_terms import bridges, table_of, with_acronyms
from credo.store.fts import STOPWORDS

# The shared suite (tests/conftest.py): the store tests run on SQLite and PostgreSQL.
BOTH_BACKENDS = True


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("install from various version control systems (VCS).", ("vcs", "version control systems")),
        ("VCS (version control system) support", ("vcs", "version control system")),
        ("The Python Package Index (PyPI) hosts", ("pypi", "python package index")),
        (
            "to avoid cross-site request forgery (CSRF) attacks",
            ("csrf", "cross-site request forgery"),
        ),
        ("a Command Line Interface (CLI) for it", ("cli", "command line interface")),
        ("the Python Packaging Authority (PyPA).", ("pypa", "python packaging authority")),
        ("Grand Canal of China (GCC)", ("gcc", "grand canal of china")),
        ("a Regular Expression (RegEx) here", ("regex", "regular expression")),
        ("fetch the Uniform Resource Locators (URLs)", ("url", "uniform resource locators")),
    ],
)
def test_a_definition_is_found_either_way_round(text: str, found: tuple[str, str]) -> None:
    assert definitions(text) == [found]


@pytest.mark.parametrize(
    "text",
    [
        "the value to use (optional)",  # a word in parentheses, no capitals
        "the value to use (default)",
        "call the thing (see ``Foo``)",
        "Windows style line endings (CRLF)",  # letters no word starts
        "Do you use assistive technology (AT)",  # a stopword as a short form
        "the server side (SERVER)",  # the short form is a word of the long form
        "prints the full tree (CST)",  # "full tree" gives no "c"
        "run a check (DEPRECATED)",
        "nothing here",
    ],
)
def test_no_definition_is_made_up(text: str) -> None:
    assert definitions(text) == []


_word = st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=9).filter(
    lambda w: w not in STOPWORDS
)


@given(st.lists(_word, min_size=2, max_size=5), st.booleans())
def test_the_initials_of_any_words_define_them(words: list[str], short_first: bool) -> None:
    short = "".join(w[0] for w in words)
    if short in STOPWORDS or short in words:
        return
    long = " ".join(words)
    text = f"{short.upper()} ({long})" if short_first else f"see the {long} ({short.upper()})"
    assert (short, long) in definitions(text)


@given(st.text(max_size=300))
def test_any_text_reads_without_error(text: str) -> None:
    for short, long in definitions(text):
        assert short and len(long.split()) >= 2


PAIRS = (("vcs", "version control systems"), ("pypi", "python package index"))


def _rows(counts: dict[str, int]):
    return lambda terms: {t: counts[t] for t in terms if counts.get(t)}


def test_a_spelt_out_long_form_asks_for_its_acronym_when_no_rarer() -> None:
    table = table_of(PAIRS)
    text = "where does a checkout go when I install from version control"
    terms = ["checkout", "install", "version", "control"]
    assert bridges(table, terms, text, _rows({"vcs": 12, "version control": 3})) == ["vcs"]
    # the acronym rarer than the reader's phrase would weigh more: refused
    assert bridges(table, terms, text, _rows({"vcs": 2, "version control": 3})) == []


def test_an_acronym_asks_for_its_long_form_as_a_phrase_when_no_rarer() -> None:
    table = table_of(PAIRS)
    counts = {"vcs": 4, "version control systems": 5}
    assert bridges(table, ["vcs", "url"], "a VCS url", _rows(counts)) == ["version control systems"]
    counts = {"vcs": 12, "version control systems": 1}
    assert bridges(table, ["vcs", "url"], "a VCS url", _rows(counts)) == []


def test_a_long_form_may_lose_its_first_or_last_word_only() -> None:
    table = table_of(PAIRS)
    counts = {"pypi": 64, "package index": 42, "python package": 40}
    assert bridges(table, ["package", "index"], "the package index", _rows(counts)) == ["pypi"]
    # "Python package" is the sub-phrase, but commoner than the acronym here? no: refused
    # only by the count; "python index" skips a word, never a run
    assert bridges(table, ["python", "index"], "python index", _rows(counts)) == []


def test_an_acronym_spelt_two_ways_is_left_alone() -> None:
    table = table_of((("ci", "continuous integration"), ("ci", "code intelligence")))
    assert table == {}


class _Store:
    def __init__(self, pairs: tuple[tuple[str, str], ...], counts: dict[str, int]) -> None:
        self.pairs, self.counts, self.counted = pairs, counts, 0

    def acronyms(self) -> tuple[tuple[str, str], ...]:
        return self.pairs

    def term_rows(self, terms: list[str]) -> dict[str, int]:
        self.counted += 1
        return {t: self.counts[t] for t in terms if self.counts.get(t)}


def test_a_store_without_acronyms_counts_nothing() -> None:
    store = _Store((), {})
    terms = ["version", "control"]
    assert with_acronyms(store, terms, "version control") is terms  # type: ignore[arg-type]
    assert store.counted == 0


def _write(root: Path, name: str, text: str) -> Path:
    path = root / name
    path.write_text(text, encoding="utf-8")
    return path


DEFINES = "# Version control\n\npip supports installing from version control systems (VCS).\n"
USES = (
    "# Editable checkouts\n\nA VCS checkout of an editable install goes into the src folder;"
    " pass --src to choose another. VCS URLs name the revision after an @.\n"
)
OTHER = "# Caching\n\nWheels built from source are kept in the cache folder between runs.\n"


def test_definitions_live_with_their_file(memory: Memory, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    defines = _write(docs, "vcs.md", DEFINES)
    _write(docs, "editable.md", USES)
    memory.ingest(docs)
    store = memory.store
    assert store.acronyms() == (("vcs", "version control systems"),)
    memory.ingest(docs)  # idempotent
    assert store.acronyms() == (("vcs", "version control systems"),)
    defines.write_text("# Version control\n\npip installs from Git and Mercurial.\n")
    memory.ingest(docs)
    assert store.acronyms() == ()
    defines.write_text(DEFINES)
    memory.ingest(docs)
    assert store.acronyms() == (("vcs", "version control systems"),)
    defines.unlink()
    memory.ingest(docs)
    assert store.acronyms() == ()


def test_a_query_in_the_long_form_finds_the_page_that_says_the_acronym(
    memory: Memory, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    _write(docs, "vcs.md", DEFINES)
    _write(docs, "editable.md", USES)
    _write(docs, "cache.md", OTHER)
    memory.ingest(docs)
    # The page that says "VCS" shares no word with the question but the acronym's.
    texts = [b.content for b in memory.retrieve("tell me about version control").beliefs]
    assert any("editable install" in text for text in texts), texts


def test_a_v14_store_migrates_and_learns_its_acronyms_at_the_next_ingest(tmp_path: Path) -> None:
    """m015 adds the table empty; the reader's version moved with it, so the next ingest
    reads every file again and writes its rows."""
    from credo.store import SqliteStore
    from credo.store.migrations import LATEST_VERSION, MIGRATIONS

    docs = tmp_path / "docs"
    docs.mkdir()
    _write(docs, "vcs.md", DEFINES)
    db = tmp_path / "old.db"
    SqliteStore(db, migrations=MIGRATIONS[:14]).close()
    with Memory(db) as memory:
        assert memory.stats().schema_version == LATEST_VERSION == 20
        assert memory.store.acronyms() == ()
        memory.ingest(docs)
        assert memory.store.acronyms() == (("vcs", "version control systems"),)
