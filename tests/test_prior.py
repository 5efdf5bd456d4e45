"""Which passages are a changelog's (retrieval/prior.py), and what that does to a ranking."""

from __future__ import annotations

from pathlib import Path

import pytest

from credo import Memory
from credo.retrieval.prior import (
    asks_for_tests,
    inner_passages,
    is_history,
    is_test,
    weighed_sets,
    weighed_tests,
)
from credo.retrieval.rank import Weights, as_scored, compose, compose_reference


@pytest.mark.parametrize(
    ("trail", "history"),
    [
        ("CHANGES.md › Version 8.2.0 L486-L504", True),
        ("CHANGES.rst › Version 2.0.0 L538-L552", True),
        ("HISTORY.rst L1-L40", True),
        ("docs/changelog.md › 1.2.0 L3-L9", True),
        ("NEWS L10-L12", True),
        ("docs/whatsnew/3.12.rst › Summary L1-L30", True),
        ("docs/releases/4.2.txt L1-L5", True),
        ("newsfragments/123.feature.rst L1-L1", True),
        (r"C:\project\CHANGELOG.adoc L1-L2", True),
        # Documentation about changes, code named like a changelog: not one.
        ("docs/guide.md › Changes in behaviour L1-L9", False),
        ("docs/history-of-the-project.md L1-L9", False),
        ("src/history.py › History › undo L10-L30", False),
        ("lib/changes/apply.js › apply L1-L9", False),
        ("docs/news/announcing.md L1-L9", False),
        ("", False),
    ],
)
def test_a_changelog_is_told_by_its_file_or_folder_name(trail: str, history: bool) -> None:
    assert is_history(trail) is history


def test_a_changelog_candidate_gives_up_a_share_listed_as_its_own_part() -> None:
    lanes = {"bm25f": {"doc": 10.0, "log": 10.0}, "heat": {"doc": 1.0, "log": 1.0}}
    confidence = {"doc": 0.5, "log": 0.5}
    weights = Weights(history=0.75)
    ranked = as_scored(compose(lanes, confidence, weights, {"log"}))
    assert ranked == compose_reference(lanes, confidence, weights, {"log"})
    assert [s.id for s in ranked] == ["doc", "log"]  # a tie, broken by the prior
    log = ranked[1]
    assert log.score == pytest.approx(0.75 * ranked[0].score)
    assert log.lanes["history"] < 0
    assert sum(log.lanes.values()) == pytest.approx(log.score)
    unchanged = as_scored(compose(lanes, confidence, Weights(history=1.0), {"log"}))
    assert [s.score for s in unchanged] == [ranked[0].score] * 2
    assert "history" not in unchanged[1].lanes


def test_the_page_that_explains_outranks_the_changelog_entry_with_its_words(
    tmp_path: Path,
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "retries.md").write_text(
        "# Retries\n\nSet `max_retries` to retry a failed request; each retry waits "
        "longer than the one before it.\n"
    )
    (tmp_path / "CHANGES.md").write_text(
        "# Version 2.0\n\n- Add `max_retries` to retry a failed request.\n"
        "- Fix a crash in the retry loop when a request failed twice.\n"
    )
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    memory.ingest(tmp_path / "docs" / "retries.md", tmp_path / "CHANGES.md")
    result = memory.retrieve("retry a failed request with max_retries")
    assert [b.trail.split(" ")[0] for b in result.beliefs] == ["docs/retries.md", "CHANGES.md"]
    assert "history" in result.beliefs[1].lanes
    memory.close()


