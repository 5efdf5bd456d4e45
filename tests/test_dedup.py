"""Near-duplicate audit: prefix-filter candidates vs an all-pairs oracle, apply/undo, CLI."""

from __future__ import annotations

import itertools
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.knowledge import dedup as audit
from credo.types import EdgeType
from tests.conftest import CliRun

WORDS = ["deploy", "cache", "index", "query", "server", "token", "graph", "edge", "lock"]


def oracle(sets: list[frozenset[str]], threshold: float) -> set[tuple[int, int]]:
    """All pairs, exact Jaccard: the reference the prefilter must match."""
    return {
        (i, j)
        for i, j in itertools.combinations(range(len(sets)), 2)
        if audit.jaccard(sets[i], sets[j]) >= threshold
    }


texts = st.lists(
    st.lists(st.sampled_from(WORDS), min_size=0, max_size=10).map(" ".join),
    min_size=0,
    max_size=25,
)


@settings(max_examples=200, deadline=None)
@given(texts, st.sampled_from([0.3, 0.5, 0.7, 0.9, 1.0]), st.integers(1, 3))
def test_prefix_filter_equals_all_pairs_oracle(
    corpus: list[str], threshold: float, size: int
) -> None:
    """Exact by construction: every pair at or above the threshold is found, no others."""
    sets = [audit.shingles(text, size) for text in corpus]
    result = audit.similar_pairs(sets, threshold)
    assert {(i, j) for i, j, _ in result.pairs} == oracle(sets, threshold)
    assert result.checked <= len(corpus) * (len(corpus) - 1) // 2


def test_shingles_and_jaccard() -> None:
    assert audit.shingles("A b") == frozenset({"a b"})
    assert audit.shingles("") == frozenset()
    assert audit.shingles("a b c d") == frozenset({"a b c", "b c d"})
    assert audit.jaccard(frozenset(), frozenset()) == 0.0
    assert audit.jaccard(frozenset("ab"), frozenset("bc")) == 1 / 3


def _seed(memory: Memory) -> dict[str, str]:
    ids = {
        "old": memory.remember("Deploys go through ops/deploy.sh on every release", id="old"),
        "new": memory.remember("deploys go through ops/deploy.sh on every release now", id="new"),
        "other": memory.remember("The cache is flushed nightly by a cron job", id="other"),
    }
    memory.store.conn.execute("UPDATE beliefs SET created_at = 1 WHERE id = 'old'")
    return ids


def test_scan_groups_and_picks_newest(memory: Memory) -> None:
    _seed(memory)
    report = audit.scan(memory)
    assert [c.member_ids for c in report.clusters] == [("new", "old")]
    assert report.clusters[0].keep_id == "new"


def test_apply_undo_round_trip(memory: Memory) -> None:
    _seed(memory)
    memory.relate("other", "old", "SUPERSEDES")  # a person's own edge: undo leaves it
    before = list(memory.store.iter_edges())
    applied = audit.apply(memory, audit.scan(memory))
    assert applied.written == (("new", "old"),)
    assert memory.store.get_edge("new", "old", EdgeType.SUPERSEDES) is not None
    again = audit.apply(memory, audit.scan(memory))
    assert again.written == () and again.skipped_existing == (("new", "old"),)
    assert audit.undo(memory) == (("new", "old"),)
    assert list(memory.store.iter_edges()) == before
    assert audit.undo(memory) == ()
    ops = [(e.op, e.source_path) for e in memory.store.log_entries("new")]
    assert ("relate", audit.DEDUP_SOURCE) in ops and ("unrelate", audit.DEDUP_SOURCE) in ops


def test_locked_members_are_not_superseded(memory: Memory) -> None:
    _seed(memory)
    memory.lock("old")
    applied = audit.apply(memory, audit.scan(memory))
    assert applied.written == () and applied.skipped_locked == ("old",)


def test_cli_dedup_through_entry_point(run: CliRun) -> None:
    run("remember", "Deploys go through ops/deploy.sh on every release", check=True)
    run("remember", "deploys go through ops/deploy.sh on every release now", check=True)
    run("remember", "The cache is flushed nightly", check=True)
    report = json.loads(run("dedup", "--json", check=True).stdout)["report"]
    assert report["beliefs"] == 3 and len(report["clusters"]) == 1
    assert "1 clusters" in run("dedup", check=True).stdout
    applied = json.loads(run("dedup", "--apply", "--json", check=True).stdout)["applied"]
    assert len(applied["written"]) == 1
    removed = json.loads(run("dedup", "--undo", "--json", check=True).stdout)["removed"]
    assert len(removed) == 1
    bad = run("dedup", "--threshold", "0")
    assert bad.returncode == 1 and bad.stderr.startswith("Error: threshold")
    both = run("dedup", "--apply", "--undo")
    assert both.returncode == 1 and "exclude each other" in both.stderr
