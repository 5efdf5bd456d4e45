"""A question naming a definition, answered by a warm index from the names map made of its
version (retrieval/named.py's ``names_ahead``) as cold from the context index: the same
passages, in the same order, whatever the trails, the locks and another connection's
writes between queries."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval import named as naming
from credo.retrieval.named import Named, named_definitions
from credo.store.rows import NewBelief

# Section titles: a name in several cases, with "_", the Kelvin sign (Python lowers it to
# "k", FTS5's unicode61 folds it so), an accent, spaces around, a line range of its own,
# and titles no question can name.
_TITLES = st.sampled_from(
    [
        "Execute",
        "execute",
        "EXECUTE",
        "ExecuteC",
        "\u212aeep",
        "keep",
        "from_boxed",
        "From_Boxed",
        "msg",
        "Error",
        "a_1",
        "café",
        "cafe",
        " Run ",
        "Run L3",
        "Run it",
        "x",
        "_",
        "",
    ]
)
_PATHS = st.sampled_from(["command.go", "src/error.rs", "cmd/run_test.go", "keep.py", "msg"])
_NAMES = st.lists(
    st.sampled_from(["execute", "executec", "keep", "from_boxed", "msg", "error", "a_1", "run"]),
    min_size=1,
    max_size=4,
)


@st.composite
def _passage(draw: st.DrawFn) -> tuple[str, bool]:
    """(context, locked): a trail (path, sections, maybe a line range), maybe more words."""
    trail = " › ".join([draw(_PATHS), *draw(st.lists(_TITLES, max_size=3))])
    if draw(st.booleans()):
        start = draw(st.integers(1, 99))
        trail += f" L{start}-L{start + draw(st.integers(0, 9))}"
    more = draw(st.sampled_from(["", "\nexecute keep msg", "\nrun"]))
    return trail + more, draw(st.integers(0, 4)) == 0


def _rows(passages: list[tuple[str, bool]], keys: list[int], at: float) -> list[NewBelief]:
    out = []
    for (context, locked), key in zip(passages, keys, strict=False):
        content = f"passage {key} {context}"
        digest = hashlib.sha256(content.encode()).hexdigest()
        out.append(
            NewBelief(
                f"{key:06x}{digest[:10]}",  # (ids in no rowid order)
                content,
                digest,
                "factual",
                "document",
                locked,
                1.0,
                1.0,
                None,
                at,
                at,
                None,
                context,
            )
        )
    return out


def _answer(memory: Memory, names: list[str]) -> tuple[dict[str, list[str]], dict[str, str]]:
    """``_passages_named``'s answer: each name's passages and the trails of those."""
    by_name, trails = naming._passages_named(memory.store, names)
    found = {name: list(ids) for name, ids in by_name.items() if ids}
    return found, {i: trails[i] for ids in found.values() for i in ids}


def _oracle(memory: Memory, names: list[str]) -> dict[str, list[str]]:
    """Each name's live, unlocked passages by their trails as SQL holds them, in id order."""
    rows = memory.store.conn.execute(
        "SELECT id, substr(context, 1, instr(context || char(10), char(10)) - 1) FROM beliefs "
        "WHERE deleted_at IS NULL AND locked = 0 AND context <> '' ORDER BY id"
    ).fetchall()
    out: dict[str, list[str]] = {}
    for belief_id, trail in rows:
        name = naming._last_name(trail).lower()
        if name in names:
            out.setdefault(name, []).append(belief_id)
    return out


