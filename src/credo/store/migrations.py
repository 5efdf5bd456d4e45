"""Forward-only schema migrations, each applied in its own transaction.

A migration is never renumbered or edited once shipped; a new change is a new ``mNNN``. The
applied versions are in ``_migrations``; a database carrying a version newer than this code
knows is refused untouched (``SchemaVersionError``)."""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import sqlite3
import time
from collections.abc import Callable
from importlib import import_module
from typing import NamedTuple

from credo.errors import SchemaVersionError, StoreError
from credo.store.acronyms import M015_ACRONYMS
from credo.store.anchor_context_migration import M019_ANCHOR_CONTEXTS
from credo.store.index_migration import M013_INDEX_TEXT, apply_m013
from credo.store.own_pool import M020_OWN_BELIEFS
from credo.store.sql_split import split_statements
from credo.store.value_migration import M016_VALUE_INDEX, apply_m016

EDGE_TYPE_CHECK = (
    "'SUPPORTS','IMPLEMENTS','TESTS','CITES','DERIVED_FROM','RELATES_TO',"
    "'TEMPORAL_NEXT','SUPERSEDES','RESOLVES','CONTRADICTS'"
)

M001_INITIAL = f"""
CREATE TABLE beliefs (
    rid          INTEGER PRIMARY KEY,  -- explicit so VACUUM never renumbers FTS rowids
    id           TEXT NOT NULL UNIQUE,
    content      TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    kind         TEXT NOT NULL,
    origin       TEXT NOT NULL,
    locked       INTEGER NOT NULL DEFAULT 0 CHECK (locked IN (0, 1)),
    alpha        REAL NOT NULL DEFAULT 1.0 CHECK (alpha > 0),
    beta         REAL NOT NULL DEFAULT 1.0 CHECK (beta > 0),
    session      TEXT,
    created_at   REAL NOT NULL,
    updated_at   REAL NOT NULL,
    deleted_at   REAL,
    anchor_text  TEXT NOT NULL DEFAULT ''  -- incoming edges' anchor text, for BM25F
);
CREATE INDEX beliefs_content_hash ON beliefs(content_hash);
CREATE INDEX beliefs_locked ON beliefs(locked) WHERE locked = 1;
CREATE INDEX beliefs_session ON beliefs(session) WHERE session IS NOT NULL;

CREATE TABLE edges (
    src         TEXT NOT NULL REFERENCES beliefs(id) ON DELETE CASCADE,
    dst         TEXT NOT NULL REFERENCES beliefs(id) ON DELETE CASCADE,
    type        TEXT NOT NULL CHECK (type IN ({EDGE_TYPE_CHECK})),
    weight      REAL NOT NULL,
    anchor_text TEXT,
    created_at  REAL NOT NULL,
    PRIMARY KEY (src, dst, type),
    CHECK (src <> dst)
) WITHOUT ROWID;
CREATE INDEX edges_dst ON edges(dst, src);

CREATE TABLE belief_corroborations (
    belief_id  TEXT NOT NULL REFERENCES beliefs(id) ON DELETE CASCADE,
    source     TEXT,
    session    TEXT,
    created_at REAL NOT NULL
);
CREATE INDEX belief_corroborations_belief ON belief_corroborations(belief_id);

CREATE TABLE ingest_log (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    at          REAL NOT NULL,
    op          TEXT NOT NULL,
    belief_id   TEXT,
    source_path TEXT,
    payload     TEXT
);
CREATE INDEX ingest_log_belief ON ingest_log(belief_id);
CREATE TRIGGER ingest_log_no_delete BEFORE DELETE ON ingest_log
BEGIN SELECT RAISE(ABORT, 'ingest_log is append-only'); END;
-- The one permitted update is redaction by a hard forget (the text must leave the file).
CREATE TRIGGER ingest_log_no_update BEFORE UPDATE ON ingest_log
WHEN NEW.payload IS NOT '{{"redacted":true}}' OR NEW.seq IS NOT OLD.seq OR NEW.op IS NOT OLD.op
BEGIN SELECT RAISE(ABORT, 'ingest_log is append-only'); END;

-- A row here suspends the per-row FTS insert and anchor-text triggers below. Only a bulk
-- import writes it, inside its own transaction (so no other connection ever sees it), and
-- removes it before it brings the index up to date in set-based statements
-- (store/beliefs.py `bulk_insert`): one INSERT ... SELECT into the FTS index is several
-- times faster than a trigger firing per row.
CREATE TABLE _bulk_load (active INTEGER PRIMARY KEY CHECK (active = 1));

-- The FTS5 index's content table: live beliefs only, so the index (which leaves forgotten
-- beliefs out) and its content agree, and FTS5's own integrity-check holds.
CREATE VIEW beliefs_live AS
    SELECT rid, content, anchor_text FROM beliefs WHERE deleted_at IS NULL;

-- External-content FTS5 over live beliefs only; triggers keep it in step with beliefs.
CREATE VIRTUAL TABLE beliefs_fts USING fts5(
    content, anchor_text,
    content='beliefs_live', content_rowid='rid',
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER beliefs_fts_insert AFTER INSERT ON beliefs
WHEN NEW.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM _bulk_load)
BEGIN
    INSERT INTO beliefs_fts(rowid, content, anchor_text)
    VALUES (NEW.rid, NEW.content, NEW.anchor_text);
END;
CREATE TRIGGER beliefs_fts_delete AFTER DELETE ON beliefs WHEN OLD.deleted_at IS NULL
BEGIN
    INSERT INTO beliefs_fts(beliefs_fts, rowid, content, anchor_text)
    VALUES ('delete', OLD.rid, OLD.content, OLD.anchor_text);
END;
-- One trigger, two statements: separate triggers would fire in an unspecified order, and
-- the index must drop the old row before it takes the new one.
CREATE TRIGGER beliefs_fts_update AFTER UPDATE OF content, anchor_text, deleted_at ON beliefs
BEGIN
    INSERT INTO beliefs_fts(beliefs_fts, rowid, content, anchor_text)
    SELECT 'delete', OLD.rid, OLD.content, OLD.anchor_text WHERE OLD.deleted_at IS NULL;
    INSERT INTO beliefs_fts(rowid, content, anchor_text)
    SELECT NEW.rid, NEW.content, NEW.anchor_text WHERE NEW.deleted_at IS NULL;
END;

-- A belief's anchor_text is the anchor text of its incoming edges, in a fixed order.
CREATE TRIGGER edges_anchor_insert AFTER INSERT ON edges
WHEN NEW.anchor_text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM _bulk_load)
BEGIN
    UPDATE beliefs SET anchor_text = coalesce((
        SELECT group_concat(anchor_text, ' ') FROM (
            SELECT anchor_text FROM edges
            WHERE dst = NEW.dst AND anchor_text IS NOT NULL ORDER BY src, type)), '')
    WHERE id = NEW.dst;
END;
CREATE TRIGGER edges_anchor_delete AFTER DELETE ON edges WHEN OLD.anchor_text IS NOT NULL
BEGIN
    UPDATE beliefs SET anchor_text = coalesce((
        SELECT group_concat(anchor_text, ' ') FROM (
            SELECT anchor_text FROM edges
            WHERE dst = OLD.dst AND anchor_text IS NOT NULL ORDER BY src, type)), '')
    WHERE id = OLD.dst;
END;
CREATE TRIGGER edges_anchor_update AFTER UPDATE OF anchor_text ON edges
BEGIN
    UPDATE beliefs SET anchor_text = coalesce((
        SELECT group_concat(anchor_text, ' ') FROM (
            SELECT anchor_text FROM edges
            WHERE dst = NEW.dst AND anchor_text IS NOT NULL ORDER BY src, type)), '')
    WHERE id = NEW.dst;
END;
"""

