"""docs_multi's section match rules (bench/docs_match.py): overlap, and the precise within."""

from __future__ import annotations

import pytest
from bench.docs_match import (
    OUTSIDE_MAX,
    RULES,
    Loc,
    Within,
    lead_start,
    make_rule,
    overlap,
    section_of,
)
from bench.docs_multi import Query, first_match, score_query
from bench.docs_pack import Pack, score
from hypothesis import given
from hypothesis import strategies as st

METHOD = Loc("lib/sender.js", 100, 130)

JS = """\
export class Sender {
  constructor() {}

  /**
   * Frames a message.
   */

  frame(data) {
    return data;
  }
}
""".splitlines()

PY = """\
x = 1
# a remark
@decorator
@other(arg)
def f():
    pass
""".splitlines()


@pytest.mark.parametrize(
    ("hit", "by_overlap", "by_within"),
    [
        (Loc("lib/sender.js", 23, 568), True, False),  # the class head spans every method
        (METHOD, True, True),
        (Loc("lib/sender.js", 105, 110), True, True),  # a passage inside the method
        (Loc("lib/sender.js", 100, 100 + 30 + OUTSIDE_MAX), True, True),
        (Loc("lib/sender.js", 100, 100 + 30 + OUTSIDE_MAX + 1), True, False),
        (Loc("lib/sender.js", 100 - OUTSIDE_MAX, 120), True, True),
        (Loc("lib/sender.js", 100 - OUTSIDE_MAX - 1, 120), True, False),
        (Loc("lib/sender.js", 131, 140), False, False),
        (Loc("lib/other.js", 100, 130), False, False),
    ],
)
def test_within_refuses_hits_that_reach_far_outside_the_label(
    hit: Loc, by_overlap: bool, by_within: bool
) -> None:
    assert overlap(hit, METHOD) is by_overlap
    assert Within({})(hit, METHOD) is by_within


def test_the_lead_above_a_label_is_part_of_its_extent() -> None:
    rule = Within({METHOD: (80, 130)})
    assert rule(Loc(METHOD.path, 80, 130), METHOD)  # doc comment and definition
    assert rule(Loc(METHOD.path, 77, 130), METHOD)
    assert not rule(Loc(METHOD.path, 76, 130), METHOD)
    assert not rule(Loc(METHOD.path, 80, 99), METHOD)  # the doc comment alone: no overlap


@pytest.mark.parametrize(
    ("lines", "start", "expected"),
    [
        (JS, 8, 4),  # a JSDoc block a blank line above its method
        (JS, 2, 2),  # code directly above
        (PY, 5, 2),  # decorators and a comment
        (PY, 1, 1),
        (["", "", "def f():", "    pass"], 3, 3),  # blank lines alone are no lead
        (["x = 1", "", "", "# note", "", "def f():"], 6, 4),
    ],
)
def test_lead_start(lines: list[str], start: int, expected: int) -> None:
    assert lead_start(lines, start) == expected


MD = """\
# Title

Intro.

## Install

Run it.
Then this.

### Extra

More.
""".splitlines()


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        (7, 7, (5, 9)),  # a paragraph of "Install": its section, up to "Extra"
        (5, 9, (5, 9)),
        (5, 12, (5, 12)),  # a label spanning a subsection keeps it
        (3, 3, (1, 4)),
        (12, 12, (10, 12)),
    ],
)
def test_section_of(start: int, end: int, expected: tuple[int, int]) -> None:
    assert section_of([1, 5, 10], len(MD), start, end) == expected


def test_section_of_a_file_without_headings_is_the_file() -> None:
    assert section_of([], 40, 10, 12) == (1, 40)


def test_make_rule_reads_leads_in_code_and_sections_in_docs() -> None:
    label = Loc("a.js", 8, 10)
    code = make_rule("within", "code", {"a.js": JS}, [label])
    assert isinstance(code, Within) and code.extents == {label: (4, 10)}
    paragraph = Loc("a.md", 7, 7)
    docs = make_rule("within", "docs", {"a.md": MD}, [paragraph, Loc("a.md", 40, 41)])
    assert isinstance(docs, Within) and docs.extents == {paragraph: (5, 9)}  # (past the end)
    assert docs(Loc("a.md", 5, 8), paragraph)  # a passage of the section holding the label
    assert not docs(Loc("a.md", 1, 9), paragraph)  # one reaching into "Title"
    assert make_rule("overlap", "code", {}, [label]) is overlap
    assert set(RULES) == {"overlap", "within"}


def test_make_rule_names_an_unknown_rule() -> None:
    with pytest.raises(ValueError, match="'exact'"):
        make_rule("exact", "code", {}, [])


