"""What the heat lane says on ingested docs and code, and along which links it says it.

    python bench/heat_paths.py [--set bench|devsets|both] [--corpus NAME ...]

The heat lane (``retrieval/lanes/heat.py``) diffuses the keyword seeds' scores over the
links touching them: h = exp(-tL) s. h is linear in s, so each node's heat is a sum of one
share per seed, and each share is named by how the node stands to that seed:

    own          the seed itself (the keyword score it keeps: an echo of the bm25f lane)
    from parent  a DERIVED_FROM link up to the seed (its section, definition or module)
    from child   a DERIVED_FROM link down to the seed (the node is a hub of the seed)
    cites        a CITES link either way (a document linking another)
    further      no direct link (through a node both touch: a sibling, a shared parent)

For every question of each corpus (``docs_multi.py``'s machinery: the same stores,
questions and label rule), credo's ``Memory.retrieve`` runs with its defaults while the
lane's inputs are recorded, and three tables are printed:

1. the store's graph: links by type; the share of beliefs with no link (alone) and with
   one (leaves); how many have children (parents), and the most children one has;
2. per relation, over the first 20 candidates of each question holding both an answer
   passage and another: how often an answer's share is above another's, and below
   (pairs), and the mean share of each (does the relation tell answers apart?);
3. per relation, over the questions whose first hit is in no answer file: the summed
   share of the first hit minus that of the best answer passage (the first one ranked),
   and in how many the lane's part favours the first hit; and who holds the lane's
   maximum (the normaliser of every candidate's part: ``rank.compose``).

Read-only study: nothing is tuned here. The shares are heat in the seeds' units (the top
seed's score is 1.0), before the lane is normalised.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from credo.retrieval import pipeline  # noqa: E402
from credo.retrieval.graph_lanes import lane_best  # noqa: E402
from credo.retrieval.lanes.heat import heat_over_links  # noqa: E402
from credo.store.graph import Link  # noqa: E402

RELATIONS = ("own", "from parent", "from child", "cites", "further")
TOP = 20  # candidates compared per question (the graph lanes' seed count)
NOISE = 1e-9  # heat below this is none (the lane's own ``above``)


def relation_of(node: str, seed: str, direct: Mapping[tuple[str, str], str]) -> str:
    """How ``node`` stands to ``seed``: ``direct`` maps (src, dst) to the link's type."""
    if node == seed:
        return "own"
    up = direct.get((node, seed))  # node -> seed: the seed is what node derives from
    down = direct.get((seed, node))
    kinds = {k for k in (up, down) if k is not None}
    if "DERIVED_FROM" in kinds:
        return "from parent" if up == "DERIVED_FROM" else "from child"
    if "CITES" in kinds:
        return "cites"
    return "further"


def heat_shares(
    seeds: Mapping[str, float], links: Sequence[Link], nodes: Iterable[str], t: float
) -> dict[str, dict[str, float]]:
    """Each of ``nodes``' heat split by relation to the seed it came from (one kernel per
    seed: the kernel is linear in the seeds, so the shares add up to the node's heat)."""
    direct = {(link.src, link.dst): link.type for link in links if link.weight > 0}
    wanted = list(nodes)
    shares: dict[str, dict[str, float]] = {n: dict.fromkeys(RELATIONS, 0.0) for n in wanted}
    for seed in sorted(seeds):
        heat = heat_over_links({seed: seeds[seed]}, links, t=t)
        for node in wanted:
            value = heat.get(node, 0.0)
            if value > 0.0:
                shares[node][relation_of(node, seed, direct)] += value
    return shares


@dataclass
class Pairs:
    """Answer passages against the other candidates on one relation's share."""

    above: int = 0
    below: int = 0
    pairs: int = 0
    answer_means: list[float] = field(default_factory=list)
    other_means: list[float] = field(default_factory=list)

    def add(self, answers: Sequence[float], others: Sequence[float]) -> None:
        self.above += sum(1 for a in answers for o in others if a > o + NOISE)
        self.below += sum(1 for a in answers for o in others if o > a + NOISE)
        self.pairs += len(answers) * len(others)
        self.answer_means.append(statistics.fmean(answers))
        self.other_means.append(statistics.fmean(others))


@dataclass
class Loss:
    """A question whose first hit is in no answer file."""

    query_id: str
    answer_rank: int
    lanes: dict[str, float]  # lane -> first hit's part minus the answer passage's
    shares: dict[str, float]  # relation -> first hit's share minus the answer's