@pytest.mark.parametrize(
    ("trail", "test"),
    [
        ("h11/tests/test_state.py › test_ConnectionState_reuse L201-L263", True),
        ("tests/test_ttl.py L1-L20", True),
        ("testing/benchmark.py › bench L3-L9", True),
        ("src/app/__tests__/Button.jsx L1-L9", True),
        ("lib/parse_test.py › test_parse L1-L9", True),
        ("conftest.py › fixture L1-L9", True),
        ("src/core/retry.spec.ts L1-L40", True),
        ("lib/axios.test.js L1-L9", True),
        ("errors_test.go › TestHandleExitCoder L29-L46", True),
        ("cmd/flag_test.go L1-L9", True),
        (r"C:\project\tests\test_x.py L1-L2", True),
        # A Rust file's unit tests: its module ``tests`` (``#[cfg(test)] mod tests``).
        ("src/fmt.rs › tests › one_digit L105-L120", True),
        ("src/fmt.rs › tests L101-L155", True),
        ("src/backtrace.rs › capture › tests › frames L1-L9", True),
        # ... or in a file of its own (``#[cfg(test)] mod tests;``), and a Django app's tests.
        ("src/fmt/tests.rs › one_digit L5-L20", True),
        ("src/tests.rs L1-L9", True),
        ("polls/tests.py › QuestionModelTests › test_was_published_recently L9-L20", True),
        ("polls/tests/test_views.py › test_index L1-L9", True),
        # Code about testing, or named near it, that is not a project's tests: not one.
        ("src/pytest_plugin/runner.py › run L1-L9", False),
        ("src/contest.py › Contest L1-L9", False),
        ("src/latest/tests_helpers_doc.md L1-L9", False),
        ("src/attestation.py L1-L9", False),
        ("errors.go › HandleExitCoder L74-L100", False),
        ("latest.go L1-L9", False),
        ("docs/testing.md › Testing L1-L9", False),
        ("src/fmt.rs › Indented › write_str L73-L99", False),
        ("src/chain.rs › Chain › tests_helper L1-L9", False),
        ("docs/guide.md › tests L1-L9", False),
        ("src/lib.rs L1-L9", False),
        ("src/latests.rs L1-L9", False),
        ("polls/contests.py L1-L9", False),
        ("src/test.rs L1-L9", False),
        ("", False),
    ],
)
def test_test_code_is_told_by_its_file_or_folder_name(trail: str, test: bool) -> None:
    assert is_test(trail) is test


@pytest.mark.parametrize(
    ("words", "asks"),
    [
        (["which", "test", "covers", "retry"], True),
        (["Tests", "for", "parsing"], True),
        (["the", "pytest", "fixture"], True),
        (["how", "is", "retry", "delayed"], False),
        (["latest", "contest"], False),
    ],
)
def test_a_question_that_names_tests_keeps_their_weight(words: list[str], asks: bool) -> None:
    assert asks_for_tests(words) is asks


def test_a_test_candidate_gives_up_a_share_listed_as_its_own_part() -> None:
    lanes = {"bm25f": {"code": 10.0, "test": 10.0}, "defn": {"code": 1.0, "test": 1.0}}
    confidence = {"code": 0.5, "test": 0.5}
    weights = Weights(tests=0.5)
    ranked = as_scored(compose(lanes, confidence, weights, (), {"test"}))
    assert ranked == compose_reference(lanes, confidence, weights, (), {"test"})
    assert [s.id for s in ranked] == ["code", "test"]
    assert ranked[1].score == pytest.approx(0.5 * ranked[0].score)
    assert ranked[1].lanes["tests"] < 0
    assert sum(ranked[1].lanes.values()) == pytest.approx(ranked[1].score)


def test_the_code_outranks_the_test_that_exercises_it_unless_tests_are_asked_for(
    tmp_path: Path,
) -> None:
    _backoff_project(
        tmp_path,
        "    # each failed attempt waits twice as long as the one before: the wait doubles\n"
        "    # after every failed attempt, so a failed attempt waits long\n",
    )
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path / "src" / "backoff.py", tmp_path / "tests" / "test_backoff.py")
        code = memory.retrieve("how long does a failed attempt wait", with_doc_anchors=True)
        asked = memory.retrieve("which test checks how long a failed attempt waits")
    assert "def delay" in code.beliefs[0].content
    assert "tests" in next(b.lanes for b in code.beliefs if "test_delay" in b.content)
    assert "tests" not in next(b.lanes for b in asked.beliefs if "test_delay" in b.content)


