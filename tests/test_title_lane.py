"""The title lane (retrieval/lanes/title.py) and ``Store.titled``: a documentation section
titled by the question's words is a candidate and ranks, even when the keyword index cannot
tell it (every word of the question in half the store: a project's tests/ folder)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.lanes.title import TIED, is_document, is_flat, title_share
from credo.store.stem import stem

BOTH_BACKENDS = True  # the integration tests run on SQLite and PostgreSQL (conftest.py)

TESTING_PAGE = """\
# Testing

The package comes with helpers to check what your application emits. Use the capture
helper in your suite and assert on the entries it collected.

## Fixtures

A fixture can configure the package once for every case in the suite.
"""

OTHER_PAGE = """\
# Configuration

Configure the package once, at startup, before anything emits an event.
"""

MODULE = '''\
"""The package's core."""


def emit(event):
    """Send one event to the configured sink."""
    return event
'''


def _tests_module(part: int, count: int) -> str:
    """A tests/ module of ``count`` short test functions: "test" in each one's path and name."""
    return "\n\n".join(
        f'def test_case_{part}_{i}():\n    """Case {i} holds."""\n    assert emit({i}) == {part}\n'
        for i in range(count)
    )


def _project(root: Path) -> None:
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "testing.md").write_text(TESTING_PAGE)
    (root / "docs" / "configuration.md").write_text(OTHER_PAGE)
    (root / "src").mkdir()
    (root / "src" / "core.py").write_text(MODULE)
    (root / "tests").mkdir()
    for n in range(4):
        (root / "tests" / f"test_part{n}.py").write_text(_tests_module(n, 20))


def test_a_page_titled_by_a_word_every_test_holds_is_found_and_ranks(
    memory: Memory, tmp_path: Path
) -> None:
    # Before the lane: "testing" matched ~80 test functions and the page, and the keyword
    # index (idf near zero) ranked the shortest test functions first; the page was cut.
    _project(tmp_path)
    memory.ingest(tmp_path)
    trails = [
        b.trail
        for b in memory.retrieve("testing", token_budget=5000, lanes={"title": True}).beliefs
    ]
    assert trails, "no hits"
    assert "docs/testing.md" in trails[0], trails[:5]


def test_the_title_lane_is_on_by_default(memory: Memory, tmp_path: Path) -> None:
    # On since stop 57 (bench/topics.py's blind questions); main had it off: tests first.
    _project(tmp_path)
    memory.ingest(tmp_path)
    found = memory.retrieve("testing", token_budget=5000).beliefs
    assert found and "docs/testing.md" in found[0].trail, [b.trail for b in found[:5]]
    assert "title" in found[0].lanes
    off = memory.retrieve("testing", token_budget=5000, lanes={"title": False}).beliefs
    assert all("title" not in b.lanes for b in off)


def test_a_title_lane_part_is_listed_and_the_parts_add_up(memory: Memory, tmp_path: Path) -> None:
    _project(tmp_path)
    memory.ingest(tmp_path)
    found = memory.retrieve("testing", token_budget=5000, lanes={"title": True}).beliefs
    page = [b for b in found if "docs/testing.md" in b.trail]
    assert page and all("title" in b.lanes for b in page)
    for b in found:
        assert abs(sum(b.lanes.values()) - b.score) < 1e-6


def test_titled_reads_documentation_passages_by_their_titles_only(
    memory: Memory, tmp_path: Path
) -> None:
    _project(tmp_path)
    memory.ingest(tmp_path)
    store = memory.store
    found = store.titled(["test"], limit=100)
    assert found and all("docs/testing.md" in t for t in found.values())
    assert store.titled(["configur"], limit=100)
    assert store.titled(["%"], limit=100) == {}  # a LIKE wildcard is a plain character
    assert store.titled(["_"], limit=100) == {}
    assert store.titled([], limit=100) == {}
    assert len(store.titled(["test", "fixtur"], limit=1)) == 1


def test_title_share_examples() -> None:
    asked = frozenset({stem("testing")})
    assert title_share("docs/testing.md › Testing L1-L33", asked) == 1.0
    assert title_share("docs/t.rst › Testing Click Applications L1-L12", asked) == 1 / 3
    # the best title of the trail: the page's counts for its sections
    assert title_share("docs/t.rst › Testing › Fixtures and more L4-L9", asked) == 1.0
    assert title_share("docs/why.md › Why › Highly testable L1-L4", asked) == 0.0
    assert title_share("docs/testing.md L1-L4", asked) == 0.0  # no title: the path is not one
    assert title_share("docs/a.md › The Tests L1-L4", asked) == 1.0  # "the": a stopword


def test_is_flat_reads_the_store_s_hits_as_ranked() -> None:
    """``keyword_beliefs``' hits, id -> score best first: flat when ``limit`` of them came
    and the last is within ``TIED`` of the first."""
    flat = {"a": 1.0, "b": 0.99, "c": TIED}
    assert is_flat(flat, 3)
    assert not is_flat(flat, 4)  # the cut left nothing out
    assert not is_flat({"a": 1.0, "b": 0.95, "c": TIED / 2}, 3)
    assert not is_flat({}, 0) and not is_flat({"a": 0.0, "b": 0.0}, 2)


def test_is_document_by_the_file_name() -> None:
    assert is_document("docs/testing.md › Testing L1-L3")
    assert is_document("README.rst › Intro L1-L3")
    assert not is_document("src/testing.py › Testing › run L1-L3")
    assert not is_document("Makefile › all L1-L3")


_words = st.lists(
    st.sampled_from(["testing", "fixtures", "click", "the", "guide", "a"]), max_size=4
)


@settings(max_examples=200, deadline=None)
@given(titles=st.lists(_words, min_size=1, max_size=3), asked=_words, more=_words)
def test_title_share_is_a_share_and_more_words_asked_never_lower_it(titles, asked, more) -> None:
    trail = "docs/x.md › " + " › ".join(" ".join(t) for t in titles) + " L1-L2"
    ask = frozenset(stem(w) for w in asked)
    share = title_share(trail, ask)
    assert 0.0 <= share <= 1.0
    assert title_share(trail, ask | {stem(w) for w in more}) >= share
