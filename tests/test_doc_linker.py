"""The belief↔document linker (issue 5): A3 idempotence, A4 migration, URI normalisation,
cascade, the reverse lookup, the doc lane, and the A1 corpus' well-formedness.

Why these tests: the linker's contract is a (belief_id, normalised doc_uri) key. Every
surface (API, CLI, ingest, import) funnels through that normalisation, so the tests pin the
exact stored strings rather than "something equivalent".
"""

from __future__ import annotations

import json
import re
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.errors import InvalidInputError, NotFoundError
from credo.retrieval.lanes.doc import PAGE_PREFIX, mentions, releases, without_named
from credo.store import LATEST_VERSION
from credo.store import SqliteStore as Store
from credo.store.fts import query_terms
from credo.store.migrations import MIGRATIONS

CORPUS = Path(__file__).resolve().parent / "corpus" / "doc_linker"
NAME_KINDS = {"path", "file", "page", "url"}


def _rows(memory: Memory, belief_id: str) -> list[tuple[Any, ...]]:
    return memory.store.conn.execute(
        "SELECT doc_uri, anchor_type, position_hint FROM belief_documents WHERE belief_id = ?",
        (belief_id,),
    ).fetchall()


# -- A3: link is idempotent ----------------------------------------------------------------


@pytest.fixture(scope="module")
def root() -> Iterator[Path]:
    """A project root shared by hypothesis examples (function-scoped tmp_path is not)."""
    with tempfile.TemporaryDirectory(prefix="credo-linker-") as folder:
        yield Path(folder).resolve()


def _same_doc_forms(root: Path) -> list[str]:
    """Spellings of one document that must all normalise to ``docs/deploy.md#L12-L30``."""
    return [
        "docs/deploy.md#L12-L30",
        "./docs/deploy.md#L12-L30",
        "docs/../docs/deploy.md#12-30",
        f"{root}/docs/deploy.md#L12-L30",
        f"file://{root}/docs/deploy.md#L12-L30",
        "  docs/deploy.md#L12-L30  ",
    ]


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(min_value=1, max_value=12),
    form=st.sampled_from(
        [
            "docs/deploy.md",
            "docs/deploy.md#L3-L9",
            "https://example.com/guide#install",
            "https://example.com/a/b?x=1",
            "file:///outside/notes.txt",
            "/outside/notes.txt#L1-L2",
        ]
    ),
    anchor_type=st.sampled_from(["manual", "ingest", "derived"]),
)
def test_a3_linking_n_times_leaves_one_row(root: Path, n: int, form: str, anchor_type: str) -> None:
    with Memory(":memory:", root=root) as memory:
        belief = memory.remember("Deploys go through the blue-green script")
        anchors = [memory.link(belief, form, anchor_type=anchor_type) for _ in range(n)]
        assert len(_rows(memory, belief)) == 1
        assert all(a == anchors[0] for a in anchors)  # the first write wins, created_at too
        assert memory.anchors(belief) == [anchors[0]]


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a3_equivalent_spellings_share_one_row(root: Path, data: st.DataObject) -> None:
    forms = data.draw(st.lists(st.sampled_from(_same_doc_forms(root)), min_size=1, max_size=10))
    with Memory(":memory:", root=root) as memory:
        belief = memory.remember("Staging mirrors production")
        for form in forms:
            memory.link(belief, form)
        assert _rows(memory, belief) == [("docs/deploy.md#L12-L30", "manual", "L12-L30")]


# -- A4: an older store is migrated on open ------------------------------------------------


