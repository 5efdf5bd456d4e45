"""A declaration with no body that the signature cap cuts (a long TypeScript type alias).

Its text is its signature, cut at `MAX_SIGNATURE_CHARS`; having no body, it had no context
either, so the names past the cut were in no chunk, and a comment inside it, taken into
the signature, was lost with them (immer's ``Draft``, ``Immutable``,
``InferCurriedFromRecipe``: "// not a function"). Now its names are read as a body's and
its comments stay comments. Main (21029d04) fails the first test.
"""

from __future__ import annotations

from credo.knowledge.chunk import split_code
from tests.test_chunk_code import check

_BRANCHES = "\n".join(
    f"\t: T extends Shape{n}Kind\n\t? Shape{n}Draft<T> // branch {n} drafts shape{n}"
    for n in range(12)
)
_LONG = f"""\
/** Convert a readonly type into a mutable one. */
export type Draft<T> = T extends Primitive
\t? T
{_BRANCHES}
\t: never
"""


def test_a_cut_type_alias_reads_its_names_and_keeps_its_comments() -> None:
    chunks = split_code(_LONG, "typescript")
    head = chunks[0]
    assert head.role == "definition" and head.section == ("Draft",)
    assert head.text.endswith(" …") and "//" not in head.text
    assert "shape11 kind" in head.context or "shape11" in head.context
    comments = [(c.text, c.start_line, c.section) for c in chunks if c.role == "code_comment"]
    assert comments[-1] == ("branch 11 drafts shape11", 27, ("Draft",))
    assert len(comments) == 12
    check(chunks, _LONG)


def test_a_short_type_alias_keeps_its_comment_in_its_text() -> None:
    source = "type Id = string | number // either kind\n"
    [chunk] = split_code(source, "typescript")
    assert chunk.text == "type Id = string | number // either kind" and chunk.context == ""
