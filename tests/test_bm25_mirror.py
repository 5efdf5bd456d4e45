"""The in-memory mirror of FTS5's bm25 gives exactly FTS5's answers, and is kept, built and
dropped as its policy says (``credo.store.bm25_mirror``)."""

from __future__ import annotations

import math
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.store import Store, bm25_mirror, bm25_policy
from credo.store import tokenizer as index_tokenizer
from credo.store.bm25_mirror import _varints
from credo.store.bm25_policy import ESTIMATED_BUILD_SECONDS, MirrorPolicy
from credo.store.fts import KeywordReads, query_terms

WORDS = "alpha beta gamma delta running runner runs café cafe naïve über Straße x1 42".split()


def _policy(store: Store) -> MirrorPolicy:
    return store._mirror_policy()


def _force_mirror(store: Store, terms: list[str]) -> None:
    """Build the mirror now, whatever it cost so far and however small the index."""
    policy = _policy(store)
    store.keyword_beliefs(terms or ["alpha"], limit=5)  # records the version
    policy.build_now()
    store.keyword_beliefs(terms or ["alpha"], limit=5)
    assert policy.mirror is not None and not policy.disabled


def _both(
    store: Store, terms: list[str], limit: int, weights: tuple[float, float] = (1.0, 0.5)
) -> tuple[object, object]:
    """keyword_beliefs answered by FTS5, then by the mirror."""
    policy = _policy(store)
    policy.disabled = True
    by_fts = store.keyword_beliefs(
        terms, limit=limit, content_weight=weights[0], anchor_weight=weights[1]
    )
    policy.disabled = False
    by_mirror = store.keyword_beliefs(
        terms, limit=limit, content_weight=weights[0], anchor_weight=weights[1]
    )
    # A mirror that differed from FTS5 would have handed over FTS5's answer and turned
    # itself off: the comparison above only means something while it is on.
    assert policy.mirror is not None and not policy.disabled
    return by_fts, by_mirror


def _two_mirrors(
    factory: pytest.TempPathFactory, texts: list[str], anchors: dict[int, str]
) -> tuple[Memory, index_tokenizer.Tokenizer, bm25_mirror.Bm25Mirror, bm25_mirror.Bm25Mirror]:
    """A store of ``texts`` (``anchors`` as ``_memory`` takes them, those past the last
    belief's predecessor left out) and two fresh mirrors of its index: one to read each
    term alone, one to read every term at once."""
    folder = factory.mktemp("mirrors")
    memory = _memory(folder, texts, {k: v for k, v in anchors.items() if k < len(texts) - 1})
    conn = memory.store.conn
    tokenizer = index_tokenizer.Tokenizer(index_tokenizer.tokenize_option(conn) or "")
    alone = bm25_mirror.Bm25Mirror(conn, tokenizer, (0, 0))
    together = bm25_mirror.Bm25Mirror(conn, tokenizer, (0, 0))
    return memory, tokenizer, alone, together


def _memory(folder: Path, texts: list[str], anchors: dict[int, str] | None = None) -> Memory:
    """Beliefs b000... with ``texts``; ``anchors`` fills the index's second column: belief
    i gets an incoming edge (from its successor) with that anchor text."""
    memory = Memory(folder / "m.db", root=folder)
    rows: list[dict[str, object]] = [
        {"kind": "belief", "id": f"b{i:03d}", "content": text} for i, text in enumerate(texts)
    ]
    memory.import_records(rows)
    for i, text in (anchors or {}).items():
        if i + 1 < len(texts):
            memory.relate(f"b{i + 1:03d}", f"b{i:03d}", "CITES", anchor_text=text)
    return memory