def test_a4_pre_linker_store_migrates_and_anchor_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    old = Store(path, migrations=MIGRATIONS[:1])
    now = 1_700_000_000.0
    old.conn.execute(
        "INSERT INTO beliefs(id, content, content_hash, kind, origin, created_at, updated_at) "
        "VALUES ('old-1', 'Releases are cut on Thursdays', 'h1', 'factual', 'user_stated', ?, ?)",
        (now, now),
    )
    assert old.schema_version == 1
    old.close()
    raw = sqlite3.connect(path)
    tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    raw.close()
    assert "belief_documents" not in tables

    with Memory(path, root=tmp_path) as memory:
        assert memory.stats().schema_version == LATEST_VERSION
        written = memory.link("old-1", "docs/release.md", lines=(4, 11))
        assert written.doc_uri == "docs/release.md#L4-L11"
        assert written.position_hint == "L4-L11"
    with Memory(path, root=tmp_path) as reopened:  # read back from disk, not a cache
        assert reopened.anchors("old-1") == [written]
        assert reopened.beliefs_for_doc("docs/release.md") == [written]
        indexes = {
            tuple(r[2] for r in reopened.store.conn.execute(f"PRAGMA index_info('{name}')"))
            for (name,) in reopened.store.conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' "
                "AND tbl_name = 'belief_documents'"
            )
        }
        assert ("doc_uri",) in indexes  # document -> beliefs
        assert any(cols[:1] == ("belief_id",) for cols in indexes)  # belief -> documents


# -- cascade and rejection -----------------------------------------------------------------


def test_hard_forget_cascades_to_anchors_soft_forget_keeps_them(memory: Memory) -> None:
    soft = memory.remember("Soft-deleted beliefs keep their anchors for audit")
    hard = memory.remember("Hard-deleted beliefs take their anchors with them")
    for belief in (soft, hard):
        memory.link(belief, "docs/audit.md", lines="1-3")
        memory.link(belief, "https://example.com/audit")
    memory.forget(soft)
    memory.forget(hard, hard=True)
    assert len(_rows(memory, soft)) == 2
    assert _rows(memory, hard) == []
    assert memory.beliefs_for_doc("docs/audit.md") == []  # a forgotten belief is not offered
    audit = memory.beliefs_for_doc("docs/audit.md", include_forgotten=True)
    assert [a.belief_id for a in audit] == [soft]  # ...but its anchor stays for audit


def test_raw_delete_cascades(memory: Memory) -> None:
    """The FK itself cascades (not only Memory.forget's code path)."""
    belief = memory.remember("A belief deleted by raw SQL")
    memory.link(belief, "docs/raw.md")
    with memory.store.transaction():
        memory.store.conn.execute("DELETE FROM beliefs WHERE id = ?", (belief,))
    assert _rows(memory, belief) == []


@pytest.mark.parametrize("uri", ["", " ", "\t", "\n  \n", "#L1-L2"])
def test_empty_uris_are_rejected_clearly(memory: Memory, uri: str) -> None:
    belief = memory.remember("Anchors need a document")
    with pytest.raises(InvalidInputError, match=r"(?i)empty|no path"):
        memory.link(belief, uri)
    with pytest.raises(InvalidInputError, match=r"(?i)empty|no path"):
        memory.remember("Another belief", doc=uri)
    assert _rows(memory, belief) == []
    if uri.strip() == "":
        with pytest.raises(InvalidInputError, match="empty"):
            memory.beliefs_for_doc(uri)


# -- URIs are stored exactly as normalised -------------------------------------------------


