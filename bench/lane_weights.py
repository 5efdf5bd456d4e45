"""Are the lane weights right? The real pipeline at any ``rank.Weights``, fitted out of fold.

    python bench/lane_weights.py [--set docs|dev|eight|six ...] [--corpus NAME ...]
                                 [--check] [--around] [--fit] [--sweeps N]
                                 [--keep FILE] [--json OUT]

Every corpus of the chosen sets (default: all four; ``docs`` = bench/docs_multi.py's, ``dev``
= bench/devsets/run.py's, ``eight`` and ``six`` = the spent held-out sets named in the stop-68
preamble; the unspent and reserve held-out corpora are refused by name) is ingested once into
a temp store kept open for the run, as bench/docs_multi.py does. A weighting is scored by
calling ``credo.retrieval.pipeline.retrieve`` itself on that store with the options
``Memory.retrieve`` makes (docs_multi's budget, doc anchors on) and ``weights`` replaced: no
offline re-composition, so every step after compose (spread, support, adjacent, lift, members,
currency, clustering, pack) runs as it does for a user. The same four metrics as
docs_multi (``score_query``, the ``within`` rule), per corpus, means per set over corpora.

``--check``: at the current weights the ranking equals ``Memory.retrieve``'s on every
question (the harness adds nothing of its own); it fails loudly otherwise.

``--around``: each knob of ``SPACE`` moved alone from the current weights, per set and kind
(the landscape the fit walks). ``--keep FILE``: every weighting's per-corpus figures kept in
FILE, so a run cut short resumes (delete it when the code or the stores change).

``--fit``: coordinate ascent over ``SPACE`` (a handful of values per lane weight and for
``history``, ``tests``, ``inner``, ``floor``), objective = mean section MRR@10 over the
training corpora, a move kept only when it raises it by more than ``EPS`` and lowers neither
mean doc nDCG@10 nor mean all-groups@10. Leave-one-corpus-out: for each corpus, fit on all
the others, score it with that fit; the LOCO figure sits beside the current weights' one.
Each weighting met is scored on every corpus once and remembered, so the folds, whose paths
mostly coincide, share their work. Deterministic: same corpora, same output.

Stop 68 (at 95a07057, 26 corpora, 220 weightings): the in-sample fit on all 26 is the current
weights; 22 of the 26 folds fit the current weights too, and the four that move (flask:
line x1.25 + history 0.8; axios: defn x1.5; semver: defn x1.25; cibuildwheel: history 0.8;
two sweeps) each lose on their held-out corpus. No single knob moved alone raises one
corpus without lowering another but tests 0.3-0.4 and doc x1.25-1.5 (one question each, chi
and immer); title and floor change no top-10 at any value tried (/tmp/s68/report_ltr68.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import docs_multi
from credo import Memory
from credo.agent import global_store
from credo.config import Settings
from credo.retrieval import pipeline
from credo.retrieval.options import Options, with_default_lanes
from credo.retrieval.rank import Weights
from docs_corpora import CORPORA, Corpus, fetch
from docs_match import make_rule

BENCH = Path(__file__).resolve().parent
METRICS = ("doc_ndcg@10", "section_hit@5", "section_mrr@10", "all_groups@10")
EPS = 0.001  # a move must raise the training MRR by more than this (one question's 1/10 at ~80 q)

# The spent held-out corpora (the stop-68 preamble's lists); never the unspent or reserve.
EIGHT = ("pip", "setuptools", "scikit-build-core", "scrapy", "attrs", "commander", "mistune")
EIGHT += ("postcss",)
SIX = ("cibuildwheel", "trio", "chi", "invoke", "immer", "undici")
NEVER = ("lark", "ignore", "query-core", "babel", "eslint-plugin-import", "griffe", "mypy")
NEVER += ("burntsushi-toml",)

LANE_NAMES = ("bm25f", "line", "defn", "heat", "bfs", "doc", "title")
# A handful of values per knob: lane weights as multiples of the current one, the others
# around their current value.
SPACE: dict[str, tuple[float, ...]] = {
    **{lane: (0.5, 0.75, 1.0, 1.25, 1.5) for lane in LANE_NAMES},  # (x current)
    "history": (0.7, 0.8, 0.85, 0.9, 1.0),
    "tests": (0.3, 0.4, 0.5, 0.6, 0.7),
    "inner": (0.8, 0.85, 0.9, 0.95, 1.0),
    "floor": (0.01, 0.02, 0.03, 0.05, 0.08),
}
CURRENT: dict[str, float] = {lane: 1.0 for lane in LANE_NAMES} | {
    "history": Weights().history,
    "tests": Weights().tests,
    "inner": Weights().inner,
    "floor": Weights().floor,
}

Point = tuple[tuple[str, float], ...]  # a weighting: (knob, value) in SPACE's order
Scores = dict[str, dict[str, float | None]]  # query id -> metric -> value


def point(values: Mapping[str, float]) -> Point:
    return tuple((k, values[k]) for k in SPACE)


def weights_of(p: Point) -> Weights:
    """The ``rank.Weights`` a point stands for (lane knobs scale the current weights)."""
    knobs = dict(p)
    base = Weights()
    lanes = dict(base.lanes)
    for lane in LANE_NAMES:
        lanes[lane] = round(base.lanes[lane] * knobs[lane], 6)
    return base._replace(
        lanes=MappingProxyType(lanes),
        history=knobs["history"],
        tests=knobs["tests"],
        inner=knobs["inner"],
        floor=knobs["floor"],
    )


def _module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sets() -> dict[str, tuple[list[Corpus], Path]]:
    """Set name -> (its corpora, its query folder)."""
    dev = _module("devsets_corpora", BENCH / "devsets" / "corpora.py")
    held = _module("heldout_corpora", BENCH / "heldout" / "corpora.py")
    assert set(NEVER) == set(held.UNSPENT) | set(held.RESERVE), "preamble lists moved"
    by_name = {c.name: c for c in held.HELDOUT}
    return {
        "docs": (list(CORPORA), BENCH / "docs_multi"),
        "dev": (list(dev.DEV), BENCH / "devsets" / "queries"),
        "eight": ([by_name[n] for n in EIGHT], BENCH / "heldout" / "queries"),
        "six": ([by_name[n] for n in SIX], BENCH / "heldout" / "queries"),
    }


@dataclass
class Loaded:
    set: str
    name: str
    kind: str  # "docs" | "code"
    memory: Memory
    options: Options
    queries: list[docs_multi.Query]
    match: Callable[..., bool]

    def ranking(self, text: str, weights: Weights) -> list[Any]:
        result = pipeline.retrieve(self.memory.store, text, self.options._replace(weights=weights))
        anchors = result.doc_anchors or tuple(() for _ in result.beliefs)
        return [docs_multi.anchor_locs(a) for a in anchors]

    def score(self, weights: Weights) -> Scores:
        out: Scores = {}
        for q in self.queries:
            got = docs_multi.score_query(self.ranking(q.text, weights), q, self.match)
            out[q.id] = {m: got[m] for m in METRICS}
        return out


def options_of(memory: Memory) -> Options:
    """The options ``Memory.retrieve(q, token_budget=RANK_BUDGET, with_doc_anchors=True)``
    makes (memory.py), to be given other weights (``--check`` shows they are the same)."""
    settings = memory.settings.retrieval
    return Options(
        token_budget=docs_multi.RANK_BUDGET,
        lanes=with_default_lanes(None, hrr=memory.store.meta_get("hrr_dim") is not None),
        use_intentional_clustering=settings.use_intentional_clustering,
        cluster_edge_weight_floor=settings.cluster_edge_weight_floor,
        cluster_diversity_target=settings.cluster_diversity_target,
        with_doc_anchors=True,
        global_locks=global_store.global_locks(memory),
    )


def load(stack: ExitStack, set_name: str, corpus: Corpus, queries_dir: Path) -> Loaded | None:
    if corpus.name in NEVER:
        raise SystemExit(f"lane_weights: {corpus.name} is held out: never run here")
    path = queries_dir / f"{corpus.name}.json"
    if not path.is_file():
        return None
    queries, _ = docs_multi.load_queries(path)
    root = fetch(corpus)
    files = corpus.files(root)
    texts = {p.relative_to(root).as_posix(): docs_multi.base.read_lines(p) for p in files}
    match = make_rule("within", corpus.kind, texts, (loc for q in queries for loc in q.labels))
    tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="credo-lane-weights-"))
    memory = Memory(Path(tmp) / "credo.db", root=root, settings=Settings())
    stack.callback(memory.close)
    memory.ingest(*files)
    return Loaded(set_name, corpus.name, corpus.kind, memory, options_of(memory), queries, match)


def check(loaded: Loaded) -> int:
    """Questions whose ranking here differs from ``Memory.retrieve``'s at the current weights."""
    real = docs_multi.credo_ranker(loaded.memory)
    return sum(real(q.text) != loaded.ranking(q.text, Weights()) for q in loaded.queries)