def test_a_question_naming_a_test_file_keeps_its_weight(tmp_path: Path) -> None:
    """A question that opens with "test_backoff.py:" asks for that test code."""
    _backoff_project(tmp_path, "    # a failed attempt waits twice as long as the one before\n")
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path / "src" / "backoff.py", tmp_path / "tests" / "test_backoff.py")
        named = memory.retrieve("test_backoff.py: how long does a failed attempt wait?")
        unnamed = memory.retrieve("how long does a failed attempt wait?")
    assert "tests" not in next(b.lanes for b in named.beliefs if "test_delay" in b.content)
    assert "tests" in next(b.lanes for b in unnamed.beliefs if "test_delay" in b.content)


@pytest.mark.parametrize(
    ("words", "named", "weighed"),
    [
        (["how", "is", "an", "error", "handled"], [], {"t"}),
        (["which", "test", "covers", "errors"], [], set()),
        (["what", "is", "expected"], ["t"], set()),  # errors_test.go named
        (["what", "is", "expected"], ["c"], {"t"}),  # errors.go named
        (["what", "is", "expected"], ["gone"], {"t"}),  # a named belief not a candidate
    ],
)
def test_test_code_weighs_less_unless_the_question_names_tests_or_a_test_file(
    words: list[str], named: list[str], weighed: set[str]
) -> None:
    trails = {"c": "errors.go › HandleExitCoder L74-L100", "t": "errors_test.go › TestExit L1-L9"}
    assert weighed_tests(words, trails, named) == weighed


def _backoff_project(root: Path, test_comment: str) -> None:
    """src/backoff.py and the test that exercises it, its comment ``test_comment``."""
    (root / "src").mkdir()
    (root / "tests").mkdir()
    (root / "src" / "backoff.py").write_text(
        "def delay(attempt: int) -> float:\n"
        '    """Wait twice as long after each failed attempt."""\n'
        "    return 2.0**attempt\n"
    )
    (root / "tests" / "test_backoff.py").write_text(
        "from backoff import delay\n\n\n"
        "def test_delay_doubles() -> None:\n"
        + test_comment
        + "    assert delay(3) == 2 * delay(2)\n"
    )


class _Unasked(list[str]):
    def __iter__(self):  # type: ignore[override]
        raise AssertionError("the terms were read")


def test_without_trails_no_test_code_is_weighed_and_the_terms_are_not_read() -> None:
    """No candidate has a trail (a store of notes): none is test code, so the question's
    words are not looked at (before: each was lower-cased, ~13k instructions a query)."""
    assert weighed_tests(_Unasked(["test"]), {}, ["a"]) == set()
    assert weighed_tests(["tests"], {"a": "tests/test_x.py:1-9"}, []) == set()
    assert weighed_tests(["parser"], {"a": "tests/test_x.py:1-9"}, []) == {"a"}


def test_an_inner_passage_is_one_inside_a_definition_and_the_head_of_none() -> None:
    head = ("a.py", 1, 30, " wait:2 ", 12, True)
    inside = ("a.py", 1, 30, " wait:2 ", 12, False)
    elsewhere = ("b.py", 5, 9, " wait:1 ", 4, True)
    rows = {"h": [head], "i": [inside], "shared": [inside, elsewhere], "none": []}
    assert inner_passages(rows) == {"i"}
    assert inner_passages({}) == set()


