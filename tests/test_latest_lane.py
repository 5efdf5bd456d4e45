"""The latest lane (retrieval/lanes/latest.py): a question asking for the newest release
leads with the changelog's greatest version's passages, by version order, not position."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.lanes.latest import asks_latest, latest_first, newest, release_of
from credo.retrieval.rank import Scored, as_scored

BOTH_BACKENDS = True  # the integration test runs on SQLite and PostgreSQL (conftest.py)


def _changelog(versions: list[str]) -> str:
    """A changelog listing ``versions`` in the order given, each with its own entries."""
    parts = ["# Changelog", "", "All notable changes to this project.", ""]
    for n, version in enumerate(versions):
        parts += [
            f"## {version}",
            "",
            f"- Changed the release process for the exporter number {n}.",
            f"- Fixed the parser when a release note {n} was empty.",
            "",
        ]
    return "\n".join(parts)


GUIDE = """\
# Guide

Every release changed something: read the changelog before upgrading to a new version.
"""


def test_a_question_for_the_latest_release_leads_with_the_greatest_version(
    memory: Memory, tmp_path: Path
) -> None:
    # Oldest first, and 10.0.0 after 9.2.0: position and string order both pick wrong.
    versions = ["1.0.0", "2.0.0", "9.2.0", "10.0.0", "Unreleased"]
    (tmp_path / "CHANGES.md").write_text(_changelog(versions))
    (tmp_path / "guide.md").write_text(GUIDE)
    memory.ingest(tmp_path)
    for question in ("what changed in the latest release", "what's new in the newest version"):
        found = memory.retrieve(question, token_budget=5000, lanes={"latest": True}).beliefs
        assert found and "› 10.0.0" in found[0].trail, [b.trail for b in found[:4]]
        assert "latest" in found[0].lanes
        for b in found:
            assert abs(sum(b.lanes.values()) - b.score) < 1e-6
    # a question that names no latest release is ranked as before: no part "latest"
    found = memory.retrieve(
        "what changed in the release process", token_budget=5000, lanes={"latest": True}
    ).beliefs
    assert all("latest" not in b.lanes for b in found)


def test_the_latest_lane_is_on_by_default(memory: Memory, tmp_path: Path) -> None:
    # On since stop 57 (bench/topics.py's blind questions); main had it off.
    (tmp_path / "CHANGES.md").write_text(_changelog(["1.0.0", "9.2.0", "10.0.0"]))
    (tmp_path / "guide.md").write_text(GUIDE)
    memory.ingest(tmp_path)
    found = memory.retrieve("what changed in the latest release", token_budget=5000).beliefs
    assert found and "› 10.0.0" in found[0].trail, [b.trail for b in found[:4]]
    assert "latest" in found[0].lanes
    off = memory.retrieve(
        "what changed in the latest release", token_budget=5000, lanes={"latest": False}
    ).beliefs
    assert all("latest" not in b.lanes for b in off)


def test_asks_latest() -> None:
    for text in (
        "what changed in the latest release",
        "What's new in the newest version?",
        "most recent changes",
        "summarise the last two releases",
        "the current stable version",
    ):
        assert asks_latest(text), text
    for text in (
        "what is the latest value of the counter",
        "how do I release a lock",
        "the release process",
        "which version added retries",
    ):
        assert not asks_latest(text), text


# The pattern as it was read before the cue-word check (case-insensitive, on the question).
_REFERENCE = re.compile(
    r"\b(?:latest|newest|most\s+recent|last|current)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:release|version|changes|changelog|update)s?\b",
    re.IGNORECASE,
)
_WORDS = st.sampled_from(
    [
        "what",
        "changed",
        "in",
        "the",
        "LATEST",
        "Newest",
        "most",
        "recent",
        "last",
        "current",
        "release",
        "Versions",
        "changes",
        "changelog",
        "update",
        "stable",
        "two",
        "lastly",
        "recently",
        "x-y",
        "?",
        "\n",
        "é",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, max_size=8), st.sampled_from([" ", "  ", "\t", "-"]))
def test_asks_latest_answers_as_the_case_insensitive_pattern(words: list[str], sep: str) -> None:
    # the cue-word check only skips questions the pattern could not match
    text = sep.join(words)
    assert asks_latest(text) == (_REFERENCE.search(text) is not None), text


def test_release_of() -> None:
    assert release_of("CHANGELOG.md › Changelog › 26.1.0 - 2026-06-06 › Changed L5-L9") == (
        26,
        1,
        0,
    )
    assert release_of("CHANGES.rst › Version 8.1.8 L3-L23") == (8, 1, 8)
    assert release_of("CHANGES.md › v2.10 L1-L2") == (2, 10)
    assert release_of("CHANGES.md › Unreleased L1-L2") is None
    assert release_of("CHANGES.md › Changelog L1-L2") is None
    assert release_of("CHANGES.md L1-L2") is None  # a trail without titles
    assert release_of("docs/3.12.md › Intro L1-L2") is None  # the path is no title


_version = st.lists(st.integers(0, 30), min_size=2, max_size=3).map(tuple)


@settings(max_examples=200, deadline=None)
@given(versions=st.lists(_version, min_size=1, max_size=8), order=st.randoms())
def test_newest_is_the_greatest_version_in_any_order(versions, order) -> None:
    trails = {
        f"b{n}": f"CHANGES.md › Changes › {'.'.join(map(str, v))} › Fixed L{n}-L{n}"
        for n, v in enumerate(versions)
    }
    items = list(trails.items())
    order.shuffle(items)
    top = max(versions)
    assert newest(dict(items)) == {f"b{n}" for n, v in enumerate(versions) if v == top}


_scored = st.lists(st.floats(0.01, 3.0, allow_nan=False), min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(scores=_scored, chosen=st.sets(st.integers(0, 7)))
def test_latest_first_leads_keeps_orders_and_the_parts_add_up(scores, chosen) -> None:
    ranked = sorted(
        (Scored(f"b{n}", round(s, 9), {"bm25f": round(s, 9)}) for n, s in enumerate(scores)),
        key=lambda s: (-s.score, s.id),
    )
    mine = {f"b{n}": 1.0 for n in chosen if n < len(scores)}
    out = as_scored(latest_first(ranked, mine))
    assert sorted(s.id for s in out) == sorted(s.id for s in ranked)
    lead = [s.id for s in out[: len(mine)]]
    assert set(lead) == set(mine)
    assert [i for i in lead] == [s.id for s in ranked if s.id in mine]
    assert [s.id for s in out[len(mine) :]] == [s.id for s in ranked if s.id not in mine]
    for s in out:
        assert abs(sum(s.lanes.values()) - s.score) < 1e-6
