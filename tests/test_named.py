"""A question that names a definition reaches it (retrieval/named.py): a word written as an
identifier (``Execute``, ``ExactArgs``, ``from_boxed``) that is a definition's name brings
that definition into the candidates whatever its keyword rank, and a path
(``Error::msg``, ``Error.msg``) names the definition inside another, which leads."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval import named as naming
from credo.retrieval.named import Found, Named, lifted, named_definitions, named_in
from credo.retrieval.rank import Scored, as_scored
from tests.lane_runs import cold_then_warm


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("what does Execute return", [Named("", "Execute")]),
        ("what error message does ExactArgs give", [Named("", "ExactArgs")]),
        ("how does from_boxed work", [Named("", "from_boxed")]),
        ("what does Error::msg do", [Named("Error", "msg")]),
        ("what does Error.msg do", [Named("Error", "msg")]),
        ("CancelToken.source() - what does it hand back?", [Named("CancelToken", "source")]),
        # a capital that starts a sentence is the sentence's
        ("Execute what? How does it end. Why", []),
        ("What does it return", []),
        # acronyms, file names, "e.g." and one letter are no identifiers
        ("how do I read JSON over HTTP", []),
        ("what does setup.py: do, e.g. in docs/conf.py", []),
        ("how do I hide it, as I said", []),
    ],
)
def test_the_names_a_question_writes_as_identifiers(query: str, named: list[Named]) -> None:
    assert list(named_in(query)) == named


@given(st.text(max_size=200))
def test_named_in_reads_any_text(text: str) -> None:
    found = named_in(text)
    assert len(found) <= 4
    assert all(n.name and n.name in text and (not n.owner or n.owner in text) for n in found)


def _ranked(*ids: str) -> list[Scored]:
    return [
        Scored(i, round(1.0 - 0.1 * n, 9), {"bm25f": round(1.0 - 0.1 * n, 9)})
        for n, i in enumerate(ids)
    ]


def test_a_path_named_definition_leads_and_its_gain_is_a_part() -> None:
    ranked = _ranked("a", "b", "c", "d")
    out = as_scored(lifted(ranked, ["c"]))
    assert [s.id for s in out] == ["c", "a", "b", "d"]
    first = out[0]
    assert sum(first.lanes.values()) == pytest.approx(first.score)
    assert lifted(ranked, ["a"]) is ranked  # already first: the same list
    assert lifted(ranked, ["zz"]) is ranked  # not a candidate
    assert [s.id for s in as_scored(lifted(ranked, ["d", "b"]))] == ["d", "b", "a", "c"]


# A Go package where the word of the definition asked about is in every test: "execute"
# in 80 tests that also say "return", the definition itself only "execute".
COMMAND = """package cobra

// Execute uses the args and runs through the command tree finding the right command.
func (c *Command) Execute() error {
	_, err := c.ExecuteC()
	return err
}

// ExecuteC runs the command tree.
func (c *Command) ExecuteC() (cmd *Command, err error) {
	return c, nil
}
"""

TESTS = "package cobra\n\n" + "\n".join(
    f"""// Test{n} checks what executeCommand returns for case {n}.
func TestExecuteReturn{n}(t *testing.T) {{
	output, err := executeCommand(rootCmd{n}, "arg")
	if err != nil {{
		return
	}}
	checkStringContains(t, output, "execute return {n}")
}}
"""
    for n in range(80)
)

ERRORS = """pub struct Error {
    inner: Own<ErrorImpl>,
}

impl Error {
    /// Create a new error object from a printable error message.
    pub fn msg<M>(message: M) -> Self
    where
        M: Display + Debug + Send + Sync + 'static,
    {
        Error::from_adhoc(message, backtrace!())
    }
}

/// Render an error: the msg with the values compared.
fn render(msg: &'static str, lhs: &dyn Debug, rhs: &dyn Debug) -> Error {
    Error::msg(format!("{msg} ({lhs:?} vs {rhs:?})"))
}

/// Dispatch the msg of an error.
fn dispatch_error(self, msg: &'static str) -> Error {
    render(msg, &self.0, &self.1)
}

""" + "".join(
    f"""
/// Error {n}: the msg, the error msg, and what the msg does to the error.
fn error_msg_{n}(msg: &'static str, error: Error) -> Error {{
    dispatch_error(msg, error.msg(msg))
}}
"""
    for n in range(6)
)


def test_a_named_definition_whose_word_is_everywhere_is_reached(tmp_path: Path) -> None:
    """Fails before retrieval/named.py: ``Execute``'s passage ranked past the keyword
    limit (80 tests hold "execute" and "return") and was no candidate at all."""
    (tmp_path / "command.go").write_text(COMMAND)
    (tmp_path / "command_test.go").write_text(TESTS)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        found = memory.retrieve("what does Execute return", token_budget=50000).beliefs
        trails = [b.trail for b in found]
        assert trails[0].startswith("command.go › Command › Execute L")
        # lower case, the word asks for no definition by name: the tests keep it out
        plain = memory.retrieve("what does execute return", token_budget=50000).beliefs
        assert not any(b.trail.startswith("command.go › Command › Execute L") for b in plain)
        cold_then_warm(memory, ("what does Execute return", "what does execute return"))


@pytest.mark.parametrize("query", ["what does Error::msg do", "what does Error.msg do"])
def test_a_path_in_a_question_leads_with_the_definition_it_names(
    tmp_path: Path, query: str
) -> None:
    """Fails before retrieval/named.py: ``render`` and ``dispatch_error`` say "msg" more."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "error.rs").write_text(ERRORS)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        found = memory.retrieve(query, token_budget=5000).beliefs
        assert found[0].trail.startswith("src/error.rs › Error › msg L")
        cold_then_warm(memory, (query,))