# The seed's schema, verbatim in shape: PK (belief_id, doc_uri), cascade, both directions.
M002_BELIEF_DOCUMENTS = """
CREATE TABLE belief_documents (
    belief_id     TEXT NOT NULL REFERENCES beliefs(id) ON DELETE CASCADE,
    doc_uri       TEXT NOT NULL CHECK (length(trim(doc_uri)) > 0),
    anchor_type   TEXT NOT NULL CHECK (anchor_type IN ('ingest', 'manual', 'derived')),
    position_hint TEXT,
    created_at    REAL NOT NULL,
    PRIMARY KEY (belief_id, doc_uri)
);
CREATE INDEX idx_belief_documents_belief ON belief_documents(belief_id);
CREATE INDEX idx_belief_documents_doc ON belief_documents(doc_uri);
"""

# Files `credo ingest` has read: unchanged files (same sha256) are skipped on re-ingest. Its
# first_belief (what a Markdown link to the file CITES: its top heading or first chunk) lets
# a later file cite an unchanged one without re-reading it.
M003_INGESTED_FILES = """
CREATE TABLE ingested_files (
    path         TEXT PRIMARY KEY,  -- repo-relative (or file:/// outside the root)
    content_hash TEXT NOT NULL,     -- sha256 of the file's bytes
    size         INTEGER NOT NULL,
    mtime        REAL NOT NULL,
    ingested_at  REAL NOT NULL,
    beliefs      INTEGER NOT NULL DEFAULT 0,
    first_belief TEXT REFERENCES beliefs(id) ON DELETE SET NULL
);
"""