_texts = st.lists(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join),
    min_size=1,
    max_size=40,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    texts=_texts,
    queries=st.lists(
        st.lists(st.sampled_from([*WORDS, "absent", "x1_y2"]), min_size=1, max_size=5),
        min_size=1,
        max_size=6,
    ),
    limit=st.sampled_from([1, 3, 10, 50]),
    weights=st.sampled_from([(1.0, 0.5), (1.0, 1.0), (0.3, 1.7), (2.0, 0.1)]),
    locked=st.sets(st.integers(0, 39), max_size=6),
)
def test_the_mirror_answers_exactly_as_fts5(
    tmp_path_factory: pytest.TempPathFactory,
    texts: list[str],
    queries: list[list[str]],
    limit: int,
    weights: tuple[float, float],
    locked: set[int],
) -> None:
    folder = tmp_path_factory.mktemp("mirror")
    memory = _memory(folder, texts, anchors={0: "alpha guide alpha", 1: "gamma runs", 2: "Straße"})
    for i in sorted(locked):
        if i < len(texts):
            memory.lock(f"b{i:03d}")
    store = memory.store
    _force_mirror(store, queries[0])
    for words in queries:
        terms = query_terms(" ".join(words))
        by_fts, by_mirror = _both(store, terms, limit, weights)
        assert by_mirror == by_fts
    memory.close()


def test_scores_are_the_same_doubles_on_a_larger_store(tmp_path: Path) -> None:
    rng = random.Random(5)
    vocabulary = [f"w{i}" for i in range(300)]
    texts = [
        " ".join(rng.choice(vocabulary[: rng.choice([20, 300])]) for _ in range(rng.randint(3, 40)))
        for _ in range(1500)
    ]
    memory = _memory(
        tmp_path, texts, anchors={i: f"w{i % 300} w{i % 11}" for i in range(0, 1500, 7)}
    )
    store = memory.store
    _force_mirror(store, ["w1"])
    for _ in range(80):
        terms = rng.sample(vocabulary, rng.randint(1, 6))
        (fts_hits, fts_rows), (hits, rows) = _both(store, terms, 50)
        assert [(i, s.hex()) for i, s in hits.items()] == [
            (i, s.hex()) for i, s in fts_hits.items()
        ]
        assert list(rows.items()) == list(fts_rows.items())


def test_a_term_of_several_tokens_goes_to_fts5(tmp_path: Path) -> None:
    memory = _memory(tmp_path, ["x1 y2 together", "x1 alone", "y2 alone"])
    store = memory.store
    _force_mirror(store, ["x1"])
    mirror = _policy(store).mirror
    assert mirror is not None
    assert mirror.top(["x1_y2"], (1.0, 0.5), 10) is None  # a phrase: FTS5's to answer
    by_fts, by_mirror = _both(store, ["x1_y2", "alone"], 10)
    assert _ordered(by_mirror) == _ordered(by_fts)
    hits = by_mirror[0]
    assert isinstance(hits, dict) and hits and all(type(s) is float for s in hits.values())


def test_a_write_drops_the_mirror_and_the_next_answer_sees_it(tmp_path: Path) -> None:
    memory = _memory(tmp_path, ["alpha beta", "beta gamma", "gamma delta"])
    store = memory.store
    _force_mirror(store, ["beta"])
    new = memory.remember("beta beta beta everywhere")
    assert _policy(store).current(store.conn) is None  # the version moved
    hits, _ = store.keyword_beliefs(["beta"], limit=5)
    assert next(iter(hits)) == new
    # forgetting is a write too
    _force_mirror(store, ["beta"])
    memory.forget(new)
    hits, _ = store.keyword_beliefs(["beta"], limit=5)
    assert new not in hits


def test_another_connection_s_commit_drops_the_mirror(tmp_path: Path) -> None:
    memory = _memory(tmp_path, ["alpha beta", "beta gamma"])
    store = memory.store
    _force_mirror(store, ["beta"])
    with Memory(tmp_path / "m.db", root=tmp_path) as other:
        added = other.remember("beta delta beta")
    hits, _ = store.keyword_beliefs(["beta"], limit=5)
    assert added in hits
    assert _policy(store).mirror is None


def test_inside_a_transaction_fts5_answers(tmp_path: Path) -> None:
    memory = _memory(tmp_path, ["alpha beta", "beta gamma"])
    store = memory.store
    _force_mirror(store, ["beta"])
    with store.transaction():
        assert _policy(store).current(store.conn) is None
        store.conn.execute("UPDATE beliefs SET content = 'beta beta beta' WHERE id = 'b000'")
        hits, _ = store.keyword_beliefs(["beta"], limit=1)
        assert next(iter(hits)) == "b000"  # the uncommitted write is seen