def test_an_inner_candidate_gives_up_a_share_listed_as_its_own_part() -> None:
    lanes = {"bm25f": {"fn": 10.0, "para": 10.0}, "heat": {"fn": 1.0, "para": 1.0}}
    confidence = {"fn": 0.5, "para": 0.5}
    weights = Weights(inner=0.9)
    ranked = as_scored(compose(lanes, confidence, weights, (), (), {"para"}))
    assert ranked == compose_reference(lanes, confidence, weights, (), (), {"para"})
    assert [s.id for s in ranked] == ["fn", "para"]
    assert ranked[1].score == pytest.approx(0.9 * ranked[0].score)
    assert ranked[1].lanes["inner"] < 0
    assert sum(ranked[1].lanes.values()) == pytest.approx(ranked[1].score)
    # test code gives up its own share, not both
    both = as_scored(compose(lanes, confidence, weights, (), {"para"}, {"para"}))
    assert both[1].score == pytest.approx(0.5 * both[0].score)
    assert "inner" not in both[1].lanes
    unchanged = as_scored(compose(lanes, confidence, Weights(inner=1.0), (), (), {"para"}))
    assert [s.score for s in unchanged] == [ranked[0].score] * 2


def test_the_function_outranks_a_paragraph_inside_another_definition(tmp_path: Path) -> None:
    """A class docstring's paragraph on ``backoff_factor`` matched the question's words more
    densely than the method that computes the wait (urllib3's ``Retry`` and
    ``get_backoff_time``, day-code66): the method, the definition asked about, leads."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "retry.py").write_text(_RETRY)
    for name in ("pool", "headers", "cookies", "proxy", "url"):
        (tmp_path / "src" / f"{name}.py").write_text(_FILLER.format(name=name))
    question = (
        "How long is the current wait between failed attempts, and how is that delay grown "
        "and capped?"
    )
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(*sorted((tmp_path / "src").glob("*.py")))
        result = memory.retrieve(question)
    first, second = result.beliefs[:2]
    assert first.content.startswith("def get_backoff_time")
    assert ":param float backoff_factor:" in second.content
    assert second.lanes["inner"] < 0


_RETRY = '''class Retry:
    """Retry configuration: how many times a request is tried again, and when.

    Each retry attempt is counted against the total, and a request that runs out of
    retries raises the last error it met. Connection errors, read errors and bad
    status codes are each counted in a budget of their own, so that one kind of
    failure cannot use up the retries another kind needs.

    :param int total: Total number of retries to allow. Takes precedence over the
        other counts. Set it to None to remove this constraint and fall back on the
        other counts, or to zero to fail on the first retry.

    :param float backoff_factor: A backoff factor to apply between failed attempts
        after the second try. The wait grows with each failed attempt: the factor
        times two to the power of the failed attempts, randomized and capped.
    """

    def __init__(self, total: int = 10, backoff_factor: float = 0.0) -> None:
        self.total = total
        self.backoff_factor = backoff_factor

    def get_backoff_time(self) -> float:
        """The current backoff: how long to wait after attempts."""
        consecutive = self.total
        backoff = self.backoff_factor * (2 ** (consecutive - 1))
        backoff += random.random() * self.jitter
        return min(self.backoff_max, backoff)
'''

_FILLER = '''def open_{name}(name: str) -> str:
    """Open the {name} named by name and keep it for the next request."""
    return name


def close_{name}(name: str) -> None:
    """Close the {name} and drop what it holds."""
    return None


def read_{name}(name: str) -> bytes:
    """Read the {name}'s content as bytes, decoded from its encoding."""
    return b""
'''


def test_the_weighed_sets_are_each_trail_s_answer() -> None:
    """``weighed_sets`` (day-warm66: its answers kept per trail, C-level) holds the ids whose
    trail ``is_history``/``is_test`` tells, asked again and with the caches cleared."""
    trails = {
        "c": "CHANGES.md › Version 8.2.0 L486-L504",
        "t": "tests/test_api.py › test_get L1-L9",
        "d": "docs/guide.md › Changes in behaviour L1-L9",
        "r": "src/fmt.rs › tests › one_digit L40-L50",
        "s": "src/history.py › History › undo L10-L30",
    }
    want = ({"c"}, {"t", "r"}, set())
    for _ in range(2):
        assert weighed_sets(["guide"], trails, [], {}) == want
        is_history.cache_clear()
        is_test.cache_clear()
    assert weighed_sets(["tests"], trails, [], {}) == ({"c"}, set(), set())