def test_only_a_question_naming_something_asks_the_store(tmp_path: Path) -> None:
    (tmp_path / "command.go").write_text(COMMAND)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        store = memory.store
        asked: list[list[str]] = []
        read = store.context_phrase_ids

        def spy(phrases: list[str], *, limit: int) -> list[str]:
            asked.append(phrases)
            return read(phrases, limit=limit)

        store.context_phrase_ids = spy  # type: ignore[method-assign]
        memory.retrieve("what does execute return")
        assert asked == []
        memory.retrieve("what does Execute return")
        assert asked == [["execute"]]


def _one_name_at_a_time(store: object, asked: list[Named]) -> Found:
    """The reference: ``named_definitions`` as it read before, each name on its own (a
    context read, a trails read and a definitions read per name)."""
    out: dict[str, None] = {}
    written: dict[str, None] = {}
    for named in asked:
        ids = store.context_phrase_ids([named.name.lower()], limit=1 << 30)  # type: ignore[attr-defined]
        trails = store.trails(ids) if ids else {}  # type: ignore[attr-defined]
        matching = [
            i
            for i, trail in trails.items()
            if naming._last_name(trail).lower() == named.name.lower()
            and (not named.owner or naming._owner_matches(trail, named.owner))
        ]
        if not matching:
            continue
        defined = store.passage_definitions(matching)  # type: ignore[attr-defined]
        heads = naming._heads(defined, matching, trails)
        heads.sort(key=lambda i: naming._specific(trails[i], named.name))
        for i in heads[: naming.PER_NAME]:
            out[i] = None
            if naming._last_name(trails[i]) == named.name and naming._telling(named, trails[i]):
                written[i] = None
    return Found(list(out), list(written))


@pytest.mark.parametrize(
    "query",
    [
        "what do Execute, ExecuteC and Error::msg return",
        "does ExecuteC call Execute or Error.msg or render",
        "what does Execute return",
        "what does Nothing_here do",
        "is Error::msg or dispatch_error or error_msg_3 or Command the one",
    ],
)
def test_every_name_is_read_at_once_as_each_was_on_its_own(tmp_path: Path, query: str) -> None:
    """Fails before (the per-name reads asked the context index once a name): one read for
    all cold, none warm (the version's names map, ``names_ahead``), the same definitions in
    the same order as each name read on its own."""
    (tmp_path / "command.go").write_text(COMMAND)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "error.rs").write_text(ERRORS)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        store = memory.store
        asked = list(named_in(query))
        for warm in (False, True):
            if warm:
                assert store.build_warm()
            want = _one_name_at_a_time(store, asked)
            reads: list[list[str]] = []

            def spy(
                phrases: list[str], *, limit: int, reads=reads, read=store.context_phrase_ids
            ) -> list[str]:
                reads.append(phrases)
                return read(phrases, limit=limit)

            store.context_phrase_ids = spy  # type: ignore[method-assign]
            try:
                assert named_definitions(store, asked) == want
            finally:
                del store.context_phrase_ids
            assert reads == ([] if warm else [list(dict.fromkeys(n.name.lower() for n in asked))])
        assert _one_name_at_a_time(store, asked).every or query.count("Nothing")


@given(
    st.lists(st.integers(0, 30), min_size=1, max_size=12, unique=True),
    st.lists(st.integers(0, 40), max_size=4, unique=True),
)
def test_lifted_keeps_every_candidate_and_puts_the_named_first(
    scores: list[int], named: list[int]
) -> None:
    ranked = sorted(
        (Scored(f"b{s}", s / 10, {"bm25f": s / 10}) for s in scores),
        key=lambda s: (-s.score, s.id),
    )
    asked = [f"b{n}" for n in named]
    out = as_scored(lifted(ranked, asked))
    assert sorted(s.id for s in out) == sorted(s.id for s in ranked)
    assert [s.score for s in out] == sorted((s.score for s in out), reverse=True)
    present = [i for i in asked if any(s.id == i for s in ranked)]
    if present:
        assert [s.id for s in out[: len(present)]] == present
    for s in out:
        assert sum(s.lanes.values()) == pytest.approx(s.score)