def summary(scores: Scores) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for m in METRICS:
        values = [v for v in (row[m] for row in scores.values()) if v is not None]
        out[m] = statistics.fmean(values) if values else None
    return out


def mean(rows: Sequence[Mapping[str, float | None]]) -> dict[str, float | None]:
    """Per metric, the mean over corpora that have it (docs_multi.mean_over's rule)."""
    out: dict[str, float | None] = {}
    for m in METRICS:
        values = [v for v in (r[m] for r in rows) if v is not None]
        out[m] = statistics.fmean(values) if values else None
    return out


class Scorer:
    """Each (weighting, corpus) scored once, on every corpus at a time."""

    def __init__(
        self, corpora: Sequence[Loaded], log: Callable[[str], None], keep: Path | None = None
    ) -> None:
        self.corpora = corpora
        self.seen: dict[Point, dict[str, dict[str, float | None]]] = {}
        self.log = log
        self.keep = keep  # scores kept between runs (a run can be cut short and resumed)
        self.kept: dict[str, dict[str, dict[str, float | None]]] = {}
        if keep is not None and keep.is_file():
            self.kept = json.loads(keep.read_text("utf-8"))

    def per_corpus(self, p: Point) -> dict[str, dict[str, float | None]]:
        if p not in self.seen:
            w = weights_of(p)
            key = repr(p)
            old = self.kept.get(key, {})
            self.seen[p] = {
                c.name: old[c.name] if c.name in old else summary(c.score(w)) for c in self.corpora
            }
            self.log(f"  scored #{len(self.seen)} {describe(p)}")
            if self.keep is not None:
                self.kept[key] = old | self.seen[p]
                self.keep.write_text(json.dumps(self.kept, sort_keys=True) + "\n", "utf-8")
        return self.seen[p]

    def on(self, p: Point, names: Sequence[str]) -> dict[str, float | None]:
        rows = self.per_corpus(p)
        return mean([rows[n] for n in names])


