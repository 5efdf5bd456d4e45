"""Hostile and broken input (issue 7, part 3): every case ends in safe storage or a clear
``CredoError``, never a crash, and a refused store file is never modified."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.errors import CredoError, InvalidInputError, RecordsError, SchemaVersionError
from credo.knowledge.identity import MAX_CONTENT_CHARS, normalise
from tests.conftest import CliRun

FTS_SYNTAX = [
    '"unterminated',
    "NEAR(alpha beta, 2)",
    "alpha AND OR NOT beta",
    "col:alpha * ^beta -gamma",
    "(((",
    'alpha* OR ""',
    "{content anchor_text}: x",
]
# The shared suite (tests/conftest.py): the store tests here run on SQLite and PostgreSQL.
BOTH_BACKENDS = True
SURROGATES = ["\ud800", "a\udfffb", "http://x\ud800/y.md"]
HYPO = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@HYPO
@given(text=st.text(max_size=300))
def test_any_unicode_belief_text_is_stored_or_refused_clearly(memory: Memory, text: str) -> None:
    try:
        belief_id = memory.remember(text)
    except InvalidInputError:
        assert not text.strip() or "\x00" in text
        return
    # The store is shared across examples: an earlier text equal after normalisation (case,
    # NFKC, spaces) is corroborated instead of stored again.
    assert normalise(memory.get(belief_id).content) == normalise(text.strip())


@HYPO
@given(query=st.text(max_size=300))
def test_any_unicode_query_retrieves_without_error(memory: Memory, query: str) -> None:
    memory.remember("alpha beta gamma docs/deploy.md")
    result = memory.retrieve(query, with_doc_anchors=True)
    assert result.used_tokens <= result.token_budget


@HYPO
@given(session=st.text(max_size=40), anchor=st.text(min_size=1, max_size=60))
def test_any_unicode_session_and_anchor_text(memory: Memory, session: str, anchor: str) -> None:
    a = memory.remember("first belief text")
    b = memory.remember("second belief text")
    try:
        memory.remember("third belief text", session=session)
    except InvalidInputError:
        assert "\x00" in session  # PostgreSQL's text holds no NUL: refused, typed
    try:
        memory.relate(a, b, "CITES", anchor_text=anchor)
    except InvalidInputError:
        assert not anchor.strip() or "\x00" in anchor
    finally:
        for edge in memory.edges(a):
            memory.store.delete_edge(edge.src, edge.dst, edge.type)


@pytest.mark.parametrize("text", SURROGATES)
def test_lone_surrogate_in_belief_text_is_refused(memory: Memory, text: str) -> None:
    with pytest.raises(InvalidInputError, match="surrogate"):
        memory.remember(text)


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.retrieve("alpha http://x\ud800/y"),
        lambda m: m.remember("fine text", session="\ud800"),
        lambda m: m.remember("fine text", doc="\ud800.md"),
        lambda m: m.get("\ud800"),
        lambda m: m.forget("\ud800"),
        lambda m: m.beliefs_for_doc("\ud800.md"),
        lambda m: m.import_records([{"kind": "belief", "content": "ok", "session": "\ud800"}]),
        lambda m: m.import_records(['{"kind": "belief", "content": "ok", "doc": "\\ud800"}']),
    ],
    ids=["query-url", "session", "doc", "get", "forget", "beliefs-for-doc", "import", "json"],
)
def test_lone_surrogates_elsewhere_are_clear_errors(memory: Memory, call: object) -> None:
    memory.remember("alpha beta")
    with contextlib.suppress(CredoError):
        call(memory)  # type: ignore[operator]
    assert memory.store.integrity_check() == []


@pytest.mark.parametrize("syntax", FTS_SYNTAX)
def test_fts5_syntax_in_every_text_field_is_plain_text(memory: Memory, syntax: str) -> None:
    target = memory.remember(
        f"plain {syntax} words",
        session=syntax,
        id="id-" + "".join(c if c.isalnum() else "_" for c in syntax),
    )
    other = memory.remember(f"other {syntax}")
    memory.relate(other, target, "CITES", anchor_text=f"anchor {syntax}")
    memory.link(target, f"https://example.com/{syntax.replace(' ', '_')}")
    for query in (syntax, f"plain {syntax}", f"anchor {syntax}"):
        result = memory.retrieve(query)
        assert result.used_tokens <= result.token_budget
    assert target in {b.id for b in memory.retrieve(f"plain {syntax}").beliefs}
    assert memory.store.integrity_check() == []


def test_ten_megabyte_texts_are_refused_or_truncated(memory: Memory, tmp_path: Path) -> None:
    huge = "x" * 10_000_000
    with pytest.raises(InvalidInputError, match=str(MAX_CONTENT_CHARS)):
        memory.remember(huge)
    a, b = memory.remember("one"), memory.remember("two")
    with pytest.raises(InvalidInputError, match=str(MAX_CONTENT_CHARS)):
        memory.relate(a, b, "CITES", anchor_text=huge)
    records = tmp_path / "huge.jsonl"
    records.write_text(json.dumps({"kind": "belief", "content": huge}) + "\n")
    with pytest.raises(RecordsError, match="line"):
        memory.import_records(records)
    started = time.process_time()  # CPU seconds: a loaded machine stretches the wall clock
    memory.retrieve("word " * 2_000_000)
    assert time.process_time() - started < 5.0  # the query is cut at MAX_QUERY_CHARS
    assert memory.stats().beliefs == 2


@pytest.mark.parametrize(
    "line",
    [
        "[" * 100_000,
        '{"kind": "belief", "content": ' + "[" * 50_000 + "]" * 50_000 + "}",
        '{"kind": "belief", "content": "trunc',
        '{"kind": "belief"',
        "\x00\x01garbage",
        '{"kind": "edge", "src": {"a": {"b": {}}}, "dst": "x", "type": "CITES"}',
    ],
    ids=["deep-array", "deep-content", "truncated-string", "truncated-object", "binary", "nest"],
)
def test_broken_jsonl_is_refused_with_its_line_and_nothing_imported(
    memory: Memory, tmp_path: Path, line: str
) -> None:
    records = tmp_path / "bad.jsonl"
    good = json.dumps({"kind": "belief", "content": "a good first line"})
    records.write_text(good + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(RecordsError, match=r":2:"):
        memory.import_records(records)
    assert memory.stats().beliefs == 0


def test_truncated_file_tail_is_refused(memory: Memory, tmp_path: Path) -> None:
    records = tmp_path / "cut.jsonl"
    records.write_bytes(b'{"kind": "belief", "content": "ok"}\n{"kind": "belief", "con')
    with pytest.raises(RecordsError, match=r":2:"):
        memory.import_records(records)
    assert memory.stats().beliefs == 0


def test_ingest_survives_symlink_loops_and_outside_links(tmp_path: Path) -> None:
    root = tmp_path / "project"
    docs = root / "docs"
    docs.mkdir(parents=True)
    (docs / "a.md").write_text("# A\n\nAlpha text about caching.\n", encoding="utf-8")
    (docs / "loop").symlink_to(docs, target_is_directory=True)
    (docs / "self").symlink_to(docs / "self")  # a link to itself: unreadable, skipped
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Outside\n\nText outside the root.\n")
    (docs / "out").symlink_to(outside, target_is_directory=True)
    (docs / "b.md").write_text("# B\n\nSee [x](../../outside/secret.md) and ../../../etc/x.md\n")
    with Memory(root / ".credo" / "m.db", root=root) as memory:
        report = memory.ingest(docs)
        assert report.files_ingested >= 2
        uris = [a.doc_uri for a in memory.store.iter_anchors()]
        assert all(".." not in uri.split("#")[0].split("/") for uri in uris), uris
        assert memory.store.integrity_check() == []
        # A file outside the root given explicitly is anchored by an absolute file:// URI.
        memory.ingest(outside / "secret.md")
        assert any(
            a.startswith("file:///") for a in (x.doc_uri for x in memory.store.iter_anchors())
        )


def _unnameable_tree(root: Path) -> Path:
    """A folder with one good page and two files whose names no document URI can hold."""
    docs = root / "docs"
    docs.mkdir(parents=True)
    (docs / "good.md").write_text("# Good\n\nNotes about rolling deploys.\n", encoding="utf-8")
    for name in (b"ctl\x01name.md", b"latin\xffname.md"):  # a control byte; not UTF-8
        with open(os.fsencode(docs) + b"/" + name, "w", encoding="utf-8") as handle:
            handle.write("# Bad name\n\nText that is never anchored.\n")
    return docs


def test_a_file_name_no_uri_can_hold_is_skipped_not_fatal(tmp_path: Path) -> None:
    docs = _unnameable_tree(tmp_path)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        report = memory.ingest(docs)
        assert report.files_seen == 3
        assert report.files_ingested == 1
        assert report.skipped == {"unsupported": 2}
        assert all(not any(ord(c) < 32 for c in path) for path, _ in report.skipped_files)
        found = memory.retrieve("rolling deploys").beliefs
        assert [b.content.splitlines()[-1] for b in found] == ["Notes about rolling deploys."]
        assert memory.ingest(docs).files_ingested == 0  # the next run: unchanged, skipped again


def test_cli_ingest_skips_an_unnameable_file_and_exits_zero(tmp_path: Path, run: CliRun) -> None:
    docs = _unnameable_tree(tmp_path)
    done = run("ingest", str(docs))
    assert done.returncode == 0, done.stderr
    assert "2 unsupported" in done.stdout


def test_ingest_of_a_missing_path_is_a_clear_error(memory: Memory, tmp_path: Path) -> None:
    with pytest.raises(CredoError, match="nope"):
        memory.ingest(tmp_path / "nope")


def _make_store(path: Path) -> None:
    with Memory(path, root=path.parent) as memory:
        for i in range(200):
            memory.remember(f"belief {i} about caching, deploys and retries " * 3)


@pytest.mark.parametrize("damage", ["truncate", "garbage", "header", "empty-pages"])
def test_corrupted_or_truncated_store_is_a_clear_error(tmp_path: Path, damage: str) -> None:
    db = tmp_path / "m.db"
    _make_store(db)
    data = db.read_bytes()
    if damage == "truncate":
        db.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        db.write_bytes(data[:100] + os.urandom(len(data) - 100))
    elif damage == "header":
        db.write_bytes(b"not a database at all" + data[21:])
    else:
        db.write_bytes(data[:4096] + b"\x00" * (len(data) - 4096))
    with pytest.raises(CredoError), Memory(db, root=tmp_path) as memory:
        problems = memory.store.integrity_check()
        memory.retrieve("caching")
        if problems:
            raise CredoError("; ".join(problems))


def _bump_schema(db: Path, journal: str) -> None:
    conn = sqlite3.connect(db)
    conn.execute("INSERT INTO _migrations VALUES (99, 'm099_future', 0)")
    conn.commit()
    conn.execute(f"PRAGMA journal_mode = {journal}")
    conn.close()


def test_newer_schema_is_refused_and_untouched(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _make_store(db)
    _bump_schema(db, "wal")
    before = _sha(db)
    with pytest.raises(SchemaVersionError, match="newer"):
        Memory(db, root=tmp_path)
    assert _sha(db) == before


def test_newer_schema_in_rollback_mode_is_untouched(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _make_store(db)
    _bump_schema(db, "delete")
    before = _sha(db)
    with pytest.raises(SchemaVersionError):
        Memory(db, root=tmp_path)
    assert _sha(db) == before


READ_ONLY_SCRIPT = """
import os, sys
from credo import Memory
from credo.errors import CredoError
with Memory(":memory:", root="/") as warm:  # load lazy modules before dropping rights
    warm.remember("warm up"); warm.retrieve("warm up", with_doc_anchors=True)
