"""credo's BM25F (store/postgres/bm25.py over the client tokenizer's postings) against
FTS5's own bm25(): the same rows and the very same doubles, for random documents and
queries (phrases, repeated and stemmed tokens, diacritics, empty columns and weights).
Pure: no server needed."""

from __future__ import annotations

import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from credo.store import migrations
from credo.store.compound_words import index_context
from credo.store.fts import match_expression
from credo.store.index_text import index_text
from credo.store.postgres import bm25, schema
from credo.store.postgres.tokenizer import COLUMNS, TOKENIZE, Tokenizer

WORDS = [
    "deploy", "deploys", "deployed", "cache", "caches", "café", "Cafe", "run", "running",
    "foo_bar", "foo", "bar", "x1", "the", "a", "ops/deploy.sh", "naïve", "naive", "日本語",
    "日本", "🚀", "Größe", "JobStore", "job", "store", "getURLs",
]  # fmt: skip
TOKENIZER = Tokenizer()

text = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)
documents = st.lists(st.tuples(text, text, text), min_size=1, max_size=25)
queries = st.lists(
    st.sampled_from([*WORDS, "deploy_cache", "bar_foo", "_"]), min_size=1, max_size=5
)
weights = st.tuples(*[st.sampled_from([0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 0.1])] * 3)


def _fts5(
    docs: list[tuple[str, str, str]], terms: list[str], w: tuple[float, ...]
) -> dict[int, float]:
    conn = sqlite3.connect(":memory:")
    conn.execute(f"CREATE VIRTUAL TABLE t USING fts5({', '.join(COLUMNS)}, tokenize='{TOKENIZE}')")
    conn.executemany(
        "INSERT INTO t(rowid, content, anchor_text, context) VALUES (?, ?, ?, ?)",
        # As SQLite's index triggers write them (m013, m017): through the rule, a
        # context-less row's context its compound names' words, as the client's tokenizer
        # reads them.
        [
            (i + 1, index_text(c), index_text(a), index_context(c, x))
            for i, (c, a, x) in enumerate(docs)
        ],
    )
    rows = conn.execute(
        "SELECT rowid, -bm25(t, ?, ?, ?) FROM t WHERE t MATCH ?", (*w, match_expression(terms))
    ).fetchall()
    conn.close()
    return dict(rows)


def _credo(
    docs: list[tuple[str, str, str]], terms: list[str], w: tuple[float, ...]
) -> dict[int, float]:
    indexed = TOKENIZER.documents([(i + 1, *d) for i, d in enumerate(docs)])
    positions = {
        (token, rid, column): offsets
        for rid, (postings, _) in indexed.items()
        for (token, column), offsets in postings.items()
    }
    sizes = {rid: sum(s) for rid, (_, s) in indexed.items()}
    phrases = [bm25.phrase_instances(p, positions) for p in TOKENIZER.phrases(terms)]
    return bm25.scores(phrases, sizes, len(docs), sum(sizes.values()), w)


@settings(max_examples=300, deadline=None)
@given(documents, queries, weights)
def test_credo_bm25_is_fts5_bm25(
    docs: list[tuple[str, str, str]], terms: list[str], w: tuple[float, float, float]
) -> None:
    terms = list(dict.fromkeys(t.lower() for t in terms))
    assert _credo(docs, terms, w) == _fts5(docs, terms, w)


def test_the_tokenizer_is_the_sqlite_index_s() -> None:
    assert f"tokenize='{TOKENIZE}'" in migrations.M006_CONTEXT


def test_the_migrations_carry_the_same_numbers_and_names() -> None:
    assert [(m.version, m.name) for m in schema.MIGRATIONS] == [
        (m.version, m.name) for m in migrations.MIGRATIONS
    ]
