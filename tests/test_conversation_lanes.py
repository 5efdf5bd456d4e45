"""The conversation lanes: dialog (question -> answer), session, date and speaker; each
one's pure function, its effect on a retrieval, and switching it off."""

from __future__ import annotations

import heapq
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.ahead import known_ahead
from credo.retrieval.lanes import LANES
from credo.retrieval.lanes.date import DAY_SCORE, MONTH_SCORE, MONTHS, date_lane, windows
from credo.retrieval.lanes.dialog import answered, explain, is_question
from credo.retrieval.lanes.session import session_lane, session_scores
from credo.retrieval.lanes.speaker import label_of, label_words, speaker_lane
from credo.retrieval.pipeline import DEFAULT_LANES
from credo.retrieval.rank import DEFAULT_WEIGHTS
from credo.surfaces.render import result_json, result_text
from tests.conftest import CliRun


def _ts(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> float:
    return datetime(year, month, day, hour, minute, tzinfo=UTC).timestamp()


# -- the lane contract ---------------------------------------------------------------------


def test_the_new_lanes_are_known_on_by_default_and_weighted() -> None:
    assert set(DEFAULT_LANES) == set(LANES)
    assert {lane: DEFAULT_LANES[lane] for lane in ("dialog", "session", "date", "speaker")} == {
        "dialog": True,
        "session": True,
        "date": True,
        "speaker": True,
    }
    # dialog has no weight of its own: it changes the bm25f lane's scores
    assert set(DEFAULT_WEIGHTS) == set(LANES) - {"dialog"}
    assert (DEFAULT_WEIGHTS["session"], DEFAULT_WEIGHTS["date"]) == (0.3, 0.5)
    assert DEFAULT_WEIGHTS["speaker"] == 0.2
    assert (DEFAULT_WEIGHTS["heat"], DEFAULT_WEIGHTS["bfs"]) == (0.3, 0.25)


# -- dialog: pure functions ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("What did you paint?", True),
        ("What did you paint?  \n", True),
        ('He asked: "why not?"', True),
        ("(was it blue?)", True),
        ("«Vraiment?»", True),
        ("“Really?”", True),
        ("真的吗？", True),
        ("?", True),
        ("I painted a sunrise.", False),
        ("Why? Because I love it.", False),
        ("Did you see this? [image: a dog on a beach]", False),  # the plain rule: no captions
        ("", False),
        ("???!", False),
    ],
)
def test_question_detection(text: str, question: bool) -> None:
    assert is_question(text) is question


def test_an_answered_question_passes_its_score_to_its_successor() -> None:
    keyword = {"q": 10.0, "a": 2.0, "x": 5.0}
    assert answered(keyword, [("q", "a")]) == {"q": 8.0, "a": 10.0, "x": 5.0}
    # a successor the keywords missed comes in; one that scored higher keeps its own score
    assert answered(keyword, [("q", "new")])["new"] == 10.0
    assert answered({"q": 1.0, "a": 3.0}, [("q", "a")]) == {"q": 0.8, "a": 3.0}


def test_a_question_with_two_successors_lifts_both() -> None:
    got = answered({"q": 4.0, "a": 1.0}, [("q", "a"), ("q", "b")])
    assert got == {"q": 4.0 * 0.8, "a": 4.0, "b": 4.0}


def test_chained_questions_use_the_scores_as_found() -> None:
    # q1 -> q2 -> a: q2 is itself an answered question; what it passes on is its own
    # keyword score, not the one q1 gave it, whatever order the pairs come in.
    keyword = {"q1": 10.0, "q2": 6.0}
    want = {"q1": 8.0, "q2": 10.0, "a": 6.0}
    assert answered(keyword, [("q1", "q2"), ("q2", "a")]) == want
    assert answered(keyword, [("q2", "a"), ("q1", "q2")]) == want


_ids = st.sampled_from([f"b{i}" for i in range(8)])


@settings(max_examples=200, deadline=None)
@given(
    keyword=st.dictionaries(_ids, st.floats(0.01, 50.0), min_size=1),
    successors=st.lists(st.tuples(st.integers(0, 7), _ids), max_size=10),
    data=st.data(),
)
def test_the_transfer_is_order_independent_and_matches_its_formula(
    keyword: dict[str, float], successors: list[tuple[int, str]], data: st.DataObject
) -> None:
    questions = sorted(keyword)
    pairs = [(questions[i % len(questions)], a) for i, a in successors if a != questions[0] or i]
    got = answered(keyword, pairs)
    shuffled = data.draw(st.permutations(pairs))
    reordered = dict(reversed(list(keyword.items())))
    assert answered(reordered, shuffled) == got
    asked = {q for q, _ in pairs}
    for belief_id in set(keyword) | {a for _, a in pairs}:
        own = keyword.get(belief_id, 0.0) * (0.8 if belief_id in asked else 1.0)
        lifted = [keyword[q] for q, a in pairs if a == belief_id]
        assert got[belief_id] == max([own, *lifted])


