"""retrieval/adjacent.py: a near tie goes to the passage holding the words side by side."""

from collections.abc import Iterable, Mapping
from pathlib import Path

from credo import Memory
from credo.config import Settings
from credo.retrieval.adjacent import SHARE, TOP, Extras, adjacent_first
from credo.retrieval.rank import Scored, as_scored

QUERY = "where do the environment variables come from"


def _scored(*rows: tuple[str, float]) -> list[Scored]:
    return [Scored(i, s, {"bm25f": s}) for i, s in rows]


def _extras(contexts: Mapping[str, str]) -> Extras:
    def read(ids: Iterable[str]) -> dict[str, str]:
        return {i: "\n" + contexts[i] for i in ids if i in contexts}  # (no anchor text)

    return read


TRAILS = {
    "a": "guide.md › Reading L3-L5",
    "b": "guide.md › Loading L7-L9",
    "c": "src/env.py › load L1-L9",
}
TEXTS = {
    "a": "Reading\nThe environment at start. Variables named in the file win.",
    "b": "Loading\nThe settings come from environment variables at start.",
    "c": "def load(): read the environment variables at start",
}


def test_a_near_tie_goes_to_the_words_side_by_side() -> None:
    ranked = _scored(("a", 1.0), ("b", 0.999))
    contexts = {k: TRAILS[k] for k in "ab"}
    out = as_scored(adjacent_first(ranked, QUERY, TEXTS, TRAILS, _extras(contexts)))
    assert [s.id for s in out] == ["b", "a"]
    b = out[0]
    assert b.lanes["adjacent"] == round(0.999 * SHARE, 9)  # one pair: environment variables
    assert abs(sum(b.lanes.values()) - b.score) < 1e-9


def test_a_clear_lead_stays_and_code_gains_nothing() -> None:
    ranked = _scored(("a", 1.0), ("b", 0.9))
    contexts = {k: TRAILS[k] for k in "ab"}
    out = as_scored(adjacent_first(ranked, QUERY, TEXTS, TRAILS, _extras(contexts)))
    assert [s.id for s in out] == ["a", "b"]
    ranked = _scored(("a", 1.0), ("c", 0.999))
    contexts = {k: TRAILS[k] for k in "ac"}
    assert adjacent_first(ranked, QUERY, TEXTS, TRAILS, _extras(contexts)) is ranked


def test_a_pair_never_spans_the_text_and_the_trail() -> None:
    # "environment" ends the text and "variables" opens the context's next line: no pair
    texts = {"a": "Reading\nIt reads the environment", "b": "Loading\nNothing here"}
    trails = {"a": "guide.md › Reading L1-L2", "b": "guide.md › Loading L3-L4"}
    contexts = {"a": trails["a"] + "\nvariables are read", "b": trails["b"]}
    ranked = _scored(("b", 1.0), ("a", 0.999))
    assert adjacent_first(ranked, QUERY, texts, trails, _extras(contexts)) is ranked
    contexts["a"] = trails["a"] + "\nenvironment variables are read"  # in the context's rest
    out = as_scored(adjacent_first(ranked, QUERY, texts, trails, _extras(contexts)))
    assert [s.id for s in out] == ["a", "b"]


def test_notes_and_ranks_past_the_top_are_left_alone() -> None:
    ranked = _scored(("n", 1.0), ("b", 0.999))  # n: a note, no trail
    contexts = {"b": TRAILS["b"]}
    out = as_scored(adjacent_first(ranked, QUERY, TEXTS, TRAILS, _extras(contexts)))
    assert [s.id for s in out] == ["b", "n"]  # (b gains; the note neither gains nor moves)
    assert adjacent_first(ranked, QUERY, TEXTS, {}, _extras(contexts)) is ranked
    filler = [(f"x{i:02d}", 2.0 - i / 1000) for i in range(TOP)]
    ranked = _scored(*filler, ("b", 1.0))
    trails = {**{f"x{i:02d}": f"other.md › X{i} L1-L2" for i in range(TOP)}, "b": TRAILS["b"]}
    texts = {**{f"x{i:02d}": "nothing" for i in range(TOP)}, "b": TEXTS["b"]}
    contexts = {k: v for k, v in trails.items()}
    assert adjacent_first(ranked, QUERY, texts, trails, _extras(contexts)) is ranked


DOC = """# Settings

## Reading

The settings come from the environment at start. Variables named in the file win.

## Loading

The settings come from environment variables at start. Named in the file, they win.
"""


def test_through_memory_the_section_saying_the_words_together_leads(tmp_path: Path) -> None:
    # The two sections hold the same words and tie; before this step the first by id led
    # (Reading), now the one that says "environment variables" does (Loading).
    root = tmp_path / "p"
    root.mkdir()
    (root / "guide.md").write_text(DOC, encoding="utf-8")
    memory = Memory(tmp_path / "c.db", root=root, settings=Settings())
    try:
        memory.ingest(root / "guide.md")
        first = memory.retrieve(QUERY, token_budget=4000).beliefs
        again = memory.retrieve(QUERY, token_budget=4000).beliefs
    finally:
        memory.close()
    assert first[0].content.startswith("Loading")
    assert first[0].lanes.get("adjacent", 0.0) > 0
    assert [(b.id, b.score) for b in first] == [(b.id, b.score) for b in again]


