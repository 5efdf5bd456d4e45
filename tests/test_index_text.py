"""Japanese, Chinese and Korean text searchable by word, emoji as tokens, ß as ss
(store/index_text.py): through the real CLI and hook, the rule against FTS5 itself, and
m013 on a store the previous schema wrote."""

from __future__ import annotations

import json
import sqlite3
from hashlib import sha256
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.store import LATEST_VERSION
from credo.store import SqliteStore as Store
from credo.store import index_text as rule
from credo.store.fts import query_terms
from credo.store.index_text import bigrams, index_text, index_words, register
from credo.store.migrations import M006_CONTEXT, MIGRATIONS
from credo.store.stem import fold, stem, tokens
from tests.conftest import CliRun
from tests.test_hook import payload, run_hook

BACKUP_JA = "データベースは毎週日曜日にバックアップされます。"
BACKUP_ZH = "我们每天晚上十点备份数据库。"
BACKUP_KO = "데이터베이스는 매주 일요일에 백업됩니다."
PNPM = "pnpmを使ってください"


def _found(run: CliRun, query: str) -> str:
    done = run("search", "--json", query)
    assert done.returncode == 0, done.stderr
    return "\n".join(b["content"] for b in json.loads(done.stdout)["beliefs"])


def test_the_japanese_probe_through_the_cli(run: CliRun) -> None:
    run("remember", BACKUP_JA, check=True)
    run("remember", "The database is backed up every Sunday", check=True)
    for query in ("バックアップ", "データベースのバックアップはいつですか", "日曜日"):
        assert BACKUP_JA in _found(run, query), query
    shown = run("search", "バックアップ", check=True).stdout
    assert BACKUP_JA in shown  # the stored text, not its bigrams
    assert "no beliefs match" in run("search", "リンゴ").stdout  # no bigram of it stored


@pytest.mark.parametrize(
    ("text", "queries"),
    [
        (BACKUP_ZH, ["备份", "数据库", "什么时候备份数据库"]),
        (BACKUP_KO, ["백업", "데이터베이스", "백업은 언제"]),
        (PNPM, ["pnpm", "使って", "PNPM"]),
        ("Die Größe der Datei ist begrenzt", ["GRÖSSE", "grosse", "größe", "Grösse"]),
        ("Release day 🚀 ship it", ["🚀", "🚀\ufe0f", "ship🚀"]),
        ("👍🏽 means approved", ["👍"]),
    ],
)
def test_each_script_is_found_by_a_word_of_it(run: CliRun, text: str, queries: list[str]) -> None:
    run("remember", text, check=True)
    run("remember", "An unrelated note about deploys", check=True)
    for query in queries:
        assert text in _found(run, query), query


def test_an_emoji_finds_only_itself(run: CliRun) -> None:
    run("remember", "Release day 🚀", check=True)
    assert "no beliefs match" in run("search", "🎉").stdout
    assert "no beliefs match" in run("search", "©").stdout  # not an emoji: as before


