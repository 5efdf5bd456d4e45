"""What shapes one retrieval (``Options``), the lanes on by default, and the checks of a
caller's options: the pipeline's settings, apart from the steps that read them
(retrieval/pipeline.py)."""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import math
from collections.abc import Mapping
from operator import is_
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple, cast

from credo.errors import InvalidInputError
from credo.retrieval import cluster as clustering
from credo.retrieval.compress import COMPRESS_MODES, Classes
from credo.retrieval.lanes import LANES
from credo.retrieval.lanes.bfs import DEFAULT_DECAY
from credo.retrieval.lanes.heat import DEFAULT_T
from credo.retrieval.rank import Weights
from credo.types import Belief

if TYPE_CHECKING:
    from credo.config import RetrievalSettings

# Lanes on by default: each earned its place in an ablation (docs/BENCHMARKS.md): LoCoMo's,
# and for title and latest bench/topics.py's blind topic questions.
DEFAULT_LANES: dict[str, bool] = {
    "bm25f": True,
    "dialog": True,
    "line": True,
    "defn": True,
    "heat": True,
    "bfs": True,
    "hrr": False,
    "doc": True,
    "session": True,
    "date": True,
    "speaker": True,
    "title": True,
    "latest": True,
}


class Options(NamedTuple):
    """Everything that shapes one retrieval; ``Memory.retrieve`` resolves the defaults."""

    token_budget: int = 2400
    lanes: Mapping[str, bool] = MappingProxyType(DEFAULT_LANES)
    use_intentional_clustering: bool = True  # as config.RetrievalSettings
    cluster_edge_weight_floor: float = clustering.DEFAULT_CLUSTER_EDGE_FLOOR
    cluster_diversity_target: int = clustering.DEFAULT_CLUSTER_DIVERSITY_TARGET
    with_doc_anchors: bool = False
    include_superseded: bool = False  # pack superseded beliefs too, marked (history)
    # The compress stage (retrieval/compress.py): "auto" cuts long candidates unless all of
    # them fit whole; "always" cuts them whatever the budget; "off" shows every one whole.
    compress: str = "auto"
    # What a retention class changes (compress.RETENTION_RULES); None: the default rules.
    retention_rules: frozenset[str] | None = None
    # The user-global store's locks (credo.agent.global_store), placed after the project's.
    global_locks: tuple[Belief, ...] = ()
    weights: Weights = Weights()
    keyword_limit: int = 50  # BM25F hits considered
    # And the best of the user's own beliefs (origin not document) that cut left out, added
    # (store/own_pool.py): as many as a hook's block shows (~10 at its default budget), so a
    # note that matches the question is never lost under a docs tree; a few more candidates
    # cost a query little (docs/BENCHMARKS.md § own pool).
    own_limit: int = 10
    graph_seeds: int = 20  # best BM25F hits that start the graph lanes
    graph_hops: int = 1  # BFS reach (a second hop added nothing on LoCoMo, cost 1.5 ms)
    heat_hops: int = 1  # the heat kernel's local graph: seeds and their direct neighbours
    graph_max_links: int = 600  # per hop: hubs cannot blow up a query
    graph_lane_limit: int = 30  # best beliefs a graph lane may add to the candidates
    heat_t: float = DEFAULT_T
    bfs_decay: float = DEFAULT_DECAY
    # Near-identical passages shown once, the others named on its line (retrieval/siblings.py).
    fold_siblings: bool = True


