"""Places said once (retrieval/place.py): a document's passages sit under one line naming
their file and one per section title, each passage's line showing its lines. The pack
charges exactly what the block renders (the estimator over the lines it renders, taken as
one text), in both packs and with conflict groups, and every hit's full trail can be read
back from the block.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval import cluster
from credo.retrieval.bundle import Units
from credo.retrieval.pack import pack_by_score
from credo.retrieval.place import (
    FILE_MARK,
    INDENT,
    SECTION_MARK,
    Charges,
    Place,
    Places,
    arrange,
    heads,
    parse,
    trail_heads,
)
from credo.surfaces.render import MEMORY_BLOCK_TAG, memory_block, result_json, result_text
from credo.tokens import GUTTER, escape, estimate
from credo.types import TRAIL_SEPARATOR, RetrievalResult, RetrievedBelief

from .conftest import tag_start

# -- parsing a trail -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trail", "place"),
    [
        ("docs/a.md › OAuth2 › Scopes L40-L58", Place("docs/a.md", "OAuth2 › Scopes", "L40-L58")),
        ("docs/a.md L1-L9", Place("docs/a.md", "", "L1-L9")),
        ("my docs/a b.md › Intro L3-L4", Place("my docs/a b.md", "Intro", "L3-L4")),
        ("docs/a.md", None),  # no line range
        ("docs/a.md › L1-L2", Place("docs/a.md ›", "", "L1-L2")),  # odd, and still exact
        ("L1-L2", None),  # no file
        ("", None),
        ("docs/a.md L1-L2x", None),
    ],
)
def test_parse(trail: str, place: Place | None) -> None:
    assert parse(trail) == place


@given(st.text(max_size=80))
def test_parse_is_the_inverse_of_place_trail(text: str) -> None:
    found = parse(text)
    assert found is None or found.trail == text


@given(
    st.lists(
        st.sampled_from(["a.md › X L1-L2", "a.md L3-L4", "odd", "b.md › Y › Z L5-L9"])
        | st.text(max_size=40),
        max_size=6,
    )
)
def test_places_made_once_per_trail_equal_those_made_anew(trails: list[str]) -> None:
    # the memo kept across queries gives what parsing the trail again gives, and a query's
    # Places answer the same whether its trails were met before or not
    ids = {f"b{i}": trail for i, trail in enumerate(trails)}
    for _ in range(2):
        places = Places(ids)
        for belief_id, trail in ids.items():
            assert trail_heads(trail) == heads(parse(trail))
            assert places.heads(belief_id) == heads(parse(trail))
            assert places[belief_id] == parse(trail)
    assert Places(ids).heads("missing") == ()


@pytest.mark.parametrize(
    ("trail", "text", "shown"),
    [
        ("a.md › Deploy › Ship L9-L11", "Ship\nThe ship step uploads.", "The ship step uploads."),
        ("a.md › Deploy › Ship L9-L11", "Ship step\nuploads.", None),  # not the title line
        ("a.md › Ship L9-L11", "Ship …", None),  # a headline of the title alone
        ("a.md › Ship L9-L11", "Ship\n…", None),  # nothing but a gap mark would be left
        ("a.md L1-L3", "Ship\nuploads.", None),  # no section: no section line says it
        ("odd trail", "odd\ntext", None),
    ],
)
def test_a_passage_does_not_repeat_its_section_title(
    trail: str, text: str, shown: str | None
) -> None:
    assert Places({"b1": trail}).untitled("b1", text) == shown


# -- the pack charges what the block renders ------------------------------------------------

FILES = ["docs/a.md", "docs/guide/b.rst", "src/c.py", "x y.md", "</credo-memory>.md", "[b1] z"]
TITLES = ["Intro", "Usage", "API", "Usage › Advanced", "\n[evil locked] x", "in a.md"]


@st.composite
def candidates(draw: st.DrawFn) -> list[tuple[str, str, str]]:
    """(id, text, trail) in rank order: passages of a few files and sections, some notes."""
    count = draw(st.integers(1, 14))
    out = []
    for n in range(count):
        text = draw(st.text(min_size=1, max_size=90))
        kind = draw(st.integers(0, 4))
        if kind == 0:
            trail = ""  # a note
        elif kind == 1:
            trail = draw(st.sampled_from(["odd trail", "a.md L1"]))  # not ingest's form
        else:
            file = draw(st.sampled_from(FILES))
            titles = draw(st.lists(st.sampled_from(TITLES), max_size=3))
            start = draw(st.integers(1, 500))
            lines = f"L{start}-L{start + draw(st.integers(0, 60))}"
            trail = TRAIL_SEPARATOR.join([file, *titles]) + f" {lines}"
        out.append((f"b{n}", text, trail))
    return out


def _pack(
    items: list[tuple[str, str, str]],
    budget: int,
    mode: str,
    groups: list[list[int]],
    aside: bool = False,
) -> RetrievalResult:
    """The pipeline's pack, over hand-made candidates: place.Charges over each line's cost,
    in score order or the cluster pack (pairs joining neighbours), groups as units; with
    ``aside``, each group kept aside as the truth step keeps one (``Currency.tails``: its
    others not among the ranked ids, its entry read where the pack reaches it)."""
    ids = [i for i, _, _ in items]
    text = {i: t for i, t, _ in items}
    trails = {i: tr for i, _, tr in items if tr}
    places = Places(trails)
    lines = {i: places.line_chars(i, text[i], "") for i in ids}
    picked = [[ids[k] for k in sorted(set(g)) if k < len(ids)] for g in groups]
    picked = [g for g in picked if len(g) > 1]
    taken: set[str] = set()
    disjoint = []
    for g in picked:  # a belief is in one group at most
        if not taken & set(g):
            disjoint.append(g)
            taken |= set(g)
    if aside and disjoint:
        followers = {m for g in disjoint for m in g[1:]}
        entries = {g[0]: (None, None, tuple(g), tuple(g[1:])) for g in disjoint}
        units = Units([i for i in ids if i not in followers], (), entries)
    else:
        units = Units(ids, disjoint) if disjoint else None
    unit_ids = ids if units is None else units.ids
    charges = (
        Charges(lines, places)
        if units is None
        else Charges(lines, places, units.members, units.aside)
    )
    if mode == "score":
        packed = pack_by_score(unit_ids, token_costs=charges, token_budget=budget)
        selected = packed.selected
    else:
        pairs = [(a, b) for a, b in zip(unit_ids, unit_ids[2:], strict=False)]
        packed = cluster.pack_ranked(
            unit_ids, pairs=pairs, token_costs=charges, token_budget=budget
        )
        selected = packed.selected
    chosen = set(selected if units is None else units.expand(selected))
    beliefs = tuple(
        RetrievedBelief(i, text[i], 1.0, False, charges.charged[i], trail=trails.get(i, ""))
        for i in ids
        if i in chosen
    )
    dropped = tuple(packed.dropped if units is None else units.expand(packed.dropped))
    return RetrievalResult("q", beliefs, budget, packed.used_tokens, dropped)


# A pack's cases: candidates, a budget, the pack mode and up to three groups.
_PACK_CASES = (
    candidates(),
    st.integers(0, 400),
    st.sampled_from(["score", "cluster"]),
    st.lists(st.lists(st.integers(0, 13), min_size=2, max_size=3), max_size=3),
)


@settings(max_examples=300, deadline=None)
@given(*_PACK_CASES)
def test_groups_kept_aside_pack_as_groups_listed_whole(
    items: list[tuple[str, str, str]], budget: int, mode: str, groups: list[list[int]]
) -> None:
    """A group kept aside (``Units`` with ``aside``: read from its entry where the pack
    reaches it) packs, charges and drops as the same group listed whole, in both packs,
    under file and section lines or none."""
    assert _pack(items, budget, mode, groups, aside=True) == _pack(items, budget, mode, groups)


def _body(block: str) -> list[str]:
    """The block's charged lines: all but its header and closing tag (no locks overflow)."""
    lines = block.split("\n")
    assert lines[-1] == "" and lines[-2] == f"</{MEMORY_BLOCK_TAG}>"
    return lines[1:-2]


