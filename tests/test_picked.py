"""``standing.picked`` against its plain form (hypothesis): the packed beliefs in rank order
with their standing, each group kept aside expanded after its leader, whether the ranking's
ids are given (the pipeline's ``filled``) or read from each ``Ranked``."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from credo.retrieval.rank import ID, SCORE, brought_along
from credo.retrieval.standing import NO_STANDING, picked

IDS = [f"b{i}" for i in range(8)]
STANDINGS = [((), ("o0",), ()), (("old",), (), ()), ((), ("o1", "o2"), ())]


def plain(ranked, chosen, standing, tails, texts, clusters):  # type: ignore[no-untyped-def]
    """``picked`` written out: a loop over the whole ranking, by name."""
    out = []
    for s in ranked:
        belief_id, score = s[ID], s[SCORE]
        if belief_id not in chosen:
            continue
        info = tails.get(belief_id)
        if info is None:
            out.append((s, standing.get(belief_id, NO_STANDING)))
            continue
        out.append((s, standing.get(belief_id) or info[0]))
        if texts is not None:
            texts.update(info[6])
        cluster = clusters.get(belief_id) if clusters else None
        for m in info[3]:
            said = standing.get(m) or info[11] if info[7] else info[11]
            out.append((brought_along(m, score), said))
            if clusters:
                clusters[m] = cluster
    return out


@st.composite
def inputs(draw: st.DrawFn) -> tuple[object, ...]:
    ids = draw(st.permutations(IDS))[: draw(st.integers(0, len(IDS)))]
    scores = sorted(draw(st.lists(st.floats(0, 2), min_size=len(ids), max_size=len(ids))))
    ranked = [(i, x, {"bm25f": x}) for i, x in zip(ids, reversed(scores), strict=True)]  # Ranked
    chosen = set(draw(st.lists(st.sampled_from(IDS), max_size=8)))
    standing = draw(
        st.dictionaries(st.sampled_from([*IDS, "o00", "o10"]), st.sampled_from(STANDINGS))
    )
    tails = {}
    for n, leader in enumerate(draw(st.lists(st.sampled_from(IDS), unique=True, max_size=4))):
        rest = tuple(f"o{n}{k}" for k in range(draw(st.integers(0, 3))))
        info = [None] * 14
        info[0] = draw(st.sampled_from(STANDINGS))
        info[3] = rest
        info[6] = {m: f"text of {m}" for m in rest}
        info[7] = draw(st.booleans())  # (an other supersedes a belief: its standing is read)
        info[11] = draw(st.sampled_from(STANDINGS))
        tails[leader] = tuple(info)
    texts = draw(st.none() | st.just({"b0": "t"}))
    clusters = draw(st.none() | st.dictionaries(st.sampled_from(IDS), st.integers(0, 3)))
    return ranked, chosen, standing, tails, texts, clusters


@settings(max_examples=400, deadline=None)
@given(inputs(), st.booleans())
def test_picked_equals_its_plain_form(args: tuple[object, ...], with_ids: bool) -> None:
    ranked, chosen, standing, tails, texts, clusters = args
    want_texts = None if texts is None else dict(texts)  # type: ignore[call-overload]
    want_clusters = None if clusters is None else dict(clusters)  # type: ignore[call-overload]
    want = plain(ranked, chosen, standing, tails, want_texts, want_clusters)
    ids = [s[ID] for s in ranked] if with_ids else None  # type: ignore[index]
    got = picked(ranked, chosen, standing, tails, texts, clusters, ids)  # type: ignore[arg-type]
    assert repr(got) == repr(want)
    assert all(a[0] is b[0] for a, b in zip(got, want, strict=True) if a[0][ID] in chosen)
    assert all(a[1] is b[1] for a, b in zip(got, want, strict=True))  # (the same standing)
    assert repr(texts) == repr(want_texts)
    assert repr(clusters) == repr(want_clusters)
