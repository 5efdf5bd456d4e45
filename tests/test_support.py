"""A near tie between two files' passages goes to the file the first ranks hold more of
(retrieval/support.py): the rule over given rankings, its invariants, and a small project
through ``Memory``."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.config import Settings
from credo.retrieval.rank import Scored, as_scored
from credo.retrieval.specific import TOP, sections
from credo.retrieval.support import SHARE, by_file_support


def _ranked(*rows: tuple[str, float]) -> list[Scored]:
    ranked = [Scored(i, s, {"bm25f": s}) for i, s in rows]
    ranked.sort(key=lambda s: (-s.score, s.id))
    return ranked


def _trails(**files: str) -> dict[str, str]:
    return {i: f"{path} › S L1-L2" for i, path in files.items()}


def test_a_tie_goes_to_the_file_held_more_often() -> None:
    ranked = _ranked(("a1", 1.8), ("b1", 1.8), ("b2", 0.9), ("b3", 0.9))
    out = as_scored(by_file_support(ranked, _trails(a1="a.md", b1="b.md", b2="b.md", b3="b.md")))
    assert [s.id for s in out] == ["b1", "a1", "b2", "b3"]
    assert out[0].lanes["support"] == round(1.8 * SHARE * 2, 9)
    assert out[0].score == round(sum(out[0].lanes.values()), 9)  # the parts add up


def test_a_clear_lead_stays() -> None:
    # 1.8 against 1.7: ~6% apart, far past what two other passages give (0.1%)
    ranked = _ranked(("a1", 1.8), ("b1", 1.7), ("b2", 0.9), ("b3", 0.9))
    out = as_scored(by_file_support(ranked, _trails(a1="a.md", b1="b.md", b2="b.md", b3="b.md")))
    assert [s.id for s in out] == ["a1", "b1", "b2", "b3"]


def test_nothing_to_weigh_gives_the_same_list() -> None:
    ranked = _ranked(("a1", 1.8), ("b1", 1.8), ("n1", 1.0))
    assert by_file_support(ranked, _trails(a1="a.md", b1="b.md")) is ranked  # each once
    assert by_file_support(ranked, {}) is ranked  # notes: no trail


def test_passages_past_the_top_neither_count_nor_move() -> None:
    head = [(f"a{n:02d}", 2.0 - n / 100) for n in range(TOP)]
    ranked = _ranked(*head, ("b1", 0.5), ("b2", 0.5))
    trails = _trails(**{i: f"f{n}.md" for n, (i, _) in enumerate(head)}, b1="b.md", b2="b.md")
    assert by_file_support(ranked, trails) is ranked


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([1.0, 1.0005, 1.001, 1.2, 0.8]), st.sampled_from("abcd")),
        min_size=1,
        max_size=14,
    )
)
def test_invariants(rows: list[tuple[float, str]]) -> None:
    ranked = _ranked(*((f"id{n:02d}", score) for n, (score, _) in enumerate(rows)))
    files = {f"id{n:02d}": f for n, (_, f) in enumerate(rows)}
    trails = _trails(**{i: f"{f}.md" for i, f in files.items()})
    out = as_scored(by_file_support(ranked, trails))
    assert sorted(s.id for s in out) == sorted(s.id for s in ranked)
    scores = [s.score for s in out]
    assert scores == sorted(scores, reverse=True)
    before = {s.id: s for s in ranked}
    for s in out:  # only up, by at most (TOP - 1) shares; a part says how much
        gain = s.score - before[s.id].score
        assert 0 <= gain <= before[s.id].score * SHARE * (TOP - 1) + 1e-9
        assert (gain > 0) == ("support" in s.lanes)
    for f in set(files.values()):  # a file's passages keep their order
        mine = [s.id for s in out if files[s.id] == f]
        assert mine == [s.id for s in ranked if files[s.id] == f]
    assert out[TOP:] == ranked[TOP:]
    assert by_file_support(ranked, trails) == out  # deterministic


ALPHA = "# Alpha\n\n## Setup\n\nThe gizmo reads its frobnication level from the lever.\n"
BETA = """# Beta

## Setup

The gizmo reads its frobnication level from the knob.

## Tuning

Turn the gizmo knob to raise the frobnication level.

## Limits

A gizmo frobnication level past nine trips the breaker.
"""


def test_a_tie_through_memory(tmp_path: Path) -> None:
    # The two Setup passages score alike; by id alone alpha's came first. Beta's other
    # two passages among the first ranks settle it.
    root = tmp_path / "proj"
    root.mkdir()
    (root / "alpha.md").write_text(ALPHA)
    (root / "beta.md").write_text(BETA)
    memory = Memory(tmp_path / "store.db", root=root, settings=Settings())
    try:
        memory.ingest(root / "alpha.md", root / "beta.md")
        query = "what frobnication level does the gizmo read"
        result = memory.retrieve(query, token_budget=10_000)
        first, second = result.beliefs[:2]
        assert sections(first.trail)[0].endswith("beta.md"), [b.trail for b in result.beliefs]
        assert sections(second.trail)[0].endswith("alpha.md")
        assert first.lanes["support"] > 0
        # the tie it broke (both passages then hold "frobnication level" side by side,
        # and gain alike from adjacent.py)
        before = [b.score - b.lanes.get("adjacent", 0.0) for b in (first, second)]
        assert before[0] - first.lanes["support"] == pytest.approx(before[1], abs=1e-8)
        again = memory.retrieve(query, token_budget=10_000)
        assert again.beliefs == result.beliefs
    finally:
        memory.close()


def test_a_tie_inside_one_file_stays_a_tie() -> None:
    # ``[*.pyi]`` and ``[*.py]`` of one .editorconfig tie: both gain alike, so the tie is
    # still there for head.by_line_in_ties to put in the file's order (project_files cove-f03)
    ranked = _ranked(("e-pyi", 1.5), ("e-py", 1.5), ("e-rst", 1.2), ("x1", 1.4))
    out = as_scored(
        by_file_support(ranked, _trails(**{"e-pyi": "e", "e-py": "e", "e-rst": "e", "x1": "x"}))
    )
    assert [s.id for s in out] == ["e-py", "e-pyi", "x1", "e-rst"]
    assert out[0].score == out[1].score > 1.5
    assert "support" not in out[3].lanes


_TITLE = st.text(alphabet="ab L-›1 ", max_size=12)


@given(st.lists(_TITLE, min_size=1, max_size=4), st.sampled_from(["", " L4-L9", " L1"]))
def test_a_file_is_the_trail_s_path_as_sections_gives_it(parts: list[str], lines: str) -> None:
    """``_file`` (day-warm66: a partition, not ``sections``' split of every title) names the
    file ``specific.sections`` does, for any trail ingest could write and more."""
    from credo.retrieval.support import _file
    from credo.types import TRAIL_SEPARATOR

    trail = TRAIL_SEPARATOR.join(parts) + lines
    assert _file(trail) == (sections(trail)[0] if trail else None)