def test_the_policy_builds_only_once_fts5_cost_what_a_build_costs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bm25_policy, "MIN_ROWS", 10)
    memory = _memory(tmp_path, ["alpha beta", "beta gamma"] * 20)
    store = memory.store
    policy = _policy(store)
    store.keyword_beliefs(["beta"], limit=5)
    assert policy.mirror is None and policy.spent > 0  # a first query never builds
    policy.spent = ESTIMATED_BUILD_SECONDS  # as if many queries had run: now priced
    price = policy._price(store.conn)
    assert price > ESTIMATED_BUILD_SECONDS
    policy.spent = price - 1e-6
    store.keyword_beliefs(["beta"], limit=5)  # not yet: it answers, and is charged
    assert policy.mirror is None and policy.spent >= price
    store.keyword_beliefs(["beta"], limit=5)
    assert policy.mirror is not None and policy.build_seconds is not None
    # a write starts the count again, and the next price is the build's measured cost
    memory.remember("delta")
    store.keyword_beliefs(["beta"], limit=5)
    assert policy.mirror is None and policy.spent > 0
    policy.spent = ESTIMATED_BUILD_SECONDS
    assert policy._price(store.conn) == policy.build_seconds


def test_a_mirror_that_differs_from_fts5_is_turned_off(tmp_path: Path) -> None:
    memory = _memory(tmp_path, ["alpha beta", "beta gamma", "gamma"])
    store = memory.store
    policy = _policy(store)
    store.keyword_beliefs(["beta"], limit=5)
    policy.build_now()
    original = type(policy)._build

    def skewed(self: MirrorPolicy, conn: sqlite3.Connection) -> object:
        mirror = original(self, conn)
        assert mirror is not None
        mirror.avgdl *= 1.000001  # as if this platform's arithmetic differed
        return mirror

    type(policy)._build = skewed  # type: ignore[method-assign]
    try:
        hits, _ = store.keyword_beliefs(["beta"], limit=5)  # FTS5's answer, handed over
    finally:
        type(policy)._build = original  # type: ignore[method-assign]
    assert policy.disabled and policy.mirror is None and policy.tokenizer is None
    assert list(store.keyword_beliefs(["beta"], limit=5)[0].items()) == list(hits.items())


def test_retrieve_is_byte_identical_with_and_without_the_mirror(tmp_path: Path) -> None:
    rng = random.Random(9)
    vocabulary = [f"t{i}" for i in range(120)]
    texts = [
        " ".join(rng.choice(vocabulary) for _ in range(rng.randint(4, 15))) for _ in range(400)
    ]
    memory = _memory(tmp_path, texts)
    pairs = {(rng.randrange(400), rng.randrange(400)) for _ in range(300)}
    for a, b in sorted(pairs):
        if a != b:
            memory.relate(f"b{a:03d}", f"b{b:03d}", "SUPPORTS")
    queries = [" ".join(rng.sample(vocabulary, 3)) for _ in range(30)]
    plain = [repr(memory.retrieve(q)) for q in queries]
    _force_mirror(memory.store, ["t1"])
    assert [repr(memory.retrieve(q)) for q in queries] == plain


def test_varints() -> None:
    assert _varints(bytes([5, 0x81, 0x00, 0x7F])) == [5, 128, 127]
    assert _varints(bytes([0xFF] * 8 + [0x01])) == [(2**56 - 1) << 8 | 1]


def test_closing_the_store_closes_the_tokenizer(tmp_path: Path) -> None:
    memory = _memory(tmp_path, ["alpha beta", "beta gamma"])
    _force_mirror(memory.store, ["beta"])
    policy = _policy(memory.store)
    tokenizer = policy.tokenizer
    assert tokenizer is not None
    memory.close()
    assert policy.mirror is None and policy.tokenizer is None
    with pytest.raises(sqlite3.ProgrammingError):
        tokenizer.stems(["delta"])  # its connection is closed


def test_a_small_index_never_builds_a_mirror(tmp_path: Path) -> None:
    memory = _memory(tmp_path, ["alpha beta", "beta gamma"] * 20)
    store = memory.store
    policy = _policy(store)
    store.keyword_beliefs(["beta"], limit=5)
    policy.spent = 1e6  # FTS5 has cost more than any build would
    store.keyword_beliefs(["beta"], limit=5)
    assert policy.mirror is None and policy._price(store.conn) == math.inf


