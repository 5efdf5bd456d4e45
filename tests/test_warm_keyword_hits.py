"""``KeywordRanks.hits`` (credo/store/warm_keyword.py) turns the ranked rowids into
``keyword_beliefs``' answer: id -> score of each row, in rank order (the dict the engine
made of a ``KeywordHit`` per row, before the store gave it), and the row of each live one
(a stale entry, deleted_at set, is kept out of the rows, not of the hits). Checked against
the plain form, on drawn entries with and without stale ones."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from credo.store.fts import KeywordHit
from credo.store.warm_keyword import KeywordRanks

entry = st.tuples(
    st.text(min_size=1, max_size=3),  # id
    st.sampled_from([0, 1]),  # locked
    st.sampled_from([None, None, None, "2026-01-01", ""]),  # deleted_at ("" is not None)
    st.tuples(st.text(max_size=3), st.floats(allow_nan=False)),  # its CandidateRow
)


class _Mirror:
    """What ``hits`` reads of a mirror: its entries by rowid."""

    def __init__(self, entries: list[tuple[Any, ...]]) -> None:
        self._entries = entries

    def entries(self, rowids: list[int]) -> list[tuple[Any, ...]]:
        return [self._entries[r] for r in rowids]


class _Ranks(KeywordRanks):
    """The ranking given: rowids 0..n-1 and their scores, best first."""

    def __init__(self, scores: list[float]) -> None:
        super().__init__(None, None)  # type: ignore[arg-type]
        self._scores = scores

    def best(self, mirror: Any, terms: Any, weights: Any, limit: int) -> Any:
        return list(range(len(self._scores))), list(self._scores)


def _reference(entries: list[tuple[Any, ...]], scores: list[float]) -> Any:
    hits = dict([KeywordHit(e[0], s) for e, s in zip(entries, scores, strict=True)])
    rows = {}
    for e in entries:
        if e[2] is None:
            rows[e[0]] = e[3]
    return hits, rows


@given(st.lists(st.tuples(entry, st.floats()), max_size=60))
def test_hits_are_the_plain_form_s(drawn: list[tuple[tuple[Any, ...], float]]) -> None:
    entries = [e for e, _ in drawn]
    scores = [s for _, s in drawn]
    got = _Ranks(scores).hits(_Mirror(entries), ["x"], (1.0, 0.5, 1.0), len(entries))
    assert got is not None
    hits, rows = got
    want_hits, want_rows = _reference(entries, scores)
    assert type(hits) is dict
    got_pairs, want_pairs = list(hits.items()), list(want_hits.items())
    assert got_pairs == want_pairs or _nan_equal(got_pairs, want_pairs)
    assert list(rows.items()) == list(want_rows.items())


def _nan_equal(got: list[tuple[str, float]], want: list[tuple[str, float]]) -> bool:
    """The same hits, a NaN score the very same float object's twin."""
    return len(got) == len(want) and all(
        g[0] == w[0] and (g[1] == w[1] or (g[1] != g[1] and w[1] != w[1]))
        for g, w in zip(got, want, strict=True)
    )


def test_a_stale_entry_is_a_hit_but_not_a_row() -> None:
    live = ("a", 0, None, ("text a",))
    stale = ("b", 0, "2026-01-01", ("text b",))
    hits, rows = _Ranks([2.0, 1.0]).hits(_Mirror([live, stale]), ["x"], (1.0,), 2)  # type: ignore[misc]
    assert list(hits.items()) == [("a", 2.0), ("b", 1.0)]
    assert rows == {"a": ("text a",)}