@pytest.mark.parametrize(
    ("given_uri", "lines", "stored", "hint"),
    [
        ("docs/deploy.md", None, "docs/deploy.md", None),
        ("./docs/deploy.md", None, "docs/deploy.md", None),
        ("docs/sub/../deploy.md", None, "docs/deploy.md", None),
        ("  docs/deploy.md  ", None, "docs/deploy.md", None),
        ("{root}/docs/deploy.md", None, "docs/deploy.md", None),
        ("file://{root}/docs/deploy.md", None, "docs/deploy.md", None),
        ("/outside/notes.md", None, "file:///outside/notes.md", None),
        ("/outside/my notes.md", None, "file:///outside/my%20notes.md", None),
        ("file:///outside/notes.md", None, "file:///outside/notes.md", None),
        ("{root}/../elsewhere/x.md", None, "file://{parent}/elsewhere/x.md", None),
        ("docs/deploy.md#L12-L30", None, "docs/deploy.md#L12-L30", "L12-L30"),
        ("docs/deploy.md#12-30", None, "docs/deploy.md#L12-L30", "L12-L30"),
        ("docs/deploy.md#L7", None, "docs/deploy.md#L7-L7", "L7-L7"),
        ("docs/deploy.md", (12, 30), "docs/deploy.md#L12-L30", "L12-L30"),
        ("docs/deploy.md", "12-30", "docs/deploy.md#L12-L30", "L12-L30"),
        ("docs/deploy.md#L1-L2", (12, 30), "docs/deploy.md#L12-L30", "L12-L30"),
        ("docs/deploy.md#rollback", None, "docs/deploy.md#rollback", "rollback"),
        ("/outside/notes.md#L3-L4", None, "file:///outside/notes.md#L3-L4", "L3-L4"),
        ("https://example.com/guide", None, "https://example.com/guide", None),
        ("https://example.com/guide#install", None, "https://example.com/guide#install", "install"),
        ("https://example.com/a.md#L3-L9", None, "https://example.com/a.md#L3-L9", "L3-L9"),
        ("https://example.com/a.md", (3, 9), "https://example.com/a.md#L3-L9", "L3-L9"),
        ("https://example.com/s?q=1&x=2", None, "https://example.com/s?q=1&x=2", None),
    ],
)
def test_uri_normalisation(
    tmp_path: Path,
    given_uri: str,
    lines: str | tuple[int, int] | None,
    stored: str,
    hint: str | None,
) -> None:
    root = (tmp_path / "project").resolve()
    root.mkdir()
    fill = {"root": root.as_posix(), "parent": root.parent.as_posix()}
    with Memory(tmp_path / "m.db", root=root) as memory:
        belief = memory.remember("Normalisation is pinned to exact strings")
        anchor = memory.link(belief, given_uri.format(**fill), lines=lines)
        assert anchor.doc_uri == stored.format(**fill)
        assert anchor.position_hint == hint
        assert _rows(memory, belief) == [(stored.format(**fill), "manual", hint)]


def test_explicit_position_hint_wins(memory: Memory) -> None:
    belief = memory.remember("A section-name hint")
    anchor = memory.link(belief, "docs/deploy.md", position_hint="#rollback")
    assert (anchor.doc_uri, anchor.position_hint) == ("docs/deploy.md", "#rollback")


# -- reverse lookup ------------------------------------------------------------------------


def test_beliefs_for_doc_prefix_on_folder_and_file(memory: Memory) -> None:
    ids = {
        name: memory.remember(f"Belief about {name}")
        for name in ("a1", "a2", "sub", "bak", "other", "web")
    }
    memory.link(ids["a1"], "docs/a.md", lines=(1, 2))
    memory.link(ids["a2"], "docs/a.md", lines=(5, 6))
    memory.link(ids["sub"], "docs/sub/b.md")
    memory.link(ids["bak"], "docs/a.md.bak")
    memory.link(ids["other"], "other/c.md")
    memory.link(ids["web"], "https://example.com/docs/a.md")

    def found(query: str) -> set[str]:
        return {a.belief_id for a in memory.beliefs_for_doc(query)}

    assert found("docs/") == {ids[k] for k in ("a1", "a2", "sub", "bak")}
    assert found("docs/sub/") == {ids["sub"]}
    assert found("docs/a.md") == {ids["a1"], ids["a2"]}  # not docs/a.md.bak
    assert found("./docs/a.md") == {ids["a1"], ids["a2"]}
    assert found(str(memory.root / "docs" / "a.md")) == {ids["a1"], ids["a2"]}
    assert found("docs/a.md#L5-L6") == {ids["a2"]}
    assert found("docs/a.md.bak") == {ids["bak"]}
    assert found("other/") == {ids["other"]}
    assert found("https://example.com/docs/") == {ids["web"]}
    assert found("docs/missing.md") == set()