# Persisted HRR traces (a BLOB per belief with edges), their parameters; `_meta`: small facts.
M004_HRR = """
CREATE TABLE _meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE hrr_traces (
    belief_id TEXT PRIMARY KEY REFERENCES beliefs(id) ON DELETE CASCADE,
    trace     BLOB NOT NULL
);
"""


# The anchor text of the belief whose id is {target}: its incoming edges' anchor text from
# live beliefs, in (src, type) order. Frozen with M005 (store/bulk.py uses the same rule).
LIVE_ANCHOR_TEXT = (
    "coalesce((SELECT group_concat(anchor_text, ' ') FROM ("
    "SELECT e.anchor_text FROM edges e JOIN beliefs s ON s.id = e.src "
    "WHERE e.dst = {target} AND e.anchor_text IS NOT NULL AND s.deleted_at IS NULL "
    "ORDER BY e.src, e.type)), '')"
)

M005_LIVE_ANCHOR_TEXT = f"""
-- A belief's anchor_text is the anchor text of the incoming edges whose source is live: a
-- forgotten belief's words must not keep finding what it cited (M001's triggers read every
-- incoming edge). The triggers are replaced, forgetting or restoring a belief refreshes
-- the beliefs it cites, and the stores written before are brought in line.
DROP TRIGGER edges_anchor_insert;
DROP TRIGGER edges_anchor_delete;
DROP TRIGGER edges_anchor_update;
CREATE TRIGGER edges_anchor_insert AFTER INSERT ON edges
WHEN NEW.anchor_text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM _bulk_load)
BEGIN
    UPDATE beliefs SET anchor_text = {LIVE_ANCHOR_TEXT.format(target="NEW.dst")}
    WHERE id = NEW.dst;
END;
CREATE TRIGGER edges_anchor_delete AFTER DELETE ON edges WHEN OLD.anchor_text IS NOT NULL
BEGIN
    UPDATE beliefs SET anchor_text = {LIVE_ANCHOR_TEXT.format(target="OLD.dst")}
    WHERE id = OLD.dst;
END;
CREATE TRIGGER edges_anchor_update AFTER UPDATE OF anchor_text ON edges
BEGIN
    UPDATE beliefs SET anchor_text = {LIVE_ANCHOR_TEXT.format(target="NEW.dst")}
    WHERE id = NEW.dst;
END;
CREATE TRIGGER beliefs_anchor_source AFTER UPDATE OF deleted_at ON beliefs
WHEN (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
BEGIN
    UPDATE beliefs SET anchor_text = {LIVE_ANCHOR_TEXT.format(target="beliefs.id")}
    WHERE id IN (SELECT dst FROM edges WHERE src = NEW.id AND anchor_text IS NOT NULL);
END;
UPDATE beliefs SET anchor_text = {LIVE_ANCHOR_TEXT.format(target="beliefs.id")}
WHERE id IN (
    SELECT e.dst FROM edges e JOIN beliefs s ON s.id = e.src
    WHERE e.anchor_text IS NOT NULL AND s.deleted_at IS NOT NULL);
"""


