"""Near-identical passages shown once, their siblings named on the first's line and charged
(retrieval/siblings.py)."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.options import Options
from credo.retrieval.pipeline import retrieve
from credo.retrieval.place import Places, parse
from credo.retrieval.siblings import (
    MAX_NAMED,
    MIN_WORDS,
    fold,
    folded,
    folded_listing,
    near_identical,
    recharge,
    shape,
    words,
)
from credo.surfaces.render import memory_block, result_json, result_text
from credo.tokens import estimate, line_chars
from credo.types import RetrievalResult, RetrievedBelief

SIGNATURE = (
    "{a}def {m}(self, url, *, params=None, headers=None, cookies=None, timeout=None): "
    "Send a `{M}` request with the given query params and headers."
)


def _sig(method: str, asynchronous: bool = False) -> str:
    return SIGNATURE.format(a="async " if asynchronous else "", m=method, M=method.upper())


def _shape(text: str, trail: str):  # type: ignore[no-untyped-def]
    place = parse(trail)
    assert place is not None
    return shape(text, place)


# -- what makes siblings ---------------------------------------------------------------------


def test_copies_that_differ_in_their_own_names_are_siblings() -> None:
    get = _shape(_sig("get"), "c.py › Client › get L4-L6")
    head = _shape(_sig("head"), "c.py › Client › head L8-L10")
    async_get = _shape(_sig("get", True), "c.py › AsyncClient › get L20-L22")
    assert get == head  # the method's own name (and `GET`) is taken out whole
    assert near_identical(get, head) and near_identical(get, async_get)


def test_a_build_folder_is_an_owner_name() -> None:
    classic = "function email(params?: string): ZodEmail { return core._email(ZodEmail, params); }"
    mini = classic.replace("ZodEmail", "ZodMiniEmail")
    a = _shape(classic, "src/v4/classic/schemas.ts › email L1-L3")
    b = _shape(mini, "src/v4/mini/schemas.ts › email L1-L3")
    assert a == b


def test_different_text_and_short_text_are_not_siblings() -> None:
    get = _shape(_sig("get"), "c.py › Client › get L4-L6")
    other = _shape(
        "def retry_backoff(attempt): How long to wait before the next retry: doubles each time.",
        "c.py › retry_backoff L30-L32",
    )
    assert not near_identical(get, other)
    short = _shape("def close(self) -> None", "c.py › Client › close L1-L2")
    assert sum(short.values()) < MIN_WORDS
    assert not near_identical(short, _shape("def close(self) -> None", "c.py › Pool › close L9-L9"))


def test_a_parameter_named_like_the_function_stays() -> None:
    """Only whole identifiers equal to a title's name are taken out: ``auth: Auth`` stays."""
    shaped = _shape("def send_auth(self, auth: Auth) -> Response", "c.py › send_auth L1-L2")
    assert shaped["auth"] == 2 and "send" not in shaped


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "Время ожидания задаётся через httpx.Client(timeout=5.0, follow_redirects=True).",
            "Размер пула ограничен; httpx.Client(timeout=5.0, follow_redirects=True) ждёт.",
        ),
        (
            "设置超时：调用 httpx.Client(timeout=5.0, follow_redirects=True) 时传入参数。",
            "连接池的大小由 httpx.Client(timeout=5.0, follow_redirects=True) 决定。",
        ),
    ],
)
def test_passages_in_another_script_that_share_only_code_are_not_siblings(a: str, b: str) -> None:
    """Before (review75): only ASCII words made a shape, so two different Russian or Chinese
    passages quoting the same call had the same shape and one was folded away."""
    first = _shape(a, "docs/ru/timeouts.md › Тайм-аут L1-L9")
    second = _shape(b, "docs/ru/pools.md › Пул L3-L9")
    assert not near_identical(first, second)


def test_words_of_another_script_stay_whole() -> None:
    assert words("Größe") == ["größe"]
    assert words("ZodMiniEmail") == ["zod", "mini", "email"]
    assert words("docs/ru/Тайм-аут.md") == ["docs", "ru", "тайм", "аут", "md"]