def test_beliefs_for_doc_after_ingest(tmp_path: Path) -> None:
    (tmp_path / "docs" / "ops").mkdir(parents=True)
    (tmp_path / "docs" / "deploy.md").write_text(
        "# Deploy\n\nDeploys run through the blue-green script.\n\n"
        "## Rollback\n\nA rollback redeploys the previous tag.\n",
        encoding="utf-8",
    )
    (tmp_path / "docs" / "ops" / "pager.md").write_text(
        "# Pager\n\nThe pager rotates every Monday.\n", encoding="utf-8"
    )
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path / "docs")
        folder = memory.beliefs_for_doc("docs/")
        assert {a.doc_uri.partition("#")[0] for a in folder} == {
            "docs/deploy.md",
            "docs/ops/pager.md",
        }
        deploy = memory.beliefs_for_doc("docs/deploy.md")
        assert {a.doc_uri for a in deploy} == {"docs/deploy.md#L1-L3", "docs/deploy.md#L5-L7"}
        assert all(a.anchor_type == "ingest" for a in deploy)


# -- the doc lane --------------------------------------------------------------------------


@pytest.fixture
def two_docs(memory: Memory) -> dict[str, str]:
    """Two beliefs whose words tie for BM25F; only their anchors tell them apart."""
    ids = {
        "deploy": memory.remember("Rollbacks use the previous release tag"),
        "ops": memory.remember("Rollbacks use the previous release branch"),
        "web": memory.remember("Rollbacks use the previous release build"),
    }
    memory.link(ids["deploy"], "docs/deploy.md", lines=(10, 12))
    memory.link(ids["ops"], "runbooks/ops.md", lines=(3, 4))
    memory.link(ids["web"], "https://wiki.example.com/release-guide#rollback")
    return ids


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what does docs/deploy.md say about rollbacks", "deploy"),
        ("rollbacks in deploy.md", "deploy"),
        ("rollbacks in ./docs/deploy.md?", "deploy"),
        ("in runbooks/ops.md, how do rollbacks work", "ops"),
        ("ops.md rollbacks", "ops"),
        ("rollbacks per https://wiki.example.com/release-guide", "web"),
        ("rollbacks (see runbooks/)", "ops"),
    ],
)
def test_doc_lane_ranks_the_named_documents_belief_first(
    memory: Memory, two_docs: dict[str, str], query: str, expected: str
) -> None:
    result = memory.retrieve(query, with_doc_anchors=True)
    assert result.beliefs[0].id == two_docs[expected]
    assert "doc" in result.beliefs[0].lanes
    assert result.doc_anchors is not None
    assert result.doc_anchors[0] == tuple(memory.anchors(two_docs[expected]))
    off = memory.retrieve(query, with_doc_anchors=True, lanes={"doc": False})
    assert all("doc" not in b.lanes for b in off.beliefs)


