"""A query word's -tion relative (store/derivation.py), asked for only when the index holds
it in at least as many rows as the word (retrieval/derived_terms.py, ``Store.term_rows``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.derived_terms import admitted, relatives, with_relatives
from credo.store.derivation import derived_of
from credo.store.fts import MAX_QUERY_TERMS
from credo.store.stem import stem

# The shared suite (tests/conftest.py): the store tests run on SQLite and PostgreSQL.
BOTH_BACKENDS = True


@pytest.mark.parametrize(
    ("word", "other"),
    [
        ("verification", "verify"),
        ("verify", "verification"),
        ("verified", "verification"),
        ("descriptions", "describe"),
        ("describes", "description"),
        ("permission", "permit"),
        ("resolution", "resolve"),
        ("invocation", "invoke"),
        ("inclusion", "include"),
        ("definition", "define"),
        ("conversion", "convert"),
    ],
)
def test_a_noun_and_its_verb_ask_for_each_other(word: str, other: str) -> None:
    assert derived_of(word) == other


@pytest.mark.parametrize(
    "word",
    # a word made from the verb ("identifier", "consumer"), the ending alone ("mission"),
    # endings left out as unsafe ("position", "extension", "introduction", "provision"),
    # one Porter folds already ("validation"), and plain words
    [
        "identifier",
        "consumer",
        "verifiable",
        "mission",
        "position",
        "extension",
        "introduction",
        "provision",
        "validation",
        "client",
        "timeout",
    ],
)
def test_other_words_ask_for_nothing(word: str) -> None:
    assert derived_of(word) is None


@pytest.mark.parametrize(
    ("word", "base"),
    [
        ("formatter", "format"),  # Porter: ``formatt`` beside ``format``
        ("linters", "lint"),
        ("runner", "run"),  # a consonant doubled before -er
        ("parser", "pars"),  # the index reads "parse" as ``pars``
        ("starter", "start"),
        ("writer", "write"),  # a silent -e the -er took
        ("handler", "handl"),
        ("older", "old"),  # a comparative's adjective
        ("bigger", "big"),
        ("easier", "easy"),
        ("editor", "edit"),
        ("constructor", "construct"),
        ("processors", "process"),
        ("executor", "execute"),
    ],
)
def test_an_agent_noun_or_comparative_asks_for_its_verb_or_adjective(word: str, base: str) -> None:
    assert derived_of(word) == base
    assert stem(base) != stem(word)


@pytest.mark.parametrize(
    "word",
    # Porter folds them already ("converter", "consumer", "identifier", "modifier"); a base
    # too short to be told ("user": ``us``); -or words that name no agent of a verb; the
    # noun ending alone ("version")
    [
        "converter",
        "consumer",
        "modifier",
        "tokenizer",
        "user",
        "error",
        "color",
        "author",
        "minor",
        "version",
        "whether",
        "never",
        "number",
    ],
)
def test_words_in_er_or_or_that_are_no_agent_ask_for_nothing(word: str) -> None:
    assert derived_of(word) is None


def test_relatives_leave_out_a_word_the_query_holds() -> None:
    assert relatives(["verification", "verify", "client"]) == {}
    assert relatives(["certificate", "verification"]) == {"verification": "verify"}


def test_a_relative_whose_stem_the_query_asks_already_is_left_out() -> None:
    # "log" is what "logging" asks for already: a second "log" would count it twice
    assert relatives(["logger", "logging"]) == {}
    assert relatives(["logger", "messages"]) == {"logger": "log"}


def test_a_relative_rarer_than_the_word_is_not_asked_for() -> None:
    related = {"description": "describe"}
    assert admitted(related, {"description": 40, "describe": 1}) == []
    assert admitted(related, {"description": 40, "describe": 40}) == ["describe"]
    assert admitted(related, {"description": 3, "describe": 9}) == ["describe"]


def test_a_wider_word_is_asked_for_only_where_the_project_lacks_the_reader_word() -> None:
    # an agent noun's verb, a comparative's adjective: commoner nearly always, yet the
    # project that names the thing ("formatter", "constructor") answers in that word
    assert admitted({"formatter": "format"}, {"formatter": 7, "format": 12}) == []
    assert admitted({"older": "old"}, {"older": 10, "old": 26}) == []
    assert admitted({"formatter": "format"}, {"format": 12}) == ["format"]
    # a -tion noun's verb is the same act: the count alone decides
    assert admitted({"conversion": "convert"}, {"conversion": 1, "convert": 50}) == ["convert"]


def test_a_word_the_project_never_uses_asks_for_any_relative_it_holds() -> None:
    related = {"verification": "verify"}
    assert admitted(related, {"verify": 1}) == ["verify"]
    assert admitted(related, {}) == []  # held nowhere: nothing to ask for


_WORDS = ["verification", "descriptions", "permit", "invoked", "resolution"]
_RELATIVES = ["verify", "describe", "permission", "invocation", "resolve"]


@given(
    st.dictionaries(st.sampled_from(_WORDS), st.sampled_from(_RELATIVES)),
    st.dictionaries(st.sampled_from([*_WORDS, *_RELATIVES]), st.integers(1, 50)),
)
def test_an_admitted_relative_never_weighs_more_than_its_word(
    related: dict[str, str], rows: dict[str, int]
) -> None:
    kept = admitted(related, rows)
    assert len(kept) == len(set(kept))
    for other in kept:
        # some word it stands beside is held in no more rows: bm25's IDF falls as rows grow
        assert any(
            o == other and rows.get(other, 0) >= max(rows.get(t, 0), 1) for t, o in related.items()
        )
    for term, other in related.items():
        if rows.get(other, 0) >= max(rows.get(term, 0), 1):
            assert other in kept


class _Counts:
    """A store that only counts rows (``term_rows``) and remembers what it was asked."""

    def __init__(self, rows: dict[str, int]) -> None:
        self.rows = rows
        self.asked: list[list[str]] = []

    def term_rows(self, terms: list[str]) -> dict[str, int]:
        self.asked.append(terms)
        return {t: self.rows[t] for t in terms if t in self.rows}


def test_a_query_without_such_a_word_reads_no_count() -> None:
    store = _Counts({})
    terms = ["client", "timeout"]
    assert with_relatives(store, terms) is terms  # type: ignore[arg-type]
    assert store.asked == []


def test_relatives_follow_the_terms_within_the_cap() -> None:
    store = _Counts({"verify": 5, "verification": 2})
    assert with_relatives(store, ["ssl", "verification"]) == ["ssl", "verification", "verify"]  # type: ignore[arg-type]
    full = [f"w{i}" for i in range(MAX_QUERY_TERMS - 1)] + ["verification"]
    assert with_relatives(store, full) == full  # type: ignore[arg-type]


def test_term_rows_counts_the_rows_bm25_counts(store_location: str | Path, tmp_path: Path) -> None:
    with Memory(store_location, root=tmp_path) as memory:
        memory.import_records(
            [
                {"kind": "belief", "id": "a", "content": "Describe the options"},
                {"kind": "belief", "id": "b", "content": "It described and describes them"},
                {"kind": "belief", "id": "c", "content": "A description"},
            ]
        )
        rows = memory.store.term_rows(["describe", "description", "nowhere", "describe"])
    # "describe" as the index reads it (its stem): "described" and "describes" too
    assert rows == {"describe": 2, "description": 1}
    assert stem("described") == stem("describe")


def test_a_reader_word_the_project_lacks_finds_its_relative(
    store_location: str | Path, tmp_path: Path
) -> None:
    """Fails without derived_terms: "verification" is held nowhere, and "certificate"
    alone ranks the shortest passage first."""
    with Memory(store_location, root=tmp_path) as memory:
        memory.import_records(
            [
                {
                    "kind": "belief",
                    "id": "verify",
                    "content": "Pass a CA bundle to verify the server's certificate.",
                },
                {
                    "kind": "belief",
                    "id": "disk",
                    "content": "The certificate is read from disk when the server starts.",
                },
                {
                    "kind": "belief",
                    "id": "chain",
                    "content": "Each certificate file holds a chain.",
                },
            ]
        )
        ids = [b.id for b in memory.retrieve("how does certificate verification work?").beliefs]
    assert ids[0] == "verify"


def test_a_rare_relative_does_not_outrank_the_reader_word(
    store_location: str | Path, tmp_path: Path
) -> None:
    """The project says "description" everywhere and "describe" once: asked for at full
    weight, the stray "describe" (higher IDF) ranked first (terms75's measurement)."""
    fillers = [
        {"kind": "belief", "id": f"f{i}", "content": f"Filler passage number {i} on parsing."}
        for i in range(6)
    ]
    with Memory(store_location, root=tmp_path) as memory:
        memory.import_records(
            [
                {"kind": "belief", "id": "d1", "content": "Option.description holds help text."},
                {"kind": "belief", "id": "d2", "content": "A description sits beside a name."},
                {"kind": "belief", "id": "d3", "content": "Set a description with a call."},
                {"kind": "belief", "id": "stray", "content": "We describe the output here."},
                *fillers,
            ]
        )
        ids = [b.id for b in memory.retrieve("where is the description?").beliefs]
    assert ids[0] in {"d1", "d2", "d3"}
    assert "stray" not in ids[:3]


@pytest.mark.sqlite_only
def test_a_warm_index_counts_as_fts5_does(tmp_path: Path) -> None:
    words = ["describe", "description", "verify", "verification", "invoke", "nowhere", "a"]
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.import_records(
            [
                {"kind": "belief", "id": f"b{i}", "content": " ".join(words[: i % 6 + 1])}
                for i in range(40)
            ]
        )
        asked = [*words, "elsewhere"]
        cold = memory.store.term_rows(asked)
        assert memory.store.build_warm()
        mirror = memory.store._mirror_policy().mirror
        assert mirror is not None and mirror.complete
        assert mirror.term_rows(asked) == cold
        assert memory.store.term_rows(asked) == cold
    assert cold["describe"] == 40 and cold["nowhere"] == 6 and "elsewhere" not in cold


def test_an_agent_noun_finds_the_passage_that_names_its_verb(
    store_location: str | Path, tmp_path: Path
) -> None:
    """Fails without the -er rule (probe79): "formatter" is ``formatt`` to the index, held
    nowhere, so "use" alone ranks a passage about something else first."""
    with Memory(store_location, root=tmp_path) as memory:
        memory.import_records(
            [
                {"kind": "belief", "id": "ruff", "content": "We run ruff format for formatting."},
                {"kind": "belief", "id": "uv", "content": "We use uv for environments."},
                {"kind": "belief", "id": "py", "content": "We use Python 3.12 in CI."},
            ]
        )
        ids = [b.id for b in memory.retrieve("Which formatter do we use?").beliefs]
    assert ids[0] == "ruff"