def describe(p: Point) -> str:
    changed = [f"{k}={v:g}" for k, v in p if v != CURRENT[k]]
    return ", ".join(changed) or "current"


def better(new: Mapping[str, float | None], old: Mapping[str, float | None]) -> bool:
    """The objective rises by more than EPS; the guards do not fall."""

    def at(r: Mapping[str, float | None], m: str) -> float:
        value = r[m]
        return -1.0 if value is None else value

    return (
        at(new, "section_mrr@10") > at(old, "section_mrr@10") + EPS
        and at(new, "doc_ndcg@10") >= at(old, "doc_ndcg@10") - 1e-12
        and at(new, "all_groups@10") >= at(old, "all_groups@10") - 1e-12
    )


def ascend(scorer: Scorer, train: Sequence[str], sweeps: int) -> Point:
    """Coordinate ascent from the current weights over SPACE, scored on ``train``."""
    best = dict(CURRENT)
    here = scorer.on(point(best), train)
    for _ in range(sweeps):
        moved = False
        for knob, values in SPACE.items():
            for value in values:
                if value == best[knob]:
                    continue
                trial = best | {knob: value}
                got = scorer.on(point(trial), train)
                if better(got, here):
                    best, here, moved = trial, got, True
        if not moved:
            break
    return point(best)


def fit(scorer: Scorer, sweeps: int, only: Sequence[str] = ()) -> dict[str, Any]:
    """``only``: fit these folds alone, in this order (a run short of time)."""
    names = [c.name for c in scorer.corpora]
    folds: dict[str, Any] = {}
    for held in only or names:
        train = [n for n in names if n != held]
        p = ascend(scorer, train, sweeps)
        folds[held] = {"fit": describe(p), "scores": scorer.per_corpus(p)[held]}
        scorer.log(f"fold {held}: {describe(p)}")
    whole = ascend(scorer, names, sweeps)
    return {"folds": folds, "in_sample": describe(whole), "in_sample_point": whole}


def table(
    corpora: Sequence[Loaded], current: Mapping[str, Mapping[str, float | None]], fitted: Any
) -> Iterator[str]:
    def cell(r: Mapping[str, float | None]) -> str:
        return " / ".join("  -  " if r[m] is None else f"{r[m]:.3f}" for m in METRICS)

    yield f"{'corpus':20} {'current (nDCG / hit5 / MRR / groups)':36}  LOCO fit  [fold's weights]"
    for set_name in dict.fromkeys(c.set for c in corpora):
        names = [c.name for c in corpora if c.set == set_name]
        for n in names:
            fold = fitted["folds"].get(n) if fitted else None
            loco = cell(fold["scores"]) if fold else ""
            note = f"  [{fold['fit']}]" if fold else ""
            yield f"{n:20} {cell(current[n]):36}  {loco}{note}"
        cur = mean([current[n] for n in names])
        line = f"{'= ' + set_name + ' mean':20} {cell(cur):36}"
        if fitted and all(n in fitted["folds"] for n in names):
            line += "  " + cell(mean([fitted["folds"][n]["scores"] for n in names]))
        yield line