# A context field beside content and anchor_text: the words that say where a belief sits
# (its file's path, its section trail, in code the names its body uses), which a passage
# often never repeats. FTS5 cannot add a column, so the index is rebuilt with three.
M006_CONTEXT = """
ALTER TABLE beliefs ADD COLUMN context TEXT NOT NULL DEFAULT '';
DROP TRIGGER beliefs_fts_insert;
DROP TRIGGER beliefs_fts_delete;
DROP TRIGGER beliefs_fts_update;
DROP TABLE beliefs_fts;
DROP VIEW beliefs_live;
CREATE VIEW beliefs_live AS
    SELECT rid, content, anchor_text, context FROM beliefs WHERE deleted_at IS NULL;
CREATE VIRTUAL TABLE beliefs_fts USING fts5(
    content, anchor_text, context,
    content='beliefs_live', content_rowid='rid',
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER beliefs_fts_insert AFTER INSERT ON beliefs
WHEN NEW.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM _bulk_load)
BEGIN
    INSERT INTO beliefs_fts(rowid, content, anchor_text, context)
    VALUES (NEW.rid, NEW.content, NEW.anchor_text, NEW.context);
END;
CREATE TRIGGER beliefs_fts_delete AFTER DELETE ON beliefs WHEN OLD.deleted_at IS NULL
BEGIN
    INSERT INTO beliefs_fts(beliefs_fts, rowid, content, anchor_text, context)
    VALUES ('delete', OLD.rid, OLD.content, OLD.anchor_text, OLD.context);
END;
CREATE TRIGGER beliefs_fts_update
AFTER UPDATE OF content, anchor_text, context, deleted_at ON beliefs
BEGIN
    INSERT INTO beliefs_fts(beliefs_fts, rowid, content, anchor_text, context)
    SELECT 'delete', OLD.rid, OLD.content, OLD.anchor_text, OLD.context
    WHERE OLD.deleted_at IS NULL;
    INSERT INTO beliefs_fts(rowid, content, anchor_text, context)
    SELECT NEW.rid, NEW.content, NEW.anchor_text, NEW.context WHERE NEW.deleted_at IS NULL;
END;
INSERT INTO beliefs_fts(beliefs_fts) VALUES ('rebuild');
-- Which beliefs have a context: a retrieve over a store without any (a conversation's
-- memory) then skips reading trails, at the cost of one index probe.
CREATE INDEX beliefs_with_context ON beliefs(rid) WHERE context <> '';
-- Files ingested before were cut into sentences and carry no context: the next ingest
-- must read them again, unchanged or not, to write their passages.
UPDATE ingested_files SET content_hash = '';
"""


# The agent's day (docs/AGENT.md): what the hooks injected, what they captured from the
# user's own words, and the small automatic feedback they gave, each undoable by session.
M007_AGENT_DAY = """
CREATE TABLE injections (
    id          INTEGER PRIMARY KEY,
    at          REAL NOT NULL,
    session     TEXT,
    event       TEXT NOT NULL,
    prompt_hash TEXT,
    belief_ids  TEXT NOT NULL,
    tokens      INTEGER NOT NULL,
    chars       INTEGER NOT NULL,
    reason      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX injections_by_session ON injections(session, at);
CREATE INDEX injections_by_time ON injections(at);
CREATE TABLE captures (
    belief_id   TEXT PRIMARY KEY REFERENCES beliefs(id) ON DELETE CASCADE,
    session     TEXT,
    at          REAL NOT NULL,
    kind        TEXT NOT NULL,
    transcript  TEXT,
    turn        INTEGER,
    listed_at   REAL
);
CREATE INDEX captures_by_session ON captures(session, at);
CREATE TABLE feedback_events (
    id          INTEGER PRIMARY KEY,
    at          REAL NOT NULL,
    session     TEXT,
    belief_id   TEXT NOT NULL REFERENCES beliefs(id) ON DELETE CASCADE,
    signal      TEXT NOT NULL,
    alpha_delta REAL NOT NULL,
    beta_delta  REAL NOT NULL,
    undone_at   REAL
);
CREATE INDEX feedback_events_by_session ON feedback_events(session, belief_id);
"""


