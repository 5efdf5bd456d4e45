"""One file crowding the first ten yields its last place there to a new file
(retrieval/crowd.py), on both backends through ``Memory.retrieve``, and as a pure function."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.crowd import CROWD, LOW, NEAR, REACH, crowd_yields
from credo.retrieval.rank import Scored, as_scored
from credo.retrieval.specific import TOP

BOTH_BACKENDS = True

WORDS = (
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november "
    "oscar papa quebec romeo sierra tango"
).split()
QUESTION = "How does the widget cache expire frames, and how are widget cache entries refreshed?"


def _guide() -> str:
    """Twelve sections of one page, each on the widget cache in words of its own."""
    parts = ["# Widget guide\n"]
    for i in range(12):
        own = " ".join(WORDS[(i * 3 + j) % 20] for j in range(6))
        says = "Frames expire after a timeout. " if i % 2 else "Entries are refreshed on read. "
        parts.append(
            f"## Widget {WORDS[i]} settings\n\nThe widget cache {own} keeps "
            f"{WORDS[(i + 5) % 20]} frames. {says}See {WORDS[(i + 7) % 20]} "
            f"{WORDS[(i + 9) % 20]}.\n"
        )
    return "\n".join(parts)


def test_a_page_crowding_the_first_ten_yields_a_place_to_another_page(
    memory: Memory, tmp_path: Path
) -> None:
    (tmp_path / "guide.md").write_text(_guide(), encoding="utf-8")
    (tmp_path / "notes.md").write_text(
        "# Notes\n\n## Sweeper\n\nFrames expire when stale.\n", encoding="utf-8"
    )
    for k in range(3):
        (tmp_path / f"misc{k}.md").write_text(
            f"# Misc {k}\n\n## Other\n\nUnrelated text about parsing tokens {k} and "
            f"{WORDS[k]} names.\n",
            encoding="utf-8",
        )
    for name in ("guide.md", "misc0.md", "misc1.md", "misc2.md", "notes.md"):
        memory.ingest(tmp_path / name)
    result = memory.retrieve(QUESTION, token_budget=100_000)
    files = [b.trail.split(" › ")[0] for b in result.beliefs]
    # Before: guide.md held all of the first ten and notes.md came 13th.
    assert files.index("notes.md") < TOP
    assert files[:TOP].count("guide.md") == TOP - 1
    note = result.beliefs[files.index("notes.md")]
    assert note.lanes["crowd"] > 0
    assert sum(note.lanes.values()) == pytest.approx(note.score, abs=1e-6)
    assert note.score == result.beliefs[files.index("notes.md") + 1].score  # (a tie, before)
    assert all("crowd" not in b.lanes for b in result.beliefs if b is not note)
    assert memory.retrieve(QUESTION, token_budget=100_000) == result  # deterministic


def _ranked(scores: list[float]) -> list[Scored]:
    return [Scored(f"b{i:02}", s, {"bm25f": s}) for i, s in enumerate(scores)]


def test_the_crowded_files_last_place_goes_to_the_new_files_best() -> None:
    scores = [1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.69, 0.68, 0.67, 0.66, 0.65, 0.5]
    ranked = _ranked(scores)
    files = ["a", "b", "a", "a", "c", "a", "a", "b", "c", "d", "a", "e", "f"]
    trails = {
        s.id: f"{f}.md › T{i} L{i}-L{i + 1}"
        for i, (s, f) in enumerate(zip(ranked, files, strict=True))
    }
    out = as_scored(crowd_yields(ranked, trails))
    # a holds 5 of the ten (its last 7th): e's passage (12th, 0.65 >= 0.85 x 0.7) takes 7th
    assert [s.id for s in out] == ["b00", "b01", "b02", "b03", "b04", "b05", "b11", "b06",
                                   "b07", "b08", "b09", "b10", "b12"]  # fmt: skip
    assert out[6].score == 0.7
    assert out[6].lanes == {"bm25f": 0.65, "crowd": pytest.approx(0.05)}
    # four passages of one file do not crowd
    assert crowd_yields(ranked, {**trails, "b06": "z.md › Z L1-L2"}) is ranked
    # the new file's best below NEAR of the yielding passage's score takes no place
    far = _ranked([*scores[:10], 0.6, 0.58, 0.5])
    assert NEAR * 0.7 > 0.58
    assert crowd_yields(far, trails) is far


def test_no_place_yields_when_the_crowded_file_ends_early_or_none_is_new() -> None:
    ranked = _ranked([1.0 - i / 100 for i in range(14)])
    early = ["a"] * 5 + ["b", "c", "d", "e", "f", "g", "h", "i", "j"]  # a's last is 5th
    trails = {
        s.id: f"{f}.md › T L{i}-L{i + 1}"
        for i, (s, f) in enumerate(zip(ranked, early, strict=True))
    }
    assert crowd_yields(ranked, trails) is ranked
    shown = ["a"] * 6 + ["b", "c", "d", "e"] + ["a", "b", "c", "d"]  # nothing new in 11-14
    trails = {
        s.id: f"{f}.md › T L{i}-L{i + 1}"
        for i, (s, f) in enumerate(zip(ranked, shown, strict=True))
    }
    assert crowd_yields(ranked, trails) is ranked
    assert crowd_yields(ranked, {}) is ranked  # notes have no file
    new = {**trails, "b10": "z.md › Z L1-L2"}
    assert crowd_yields(ranked[:TOP], new) == ranked[:TOP]  # nothing below the ten


@given(
    st.lists(st.tuples(st.sampled_from("aabbcde"), st.floats(0.01, 3.0)), max_size=24),
    st.lists(st.booleans(), max_size=24),
)
def test_at_most_one_passage_moves_up_into_the_crowded_files_last_place(
    rows: list[tuple[str, float]], notes: list[bool]
) -> None:
    ranked = [
        Scored(f"b{i:02}", round(s, 9), {"bm25f": round(s, 9)}) for i, (_, s) in enumerate(rows)
    ]
    order = sorted(range(len(rows)), key=lambda i: (-ranked[i].score, ranked[i].id))
    ranked = [ranked[i] for i in order]
    file = {f"b{i:02}": f for i, (f, _) in enumerate(rows)}
    trails = {
        s.id: f"{file[s.id]}.md › T L{n}-L{n + 1}"
        for n, s in enumerate(ranked)
        if not (n < len(notes) and notes[n])
    }
    out = as_scored(crowd_yields(ranked, trails))
    assert out == crowd_yields(ranked, trails)  # deterministic
    assert sorted(s.id for s in out) == sorted(s.id for s in ranked)
    assert [s.score for s in out] == sorted((s.score for s in out), reverse=True)
    moved = [s for s in out if "crowd" in s.lanes]
    if not moved:
        assert out == ranked
        return
    (up,) = moved
    was, now = [s.id for s in ranked].index(up.id), [s.id for s in out].index(up.id)
    assert TOP <= was < REACH and LOW <= now < TOP
    assert sum(up.lanes.values()) == pytest.approx(up.score)
    yielded = ranked[now]
    assert up.score == yielded.score and ranked[was].score >= NEAR * yielded.score
    shown = [trails[s.id].split(" › ")[0] for s in ranked[:TOP] if s.id in trails]
    assert shown.count(trails[yielded.id].split(" › ")[0]) >= CROWD
    assert trails[up.id].split(" › ")[0] not in shown
    # the others keep their order
    assert [s.id for s in out if s is not up] == [s.id for s in ranked if s.id != up.id]
