"""The knowledge path: what turns files and records into beliefs and keeps them true.
Parsers (``chunk/``), document ingest (``ingest/``), the records format and its importer,
document URIs and anchors (``docuri``, ``linker``, ``doctor``), belief identity, and the
near-duplicate audit (``dedup``)."""
