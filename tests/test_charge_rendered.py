"""Every packed line is charged what the block renders (issue #14, #19's compress stage): on
random small stores (locked beliefs or not, derived ids shown short or chosen ids shown whole,
truth marks or not, passages with trails), a lock's own line, its newline included, costs
exactly its ``tokens``, and the pack's lines, with their file and section lines, cost exactly
the rest, cold and warm alike.

A lock's line is rounded up on its own (tokens.belief_tokens; docs/RETRIEVAL.md § Pack), the
pack's lines once as one text: so the charge is the block's lines taken as one text plus at
most a token a lock, never less. A line read without its newline can count a token less than
charged (a 224-character line: 56 tokens; with its newline, as the block prints it, 57):
``test_a_lock_is_charged_its_newline``."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.errors import CredoError
from credo.surfaces.render import MEMORY_BLOCK_TAG, memory_block
from credo.tokens import estimate
from credo.types import RetrievalResult

# (some the block escapes: ``&`` and ``<`` become entities, a tab a space; a no-break space
# is left as it is but takes the exact path: tokens._plain)
WORDS = ("deploy", "staging", "cache", "token", "schema", "lock", "query", "graph", "café")
ODD = ("a&b", "<x>", "tab\there", "no\u00a0break", "日本")
PAGE = """# Deploy

The deploy step signs the staging bundle with the release token.

## Cache

The cache schema is rebuilt after each deploy; the query graph reads it.

### Lock