# What SessionStart ranks by (credo.agent.startup), read in a few ms at any size: counting
# uses from the journal itself means reading every row's JSON list (~185 ms for 50k
# injections). So each logged injection also bumps one counter per belief here (all time:
# the journal is pruned, the counts are not; SessionStart's own injections are not uses),
# backfilled from the journal already written. The indexes let SessionStart read only its
# few candidates (store/journal.py ``useful_beliefs``): the most injected beliefs in order,
# and the beliefs whose evidence moved off the prior (few: feedback is rare).
M008_INJECTION_COUNTS = """
CREATE TABLE injection_counts (
    belief_id TEXT PRIMARY KEY REFERENCES beliefs(id) ON DELETE CASCADE,
    times     INTEGER NOT NULL CHECK (times > 0),
    last_at   REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX injection_counts_by_times ON injection_counts(times DESC, belief_id);
INSERT INTO injection_counts(belief_id, times, last_at)
    SELECT j.value, count(DISTINCT i.id), max(i.at) FROM injections AS i,
        json_each(CASE WHEN json_valid(i.belief_ids) THEN i.belief_ids ELSE '[]' END) AS j
    WHERE i.event <> 'session_start' AND j.value IN (SELECT id FROM beliefs)
    GROUP BY j.value;
CREATE INDEX beliefs_with_evidence ON beliefs(id) WHERE alpha <> 1.0 OR beta <> 1.0;
"""


# A belief's retention class (credo.types.RETENTIONS), which the compress stage reads to
# choose how it is rendered (retrieval/compress.py). Beliefs written before are facts, as
# every belief was treated; the files ingested before are read again by the next ingest,
# unchanged or not, so their changelog entries and dated passages get their class.
M009_RETENTION = """
ALTER TABLE beliefs ADD COLUMN retention TEXT NOT NULL DEFAULT 'fact'
    CHECK (retention IN ('fact', 'snapshot', 'transient'));
-- Whether a store holds any belief but facts, read once per store version by a retrieve.
CREATE INDEX beliefs_not_facts ON beliefs(id) WHERE retention <> 'fact';
UPDATE ingested_files SET content_hash = '';
"""


# Line-level term statistics of documentation passages, for the line lane
# (store/line_stats.py, retrieval/lanes/line.py). The files ingested before are read again
# by the next ingest, so their passages get their rows.
M010_PASSAGE_LINES = """
CREATE TABLE passage_lines (
    belief_id TEXT PRIMARY KEY REFERENCES beliefs(id) ON DELETE CASCADE,
    lines     TEXT NOT NULL,
    context   TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE line_df (
    stem TEXT PRIMARY KEY,
    df   INTEGER NOT NULL
) WITHOUT ROWID;
UPDATE ingested_files SET content_hash = '';
"""


# Definition-level term statistics of code, for the definition lane
# (store/defn_stats.py, retrieval/lanes/defn.py). The files ingested before are read again
# by the next ingest, so their definitions and passages get their rows.
M011_DEFINITIONS = """
CREATE TABLE definitions (
    file       TEXT NOT NULL,
    start_line INTEGER NOT NULL,
    end_line   INTEGER NOT NULL,
    terms      TEXT NOT NULL,
    length     INTEGER NOT NULL,
    PRIMARY KEY (file, start_line, end_line)
) WITHOUT ROWID;
CREATE TABLE passage_definitions (
    belief_id  TEXT NOT NULL REFERENCES beliefs(id) ON DELETE CASCADE,
    file       TEXT NOT NULL,
    start_line INTEGER NOT NULL,
    end_line   INTEGER NOT NULL,
    PRIMARY KEY (belief_id, file)
) WITHOUT ROWID;
CREATE INDEX passage_definitions_file ON passage_definitions(file);
CREATE TABLE defn_df (
    stem TEXT PRIMARY KEY,
    df   INTEGER NOT NULL
) WITHOUT ROWID;
UPDATE ingested_files SET content_hash = '';
"""