def _entries(body: list[str]) -> list[str]:
    """The body's lines with a key block's next lines (behind ``GUTTER``) joined to it."""
    out: list[str] = []
    for line in body:
        if line.startswith(GUTTER):
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


# (a line may end by naming the passages folded into it: "; also ..." (retrieval/siblings.py))
_LINES = re.compile(r" \((L\d+-L\d+)(?:; also .*)?\)$")
_AT = re.compile(r" \(at (.*?)(?:; also .*)?\)$")


def recovered(block: str) -> dict[str, str]:
    """Each belief's full place read back from the block alone: an inline ``(at TRAIL)``,
    or its file line, the section lines above it (by indent) and its ``(L4-L9)``."""
    out: dict[str, str] = {}
    file = ""
    path: list[str] = []
    for line in _entries(_body(block)):
        if line.startswith(FILE_MARK):
            file, path = line[len(FILE_MARK) :], []
        elif line.lstrip(" ").startswith(SECTION_MARK):
            indent = len(line) - len(line.lstrip(" "))
            assert indent % len(INDENT) == 0
            depth = indent // len(INDENT)
            assert depth <= len(path)  # a subsection sits under its parent
            path = [*path[:depth], line[indent + len(SECTION_MARK) :]]
        else:
            assert line.startswith("[")
            belief_id = line[1 : line.index("]")]
            if found := _LINES.search(line):
                out[belief_id] = TRAIL_SEPARATOR.join([file, *path]) + f" {found[1]}"
            elif found := _AT.search(line):
                out[belief_id] = found[1]
    return out