def test_explain_splits_the_keyword_part_and_keeps_the_sum() -> None:
    parts = {"bm25f": 0.8, "heat": 0.1}
    explain(parts, before=10.0, best=10.0, weight=1.0)  # a question: 10 -> 8
    assert parts == {"heat": 0.1, "bm25f": 1.0, "dialog": pytest.approx(-0.2)}
    parts = {"bm25f": 1.0}
    explain(parts, before=0.0, best=10.0, weight=1.0)  # an answer the keywords missed
    assert parts == {"dialog": 1.0}


# -- session: pure functions ---------------------------------------------------------------


def test_session_score_is_the_sum_of_its_three_best_hits() -> None:
    keyword = {"a1": 5.0, "a2": 4.0, "a3": 3.0, "a4": 2.0, "b1": 6.0, "n1": 9.0}
    sessions = {"a1": "A", "a2": "A", "a3": "A", "a4": "A", "b1": "B", "n1": None}
    assert session_scores(keyword, sessions) == {"A": 12.0, "B": 6.0}
    assert session_scores(keyword, sessions, top=1) == {"A": 5.0, "B": 6.0}
    # every candidate (the hits among them) in a session with hits gets its session's score
    candidates = {i: g for i, g in sessions.items() if g is not None} | {"a9": "A", "c1": "C"}
    lane = session_lane(keyword, candidates)
    assert lane == {"a1": 12.0, "a2": 12.0, "a3": 12.0, "a4": 12.0, "a9": 12.0, "b1": 6.0}


def test_no_sessions_no_session_scores() -> None:
    assert session_lane({"x": 1.0, "y": 2.0}, {}) == {}
    assert session_lane({}, {"x": "A"}) == {}


@settings(max_examples=200, deadline=None)
@given(
    keyword=st.dictionaries(_ids, st.floats(0.0, 50.0)),
    sessions=st.dictionaries(_ids, st.sampled_from(["A", "B", "C", None])),
    top=st.integers(1, 4),
)
def test_session_scores_equal_the_reference_in_any_order(
    keyword: dict[str, float], sessions: dict[str, str | None], top: int
) -> None:
    want = {
        g: sum(heapq.nlargest(top, (v for i, v in keyword.items() if sessions.get(i) == g)))
        for g in {sessions.get(i) for i in keyword} - {None}
    }
    assert session_scores(keyword, sessions, top=top) == want
    assert session_scores(dict(reversed(list(keyword.items()))), sessions, top=top) == want


# -- date: pure functions ------------------------------------------------------------------

DAY = 86_400.0


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("what happened on 2023-05-08?", [(_ts(2023, 5, 8), DAY, DAY_SCORE)]),
        ("on 13 October 2023", [(_ts(2023, 10, 13), DAY, DAY_SCORE)]),
        ("on the 8th December, 2023", [(_ts(2023, 12, 8), DAY, DAY_SCORE)]),
        ("13th of Oct. 2023", [(_ts(2023, 10, 13), DAY, DAY_SCORE)]),
        ("October 13, 2023", [(_ts(2023, 10, 13), DAY, DAY_SCORE)]),
        ("December 1,2023", [(_ts(2023, 12, 1), DAY, DAY_SCORE)]),
        ("sept 3rd 2022", [(_ts(2022, 9, 3), DAY, DAY_SCORE)]),
        ("29 February 2024", [(_ts(2024, 2, 29), DAY, DAY_SCORE)]),
        ("in May 2023", [(_ts(2023, 5, 1), 31 * DAY, MONTH_SCORE)]),
        ("in February 2023", [(_ts(2023, 2, 1), 28 * DAY, MONTH_SCORE)]),
        ("December 2023", [(_ts(2023, 12, 1), 31 * DAY, MONTH_SCORE)]),
        (
            "between 1 May 2023 and June 2023",
            [(_ts(2023, 5, 1), DAY, DAY_SCORE), (_ts(2023, 6, 1), 30 * DAY, MONTH_SCORE)],
        ),
        # ignored: a bare month or year, impossible dates, words that only look like dates
        ("in May", []),
        ("back in 2023", []),
        ("31 February 2023", []),
        ("February 30, 2024", []),
        ("29 February 2023", []),
        ("2023-02-31", []),
        ("2023-13-01", []),
        ("December 9999", []),
        ("you may 2x the dose", []),
        ("", []),
    ],
)
def test_date_windows(text: str, found: list[tuple[float, float, float]]) -> None:
    assert [(start, end - start, score) for start, end, score in windows(text)] == found