# -- the fold over a listing -----------------------------------------------------------------


def _belief(i: int, text: str, trail: str, **fields: object) -> RetrievedBelief:
    return RetrievedBelief(f"b{i}", text, 1.0 - i / 100, False, 10, trail=trail, **fields)  # type: ignore[arg-type]


def _listing() -> list[RetrievedBelief]:
    return [
        _belief(0, _sig("get"), "c.py › Client › get L4-L6"),
        _belief(1, "Retries wait longer each attempt, doubling the wait.", "c.py › retry L40-L41"),
        _belief(2, _sig("get", True), "c.py › AsyncClient › get L20-L22"),
        _belief(3, _sig("head"), "c.py › Client › head L8-L10"),
        _belief(4, _sig("delete"), "c.py › Client › delete L12-L14"),
        _belief(5, _sig("put"), "c.py › Client › put L16-L18"),
    ]


def test_siblings_fold_into_the_first_and_are_named() -> None:
    listing = _listing()
    folds = fold(listing)
    assert folds == {0: [2, 3, 4]}
    assert len(folds[0]) == MAX_NAMED  # the fourth copy stays in the listing
    out, kept = folded_listing(listing, folds)
    assert kept == [0, 1, 5]
    assert out[0].siblings == ("b2", "b3", "b4")
    assert (
        out[0].also
        == "also AsyncClient › get L20-L22; Client › head L8-L10; Client › delete L12-L14"
    )


def test_another_file_is_named_by_its_whole_trail() -> None:
    listing = [
        _belief(0, _sig("get"), "a.py › Client › get L4-L6"),
        _belief(1, _sig("get"), "b.py › Client › get L4-L6"),
    ]
    out, _ = folded_listing(listing, fold(listing))
    assert out[0].also == "also b.py › Client › get L4-L6"


@pytest.mark.parametrize(
    "fields",
    [{"locked": True}, {"replaces": ("x",)}, {"conflicts": ("x",)}, {"superseded_by": ("x",)}],
)
def test_locks_and_beliefs_with_standing_never_fold(fields: dict[str, object]) -> None:
    for index in (0, 1):  # neither as the first nor as the sibling
        listing = [
            _belief(0, _sig("get"), "c.py › Client › get L4-L6"),
            _belief(1, _sig("head"), "c.py › Client › head L8-L10"),
        ]
        listing[index] = listing[index]._replace(**fields)
        assert fold(listing) == {}


def test_notes_without_a_place_never_fold() -> None:
    listing = [_belief(0, _sig("get"), ""), _belief(1, _sig("get"), "")]
    assert fold(listing) == {}


# -- charged as rendered ---------------------------------------------------------------------


def _lines(beliefs: list[RetrievedBelief], places: Places) -> dict[str, int]:
    out = {}
    for b in beliefs:
        place = places[b.id]
        out[b.id] = (
            line_chars(b.id, b.shown, False, "", lines=place.lines)
            if place is not None
            else line_chars(b.id, b.shown, False, "", b.trail)
        )
    return out


_TRAILS = st.sampled_from(
    [
        "a.py › Client › get L4-L6",
        "a.py › Client › head L8-L10",
        "a.py › AsyncClient › get L20-L22",
        "b.py › Client › get L4-L6",
        "a.py › Pool L30-L40",
        "docs/x.md › Intro L1-L9",
    ]
)
_TEXTS = st.sampled_from(
    [
        _sig("get"),
        _sig("head"),
        _sig("get", True),
        "Retries wait longer each attempt, doubling the wait between them.",
        "A pool keeps connections open between requests to one host.",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_TEXTS, _TRAILS), max_size=12, unique_by=lambda x: x[1]))