def test_the_hook_injects_for_a_japanese_prompt(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        memory.remember(BACKUP_JA, id="backup")
        memory.remember("The cache is warmed by a cron job at 04:00", id="cache")
    prompt = "データベースのバックアップはいつですか"
    done = run_hook(tmp_path, payload(prompt, project), project)
    assert done.returncode == 0, done.stderr
    assert f"[backup] {BACKUP_JA}" in done.stdout.decode().splitlines()


def test_a_japanese_document_is_found_by_a_word_inside_a_sentence(tmp_path: Path) -> None:
    doc = tmp_path / "運用.md"
    doc.write_text(
        "# 運用\n\n## バックアップ\n\nデータベースは毎週日曜日にバックアップされます。"
        "復元手順は別のページを見てください。\n\n## 監視\n\nアラートはチャットに届きます。\n",
        encoding="utf-8",
    )
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(doc)
        got = memory.retrieve("復元手順", token_budget=400)
        assert got.beliefs and "復元手順" in got.beliefs[0].content
        # The section trail (the context field) is cut the same way.
        assert memory.store.context_phrase_ids(query_terms("監視"), limit=5)


# The rule as FTS5 reads it: the tokens unicode61 makes of ``index_text(text)`` are the
# Python ``tokens`` (which compress, the line lane and the snippet use), and every query
# term is one index token (so the warm mirror answers it).
_FTS = sqlite3.connect(":memory:")
_FTS.execute(
    "CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')"
)
_FTS.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")

_LETTERS = "aZ9 _-.。、「」ー・ゝ々〇データベース毎週日曜にバックアップ数据库备份데이터백업"
_OTHERS = ["ß", "ẞ", "ö", "🚀", "👍🏽", "✨", "\ufe0f", "\u200d", "©", "™", "→", "✓"]
_ALPHABET = st.sampled_from([*_LETTERS, *_OTHERS])


def _fts_tokens(text: str) -> list[str]:
    _FTS.execute("DELETE FROM t")
    _FTS.execute("INSERT INTO t(rowid, x) VALUES (1, ?)", (index_text(text),))
    return [r[0] for r in _FTS.execute("SELECT term FROM v ORDER BY offset")]


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=24).map("".join))
def test_python_tokens_are_fts5s(text: str) -> None:
    assert [stem(t) for t in tokens(text)] == _fts_tokens(text)
    assert _fts_tokens(index_text(text)) == _fts_tokens(text)  # the rule read twice: the same
    if rule.has_special(text):  # each token where its text starts, in order
        offsets = [at for at, _ in index_words(text)]
        assert offsets == sorted(offsets) and all(text[at].strip() for at in offsets)
    for term in query_terms(text):
        # One token each, but a snake_case word: one term that FTS5 reads as the phrase of
        # its parts ("a_a" -> a, a), as a caller's context writes the name.
        parts = term.split("_")
        assert all(len(_fts_tokens(part)) <= 1 for part in parts)
        assert [token for part in parts for token in _fts_tokens(part)] == _fts_tokens(term)


def test_the_rule_changes_no_text_without_cjk_emoji_or_sharp_s() -> None:
    for text in ("plain ASCII", "café naïve – “quoted” © 2024 ™ → ✓ ✗", "日"):
        assert index_text(text) == text or text == "日"
    assert bigrams("日") == ["日"]
    assert index_text("データ") == " デー ータ "
    assert [fold(w) for _, w in index_words("GRÖẞE")] == ["grosse"]


# The index's text for every code point below U+40000: a change of the rule (a block
# added, an emoji's token moved) leaves stores indexed by the old rule, whose deletes
# would then miss (the triggers read the rule again): it needs a migration that indexes
# every row again, and this digest updated.
RULE_DIGEST = "be9c47e977f9dc4d"