@pytest.mark.parametrize("name", sorted(MONTHS))
def test_every_month_name_is_read(name: str) -> None:
    for spelled in (name, name.title(), name.upper()):
        ((start, _, score),) = windows(f"in {spelled} 2023")
        assert (start, score) == (_ts(2023, MONTHS[name], 1), MONTH_SCORE)
        ((start, _, score),) = windows(f"on 2 {spelled}. 2023")
        assert (start, score) == (_ts(2023, MONTHS[name], 2), DAY_SCORE)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_parses_without_raising(text: str) -> None:
    for start, end, score in windows(text):
        assert start < end and score in (DAY_SCORE, MONTH_SCORE)


def test_date_lane_scores_the_best_window_half_open() -> None:
    day = (_ts(2023, 5, 8), _ts(2023, 5, 9), DAY_SCORE)
    month = (_ts(2023, 5, 1), _ts(2023, 6, 1), MONTH_SCORE)
    created = {
        "start": _ts(2023, 5, 8),
        "last": _ts(2023, 5, 9) - 0.001,
        "next-day": _ts(2023, 5, 9),
        "june": _ts(2023, 6, 1),
        "april": _ts(2023, 4, 30, 23, 59),
    }
    assert date_lane([day, month], created) == {"start": 1.0, "last": 1.0, "next-day": 0.5}
    assert date_lane([], created) == {}


# -- speaker: pure functions ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("Melanie: I signed up for a pottery class.", ("melanie",)),
        ("Jon Snow: winter is coming", ("jon", "snow")),
        ("The User: prefers tabs", ("user",)),  # stopwords are not part of a name
        ("José: hola", ("josé",)),
        ("Decision: ship on Friday", ("decision",)),
        ("One Two Three: a three-word tag", ("one", "two", "three")),
        ("One Two Three Four: too long for a label", None),
        ("Error 42: disk full", None),  # digits: not a name
        ("snake_case: a key", None),
        ("Melanie:no space after the colon", None),
        ("Melanie - I signed up", None),
        ("The: only a stopword", None),
        ("a" * 41 + ": past the label's length", None),
        ("a" * 40 + ": at the label's length", ("a" * 40,)),
        ("", None),
        (": nothing before it", None),
        ("http://example.com: a URL is not a label", None),
    ],
)
def test_label_words(content: str, words: tuple[str, ...] | None) -> None:
    assert label_words(content) == words


def test_speaker_lane_scores_the_turns_of_the_speakers_the_query_names() -> None:
    contents = {
        "m1": "Melanie: I signed up for a pottery class.",
        "c1": "Caroline: Melanie, how was the pottery class?",
        "j1": "Jon Snow: I went north.",
        "p1": "no label in this one, Melanie",
    }
    assert speaker_lane({"melanie", "pottery"}, contents) == {"m1": 1.0}
    assert speaker_lane({"jon", "north"}, contents) == {}  # every word of the name, or none
    assert speaker_lane({"jon", "snow", "melanie"}, contents) == {"j1": 1.0, "m1": 1.0}
    assert speaker_lane(set(), contents) == {}


@given(st.text(max_size=80), st.sets(st.text(min_size=1, max_size=8), max_size=5))
def test_speaker_lane_scores_only_candidates_and_only_with_one(
    content: str, terms: set[str]
) -> None:
    words = label_words(content)  # never raises
    # lower-cased ("İ" lowers to "i" and a combining dot, which is not a letter)
    assert words is None or (words and all(w == w.lower() for w in words))
    got = speaker_lane(terms, {"a": content})
    assert got in ({}, {"a": 1.0})
    assert bool(got) == (words is not None and set(words) <= terms)


_TURN = st.one_of(
    st.text(max_size=60),
    st.builds(
        "{}: {}".format,
        st.sampled_from(["Melanie", "Jon Snow", "the Decision", "Error 42", "", "a b c d"]),
        st.text(max_size=20),
    ),
)


