"""``doc_anchor_matches`` once for both backends: how a needle is matched (a path prefix,
a file name, a page's stem) and how the rows are shaped. Each backend gives only its three
statements, which take their parameters in the order noted below."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from credo.store.anchors import names_doc

# The highest code point: "a" <= uri < "a" + TOP selects every "a..." (an index range).
TOP = "\U0010ffff"


def like_literal(text: str) -> str:
    """``text`` as a LIKE pattern matching itself (backslash is the escape)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class DocAnchorMatches:
    conn: Any  # sqlite3.Connection or psycopg.Connection: both execute and iterate rows
    # Each selects (belief_id, doc_uri) of live beliefs by (doc_uri, belief_id), at most
    # the last parameter's rows. Parameters: (low, high, limit), the URI range.
    _PREFIX_SQL: ClassVar[str]
    # ("%/name", "%/name#%", name, "name#%", limit): the last path segment, case-blind.
    _NAME_SQL: ClassVar[str]
    # ("%/stem.%", "stem.%", limit): a file whose name without extension is the stem.
    _STEM_SQL: ClassVar[str]

    def doc_anchor_matches(self, needles: Iterable[str], *, limit: int) -> list[tuple[str, str]]:
        """(belief_id, doc_uri) of live beliefs whose anchor names a document matching a
        needle: the whole path (or a folder prefix) or its last path segments.

        A needle with a '/' is matched as a path prefix (index range scan); a bare file
        name as the final segment, which needs a LIKE scan of the anchors table; callers
        only pass names that look like files.
        """
        out: list[tuple[str, str]] = []
        for needle in needles:
            if needle.startswith("page:"):
                out += self._stem_matches(needle.removeprefix("page:"), limit)
                continue
            if "/" in needle or needle.startswith("http"):
                rows = self.conn.execute(self._PREFIX_SQL, (needle, needle + TOP, limit))
                # A prefix scan also finds "docs/a.md.bak" for "docs/a.md": keep the file
                # itself, its #fragments, and what lies under it when it is a folder.
                found = [(str(r[0]), str(r[1])) for r in rows if names_doc(needle, str(r[1]))]
                if found or "/" not in needle:
                    out += found
                    continue
            # The last path segment: "x/name", "x/name#L1-L9", "name", "name#L1-L9".
            name = needle.rsplit("/", 1)[-1]
            if not name:
                continue
            literal = like_literal(name)
            rows = self.conn.execute(
                self._NAME_SQL,
                ("%/" + literal, "%/" + literal + "#%", name, literal + "#%", limit),
            )
            out += [(str(r[0]), str(r[1])) for r in rows]
        return out

    def _stem_matches(self, stem: str, limit: int) -> list[tuple[str, str]]:
        """Anchors to a file whose name without extension is ``stem`` (any folder)."""
        literal = like_literal(stem)
        rows = self.conn.execute(self._STEM_SQL, ("%/" + literal + ".%", literal + ".%", limit))
        return [(str(r[0]), str(r[1])) for r in rows]
