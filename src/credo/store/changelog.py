"""Which documents are changelogs: told by a path's file name or folders.

A changelog (``CHANGES.md``, ``HISTORY.rst``, ``docs/whatsnew/3.12.rst``, a ``newsfragments/``
folder...) records what changed and when. Ranking weighs its passages down
(retrieval/prior.py) and ingest classes them as snapshots (knowledge/retention.py): both ask
here, so the two never disagree on what a changelog is. A code file is never one
(``history.py`` is a module). Pure, and in the store's folder like ``stem.py``: the layer both
retrieval and knowledge may import.
"""

from __future__ import annotations

# File stems (lower case, before the first dot) and folder names a changelog goes by.
_NAMES = frozenset(
    "changes changelog changelogs history news releases release_notes release-notes "
    "releasenotes whatsnew whats_new whats-new".split()
)
_FOLDERS = frozenset(
    "changelog changelogs changes newsfragments releases release_notes release-notes "
    "whatsnew".split()
)
_DOCS = frozenset(("", "md", "markdown", "mdx", "rst", "rest", "txt", "text", "adoc"))


def changelog_stems() -> frozenset[str]:
    """The file stems a changelog goes by (``changes``, ``history``...), lower case."""
    return _NAMES


def is_changelog_path(path: str) -> bool:
    """True when ``path`` (a repo-relative file path, no line range) names a changelog."""
    *folders, name = path.lower().replace("\\", "/").split("/")
    stem, _, extension = name.partition(".")
    if extension.rsplit(".", 1)[-1] not in _DOCS:
        return False
    return stem in _NAMES or any(folder in _FOLDERS for folder in folders)