@dataclass
class Study:
    pairs: dict[tuple[str, str], Pairs] = field(default_factory=dict)  # (kind, relation)
    losses: dict[str, list[Loss]] = field(default_factory=lambda: defaultdict(list))
    holders: Counter[tuple[str, str]] = field(default_factory=Counter)  # (kind, who)
    graphs: list[str] = field(default_factory=list)


@contextmanager
def recorded_heat() -> Iterator[dict[str, Any]]:
    """The heat lane's inputs of each retrieve while inside: ``pipeline.heat_scores``
    wrapped (as ``ablation.py`` switches lanes), restored on the way out."""
    seen: dict[str, Any] = {}
    original = pipeline.heat_scores

    def spy(
        store: Any,
        seeds: Mapping[str, float],
        hops: list[list[Link]],
        options: Any,
        keep: Mapping[str, float] | None = None,
        locked: Any = None,
    ) -> Any:
        best = max(seeds.values())
        seen["seeds"] = {k: v / best for k, v in seeds.items()}  # (as the lane scales them)
        seen["links"] = [link for hop in hops[: options.heat_hops] for link in hop]
        seen["t"] = options.heat_t
        seen["heat"] = heat = original(store, seeds, hops, options)  # (the whole lane)
        # (the pipeline asks the lane's best: ``heat_scores`` gives the same)
        return heat if keep is None else lane_best(heat, keep, options.graph_lane_limit, locked)

    pipeline.heat_scores = spy
    try:
        yield seen
    finally:
        pipeline.heat_scores = original


def graph_line(name: str, db: Path) -> str:
    """Table 1's row: the ingested store's links by type and its beliefs by degree."""
    import sqlite3

    with sqlite3.connect(db) as con:
        beliefs = con.execute("SELECT count(*) FROM beliefs WHERE deleted_at IS NULL").fetchone()[0]
        rows = con.execute("SELECT src, dst, type FROM edges").fetchall()
    con.close()
    types = Counter(t for _, _, t in rows)
    degree: Counter[str] = Counter()
    children: Counter[str] = Counter()
    for src, dst, kind in rows:
        degree[src] += 1
        degree[dst] += 1
        if kind == "DERIVED_FROM":
            children[dst] += 1
    alone = max(beliefs - len(degree), 0) / max(beliefs, 1)
    leaves = sum(1 for d in degree.values() if d == 1) / max(beliefs, 1)
    most = max(children.values(), default=0)
    return (
        f"{name:10} {beliefs:7} {types['DERIVED_FROM']:7} {types['CITES']:6} "
        f"{sum(v for k, v in types.items() if k not in ('DERIVED_FROM', 'CITES')):6} "
        f"{alone:6.2f} {leaves:6.2f} {len(children):7} {most:8}"
    )


def study_corpus(corpus: Any, query_dir: Path, code: bool, study: Study) -> None:
    import docs_baselines as base
    import docs_multi
    from credo import Memory
    from credo.config import Settings
    from docs_corpora import fetch
    from docs_match import make_rule

    queries, _ = docs_multi.load_queries(query_dir / f"{corpus.name}.json")
    root = fetch(corpus)
    files = corpus.files(root)
    texts = {p.relative_to(root).as_posix(): base.read_lines(p) for p in files}
    labels = (loc for q in queries for loc in q.labels)
    match = make_rule("within", corpus.kind, texts, labels)
    kind = "code" if code else "docs"
    with tempfile.TemporaryDirectory(prefix="credo-heat-paths-") as tmp:
        db = Path(tmp) / "credo.db"
        memory = Memory(db, root=root, settings=Settings())
        try:
            memory.ingest(*files)
            with recorded_heat() as seen:
                for query in queries:
                    seen.clear()
                    result = memory.retrieve(
                        query.text, token_budget=docs_multi.RANK_BUDGET, with_doc_anchors=True
                    )
                    if "heat" not in seen:
                        continue
                    hits = [docs_multi.anchor_locs(a) for a in result.doc_anchors or ()]
                    _study_query(query, result.beliefs, hits, seen, match, kind, study)
        finally:
            memory.close()
        study.graphs.append(graph_line(corpus.name, db))