def test_doc_lane_reads_a_conventional_file_named_in_capitals(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# Tool\n\nAdd the badge to your page.\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "badge.md").write_text("# Badge\n\nAdd the badge to your page.\n")
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    memory.ingest(tmp_path / "README.md", tmp_path / "docs" / "badge.md")
    named = memory.retrieve("what badge does the README add", with_doc_anchors=True)
    assert named.beliefs[0].trail.startswith("README.md")
    assert "doc" in named.beliefs[0].lanes
    plain = memory.retrieve("what badge does the readme add", with_doc_anchors=True)
    assert all("doc" not in b.lanes for b in plain.beliefs)  # a word, not a file's name
    memory.close()


@pytest.mark.parametrize(
    ("query", "page"),
    [
        ("the deploy page", "deploy"),
        ("what the ops docs say", "ops"),
        ("the release_process file", "release_process"),
        ("the shell-completion file", "shell-completion"),
        ("a file named deploy", "deploy"),
        ("the file called 'ops'", "ops"),
        ("the same source file on two machines", None),
        ("where is the data file written", None),
        ("read the file object in chunks", None),
        ("a config file for the tool", None),
    ],
)
def test_file_names_a_page_only_beside_a_name(query: str, page: str | None) -> None:
    """ "file" after an ordinary word says what kind of file it is; beside a word written
    as a name, or one the question calls it by, it names one."""
    pages = [needle for needle, _ in mentions(query) if needle.startswith(PAGE_PREFIX)]
    assert pages == ([] if page is None else [PAGE_PREFIX + page])


def test_a_kind_of_file_does_not_take_the_doc_lane_for_its_page(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "source.md").write_text(
        "# Source\n\nChoose the source folders to measure.\n", encoding="utf-8"
    )
    (tmp_path / "docs" / "combine.md").write_text(
        "# Combine\n\nData from two machines is merged by combine.\n", encoding="utf-8"
    )
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path / "docs")
        result = memory.retrieve("the same source file measured on two machines: merged how?")
        assert all("doc" not in b.lanes for b in result.beliefs)
        assert result.beliefs[0].trail.startswith("docs/combine.md")


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # the path's words go: the doc lane scores its passages already
        ("docs/deploy.md: how do rollbacks work", ["rollbacks", "work"]),
        # a path word the question says again on its own is its topic: it stays
        ("docs/deploy.md: how does deploy roll back", ["deploy", "roll", "back"]),
        ("Deploy: see docs/deploy.md", ["deploy", "see"]),
        # nothing else left: every term stays
        ("docs/deploy.md", ["docs", "deploy", "md"]),
    ],
)
def test_without_named_keeps_the_path_words_said_again(text: str, kept: list[str]) -> None:
    terms = query_terms(text)
    paths = [needle for needle, score in mentions(text) if score >= 1.0]
    assert without_named(terms, paths, text) == kept


def test_without_named_does_not_depend_on_the_order_of_the_paths() -> None:
    # one path inside another: cut the outer first, or "old" would count as said
    text = "docs/deploy.md vs old/docs/deploy.md: which tags"
    terms = query_terms(text)
    paths = ["docs/deploy.md", "old/docs/deploy.md"]
    assert without_named(terms, paths, text) == without_named(terms, paths[::-1], text)
    assert without_named(terms, paths, text) == query_terms("vs which tags")


_WORDS = st.sampled_from(["deploy", "ops", "guide", "rollbacks", "work", "tags", "read"])


@given(
    path=st.lists(_WORDS, min_size=1, max_size=3),
    before=st.lists(_WORDS, max_size=4),
    after=st.lists(_WORDS, max_size=4),
)
@settings(max_examples=200, deadline=None)
def test_without_named_drops_only_the_words_said_in_the_path_alone(
    path: list[str], before: list[str], after: list[str]
) -> None:
    """What is dropped is a path word the rest of the question never says; the order of the
    rest is kept, and something is always left."""
    needle = "docs/" + "/".join(path) + ".md"
    text = " ".join([*before, needle, *after])
    terms = query_terms(text)
    kept = without_named(terms, [needle], text)
    said = set(query_terms(" ".join(before + after)))
    assert kept == [t for t in terms if t in kept]
    assert kept
    dropped = set(terms) - set(kept)
    assert not dropped & said
    if said:
        assert dropped == set(query_terms(needle)) - said