_WRITES = st.lists(
    st.one_of(
        st.tuples(st.just("add"), _passage()),
        st.tuples(st.sampled_from(["lock", "unlock", "forget"]), st.integers(0, 200)),
    ),
    max_size=4,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(_passage(), min_size=1, max_size=25),
    st.lists(_NAMES, min_size=1, max_size=3),
    _WRITES,
    st.randoms(use_true_random=False),
)
def test_the_warm_names_map_answers_as_the_context_index(
    passages: list[tuple[str, bool]], questions: list[list[str]], writes: list, rng: object
) -> None:
    """Fails before: ``names_ahead`` and ``_passages_named`` do not exist. Warm (the map),
    cold (a store never warm, asking FTS5) and the trails as SQL holds them agree on every
    version; another connection's write leaves the warm store at SQL (stale) until its
    index is read again."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.db"
        keys = rng.sample(range(1, 1 << 20), 300)  # type: ignore[attr-defined]
        with Memory(path, root=folder) as writer:
            with writer.store.transaction():
                writer.store.insert_beliefs(_rows(passages, keys, 1.0))
            used = len(passages)
            with Memory(path, root=folder) as warm, Memory(path, root=folder) as cold:

                def agree(held: bool) -> None:
                    # (a store with no live belief prepares nothing: no map, FTS5 answers)
                    live = "SELECT 1 FROM beliefs WHERE deleted_at IS NULL"
                    held = held and cold.store.conn.execute(live).fetchone() is not None
                    assert (getattr(warm.store.warm_ahead(), "names", None) is not None) is held
                    for names in questions:
                        got = _answer(warm, names)
                        assert got == _answer(cold, names)
                        assert got[0] == _oracle(cold, names)

                assert warm.store.build_warm()
                agree(True)
                for kind, what in writes:
                    live = "SELECT id FROM beliefs WHERE deleted_at IS NULL ORDER BY rid"
                    ids = [r[0] for r in writer.store.conn.execute(live)]
                    if kind == "add":
                        with writer.store.transaction():
                            writer.store.insert_beliefs(_rows([what], keys[used:], 2.0))
                        used += 1
                    elif not ids:
                        continue
                    elif kind == "forget":
                        writer.forget(ids[what % len(ids)])
                    else:
                        (writer.lock if kind == "lock" else writer.unlock)(ids[what % len(ids)])
                    agree(False)  # (the version moved: SQL answers)
                    assert warm.store.build_warm()
                    agree(True)


def _go(types: list[str], names: list[str]) -> str:
    """A Go file with a method of each type for each name, and a function of each name."""
    parts = ["package cmd\n"]
    for kind in types:
        parts.append(f"type {kind} struct{{}}\n")
        for name in names:
            parts.append(
                f"// {name} of {kind}.\nfunc (t *{kind}) {name}() error {{\n\treturn nil\n}}\n"
            )
    for name in names:
        parts.append(f"// {name} alone.\nfunc {name}X{len(name)}() {{\n\t{name}()\n}}\n")
    return "\n".join(parts)


_GO_NAMES = st.lists(
    st.sampled_from(["Execute", "ExecuteC", "Run", "run", "Msg", "from_boxed", "Keep"]),
    min_size=1,
    max_size=4,
    unique=True,
)
_GO_TYPES = st.lists(st.sampled_from(["Command", "Error", "Keep"]), max_size=2, unique=True)
_ASKED = st.lists(
    st.sampled_from(
        [
            Named("", "Execute"),
            Named("", "execute"),
            Named("", "ExecuteC"),
            Named("Command", "Execute"),
            Named("Error", "Msg"),
            Named("", "Run"),
            Named("", "from_boxed"),
            Named("", "Keep"),
            Named("cmd", "Run"),
        ]
    ),
    min_size=1,
    max_size=4,
    unique=True,
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_GO_TYPES, _GO_NAMES, _GO_NAMES, _GO_NAMES, st.lists(_ASKED, min_size=1, max_size=4))
def test_named_definitions_warm_as_cold_over_ingested_code(
    types: list[str], first: list[str], tests: list[str], then: list[str], asked: list[list[Named]]
) -> None:
    """The definitions named, warm (no context read) as cold, before and after another
    connection ingests a file again (stale warm: SQL; read again: the new version's map)."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "cmd.go").write_text(_go(types, first))
        (root / "cmd_test.go").write_text(_go(types[:1], tests))
        path = root / "m.db"
        with Memory(path, root=root) as writer:
            writer.ingest(root / "cmd.go", root / "cmd_test.go")
            with Memory(path, root=root) as warm, Memory(path, root=root) as cold:
                reads: list[list[str]] = []
                read = warm.store.context_phrase_ids

                def spy(phrases: list[str], *, limit: int) -> list[str]:
                    reads.append(phrases)
                    return read(phrases, limit=limit)

                warm.store.context_phrase_ids = spy  # type: ignore[method-assign]
                assert warm.store.build_warm()
                for names in asked:
                    assert named_definitions(warm.store, names) == named_definitions(
                        cold.store, names
                    )
                assert reads == []  # (the map answered every name)
                for name in first if types else ():  # (a method of each type: found)
                    assert named_definitions(warm.store, [Named("", name)]).every
                (root / "cmd.go").write_text(_go(types[::-1], then))
                writer.ingest(root / "cmd.go")
                for rebuilt in (False, True):
                    if rebuilt:
                        assert warm.store.build_warm()
                    for names in asked:
                        assert named_definitions(warm.store, names) == named_definitions(
                            cold.store, names
                        )


@given(
    st.lists(st.one_of(_TITLES, st.text(max_size=12)), min_size=1, max_size=4),
    st.sampled_from(["", " L3-L9", " L7", "L2"]),
)
def test_a_trails_last_name_is_its_last_section(parts: list[str], lines: str) -> None:
    """``_last_name`` (one ``rpartition``) is ``sections``' last title, "" for none."""
    trail = " › ".join(parts) + lines
    titles = naming.sections(trail)[1]
    assert naming._last_name(trail) == (titles[-1] if titles else "")