A lock on the schema keeps two deploys apart.
"""
EDGES = ("CONTRADICTS", "SUPERSEDES", "SUPPORTS", "RESOLVES")

texts = st.lists(st.sampled_from(WORDS + ODD), min_size=1, max_size=30).map(" ".join)
queries = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)
beliefs = st.lists(
    st.tuples(texts, st.booleans(), st.booleans()),  # text, derived id, locked
    min_size=1,
    max_size=10,
)
edges = st.lists(
    st.tuples(st.integers(0, 9), st.integers(0, 9), st.sampled_from(EDGES)), max_size=8
)


def check_charges(result: RetrievalResult) -> None:
    """Each lock's line costs its ``tokens``; the pack's lines cost the rest, as one text."""
    assert result.used_tokens == sum(b.tokens for b in result.beliefs)
    block = memory_block(result, anchors=False)
    if not result.beliefs:
        return
    lines = block.split("\n")
    assert lines[-1] == ""
    body = lines[1:-2] if not result.locked_overflow else lines[1:-3]
    assert lines[-2] == f"</{MEMORY_BLOCK_TAG}>"
    locks = [b for b in result.beliefs if b.locked]  # (first in the block, in this order)
    for belief, line in zip(locks, body, strict=False):
        shown = result.short_ids.get(belief.id, belief.id)
        assert line.startswith(f"[{shown} locked")
        assert estimate(line + "\n") == belief.tokens, (line, belief)
    rest = "".join(line + "\n" for line in body[len(locks) :])
    assert estimate(rest) == sum(b.tokens for b in result.beliefs if not b.locked)
    # Each lock rounded on its own: at most a token a lock over the lines as one text.
    whole = estimate("".join(line + "\n" for line in body))
    assert whole <= result.used_tokens <= whole + len(locks)


def _store(
    db: Path,
    items: list[tuple[str, bool, bool]],
    links: list[tuple[int, int, str]],
    passages: list[bool] | None,
) -> None:
    """The beliefs (derived ids or chosen), then the edges the API takes, then the locks;
    with ``passages``, a page ingested first, its passages (derived ids, with trails)
    locked as ``passages`` says."""
    ids: list[str] = []
    with Memory(db, root=db.parent) as memory:
        if passages is not None:
            (db.parent / "docs").mkdir()
            (db.parent / "docs" / "deploy.md").write_text(PAGE)
            memory.ingest(db.parent / "docs")
            read = sorted({a.belief_id for a in memory.beliefs_for_doc("docs/")})
            for belief_id, locked in zip(read, passages, strict=False):
                if locked:
                    memory.lock(belief_id)
        for n, (text, derived, _) in enumerate(items):
            ids.append(memory.remember(text, id=None if derived else f"n{n}"))
        for a, b, kind in links:
            if a < len(ids) and b < len(ids) and a != b:
                # (a cycle, a locked belief retired: the API refuses it)
                with contextlib.suppress(CredoError):
                    memory.relate(ids[a], ids[b], kind)
        for belief_id, (_, _, locked) in zip(ids, items, strict=True):
            if locked:
                memory.lock(belief_id)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    items=beliefs,
    links=edges,
    query=queries,
    passages=st.none() | st.lists(st.booleans(), max_size=4),
    budget=st.sampled_from([30, 60, 120, 400, 2400]),
    clustering=st.booleans(),
)
def test_every_packed_line_is_charged_as_rendered(
    tmp_path_factory: pytest.TempPathFactory,
    items: list[tuple[str, bool, bool]],
    links: list[tuple[int, int, str]],
    query: str,
    passages: list[bool] | None,
    budget: int,
    clustering: bool,
) -> None:
    folder = tmp_path_factory.mktemp("charge")
    db = folder / "m.db"
    _store(db, items, links, passages)
    options = {"token_budget": budget, "use_intentional_clustering": clustering}
    with Memory(db, root=folder) as cold, Memory(db, root=folder) as warm:
        assert warm.store.build_warm()
        for _ in range(2):  # (the second query meets what the first kept)
            got = cold.retrieve(query, **options)  # type: ignore[arg-type]
            check_charges(got)
            assert warm.retrieve(query, **options) == got  # type: ignore[arg-type]


# 206 characters: the lock's line, ``[b1234567 locked] `` and its newline, is 225 characters.
LOCKED_TEXT = ("staging smoke test passes, then deploy; " * 6)[:206]


@pytest.mark.parametrize("warm", [False, True])
def test_a_lock_is_charged_its_newline(tmp_path: Path, warm: bool) -> None:
    """The case seen on main: a lock with a derived id (shown short) charged 57 tokens, its
    line 56 when read without the newline the block prints after it."""
    db = tmp_path / "m.db"
    with Memory(db, root=tmp_path) as memory:
        belief_id = memory.remember(LOCKED_TEXT)
        memory.lock(belief_id)
        memory.remember("staging smoke test notes", id="n1")
    with Memory(db, root=tmp_path) as memory:
        if warm:
            assert memory.store.build_warm()
        result = memory.retrieve("staging smoke test", token_budget=400)
        check_charges(result)
    lock = next(b for b in result.beliefs if b.locked)
    shown = result.short_ids[belief_id]
    assert lock.id == belief_id and len(shown) == 8  # shown short
    line = memory_block(result, anchors=False).split("\n")[1]
    assert line == f"[{shown} locked] {LOCKED_TEXT}" and len(line) == 224
    assert (estimate(line), estimate(line + "\n"), lock.tokens) == (56, 57, 57)


@pytest.mark.parametrize("warm", [False, True])
def test_a_passage_a_conflict_brings_along_keeps_its_trail(tmp_path: Path, warm: bool) -> None:
    """A passage brought along by a note it contradicts (a group kept aside: not a
    candidate, so its trail is read with those brought along) is packed under its place,
    with its trail, warm and cold."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "deploy.md").write_text(PAGE)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path / "docs")
        passage = next(
            a.belief_id
            for a in memory.beliefs_for_doc("docs/")
            if "cache schema" in memory.get(a.belief_id).content
        )
        note = memory.remember("zebra quagga okapi rollout", id="note")
        memory.relate(note, passage, "CONTRADICTS")
        if warm:
            assert memory.store.build_warm()
        got = memory.retrieve("zebra quagga okapi", token_budget=2400)
    packed = {b.id: b for b in got.beliefs}
    assert note in packed and passage in packed
    assert packed[passage].trail.startswith("docs/deploy.md")
    check_charges(got)
