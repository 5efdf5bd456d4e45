"""Probe the HRR lane: accuracy against the exact answer, capacity, floor and latency.

Run:  python bench/hrr_probe.py          (about a minute or two on 2 cores)

Sections:
1. single-term recovery: cosine of y with role # (role ⊛ y), Gaussian vs unitary roles;
2. grid over dim in {128, 256, 512, 1024} and edges per node in {2, 4, 8, 16} on a random
   typed graph of 2,000 beliefs (a trace then holds ~2x edges-per-node bound terms):
   agreement (HRR answer set above the default floor == exact set), micro precision and
   recall over positive probes, and the false-positive rate (share of probes with no exact
   answer that return anything);
3. capacity at the default dim: anchors with exactly k edges in a 2,000-belief graph;
4. the floor's false-positive budget alpha at the default dim;
5. scale: agreement for 20-edge anchors, query latency p50/p99 and memory with 10k and
   100k items in the cleanup memory.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable

import numpy as np

from credo.retrieval.hrr import (
    DEFAULT_DIM,
    HrrIndex,
    bind,
    noise_floor,
    role_vector,
    symbol_vector,
    unbind,
)
from credo.types import EdgeType

TYPES = list(EdgeType)
Probe = tuple[str, EdgeType, str]
N_NODES = 2_000
N_PROBES = 600


def build(
    dim: int, n_nodes: int, edges_per_node: int, seed: int
) -> tuple[HrrIndex, dict[Probe, set[str]], list[str]]:
    """A random typed graph (uniform endpoints and types) and the exact answer per probe."""
    rng = random.Random(seed)
    ids = [f"b{n:06d}" for n in range(n_nodes)]
    edges: set[tuple[str, str, EdgeType]] = set()
    while len(edges) < n_nodes * edges_per_node:
        edges.add((rng.choice(ids), rng.choice(ids), rng.choice(TYPES)))
    index = HrrIndex(dim)
    exact: dict[Probe, set[str]] = {}
    for src, dst, edge in sorted(edges):
        index.add_edge(src, dst, edge)
        exact.setdefault((src, edge, "out"), set()).add(dst)
        exact.setdefault((dst, edge, "in"), set()).add(src)
    return index, exact, ids


def answers(index: HrrIndex, probe: Probe, floor: float | None = None) -> set[str]:
    anchor, edge, way = probe
    return {i for i, _ in index.query(anchor, edge, way, k=1_000, floor=floor)}  # type: ignore[arg-type]


def score(
    index: HrrIndex, exact: dict[Probe, set[str]], probes: Iterable[Probe], floor: float | None
) -> tuple[float, float, float]:
    """Strict agreement, micro precision and micro recall over positive probes."""
    agree = tp = fp = fn = n = 0
    for probe in probes:
        got, truth = answers(index, probe, floor), exact[probe]
        n += 1
        agree += got == truth
        tp += len(got & truth)
        fp += len(got - truth)
        fn += len(truth - got)
    return agree / n, tp / max(tp + fp, 1), tp / max(tp + fn, 1)


def false_positive_rate(
    index: HrrIndex,
    exact: dict[Probe, set[str]],
    ids: list[str],
    rng: random.Random,
    floor: float | None,
) -> float:
    """Share of probes with no exact answer that return at least one id."""
    hits = n = 0
    while n < N_PROBES:
        probe = (rng.choice(ids), rng.choice(TYPES), rng.choice(["out", "in"]))
        if probe in exact:
            continue
        n += 1
        hits += bool(answers(index, probe, floor))
    return hits / n


def single_term_recovery(dim: int = DEFAULT_DIM, trials: int = 200) -> None:
    gaussian, unitary = [], []
    for t in range(trials):
        item = symbol_vector(f"item{t}", dim)
        for role, out in (
            (symbol_vector(f"role{t}", dim), gaussian),
            (role_vector(TYPES[t % len(TYPES)], "out", dim), unitary),
        ):
            decoded = unbind(bind(role, item), role)
            out.append(float(decoded @ item / np.linalg.norm(decoded)))
    print(f"== 1. single-term recovery, dim {dim}: cos(y, r # (r ⊛ y)) mean over {trials}")
    print(f"   gaussian role {np.mean(gaussian):.3f}   unitary role {np.mean(unitary):.3f}")


def grid() -> None:
    print(f"\n== 2. accuracy vs exact answer, {N_NODES} beliefs, default floor (alpha=0.001)")
    print(f"   {N_PROBES} positive + {N_PROBES} empty probes per cell")
    print("   dim  edges/node  terms/trace  floor  agreement  precision  recall  fp-rate")
    for dim in (128, 256, 512, 1024):
        for epn in (2, 4, 8, 16):
            index, exact, ids = build(dim, N_NODES, epn, seed=dim + epn)
            rng = random.Random(1)
            probes = rng.sample(sorted(exact), N_PROBES)
            agree, precision, recall = score(index, exact, probes, None)
            fpr = false_positive_rate(index, exact, ids, rng, None)
            floor = noise_floor(dim, len(index))
            print(
                f"   {dim:4d}  {epn:10d}  {2 * epn:11d}  {floor:.3f}  {agree:9.3f}"
                f"  {precision:9.3f}  {recall:6.3f}  {fpr:7.3f}"
            )


def capacity(dim: int = DEFAULT_DIM) -> None:
    print(f"\n== 3. capacity at dim {dim}: anchors with exactly k out-edges (random types)")
    print("      in a 2,000-belief background graph of 4 edges/node")
    print("   k-edges  probes  agreement  recall  precision")
    index, _, ids = build(dim, N_NODES, 4, seed=3)
    rng = random.Random(5)
    for k in (5, 10, 20, 30, 40):
        exact: dict[Probe, set[str]] = {}
        for a in range(40):
            anchor = f"anchor-{k}-{a}"
            for target in rng.sample(ids, k):
                edge = rng.choice(TYPES)
                index.add_edge(anchor, target, edge)
                exact.setdefault((anchor, edge, "out"), set()).add(target)
        agree, precision, recall = score(index, exact, sorted(exact), None)
        print(f"   {k:7d}  {len(exact):6d}  {agree:9.3f}  {recall:6.3f}  {precision:9.3f}")


def floor_sweep(dim: int = DEFAULT_DIM) -> None:
    print(f"\n== 4. false-positive budget alpha at dim {dim}, {N_NODES} beliefs")
    print("   edges/node  alpha   floor  agreement  recall  fp-rate")
    for epn in (4, 8):
        index, exact, ids = build(dim, N_NODES, epn, seed=9 + epn)
        rng = random.Random(2)
        probes = rng.sample(sorted(exact), N_PROBES)
        for alpha in (0.1, 0.01, 0.001):
            floor = noise_floor(dim, len(index), alpha)
            agree, _, recall = score(index, exact, probes, floor)
            fpr = false_positive_rate(index, exact, ids, random.Random(3), floor)
            print(
                f"   {epn:10d}  {alpha:5.3f}  {floor:.3f}  {agree:9.3f}  {recall:6.3f}  {fpr:7.3f}"
            )


def latency(dim: int = DEFAULT_DIM, edges_per_anchor: int = 20) -> None:
    print(f"\n== 5. scale at dim {dim}: 200 anchors with {edges_per_anchor} out-edges each among N")
    print("      items; one query = unbind + N x dim float32 mat-vec; default floor")
    print(
        "   items   floor  agreement  recall  add-item  add-edge  p50 ms  p99 ms"
        "  items MB  traces MB"
    )
    for n_items in (10_000, 100_000):
        index = HrrIndex(dim)
        t0 = time.perf_counter()
        for n in range(n_items):
            index.add_item(f"b{n:06d}")
        per_item = (time.perf_counter() - t0) / n_items
        rng = random.Random(4)
        anchors = [f"b{n:06d}" for n in rng.sample(range(n_items), 200)]
        exact: dict[Probe, set[str]] = {}
        t0 = time.perf_counter()
        for anchor in anchors:
            for n in rng.sample(range(n_items), edges_per_anchor):
                edge = rng.choice(TYPES)
                index.add_edge(anchor, f"b{n:06d}", edge)
                exact.setdefault((anchor, edge, "out"), set()).add(f"b{n:06d}")
        per_edge = (time.perf_counter() - t0) / (edges_per_anchor * len(anchors))
        probes = sorted(exact)
        timings = []
        for probe in probes:
            t0 = time.perf_counter()
            answers(index, probe)
            timings.append(time.perf_counter() - t0)
        p50, p99 = np.percentile(timings, [50, 99]) * 1e3
        agree, _, recall = score(index, exact, probes, None)
        mb = n_items * dim * 4 / 1e6
        print(
            f"   {n_items:6d}  {noise_floor(dim, len(index)):.3f}  {agree:9.3f}  {recall:6.3f}"
            f"  {per_item * 1e6:5.0f} us  {per_edge * 1e6:5.0f} us  {p50:6.2f}  {p99:6.2f}"
            f"  {mb:8.0f}  {mb:9.0f}"
        )


def main() -> None:
    started = time.perf_counter()
    single_term_recovery()
    grid()
    capacity()
    floor_sweep()
    latency()
    print(f"\ntotal {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