def test_the_rule_is_frozen_with_m013() -> None:
    every = " ".join(chr(c) for c in range(0x20, 0x40000) if not 0xD800 <= c < 0xE000)
    digest = sha256(index_text(every).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    assert digest == RULE_DIGEST


# m013 on a store written by version 12: its triggers and view indexed each field as it is.
def _back_to_version_12(path: Path) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    register(conn)
    m006 = M006_CONTEXT.split("DROP VIEW beliefs_live;")[1].split("CREATE INDEX")[0]
    conn.execute("BEGIN")
    for name in ("beliefs_fts_insert", "beliefs_fts_delete", "beliefs_fts_update"):
        conn.execute(f"DROP TRIGGER {name}")
    for name in ("values_fts_insert", "values_fts_delete", "values_fts_update"):  # (m016)
        conn.execute(f"DROP TRIGGER IF EXISTS {name}")
    conn.execute("DROP TABLE IF EXISTS values_fts")
    conn.execute("DROP VIEW IF EXISTS values_live")
    conn.execute("DROP VIEW beliefs_live")
    conn.execute("DROP TABLE beliefs_fts")
    for statement in _statements(m006):
        conn.execute(statement)
    conn.execute("DROP INDEX IF EXISTS beliefs_user_statements")  # (m014, after it)
    conn.execute("DELETE FROM _migrations WHERE version >= 13")
    conn.execute("COMMIT")
    conn.close()


def _statements(sql: str) -> list[str]:
    from credo.store.sql_split import split_statements

    return split_statements(sql)


def _index(path: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """The index's terms (every instance) and its segments, read by a plain connection."""
    conn = sqlite3.connect(path)
    register(conn)
    conn.execute("CREATE VIRTUAL TABLE temp.i USING fts5vocab(main, beliefs_fts, instance)")
    terms = conn.execute("SELECT term, doc, col, offset FROM temp.i ORDER BY 1, 2, 3, 4").fetchall()
    data = conn.execute("SELECT id, block FROM beliefs_fts_data ORDER BY id").fetchall()
    conn.close()
    return terms, data


def test_m013_indexes_again_only_the_rows_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "v12.db"
    with Memory(path, root=tmp_path) as memory:
        memory.remember("Deploys go through staging first", id="deploy")
        memory.remember(BACKUP_JA, id="backup")
        memory.remember("Ship it 🚀 on Größe day", id="ship")
        memory.remember("消えたメモ", id="gone")
        memory.forget("gone")
    _back_to_version_12(path)
    with Memory(path, root=tmp_path) as memory:
        assert memory.stats().schema_version == LATEST_VERSION
        assert [h.belief_id for h in memory.store.keyword_search(["deploys"], limit=5)] == [
            "deploy"
        ]
        for query, wanted in (("バックアップ", "backup"), ("🚀", "ship"), ("GROSSE", "ship")):
            hits = memory.store.keyword_search(query_terms(query), limit=5)
            assert [h.belief_id for h in hits] == [wanted], query
        assert memory.store.keyword_search(query_terms("消えた"), limit=5) == []
        memory.store.fts_integrity_check()
        memory.forget("backup")  # the delete trigger takes out what m013 put in
        memory.store.fts_integrity_check()
        assert memory.store.keyword_search(query_terms("バックアップ"), limit=5) == []


def test_m013_leaves_an_english_index_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "v12.db"
    with Memory(path, root=tmp_path) as memory:
        memory.remember("Deploys go through staging first, café – “quoted”", id="deploy")
        memory.remember("The cache is warmed at 04:00", id="cache")
    _back_to_version_12(path)
    before = _index(path)
    with Memory(path, root=tmp_path) as memory:
        assert memory.stats().schema_version == LATEST_VERSION
    assert _index(path) == before  # not a segment written: nothing indexed again


def test_m013_is_one_transaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "v12.db"
    with Memory(path, root=tmp_path) as memory:
        memory.remember(BACKUP_JA, id="backup")
    _back_to_version_12(path)
    before = _index(path)

    def broken(text: object) -> object:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(rule, "_sql_index_text", broken)
    with pytest.raises(Exception):  # noqa: B017 (SQLite wraps the function's error)
        Memory(path, root=tmp_path)
    monkeypatch.undo()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT max(version) FROM _migrations").fetchone()[0] == 12
    assert "credo_index_text" not in str(conn.execute("SELECT sql FROM sqlite_master").fetchall())
    conn.close()
    assert _index(path) == before
    with Memory(path, root=tmp_path) as memory:  # and the next open migrates
        hits = memory.store.keyword_search(query_terms("バックアップ"), limit=5)
        assert [h.belief_id for h in hits] == ["backup"]


def test_m013_on_a_file_the_version_12_schema_wrote(tmp_path: Path) -> None:
    """Every field m006's index holds: content, anchor text (an edge's) and context."""
    path = tmp_path / "v12.db"
    store = Store(path, migrations=MIGRATIONS[:12])
    now = 1_700_000_000.0
    rows = [
        ("ops", "Restore steps are on the wiki", "docs/運用.md › 復元 L1-L2"),
        ("how", "see the steps", ""),
        ("en", "Deploys go through staging", "docs/deploy.md › Deploys L1-L3"),
    ]
    for belief_id, content, context in rows:
        store.conn.execute(
            "INSERT INTO beliefs(id, content, content_hash, kind, origin, created_at, "
            "updated_at, context) VALUES (?, ?, ?, 'factual', 'user_stated', ?, ?, ?)",
            (belief_id, content, belief_id, now, now, context),
        )
    store.conn.execute(
        "INSERT INTO edges(src, dst, type, weight, created_at, anchor_text) "
        "VALUES ('how', 'ops', 'CITES', 1.0, ?, '復元手順')",
        (now,),
    )
    assert store.schema_version == 12
    store.close()
    with Memory(path, root=tmp_path) as memory:
        assert memory.stats().schema_version == LATEST_VERSION
        for query in ("運用", "手順"):  # the context's path and section, the anchor text
            hits = memory.store.keyword_search(query_terms(query), limit=5)
            assert [h.belief_id for h in hits] == ["ops"], query
        memory.store.fts_integrity_check()


def test_the_byte_level_check_agrees_with_the_characters() -> None:
    """``has_special`` reads UTF-8 bytes for speed: for every code point, the same answer
    as the character table (surrogates aside)."""
    for code in range(0x80, 0x110000):
        if 0xD800 <= code < 0xE000:
            continue
        char = chr(code)
        assert rule.has_special(f"a{char}b") is rule._is_special(char), hex(code)
