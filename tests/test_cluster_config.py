"""Clustering config precedence: env > argument > .credo.toml [retrieval] > default.

Checked through behaviour (the result's `clustering` flag, its cluster ids and what the
pack selects), not through the settings object, so the knobs are proven wired end to end.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from credo import Memory
from credo.types import RetrievalResult

QUERY = "alpha beta gamma"
BUDGET = 10_000


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty project folder as cwd, with no CREDO_* variables leaking in."""
    for name in (
        "CREDO_INTENTIONAL_CLUSTERING",
        "CREDO_CLUSTER_EDGE_WEIGHT_FLOOR",
        "CREDO_CLUSTER_DIVERSITY_TARGET",
        "CREDO_TOKEN_BUDGET",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    yield tmp_path


def _open(project: Path, toml: str | None = None) -> Memory:
    """A store whose graph has one CITES pair (a1 - a2, weight 0.5) and a singleton b."""
    if toml is not None:
        (project / ".credo.toml").write_text(toml, encoding="utf-8")
    memory = Memory(project / "m.db", root=project)
    memory.remember("alpha beta gamma alpha beta gamma", id="a1")
    memory.remember("alpha beta gamma alpha", id="a2")
    memory.remember("alpha beta", id="b")
    memory.relate("a1", "a2", "CITES")
    return memory


def _clusters(result: RetrievalResult) -> dict[str, int | None]:
    return {b.id: b.cluster_id for b in result.beliefs}


def test_default_is_on(project: Path) -> None:
    """ON by default: the A2 and A3 gates pass (docs/BENCHMARKS.md § clustering)."""
    with _open(project) as memory:
        result = memory.retrieve(QUERY, token_budget=BUDGET)
    assert result.clustering is True
    assert None not in set(_clusters(result).values())


def test_toml_turns_it_on_and_argument_beats_toml(project: Path) -> None:
    with _open(project, "[retrieval]\nuse_intentional_clustering = true\n") as memory:
        on = memory.retrieve(QUERY, token_budget=BUDGET)
        off = memory.retrieve(QUERY, token_budget=BUDGET, use_intentional_clustering=False)
    assert on.clustering is True and None not in _clusters(on).values()
    assert off.clustering is False


@pytest.mark.parametrize(("env", "argument", "expected"), [("1", False, True), ("0", True, False)])
def test_env_beats_argument(
    project: Path, monkeypatch: pytest.MonkeyPatch, env: str, argument: bool, expected: bool
) -> None:
    monkeypatch.setenv("CREDO_INTENTIONAL_CLUSTERING", env)
    with _open(project, "[retrieval]\nuse_intentional_clustering = false\n") as memory:
        result = memory.retrieve(QUERY, token_budget=BUDGET, use_intentional_clustering=argument)
    assert result.clustering is expected


def test_floor_from_argument_and_toml(project: Path) -> None:
    """CITES weighs 0.5: a floor of 0.4 joins a1 and a2, a floor of 0.6 does not."""
    with _open(project, "[retrieval]\ncluster_edge_weight_floor = 0.6\n") as memory:
        from_toml = _clusters(
            memory.retrieve(QUERY, token_budget=BUDGET, use_intentional_clustering=True)
        )
        from_arg = _clusters(
            memory.retrieve(
                QUERY,
                token_budget=BUDGET,
                use_intentional_clustering=True,
                cluster_edge_weight_floor=0.4,
            )
        )
    assert from_toml["a1"] != from_toml["a2"]
    assert from_arg["a1"] == from_arg["a2"] != from_arg["b"]


def test_diversity_target_from_argument_and_toml(project: Path) -> None:
    """With room for two beliefs, target 0 packs the score order (a1, a2); target 2 spends
    the second slot on the other cluster's representative (a1, b). b shows a query term
    ("delta") that a1 and a2 do not, which the aspect gate asks of a representative that
    jumps the ranking (retrieval/cluster.py); beliefs that match nothing keep the shared
    terms' idf above zero, so the ranking is a1, a2, b."""
    from credo.tokens import belief_tokens

    query = "alpha beta gamma delta"
    a1, a2 = "alpha beta gamma alpha beta gamma", "alpha beta gamma alpha"
    budget = belief_tokens("a1", a1, False) + belief_tokens("a2", a2, False)
    (project / ".credo.toml").write_text(
        "[retrieval]\ncluster_diversity_target = 2\n", encoding="utf-8"
    )
    with Memory(project / "m.db", root=project) as memory:
        memory.remember(a1, id="a1")
        memory.remember(a2, id="a2")
        memory.remember("alpha delta", id="b")
        memory.relate("a1", "a2", "CITES")
        for i in range(10):
            memory.remember(f"lorem ipsum dolor {i}", id=f"filler{i}")
        score_order = memory.retrieve(
            query, token_budget=BUDGET, use_intentional_clustering=False
        ).ids
        from_toml = memory.retrieve(query, token_budget=budget, use_intentional_clustering=True)
        from_arg = memory.retrieve(
            query, token_budget=budget, use_intentional_clustering=True, cluster_diversity_target=0
        )
    assert score_order == ["a1", "a2", "b"]
    assert from_toml.ids == ["a1", "b"]  # listed by score, selected for diversity
    assert sorted(b.cluster_id for b in from_toml.beliefs) == [0, 1]
    assert from_arg.ids == ["a1", "a2"]


def test_a_representative_that_adds_no_query_term_is_not_promoted(project: Path) -> None:
    """The aspect gate through retrieve(): b ("alpha beta") shows no query term a1 does not
    show, so target 2 does not spend a1's second slot on it; the pack is the score order's."""
    from credo.tokens import belief_tokens

    budget = belief_tokens("a1", "alpha beta gamma alpha beta gamma", False) + belief_tokens(
        "a2", "alpha beta gamma alpha", False
    )
    with _open(project) as memory:
        result = memory.retrieve(
            QUERY, token_budget=budget, use_intentional_clustering=True, cluster_diversity_target=2
        )
    assert result.ids == ["a1", "a2"]