if os.geteuid() == 0:
    os.setgid(65534); os.setuid(65534)
try:
    with Memory(sys.argv[1], root="/") as memory:
        memory.remember("a new belief")
except CredoError as exc:
    print("clear:", exc); sys.exit(3)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
@pytest.mark.parametrize("what", ["file", "folder"])
def test_read_only_store_is_a_clear_error_and_untouched(tmp_path: Path, what: str) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "m.db"
    _make_store(db)
    before, names = _sha(db), sorted(os.listdir(folder))
    for parent in (tmp_path, *tmp_path.parents):
        if parent == Path(parent.anchor):
            break
        parent.chmod(parent.stat().st_mode | 0o005)  # let the demoted process walk down
    if what == "file":
        db.chmod(0o444)
    else:
        db.chmod(0o644)
        folder.chmod(0o555)
    try:
        done = subprocess.run(
            [sys.executable, "-c", READ_ONLY_SCRIPT, str(db)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        folder.chmod(0o755)
        db.chmod(0o644)
    assert done.returncode == 3, done.stderr
    assert "read" in done.stdout.lower()
    assert _sha(db) == before
    assert sorted(os.listdir(folder)) == names


def test_a_link_out_of_the_tree_is_skipped_unless_named(tmp_path: Path) -> None:
    """A cloned repository's link to a secret outside it never reaches the store: a file link
    and a folder link that leave both the root and the folder given are skipped as
    ``outside``; a link inside the tree is read; the same file named explicitly is read."""
    root = tmp_path / "project"
    docs = root / "docs"
    docs.mkdir(parents=True)
    (docs / "a.md").write_text("# A\n\nAlpha text about caching.\n", encoding="utf-8")
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    secret = home / ".aws" / "credentials.md"
    secret.write_text("# Keys\n\naws_secret_access_key = wJalrXUtnFEMIK7MDENG\n")
    (docs / "creds.md").symlink_to(secret)
    (docs / "aws").symlink_to(home / ".aws", target_is_directory=True)
    (root / "notes.md").write_text("# Notes\n\nRelease notes live here.\n", encoding="utf-8")
    (docs / "notes-link.md").symlink_to(root / "notes.md")  # inside the root: read
    with Memory(root / ".credo" / "m.db", root=root) as memory:
        report = memory.ingest(docs)
        assert report.skipped.get("outside") == 2
        assert sorted(Path(p).name for p, r in report.skipped_files if r == "outside") == [
            "credentials.md",
            "creds.md",
        ]
        assert report.files_seen == 4
        texts = " ".join(b.content for b in memory.store.iter_beliefs())
        assert "wJalrXUtnFEMIK7MDENG" not in texts
        assert "Release notes live here." in texts
        memory.ingest(docs / "creds.md")  # named explicitly: the user asked for it
        texts = " ".join(b.content for b in memory.store.iter_beliefs())
        assert "wJalrXUtnFEMIK7MDENG" in texts


def test_a_file_read_before_through_a_link_out_of_the_tree_goes_at_the_next_walk(
    tmp_path: Path,
) -> None:
    """A store written before links out of the tree were skipped held their text: the next
    walk of the folder retires it as it would a vanished file."""
    root = tmp_path / "project"
    docs = root / "docs"
    docs.mkdir(parents=True)
    (docs / "a.md").write_text("# A\n\nAlpha text about caching.\n", encoding="utf-8")
    secret = tmp_path / "home" / "token.md"
    secret.parent.mkdir()
    secret.write_text("# Token\n\nghp_secretvalue0123456789\n", encoding="utf-8")
    (docs / "token.md").symlink_to(secret)
    with Memory(root / ".credo" / "m.db", root=root) as memory:
        memory.ingest(docs / "token.md")  # (as a walk before this rule read it)
        before = [b.content for b in memory.store.iter_beliefs() if b.deleted_at is None]
        assert any("ghp_secretvalue0123456789" in text for text in before)
        report = memory.ingest(docs)
        assert report.files_removed == 1
        live = [b.content for b in memory.store.iter_beliefs() if b.deleted_at is None]
        assert not any("ghp_secretvalue0123456789" in text for text in live)


def test_a_folder_given_through_a_link_is_walked_inside_its_target(tmp_path: Path) -> None:
    """The folder given is a bound of its own: a linked folder named on the command line is
    read whole, links inside it to its own files included."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "b.md").write_text("# B\n\nBeta text about queues.\n", encoding="utf-8")
    (elsewhere / "b-again.md").symlink_to(elsewhere / "b.md")
    root = tmp_path / "project"
    root.mkdir()
    (root / "linked").symlink_to(elsewhere, target_is_directory=True)
    with Memory(root / ".credo" / "m.db", root=root) as memory:
        report = memory.ingest(root / "linked")
        assert report.skipped.get("outside", 0) == 0
        assert report.files_ingested == 2


def test_a_huge_query_that_matches_nothing_is_not_echoed_whole(run: CliRun) -> None:
    """probe69: a pasted log as the query (100,000 characters) came back whole in "no
    beliefs match '...'", flooding the terminal; the match itself reads its first 4,000."""
    assert run("remember", "The deploy runs on Fridays").returncode == 0
    done = run("search", "zq" * 50_000)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("no beliefs match 'zqzq") and done.stdout.count("\n") == 1
    assert len(done.stdout) < 120 and done.stdout.endswith("'…\n")
    assert run("search", "nothing here").stdout == "no beliefs match 'nothing here'\n"


@pytest.mark.parametrize(
    ("doc", "said"),
    [
        ("file://", "names no file"),
        ("file:///", "names no file"),
        ("http://", "names no host"),
        ("https:///docs/a.md", "names no host"),
        ("notes.md#L10-L5", "1 <= start <= end"),
        ("notes.md#L0", "1 <= start <= end"),
        # (urlsplit raises on an unclosed '[': an internal error, not a one-line refusal)
        ("http://[oops/docs", "is not a valid URL"),
        ("file://[oops/a.md", "is not a valid URL"),
    ],
)
def test_a_document_reference_that_names_nothing_is_refused(
    run: CliRun, doc: str, said: str
) -> None:
    """probe69: ``link ID file://`` anchored the belief to the root folder itself (``.``,
    then "missing" in every ``doctor``), ``http://`` was kept as a URL, and a line range
    written backwards (``#L10-L5``) was kept as if it were a section's name."""
    made = run("remember", "The deploy runs on Fridays")
    belief = made.stdout.strip()
    for args in (("link", belief, doc), ("remember", "Backups run nightly", "--doc", doc)):
        done = run(*args)
        assert done.returncode == 1 and done.stdout == "", (args, done.stdout)
        assert done.stderr.startswith("Error: ") and said in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1
    assert run("anchors", belief).stdout.strip() == "no anchors"
    assert "Backups" not in run("search", "backups nightly").stdout
