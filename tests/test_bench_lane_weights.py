"""bench/lane_weights.py: the real pipeline at given weights, and the out-of-fold ascent."""

from collections.abc import Sequence
from pathlib import Path

import pytest
from bench import lane_weights as lw
from bench.docs_match import make_rule
from bench.docs_multi import Loc, Query

from credo import Memory
from credo.config import Settings
from credo.retrieval.rank import DEFAULT_WEIGHTS, Weights

PAGES = {
    "install.md": "# Install\n\nInstall the tool with pip.\n\n## From source\n\n"
    "Clone it, then build.\n",
    "usage.md": "# Usage\n\nRun the tool on a folder.\n\n## Options\n\n"
    "The verbose flag prints more.\n",
}


def test_the_current_point_is_the_default_weights() -> None:
    w = lw.weights_of(lw.point(lw.CURRENT))
    assert dict(w.lanes) == dict(DEFAULT_WEIGHTS)
    assert w._replace(lanes=DEFAULT_WEIGHTS) == Weights()


def test_a_lane_knob_scales_its_weight_only() -> None:
    w = lw.weights_of(lw.point(lw.CURRENT | {"heat": 1.5, "tests": 0.3}))
    assert w.lanes["heat"] == pytest.approx(DEFAULT_WEIGHTS["heat"] * 1.5)
    assert w.tests == 0.3
    assert {k: v for k, v in w.lanes.items() if k != "heat"} == {
        k: v for k, v in DEFAULT_WEIGHTS.items() if k != "heat"
    }


def _loaded(tmp_path: Path) -> lw.Loaded:
    root = tmp_path / "tree"
    root.mkdir()
    for name, text in PAGES.items():
        (root / name).write_text(text, encoding="utf-8")
    memory = Memory(tmp_path / "credo.db", root=root, settings=Settings())
    memory.ingest(*sorted(root.iterdir()))
    queries = [
        Query("q1", "topical", "how do I install from source", ((Loc("install.md", 5, 7),),)),
        Query("q2", "topical", "verbose flag", ((Loc("usage.md", 5, 7),),)),
    ]
    texts = {name: text.splitlines() for name, text in PAGES.items()}
    match = make_rule("within", "docs", texts, (loc for q in queries for loc in q.labels))
    return lw.Loaded("test", "tree", "docs", memory, lw.options_of(memory), queries, match)


def test_rankings_are_memory_retrieves_at_the_current_weights(tmp_path: Path) -> None:
    loaded = _loaded(tmp_path)
    try:
        assert lw.check(loaded) == 0
        scores = loaded.score(Weights())
        assert scores["q1"]["section_mrr@10"] == 1.0
        assert scores["q2"]["section_mrr@10"] == 1.0
        # other weights run the same pipeline, deterministically
        other = lw.weights_of(lw.point(lw.CURRENT | {"line": 0.5, "floor": 0.08}))
        assert loaded.score(other) == loaded.score(other)
    finally:
        loaded.memory.close()


class _Fake(lw.Scorer):
    """Scores from a formula of the point: MRR rises with ``heat`` on corpus a only, doc
    nDCG falls with ``line`` on every corpus (a guard that must stop that move)."""

    def __init__(self) -> None:
        super().__init__([], lambda _: None)

    def per_corpus(self, p: lw.Point) -> dict[str, dict[str, float | None]]:
        k = dict(p)
        out: dict[str, dict[str, float | None]] = {}
        for name in ("a", "b"):
            mrr = 0.5 + (0.1 * k["heat"] if name == "a" else 0.0) + 0.1 * k["line"]
            out[name] = {
                "doc_ndcg@10": 0.9 - 0.1 * abs(k["line"] - 1.0),
                "section_hit@5": 0.5,
                "section_mrr@10": mrr,
                "all_groups@10": None,
            }
        return out


def test_ascent_keeps_guarded_gains_only() -> None:
    scorer = _Fake()
    got = dict(lw.ascend(scorer, ["a", "b"], sweeps=2))
    assert got["heat"] == 1.5  # MRR up, guards flat
    assert got["line"] == 1.0  # MRR up but doc nDCG down: refused
    assert dict(lw.ascend(scorer, ["b"], sweeps=2))["heat"] == 1.0  # no gain on b


@pytest.mark.parametrize("name", ["lark", "mypy", "griffe"])
def test_held_out_corpora_are_refused(name: str) -> None:
    with pytest.raises(SystemExit, match="held out"):
        lw.main(["--corpus", name])


class _Two(_Fake):
    def __init__(self) -> None:
        super().__init__()
        self.corpora: Sequence[lw.Loaded] = [
            lw.Loaded("s", n, "docs", None, None, [], lambda *_: False)  # type: ignore[arg-type]
            for n in ("a", "b")
        ]


def test_fit_reports_a_fold_per_corpus() -> None:
    fitted = lw.fit(_Two(), sweeps=1)
    assert fitted["folds"]["a"]["fit"] == "current"  # fitted on b: heat does nothing there
    assert fitted["folds"]["b"]["fit"] == "heat=1.5"


def test_around_moves_each_knob_alone() -> None:
    lines = list(lw.around(_Two()))
    assert len(lines) == 1 + sum(len(v) - 1 for v in lw.SPACE.values())
    heat = next(line for line in lines if line.startswith("heat=1.5 "))
    assert heat.endswith("1 / 0")  # a's MRR rose, b's did not move
    line = next(line for line in lines if line.startswith("line=1.5 "))
    assert line.endswith("2 / 0")