def test_folded_listing_is_charged_as_the_block_renders_it(
    items: list[tuple[str, str]],
) -> None:
    beliefs = [_belief(i, text, trail) for i, (text, trail) in enumerate(items)]
    places = Places({b.id: b.trail for b in beliefs})
    folds = fold(beliefs)
    gone = [i for siblings in folds.values() for i in siblings]
    assert len(gone) == len(set(gone))  # each sibling folded once
    assert all(first < i for first, siblings in folds.items() for i in siblings)
    assert all(len(s) <= MAX_NAMED for s in folds.values())
    listing, kept = folded_listing(beliefs, folds)
    assert sorted(kept + gone) == list(range(len(beliefs)))
    charged, used = recharge(listing, _lines(beliefs, places), places)
    assert sum(b.tokens for b in charged) == used
    block = memory_block(RetrievalResult("q", tuple(charged), 10_000, used), anchors=False)
    body = block.split("\n")[1:-2]  # between the header and the closing tag
    assert estimate("".join(line + "\n" for line in body)) == used
    for b in charged:
        assert all(name in block for name in b.also.removeprefix("also ").split("; ") if name)


def test_a_fold_that_would_pass_the_budget_is_not_made() -> None:
    """A sibling in another file, under file and section lines another passage keeps open,
    is named by its whole trail: longer than its own line when the path is long."""
    far = "/".join(["a_very_long_folder_name"] * 12) + "/client.py"
    beliefs = [
        _belief(0, _sig("get"), "c.py › Client › get L4-L6"),
        _belief(1, "A pool keeps connections open.", f"{far} › Client › head L1-L2"),
        _belief(2, _sig("head"), f"{far} › Client › head L8-L10"),
    ]
    places = Places({b.id: b.trail for b in beliefs})
    lines = _lines(beliefs, places)
    assert fold(beliefs) == {0: [2]}
    _, before = recharge(beliefs, lines, places)
    made = folded(beliefs, lines, places, room=10_000)
    assert made is not None and made[1] > before  # the name costs more than the line
    assert folded(beliefs, lines, places, room=before) is None  # so at the pack's room: none


# -- end to end ------------------------------------------------------------------------------


def _client(cls: str, asynchronous: bool) -> list[str]:
    out = [f"class {cls}:", f'    """A {cls} that sends requests over one connection pool."""', ""]
    for method in ("get", "head", "delete"):
        out += [
            f"    {'async ' if asynchronous else ''}def {method}(self, url, *, params=None, "
            "headers=None, cookies=None, timeout=None):",
            f'        """Send a `{method.upper()}` request with the given query params and '
            'headers."""',
            f"        return {'await ' if asynchronous else ''}self.request("
            f"{method.upper()!r}, url, params=params, headers=headers)",
            "",
        ]
    return out


def _store(root: Path) -> Memory:
    root.mkdir()
    (root / "client.py").write_text(
        "\n".join([*_client("Client", False), "", *_client("AsyncClient", True)]) + "\n"
    )
    memory = Memory(root / "m.db", root=root)
    memory.ingest(root / "client.py")
    return memory


QUERY = "send a GET request with query params and headers"


@pytest.mark.parametrize("clustering", [True, False])
@pytest.mark.parametrize("budget", [60, 150, 2400])
def test_retrieval_shows_a_copy_once_and_names_the_others(
    tmp_path: Path, clustering: bool, budget: int
) -> None:
    memory = _store(tmp_path / "p")
    result = memory.retrieve(
        QUERY, token_budget=budget, with_doc_anchors=True, use_intentional_clustering=clustering
    )
    assert result.used_tokens <= budget
    assert result.beliefs
    first = result.beliefs[0]
    assert first.trail == "client.py › Client › get L4-L6"
    trails = [b.trail for b in result.beliefs]
    assert "client.py › AsyncClient › get L20-L22" not in trails  # folded, not listed
    if budget >= 150:  # room for a sibling: Client.head and .delete come next
        assert first.siblings
    if budget >= 2400:  # every copy packed
        assert "AsyncClient › get L20-L22" in first.also
    # Named on the block's line, and charged: the tokens are the estimate of the lines.
    block = memory_block(result, anchors=False)
    body = [line for line in block.split("\n")[1:-2]]
    assert estimate("".join(line + "\n" for line in body)) == result.used_tokens
    for b in result.beliefs:
        if b.also:
            assert f"; {b.also})" in block
    # A sibling's place joins the first's anchors: the listing names it.
    assert result.doc_anchors is not None
    uris = [a.doc_uri for a in result.doc_anchors[0]]
    assert uris[0] == "client.py#L4-L6"
    assert len(uris) == 1 + len(first.siblings)
    assert "client.py#L20-L22" in uris or "AsyncClient › get" not in first.also
    data = result_json(result)
    assert data["beliefs"][0]["also"] == first.also
    assert data["beliefs"][0]["siblings"] == list(first.siblings)
    if first.also:
        assert f"↳ {first.also}" in result_text(result)


