"""``candidate_rows``: the four dicts ``_rank`` read with four comprehensions, in one pass."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.retrieval.candidate_rows import Texts, candidate_rows
from credo.store.fts import CandidateRow

IDS = [f"b{i}" for i in range(12)]

_row = st.tuples(
    st.sampled_from(["a", "Name: b", ""]),
    st.sampled_from([1.0, 2.0, 0.5, 3.25]),
    st.sampled_from([1.0, 0.0, 4.0, 1e-9]),
    st.sampled_from([None, "s1", "s2", ""]),
    st.sampled_from([0.0, 1.5e9]),
)


def _reference(
    candidates: list[str], known: dict[str, CandidateRow | None]
) -> tuple[dict[str, CandidateRow], dict[str, float], dict[str, str], dict[str, str]]:
    """The comprehensions ``_rank`` held before (retrieval/pipeline.py; the texts were
    ``_Texts(rows)``'s)."""
    rows = {i: row for i in candidates if (row := known.get(i)) is not None}
    sessions = {i: row[3] for i, row in rows.items() if row[3] is not None}
    confidence = {i: row[1] / (row[1] + row[2]) for i, row in rows.items()}
    texts = {i: row[0] for i, row in rows.items()}
    return rows, confidence, sessions, texts


@settings(max_examples=300, deadline=None)
@given(
    candidates=st.lists(st.sampled_from(IDS), unique=True, max_size=12),
    known=st.dictionaries(st.sampled_from(IDS), st.none() | _row, max_size=12),
)
def test_candidate_rows_are_the_four_comprehensions(
    candidates: list[str], known: dict[str, CandidateRow | None]
) -> None:
    """Same keys in the same order (the candidates'), same rows, confidences, sessions and
    texts (a session "" is one; a locked belief's None row and a missing one are left out)."""
    got = candidate_rows(candidates, known)
    want = _reference(candidates, known)
    assert [list(d.items()) for d in got] == [list(d.items()) for d in want]
    assert list(got[0]) == [i for i in candidates if known.get(i) is not None]
    assert type(got[3]) is Texts and got[3].far == {}


def test_candidate_rows_of_a_store_of_notes() -> None:
    known = {"b2": ("x", 1.0, 1.0, None, 0.0), "b1": None, "b0": ("y", 3.0, 1.0, "s", 0.0)}
    rows, confidence, sessions, texts = candidate_rows(["b0", "b1", "b2", "b9"], known)
    assert list(rows) == ["b0", "b2"]
    assert confidence == {"b0": 0.75, "b2": 0.5}
    assert sessions == {"b0": "s"}
    assert texts == {"b0": "y", "b2": "x"}


def test_texts_reads_an_other_of_a_group_aside_from_far_once() -> None:
    """An id not among the candidates is read from ``far`` (the truth graph's rows) on
    first lookup and kept; one in neither is a KeyError."""
    texts = candidate_rows(["b0"], {"b0": ("y", 1.0, 1.0, None, 0.0)})[3]
    texts.far = {"b5": ("far text", 1.0, 1.0, None, 0.0)}
    assert texts["b5"] == "far text"
    assert dict(texts) == {"b0": "y", "b5": "far text"}
    texts.far = {}
    assert texts["b5"] == "far text"  # (kept: far is not read again)
    with pytest.raises(KeyError):
        texts["b9"]