@settings(max_examples=300, deadline=None)
@given(*_PACK_CASES)
def test_the_charge_is_the_estimate_of_the_rendered_lines(
    items: list[tuple[str, str, str]], budget: int, mode: str, groups: list[list[int]]
) -> None:
    result = _pack(items, budget, mode, groups)
    assert result.used_tokens <= budget
    assert result.used_tokens == sum(b.tokens for b in result.beliefs)
    block = memory_block(result, anchors=False)
    if not result.beliefs:
        assert block == ""
        return
    body = _body(block)
    assert result.used_tokens == estimate("".join(line + "\n" for line in body))
    for line in body:  # stored text forges nothing
        assert not tag_start(line), line
    # Every hit's place can be read back from the block, whole.
    places = recovered(block)
    for b in result.beliefs:
        if b.trail:
            assert places[b.id] == escape(b.trail)
        else:
            assert b.id not in places or b.content.endswith(")")


@given(candidates())
def test_the_block_order_keeps_every_belief_once(items: list[tuple[str, str, str]]) -> None:
    rows = arrange([t for _, _, t in items], [True] * len(items))
    assert sorted(r.index for r in rows) == list(range(len(items)))
    # a file's line is printed once, before its first passage
    opened = [r.opens.split("\n", 1)[0] for r in rows if r.opens.startswith(FILE_MARK)]
    assert len(opened) == len(set(opened))


def test_a_lock_keeps_its_trail_whole() -> None:
    beliefs = (
        RetrievedBelief("l1", "rule", 0.0, True, 20, trail="docs/a.md › Rules L1-L2"),
        RetrievedBelief("b1", "text", 1.0, False, 20, trail="docs/a.md › Rules L3-L9"),
    )
    block = memory_block(RetrievalResult("q", beliefs, 100, 40), anchors=False)
    assert _body(block) == [
        "[l1 locked] rule (at docs/a.md › Rules L1-L2)",
        "in docs/a.md",
        "› Rules",
        "[b1] text (L3-L9)",
    ]


# -- end to end ------------------------------------------------------------------------------

_FILL = "It is checked by the release checklist, and the checklist is kept with the code. " * 3
PAGE = f"""# Deploy

Deploying the service takes three steps, each described below in its own section. {_FILL}

## Build

The build step compiles the deploy bundle with the release flags and signs it. {_FILL}

## Ship

The ship step uploads the deploy bundle to the registry and tags the release. {_FILL}

### Rollback

A failed deploy is rolled back by shipping the previous deploy bundle again. {_FILL}
"""


@pytest.fixture
def docs(tmp_path: Path) -> Memory:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "deploy.md").write_text(PAGE)
    (tmp_path / "docs" / "other.md").write_text(PAGE.replace("Deploy", "Release"))
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    memory.ingest(tmp_path / "docs")
    memory.remember("the deploy bundle rollback needs the team key", id="note1")
    return memory


@pytest.mark.parametrize("clustering", [True, False])
@pytest.mark.parametrize("budget", [40, 80, 150, 2400])
def test_retrieval_charges_the_block_it_renders(
    docs: Memory, clustering: bool, budget: int
) -> None:
    result = docs.retrieve(
        "deploy bundle rollback", token_budget=budget, use_intentional_clustering=clustering
    )
    assert result.used_tokens <= budget
    block = memory_block(result, anchors=False)
    if result.beliefs:
        body = "".join(line + "\n" for line in _body(block) if " locked" not in line)
        assert estimate(body) == result.used_tokens
        places = recovered(block)  # the block's short ids name the beliefs (short_ids.py)
        assert {b.id: b.trail for b in result.beliefs if b.trail} == {
            docs.full_id(i): places[i] for i in places if i != "note1"
        }