def test_the_fold_can_be_turned_off(tmp_path: Path) -> None:
    memory = _store(tmp_path / "p")
    on = retrieve(memory.store, QUERY, Options(token_budget=2400))
    off = retrieve(memory.store, QUERY, Options(token_budget=2400, fold_siblings=False))
    assert len(off.beliefs) > len(on.beliefs)
    assert not any(b.also or b.siblings for b in off.beliefs)
    listed = {b.id for b in on.beliefs} | {s for b in on.beliefs for s in b.siblings}
    assert listed == {b.id for b in off.beliefs}  # every passage is listed or named
    assert on.used_tokens < off.used_tokens


def test_the_fold_is_deterministic(tmp_path: Path) -> None:
    """Two stores built from the same files, and a query asked twice, give the same
    listing, names and charges, byte for byte."""
    one, two = _store(tmp_path / "a"), _store(tmp_path / "b")
    results = [
        m.retrieve(QUERY, token_budget=budget, with_doc_anchors=True)
        for m in (one, two, one)
        for budget in (150, 2400)
    ]
    blocks = [memory_block(r) for r in results]
    assert blocks[0:2] == blocks[2:4] == blocks[4:6]
    shown = [[(b.id, b.also, b.siblings, b.tokens) for b in r.beliefs] for r in results]
    assert shown[0:2] == shown[2:4] == shown[4:6]


def _fold_reference(beliefs: list[RetrievedBelief]) -> dict[int, list[int]]:
    """``fold`` as first written: every first tried in listing order, shapes made anew."""
    firsts: list[tuple[int, object]] = []
    out: dict[int, list[int]] = {}
    for index, b in enumerate(beliefs):
        place = parse(b.trail) if b.trail and not b.locked else None
        if place is None:
            continue
        mine = shape(b.content, place)
        for first, theirs in firsts:
            if near_identical(theirs, mine) and len(out.get(first, ())) < MAX_NAMED:  # type: ignore[arg-type]
                out.setdefault(first, []).append(index)
                break
        else:
            firsts.append((index, mine))
    return out


_WORDS_POOL = ["send", "request", "params", "headers", "url", "timeout", "pool", "retry", "get"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(_WORDS_POOL), min_size=0, max_size=14),
            st.sampled_from(["a.py › C › get L1-L2", "a.py › D › put L3-L4", "b.py › x L5-L6"]),
        ),
        max_size=14,
    )
)
def test_fold_finds_what_the_reference_finds(items: list[tuple[list[str], str]]) -> None:
    beliefs = [_belief(i, " ".join(ws), trail) for i, (ws, trail) in enumerate(items)]
    assert fold(beliefs) == _fold_reference(beliefs)


def test_a_shape_cache_cleared_by_another_thread_between_test_and_read_is_no_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before (review75): ``key in cache`` then ``cache[key]``: a clear in between (another
    store's retrieval on another server thread) raised KeyError."""
    from credo.retrieval import siblings

    class ClearedInBetween(dict):  # type: ignore[type-arg]
        def __contains__(self, key: object) -> bool:
            found = super().__contains__(key)
            if found:
                self.clear()  # (the other thread, at the worst moment)
            return found

    cache = ClearedInBetween()
    monkeypatch.setattr(siblings, "_SHAPED", cache)
    listing = _listing()
    assert fold(listing) == {0: [2, 3, 4]}
    assert fold(listing) == {0: [2, 3, 4]}  # (the second from the cache)
