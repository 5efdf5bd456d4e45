"""Invariants of supersession and contradiction over random stores (hypothesis): random
supersession DAGs and chains, random forget sets and locks, random contradictions, both
pack modes, any budget."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.types import RetrievalResult

N = 9


@st.composite
def stores(draw: st.DrawFn) -> dict[str, object]:
    """Beliefs b0..b8 (a higher index is newer), SUPERSEDES edges from newer to older (so
    never a cycle), CONTRADICTS edges, a forget set (soft or hard) and some locks."""
    pairs = [(i, j) for i in range(N) for j in range(i)]
    supersedes = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=8))
    contradicts = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=5))
    forgotten = draw(st.dictionaries(st.integers(0, N - 1), st.booleans(), max_size=4))
    locked = draw(st.sets(st.integers(0, N - 1), max_size=2))
    return {
        "supersedes": supersedes,
        "contradicts": [p for p in contradicts if p not in supersedes],
        "forgotten": forgotten,
        "locked": locked,
        "clustering": draw(st.booleans()),
        "budget": draw(st.integers(0, 160) | st.just(100_000)),
        "shuffle": draw(st.randoms(use_true_random=False)),
    }


def build(tmp: Path, spec: dict[str, object], *, shuffled: bool = False) -> Memory:
    memory = Memory(":memory:", root=tmp)
    rows: list[dict[str, object]] = [
        {
            "kind": "belief",
            "id": f"b{i}",
            "content": f"release note {i} about the deploy tool" + " detail" * (i % 3),
            "locked": i in spec["locked"],  # type: ignore[operator]
            "created_at": 1_700_000_000.0 + i,
        }
        for i in range(N)
    ]
    edges = [("SUPERSEDES", i, j) for i, j in spec["supersedes"]]  # type: ignore[attr-defined]
    edges += [("CONTRADICTS", i, j) for i, j in spec["contradicts"]]  # type: ignore[attr-defined]
    if shuffled:
        spec["shuffle"].shuffle(edges)  # type: ignore[attr-defined]
        spec["shuffle"].shuffle(rows)  # type: ignore[attr-defined]
    rows += [{"kind": "edge", "src": f"b{i}", "dst": f"b{j}", "type": t} for t, i, j in edges]
    memory.import_records(rows)
    for i, hard in sorted(spec["forgotten"].items()):  # type: ignore[attr-defined]
        memory.forget(f"b{i}", hard=hard)
    return memory


def retrieve(memory: Memory, spec: dict[str, object], **kw: object) -> RetrievalResult:
    return memory.retrieve(
        "deploy tool release",
        token_budget=spec["budget"],  # type: ignore[arg-type]
        use_intentional_clustering=spec["clustering"],  # type: ignore[arg-type]
        **kw,  # type: ignore[arg-type]
    )


def live_graph(spec: dict[str, object]) -> tuple[set[str], dict[str, set[str]], set[str]]:
    """The live beliefs, each one's live successors, and the current ones (in a DAG: those
    no live belief supersedes)."""
    live = {f"b{i}" for i in range(N) if i not in spec["forgotten"]}  # type: ignore[operator]
    successors: dict[str, set[str]] = {b: set() for b in live}
    for i, j in spec["supersedes"]:  # type: ignore[attr-defined]
        if f"b{i}" in live and f"b{j}" in live:
            successors[f"b{j}"].add(f"b{i}")
    return live, successors, {b for b in live if not successors[b]}


SETTINGS = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(spec=stores())
def test_no_packed_belief_is_superseded_and_every_current_one_is_eligible(
    tmp_path: Path, spec: dict[str, object]
) -> None:
    memory = build(tmp_path, spec)
    live, successors, current = live_graph(spec)
    result = retrieve(memory, spec)
    assert result.used_tokens <= result.token_budget
    for belief in result.beliefs:
        assert belief.id in live and not successors[belief.id], belief.id
    assert set(result.superseded) <= live - current
    # With room for everything, every current belief is packed: nothing is lost.
    roomy = retrieve(memory, {**spec, "budget": 100_000})
    assert set(roomy.ids) == current
    everything = retrieve(memory, {**spec, "budget": 100_000}, include_superseded=True)
    assert set(everything.ids) == live
    for belief in everything.beliefs:
        assert set(belief.superseded_by) == successors[belief.id]


@SETTINGS
@given(spec=stores())
def test_conflicts_are_packed_together_or_not_at_all(
    tmp_path: Path, spec: dict[str, object]
) -> None:
    memory = build(tmp_path, spec)
    _, _, current = live_graph(spec)
    locked = {f"b{i}" for i in spec["locked"]}  # type: ignore[attr-defined]
    result = retrieve(memory, spec)
    packed = set(result.ids)
    for i, j in spec["contradicts"]:  # type: ignore[attr-defined]
        a, b = f"b{i}", f"b{j}"
        if a in current and b in current and not ({a, b} & locked):
            assert (a in packed) == (b in packed), (a, b)
            if a in packed:
                by_id = {x.id: x for x in result.beliefs}
                assert b in by_id[a].conflicts and a in by_id[b].conflicts
    for belief in result.beliefs:  # a mark names only beliefs the agent can see
        for other in belief.conflicts:
            assert other in packed or other in result.locked_overflow


@SETTINGS
@given(spec=stores())
def test_the_result_depends_on_the_store_not_the_write_order(
    tmp_path: Path, spec: dict[str, object]
) -> None:
    first = retrieve(build(tmp_path, spec), spec, include_superseded=True)
    again = retrieve(build(tmp_path, spec, shuffled=True), spec, include_superseded=True)
    assert again == first


_IDS = st.one_of(
    st.from_regex(r"b[0-9a-f]{1,40}", fullmatch=True),  # derived: shortened past 8 characters
    st.text(min_size=1, max_size=12),  # given by the caller, any character ("&", "<", controls)
)


@given(st.lists(_IDS, min_size=1, max_size=5))
@settings(max_examples=300)
def test_the_marks_kept_for_conflicts_are_those_of_ids_shown_whole(ids: list[str]) -> None:
    """``truth_graph._plain_marks`` (one id made inline, more through its memo) gives what
    ``tokens.marks`` gives when no id is shortened, else None, asked once or twice."""
    from credo.retrieval.truth_graph import _plain_marks
    from credo.store.short_ids import shortenable
    from credo.tokens import marks

    conflicts = tuple(ids)
    expected = None if any(map(shortenable, conflicts)) else marks((), conflicts, ())
    assert _plain_marks(conflicts) == expected
    assert _plain_marks(conflicts) == expected