@settings(max_examples=200, deadline=None)
@given(
    counts=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), min_size=1, max_size=30),
    weights=st.sampled_from([(1.0, 0.5), (0.3, 1.7), (2.0,), (0.1, 0.1), (1e-3, 3.0), (7.0, 0.25)]),
)
def test_phrase_frequencies_are_summed_as_fts5_sums_them(
    counts: list[tuple[int, int]], weights: tuple[float, ...]
) -> None:
    """A column's weight added once per instance, in (column, offset) order, as
    fts5Bm25Function does; the product shortcut only where it gives the same double."""
    import numpy as np

    postings = bm25_mirror.Postings(
        np.arange(len(counts), dtype=np.int64), np.array(counts, dtype=np.int64)
    )
    want = []
    for per_column in counts:
        total = 0.0
        for column, count in enumerate(per_column):
            for _ in range(count):
                total += weights[column] if column < len(weights) else 1.0
        want.append(total)
    assert postings.frequencies(weights).tolist() == want


def _fts5_answer(store: Store, terms: list[str], limit: int = 10) -> object:
    """FTS5's own answer (the mirror off), ``_ordered``."""
    policy = _policy(store)
    disabled, policy.disabled = policy.disabled, True
    try:
        return _ordered(store.keyword_beliefs(terms, limit=limit))
    finally:
        policy.disabled = disabled


def _ordered(answer: tuple[dict[str, float], dict[str, Any]] | None) -> object:
    """``keyword_beliefs``' answer as lists of (id, value) pairs: two dicts compare equal
    whatever their order, and the hits' order is their rank."""
    if answer is None:
        return None
    hits, rows = answer
    return list(hits.items()), list(rows.items())


