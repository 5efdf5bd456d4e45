"""m019: each file's context of a belief (``anchor_contexts``).

A belief is its text: two files holding one text (two modules' ``def __init__(self):``,
Go's ``func init()`` in two files) make one belief with an ``ingest`` anchor in each. Its
context (the trail, the body's names: what BM25F reads beside the text) was one file's,
so the other copy could not be found by its own body's words or its path. Each file of a
belief held by several files now keeps the context the belief has there, and the belief's
indexed context is their union (knowledge/ingest/copies.py); a belief held by one file
has no row (its context is that file's).

Backfill: the stored context of a belief held by several files is the file's its trail
names; the other files' contexts are read again by the next ingest, as m006 and m009-m012
did (every file's hash cleared).
"""

M019_ANCHOR_CONTEXTS = """
CREATE TABLE IF NOT EXISTS anchor_contexts (
    belief_id TEXT NOT NULL REFERENCES beliefs(id) ON DELETE CASCADE,
    file      TEXT NOT NULL,
    context   TEXT NOT NULL,
    PRIMARY KEY (belief_id, file)
) WITHOUT ROWID;
INSERT OR IGNORE INTO anchor_contexts(belief_id, file, context)
    SELECT d.belief_id, substr(d.doc_uri, 1, instr(d.doc_uri, '#') - 1), b.context
    FROM belief_documents d JOIN beliefs b ON b.id = d.belief_id
    WHERE d.anchor_type = 'ingest' AND b.context <> '' AND instr(d.doc_uri, '#') > 1
      AND substr(b.context, 1, instr(d.doc_uri, '#'))
          = substr(d.doc_uri, 1, instr(d.doc_uri, '#') - 1) || ' '
      AND EXISTS (SELECT 1 FROM belief_documents e WHERE e.belief_id = d.belief_id
          AND e.anchor_type = 'ingest' AND instr(e.doc_uri, '#') > 1
          AND substr(e.doc_uri, 1, instr(e.doc_uri, '#'))
              <> substr(d.doc_uri, 1, instr(d.doc_uri, '#')));
UPDATE ingested_files SET content_hash = '';
"""
