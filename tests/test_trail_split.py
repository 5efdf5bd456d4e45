"""credo.types.split_trail / split_lines: a trail's parts, and its line range only when it
ends in the form ingest writes (knowledge.ingest.context.trail)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.ingest.context import trail as written_trail
from credo.types import TRAIL_SEPARATOR, Trail, line_span, split_lines, split_trail


@pytest.mark.parametrize(
    ("trail", "parts"),
    [
        (
            "docs/a.md › OAuth2 › Scopes L40-L58",
            Trail("docs/a.md", ("OAuth2", "Scopes"), "L40-L58"),
        ),
        ("src/x.py L1-L4", Trail("src/x.py", (), "L1-L4")),
        ("docs/tuning.md › Use L2 cache", Trail("docs/tuning.md", ("Use L2 cache",), "")),
        ("notes.md › Part L", Trail("notes.md", ("Part L",), "")),
        ("notes.md › The L Word", Trail("notes.md", ("The L Word",), "")),
        ("notes.md › Step L12", Trail("notes.md", ("Step L12",), "")),
        ("notes.md › Step L12 of it", Trail("notes.md", ("Step L12 of it",), "")),
        ("notes.md › Step L12-L14 of it", Trail("notes.md", ("Step L12-L14 of it",), "")),
        ("notes.md › Step L12-L14 L3-L5", Trail("notes.md", ("Step L12-L14",), "L3-L5")),
        ("notes.md › Use L2 cache L3-L5", Trail("notes.md", ("Use L2 cache",), "L3-L5")),
        ("Design Log.md", Trail("Design Log.md", (), "")),
        ("notes.md › L1-L2x", Trail("notes.md", ("L1-L2x",), "")),
        ("notes.md › Pages L-L2", Trail("notes.md", ("Pages L-L2",), "")),
        ("notes.md › Pages L\u0662-L3", Trail("notes.md", ("Pages L\u0662-L3",), "")),
        ("notes.md ›  Run  L3-L4", Trail("notes.md", ("Run",), "L3-L4")),
        ("L3-L4", Trail("L3-L4", (), "")),
        ("", Trail("", (), "")),
    ],
)
def test_split_trail(trail: str, parts: Trail) -> None:
    assert split_trail(trail) == parts
    head, lines = split_lines(trail)
    assert lines == parts.lines
    assert head == (trail[: -len(lines) - 1] if lines else trail)


def test_line_span() -> None:
    assert line_span("L4-L9") == (4, 9)
    assert line_span("") is None


_TITLE = st.text(st.sampled_from("ab L1-2›"), max_size=12).map(str.strip).filter(bool)


@given(
    path=st.sampled_from(["docs/a.md", "Design Log.md", "src/x.py", "a b/L1.md"]),
    titles=st.lists(_TITLE.filter(lambda t: TRAIL_SEPARATOR.strip() not in t), max_size=3),
    start=st.integers(1, 10_000),
    size=st.integers(0, 50),
)
def test_what_ingest_writes_splits_back_exactly(
    path: str, titles: list[str], start: int, size: int
) -> None:
    """Whatever the titles hold (" L", "L12", "L1-L2"), a written trail gives back its path,
    its titles and its range; without the range, the titles whole."""
    written = written_trail(path, tuple(titles), start, start + size)
    assert split_trail(written) == Trail(path, tuple(titles), f"L{start}-L{start + size}")
    bare = TRAIL_SEPARATOR.join((path, *titles))
    if not split_lines(bare)[1]:  # (a last title "L1-L2" is a range: the one ambiguity)
        assert split_trail(bare) == Trail(path, tuple(titles), "")


def test_a_trail_s_path_is_before_its_titles_and_its_range() -> None:
    from credo.types import trail_path

    assert trail_path("docs/a.md › Use L2 cache L4-L9") == "docs/a.md"
    assert trail_path("src/pool.py L1-L20") == "src/pool.py"  # (module-level code)
    assert trail_path("notes/Design Log.md") == "notes/Design Log.md"  # (imported, no range)