def test_a_commit_during_a_build_leaves_no_stale_mirror(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another connection commits while the mirror reads the row sizes: the mirror it
    read belongs to a version already gone and is not kept (the same holds when another
    thread of this process writes)."""
    memory = _memory(tmp_path, ["alpha beta", "beta gamma", "gamma delta"] * 5)
    store = memory.store
    policy = _policy(store)
    store.keyword_beliefs(["beta"], limit=5)
    policy.build_now()
    original = bm25_mirror.Bm25Mirror.__init__

    def commit_meanwhile(self: object, *args: object) -> None:
        original(self, *args)  # type: ignore[arg-type]
        with Memory(tmp_path / "m.db", root=tmp_path) as other:
            other.remember("beta beta beta beta")

    monkeypatch.setattr(bm25_mirror.Bm25Mirror, "__init__", commit_meanwhile)
    answer = store.keyword_beliefs(["beta"], limit=5)
    monkeypatch.undo()
    assert policy.mirror is None
    assert _ordered(answer) == _fts5_answer(store, ["beta"], 5)
    scores = list(answer[0].values())
    assert len(scores) == 5 and scores[0] > scores[-1]


def test_a_commit_while_the_mirror_reads_hands_the_query_to_fts5(tmp_path: Path) -> None:
    memory = _memory(tmp_path, ["alpha beta", "beta gamma", "gamma delta"] * 5)
    store = memory.store
    _force_mirror(store, ["gamma"])
    mirror = _policy(store).mirror
    assert mirror is not None
    original = mirror.beliefs

    def commit_meanwhile(rowids: list[int]) -> dict[int, tuple[object, ...]]:
        with Memory(tmp_path / "m.db", root=tmp_path) as other:
            other.remember("beta again")
        return original(rowids)

    mirror.beliefs = commit_meanwhile  # type: ignore[method-assign]
    answer = store.keyword_beliefs(["beta"], limit=50)
    assert _ordered(answer) == _fts5_answer(store, ["beta"], 50)
    assert any(row[0] == "beta again" for row in answer[1].values())  # the new belief is seen


def test_only_an_answer_with_hits_proves_a_mirror(tmp_path: Path) -> None:
    memory = _memory(tmp_path, ["alpha beta", "beta gamma"])
    store = memory.store
    store.keyword_beliefs(["beta"], limit=5)
    _policy(store).build_now()
    store.keyword_beliefs(["absent"], limit=5)  # builds it, and agrees on nothing
    mirror = _policy(store).mirror
    assert mirror is not None and not mirror.checked
    store.keyword_beliefs(["beta"], limit=5)
    assert mirror.checked


def test_a_mirror_that_cannot_be_built_leaves_fts5_answering(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = _memory(tmp_path, ["alpha beta", "beta gamma"])
    store = memory.store
    want = _fts5_answer(store, ["beta"], 5)

    def unable(self: object, option: str) -> None:
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(index_tokenizer.Tokenizer, "__init__", unable)
    store.keyword_beliefs(["beta"], limit=5)
    _policy(store).build_now()
    assert _ordered(store.keyword_beliefs(["beta"], limit=5)) == want
    assert _policy(store).disabled
    assert _ordered(store.keyword_beliefs(["beta"], limit=5)) == want


def test_a_stale_version_seen_by_retrieve_builds_nothing(tmp_path: Path) -> None:
    """retrieve's lock check reads the version; a write by this connection afterwards must
    not let a mirror be built, or kept, under the version read before it."""
    memory = _memory(tmp_path, ["alpha beta", "beta gamma"])
    store = memory.store
    memory.retrieve("beta")  # the lock check records the version
    memory.remember("beta beta beta")  # moves it; keyword_beliefs below is called directly
    policy = _policy(store)
    policy.build_now()
    store.keyword_beliefs(["beta"], limit=5)
    assert policy.mirror is None or policy.mirror.version == bm25_policy.store_version(store.conn)
    assert _ordered(store.keyword_beliefs(["beta"], limit=5)) == _fts5_answer(store, ["beta"], 5)


def test_the_caches_starting_over_change_no_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bm25_mirror, "MAX_CACHED_POSTINGS", 5)
    monkeypatch.setattr(bm25_mirror, "MAX_CACHED_TERMS", 1)
    monkeypatch.setattr(index_tokenizer, "MAX_CACHED_TERMS", 1)
    monkeypatch.setattr(bm25_mirror, "MAX_CACHED_BELIEFS", 3)
    rng = random.Random(3)
    words = [f"w{i}" for i in range(30)]
    memory = _memory(tmp_path, [" ".join(rng.sample(words, 6)) for _ in range(200)])
    store = memory.store
    _force_mirror(store, ["w1"])
    for _ in range(30):
        terms = rng.sample(words, 3)
        by_fts, by_mirror = _both(store, terms, 20)
        assert by_mirror == by_fts


@settings(max_examples=200, deadline=None)
@given(
    instances=st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 1)), max_size=600),
    seed=st.integers(0, 9),
)
def test_postings_are_parsed_in_any_order(instances: list[tuple[int, int]], seed: int) -> None:
    random.Random(seed).shuffle(instances)
    listed = ",".join(str(row * 2 + column) for row, column in instances)
    postings = bm25_mirror.parse_postings(listed, 2)
    want: dict[int, list[int]] = {}
    for row, column in instances:
        want.setdefault(row, [0, 0])[column] += 1
    assert postings.docs.tolist() == sorted(want)
    assert postings.counts.tolist() == [want[row] for row in sorted(want)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    texts=st.lists(
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join),
        min_size=1,
        max_size=30,
    ),
    anchors=st.dictionaries(st.integers(0, 29), st.sampled_from(WORDS), max_size=8),
    chunk=st.sampled_from([1, 3, 50, 2_000_000]),
)
def test_every_term_read_at_once_equals_each_term_read_alone(
    tmp_path_factory: pytest.TempPathFactory,
    texts: list[str],
    anchors: dict[int, str],
    chunk: int,
) -> None:
    """The warm index's read of every term (in ranges of ``chunk`` instances) gives each
    term the postings its own read gives."""
    from credo.store import bm25_mirror

    memory, tokenizer, alone, together = _two_mirrors(tmp_path_factory, texts, anchors)
    conn = memory.store.conn
    default, bm25_mirror.ALL_TERMS_CHUNK = bm25_mirror.ALL_TERMS_CHUNK, chunk
    try:
        together.read_all_terms()
    finally:
        bm25_mirror.ALL_TERMS_CHUNK = default
    assert together.complete
    stems = [row[0] for row in conn.execute("SELECT term FROM temp.credo_fts_instances")]
    for stem in [*dict.fromkeys(stems), "nowhere"]:
        one, other = alone._term_postings(stem), together._term_postings(stem)
        assert one.docs.tolist() == other.docs.tolist()
        assert one.counts.tolist() == other.counts.tolist()
    tokenizer.close()
    memory.close()


@pytest.mark.parametrize("locked_count", [0, 5, 77])
def test_ties_at_the_cut_are_broken_by_id_without_fts5(tmp_path: Path, locked_count: int) -> None:
    """Far more rows than asked for tie at the cut (same words, same length) and ids do not
    follow rowids: the mirror reads every tied row and answers as the exact query does,
    ties by id, without asking FTS5; when locked rows leave too few, FTS5 answers."""
    rng = random.Random(5)
    names = [f"b{i:03d}" for i in range(90)]
    rng.shuffle(names)
    texts = ["alpha beta"] * 80 + ["alpha alpha beta"] * 4 + ["gamma"] * 6
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    memory.import_records(
        [{"kind": "belief", "id": n, "content": t} for n, t in zip(names, texts, strict=True)]
    )
    for name in sorted(names[:80])[:locked_count]:
        memory.lock(name)
    store = memory.store
    _force_mirror(store, ["gamma"])  # no tie there: FTS5 agrees, and the mirror is trusted
    assert _policy(store).mirror.checked
    want = _fts5_answer(store, ["alpha"], 10)
    asked: list[str] = []

    def exact_reads(sql: str) -> None:
        if sql.startswith("SELECT b.id"):  # the keyword queries FTS5 answers
            asked.append(sql)

    store.conn.set_trace_callback(exact_reads)
    got = store.keyword_beliefs(["alpha"], limit=10)
    store.conn.set_trace_callback(None)
    assert _ordered(got) == want
    last = list(got[0].values())[-1]
    tied = [i for i, score in got[0].items() if score == last]
    assert len(tied) >= 3 and tied == sorted(tied)
    assert bool(asked) == (locked_count == 77)  # 7 unlocked rows left: fewer than 10
    memory.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    texts=st.lists(
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join),
        min_size=1,
        max_size=30,
    ),
    anchors=st.dictionaries(st.integers(0, 29), st.sampled_from(WORDS), max_size=8),
    weights=st.sampled_from([(1.0, 0.5, 1.0), (2.0, 0.25, 1.0), (0.3, 0.5, 1.0), (1.0, 0.1)]),
)
def test_every_terms_parts_made_at_once_are_each_terms_own(
    tmp_path_factory: pytest.TempPathFactory,
    texts: list[str],
    anchors: dict[int, str],
    weights: tuple[float, ...],
) -> None:
    """The score parts a warm index makes for every posting at once (``read_all_terms``
    with weights) are, bit for bit, those each term's own read makes; weights whose sums
    are not exact products leave them lazy."""
    import numpy as np

    memory, tokenizer, alone, together = _two_mirrors(tmp_path_factory, texts, anchors)
    conn = memory.store.conn
    together.read_all_terms(weights)
    assert (together._eager is None) == (0.3 in weights or 0.1 in weights)
    stems = [row[0] for row in conn.execute("SELECT term FROM temp.credo_fts_instances")]
    for stem in [*dict.fromkeys(stems), "nowhere"]:
        one = alone._parts(alone._term_postings(stem), weights)
        other = together._parts(together._term_postings(stem), weights)
        assert one.view(np.int64).tolist() == other.view(np.int64).tolist()
    tokenizer.close()
    memory.close()


@settings(max_examples=300, deadline=None)
@given(
    terms=st.lists(
        st.one_of(
            st.text(alphabet="abcdefghijklmnopqrstuvwxyzY_-.'0123", min_size=0, max_size=16),
            st.sampled_from(["a" * 70 + "ing", "runnings", "_x", "x_", "caresses", "é", "naïve"]),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_stems_learnt_in_python_are_fts5s(terms: list[str]) -> None:
    """The index's tokenizer learns ASCII terms by store/stem.py: the same stem (or the
    same None for a term of no or several tokens) as its FTS5 table gives."""
    from credo.store.tokenizer import PYTHON_TOKENIZER, Tokenizer

    in_python, by_fts5 = Tokenizer(PYTHON_TOKENIZER), Tokenizer(PYTHON_TOKENIZER)
    by_fts5._in_python = False
    try:
        assert in_python.stems(terms) == by_fts5.stems(terms)
        for term in terms:
            assert in_python.stems([term]) == by_fts5.stems([term])
    finally:
        in_python.close()
        by_fts5.close()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    texts=st.lists(
        st.lists(st.sampled_from(["alpha", "beta", "gamma"]), min_size=1, max_size=3).map(" ".join),
        min_size=1,
        max_size=60,
    ),
    queries=st.lists(
        st.lists(st.sampled_from(["alpha", "beta", "gamma", "absent"]), min_size=1, max_size=3),
        min_size=1,
        max_size=5,
    ),
    limit=st.sampled_from([1, 2, 3, 10, 50]),
    locked=st.sets(st.integers(0, 59), max_size=20),
    seed=st.integers(0, 2**16),
    warm=st.booleans(),
)
def test_hits_straight_from_the_mirror_equal_the_general_path(
    tmp_path_factory: pytest.TempPathFactory,
    texts: list[str],
    queries: list[list[str]],
    limit: int,
    locked: set[int],
    seed: int,
    warm: bool,
) -> None:
    """``keyword_beliefs`` from a checked mirror's entries (``_mirrored_hits``, made at
    first ranking or held by the warm index's ``prepare``) equals the general path over
    ``KeywordRow``s and FTS5's exact query: few words, so many ties, ids that do not
    follow rowids, locked rows, and more rows than the slack tied at the cut."""
    folder = tmp_path_factory.mktemp("hits")
    names = [f"b{i:03d}" for i in range(len(texts))]
    random.Random(seed).shuffle(names)
    memory = Memory(folder / "m.db", root=folder)
    memory.import_records(
        [{"kind": "belief", "id": n, "content": t} for n, t in zip(names, texts, strict=True)]
    )
    for i in sorted(locked):
        if i < len(texts):
            memory.lock(names[i])
    store = memory.store
    if warm:
        assert store.build_warm()
    _force_mirror(store, queries[0])
    mirror = _policy(store).mirror
    mirror.checked = True  # the fast path answers from now on, hits or not
    for words in queries:
        terms = query_terms(" ".join(words))
        fast = store._mirrored_hits(terms, (1.0, 0.5, 1.0), limit)
        general = KeywordReads._passage_beliefs(store, terms, (1.0, 0.5, 1.0), limit)
        got = store.keyword_beliefs(terms, limit=limit)
        assert _ordered(got) == _ordered(general)
        if fast is not None:
            assert _ordered(fast) == _ordered(general)
            assert [type(s) for s in fast[0].values()] == [float] * len(fast[0])
        assert _fts5_answer(store, terms, limit) == _ordered(got)
    memory.close()


def test_hits_straight_from_the_mirror_answer_without_fts5(tmp_path: Path) -> None:
    """A query with no tie at the cut is answered by ``_mirrored_hits``, the same as the
    general path, and asked again reads neither beliefs nor postings; a belief locked
    after a write is left out of both."""
    texts = [" ".join(["alpha"] * (i % 7 + 1) + ["beta"] * (i % 3)) for i in range(30)]
    memory = _memory(tmp_path, texts)
    store = memory.store
    _force_mirror(store, ["alpha"])
    assert _policy(store).mirror.checked
    first = store._mirrored_hits(["beta"], (1.0, 0.5, 1.0), 3)
    asked: list[str] = []
    store.conn.set_trace_callback(asked.append)
    fast = store._mirrored_hits(["beta"], (1.0, 0.5, 1.0), 3)
    store.conn.set_trace_callback(None)
    assert fast is not None and _ordered(fast) == _ordered(first)
    assert not [sql for sql in asked if "beliefs" in sql or "fts" in sql]
    assert _ordered(fast) == _ordered(
        KeywordReads._passage_beliefs(store, ["beta"], (1.0, 0.5, 1.0), 3)
    )
    memory.lock(next(iter(fast[0])))
    again = store.keyword_beliefs(["beta"], limit=3)
    assert next(iter(fast[0])) not in again[1]
    assert _ordered(again) == _ordered(
        KeywordReads._passage_beliefs(store, ["beta"], (1.0, 0.5, 1.0), 3)
    )
    memory.close()