# Which ingested file states which edge that ingest wrote (store/edge_files.py), so that a
# file that stops stating an edge takes it away when no other file states it (the rules of
# credo.knowledge.ingest), and the links that wait for their file to have a cite target.
# Backfill: the log holds each edge ingest wrote, with the file that wrote it (an
# ``ingest`` row, action ``edge``), unless another writer wrote the same
# edge later (it was deleted in between, say by a hard forget, and is no longer ingest's).
# Which other files state it the log cannot say, so every file is read again by the next
# ingest (as m006 and m009-m011 did), which settles each file's rows; the rows of files
# that already left the ledger (vanished before this migration) are settled by the next
# ingest run as a vanished file's are (knowledge/ingest/run.py, ``_settle_off_ledger``).
M012_EDGE_FILES = """
CREATE TABLE edge_files (
    file       TEXT NOT NULL,
    src        TEXT NOT NULL,
    dst        TEXT NOT NULL,
    type       TEXT NOT NULL,
    cited_file TEXT NOT NULL DEFAULT '',  -- CITES: the file linked to; else ''
    PRIMARY KEY (file, src, dst, type, cited_file),
    FOREIGN KEY (src, dst, type) REFERENCES edges(src, dst, type) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX edge_files_edge ON edge_files(src, dst, type);
CREATE INDEX edge_files_cited ON edge_files(cited_file) WHERE cited_file <> '';
-- Links that make no edge yet (their file is not ingested or has no first belief).
CREATE TABLE pending_cites (
    file       TEXT NOT NULL,
    src        TEXT NOT NULL REFERENCES beliefs(id) ON DELETE CASCADE,
    cited_file TEXT NOT NULL,
    PRIMARY KEY (file, src, cited_file)
) WITHOUT ROWID;
CREATE INDEX pending_cites_cited ON pending_cites(cited_file);
CREATE TEMP TABLE _m012_written AS
    SELECT l.seq AS seq, l.source_path AS file, l.belief_id AS src,
           json_extract(l.payload, '$.dst') AS dst, json_extract(l.payload, '$.type') AS type
    FROM ingest_log l
    WHERE l.op = 'ingest' AND l.source_path IS NOT NULL AND l.belief_id IS NOT NULL
      AND json_valid(l.payload) AND json_extract(l.payload, '$.action') = 'edge';
-- Every edge a relate or an import wrote, with when: one pass over the log, then one
-- indexed probe per ingest edge (scanning the batches per edge was quadratic in the log).
CREATE TEMP TABLE _m012_rewritten AS
    SELECT l.seq AS seq, l.belief_id AS src, json_extract(l.payload, '$.dst') AS dst,
           json_extract(l.payload, '$.type') AS type
    FROM ingest_log l WHERE l.op = 'relate' AND json_valid(l.payload)
    UNION ALL
    SELECT l.seq, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'),
           json_extract(j.value, '$[2]')
    FROM ingest_log l,
        json_each(CASE WHEN json_valid(l.payload) THEN l.payload ELSE '{}' END, '$.edges') j
    WHERE l.op = 'relate_batch';
CREATE INDEX temp._m012_rewritten_key ON _m012_rewritten(src, dst, type, seq);
DELETE FROM _m012_written WHERE EXISTS (
    SELECT 1 FROM _m012_rewritten r
    WHERE r.src = _m012_written.src AND r.dst = _m012_written.dst
      AND r.type = _m012_written.type AND r.seq > _m012_written.seq);
INSERT OR IGNORE INTO edge_files(file, src, dst, type, cited_file)
    SELECT w.file, w.src, w.dst, w.type, '' FROM _m012_written w
    JOIN edges e ON e.src = w.src AND e.dst = w.dst AND e.type = w.type;
DROP TABLE _m012_written;
DROP TABLE _m012_rewritten;
-- Rows of files that already left the ledger (vanished before this migration) are settled
-- by the next ingest run, where deleting an edge is logged and the HRR lane follows it.
INSERT INTO _meta(key, value) SELECT 'edge_files_unsettled', '1' WHERE EXISTS (
    SELECT 1 FROM edge_files WHERE file NOT IN (SELECT path FROM ingested_files));
UPDATE ingested_files SET content_hash = '';
"""


# SessionStart's own statements newest first (``user_statements``) without a table scan.
M014_USER_STATEMENTS = """CREATE INDEX IF NOT EXISTS beliefs_user_statements ON beliefs
(created_at DESC, id) WHERE origin IN ('user_stated', 'user_corrected') AND locked = 0
AND deleted_at IS NULL AND kind IN ('requirement', 'preference', 'correction');"""


class Migration(NamedTuple):
    version: int
    name: str
    apply: Callable[[sqlite3.Connection], None]


def _context_words(apply: str) -> Callable[[sqlite3.Connection], None]:
    # (imported at the run: every open imports this module, only a migration needs these)
    return lambda conn: getattr(import_module("credo.store.context_migration"), apply)(conn)


