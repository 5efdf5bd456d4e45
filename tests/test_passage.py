"""`passages`: a file's fine chunks grouped into section-bounded passages (the indexed unit).

Cases pin each rule of the module docstring; hypothesis checks the invariants over random
documents built section by section, so that the test knows each chunk's section, its
parent section and which headings hold nothing but subsections without asking the code.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import Chunk, split_file
from credo.knowledge.chunk.model import unique, with_heading_index
from credo.knowledge.chunk.passage import PASSAGE_CAP, PASSAGE_FLOOR, passages
from credo.types import TRAIL_SEPARATOR as SEP

CAP, FLOOR = 100, 30  # small limits keep the cases readable


def heading(line: int, *section: str) -> Chunk:
    return Chunk(section[-1], line, line, "heading", section)


def para(
    line: int,
    size: int,
    *section: str,
    role: str = "paragraph",
    end: int | None = None,
    links: tuple[str, ...] = (),
    context: str = "",
) -> Chunk:
    """A chunk of exactly `size` characters, its line number written in it."""
    text = f"p{line} ".ljust(size, "x")[:size]
    return Chunk(text, line, line if end is None else end, role, section, None, links, context)


def joined(*chunks: Chunk) -> str:
    return "\n".join(c.text for c in chunks)


def shape(out: list[Chunk]) -> list[tuple[int, int, str, int | None]]:
    """(start, end, role, heading_index) of each passage: what most cases check."""
    return [(p.start_line, p.end_line, p.role, p.heading_index) for p in out]


def run(chunks: list[Chunk]) -> list[Chunk]:
    return passages(chunks, cap=CAP, floor=FLOOR)


# -- the rules, case by case ---------------------------------------------------------------


def test_chunks_of_a_section_join_up_to_the_cap() -> None:
    chunks = [heading(1, "A"), *(para(line, 40, "A") for line in (3, 4, 5, 6))]
    out = run(chunks)
    # 1 + 1 + 40 + 1 + 40 = 83 <= 100; a third paragraph would make 124.
    assert shape(out) == [(1, 4, "heading", None), (5, 6, "passage", 0)]
    assert out[0].text == joined(*chunks[:3])
    assert out[1].text == joined(*chunks[3:])
    assert all(len(p.text) <= CAP for p in out)


@pytest.mark.parametrize("size", [CAP + 1, 3 * CAP])
def test_a_chunk_longer_than_the_cap_is_a_passage_of_its_own(size: int) -> None:
    big = para(4, size, "A", end=6)
    chunks = [heading(1, "A"), para(2, 40, "A"), big, para(7, 40, "A"), para(8, 40, "A")]
    out = run(chunks)
    assert shape(out) == [(1, 2, "heading", None), (4, 6, "paragraph", 0), (7, 8, "passage", 0)]
    assert out[1].text == big.text and len(out[1].text) > CAP


def test_a_passage_never_crosses_a_section() -> None:
    chunks = [
        heading(1, "A"),
        para(3, 10, "A"),
        heading(5, "A", "B"),
        para(7, 10, "A", "B"),
        heading(9, "C"),
        para(11, 10, "C"),
    ]
    out = run(chunks)  # everything would fit in one passage of 100
    assert [p.section for p in out] == [("A",), ("A", "B"), ("C",)]
    assert shape(out) == [(1, 3, "heading", None), (5, 7, "heading", 0), (9, 11, "heading", None)]


def test_two_sections_of_one_trail_stay_apart() -> None:
    """Two "Example" headings at one level share a trail; each opens its own passage."""
    chunks = [
        heading(1, "A"),
        heading(3, "A", "Example"),
        para(5, 10, "A", "Example"),
        heading(7, "A", "Example"),
        para(9, 10, "A", "Example"),
    ]
    out = run(chunks)
    assert [p.text for p in out] == [joined(*chunks[1:3]), joined(*chunks[3:5])]
    assert shape(out) == [(3, 5, "heading", None), (7, 9, "heading", None)]


def test_a_heading_is_folded_into_its_sections_first_passage() -> None:
    chunks = [
        heading(1, "Install"),
        para(3, 50, "Install", links=("a.md",)),
        para(4, 60, "Install"),
    ]
    out = run(chunks)
    assert out[0].text.startswith("Install\np3 ")
    assert (out[0].start_line, out[0].role) == (1, "heading")
    assert out[0].links == ("a.md",)
    assert not any(p.text == "Install" for p in out)


def test_a_heading_is_folded_even_before_a_chunk_near_the_cap() -> None:
    chunks = [heading(1, "Install"), para(3, CAP - 3, "Install"), para(4, 50, "Install")]
    out = run(chunks)
    assert out[0].text.startswith("Install\np3 ")
    assert not any(p.text == "Install" for p in out)


@pytest.mark.parametrize(
    ("chunks", "expected"),
    [
        # A heading with only a subsection after it adds nothing of its own.
        (
            [heading(1, "A"), heading(3, "A", "B"), para(5, 20, "A", "B")],
            [(3, 5, "heading", None)],
        ),
        # The same heading as the last thing of the file stays.
        ([para(1, 20), heading(3, "A")], [(1, 1, "paragraph", None), (3, 3, "heading", None)]),
        # A sibling that follows is not a subsection: the heading stays.
        (
            [heading(1, "A"), heading(3, "B"), para(5, 20, "B")],
            [(1, 1, "heading", None), (3, 5, "heading", None)],
        ),
    ],
)
def test_a_heading_only_section_before_a_subsection_is_dropped(
    chunks: list[Chunk], expected: list[tuple[int, int, str, int | None]]
) -> None:
    assert shape(run(chunks)) == expected


def test_a_subsection_of_a_dropped_heading_never_derives_from_its_namesake() -> None:
    chunks = [
        heading(1, "API"),
        heading(3, "API", "Examples"),
        para(5, 20, "API", "Examples"),
        heading(7, "API", "Examples"),  # a second section of the same title
        heading(9, "API", "Examples", "Python"),  # dropped: a subsection follows? no: text
        para(11, 20, "API", "Examples", "Python"),
    ]
    out = run(chunks)
    python = next(p for p in out if p.section[-1] == "Python")
    # Its parent is its own "Examples" (dropped, so none), never the first "Examples".
    assert python.heading_index is None


def test_a_short_tail_joins_the_passage_before_it() -> None:
    chunks = [heading(1, "A"), para(3, 60, "A"), para(4, 60, "A"), para(5, 10, "A")]
    out = run(chunks)
    assert shape(out) == [(1, 3, "heading", None), (4, 5, "passage", 0)]


def test_links_and_context_are_the_union_of_the_members() -> None:
    chunks = [
        heading(1, "A"),
        para(3, 20, "A", links=("x.md",), context="alpha"),
        para(4, 20, "A", links=("y.md", "x.md"), context="beta"),
    ]
    (out,) = run(chunks)
    assert out.links == ("x.md", "y.md")
    assert out.context == "alpha beta"


def test_code_gives_words_and_lines_not_text() -> None:
    chunks = [
        heading(1, "Help"),
        para(3, 20, "Help"),
        Chunk("ctx = dict(help_option_names=['-h'])", 5, 7, "code", ("Help",)),
    ]
    (out,) = run(chunks)
    assert out.text == joined(*chunks[:2])
    assert (out.start_line, out.end_line) == (1, 7)
    assert "help_option_names" in out.context.split()
    # A section of code alone adds no passage.
    assert run([Chunk("x = compute(1)", 1, 3, "code", ())]) == []


def test_leading_code_before_an_oversize_chunk_keeps_its_words() -> None:
    chunks = [Chunk("client = make_client(retries=3)", 1, 3, "code", ()), para(5, 3 * CAP)]
    (out,) = run(chunks)
    assert (out.start_line, out.end_line) == (1, 5)
    assert "make_client" in out.context.split()


def test_a_module_docstring_is_the_parent_of_top_definitions() -> None:
    chunks = [
        Chunk("Tools for the client.", 1, 1, "docstring", ()),
        Chunk("def fetch(url)", 3, 9, "definition", ("fetch",)),
        Chunk("def close()", 11, 12, "definition", ("close",)),
    ]
    assert [p.heading_index for p in run(chunks)] == [None, 0, 0]


def test_a_comment_between_methods_keeps_the_class_open() -> None:
    # The comment's trail is the class's own: more of the class, not a sibling of it. The
    # methods after it hang from the class like those before it (issue #14, fourth pass:
    # they used to lose their parent, and the graph lanes read them as unrelated).
    chunks = [
        Chunk("class Timeout: Timeout configuration.", 1, 40, "definition", ("Timeout",)),
        Chunk("def __init__(self)", 3, 5, "definition", ("Timeout", "__init__")),
        Chunk("__str__ kept for backwards compatibility", 7, 7, "code_comment", ("Timeout",)),
        Chunk("def clone(self) -> Timeout", 9, 12, "definition", ("Timeout", "clone")),
        Chunk("def read_timeout(self) -> float", 14, 40, "definition", ("Timeout", "read_timeout")),
    ]
    assert [p.heading_index for p in run(chunks)] == [None, 0, 0, 0, 0]


def test_a_module_comment_between_functions_keeps_the_module_docstring_open() -> None:
    chunks = [
        Chunk("Tools for the client.", 1, 1, "docstring", ()),
        Chunk("def fetch(url)", 3, 9, "definition", ("fetch",)),
        Chunk("How should we wait on sockets?", 11, 11, "code_comment", ()),
        Chunk("def close()", 13, 14, "definition", ("close",)),
    ]
    assert [p.heading_index for p in run(chunks)] == [None, 0, 0, 0]


def test_a_second_heading_of_one_trail_is_a_sibling_not_a_child() -> None:
    # An opener with the trail of an open section closes it (two "Example" headings).
    chunks = [
        heading(1, "API"),
        para(2, 20, "API"),
        heading(3, "API", "Example"),
        para(4, 20, "API", "Example"),
        heading(5, "API", "Example"),
        para(6, 20, "API", "Example"),
    ]
    assert [p.heading_index for p in run(chunks)] == [None, 0, 0]


def test_on_a_real_markdown_file() -> None:
    text = (
        "# Guide\n\nIntro words here.\n\n## Install\n\nUse pip.\nOr use uv.\n\n"
        "## Upgrade\n\nRun the migrations.\n"
    )
    out = passages(split_file("guide.md", text))
    assert [(p.text, p.start_line, p.end_line, p.heading_index) for p in out] == [
        ("Guide\nIntro words here.", 1, 3, None),
        ("Install\nUse pip. Or use uv.", 5, 8, 0),
        ("Upgrade\nRun the migrations.", 10, 12, 0),
    ]


# -- invariants over random documents ------------------------------------------------------


@dataclass
class Section:
    """One section as generated: its chunks (opener first, if any) and its parent."""

    chunks: list[Chunk]
    parent: int | None  # index of the enclosing section, None at top level
    dropped: bool = False  # a heading with nothing but a subsection after it
    passages: list[int] = field(default_factory=list)  # indices into the output


_TITLES = st.sampled_from(["Intro", "Example", "Setup", "API", "Notes"])
_SIZES = st.one_of(st.integers(1, 60), st.integers(61, 300), st.integers(700, 1000))
_BODY_ROLES = st.sampled_from(
    ["paragraph", "bullet", "sentence", "code_comment", "docstring", "code"]
)


@st.composite
def documents(draw: st.DrawFn) -> list[Section]:
    sections: list[Section] = []
    line = 1

    def body(trail: tuple[str, ...], count: int) -> list[Chunk]:
        nonlocal line
        chunks = []
        for _ in range(count):
            role = draw(_BODY_ROLES)
            size, span = draw(_SIZES), draw(st.integers(0, 3))
            text = f"c{line} ".ljust(size, "w")
            links = tuple(
                draw(
                    st.lists(
                        st.sampled_from(["a.md", "b.md", "https://x.io"]), max_size=2, unique=True
                    )
                )
            )
            context = draw(st.sampled_from(["", "", "alpha", "beta gamma"]))
            chunks.append(Chunk(text, line, line + span, role, trail, None, links, context))
            line += span + 1 + draw(st.integers(0, 2))
        return chunks

    if draw(st.booleans()):  # text before the first heading
        sections.append(Section(body((), draw(st.integers(1, 4))), None))
    stack: list[int] = []  # open sections, outermost first
    for _ in range(draw(st.integers(0, 10))):
        depth = draw(st.integers(1, len(stack) + 1))
        stack = stack[: depth - 1]
        trail = (*(sections[i].chunks[0].section[-1] for i in stack), draw(_TITLES))
        role = draw(st.sampled_from(["heading", "heading", "heading", "definition"]))
        opener = Chunk(trail[-1], line, line, role, trail)
        line += 1 + draw(st.integers(0, 2))
        sections.append(
            Section([opener, *body(trail, draw(st.integers(0, 6)))], stack[-1] if stack else None)
        )
        stack.append(len(sections) - 1)
    for here, after in itertools.pairwise(sections):
        only = len(here.chunks) == 1 and here.chunks[0].role == "heading"
        if only and after.parent is not None and _is_ancestor(sections, here, after):
            here.dropped = True
    return sections


def _is_ancestor(sections: list[Section], outer: Section, inner: Section) -> bool:
    parent = inner.parent
    while parent is not None:
        if sections[parent] is outer:
            return True
        parent = sections[parent].parent
    return False


def _flat(sections: list[Section]) -> list[Chunk]:
    return [chunk for section in sections for chunk in section.chunks]


def _members(chunks: list[Chunk], passage: Chunk) -> list[Chunk]:
    return [
        c for c in chunks if passage.start_line <= c.start_line and c.end_line <= passage.end_line
    ]


def _assign(sections: list[Section], out: list[Chunk]) -> None:
    """Which section each passage came from, by its lines."""
    for index, passage in enumerate(out):
        owners = {
            id(s)
            for s in sections
            for c in s.chunks
            if passage.start_line <= c.start_line and c.end_line <= passage.end_line
        }
        assert len(owners) == 1, f"passage {index} spans {len(owners)} sections"
        (owner,) = (s for s in sections if id(s) in owners)
        owner.passages.append(index)


@settings(max_examples=300, deadline=None)
@given(documents(), st.sampled_from([(CAP, FLOOR), (PASSAGE_CAP, PASSAGE_FLOOR), (250, 60)]))
def test_passage_invariants(sections: list[Section], limits: tuple[int, int]) -> None:
    cap, floor = limits
    chunks = _flat(sections)
    out = passages(chunks, cap=cap, floor=floor)

    # Deterministic, sorted by line, ranges disjoint.
    assert passages(chunks, cap=cap, floor=floor) == out
    for before, after in itertools.pairwise(out):
        assert before.end_line < after.start_line

    # Every chunk's lines lie in exactly one passage, unless its section was a dropped
    # heading or held code alone.
    for section in sections:
        silent = section.dropped or all(c.role == "code" for c in section.chunks)
        for chunk in section.chunks:
            holders = [
                p for p in out if p.start_line <= chunk.start_line and chunk.end_line <= p.end_line
            ]
            assert len(holders) == (0 if silent else 1), (chunk, silent)

    # Heading-led passages repeat no text an outer title could tell apart: a repeat stays
    # as it is only when every run of its titles is another passage's text, before or
    # after it (a definition's lead, told apart first, may come later: review67).
    before: set[str] = set()
    held = {passage.text for passage in out}
    for passage in out:
        if passage.role == "heading" and passage.text in before:
            outer = passage.section[:-1]
            for d in range(1, len(outer) + 1):
                assert SEP.join((*outer[-d:], passage.text)) in held
        before.add(passage.text)

    _assign(sections, out)  # no passage spans two sections
    for section in sections:
        if not section.passages:
            continue
        for position, index in enumerate(section.passages):
            passage = out[index]
            members = _members(chunks, passage)
            texts = [m for m in members if m.role != "code"]
            # A passage's text is its chunks' text, in order, code left out; led by its
            # outer section titles when a passage before it had that text (heading- or
            # definition-led).
            own_text = "\n".join(m.text for m in texts)
            if passage.text != own_text:
                # (any other passage: led by its trail's titles, its own too)
                opens = passage.role in ("heading", "definition")
                outer = passage.section[:-1] if opens else passage.section
                leads = [SEP.join((*outer[-d:], own_text)) for d in range(1, len(outer) + 1)]
                assert passage.text in leads
                assert (
                    opens
                    or own_text in {p.text for p in out if p is not passage}
                    or any(p.text.endswith(SEP + own_text) for p in out if p is not passage)
                )
                if passage.role == "heading":  # (a definition: every copy is led, the first too)
                    assert own_text in {p.text for p in out[:index]}
            assert (passage.start_line, passage.end_line) == (
                members[0].start_line,
                members[-1].end_line,
            )
            assert passage.section == section.chunks[0].section
            assert passage.links == unique([link for m in members for link in m.links])
            # Context: the chunks' own words, each once, then the code's names.
            own = " ".join(unique([m.context for m in members]))
            if len(texts) == len(members):
                assert passage.context == own
            else:
                assert passage.context[: len(own)] == own
            # Within the cap, or one oversize chunk, plus at most a short tail.
            # (a heading always takes the chunk after it, whatever its size)
            longest = max(len(m.text) for m in texts)
            lead = len(texts[0].text) + 1 if texts[0].role == "heading" and len(texts) > 1 else 0
            assert len(passage.text) <= max(cap, longest + lead) + floor + 1
            if len(members) == 1:
                assert passage.role == members[0].role
            else:
                head = texts[0].role
                assert passage.role == (head if head in ("heading", "definition") else "passage")
            # Parent: the section's first passage, or for that one, the first passage of
            # the nearest enclosing section that has passages.
            if position > 0:
                assert passage.heading_index == section.passages[0]
            elif _trails_unique(sections):
                assert passage.heading_index == _expected_parent(sections, section)
            elif passage.heading_index is not None:
                # Two sections may share a trail (see the xfail test on a dropped parent):
                # then at least an earlier opener whose trail encloses this one's.
                parent = out[passage.heading_index]
                assert passage.heading_index < index
                header = passage.heading_index == _file_header(sections)
                assert header or parent.role in ("heading", "definition")
                assert passage.section[: len(parent.section)] == parent.section
                assert len(passage.section) > len(parent.section)
        last = out[section.passages[-1]]
        if len(section.passages) > 1 and not any(m.role == "code" for m in _members(chunks, last)):
            assert len(last.text) >= floor  # the tail was merged otherwise


def _trails_unique(sections: list[Section]) -> bool:
    trails = [s.chunks[0].section for s in sections]
    return len(trails) == len(set(trails))


def _expected_parent(sections: list[Section], section: Section) -> int | None:
    parent = section.parent
    while parent is not None and sections[parent].dropped:
        parent = sections[parent].parent
    if parent is not None:
        return sections[parent].passages[0]
    return None if section is sections[0] else _file_header(sections)


def _file_header(sections: list[Section]) -> int | None:
    """The passage top-level sections hang from: the text before the first heading, when it
    opens on a module docstring (in code, what the file's definitions belong to)."""
    lead = sections[0]
    opens = lead.parent is None and lead.chunks[0].role == "docstring"
    if opens and not lead.chunks[0].section and lead.passages and lead is not sections[-1]:
        return lead.passages[0]
    return None


@settings(max_examples=200, deadline=None)
@given(documents())
def test_passages_of_passages(sections: list[Section]) -> None:
    """Not idempotent by design: a one-passage section's passage has role "heading", so a
    second pass takes it for a bare heading: it drops it when a subsection follows, or it
    gives it the passage after it. What holds: a second pass never splits or alters a
    passage; each of its passages is a run of consecutive first-pass passages of one
    section, and what it leaves out is a heading-led passage before a subsection."""
    once = run(_flat(sections))
    twice = run(once)
    covered: set[int] = set()
    for passage in twice:
        run_of = [
            i
            for i, p in enumerate(once)
            if passage.start_line <= p.start_line and p.end_line <= passage.end_line
        ]
        assert run_of and run_of == list(range(run_of[0], run_of[-1] + 1))
        assert {once[i].section for i in run_of} == {passage.section}
        assert passage.text == "\n".join(once[i].text for i in run_of)
        covered.update(run_of)
    for index, passage in enumerate(once):
        if index in covered:
            continue
        following = once[index + 1] if index + 1 < len(once) else None
        assert passage.role == "heading"
        assert (
            following is not None and following.section[: len(passage.section)] == passage.section
        )
        assert len(following.section) > len(passage.section)


def key(p: Chunk) -> tuple[object, ...]:
    """A passage without its heading_index (which a drop before it shifts)."""
    return (p.text, p.start_line, p.end_line, p.role, p.section, p.links, p.context)


@given(
    st.lists(
        st.tuples(st.text(min_size=1, max_size=1200), st.integers(0, 4)),
        max_size=12,
    )
)
def test_plain_text_always_passes_through(paragraphs: list[tuple[str, int]]) -> None:
    chunks: list[Chunk] = []
    line = 1
    for text, span in paragraphs:
        chunks.append(Chunk(text, line, line + span, "text"))
        line += span + 2
    assert passages(chunks) == chunks


def test_relinking_a_chunk_keeps_every_other_field() -> None:
    """`with_heading_index` names each field of `Chunk`: one added later and left out
    would be lost when a chunker relinks (it must read as `Chunk._replace`)."""
    chunk = Chunk(
        "text", 3, 9, "definition", ("A", "b"), 2, ("x.md",), "words", members=True, value=True
    )
    values = {name: getattr(chunk, name) for name in Chunk._fields}
    assert all(v not in (None, (), "", False) for v in values.values())  # none at its default
    assert with_heading_index(chunk, 7) == chunk._replace(heading_index=7)
    assert with_heading_index(chunk, None) == chunk._replace(heading_index=None)
    assert with_heading_index(chunk, 2) is chunk


def test_a_repeated_heading_passage_leads_with_the_section_around_it() -> None:
    """Two options' "Examples" sections of tabbed code alone: the same text, which ingest
    would make one belief anchored at the first; the second leads with its option's title,
    the third (its option's title repeats too) with the two above it; a repeat with no
    outer title, or not led by its heading, stays as it is."""

    def examples(line: int, *outer: str) -> list[Chunk]:
        section = (*outer, "Examples")
        return [heading(line, *section), Chunk("x = 1", line + 1, line + 3, "code", section)]

    chunks = [
        *examples(1, "Options", "skip"),
        *examples(5, "Options", "test-skip"),
        *examples(9, "Guide", "test-skip"),
        *examples(13),  # top level: no outer title
        para(17, 20, "Notes"),
        para(18, 20, "Notes", role="text"),
        Chunk(para(17, 20).text, 19, 19, "text"),
    ]
    assert [p.text for p in passages(chunks)] == [
        "Examples",
        "test-skip › Examples",
        "Guide › test-skip › Examples",
        "Examples",
        "p17 xxxxxxxxxxxxxxxx",
        "p18 xxxxxxxxxxxxxxxx",
        "p17 xxxxxxxxxxxxxxxx",
    ]


def test_definitions_of_one_text_each_lead_with_their_owners() -> None:
    """``def __init__(self)`` in two classes, and ``def run(self)`` in two classes of two
    modules' worth of nesting: one text, which ingest would make one belief anchored at the
    first. Every copy leads with its owners, the first too, up to the first title that tells
    them all apart; a unique definition, and a copy no owner tells apart, stay as they are."""

    def definition(line: int, *trail: str, text: str) -> Chunk:
        return Chunk(text, line, line + 1, "definition", trail)

    chunks = [
        definition(1, "Reader", "__init__", text="def __init__(self)"),
        definition(3, "Reader", "read", text="def read(self)"),
        definition(5, "Writer", "__init__", text="def __init__(self)"),
        definition(7, "a", "Job", "run", text="def run(self)"),
        definition(9, "b", "Job", "run", text="def run(self)"),
        definition(11, "main", text="def main()"),
        definition(13, "main", text="def main()"),
    ]
    assert [p.text for p in passages(chunks)] == [
        "Reader › def __init__(self)",
        "def read(self)",
        "Writer › def __init__(self)",
        "a › Job › def run(self)",  # (by the run that tells every copy apart: review92)
        "b › Job › def run(self)",
        "def main()",
        "def main()",
    ]


def test_a_heading_is_led_only_by_a_text_that_stays_repeated() -> None:
    """A heading "Setup" after two definitions "Setup": the definitions' rule leads both
    with their owners, so no passage's text is "Setup" any more and the heading keeps its
    own title (it took a lead nothing needed; hypothesis found it).
    A heading repeating a definition no rule leads is still told apart."""
    chunks = [
        Chunk("Setup", 2, 2, "definition", ("Intro", "Setup")),
        para(3, 97, "Intro", "Setup"),  # (too long to join the definition)
        Chunk("Setup", 4, 4, "definition", ("Intro", "Setup", "Setup")),
        heading(5, "Intro", "Setup", "Setup"),
    ]
    assert [p.text for p in run(chunks)] == [
        "Intro › Setup",
        para(3, 97).text,
        "Setup › Setup",
        "Setup",
    ]
    once = [Chunk("Run", 1, 1, "definition", ("Jobs", "Run")), heading(2, "Jobs", "Run")]
    assert [p.text for p in run(once)] == ["Run", "Jobs › Run"]


def test_a_heading_s_lead_is_never_a_later_definition_s_lead() -> None:
    """Before (review67): with the definitions told apart first (3e11c459), a repeated
    heading "Setup" took "Intro › Setup", which the definition after it had taken already:
    one text, one belief, and the definition's passage in none. Before 3e11c459 the
    definitions saw the heading's lead and went a title deeper; now the heading does."""
    chunks = [
        heading(1, "Top", "Intro", "Setup"),
        heading(2, "Top", "Intro", "Setup"),
        Chunk("Setup", 5, 5, "definition", ("Top", "Intro", "Setup")),
        para(6, 97, "Top", "Intro", "Setup"),
        Chunk("Setup", 7, 7, "definition", ("Top", "Other", "Setup")),
        para(8, 97, "Top", "Other", "Setup"),
    ]
    texts = [p.text for p in run(chunks)]
    assert texts[:3] == ["Setup", "Top › Intro › Setup", "Intro › Setup"]
    assert len(set(texts)) == len(texts)


def test_other_passages_of_one_text_each_lead_with_the_titles_that_tell_them_apart() -> None:
    """A changelog's note under two versions, a workflow's step in two jobs: one text, which
    ingest made one belief anchored at the first (the later version's note, its lines and
    its trail were in no belief). Every copy leads with the shortest run of its titles no
    other copy's trail ends with, the first too; a configuration block's own key, in its
    first line already, is not repeated; copies of one trail lead alike, and stay as they
    are when no copy of another trail is there."""

    def config(line: int, *trail: str, text: str) -> Chunk:
        return Chunk(text, line, line + 2, "config", trail)

    note = "These middlewares could change the proxy."
    step = "- name: Login\n  uses: docker/login-action@v3"
    security = ("Notes", "2.6.2", "Security")
    older = ("Notes", "1.8.3", "Security")
    chunks = [
        heading(1, *security),
        Chunk("Fixed in 2.6.2.", 2, 2, "paragraph", security),
        Chunk(note, 3, 3, "paragraph", security),
        heading(4, *older),
        Chunk("Fixed in 1.8.3.", 5, 5, "paragraph", older),
        Chunk(note, 6, 6, "paragraph", older),
        Chunk("Same here.", 7, 7, "paragraph", older),
        Chunk("Same here.", 8, 8, "paragraph", older),
        config(10, "jobs", "build", "steps", "Login", text=step),
        config(13, "jobs", "push", "steps", "Login", text=step),
        Chunk("Args: url.", 16, 16, "docstring", ("Client", "send")),
        Chunk("Args: url.", 18, 18, "docstring", ("Client", "send")),
        Chunk("Args: url.", 20, 20, "docstring", ("AsyncClient", "send")),
    ]
    texts = [p.text for p in passages(chunks, cap=20, floor=0)]
    assert texts[:2] == ["Security\nFixed in 2.6.2.", "2.6.2 › Security › " + note]
    assert texts[3] == "1.8.3 › Security › " + note
    assert texts.count("Same here.") == 2  # one trail: nothing tells them apart
    assert texts[-5:-3] == [step, step]  # (configuration blocks: not led)
    # Two overloads' copies of one trail lead alike (one belief), their async twin apart.
    assert texts[-3:] == ["Client › send › Args: url."] * 2 + ["AsyncClient › send › Args: url."]
