"""The knowledge path: what turns files and records into beliefs and keeps them true.
Parsers (``chunk/``), document ingest (``ingest/``), the records format and its importer,
document URIs and anchors (``docuri``, ``linker``, ``doctor``), belief identity, the
near-duplicate audit (``dedup``), and capture from what the user types (``capture`` with its
vocabulary: ``signals``, ``guards``, ``paste``, ``term_patterns``; and ``redact``, which
keeps secrets out of stored text)."""