def around(scorer: Scorer) -> Iterator[str]:
    """Each knob moved alone from the current weights: per set the change of mean doc nDCG,
    section MRR and all-groups, then per kind the MRR change, and how many corpora's MRR
    rose / fell (the merge rule reads the last: a move that lowers any corpus is not one)."""
    corpora = scorer.corpora
    here = scorer.per_corpus(point(CURRENT))
    groups = {
        s: [c.name for c in corpora if c.set == s] for s in dict.fromkeys(c.set for c in corpora)
    }
    kinds = {k: [c.name for c in corpora if c.kind == k] for k in ("docs", "code")}
    head = "".join(f"  {s + ' nDCG/MRR/groups':>22}" for s in groups)
    yield f"{'moved':16}{head}  {'docs MRR':>8} {'code MRR':>8}  MRR up/down"

    def delta(rows: Mapping[str, Mapping[str, float | None]], names: Sequence[str], m: str) -> str:
        new = mean([rows[n] for n in names])[m] if names else None
        old = mean([here[n] for n in names])[m] if names else None
        return "   -  " if new is None or old is None else f"{new - old:+.3f}"

    for knob, values in SPACE.items():
        for value in values:
            if value == CURRENT[knob]:
                continue
            p = point(CURRENT | {knob: value})
            rows = scorer.per_corpus(p)
            cells = "".join(
                "  "
                + " ".join(
                    delta(rows, names, m)
                    for m in ("doc_ndcg@10", "section_mrr@10", "all_groups@10")
                )
                for names in groups.values()
            )
            by_kind = " ".join(
                f"{delta(rows, names, 'section_mrr@10'):>8}" for names in kinds.values()
            )
            mrr = [
                (rows[c.name]["section_mrr@10"] or 0.0) - (here[c.name]["section_mrr@10"] or 0.0)
                for c in corpora
            ]
            up, down = sum(d > 1e-9 for d in mrr), sum(d < -1e-9 for d in mrr)
            yield f"{describe(p):16}{cells}  {by_kind}  {up:>3} / {down}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--set", action="append", choices=("docs", "dev", "eight", "six"))
    parser.add_argument("--corpus", action="append", metavar="NAME")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--fit", action="store_true")
    parser.add_argument("--around", action="store_true", help="each knob moved alone")
    parser.add_argument("--sweeps", type=int, default=2)
    parser.add_argument("--fold", action="append", metavar="NAME", help="fit only these folds")
    parser.add_argument("--json", type=Path, default=None, metavar="OUT")
    parser.add_argument("--keep", type=Path, default=None, metavar="FILE", help="resume cache")
    args = parser.parse_args(argv)
    for name in args.corpus or ():
        if name in NEVER:
            raise SystemExit(f"lane_weights: {name} is held out: never run here")

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    chosen = sets()
    with ExitStack() as stack:
        corpora: list[Loaded] = []
        for set_name in args.set or list(chosen):
            members, queries_dir = chosen[set_name]
            for corpus in members:
                if args.corpus and corpus.name not in args.corpus:
                    continue
                if (got := load(stack, set_name, corpus, queries_dir)) is not None:
                    corpora.append(got)
                    log(f"loaded {set_name}/{corpus.name}: {len(got.queries)} questions")
        if args.check:
            differ = {c.name: check(c) for c in corpora}
            log(f"check: questions ranked differently from Memory.retrieve: {differ}")
            if any(differ.values()):
                return 1
        scorer = Scorer(corpora, log, args.keep)
        current = scorer.per_corpus(point(CURRENT))
        if args.around:
            for line in around(scorer):
                print(line)
        fitted = fit(scorer, args.sweeps, args.fold or ()) if args.fit else None
        for line in table(corpora, current, fitted):
            print(line)
        if fitted:
            print(f"in-sample fit on all {len(corpora)} corpora: {fitted['in_sample']}")
            whole = scorer.per_corpus(fitted["in_sample_point"])
            for set_name in dict.fromkeys(c.set for c in corpora):
                names = [c.name for c in corpora if c.set == set_name]
                print(f"  {set_name}: {mean([whole[n] for n in names])}")
        if args.json is not None:
            report = {
                "current": current,
                "folds": fitted["folds"] if fitted else None,
                "in_sample": fitted["in_sample"] if fitted else None,
                "weightings_scored": {describe(p): rows for p, rows in scorer.seen.items()},
            }
            args.json.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