def test_surfaces_show_the_short_place_and_keep_the_trail(docs: Memory) -> None:
    result = docs.retrieve("deploy bundle rollback", token_budget=2400)
    passages = [b for b in result.beliefs if b.trail]
    assert len(passages) >= 3
    block = memory_block(result)
    assert block.count("in docs/deploy.md\n") == 1  # two passages, one file line
    assert f"› Deploy\n{INDENT}› Ship\n" in block
    assert f"{INDENT * 2}› Rollback\n" in block
    data = result_json(result)
    for item in data["beliefs"]:
        if item["trail"]:  # the full trail stays; what the line shows is said
            place = parse(item["trail"])
            assert place is not None
            assert item["trail_shown"] == place.lines
            assert item["place"] == place.as_dict()
        else:
            assert item["trail_shown"] == "" and "place" not in item
    text = result_text(result)
    assert "in docs/deploy.md" in text and "↳ docs/deploy.md ›" not in text
    # The section line says the title: the passage's own line does not repeat it.
    ship = next(b for b in passages if b.trail.endswith("› Ship L9-L11"))
    assert ship.content.startswith("Ship\n") and ship.shown.startswith("The ship step")
    assert all(f"↳ {b.trail}" in result_text(result, explain=True) for b in passages)


def _fitted_one_by_one(charges: Charges, units: list[str], budget: int) -> tuple[int, int]:
    """``pack.fitting_prefix``'s generic loop: look each unit up, ``take`` it if it fits."""
    used = 0
    for index, unit in enumerate(units):
        cost = charges[unit]
        if used + cost > budget:
            return index, used
        used += cost
        charges.take(unit)
    return len(units), used


@settings(max_examples=300, deadline=None)
@given(
    sizes=st.lists(st.integers(0, 400), min_size=0, max_size=30),
    groups=st.lists(st.lists(st.integers(0, 29), min_size=2, max_size=4), max_size=4),
    known_first=st.booleans(),
    before=st.lists(st.integers(0, 29), max_size=3),
    budget=st.integers(0, 1500),
    set_aside=st.lists(st.booleans(), max_size=4),
)
def test_flat_charges_fit_in_one_loop_as_unit_by_unit(
    sizes: list[int],
    groups: list[list[int]],
    known_first: bool,
    before: list[int],
    budget: int,
    set_aside: list[bool],
) -> None:
    """``Charges.fitting_prefix`` (a flat pack in one loop) answers, charges and leaves its
    running total exactly as asking each unit and taking it does, groups of members (given
    whole, or kept aside: ``bundle.Aside``) and their lines known ahead (``Charges.known``)
    included, after units taken before."""
    ids = [f"b{k:02d}" for k in range(len(sizes))]
    members: dict[str, list[str]] = {}
    aside: dict[str, tuple[object, ...]] = {}
    grouped: set[str] = set()
    for n, g in enumerate(groups):
        group = [ids[k] for k in dict.fromkeys(g) if k < len(ids)]
        if len(group) > 1 and not grouped & set(group):
            if n < len(set_aside) and set_aside[n]:  # (an entry: its group at ``GROUP``)
                aside[group[0]] = (None, None, tuple(group), tuple(group[1:]))
            else:
                members[group[0]] = group
            grouped |= set(group)
    units = [i for i in ids if i not in grouped or i in members or i in aside]
    answers = []
    for one_loop in (True, False):
        lines = dict(zip(ids, sizes, strict=True))
        charges = Charges(lines, Places({}), members or None, aside or None)
        led = {**members, **{leader: info[2] for leader, info in aside.items()}}
        if known_first and led:  # a leader's members' lines put in before they are read
            leader = next(iter(led))
            lines.pop(led[leader][1])  # type: ignore[index]
            charges.known = {leader: {led[leader][1]: 7}}  # type: ignore[index]
        for k in before:  # units packed before (Stage 1's picks)
            if k < len(units) and units[k] in lines and units[k] not in led:
                charges.take(units[k])
        rest = units[len(before) :]
        fitted = (
            charges.fitting_prefix(rest, budget)
            if one_loop
            else _fitted_one_by_one(charges, rest, budget)
        )
        answers.append((fitted, charges.charged, charges._chars, lines))
    assert answers[0] == answers[1]


def test_charges_with_places_leave_the_loop_to_the_pack() -> None:
    """A pack under file or section lines is not fitted in one loop (``None``): the pack's
    generic loop charges each line's openings."""
    places = Places({"b1": "docs/a.md"})
    assert Charges({"b1": 10}, places).fitting_prefix(["b1"], 100) is None