def _study_query(
    query: Any,
    beliefs: Sequence[Any],
    hits: Sequence[Sequence[Any]],
    seen: Mapping[str, Any],
    match: Callable[[Any, Any], bool],
    kind: str,
    study: Study,
) -> None:
    seeds, links, heat = seen["seeds"], seen["links"], seen["heat"]
    is_answer = [any(match(loc, lab) for loc in hit for lab in query.labels) for hit in hits]
    top = list(range(min(TOP, len(beliefs))))
    shares = heat_shares(seeds, links, [beliefs[i].id for i in top], seen["t"])
    answers = [i for i in top if is_answer[i]]
    others = [i for i in top if not is_answer[i]]
    if answers and others:
        for relation in RELATIONS:
            pairs = study.pairs.setdefault((kind, relation), Pairs())
            pairs.add(
                [shares[beliefs[i].id][relation] for i in answers],
                [shares[beliefs[i].id][relation] for i in others],
            )
    holder = min(heat, key=lambda k: (-heat[k], k))
    top_seed = min(seeds, key=lambda k: (-seeds[k], k))
    parents = {link.dst for link in links if link.type == "DERIVED_FROM"}
    who = "top seed" if holder == top_seed else "other seed" if holder in seeds else "non-seed"
    study.holders[(kind, who + (", a parent" if holder in parents else ""))] += 1
    files = {lab.path for lab in query.labels}
    if not hits or not hits[0] or hits[0][0].path in files:
        return
    at = next((i for i, y in enumerate(is_answer) if y), None)
    if at is None:
        at = next((i for i, h in enumerate(hits) if h and h[0].path in files), None)
    if at is None:
        return
    first, answer = beliefs[0], beliefs[at]
    pair = heat_shares(seeds, links, [first.id, answer.id], seen["t"])
    lanes = sorted(set(first.lanes) | set(answer.lanes))
    study.losses[kind].append(
        Loss(
            query.id,
            at + 1,
            {k: first.lanes.get(k, 0.0) - answer.lanes.get(k, 0.0) for k in lanes},
            {r: pair[first.id][r] - pair[answer.id][r] for r in RELATIONS},
        )
    )


def render(study: Study) -> str:
    out = ["1. the ingested graph", ""]
    out.append(
        f"{'corpus':10} {'beliefs':>7} {'DERIVED':>7} {'CITES':>6} {'other':>6} "
        f"{'alone':>6} {'leaves':>6} {'parents':>7} {'max kids':>8}"
    )
    out += study.graphs
    out += ["", "2. answers against the other first 20, by the relation heat came along", ""]
    out.append(
        f"{'kind':5} {'relation':12} {'answer>other':>12} {'other>answer':>12} {'pairs':>7} "
        f"{'answer mean':>11} {'other mean':>10}"
    )
    for (kind, relation), p in sorted(study.pairs.items()):
        out.append(
            f"{kind:5} {relation:12} {p.above:12} {p.below:12} {p.pairs:7} "
            f"{statistics.fmean(p.answer_means):11.3f} {statistics.fmean(p.other_means):10.3f}"
        )
    out += ["", "3. first hit in no answer file: first hit minus the best answer passage", ""]
    for kind, losses in sorted(study.losses.items()):
        lanes = Counter[str]()
        shares = Counter[str]()
        for loss in losses:
            lanes.update(loss.lanes)
            shares.update(loss.shares)
        favoured = sum(1 for loss in losses if loss.lanes.get("heat", 0.0) > 0)
        out.append(
            f"{kind}: {len(losses)} questions; heat's part favours the first hit in {favoured}"
        )
        out.append(
            "  lanes' parts summed: "
            + ", ".join(f"{k} {v:+.2f}" for k, v in sorted(lanes.items(), key=lambda kv: -kv[1]))
        )
        out.append(
            "  heat shares summed:  " + ", ".join(f"{r} {shares[r]:+.2f}" for r in RELATIONS)
        )
    out += ["", "who holds the heat lane's maximum (its normaliser)", ""]
    for (kind, who), n in sorted(study.holders.items()):
        out.append(f"{kind:5} {who:22} {n:5}")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--set", choices=("bench", "devsets", "both"), default="both")
    parser.add_argument("--corpus", action="append", metavar="NAME", help="repeatable")
    args = parser.parse_args(argv)
    sys.path[:0] = [str(HERE), str(HERE / "heldout")]  # (the bench's modules, when run)
    from devsets.corpora import DEV
    from docs_corpora import CORPORA

    chosen: list[tuple[Any, Path]] = []
    if args.set in ("bench", "both"):
        chosen += [(c, HERE / "docs_multi") for c in CORPORA]
    if args.set in ("devsets", "both"):
        chosen += [(c, HERE / "devsets" / "queries") for c in DEV]
    chosen = [(c, q) for c, q in chosen if not args.corpus or c.name in args.corpus]
    if not chosen:
        parser.error("no corpus chosen")
    study = Study()
    for corpus, query_dir in chosen:
        if (query_dir / f"{corpus.name}.json").is_file():
            study_corpus(corpus, query_dir, corpus.kind == "code", study)
    print(render(study))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