def _script(sql: str) -> Callable[[sqlite3.Connection], None]:
    def run(conn: sqlite3.Connection) -> None:
        # executescript() would COMMIT our open transaction; run statement by statement.
        for statement in split_statements(sql):
            conn.execute(statement)

    return run


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "m001_initial", _script(M001_INITIAL)),
    Migration(2, "m002_belief_documents", _script(M002_BELIEF_DOCUMENTS)),
    Migration(3, "m003_ingested_files", _script(M003_INGESTED_FILES)),
    Migration(4, "m004_hrr", _script(M004_HRR)),
    Migration(5, "m005_live_anchor_text", _script(M005_LIVE_ANCHOR_TEXT)),
    Migration(6, "m006_context", _script(M006_CONTEXT)),
    Migration(7, "m007_agent_day", _script(M007_AGENT_DAY)),
    Migration(8, "m008_injection_counts", _script(M008_INJECTION_COUNTS)),
    Migration(9, "m009_retention", _script(M009_RETENTION)),
    Migration(10, "m010_passage_lines", _script(M010_PASSAGE_LINES)),
    Migration(11, "m011_definitions", _script(M011_DEFINITIONS)),
    Migration(12, "m012_edge_files", _script(M012_EDGE_FILES)),
    Migration(13, "m013_index_text", lambda c: apply_m013(c, split_statements(M013_INDEX_TEXT))),
    Migration(14, "m014_user_statements", _script(M014_USER_STATEMENTS)),
    Migration(15, "m015_acronyms", _script(M015_ACRONYMS)),
    Migration(16, "m016_value_index", lambda c: apply_m016(c, split_statements(M016_VALUE_INDEX))),
    Migration(17, "m017_context_words", _context_words("apply_m017")),
    Migration(18, "m018_context_words_unicode", _context_words("apply_m018")),
    Migration(19, "m019_anchor_contexts", _script(M019_ANCHOR_CONTEXTS)),
    Migration(20, "m020_own_beliefs", _script(M020_OWN_BELIEFS)),  # (store/own_pool.py)
)
LATEST_VERSION = MIGRATIONS[-1].version


def current_version(conn: sqlite3.Connection) -> int:
    """The highest applied migration, 0 for a fresh file."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'"
    ).fetchone()
    if not exists:
        return 0
    row = conn.execute("SELECT max(version) FROM _migrations").fetchone()
    return int(row[0] or 0)


def check_version(
    conn: sqlite3.Connection, path: str, migrations: tuple[Migration, ...] = MIGRATIONS
) -> int:
    """The file's schema version; a version newer than this code is refused untouched."""
    version = current_version(conn)
    refuse_newer(path, version, migrations[-1].version, "file")
    return version


def read_only_version(path: str, version: int, migrations: tuple[Migration, ...]) -> int:
    """``version``, when a store that cannot be written here needs no migration."""
    latest = migrations[-1].version
    if version < latest:
        raise StoreError(
            f"{path} is read-only here and at schema version {version}: open it once where "
            f"it can be written, to migrate it to {latest}"
        )
    return version


def refuse_newer(where: str, version: int, latest: int, container: str) -> None:
    """Refuse a store whose schema is newer than this code (both backends, untouched)."""
    if version > latest:
        raise SchemaVersionError(
            f"{where} has schema version {version}, newer than this credo understands "
            f"({latest}); upgrade credo to open it (the {container} was not modified)"
        )


def migrate(
    conn: sqlite3.Connection, path: str, migrations: tuple[Migration, ...] = MIGRATIONS
) -> int:
    """Bring the schema up to date; returns the resulting version.

    Each migration runs under ``BEGIN IMMEDIATE`` and re-reads the version inside the
    transaction, so two processes opening a fresh file at once apply each step exactly once.
    """
    version = check_version(conn, path, migrations)
    for migration in migrations:
        if migration.version <= version:
            continue
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError(f"cannot migrate {path}: {exc}") from exc
        try:
            version = current_version(conn)
            if version >= migration.version:
                conn.execute("COMMIT")
                continue
            conn.execute(
                "CREATE TABLE IF NOT EXISTS _migrations ("
                "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
            )
            migration.apply(conn)
            conn.execute(
                "INSERT INTO _migrations(version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, time.time()),
            )
            conn.execute("COMMIT")
            version = migration.version
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return version