def with_default_lanes(lanes: Mapping[str, bool] | None, *, hrr: bool) -> Mapping[str, bool]:
    """The caller's lane switches over the store's HRR default (on exactly for stores that
    keep traces); anything but a mapping is passed on for ``check_options`` to refuse."""
    if lanes is None:
        return {"hrr": hrr}
    if not isinstance(lanes, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
        return cast(Mapping[str, bool], lanes)  # a caller's mistake, refused with its type
    return {"hrr": hrr, **lanes}


def check_options(options: Options) -> None:
    if (
        isinstance(options.token_budget, bool)
        or not isinstance(options.token_budget, int)
        or options.token_budget < 0
    ):
        raise InvalidInputError(f"token_budget {options.token_budget!r} must be an integer >= 0")
    # Untyped callers can pass anything: the types are checked at run time.
    if not isinstance(options.lanes, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise InvalidInputError(
            f"lanes must map lane names to True or False, got {type(options.lanes).__name__}"
        )
    unknown = sorted(set(options.lanes) - set(LANES), key=str)
    if unknown:
        raise InvalidInputError(f"unknown lane {unknown[0]!r}; lanes are {', '.join(LANES)}")
    for lane, on in options.lanes.items():
        if not isinstance(on, bool):  # pyright: ignore[reportUnnecessaryIsInstance]
            # "off" is truthy: it would leave the lane on
            raise InvalidInputError(f"lane {lane!r} must be True or False, got {on!r}")
    floor = options.cluster_edge_weight_floor
    if not isinstance(floor, int | float) or not math.isfinite(floor):
        raise InvalidInputError(f"cluster_edge_weight_floor {floor!r} must be a number")
    Classes.check_rules(options.retention_rules)
    if options.compress not in COMPRESS_MODES:
        raise InvalidInputError(
            f"compress {options.compress!r} must be one of {', '.join(COMPRESS_MODES)}"
        )
    target = options.cluster_diversity_target
    if isinstance(target, bool) or not isinstance(target, int) or target < 0:
        raise InvalidInputError(f"cluster_diversity_target {target!r} must be an integer >= 0")
    for name in ("use_intentional_clustering", "with_doc_anchors", "include_superseded"):
        if not isinstance(getattr(options, name), bool):  # "no" is truthy: it would turn it on
            raise InvalidInputError(f"{name} must be True or False, got {getattr(options, name)!r}")


# What ``LastOptions.made`` is asked first: the ``[retrieval]`` settings, whether the store
# keeps HRR traces, the global locks, then the token budget, lane switches and clustering.
Asked = tuple[
    "RetrievalSettings", bool, tuple[Belief, ...], int | None, Mapping[str, bool] | None, bool
]


class LastOptions:
    """``Memory.retrieve``'s ``Options``, made from its arguments and settings, and the last
    ones kept: a retrieve asked with the very same values (the common case: a hook's or a
    server's queries, all with the defaults) takes the same object again, checked once,
    where making and checking one costs ~8 us in a warm query's flow. The values are compared
    by identity, not equality: ``2400.0 == 2400`` and ``True == 1``, yet only the int
    passes ``check_options``; a caller's lane mapping (which may change between calls
    unseen) is never kept."""

    __slots__ = ("_last",)

    def __init__(self) -> None:
        # (what the last options were made from, and them: one attribute, set at once)
        self._last: tuple[tuple[object, ...], Options] | None = None

    def made(
        self,
        asked: "Asked",
        cluster: tuple[float | None, int | None],
        shown: tuple[bool, bool, str],
    ) -> tuple[Options, bool]:
        """The options, and whether they are checked (``check_options``) already. ``asked``:
        the ``[retrieval]`` settings, whether the store keeps HRR traces, the global locks,
        the token budget, lane switches and clustering as the caller gave them (None: the
        settings'); ``cluster``: the edge floor and diversity target as given; ``shown``:
        doc anchors, superseded beliefs, the compress mode."""
        made_from = (*asked, *cluster, *shown)
        last = self._last
        if last is not None and all(map(is_, made_from, last[0])):
            return last[1], True
        settings, hrr, found, budget, lanes, clustering_on = asked
        floor, target = cluster
        options = Options(
            token_budget=settings.token_budget if budget is None else budget,
            lanes=with_default_lanes(lanes, hrr=hrr),
            use_intentional_clustering=clustering_on,
            cluster_edge_weight_floor=settings.cluster_edge_weight_floor
            if floor is None
            else floor,
            cluster_diversity_target=settings.cluster_diversity_target
            if target is None
            else target,
            with_doc_anchors=shown[0],
            include_superseded=shown[1],
            compress=shown[2],
            global_locks=found,
        )
        if lanes is None:  # (the caller's mapping is never kept: see the class)
            check_options(options)  # (raises: nothing kept)
            self._last = (made_from, options)
            return options, True
        return options, False