@settings(max_examples=300)
@given(
    st.dictionaries(st.sampled_from([f"b{k}" for k in range(12)]), _TURN, max_size=12),
    st.sets(st.sampled_from(["melanie", "jon", "snow", "decision", "error", "a"]), max_size=4),
    st.sets(st.sampled_from([f"b{k}" for k in range(12)]), max_size=12),
)
def test_speaker_lane_with_labels_kept_answers_as_reading_every_text(
    contents: dict[str, str], terms: set[str], met: set[str]
) -> None:
    """With the store version's labels (``Known.labels``: some met before, the rest found
    and kept now), the lane answers exactly as reading each candidate's text does, and
    keeps each candidate's label as ``label_of`` reads it."""
    labels = {i: label_of(text) for i, text in contents.items() if i in met}
    assert speaker_lane(terms, contents, labels) == speaker_lane(terms, contents)
    assert labels == {i: label_of(text) for i, text in contents.items()}
    assert speaker_lane(terms, contents, labels) == speaker_lane(terms, contents)


def test_known_ahead_keeps_every_label() -> None:
    """The labels made at index read (``known_ahead``) are ``label_of`` each belief's text,
    one string for each label said."""
    beliefs = [("t1", "Melanie: hi"), ("t2", "Melanie: pottery"), ("n1", "a note")]
    labels = known_ahead(beliefs, {}, None).labels
    assert labels == {"t1": "Melanie", "t2": "Melanie", "n1": ""}
    assert labels["t1"] is labels["t2"]


# -- end to end ----------------------------------------------------------------------------

MAY_8 = _ts(2023, 5, 8, 14)
JUNE_1 = _ts(2023, 6, 1, 14)


def _turns(rows: list[tuple[str, str, str | None, float]]) -> list[dict[str, object]]:
    """The beliefs, and unrelated notes so that the query's words are rare enough to score
    (BM25's idf)."""
    return [
        {"kind": "belief", "id": i, "content": c, "session": s, "created_at": t}
        for i, c, s, t in rows
    ] + [
        {"kind": "belief", "id": f"n{i:02d}", "content": f"unrelated note x{i}"} for i in range(30)
    ]


@pytest.fixture
def chat(tmp_path: Path) -> Memory:
    memory = Memory(tmp_path / "chat.db", root=tmp_path)
    records = _turns(
        [
            ("c1", "Melanie: What did you paint last weekend?", "s1", MAY_8),
            ("c2", "Caroline: A sunrise over the lake, with my kids.", "s1", MAY_8 + 1),
            ("c3", "Melanie: Lovely, I wish I could come.", "s1", MAY_8 + 2),
            ("d1", "Jon: I paint the fence every spring.", "s2", JUNE_1),
            ("d2", "Jon: Painting classes start next weekend.", "s2", JUNE_1 + 1),
            ("d3", "Jon: My weekend was busy with painting the garage.", "s2", JUNE_1 + 2),
            ("d4", "Jon: We paint together on the weekend sometimes.", "s2", JUNE_1 + 3),
        ]
    )
    records += [
        {"kind": "edge", "src": a, "dst": b, "type": "TEMPORAL_NEXT"}
        for a, b in [("c1", "c2"), ("c2", "c3"), ("d1", "d2"), ("d2", "d3"), ("d3", "d4")]
    ]
    memory.import_records(records)
    return memory


QUESTION = "What did Melanie paint last weekend"


def test_dialog_lane_brings_the_answer_after_a_matching_question(chat: Memory) -> None:
    on = chat.retrieve(QUESTION, token_budget=100_000)
    assert "c2" in on.ids[:2]
    answer = on.beliefs[on.ids.index("c2")]
    assert "dialog" in answer.lanes and "bm25f" not in answer.lanes  # no query word in it
    question = on.beliefs[on.ids.index("c1")]
    assert question.lanes["dialog"] < 0  # an answered question keeps 0.8 of its score
    off = chat.retrieve(QUESTION, token_budget=100_000, lanes={"dialog": False})
    assert all("dialog" not in b.lanes for b in off.beliefs)
    assert "c2" not in off.ids[:3]
    assert off.beliefs[off.ids.index("c1")].lanes["bm25f"] > question.lanes["bm25f"] - 1e-9


def test_a_forgotten_answer_leaves_the_question_alone(chat: Memory) -> None:
    chat.forget("c2")
    result = chat.retrieve(QUESTION, token_budget=100_000)
    assert "c2" not in result.ids
    assert all("dialog" not in b.lanes for b in result.beliefs)


def test_session_lane_lifts_the_session_the_keywords_point_at(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "s.db", root=tmp_path)
    # b-x and a-y match the query equally; b-x's session has more matches
    memory.import_records(
        _turns(
            [
                ("b-x", "the blue kettle upstairs", "home", MAY_8),
                ("a-y", "the blue kettle downstairs", "office", MAY_8),
                ("h2", "descaling the kettle monthly", "home", MAY_8),
                ("h3", "nothing relevant at all", "home", MAY_8),
            ]
        )
    )
    on = memory.retrieve("blue kettle", token_budget=100_000)
    assert on.ids[:2] == ["b-x", "a-y"]
    assert "session" in on.beliefs[0].lanes
    assert "h3" not in on.ids  # the lane adds no candidates
    off = memory.retrieve("blue kettle", token_budget=100_000, lanes={"session": False})
    assert off.ids[:2] == ["a-y", "b-x"]  # a tie, broken by id
    assert all("session" not in b.lanes for b in off.beliefs)