def test_a_named_pages_topic_word_said_again_stays_in_the_keyword_query(tmp_path: Path) -> None:
    """``extensions/converter.md: what is Converter for, and which tags does it read?``: the
    page's subject is a word of its path and of the question. Taken out with the path, the
    page's passages lost it to a page that merely holds the question's other words."""
    (tmp_path / "extensions").mkdir()
    (tmp_path / "extensions" / "converter.md").write_text(
        "# Converter\n\n## Overview\n\nConverter rewrites relative paths to absolute ones"
        " in links and images.\n\n## Options\n\nSet base_path and relative_path; each"
        " option takes a folder, a file name or a pattern, and empty means the current"
        " folder of the build.\n",
        encoding="utf-8",
    )
    (tmp_path / "tabs.md").write_text(
        "# Tabs\n\n## Styling\n\nThe tabs read div tags and span elements when they are"
        " styled with CSS.\n",
        encoding="utf-8",
    )
    for name in ("alpha", "beta", "gamma", "delta", "epsilon", "zeta"):  # (idf needs a few)
        (tmp_path / f"{name}.md").write_text(
            f"# {name.title()}\n\n## Usage\n\nThe {name} extension adds {name} blocks to a"
            " page; enable it in the build settings.\n",
            encoding="utf-8",
        )
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        result = memory.retrieve(
            "extensions/converter.md: what is Converter for, and which tags does it read?"
        )
        assert result.beliefs[0].trail.startswith("extensions/converter.md › Converter › Overview")
        assert "bm25f" in result.beliefs[0].lanes


def test_doc_lane_ignores_words_that_only_look_like_files(
    memory: Memory, two_docs: dict[str, str]
) -> None:
    result = memory.retrieve("rollbacks since v1.2, e.g. the release", with_doc_anchors=True)
    assert all("doc" not in b.lanes for b in result.beliefs)


def test_doc_lane_does_not_match_a_longer_file_name(memory: Memory) -> None:
    """'docs/a.md' names that file, not 'docs/a.md.txt' (the prefix scan over-matches)."""
    right = memory.remember("The wombat policy, first copy")
    wrong = memory.remember("The wombat policy, backup copy")
    memory.link(right, "docs/a.md", lines=(3, 3))
    memory.link(wrong, "docs/a.md.txt", lines=(1, 1))
    result = memory.retrieve("wombat policy in docs/a.md")
    lanes = {b.id: b.lanes for b in result.beliefs}
    assert "doc" in lanes[right]
    assert "doc" not in lanes[wrong]


def test_doc_lane_covers_every_belief_of_a_long_named_file(tmp_path: Path) -> None:
    """A named file with more than 200 anchors is cut at 200 rows in doc_uri order, where
    '#L923' sorts after '#L1..'-'#L8..': the passage the user asks about gets no doc score."""
    (tmp_path / "docs").mkdir()
    paragraphs = [f"Paragraph {i} covers topic{i} and the zebra migration." for i in range(399)]
    paragraphs[230] = "The quokka rotation runbook lives here."
    # A section each, so that each paragraph is a passage (a belief) of its own; the
    # quokka's, on lines 923-925, is the 378th anchor in doc_uri order.
    sections = [f"## Part {i}\n\n{text}" for i, text in enumerate(paragraphs)]
    (tmp_path / "docs" / "big.md").write_text(
        "# Big\n\n" + "\n\n".join(sections) + "\n", encoding="utf-8"
    )
    (tmp_path / "docs" / "other.md").write_text(
        "# Other\n\nThe quokka rotation is also mentioned here.\n", encoding="utf-8"
    )
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path / "docs")
        anchors = sorted(a.doc_uri for a in memory.beliefs_for_doc("docs/big.md"))
        assert len(anchors) == 399
        assert anchors.index("docs/big.md#L923-L925") >= 200
        result = memory.retrieve("what does docs/big.md say about quokka rotation")
        assert result.beliefs[0].content == "Part 230\nThe quokka rotation runbook lives here."


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("CHANGELOG.md, 26.1.0: which Python versions were removed?", ["26.1.0"]),
        ("dropped in 1.0 and in 1.3, and since 3.24.", ["1.0", "1.3", "3.24"]),
        ("what did v2.0.1 change", ["2.0.1"]),
        ("what changed in 1.0.2.", ["1.0.2"]),
        ("docs/v2.1/setup.md and a.b.c", []),
        ("no release here", []),
    ],
)
def test_releases_named_in_a_query(query: str, expected: list[str]) -> None:
    assert releases(query) == expected


