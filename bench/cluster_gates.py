"""Intentional clustering bench gates (issue 4: A2, A3, LoCoMo, knob sweep).

    python bench/cluster_gates.py [--json OUT] [--skip-locomo] [--dataset PATH]

What it measures, and why this way:

* A2 on the A1 corpus (tests/corpus/multi_fact/, built by bench/build_multi_fact.py):
  cluster_coverage, recall and alpha-nDCG of the *pack* at a budget that fits about ten
  beliefs (10 x the corpus' median belief cost), so k is "what fits the budget", which is
  what a prompt hook injects. Systems: clustering OFF (score-order pack), ON (cluster pack,
  default knobs), and an MMR baseline (Carbonell & Goldstein, SIGIR 1998) with lambda 0.5
  and lexical Jaccard similarity over the same candidates, scores and budget.
* A3 single-fact non-regression: nDCG@10 of the pack, ON vs OFF, on single_fact.jsonl; and
  nDCG@10 of the ranking on LoCoMo's single-evidence questions.
* LoCoMo (dev split, read by path; CC BY-NC, never copied): all-evidence@10 of the ranking
  (the harness' convention: retrieve at a 100,000-token budget, take the top 10) and
  all-evidence inside a pack of ~10 turns, on the multi-evidence questions.
* Knob sweep: floor in {0.1..0.6} x diversity target in {1..5} on both data sets.

Every candidate list comes from ``Memory.retrieve`` with clustering OFF and a budget that
fits everything: that is the ranked candidate pool with its scores, read twice, once with
every candidate shown whole (``compress="off"``) and once with every long one cut
(``"always"``). What a pack at a given budget charges is then decided as ``retrieve``'s
default (``compress="auto"``) decides it, by the same function (``compress.verbatim_ids``:
nothing cut when everything fits, else the ranking's head whole and the rest cut), with
the query terms each line then shows (the cluster pack's aspect gate reads them). The packs
are recomputed with the same pure functions ``retrieve`` uses (``pack_by_score``,
``cluster_candidates`` + ``pack_with_clusters``) for every system and knob setting, so one
pool serves 30 sweep points. A check at start-up asserts that the recomputed OFF and ON
packs equal ``Memory.retrieve``'s own, at its default options, on every A1 query, so the
shortcut measures the shipped code path. (Until this check used the default, it priced
with ``"always"`` and did not cover OFF: docs/BENCHMARKS.md § Intentional clustering.)

The pack budget is ten median beliefs, the median of each belief's whole line: the A1
corpus' median belief (81 characters) is short, so the compress stage shows it whole and
the budget means "about ten beliefs" with or without the stage.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ablation import add_lanes_off, apply_lanes_off
from credo import Memory
from credo.retrieval.cluster import cluster_candidates, pack_with_clusters
from credo.retrieval.compress import SHORT_CHARS, verbatim_ids
from credo.retrieval.pack import pack_by_score
from credo.retrieval.place import Charges, Places, tokens_of, whole_chars
from credo.retrieval.snippet import Terms
from credo.tokens import belief_tokens, marks
from credo.types import Edge
from metrics import all_found_at_k, alpha_ndcg_at_k, cluster_coverage_at_k, ndcg_at_k, recall_at_k

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "multi_fact"
RANK_BUDGET = 100_000  # fits every candidate: the full ranking
PACK_BELIEFS = 10  # the pack budget is this many median-cost beliefs
DEFAULT_FLOOR = 0.4
DEFAULT_TARGET = 3
FLOORS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6)
TARGETS = (1, 2, 3, 4, 5)
MMR_LAMBDA = 0.5
A3_TOLERANCE = 0.005
_WORD = re.compile(r"\w+")


# -- candidate pools and packs -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Priced:
    """What each candidate's line holds and which query terms it shows, at one budget: its
    characters, which the packs charge as retrieve() does (``place.Charges``: the pack's
    lines as one text, a passage's file and section lines paid by the first under them)."""

    costs: dict[str, int]
    carried: dict[str, frozenset[str]]


@dataclass(frozen=True, slots=True)
class Pool:
    """The ranked candidates of one query: what every pack below chooses from."""

    ids: tuple[str, ...]  # score order
    scores: dict[str, float]
    content: dict[str, str]
    marks: dict[str, str]  # each line's standing marks (tokens.marks), charged with it
    trails: dict[str, str]
    stated: frozenset[str]  # what a person stated: never cut (Store.stated)
    whole: Priced  # every candidate shown whole
    cut: Priced  # every long candidate cut ("always")
    words: dict[str, frozenset[str]]  # for MMR's lexical similarity
    edges: tuple[Edge, ...]
    _at: dict[int, Priced] = field(default_factory=dict, compare=False)

    def at(self, budget: int) -> Priced:
        """Costs and terms at ``budget`` as ``retrieve``'s default, "auto", renders them."""
        found = self._at.get(budget)
        if found is None:
            kept = verbatim_ids(
                list(self.ids),
                self.content,
                self.marks,
                Places(self.trails),
                budget,
                "auto",
                lambda long: set(self.stated.intersection(long)),
            )
            if not isinstance(kept, set):
                kept = kept()
            whole = {i for i in self.ids if len(self.content[i]) <= SHORT_CHARS or i in kept}
            found = self._at[budget] = Priced(
                {i: (self.whole if i in whole else self.cut).costs[i] for i in self.ids},
                {i: (self.whole if i in whole else self.cut).carried[i] for i in self.ids},
            )
        return found


def candidate_pool(memory: Memory, query: str) -> Pool:
    """All ranked candidates of ``query`` (clustering OFF, nothing cut by the budget), read
    shown whole and shown cut."""
    terms = Terms(query)
    seen: list[tuple[str, ...]] = []
    priced: list[Priced] = []
    ranked: list[Any] = []
    for mode in ("off", "always"):
        result = memory.retrieve(
            query, token_budget=RANK_BUDGET, use_intentional_clustering=False, compress=mode
        )
        ranked = [b for b in result.beliefs if not b.locked]
        seen.append(tuple(b.id for b in ranked))
        places = Places({b.id: b.trail for b in ranked if b.trail})
        priced.append(
            Priced(
                {
                    b.id: places.line_chars(
                        b.id, b.shown, marks(b.replaces, b.conflicts, b.superseded_by)
                    )
                    for b in ranked
                },
                {b.id: frozenset(s for _, s in terms.hits(b.shown)) for b in ranked},
            )
        )
    if seen[0] != seen[1]:  # compress never changes the ranking
        raise SystemExit(f"the ranking of {query!r} depends on compress")
    ids = seen[0]
    content = {b.id: b.content for b in ranked}
    return Pool(
        ids=ids,
        scores={b.id: b.score for b in ranked},
        content=content,
        marks={b.id: marks(b.replaces, b.conflicts, b.superseded_by) for b in ranked},
        trails={b.id: b.trail for b in ranked},
        stated=frozenset(memory.store.stated([i for i in ids if len(content[i]) > SHORT_CHARS])),
        whole=priced[0],
        cut=priced[1],
        words={b.id: frozenset(_WORD.findall(b.content.lower())) for b in ranked},
        edges=tuple(memory.store.edges_for_beliefs(ids)),
    )


def pack_off(pool: Pool, budget: int) -> list[str]:
    """The score-order pack (clustering OFF)."""
    costs = Charges(pool.at(budget).costs, Places(pool.trails))
    return list(pack_by_score(pool.ids, token_costs=costs, token_budget=budget).selected)


def pack_on(pool: Pool, budget: int, floor: float, target: int) -> list[str]:
    """The cluster pack, exactly as ``retrieval.retrieve`` calls it."""
    if not pool.ids:
        return []
    priced = pool.at(budget)
    clusters = cluster_candidates(pool.ids, pool.scores, edges=pool.edges, edge_weight_floor=floor)
    packed = pack_with_clusters(
        clusters,
        candidate_scores=pool.scores,
        token_costs=Charges(priced.costs, Places(pool.trails)),
        token_budget=budget,
        cluster_diversity_target=target,
        carried=priced.carried,
    )
    # retrieve() lists the cluster pack's selection in score order (what the model reads).
    return sorted(packed.selected, key=lambda i: (-pool.scores[i], i))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """|a ∩ b| / |a ∪ b|; two empty sets are identical (1.0)."""
    union = len(a | b)
    return len(a & b) / union if union else 1.0


def pack_mmr(pool: Pool, budget: int, lam: float = MMR_LAMBDA, limit: int = 50) -> list[str]:
    """Maximal marginal relevance over the same pool: argmax lam*rel - (1-lam)*max sim.

    rel is the score divided by the best score (so both terms live in [0, 1]); ties go to
    the smaller id. Like credo's packs it stops at the first pick that does not fit.
    ``limit`` caps the picks: the metrics never look past the first ten.
    """
    if not pool.ids:
        return []
    best = max(pool.scores.values()) or 1.0
    costs = Charges(pool.at(budget).costs, Places(pool.trails))
    remaining = sorted(pool.ids)
    max_sim = dict.fromkeys(remaining, 0.0)
    chosen: list[str] = []
    used = 0
    while remaining and len(chosen) < limit:
        pick = max(
            remaining,
            key=lambda i: (lam * pool.scores[i] / best - (1 - lam) * max_sim[i], _neg(i)),
        )
        cost = costs[pick]
        if used + cost > budget:
            break
        costs.take(pick)
        used += cost
        chosen.append(pick)
        remaining.remove(pick)
        for other in remaining:
            max_sim[other] = max(max_sim[other], jaccard(pool.words[pick], pool.words[other]))
    return chosen


def _neg(belief_id: str) -> tuple[int, ...]:
    """A key that sorts ids in reverse, so max() breaks ties towards the smaller id."""
    return tuple(-ord(ch) for ch in belief_id)


# -- the A1 corpus ----------------------------------------------------------------------------


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def open_corpus(folder: Path, workdir: Path) -> Memory:
    """A fresh store holding the corpus records."""
    memory = Memory(workdir / "a1.db", root=workdir)
    memory.import_records(folder / "records.jsonl")
    return memory


def median_budget(costs: Iterable[int]) -> int:
    """The pack budget: PACK_BELIEFS beliefs of median cost."""
    return PACK_BELIEFS * int(statistics.median(costs))


def row_metrics(packed: Sequence[str], row: Mapping[str, Any]) -> dict[str, float]:
    """Coverage, recall, alpha-nDCG and nDCG of one pack (k = what the pack holds)."""
    k = max(1, len(packed))
    clusters = [set(c) for c in row["expected_clusters"]]
    subtopic_of: dict[str, set[int]] = {}
    for index, cluster in enumerate(clusters):
        for belief_id in cluster:
            subtopic_of.setdefault(belief_id, set()).add(index)
    return {
        "coverage": cluster_coverage_at_k(packed, clusters, k),
        "recall": recall_at_k(packed, row["expected_belief_ids"], k),
        "alpha_ndcg": alpha_ndcg_at_k(packed, subtopic_of, k),
        "ndcg10": ndcg_at_k(packed, row["expected_belief_ids"], 10),
        "size": float(len(packed)),
    }


def mean_metrics(rows: Sequence[Mapping[str, float]]) -> dict[str, float]:
    keys = rows[0].keys() if rows else ()
    return {key: statistics.fmean(r[key] for r in rows) for key in keys}


Packer = Callable[[Pool, int], list[str]]


def systems(floor: float = DEFAULT_FLOOR, target: int = DEFAULT_TARGET) -> dict[str, Packer]:
    return {
        "OFF": pack_off,
        f"ON(f={floor},t={target})": lambda p, b: pack_on(p, b, floor, target),
        f"MMR(l={MMR_LAMBDA})": pack_mmr,
    }


def check_wiring(
    memory: Memory, rows: Sequence[Mapping[str, Any]], pools: Sequence[Pool], budget: int
) -> None:
    """The recomputed OFF and ON packs must equal Memory.retrieve's own at its default
    options (the shipped path: compress "auto", the default knobs), selection and cost."""
    for row, pool in zip(rows, pools, strict=True):
        for on, packed in ((False, pack_off(pool, budget)), (True, pack_on_default(pool, budget))):
            live = memory.retrieve(row["query"], token_budget=budget, use_intentional_clustering=on)
            lines = whole_chars(packed, pool.at(budget).costs, Places(pool.trails))
            if list(live.ids) != packed or live.used_tokens != tokens_of(sum(lines)):
                system = "ON" if on else "OFF"
                raise SystemExit(
                    f"recomputed {system} pack differs from retrieve() for {row['query']!r} "
                    f"at {budget} tokens"
                )


def pack_on_default(pool: Pool, budget: int) -> list[str]:
    return pack_on(pool, budget, DEFAULT_FLOOR, DEFAULT_TARGET)


def a1_figures(folder: Path) -> dict[str, Any]:
    """A2 (multi-fact), A3 (single-fact) and the A1 half of the sweep."""
    multi = read_jsonl(folder / "queries.jsonl")
    single = read_jsonl(folder / "single_fact.jsonl")
    records = read_jsonl(folder / "records.jsonl")
    budget = median_budget(
        belief_tokens(r["id"], r["content"], False) for r in records if r["kind"] == "belief"
    )
    with tempfile.TemporaryDirectory(prefix="credo-gates-") as tmp:
        memory = open_corpus(folder, Path(tmp))
        try:
            multi_pools = [candidate_pool(memory, r["query"]) for r in multi]
            single_pools = [candidate_pool(memory, r["query"]) for r in single]
            check_wiring(memory, multi, multi_pools, budget)
        finally:
            memory.close()
    out: dict[str, Any] = {"budget": budget, "rows": len(multi), "single_rows": len(single)}
    out["a2"] = _by_system(multi, multi_pools, budget, systems())
    out["a2_by_tag"] = {
        tag: _by_system(
            [r for r in multi if r["tag"] == tag],
            [p for r, p in zip(multi, multi_pools, strict=True) if r["tag"] == tag],
            budget,
            systems(),
        )
        for tag in sorted({r["tag"] for r in multi})
    }
    out["a3"] = _by_system(single, single_pools, budget, systems())
    out["sweep"] = _a1_sweep(multi, multi_pools, single, single_pools, budget)
    out["pool_clusters"] = _cluster_shape(multi_pools)
    return out


def _by_system(
    rows: Sequence[Mapping[str, Any]],
    pools: Sequence[Pool],
    budget: int,
    packers: Mapping[str, Packer],
) -> dict[str, dict[str, float]]:
    return {
        name: mean_metrics(
            [row_metrics(pack(p, budget), r) for r, p in zip(rows, pools, strict=True)]
        )
        for name, pack in packers.items()
    }


def _a1_sweep(
    multi: Sequence[Mapping[str, Any]],
    multi_pools: Sequence[Pool],
    single: Sequence[Mapping[str, Any]],
    single_pools: Sequence[Pool],
    budget: int,
) -> list[dict[str, float]]:
    points = []
    for floor in FLOORS:
        for target in TARGETS:
            on = {"ON": lambda p, b, f=floor, t=target: pack_on(p, b, f, t)}
            m = _by_system(multi, multi_pools, budget, on)["ON"]
            s = _by_system(single, single_pools, budget, on)["ON"]
            points.append(
                {
                    "floor": floor,
                    "target": target,
                    "coverage": m["coverage"],
                    "recall": m["recall"],
                    "alpha_ndcg": m["alpha_ndcg"],
                    "single_ndcg10": s["ndcg10"],
                }
            )
    return points


def _cluster_shape(pools: Sequence[Pool]) -> dict[str, dict[str, float]]:
    """Per floor: mean clusters per pool, mean largest-cluster share, singleton share."""
    shape = {}
    for floor in FLOORS:
        counts, largest, singles = [], [], []
        for pool in pools:
            if not pool.ids:
                continue
            clusters = cluster_candidates(
                pool.ids, pool.scores, edges=pool.edges, edge_weight_floor=floor
            )
            counts.append(len(clusters))
            largest.append(max(len(c.member_ids) for c in clusters) / len(pool.ids))
            singles.append(sum(len(c.member_ids) == 1 for c in clusters) / len(pool.ids))
        shape[str(floor)] = {
            "clusters": statistics.fmean(counts),
            "largest_share": statistics.fmean(largest),
            "singleton_share": statistics.fmean(singles),
        }
    return shape


# -- LoCoMo -----------------------------------------------------------------------------------


def locomo_figures(dataset: Path) -> dict[str, Any]:
    """Multi-evidence all-evidence@10 and single-evidence nDCG@10, OFF vs ON and the sweep."""
    from locomo import load_conversations

    conversations = load_conversations(dataset)
    budget = median_budget(
        belief_tokens(t.id, t.content, False) for c in conversations for t in c.turns
    )
    samples: list[tuple[frozenset[str], Pool]] = []
    for conversation in conversations:
        with tempfile.TemporaryDirectory(prefix="credo-gates-") as tmp:
            memory = Memory(Path(tmp) / "locomo.db", root=tmp)
            try:
                memory.import_records(conversation.records())
                samples += [
                    (q.evidence, candidate_pool(memory, q.text)) for q in conversation.questions
                ]
            finally:
                memory.close()
    packers: dict[str, Packer] = systems()
    out: dict[str, Any] = {"budget": budget, "questions": len(samples)}
    out["systems"] = {name: _locomo_scores(samples, pack, budget) for name, pack in packers.items()}
    out["sweep"] = [
        {
            "floor": f,
            "target": t,
            **_locomo_scores(samples, lambda p, b, f=f, t=t: pack_on(p, b, f, t), budget),
        }
        for f in FLOORS
        for t in TARGETS
    ]
    out["pool_clusters"] = _cluster_shape([pool for _, pool in samples])
    return out


def _locomo_scores(
    samples: Sequence[tuple[frozenset[str], Pool]], pack: Packer, budget: int
) -> dict[str, float]:
    """The ranking is the pack at RANK_BUDGET (the harness convention), the pack at budget."""
    all10, all_pack, single_ndcg, pack_ndcg = [], [], [], []
    for evidence, pool in samples:
        ranked = pack(pool, RANK_BUDGET)
        if len(evidence) > 1:
            all10.append(float(all_found_at_k(ranked, evidence, 10)))
            packed = pack(pool, budget)
            all_pack.append(float(evidence <= set(packed)))
        else:
            single_ndcg.append(ndcg_at_k(ranked, evidence, 10))
            pack_ndcg.append(ndcg_at_k(pack(pool, budget) or ["-"], evidence, 10))
    return {
        "multi_n": float(len(all10)),
        "all_evidence@10": statistics.fmean(all10),
        "all_evidence@pack": statistics.fmean(all_pack),
        "single_n": float(len(single_ndcg)),
        "single_ndcg@10": statistics.fmean(single_ndcg),
        "single_ndcg@pack": statistics.fmean(pack_ndcg),
    }


# -- report -----------------------------------------------------------------------------------


def _table(title: str, rows: Mapping[str, Mapping[str, float]], keys: Sequence[str]) -> str:
    width = max(len(name) for name in rows) + 2
    lines = [title, f"{'system':<{width}}" + "".join(f"{k:>18}" for k in keys)]
    lines += [
        f"{name:<{width}}" + "".join(f"{r[k]:>18.4f}" for k in keys) for name, r in rows.items()
    ]
    return "\n".join(lines)


def _sweep_table(title: str, points: Sequence[Mapping[str, float]], keys: Sequence[str]) -> str:
    lines = [title, f"{'floor':>6}{'target':>7}" + "".join(f"{k:>18}" for k in keys)]
    lines += [
        f"{p['floor']:>6}{p['target']:>7}" + "".join(f"{p[k]:>18.4f}" for k in keys) for p in points
    ]
    return "\n".join(lines)


def verdict(a1: Mapping[str, Any], locomo: Mapping[str, Any] | None) -> dict[str, Any]:
    """The ship condition: A2 uplift on the corpus and A3 non-regression everywhere."""
    names = list(a1["a2"])
    off, on = a1["a2"][names[0]], a1["a2"][names[1]]
    result: dict[str, Any] = {
        "a2_coverage_uplift": on["coverage"] - off["coverage"],
        "a2_recall_uplift": on["recall"] - off["recall"],
        "a3_single_fact_delta": a1["a3"][names[1]]["ndcg10"] - a1["a3"][names[0]]["ndcg10"],
    }
    if locomo is not None:
        s_off, s_on = locomo["systems"][names[0]], locomo["systems"][names[1]]
        result["locomo_all_evidence@10_delta"] = s_on["all_evidence@10"] - s_off["all_evidence@10"]
        result["a3_locomo_delta"] = s_on["single_ndcg@10"] - s_off["single_ndcg@10"]
    a3_ok = all(v >= -A3_TOLERANCE for k, v in result.items() if k.startswith("a3_"))
    result["a2_pass"] = result["a2_coverage_uplift"] > 0 and result["a2_recall_uplift"] >= 0
    result["a3_pass"] = a3_ok
    result["ship"] = result["a2_pass"] and a3_ok
    return result


def report(a1: Mapping[str, Any], locomo: Mapping[str, Any] | None, ver: Mapping[str, Any]) -> str:
    keys = ("coverage", "recall", "alpha_ndcg", "size")
    parts = [
        _table(
            f"A2 multi-fact ({a1['rows']} rows, pack budget {a1['budget']} tokens)", a1["a2"], keys
        ),
        *(_table(f"A2 tag={tag}", rows, keys) for tag, rows in a1["a2_by_tag"].items()),
        _table(
            f"A3 single-fact ({a1['single_rows']} rows): nDCG@10 of the pack",
            a1["a3"],
            ("ndcg10", "size"),
        ),
        _table(
            "A1 candidate clusters by floor",
            a1["pool_clusters"],
            ("clusters", "largest_share", "singleton_share"),
        ),
        _sweep_table(
            "A1 sweep", a1["sweep"], ("coverage", "recall", "alpha_ndcg", "single_ndcg10")
        ),
    ]
    if locomo is not None:
        lk = ("all_evidence@10", "all_evidence@pack", "single_ndcg@10", "single_ndcg@pack")
        parts += [
            _table(
                f"LoCoMo ({locomo['questions']} questions, pack budget {locomo['budget']})",
                locomo["systems"],
                lk,
            ),
            _table(
                "LoCoMo candidate clusters by floor",
                locomo["pool_clusters"],
                ("clusters", "largest_share", "singleton_share"),
            ),
            _sweep_table("LoCoMo sweep", locomo["sweep"], lk),
        ]
    parts.append("verdict: " + json.dumps(ver, sort_keys=True))
    return "\n\n".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    from locomo import DEFAULT_DATASET

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    parser.add_argument("--skip-locomo", action="store_true")
    parser.add_argument("--json", type=Path, default=None, metavar="OUT")
    add_lanes_off(parser)
    args = parser.parse_args(argv)
    if off := apply_lanes_off(args.lanes_off):
        print(f"lanes off: {', '.join(off)}")
    # The env switch beats the argument (SYSTEM.md); the bench must compare ON with OFF.
    for name in (
        "CREDO_INTENTIONAL_CLUSTERING",
        "CREDO_CLUSTER_EDGE_WEIGHT_FLOOR",
        "CREDO_CLUSTER_DIVERSITY_TARGET",
        "CREDO_TOKEN_BUDGET",
    ):
        if os.environ.pop(name, None) is not None:
            print(f"note: ignoring {name} for this run", file=sys.stderr)
    a1 = a1_figures(args.corpus)
    locomo = None if args.skip_locomo else locomo_figures(args.dataset)
    ver = verdict(a1, locomo)
    print(report(a1, locomo, ver))
    if args.json is not None:
        payload = {"a1": a1, "locomo": locomo, "verdict": ver}
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