def test_date_lane_lifts_what_was_written_on_the_named_day(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "d.db", root=tmp_path)
    memory.import_records(
        _turns(
            [
                ("a-june", "walked the dog by the river", None, JUNE_1),
                ("b-may", "walked the dog in the park", None, MAY_8),
                ("c-may", "bought a new lamp for the desk", None, MAY_8),
            ]
        )
    )
    query = "Who walked the dog on 8 May 2023?"
    on = memory.retrieve(query, token_budget=100_000)
    assert on.ids == ["b-may", "a-june"]  # c-may: written that day, but no lane found it
    assert on.beliefs[0].lanes["date"] == pytest.approx(0.5 * DAY_SCORE)
    month = memory.retrieve("Who walked the dog in May 2023?", token_budget=100_000)
    assert month.ids[0] == "b-may"
    off = memory.retrieve(query, token_budget=100_000, lanes={"date": False})
    assert off.ids == ["a-june", "b-may"]  # a tie, broken by id


def test_speaker_lane_prefers_what_the_named_person_said(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "sp.db", root=tmp_path)
    # The two turns match the query alike (a tie, broken by id); Melanie said what is asked.
    memory.import_records(
        _turns(
            [
                ("a-caroline", "Caroline: Melanie, your pottery class!", "s1", MAY_8),
                ("b-melanie", "Melanie: and my pottery class!", "s1", MAY_8 + 1),
                ("c-caroline", "Caroline: I have not been to a class in years.", "s2", JUNE_1),
            ]
        )
    )
    query = "What does Melanie do at her pottery class?"
    on = memory.retrieve(query, token_budget=100_000)
    assert on.ids[0] == "b-melanie"
    assert on.beliefs[0].lanes["speaker"] == pytest.approx(DEFAULT_WEIGHTS["speaker"])
    assert all("speaker" not in b.lanes for b in on.beliefs[1:])  # Caroline's turns
    off = memory.retrieve(query, token_budget=100_000, lanes={"speaker": False})
    assert off.ids[0] == "a-caroline"
    assert all("speaker" not in b.lanes for b in off.beliefs)
    assert set(on.ids) == set(off.ids)  # the lane adds no candidates


def test_explain_and_json_show_the_new_lanes(chat: Memory) -> None:
    result = chat.retrieve(QUESTION + " on 8 May 2023", token_budget=100_000)
    text = result_text(result, explain=True)
    for lane in ("dialog", "session", "date", "speaker"):
        assert f"{lane} " in text
    answer = result_json(result)["beliefs"][result.ids.index("c2")]
    assert {"dialog", "session", "date"} <= set(answer["lanes"])
    melanie = result_json(result)["beliefs"][result.ids.index("c1")]
    assert "speaker" in melanie["lanes"]


def test_search_lane_flags_through_the_cli(run: CliRun, tmp_path: Path) -> None:
    records = tmp_path / "chat.jsonl"
    rows = _turns(
        [
            ("c1", "What did you paint last weekend?", "s1", MAY_8),
            ("c2", "A sunrise over the lake.", "s1", MAY_8 + 1),
        ]
    )
    rows.append({"kind": "edge", "src": "c1", "dst": "c2", "type": "TEMPORAL_NEXT"})
    records.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    run("import", str(records), check=True)
    shown = run("search", "what did you paint", "--explain", check=True).stdout
    assert "dialog" in shown and "session" in shown
    off = json.loads(run("search", "what did you paint", "--lane", "dialog=off", "--json").stdout)
    assert all("dialog" not in b["lanes"] for b in off["beliefs"])


class _Unread(dict[str, float]):
    def items(self):  # type: ignore[override]
        raise AssertionError("the keyword hits were read")


def test_without_sessions_the_session_lane_reads_no_hit() -> None:
    """No candidate has a session: the lane is empty without a look at each keyword hit
    (before: each hit's session was looked up, ~27k instructions a query on a store of notes)."""
    assert session_lane(_Unread(a=1.0, b=2.0), {}) == {}
    assert session_lane({"a": 1.0}, {"a": "s1", "b": "s1"}) == {"a": 1.0, "b": 1.0}
