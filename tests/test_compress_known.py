"""What the compress stage keeps of a belief at one store version (``compress.Known``): each
belief's line with its text whole and no marks, and whether a person stated it. Kept while
the store stays at its version, started over when it moves, by this process's writes or
another's; a line never outlives the text, trail or retention it was made from."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from credo import Memory
from credo.retrieval import compress
from credo.retrieval.compress import Known, whole_line
from credo.retrieval.place import Places
from credo.retrieval.standing import GroupLines, Marks
from credo.store.index_text import register
from credo.store.short_ids import Shown
from credo.surfaces.render import MEMORY_BLOCK_TAG, memory_block
from credo.tokens import estimate, line_chars, marks

LONG = (
    "Deploys run through the release console every weekday morning. "
    "The rollback path is documented in the runbook under incident response. "
    "Staging mirrors production except for the billing provider, which is mocked by a "
    "local stub that answers every call with a canned receipt and a fixed amount, so no "
    "card is ever charged there. "
    "Quarterly audits check the access lists of every deploy key we hold."
)


def _rows() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = [
        {"kind": "belief", "id": f"n{i}", "content": f"deploy console note {i} about staging"}
        for i in range(12)
    ]
    rows.append({"kind": "belief", "id": "long1", "content": LONG})
    rows.append({"kind": "belief", "id": "a&b", "content": "deploy <console> & staging keys"})
    return rows


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "m.db"
    with Memory(path, root=tmp_path) as memory:
        memory.import_records(_rows())
    return path


def _fresh(db: Path, query: str, **kwargs: object) -> str:
    """The result of a process that kept nothing: what a warm one must answer."""
    with Memory(db, root=db.parent) as memory:
        return repr(memory.retrieve(query, **kwargs))  # type: ignore[arg-type]


def _retrieve(memory: Memory, query: str, **kwargs: object) -> str:
    """The result, checked to charge the block it renders (no stale line can pass)."""
    result = memory.retrieve(query, **kwargs)  # type: ignore[arg-type]
    lines = memory_block(result, anchors=False).split("\n")
    if not result.beliefs:
        return repr(result)
    assert lines[-2] == f"</{MEMORY_BLOCK_TAG}>"
    assert estimate("".join(line + "\n" for line in lines[1:-2])) == result.used_tokens
    return repr(result)


def _known(memory: Memory) -> Known:
    return Known.at(memory.store.truth_reader().kept, memory.store.stated)[0]


def _line(memory: Memory, query: str, belief_id: str, mode: str = "auto") -> tuple[str, int]:
    _retrieve(memory, query, compress=mode)
    found = {b.id: b for b in memory.retrieve(query, compress=mode).beliefs}
    return found[belief_id].rendered, found[belief_id].tokens


@pytest.mark.parametrize("warm", [False, True])
def test_a_write_by_another_process_changes_the_line(db: Path, warm: bool) -> None:
    query = "deploy console staging"
    with Memory(db, root=db.parent) as memory:
        if warm:
            assert memory.store.build_warm()
        before = _retrieve(memory, query)
        assert _retrieve(memory, query) == before  # kept lines, the same answer
        assert "n3" in _known(memory).lines
        other = sqlite3.connect(db)  # another process's connection
        register(other)  # (as credo's own connections do: the index's triggers call it)
        with other:
            other.execute(
                "UPDATE beliefs SET content = ? WHERE id = 'n3'",
                ("deploy console note 3 about staging, now much longer than it was",),
            )
        text, _ = _line(memory, query, "n3")
        assert text.endswith("now much longer than it was")
        after = _retrieve(memory, query)
        assert after != before and after == _fresh(db, query)
        with other:
            other.execute("UPDATE beliefs SET context = 'docs/ops.md › Deploys L4-L9'")
        assert _retrieve(memory, query) == _fresh(db, query)
        assert "(L4-L9)" not in repr(before)
        with other:
            other.execute("UPDATE beliefs SET context = 'not a trail'")
        assert _retrieve(memory, query) == _fresh(db, query)
        other.close()


@pytest.mark.parametrize("warm", [False, True])
def test_a_truth_link_written_elsewhere_marks_a_plain_line(db: Path, warm: bool) -> None:
    """A belief without a truth link is costed from ``Known.plain`` (no marks, whatever the
    query); a link written by another process moves the version, and its line is marked."""
    query = "deploy console staging"
    with Memory(db, root=db.parent) as memory:
        if warm:
            assert memory.store.build_warm()
        _retrieve(memory, query)
        _, cost = _line(memory, query, "n4")
        assert "n4" in _known(memory).plain
        with Memory(db, root=db.parent) as other:
            other.relate("n4", "n7", "CONTRADICTS")
        found = {b.id: b for b in memory.retrieve(query).beliefs}
        assert found["n4"].conflicts == ("n7",)
        _, marked = _line(memory, query, "n4")
        assert marked > cost and "n4" not in _known(memory).plain
        assert _retrieve(memory, query) == _fresh(db, query)
        _retrieve(memory, "deploy console note staging about")
        assert "n4" not in _known(memory).plain  # linked: never plain at this version


def test_a_linked_line_is_never_taken_as_plain(db: Path) -> None:
    """Only a belief without a truth link is costed as plain: what marks one with a link
    is the truth step's to say, query by query (here: what a successor replaces, marked
    in every query that packs it, whether or not it meets the old belief)."""
    with Memory(db, root=db.parent) as memory:
        old = memory.remember("zebra quagga okapi", id="old1")
        memory.relate("n2", old, "SUPERSEDES")
        assert memory.store.build_warm()
        plain, replacing = "deploy console note", "zebra quagga okapi deploy console note"
        for query in (plain, replacing) * 2:
            _retrieve(memory, query)
            assert {b.id: b for b in memory.retrieve(query).beliefs}["n2"].replaces == ("old1",)
            assert _retrieve(memory, query) == _fresh(db, query)
        assert "n2" not in _known(memory).plain and "n1" in _known(memory).plain


def test_a_candidate_the_graph_never_read_is_plain_with_every_link_known(db: Path) -> None:
    """With every truth link read at the version (the reader's ``every``), the graph loads
    only the candidates that have one: a candidate met later without a link is plain all the
    same (the step on costs it as the step off does), and one with a link is not."""
    with Memory(db, root=db.parent) as memory:
        kiwis = [{"kind": "belief", "id": f"k{i}", "content": f"kiwi row {i}"} for i in range(3)]
        memory.import_records(kiwis)
        memory.relate("n4", "n7", "CONTRADICTS")
        memory.relate("k1", "n7", "CONTRADICTS")
        assert memory.store.build_warm()
        _retrieve(memory, "deploy console note staging")
        for _ in range(2):
            assert _retrieve(memory, "kiwi row") == _fresh(db, "kiwi row")
        reader = memory.store.truth_reader()
        assert reader.every is not None
        assert "k0" not in reader.kept["graph"].read  # type: ignore[attr-defined]
        plain = _known(memory).plain
        assert "k0" in plain and "k2" in plain and "k1" not in plain and "n7" not in plain


def _assert_warm_is_fresh(memory: Memory, db: Path, queries: tuple[str, ...]) -> None:
    """Two passes of ``queries``, with and without history: each warm result equals a fresh
    process's (the second pass takes what the first kept)."""
    for _ in range(2):
        for query in queries:
            for history in (False, True):
                assert _retrieve(memory, query, include_superseded=history) == _fresh(
                    db, query, include_superseded=history
                )


def test_a_line_with_the_graphs_own_marks_is_kept_with_its_standing(db: Path) -> None:
    """A belief in dispute whose marks are the ones the truth graph keeps with it is costed
    from ``Known.kept`` by a later query at the version that gives it the very same
    standing; one whose standing a query makes (what it replaces, its history) never is."""
    with Memory(db, root=db.parent) as memory:
        old = memory.remember("zebra quagga okapi", id="old1")
        memory.relate("n4", "n7", "CONTRADICTS")
        memory.relate("n2", "n5", "CONTRADICTS")
        memory.relate("n2", old, "SUPERSEDES")
        memory.relate("n9", "n3", "SUPERSEDES")
        assert memory.store.build_warm()
        queries = ("deploy console note staging", "deploy console note", "zebra okapi note")
        _assert_warm_is_fresh(memory, db, queries)
        kept = _known(memory).kept
        assert {"n4", "n7", "n5"} <= kept.keys()
        assert "n2" not in kept  # (its standing names what it replaces: made per query)
        assert "n7" not in _known(memory).plain


def test_a_kept_marked_line_is_taken_only_for_the_very_standing_kept() -> None:
    """``Costs`` takes a line from ``Known.kept`` only when the query's standing of the
    belief is the tuple the truth graph keeps (whose marks the line holds); an equal
    standing a query made, or another one, is costed from its own marks."""
    said = ((), ("y",), ())
    info = (said, *([()] * 9), marks(*said), said, None, {})  # (``Relevant``: 0 and 10 read)
    truth = SimpleNamespace(tails={}, bringers={}, plain={"x": info})
    known = Known()
    shown = Shown(["x"], lambda ids: set(), lambda prefix: [], set())
    content = {"x": "a short note"}

    def cost(standing: dict[str, tuple[tuple[str, ...], ...]]) -> int:
        marked = Marks(standing, shown, truth)  # type: ignore[arg-type]
        costs = compress.Costs(
            content, marked, Places({}, shown), "note", set(), None, shown, known
        )
        return costs["x"]

    first = cost({"x": said})
    assert first == line_chars("x", "a short note", False, marks(*said))
    assert known.kept == {"x": (said, first)}
    known.kept["x"] = (said, first + 1000)  # (a kept line is what a second query takes)
    assert cost({"x": said}) == first + 1000
    for other in (tuple(list(said)), ((), ("y", "z"), ()), (("w",), ("y",), ())):
        assert cost({"x": other}) == line_chars("x", "a short note", False, marks(*other))


def test_a_write_by_this_process_changes_the_line(db: Path) -> None:
    query = "deploy console staging"
    with Memory(db, root=db.parent) as memory:
        assert memory.store.build_warm()
        _, cost = _line(memory, query, "n5")
        known = _known(memory)
        assert "n5" in known.lines
        memory.store.conn.execute(
            "UPDATE beliefs SET content = ? WHERE id = 'n5'", ("deploy console n5 staging",)
        )
        assert _known(memory) is not known  # the version moved: a new one
        text, shorter = _line(memory, query, "n5")
        assert text == "deploy console n5 staging" and shorter < cost
        assert _retrieve(memory, query) == _fresh(db, query)


@pytest.mark.parametrize("warm", [False, True])
def test_a_long_line_shown_whole_is_kept_until_its_text_moves(db: Path, warm: bool) -> None:
    """A long text shown whole (a passage of a document: line breaks and code to escape) has
    its line counted once at a store version (``Known.long``), never beside the short lines
    a first pass reads; a write, by another process or this one, makes it again."""
    query = "billing provider mocked audits"
    passage = "Billing\nThe provider -> a <Stub> & a mock.\n" + LONG
    with Memory(db, root=db.parent) as memory:
        if warm:
            assert memory.store.build_warm()
        other = sqlite3.connect(db)
        register(other)
        with other:
            other.execute("UPDATE beliefs SET content = ? WHERE id = 'long1'", (passage,))
        budget = 10_000  # everything fits whole: ``_fits_whole`` counts every line
        answer = _retrieve(memory, query, token_budget=budget)
        known = _known(memory)
        assert known.long == {"long1": whole_line(Places({}), "long1", passage)}
        assert "long1" not in known.lines
        assert _retrieve(memory, query, token_budget=budget) == answer  # taken from ``long``
        assert answer == _fresh(db, query, token_budget=budget)
        for text in (passage + "\n<more> & more", LONG):
            with other:
                other.execute("UPDATE beliefs SET content = ? WHERE id = 'long1'", (text,))
            assert _known(memory) is not known
            got = _retrieve(memory, query, token_budget=budget)
            assert got == _fresh(db, query, token_budget=budget) and got != answer
            known = _known(memory)
            assert known.long == {"long1": whole_line(Places({}), "long1", text)}
        other.close()
        memory.store.conn.execute("UPDATE beliefs SET content = ? WHERE id = 'long1'", (passage,))
        assert _retrieve(memory, query, token_budget=budget) == answer


def test_a_retention_or_origin_write_changes_the_long_line(db: Path) -> None:
    query = "billing provider mocked audits"
    with Memory(db, root=db.parent) as memory:
        shown = [_line(memory, query, "long1", "always")[0]]  # cut: not stated
        other = sqlite3.connect(db)
        for column, value in (("retention", "snapshot"), ("origin", "user_stated")):
            with other:
                other.execute(f"UPDATE beliefs SET {column} = ? WHERE id = 'long1'", (value,))
            got = _retrieve(memory, query, compress="always")
            assert got == _fresh(db, query, compress="always")
            shown.append(_line(memory, query, "long1", "always")[0])
        other.close()
        # a snapshot's snippet is cut tighter; what a person stated is shown whole
        assert len(shown[1]) < len(shown[0]) < len(LONG) and shown[2] == LONG


def test_known_is_kept_at_one_version_and_bounded(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory(db, root=db.parent) as memory:
        memory.retrieve("deploy console")
        known = _known(memory)
        memory.retrieve("staging keys")
        assert _known(memory) is known
        lines = dict(known.lines)
        assert lines and all(v > 0 for v in lines.values())
        monkeypatch.setattr(compress, "MAX_KNOWN", 3)
        answer = _retrieve(memory, "deploy console staging note")
        assert len(known.lines) <= len(lines) + 3
        monkeypatch.setattr(compress, "MAX_KNOWN", 100_000)
        assert _retrieve(memory, "deploy console staging note") == answer


def test_stated_is_asked_only_about_the_ids_not_known() -> None:
    asked: list[list[str]] = []

    def read(ids: list[str]) -> set[str]:
        asked.append(list(ids))
        return {i for i in ids if i.startswith("s")}

    known = Known()
    stated = known.stated_of(read)
    assert stated(["s1", "a", "s2"]) == {"s1", "s2"}
    assert stated(["a", "s2", "s3", "b"]) == {"s2", "s3"}
    assert stated(["s1", "b"]) == {"s1"}
    assert asked == [["s1", "a", "s2"], ["s3", "b"]]


@pytest.mark.parametrize(
    ("trail", "text"),
    [
        ("", "plain text"),
        ("", "a <tag> & more"),
        ("docs/a.md › Intro L1-L4", "Intro\nthe body"),
        ("docs/a.md › Intro L1-L4", "the body"),
        ("docs/a&b.md › T<1> L2-L9", "x & y"),
        ("not a trail", "text"),
    ],
)
@pytest.mark.parametrize("belief_id", ["n1", "a&b", "b0123456789abcdef"])
def test_whole_line_is_the_line_without_marks(belief_id: str, trail: str, text: str) -> None:
    places = Places({belief_id: trail} if trail else {})
    got = whole_line(places, belief_id, text)
    place = places[belief_id]
    if place is not None and places.untitled(belief_id, text) is not None:
        assert got is None
        return
    expected = places.line_chars(belief_id, text, "")
    assert got == expected
    assert got + len("; conflicts with x") == places.line_chars(
        belief_id, text, "; conflicts with x"
    )
    assert line_chars(belief_id, text, False, "", "", "") <= expected or trail


def test_inside_a_transaction_nothing_is_kept(db: Path) -> None:
    """A transaction's reads may yet be rolled back: each query there gets a fresh
    ``Known``, and sees the transaction's own writes."""
    query = "deploy console staging"
    with Memory(db, root=db.parent) as memory:
        _retrieve(memory, query)
        kept = _known(memory)
        assert "n6" in kept.lines
        with memory.store.transaction():
            memory.store.conn.execute(
                "UPDATE beliefs SET content = 'deploy console staging n6, rewritten here'"
                " WHERE id = 'n6'"
            )
            text, _ = _line(memory, query, "n6")
            assert text == "deploy console staging n6, rewritten here"
            assert _known(memory) is not kept
        assert _retrieve(memory, query) == _fresh(db, query)


@pytest.mark.parametrize("prepared", [True, False])
def test_a_warm_index_read_makes_the_lines_queries_would_make(
    db: Path, prepared: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small store's warm index read makes its version's ``Known`` ahead (retrieval/ahead.py):
    every line a query would keep, equal to it (checked against a process with no warm index
    that met them one query at a time), and ``plain`` only for beliefs a query never marks
    nor shortens (no truth link, an id not derived). Past ``PREPARED``, nothing is made."""
    from credo.store import warm as warm_module

    monkeypatch.setattr(warm_module, "PREPARED", warm_module.PREPARED if prepared else -1)
    queries = ["deploy console staging", "note 3 about", "staging keys", "rollback runbook"]
    with Memory(db, root=db.parent) as writer:
        derived = writer.remember("a derived id for a deploy console note")
        writer.relate("n4", "n7", "CONTRADICTS")
    with sqlite3.connect(db) as other:
        register(other)
        other.execute("UPDATE beliefs SET context = 'docs/ops.md › Deploys L4-L9' WHERE id = 'n2'")
        other.execute("UPDATE beliefs SET context = 'docs/ops.md › n5 L1-L2' WHERE id = 'n5'")
        other.execute("UPDATE beliefs SET content = 'n5\nstaging console' WHERE id = 'n5'")
        other.execute("UPDATE beliefs SET context = 'not a trail' WHERE id = 'n6'")
    with Memory(db, root=db.parent) as cold:  # met one query at a time
        answers = [_retrieve(cold, q, token_budget=b) for q in queries for b in (60, 2400)]
        met = _known(cold)
    with Memory(db, root=db.parent) as memory:
        assert memory.store.build_warm()
        ahead = memory.store.warm_ahead()
        if not prepared:
            assert ahead is None
            return
        assert isinstance(ahead, Known)
        assert met.lines and met.plain
        assert {i: ahead.lines[i] for i in met.lines} == met.lines
        assert {i: ahead.plain[i] for i in met.plain} == met.plain
        assert derived in ahead.lines and derived not in ahead.plain
        assert "n4" not in ahead.plain and "n7" not in ahead.plain and "n3" in ahead.plain
        assert "long1" not in ahead.lines and "n5" not in ahead.lines  # cut; its title dropped
        got = [_retrieve(memory, q, token_budget=b) for q in queries for b in (60, 2400)]
        assert got == answers
        assert _known(memory) is ahead  # the version's, kept
        with Memory(db, root=db.parent) as other_writer:
            other_writer.remember("a later note on deploy console staging")
        assert memory.store.warm_ahead() is None  # the version moved: let go
        assert _retrieve(memory, queries[0]) == _fresh(db, queries[0])


def test_a_line_naming_derived_ids_is_kept_with_their_short_forms(tmp_path: Path) -> None:
    """On a store whose ids ``remember`` derives (shown short), a belief in dispute's line is
    kept with its standing and the short forms its line asked for, a belief without a truth
    link's with its own form; a later query at the version takes them back, so the result
    (``short_ids`` in the order asked included) is the one a process that kept nothing
    gives."""
    db = tmp_path / "d.db"
    with Memory(db, root=tmp_path) as memory:
        ids = [memory.remember(f"deploy console note {i} about staging") for i in range(10)]
        memory.relate(ids[4], ids[7], "CONTRADICTS")
        memory.relate(ids[2], ids[5], "CONTRADICTS")
        memory.relate(ids[1], ids[6], "CONTRADICTS")
        memory.relate(ids[9], ids[3], "SUPERSEDES")
        assert memory.store.build_warm()
        queries = ("deploy console note staging", "deploy console note 4", "note 7 staging")
        _assert_warm_is_fresh(memory, db, queries)
        kept = _known(memory).kept
        assert {ids[4], ids[7], ids[5]} <= kept.keys()
        forms = kept[ids[4]][2]  # type: ignore[misc]
        assert forms == ((ids[7], ids[7][:8]), (ids[4], ids[4][:8]))
        # (no truth link: its plain line, kept with its own short form)
        assert _known(memory).short[ids[0]][1] == ((ids[0], ids[0][:8]),)
        assert ids[4] not in _known(memory).short


def test_short_forms_kept_are_refused_for_an_id_another_store_shows_whole() -> None:
    """``Shown.forms`` keeps nothing, and ``Shown.met`` takes nothing, when an id is shown
    whole in this query alone (another store's, a global lock): its form is not the store
    version's."""
    first, second = "b" + "1" * 15, "b" + "2" * 15
    shown = Shown([first, second], lambda ids: set(), lambda prefix, limit: [], set())
    assert shown.forms([first, second]) == ()  # (not asked yet: nothing to keep)
    shown[first], shown[second]
    forms = shown.forms([second, first])
    assert forms == ((second, second[:8]), (first, first[:8]))
    later = Shown([first, second], lambda ids: set(), lambda prefix, limit: [], set())
    assert later.met(forms) and later.changed() == {second: second[:8], first: first[:8]}
    other = Shown([first], lambda ids: set(), lambda prefix, limit: [], {second})
    assert other.forms([first, second]) is None
    assert not other.met(forms) and other.changed() == {}


def test_a_group_asides_others_shown_short_are_costed_from_their_kept_lines(
    tmp_path: Path,
) -> None:
    """On a store whose ids ``remember`` derives, the others of a group kept aside (a ranked
    belief's conflicts no query term reaches) have their lines, short ids and marks naming
    the leader, kept per store version at the group's first reach (``Known.groups``); each
    is the length of the line the block renders, and the results (``short_ids`` in the
    order asked included) are a fresh process's."""
    db = tmp_path / "d.db"
    with Memory(db, root=tmp_path) as memory:
        notes = [memory.remember(f"deploy console note {i} about staging") for i in range(6)]
        far = [memory.remember(f"zebra quagga okapi {i}") for i in range(6)]
        memory.relate(notes[0], far[0], "CONTRADICTS")
        memory.relate(notes[0], far[1], "CONTRADICTS")
        memory.relate(far[2], notes[1], "CONTRADICTS")
        memory.relate(notes[2], far[3], "CONTRADICTS")
        memory.relate(notes[3], memory.remember(LONG), "CONTRADICTS")
        assert memory.store.build_warm()
        queries = ("deploy console note staging", "deploy console note 1", "note 2 staging")
        _assert_warm_is_fresh(memory, db, queries)
        groups = _known(memory).groups
        assert {notes[0], notes[1], notes[2]} <= groups.keys()
        assert groups[notes[0]].keys() == {far[0], far[1]}
        assert not groups.get(notes[3])  # (a long text: cut per query, never kept)
        result = memory.retrieve(queries[0])
        block = memory_block(result, anchors=False)
        # (the groups this query keeps aside: the index read made every group's, and a
        # leader's other that is relevant itself shows its own marks)
        for leader in notes[:3]:
            for other, chars in groups[leader].items():
                line = next(t for t in block.split("\n") if t.startswith(f"[{other[:8]};"))
                assert f"conflicts with {leader[:8]}" in line
                assert len(line) + 1 == chars


def test_the_lines_made_at_index_read_are_those_queries_make(tmp_path: Path) -> None:
    """A warm index read makes every group's others' lines (``ahead.groups_ahead``) and
    every relevant belief's line with the graph's own marks (``ahead.kept_ahead``), and
    they are the lines queries make when they reach them (``GroupLines.get``,
    ``Costs._keep_marked``): the same entry for every one both hold, and the same results."""
    db = tmp_path / "g.db"
    with Memory(db, root=tmp_path) as memory:
        notes = [memory.remember(f"deploy console note {i} about staging") for i in range(8)]
        far = [memory.remember(f"zebra quagga okapi {i}") for i in range(8)]
        for i in range(7):
            memory.relate(notes[i], far[i], "CONTRADICTS")
        memory.relate(far[7], notes[0], "CONTRADICTS")
        memory.relate(notes[6], memory.remember(LONG), "CONTRADICTS")
    queries = ("deploy console note staging", "deploy console note 1", "note 2 staging")
    with Memory(db, root=tmp_path) as memory:  # groups made ahead
        assert memory.store.build_warm()
        ahead = memory.store.warm_ahead()
        assert isinstance(ahead, Known)
        made, marked = dict(ahead.groups), dict(ahead.kept)
        assert {notes[0], notes[1], notes[2]} <= made.keys()
        assert {notes[0], far[0], far[7]} <= marked.keys()
        warm = [memory.retrieve(q) for q in queries]
    with Memory(db, root=tmp_path) as memory:  # made as the queries reach them
        memory.store.ahead = None
        assert memory.store.build_warm()
        lazy = [memory.retrieve(q) for q in queries]
        reached, costed = _known(memory).groups, _known(memory).kept
    assert warm == lazy
    assert reached and reached.keys() <= made.keys()
    assert all(made[leader] == lines for leader, lines in reached.items())
    assert costed and costed.keys() <= marked.keys()
    assert all(marked[i] == entry for i, entry in costed.items())


def test_group_lines_keep_nothing_for_an_id_another_store_shows_whole() -> None:
    """``standing.GroupLines`` gives the truth graph's own lines of a group when one of its
    ids is another store's in this query (shown whole: not the store version's form)."""
    leader, other = "b" + "1" * 15, "b" + "2" * 15
    brought = ((), (leader,), ())
    info = (None, (other,), (leader, other), (other,), {}, {}, {other: "a note"}, ())
    info += ((), 0, None, brought, None, {})  # (``Relevant``: fields 2, 3, 6, 7, 11, 13 read)
    known = Known()
    shown = Shown([leader, other], lambda ids: set(), lambda prefix, limit: [], {other: 1})
    assert GroupLines({leader: info}, known, shown, {other: 1}).get(leader) == {}
    assert not known.groups
    shown = Shown([leader, other], lambda ids: set(), lambda prefix, limit: [], set())
    lines = GroupLines({leader: info}, known, shown).get(leader)
    said = marks((), (leader[:8],), ())
    assert lines == {other: line_chars(other[:8], "a note", False, said)}
    assert known.groups[leader] is lines and shown.changed() == {}  # (none asked)