def test_doc_lane_ranks_the_passages_of_a_named_release_first(tmp_path: Path) -> None:
    """Every release of a changelog drops some Python; BM25 reads "2.1.0" as the digits
    2, 1 and 0, which every other release and date in the trails holds too."""
    sections = [
        "## 3.0.0 - 2024-02-10\n\n- Drop support for Python 3.7 and 3.8, at last.",
        "## v2.1.0 - 2023-01-20\n\n- Python 3.6 support removed.",
        "## 2.0.10 - 2022-10-02\n\n- Python 3.5 support removed, 2.1.0 is next.",
        "## 1.2.0 - 2021-01-02\n\n- Drop support for Python 2.7 and 3.4, finally.",
    ]
    (tmp_path / "CHANGELOG.md").write_text("# Changelog\n\n" + "\n\n".join(sections) + "\n")
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path / "CHANGELOG.md")
        result = memory.retrieve("CHANGELOG.md, 2.1.0: which Python support was removed?")
        assert result.beliefs[0].trail.startswith("CHANGELOG.md › Changelog › v2.1.0")
        assert result.beliefs[0].lanes["doc"] > result.beliefs[1].lanes["doc"]
        # a number held only in a passage's text, or inside a longer release, names no place
        for b in result.beliefs[1:]:
            assert b.lanes.get("doc", 0.0) <= result.beliefs[0].lanes["doc"] / 2


def test_context_phrase_ids_match_the_ranked_search_they_stand_for(tmp_path: Path) -> None:
    """SQLite's column filter gives the ids the generic form (every hit the phrase scores
    in context, PostgreSQL's path) gives: not the rows holding the number in their text,
    nor a locked or forgotten one."""
    from credo.store.fts import KeywordReads

    body = "\n\n".join(f"## {v}\n\n- Changed 2.1.0 handling, see {v}." for v in RELEASES)
    (tmp_path / "CHANGES.md").write_text("# Changes\n\n" + body + "\n")
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path / "CHANGES.md")
        memory.remember("Release 2.1.0 went out on a Tuesday.")
        store = memory.store
        first = store.context_phrase_ids(["2.1.0", "v2.1.0"], limit=100)
        memory.forget(first[0])
        for phrases, limit in [(["2.1.0", "v2.1.0"], 100), (["1.0"], 100), (["2.0"], 1), ([], 5)]:
            fast = store.context_phrase_ids(phrases, limit=limit)
            assert fast == KeywordReads.context_phrase_ids(store, phrases, limit=limit)
        assert first[0] not in store.context_phrase_ids(["2.1.0", "v2.1.0"], limit=100)
        # v2.1.0, 2.1.0 and 2.1.0.1 (the tokens in order: the title check drops it later),
        # not the remembered belief nor the passages holding the number in their text only
        assert len(first) == 3


RELEASES = ["v2.1.0", "2.1.0", "2.1.0.1", "1.0", "2.0", "2.0.1"]


# -- A1: the labelled corpus ---------------------------------------------------------------