def test_an_anchor_text_with_a_line_break_does_not_let_the_path_count() -> None:
    """Before (review67): the context was taken past the anchor text's first line break, so a
    link's anchor text of two lines put the trail's path ("environment-variables.md") in the
    context's rest, and the path's words counted as a pair."""
    trails = {"a": "docs/environment-variables.md › Reading L1-L2", "b": TRAILS["b"]}
    texts = {"a": "Reading\nThe environment at start. Variables win.", "b": "Loading\nNothing"}
    ranked = _scored(("b", 1.0), ("a", 0.999))
    plain = {"a": "\n" + trails["a"] + "\nReading", "b": "\n" + trails["b"]}
    assert adjacent_first(ranked, QUERY, texts, trails, lambda ids: plain) is ranked
    linked = {**plain, "a": "see the\nsettings page\n" + trails["a"] + "\nReading"}
    assert adjacent_first(ranked, QUERY, texts, trails, lambda ids: linked) is ranked
    # (the context's rest still counts past an anchor text of two lines)
    said = {**plain, "a": "see the\nsettings page\n" + trails["a"] + "\nvariables come first"}
    assert [
        s.id for s in as_scored(adjacent_first(ranked, QUERY, texts, trails, lambda ids: said))
    ] == [
        "a",
        "b",
    ]


def test_a_camel_case_path_s_words_in_the_context_do_not_count() -> None:
    """Before (review67): ingest repeats a camelCase path's words in the context's second
    line ("environment variables" of environmentVariables.md), and that line counted: every
    passage of the file held the pair the question asked. The path never counts."""
    from credo.knowledge.chunk import Chunk
    from credo.knowledge.ingest.context import context_field

    texts = {"a": "Reading\nThe environment at start. Variables win.", "b": "Loading\nNothing"}
    chunk = Chunk(texts["a"], 1, 2, "passage", section=("Reading",))
    context = context_field("docs/environmentVariables.md", chunk)
    assert "environment variables" in context.split("\n")[1]  # (ingest's second line)
    trails = {"a": context.split("\n")[0], "b": TRAILS["b"]}
    contexts = {"a": context, "b": trails["b"]}
    ranked = _scored(("b", 1.0), ("a", 0.999))
    assert adjacent_first(ranked, QUERY, texts, trails, _extras(contexts)) is ranked


def test_the_code_extensions_are_ingest_s_code_extensions() -> None:
    """retrieval does not import knowledge, so credo.types lists the code extensions itself:
    the two lists must not drift apart (a language added to ingest would gain here)."""
    from credo.knowledge.chunk.language import CONFIG_LANGUAGES, EXTENSIONS, PROSE_LANGUAGES
    from credo.types import CODE_EXTENSIONS, is_code_path

    other = PROSE_LANGUAGES | CONFIG_LANGUAGES
    code = {e for e, language in EXTENSIONS.items() if language not in other}
    assert code == CODE_EXTENSIONS
    assert all(is_code_path(f"src/a.{e.upper()}") for e in code)
    assert not any(is_code_path(f"docs/a.{e}") for e in EXTENSIONS.keys() - code)
    assert not is_code_path("py") and not is_code_path("src.py/README")


def test_warm_cold_and_postgresql_give_the_same_answers(tmp_path: Path) -> None:
    """The step reads ``Store.index_extras`` (SQL on both backends, no warm copy): a warm
    store, a cold one and PostgreSQL answer alike, the gain included; a link's anchor text
    of two lines changes nothing."""
    import json

    from credo.surfaces.render import result_json
    from tests.conftest import POSTGRES, exported_records, postgres_store

    root = tmp_path / "p"
    root.mkdir()
    (root / "guide.md").write_text(DOC, encoding="utf-8")
    db = tmp_path / "c.db"
    with Memory(db, root=root) as memory:
        memory.ingest(root / "guide.md")
        first = memory.retrieve(QUERY, token_budget=4000).beliefs[0].id
        note = memory.remember("Where the settings come from is told in the guide.")
        memory.relate(note, first, "RELATES_TO", anchor_text="see\nalso")
        records = exported_records(memory, tmp_path / "r.jsonl")
    questions = (QUERY, "environment variables", "settings")
    with Memory(db, root=root) as warm, Memory(db, root=root) as cold:
        assert warm.store.build_warm()
        answers = [json.dumps(result_json(cold.retrieve(q))) for q in questions]
        assert [json.dumps(result_json(warm.retrieve(q))) for q in questions] == answers
    assert '"adjacent"' in answers[0]
    if not POSTGRES:
        return
    with postgres_store() as url, Memory(url, root=root) as copy:
        copy.import_records(records)
        with Memory(tmp_path / "copy.db", root=root) as lite:
            lite.import_records(records)
            want = [json.dumps(result_json(lite.retrieve(q))) for q in questions]
        assert [json.dumps(result_json(copy.retrieve(q))) for q in questions] == want
