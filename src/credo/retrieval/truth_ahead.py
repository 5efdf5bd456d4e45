"""The truth graph of a store version made whole at warm index read (retrieval/ahead.py),
for a store whose every truth edge the index read (store/truth.py's
``read_truth_if_short``): every linked belief read and what each unlocked belief with a
CONTRADICTS edge brings when it is relevant (``TruthGraph.as_relevant``) worked out, so a
long-lived process's first pass over new queries meets no belief for the first time in the
truth step either. The same values a query makes as it meets them: each is a function of
the version's links alone (tests/test_truth_ahead.py holds results equal both ways)."""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Iterable, Mapping

from credo.retrieval.truth_graph import TruthGraph
from credo.store.short_ids import derived_ids
from credo.store.truth import End, TruthFacts, TruthLink, facts_of

# Linked beliefs past which the graph is left to the queries to fill: at 10k beliefs, 3,932
# linked ones took 50-60 ms CPU at index read (load ~8) and held 5-7 MiB, so this bound keeps
# the read's extra within ~0.15 s and ~17 MiB.
MAX_AHEAD = 10_000


def graph_ahead(
    links: Mapping[str, tuple[TruthLink, ...]], ends: Mapping[str, End]
) -> TruthGraph | None:
    """The version's truth graph with every linked belief read and every unlocked one with a
    CONTRADICTS edge worked out as relevant; None past ``MAX_AHEAD`` linked beliefs or with
    none. ``links``: every live truth edge by belief; ``ends``: every end's (locked, row,
    still), as ``read_every_truth_edge`` gives them."""
    if not links or len(links) > MAX_AHEAD:
        return None

    def fetch(ids: Iterable[str]) -> TruthFacts:  # (never asked: every linked one is read)
        return facts_of(links, ends, list(dict.fromkeys(ids)))

    graph = TruthGraph(fetch)
    every = list(links)
    graph.add(every, facts_of(links, ends, every))
    # (sorted: the same work whatever the order the links were read in)
    for belief_id in sorted(graph.against):
        if not ends[belief_id][0]:  # (a lock is never relevant: L0 places it)
            graph.as_relevant(belief_id)
    graph.whole = True
    graph.plain_ids = not derived_ids(every)  # (one scan of them all)
    return graph
