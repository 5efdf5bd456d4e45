"""The cluster pack's aspect gate (retrieval/cluster.py): Stage 1 promotes a representative
past better-ranked candidates only when it shows a query term none of them shows."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from credo.retrieval.cluster import (
    ClusterPackResult,
    cluster_candidates,
    flattened_score_order,
    pack_with_clusters,
)
from credo.retrieval.pack import pack_by_score
from tests.test_cluster import Scenario, by_score, edge, scenarios

TERMS = ["alpha", "beta", "gamma", "delta"]


def gated(
    s: Scenario, carried: dict[str, frozenset[str]] | None, floor: float = 0.4
) -> ClusterPackResult:
    clusters = cluster_candidates(s.candidates, s.scores, edges=s.edges, edge_weight_floor=floor)
    return pack_with_clusters(
        clusters,
        candidate_scores=s.scores,
        token_costs=s.costs,
        token_budget=s.budget,
        cluster_diversity_target=s.target,
        fallback_to_score=s.fallback,
        carried=carried,
    )


@st.composite
def with_terms(draw: st.DrawFn) -> tuple[Scenario, dict[str, frozenset[str]]]:
    s = draw(scenarios())
    carried = {
        c: frozenset(draw(st.sets(st.sampled_from(TERMS), max_size=3))) for c in s.candidates
    }
    return s, carried


@given(with_terms())
def test_stage_one_follows_the_gate(case: tuple[Scenario, dict[str, frozenset[str]]]) -> None:
    """Reference walk, written from the rule: a representative that does not fit ends Stage
    1 (fallback) or is skipped; one that would jump a better-ranked candidate not picked
    must show a term that no better-ranked candidate shows, or Stage 1 ends."""
    s, carried = case
    clusters = cluster_candidates(s.candidates, s.scores, edges=s.edges)
    ranked = list(flattened_score_order(clusters, s.scores))
    picks: list[str] = []
    used = 0
    for c in clusters if s.target else []:
        rep = c.representative_id
        above = ranked[: ranked.index(rep)]
        if any(i not in picks for i in above):
            shown = set().union(*(carried[i] for i in above))
            if carried[rep] <= shown:
                break
        if used + s.costs[rep] <= s.budget:
            picks.append(rep)
            used += s.costs[rep]
            if len(picks) >= s.target:
                break
        elif s.fallback:
            break
    result = gated(s, carried)
    assert list(result.representative_ids) == picks
    assert result.used_tokens <= s.budget
    assert len(set(result.selected)) == len(result.selected)


@given(with_terms())
def test_singletons_stay_the_score_order(case: tuple[Scenario, dict[str, frozenset[str]]]) -> None:
    """Every representative of a pool of singletons is next in line: whatever the terms, the
    gated pack is the score-order pack."""
    s, carried = case
    singletons = Scenario(s.candidates, s.scores, s.costs, s.edges, s.budget, s.target, True)
    result = gated(singletons, carried, floor=math.inf)
    plain = pack_by_score(
        by_score(s.candidates, s.scores), token_costs=s.costs, token_budget=s.budget
    )
    assert result.selected == plain.selected


@given(scenarios())
def test_a_new_term_on_every_candidate_is_the_seed_pack(s: Scenario) -> None:
    """When every candidate shows a term of its own, every promotion adds one: the gate
    changes nothing and the pack is the seed's."""
    own = {c: frozenset({c}) for c in s.candidates}
    clusters = cluster_candidates(s.candidates, s.scores, edges=s.edges)
    seed = pack_with_clusters(
        clusters,
        candidate_scores=s.scores,
        token_costs=s.costs,
        token_budget=s.budget,
        cluster_diversity_target=s.target,
        fallback_to_score=s.fallback,
    )
    assert gated(s, own) == seed


def test_a_promotion_that_repeats_the_ranking_is_refused() -> None:
    """The loss the gate removes (the A1 corpus' "temporary directory ... delete a directory
    tree"): two topics, each of them at the top of the ranking, and a third cluster ranked
    lower whose line only repeats their words. The seed's Stage 1 promotes it and the last
    answer no longer fits; the gate ends Stage 1 there, and the pack is the score order's."""
    scores = {"rmtree": 1.3, "copytree": 0.9, "mkdtemp": 0.6, "tmpdir": 0.5, "writepy": 0.4}
    edges = [edge("rmtree", "copytree"), edge("mkdtemp", "tmpdir")]
    carried = {
        "rmtree": frozenset({"recurs", "delet", "directori", "tree"}),
        "copytree": frozenset({"directori", "tree"}),
        "mkdtemp": frozenset({"creat", "temporari", "directori"}),
        "tmpdir": frozenset({"creat", "temporari", "directori"}),
        "writepy": frozenset({"directori", "recurs"}),
    }
    costs = dict.fromkeys(scores, 10)
    s = Scenario(list(scores), scores, costs, edges, 40, 3, True)
    seed = gated(s, None)
    assert seed.representative_ids == ("rmtree", "mkdtemp", "writepy")
    assert "tmpdir" not in seed.selected  # the answer pushed out
    result = gated(s, carried)
    assert result.representative_ids == ("rmtree", "mkdtemp")
    assert set(result.selected) == {"rmtree", "copytree", "mkdtemp", "tmpdir"}


def test_a_promotion_that_adds_a_term_is_kept() -> None:
    """The gain the gate keeps: the second topic ranks below the first one's restatements,
    and its representative shows the query term they lack."""
    scores = {"run": 1.3, "popen": 1.1, "call": 0.6, "which": 0.45}
    edges = [edge("run", "popen"), edge("popen", "call")]
    carried = {
        "run": frozenset({"run", "command"}),
        "popen": frozenset({"command"}),
        "call": frozenset({"run", "command"}),
        "which": frozenset({"path", "command"}),
    }
    s = Scenario(list(scores), scores, dict.fromkeys(scores, 10), edges, 20, 3, True)
    result = gated(s, carried)
    assert result.selected == ("run", "which")
