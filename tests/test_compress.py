"""The compress stage (retrieval/compress.py, its text rules in snippet.py) and the index's
tokenizer in Python (store/stem.py): snippets keep the stored text's characters in order,
the pack charges what is rendered, retrieval stays deterministic, and what a person stated
is never cut."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.compress import HEAD_SHARE
from credo.retrieval.snippet import (
    GAP,
    HEADLINE,
    SHORT_CHARS,
    SNIPPET,
    SNIPPET_CAP,
    VERBATIM,
    Terms,
    compress,
    head,
    join,
    sentences,
)
from credo.store.stem import stem, tokens
from credo.surfaces.render import json_text, memory_block, result_json, result_text
from credo.tokens import belief_tokens, entry_text, estimate, marks

# -- the tokenizer against FTS5 itself ----------------------------------------------------------

_FTS = sqlite3.connect(":memory:")
_FTS.execute(
    "CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')"
)
_FTS.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")


def fts_tokens(text: str) -> list[str]:
    with _FTS:
        _FTS.execute("DELETE FROM t")
        _FTS.execute("INSERT INTO t(rowid, x) VALUES (1, ?)", (text,))
        return [r[0] for r in _FTS.execute("SELECT term FROM v ORDER BY offset")]


WORDS = """
caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled
sized hopping tanned falling hissing fizzed failing filing happy sky relational conditional
rational valenci hesitanci digitizer conformabli radicalli differentli vileli analogousli
vietnamization predication operator feudalism decisiveness hopefulness callousness formaliti
sensitiviti sensibiliti triplicate formative formalize electriciti electrical hopeful goodness
revival allowance inference airliner gyroscopic adjustable defensible irritant replacement
adjustment dependent adoption homologou communism activate angulariti homologous effective
bowdlerize probate rate cease controll roll generalizations oscillators yes yyy eyed dying
configuration configure configuring retries retried retry deploying deployment staging
""".split()


@pytest.mark.parametrize("word", WORDS)
def test_stem_is_the_index_token(word: str) -> None:
    assert [stem(t) for t in tokens(word)] == fts_tokens(word)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=14))
def test_stem_matches_fts5_on_any_lower_case_word(word: str) -> None:
    assert [stem(t) for t in tokens(word)] == fts_tokens(word)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="abcdEFG xyz_-.,'0123é", max_size=40))
def test_tokens_are_the_index_tokens(text: str) -> None:
    assert [stem(t) for t in tokens(text)] == fts_tokens(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=14))
def test_every_word_starts_with_its_stems_head(word: str) -> None:
    """What Terms.hits relies on to stem only the words that can match."""
    assert word.startswith(head(stem(word)))


@pytest.mark.parametrize("word", [*WORDS, "capabilities", "readability", "hoping", "sky"])
def test_every_listed_word_starts_with_its_stems_head(word: str) -> None:
    assert word.startswith(head(stem(word)))


# -- the strategies -----------------------------------------------------------------------------

PASSAGE = (
    "Configuration\n"
    "Flask's config object is a dict subclass. You can load values from a file with "
    "from_pyfile. Environment variables are read with from_prefixed_env, which parses JSON "
    "values. The SECRET_KEY must be set before sessions work. Testing mode turns on "
    "propagation of exceptions, e.g. the test client sees them. Debug mode is not for "
    "production."
)


def test_snippet_is_the_sentence_with_the_most_query_terms() -> None:
    # secret, key, session (3) against debug, product (2)
    shown = compress(PASSAGE, Terms("secret key for sessions; debugging in production"))
    assert shown.strategy == SNIPPET
    assert shown.text == f"{GAP} The SECRET_KEY must be set before sessions work. {GAP}"
    assert shown.text == join(PASSAGE, shown.spans)


def test_of_sentences_with_as_many_terms_the_earlier_is_the_snippet() -> None:
    shown = compress(PASSAGE, Terms("sessions production"))  # one term each
    assert shown.text == f"{GAP} The SECRET_KEY must be set before sessions work. {GAP}"


def test_headline_when_no_sentence_carries_a_term() -> None:
    shown = compress(PASSAGE, Terms("xyzzy plugh"))
    assert shown.strategy == HEADLINE
    # the heading alone is short: the next sentences join it up to HEADLINE_MIN
    assert shown.text.startswith("Configuration\nFlask's config object is a dict subclass.")
    assert shown.text.endswith(GAP)


def test_short_and_kept_text_is_verbatim() -> None:
    short = "Deploy with make release. Staging first."
    assert compress(short, Terms("staging")).strategy == VERBATIM
    kept = compress(PASSAGE, Terms("secret key"), keep=True)
    assert kept.strategy == VERBATIM and kept.text == PASSAGE


def test_a_cut_that_saves_little_is_verbatim() -> None:
    text = "word " * 45 + "Staging here."
    assert len(text) > SHORT_CHARS
    shown = compress(text, Terms("word staging"))
    assert shown.strategy == VERBATIM and shown.text == text


def test_a_sentence_longer_than_the_cap_is_cut_around_its_match() -> None:
    text = " ".join(f"filler{i}" for i in range(80)) + " the retry delay doubles " + "x " * 60
    shown = compress(text, Terms("retry delay"))
    assert shown.strategy == SNIPPET
    assert "the retry delay doubles" in shown.text
    assert len(shown.text) <= SNIPPET_CAP + 4


_SENTENCE = st.builds(
    lambda words, end: " ".join(words).capitalize() + end,
    st.lists(
        st.sampled_from(["deploy", "staging", "cache", "the", "is", "é", "x_y", "3.4"]),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from([".", "!", "?", ".\n", "\n", ". "]),
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_SENTENCE, min_size=1, max_size=30).map(" ".join),
    st.sampled_from(["deploy staging", "cache", "nothing", "", "x_y é"]),
)
def test_every_kept_piece_is_the_stored_text_in_order(text: str, query: str) -> None:
    shown = compress(text, Terms(query))
    assert shown.strategy in (VERBATIM, SNIPPET, HEADLINE)
    last = 0
    for start, end in shown.spans:
        assert last <= start < end <= len(text)
        last = end
    assert shown.text == join(text, shown.spans)
    # what lies between the "…" marks is a substring of the text, in order
    at = 0
    for piece in (p.strip() for p in shown.text.split(GAP)):
        if piece:
            found = text.find(piece, at)
            assert found >= 0
            at = found + len(piece)
    assert compress(text, Terms(query)) == shown  # deterministic
    if shown.strategy != VERBATIM:
        assert len(shown.text) < len(text)
    for start, end in sentences(text):
        assert text[start:end] == text[start:end].strip()


# -- in the pipeline ----------------------------------------------------------------------------

LONG_TURN = (
    "Melanie: I went camping with the kids last weekend. We hiked to the lake and swam for "
    "hours. Then we painted the sunrise, which I had wanted to do for ages. The pottery "
    "class starts next month and I signed up already."
)


@pytest.fixture
def store(memory: Memory) -> Memory:
    memory.remember(LONG_TURN, origin="conversation", id="turn1")
    memory.remember(LONG_TURN.replace("Melanie", "Caroline"), id="stated1")  # user_stated
    memory.remember(
        LONG_TURN.replace("Melanie", "Joan"), origin="conversation", kind="correction", id="fix1"
    )
    memory.remember("Melanie likes pottery.", origin="conversation", id="short1")
    memory.remember(LONG_TURN.replace("Melanie", "Rule"), origin="conversation", id="lock1")
    memory.lock("lock1")
    return memory


def test_pipeline_charges_each_belief_as_rendered(store: Memory) -> None:
    result = store.retrieve("when does the pottery class start", token_budget=200)
    # the candidates do not all fit whole (4 x ~57 tokens + 8), so the long ones are cut
    by_id = {b.id: b for b in result.beliefs}
    assert by_id["turn1"].strategy == SNIPPET
    assert (
        by_id["turn1"].shown
        == f"{GAP} The pottery class starts next month and I signed up already."
    )
    assert by_id["turn1"].original_chars == len(LONG_TURN)
    assert by_id["turn1"].content == LONG_TURN  # the API keeps the full text
    for kept in {"stated1", "fix1", "short1", "lock1"} & set(by_id):
        assert by_id[kept].strategy == VERBATIM
        assert by_id[kept].shown == by_id[kept].content
    # A lock is charged by its own line; the pack's lines as one text (retrieval/place.py).
    lines = ""
    for b in result.beliefs:
        marked = marks(b.replaces, b.conflicts, b.superseded_by, b.scope)
        if b.locked:
            assert b.tokens == belief_tokens(b.id, b.shown, b.locked, marked, b.trail)
        else:
            lines += entry_text(b.id, b.shown, b.locked, marked, b.trail)
    locks = sum(b.tokens for b in result.beliefs if b.locked)
    assert result.used_tokens == locks + estimate(lines)
    assert result.used_tokens == sum(b.tokens for b in result.beliefs)
    block = memory_block(result)
    assert f"[turn1] {GAP} The pottery class starts" in block
    assert "get_belief" in block  # the note says what "…" means
    assert "lock1" in by_id and LONG_TURN.replace("Melanie", "Rule") in block


def test_nothing_is_cut_when_everything_fits_whole(store: Memory) -> None:
    result = store.retrieve("when does the pottery class start", token_budget=2400)
    assert not result.dropped
    assert {b.strategy for b in result.beliefs} == {VERBATIM}
    assert "get_belief" not in memory_block(result)


def test_the_head_of_the_ranking_is_shown_whole(memory: Memory) -> None:
    for n in range(6):  # six long turns, ~65 tokens each: they do not all fit in 300
        memory.remember(
            LONG_TURN.replace("the kids", f"the kids{n}") + " Pottery" * n,
            origin="conversation",
            id=f"turn{n}",
        )
    query = "when does the pottery class start"
    result = memory.retrieve(query, token_budget=300)
    first, second, *rest = result.beliefs
    # the best one's whole line fits in a quarter of the budget (HEAD_SHARE), the next's
    # whole line would not fit beside it: the best is shown whole, the others cut
    assert (
        first.tokens
        <= HEAD_SHARE * 300
        < first.tokens + belief_tokens(second.id, second.content, False)
    )
    assert first.strategy == VERBATIM and first.shown == first.content
    assert {b.strategy for b in (second, *rest)} == {SNIPPET}
    wide = memory.retrieve(query, token_budget=100_000)
    assert sum(b.tokens for b in wide.beliefs) > 300  # whole, they would not all fit
    always = memory.retrieve(query, token_budget=300, compress="always")
    assert always.beliefs[0].id == first.id and always.beliefs[0].strategy == SNIPPET


def test_compression_fits_what_would_not_fit_whole(memory: Memory) -> None:
    memory.remember(LONG_TURN, origin="conversation", id="turn1")
    assert belief_tokens("turn1", LONG_TURN, False) > 40
    result = memory.retrieve("when does the pottery class start", token_budget=40)
    assert result.ids == ["turn1"] and result.used_tokens <= 40


def test_same_store_and_query_give_byte_identical_json(store: Memory, tmp_path: Path) -> None:
    first = json_text(
        result_json(store.retrieve("when does the pottery class start", token_budget=200))
    )
    again = json_text(
        result_json(store.retrieve("when does the pottery class start", token_budget=200))
    )
    assert first == again
    first = json.loads(first)
    compressed = [b for b in first["beliefs"] if b["strategy"] != VERBATIM]
    assert compressed and all(
        set(b) >= {"strategy", "rendered", "original_chars", "content"} for b in compressed
    )


def test_explain_says_what_was_cut(store: Memory) -> None:
    text = result_text(store.retrieve("pottery class", token_budget=200), explain=True)
    assert "shown: snippet, " in text and "credo show turn1" in text
    assert "shown: verbatim" in text


def test_top_ranking_does_not_change_with_the_budget(store: Memory) -> None:
    """Compress changes what is rendered and how many fit, never the order."""
    wide = store.retrieve("pottery class kids", token_budget=100_000).ids
    narrow = store.retrieve("pottery class kids", token_budget=200).ids
    assert [i for i in wide if i in narrow] == narrow


def test_snippets_of_a_document_are_at_their_lines(tmp_path: Path) -> None:
    doc = tmp_path / "docs" / "guide.md"
    doc.parent.mkdir()
    body = " ".join(
        f"Paragraph sentence number {i} talks about topic{i} in some detail." for i in range(12)
    )
    doc.write_text(
        "# Guide\n\n## Retries\n\n" + body + "\nThe retry delay doubles after each failure.\n",
        encoding="utf-8",
    )
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(doc)
        result = memory.retrieve(
            "how is the retry delay grown", token_budget=60, with_doc_anchors=True
        )
        assert result.doc_anchors is not None
        cut = [
            (b, a)
            for b, a in zip(result.beliefs, result.doc_anchors, strict=True)
            if b.strategy == SNIPPET
        ]
        assert cut
        lines = doc.read_text(encoding="utf-8").splitlines()
        for belief, anchors in cut:
            assert "retry delay doubles" in belief.shown
            assert re.search(r"L\d+-L\d+", belief.trail)
            (anchor,) = [a for a in anchors if a.anchor_type == "ingest"]
            first, last = map(int, re.findall(r"\d+", anchor.position_hint or ""))
            source = "\n".join(lines[first - 1 : last])
            for piece in (p.strip() for p in belief.shown.split(GAP)):
                if piece:
                    assert piece in belief.content
                    assert piece in source  # plain text: the words are the file's


def test_a_belief_built_without_the_compress_fields_renders_its_content() -> None:
    from credo.types import RetrievalResult, RetrievedBelief

    belief = RetrievedBelief("b1", "plain text", 1.0, False, 5)
    assert (belief.strategy, belief.shown, belief.original_chars) == ("verbatim", "plain text", 0)
    result = RetrievalResult("q", (belief,), 100, 5)
    assert "[b1] plain text" in memory_block(result)
    item = result_json(result)["beliefs"][0]
    assert item["rendered"] == "plain text" and item["original_chars"] == len("plain text")


def test_compress_modes(store: Memory) -> None:
    from credo.errors import InvalidInputError

    query = "when does the pottery class start"
    cut = {b.id: b.strategy for b in store.retrieve(query, compress="always").beliefs}
    assert cut["turn1"] == SNIPPET and cut["stated1"] == VERBATIM
    off = store.retrieve(query, token_budget=200, compress="off")
    assert {b.strategy for b in off.beliefs} == {VERBATIM} and off.dropped
    with pytest.raises(InvalidInputError, match="compress 'sometimes' must be one of"):
        store.retrieve(query, compress="sometimes")


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from("abcdefgh"), unique=True, max_size=8),
    st.sets(st.sampled_from("abcdefghxy")),
    st.sets(st.sampled_from("abcdefghxy"), max_size=2),
)
def test_shown_all_is_shown_of_each(ids: list[str], cut: set[str], untitled: set[str]) -> None:
    """``Costs.shown_all`` (C-level, the cut ones put in their places) gives what ``shown``
    gives each id, in order, whichever are cut (some not among ``ids``) or untitled."""
    from credo.retrieval.compress import Costs
    from credo.retrieval.place import Places
    from credo.store.short_ids import Shown

    content = {i: f"text of {i}" for i in "abcdefghxy"}
    shown = Shown(list(content), lambda ids: set(), lambda prefix: [], set())
    costs = Costs(content, {}, Places({}, shown), "query", set(), None, shown)
    costs.cut.update({i: ("snippet", f"cut {i}", ((0, 1),)) for i in sorted(cut)})  # type: ignore[misc]
    costs.untitled.update({i: f"untitled {i}" for i in sorted(untitled)})
    assert costs.shown_all(ids) == [costs.shown(i) for i in ids]


def _head_reference(ids, content, marked, places, budget, cut=None):  # type: ignore[no-untyped-def]
    """``head_ids`` as a loop: the running total's estimate against the share."""
    from credo.retrieval.compress import Known, shown_whole
    from credo.retrieval.place import tokens_of

    allowed = HEAD_SHARE * budget
    whole, out, known = 0, set(), Known()
    for i in ids:
        if cut and i in cut:
            continue
        whole += shown_whole(known, places, marked, places.shown, i, content[i])  # type: ignore[operator]
        if tokens_of(whole) > allowed:
            break
        out.add(i)
    return out


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 400), max_size=12),
    st.integers(0, 3000),
    st.sets(st.integers(0, 11), max_size=3),
    st.booleans(),
)
def test_head_ids_is_the_prefix_within_the_share(
    sizes: list[int], budget: int, cut: set[int], marks_on: bool
) -> None:
    """``head_ids`` (the prefix found C-level) is the loop's answer at every budget, ids
    cut or not, marks or none; and each line is costed once, up to the first past it."""
    from credo.retrieval.bundle import Expanding
    from credo.retrieval.compress import head_ids
    from credo.retrieval.place import Places
    from credo.store.short_ids import Shown

    ids = [f"b{n:02d}" for n in range(len(sizes))]
    content = {i: "x" * size for i, size in zip(ids, sizes, strict=True)}
    marked = {
        i: (" [conflicts with b00]" if marks_on and n % 3 == 0 else "") for n, i in enumerate(ids)
    }
    shown = Shown(ids, lambda ids: set(), lambda prefix: [], set())
    places = Places({}, shown)
    cut_ids = {f"b{n:02d}": "snippet" for n in cut}
    asked: list[str] = []

    class Content(dict[str, str]):
        def __getitem__(self, key: str) -> str:
            asked.append(key)
            return super().__getitem__(key)

    want = _head_reference(ids, content, marked, places, budget, cut_ids)
    got = head_ids(ids, Content(content), marked, places, budget, cut_ids)
    assert got == want
    kept = [i for i in ids if i not in cut_ids]
    assert asked == kept[: len(want) + 1]  # (the first past the share costed, no further)
    # The pipeline may pass the ranking as a ``bundle.Expanding`` (it has no slices).
    walked = Expanding(ids, {})
    assert head_ids(walked, content, marked, places, budget) == _head_reference(  # type: ignore[arg-type]
        ids, content, marked, places, budget
    )