def _corpus_rows() -> list[dict[str, Any]]:
    lines = (CORPUS / "queries.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_corpus_is_well_formed() -> None:
    rows = _corpus_rows()
    assert len(rows) >= 50
    assert len({r["id"] for r in rows}) == len(rows)
    assert len({r["query"] for r in rows}) == len(rows)
    naming = [r for r in rows if r["names"] is not None]
    assert 3 * len(naming) >= len(rows)  # at least a third name a file or page
    assert {r["names"] for r in naming} <= NAME_KINDS
    for row in rows:
        assert row["query"].strip() and row["expected_texts"] and row["expected_sections"]
        assert row["expected_doc_uris"]
        for uri in row["expected_doc_uris"]:
            assert (CORPUS / uri).is_file(), (row["id"], uri)
            assert uri.startswith("docs/") and "#" not in uri
        for section in row["expected_sections"]:
            uri, _, heading = section.partition("#")
            assert uri in row["expected_doc_uris"], (row["id"], section)
            text = (CORPUS / uri).read_text(encoding="utf-8").replace("*", "").replace("`", "")
            assert heading and heading in text, (row["id"], section)
        if row["names"] in ("path", "file"):
            # The query spells the file as users do: a name with its extension.
            named = re.findall(r"[\w./-]+\.(?:md|rst)\b", row["query"])
            assert any(
                n.rsplit("/", 1)[-1] in {u.rsplit("/", 1)[-1] for u in row["expected_doc_uris"]}
                for n in named
            ), row["id"]
        if row["names"] == "url":
            assert "https://" in row["query"], row["id"]
    assert (CORPUS / "README.md").is_file()
    assert (CORPUS / "docs" / "LICENSE").is_file()


def test_corpus_labels_resolve_against_the_ingested_tree(tmp_path: Path) -> None:
    """Every expected text is held by a belief, every section heading parses, and the
    labelled section holds one of the row's expected passages (labels agree with each
    other). The bench refuses to run otherwise; this keeps the corpus from rotting."""
    from bench.doc_linker import build_judge, load_queries

    queries = load_queries(CORPUS / "queries.jsonl")
    with Memory(tmp_path / "m.db", root=CORPUS) as memory:
        report = memory.ingest(CORPUS / "docs")
        assert report.files_ingested >= 15
        judge = build_judge(memory, CORPUS, queries)
    assert judge.problems == []
    for query in queries:
        relevant = judge.relevant(query)
        assert relevant, query.id
        assert any(judge.in_sections(i, query.expected_sections) for i in relevant), query.id
        docs = set(judge.docs_of(sorted(relevant)))
        assert docs & set(query.expected_doc_uris), query.id


def test_seed_contract_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seed's functions take the store, as the memo's class diagram does, and do what
    Memory.link / anchors / anchors_for_beliefs do (Memory calls them)."""
    from credo.knowledge.linker import (
        get_doc_anchors,
        get_doc_anchors_batch,
        link_belief_to_document,
    )

    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "docs").mkdir()
    monkeypatch.chdir(project / "docs")
    with Memory(tmp_path / "seed.db", root=project) as memory:
        store = memory.store
        a = memory.remember("first")
        b = memory.remember("second")
        # No root given: the root is the git work tree of the current folder (docs/ here).
        first = link_belief_to_document(store, a, "docs/x.md", position_hint="L1-L2")
        assert first.doc_uri == "docs/x.md"
        again = link_belief_to_document(store, a, str(project / "docs/x.md"), position_hint="L9")
        assert first == again and first.anchor_type == "ingest"
        link_belief_to_document(store, b, "https://example.org/p", anchor_type="manual")
        assert get_doc_anchors(store, a) == [first] == memory.anchors(a)
        batch = get_doc_anchors_batch(store, [a, b, "missing"])
        assert sorted(batch) == sorted([a, b])
        assert batch[b][0].doc_uri == "https://example.org/p"
        assert [e.payload["doc_uri"] for e in store.log_entries() if e.op == "link"] == [
            "docs/x.md",
            "https://example.org/p",
        ]
        with pytest.raises(InvalidInputError, match="anchor_type"):
            link_belief_to_document(store, a, "x.md", anchor_type="guessed")
        memory.forget(b)
        with pytest.raises(NotFoundError, match="forgotten"):
            link_belief_to_document(store, b, "x.md")
        with pytest.raises(NotFoundError, match="no belief"):
            get_doc_anchors(store, "missing")