def test_a_class_head_no_longer_takes_rank_one() -> None:
    other = Loc("lib/sender.js", 200, 220)
    query = Query("q", "multi", "how is a frame built", ((METHOD,), (other,)))
    ranking = [(Loc(METHOD.path, 23, 568),), (), (Loc(METHOD.path, 101, 112),)]
    loose = score_query(ranking, query, overlap)
    strict = score_query(ranking, query, Within({}))
    assert (loose["rank"], loose["all_groups@10"]) == (1, 1.0)
    assert (strict["rank"], strict["all_groups@10"], strict["groups_found"]) == (3, 0.0, 1)
    assert strict["doc_ndcg@10"] == loose["doc_ndcg@10"]  # file level: the rule is no part


def test_the_pack_is_scored_by_the_same_rule() -> None:
    query = Query("q", "code", "frame", ((METHOD,),))
    pack = Pack([(Loc(METHOD.path, 23, 568),)], tokens=10)
    assert score(pack, query, overlap)["section_in_pack"] == 1.0
    assert score(pack, query, Within({}))["section_in_pack"] == 0.0


spans = st.tuples(st.integers(1, 60), st.integers(0, 40)).map(lambda t: (t[0], t[0] + t[1]))


@given(hit=spans, label=spans, lead=st.integers(0, 20), limit=st.integers(0, 10))
def test_within_only_removes_matches_and_keeps_hits_inside_the_label(
    hit: tuple[int, int], label: tuple[int, int], lead: int, limit: int
) -> None:
    h, lab = Loc("f", *hit), Loc("f", *label)
    extent = (max(1, lab.start - lead), lab.end + lead)
    rule = Within({lab: extent}, limit)
    if rule(h, lab):
        assert overlap(h, lab)
        assert Within({lab: extent}, limit + 1)(h, lab)
    if lab.start <= h.start and h.end <= lab.end:
        assert rule(h, lab)
    ranking = [(h,)]
    assert (first_match(ranking, [lab], 10, rule) is not None) is rule(h, lab)


@given(
    heads=st.lists(st.integers(1, 80), unique=True).map(sorted),
    span=st.tuples(st.integers(1, 80), st.integers(0, 20)),
)
def test_a_section_holds_its_label_and_crosses_no_heading(
    heads: list[int], span: tuple[int, int]
) -> None:
    start, end = span[0], min(span[0] + span[1], 80)
    first, last = section_of(heads, 80, start, end)
    assert 1 <= first <= start <= end <= last <= 80
    assert not any(first < h <= start or end < h <= last for h in heads)


@pytest.mark.parametrize(
    ("underline", "is_title"),
    [("=" * 12, True), ("=" * 10, True), ("====", True), ("===", False)],
)
def test_an_rst_title_is_read_as_docutils_reads_it(underline: str, is_title: bool) -> None:
    # docutils takes an underline shorter than its title when it has 4+ characters.
    from bench.docs_baselines import rst_headings

    lines = ["Intro text.", "", "Twelve chars", underline, "", "Body."]
    assert bool(rst_headings(lines)) is is_title


def test_a_decorator_or_block_comment_over_several_lines_leads_whole() -> None:
    lines = [
        "x = 1",
        "@pytest.mark.parametrize(",
        "    'a',",
        "    [1, 2],",
        ")",
        "def f(a):",
        "    return a",
        "/* plain",
        "   block comment",
        "*/",
        "function g() {}",
        "call(",
        ")",
        "def h(): pass",
    ]
    assert lead_start(lines, 6) == 2
    assert lead_start(lines, 11) == 8
    assert lead_start(lines, 14) == 14  # a call's closing bracket is no decorator


def test_a_typescript_file_is_cut_into_definitions_whatever_javascript_grammar_is_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # review82: .ts files went through the JavaScript parser, which is tree-sitter-javascript
    # when installed (a TypeScript annotation is an error there): the baselines' figures on
    # a TypeScript corpus depended on the machine. Stand-in: a "JavaScript" grammar that
    # reads no JavaScript at all (Python's).
    import sys
    import types

    import tree_sitter_python
    from bench import docs_baselines

    fake = types.ModuleType("tree_sitter_javascript")
    fake.language = tree_sitter_python.language  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tree_sitter_javascript", fake)
    monkeypatch.setattr(docs_baselines, "_JS_PARSER", None)
    monkeypatch.setattr(docs_baselines, "_JS_STATUS", "")
    lines = [
        "/** Adds. */",
        "export function add(a: number, b: number): number {",
        "  return a + b;",
        "}",
        "export class Box<T> {",
        "  get(): T { return this.value; }",
        "}",
    ]
    problems: list[str] = []
    units = docs_baselines.function_units("src/add.ts", lines, problems)
    assert (2, 4) in {(u.start, u.end) for u in units} or (1, 4) in {
        (u.start, u.end) for u in units
    }
    assert any("Box" in u.context and u.start <= 6 <= u.end for u in units)
