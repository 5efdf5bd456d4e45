"""A belief with no trail is its own unit (retrieval/own_unit.py): in the lighter unit lane
that scored a candidate, it takes the lightest unit lane's weight times its keyword share,
and nothing else moves."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.own_unit import with_own_units
from credo.retrieval.rank import DEFAULT_WEIGHTS, Weights, as_scored, compose

# Four sibling methods whose parameter lists repeat "default" and "timeout" (httpx's
# Client.get/head/delete/options, cut down), and the class that documents the parameter.
SIBLINGS = '''\
USE_CLIENT_DEFAULT = object()


class Client:
    """An HTTP client."""

''' + "".join(
    f'''
    def {name}(self, url: URL | str, *, params: QueryParamTypes | None = None,
               headers: HeaderTypes | None = None, cookies: CookieTypes | None = None,
               auth: AuthTypes | UseClientDefault = USE_CLIENT_DEFAULT,
               follow_redirects: bool | UseClientDefault = USE_CLIENT_DEFAULT,
               timeout: TimeoutTypes | UseClientDefault = USE_CLIENT_DEFAULT,
               extensions: RequestExtensions | None = None) -> Response:
        """Send a `{name.upper()}` request."""
        return self.request(
            "{name.upper()}", url, params=params, headers=headers, cookies=cookies,
            auth=auth, follow_redirects=follow_redirects, timeout=timeout,
            extensions=extensions,
        )
'''
    for name in ("get", "head", "delete", "options")
)

NOTE = "No, the default timeout is 5 seconds, not 10"


def test_a_note_is_not_outranked_by_signatures_that_only_repeat_its_words(
    tmp_path: Path,
) -> None:
    """Fails before own_unit.py: each signature took the definition lane's part on top of a
    keyword score below the note's, and the note ranked under all four."""
    project = tmp_path / "p"
    project.mkdir()
    (project / "client.py").write_text(SIBLINGS)
    with Memory(tmp_path / "m.db", root=project) as memory:
        memory.ingest(project)
        note = memory.remember(NOTE)
        result = memory.retrieve(
            "what is the default timeout", token_budget=100_000, use_intentional_clustering=False
        )
    ids = result.ids
    signatures = [b.id for b in result.beliefs if b.content.startswith("def ")]
    assert signatures, "the signatures are candidates"
    assert ids.index(note) < min(map(ids.index, signatures))
    parts = next(b.lanes for b in result.beliefs if b.id == note)
    assert parts["defn"] > 0  # its own unit's part, listed as the lane's


def test_a_note_among_notes_alone_ranks_as_before(tmp_path: Path) -> None:
    """No unit lane scored a candidate (no passages): nothing is added."""
    with Memory(tmp_path / "m.db") as memory:
        memory.remember(NOTE)
        memory.remember("The read timeout of our services is 30 seconds")
        result = memory.retrieve("what is the default timeout", token_budget=100_000)
    assert result.beliefs
    assert all(set(b.lanes) <= {"bm25f", "heat", "bfs", "posterior"} for b in result.beliefs)


def test_the_lighter_unit_lane_that_scored_a_candidate_takes_the_share() -> None:
    lanes = {
        "bm25f": {"note": 2.0, "code": 4.0, "doc": 1.0},
        "defn": {"code": 6.0},
        "line": {"doc": 3.0},
    }
    trails = {"code": "a.py › f L1-L2", "doc": "a.md › A L1-L2"}
    out = with_own_units(lanes, ["note", "code", "doc"], trails, DEFAULT_WEIGHTS)
    assert out["defn"] == {"code": 6.0, "note": 3.0}  # half the best keyword: half the best
    assert out["line"] == lanes["line"] and out["bm25f"] == lanes["bm25f"]
    assert lanes["defn"] == {"code": 6.0}  # never changed in place
    only_line = {"bm25f": lanes["bm25f"], "line": lanes["line"]}
    # (the line lane alone: the part is still the definition lane's 0.3 times the share)
    alone = with_own_units(only_line, ["note", "code", "doc"], trails, DEFAULT_WEIGHTS)["line"]
    assert alone["doc"] == 3.0 and alone["note"] == pytest.approx(1.5 * 0.3 / 0.5)
    assert with_own_units({"bm25f": lanes["bm25f"]}, ["note"], {}, DEFAULT_WEIGHTS) == {
        "bm25f": lanes["bm25f"]
    }


_score = st.floats(min_value=0.01, max_value=50, allow_nan=False)
_ids = st.sampled_from([f"b{i}" for i in range(8)])


@settings(max_examples=200, deadline=None)
@given(
    keyword=st.dictionaries(_ids, _score, min_size=1),
    defn=st.dictionaries(_ids, _score),
    line=st.dictionaries(_ids, _score),
    passages=st.sets(_ids),
)
def test_only_notes_gain_and_never_past_the_lane_s_weight_or_their_keyword_share(
    keyword: dict[str, float],
    defn: dict[str, float],
    line: dict[str, float],
    passages: set[str],
) -> None:
    """Every passage's parts are what they were; a note's total rises by at most the
    definition lane's weight (the lightest unit lane's) times its keyword share; the ranking of the
    passages among themselves holds."""
    # The unit lanes score passages only (as their lanes do).
    lanes = {
        "bm25f": keyword,
        "defn": {k: v for k, v in defn.items() if k in passages},
        "line": {k: v for k, v in line.items() if k in passages},
    }
    candidates = {i: 0.5 for i in set(keyword) | set(lanes["defn"]) | set(lanes["line"])}
    trails = {i: f"{i}.py L1-L2" for i in passages if i in candidates}  # (as the pipeline's)
    weights = Weights()
    before = {s.id: s for s in as_scored(compose(lanes, candidates, weights))}
    after = {
        s.id: s
        for s in as_scored(
            compose(with_own_units(lanes, candidates, trails, weights.lanes), candidates, weights)
        )
    }
    best_keyword = max(keyword.values())
    active = [weights.lanes[n] for n in ("defn", "line") if lanes[n]]
    for belief_id, scored in after.items():
        old = before.get(belief_id)
        if belief_id in passages:
            assert old is not None and scored.lanes == old.lanes
        elif old is not None:
            gain = scored.score - old.score
            share = keyword.get(belief_id, 0.0) / best_keyword
            bound = weights.lanes["defn"] * share if active else 0.0
            assert -1e-9 <= gain <= bound + 1e-8
