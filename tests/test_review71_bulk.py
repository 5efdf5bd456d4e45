"""Review of the plain-text bulk index (store/bulk.py): ASCII text the hypothesis test of
test_bulk_plain_text does not draw (digits, punctuation, camelCase, underscores, URLs,
control characters), a re-import over the same ids, and an import into a store that already
holds beliefs: the keyword index is what the view gives, and the index checks clean."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.store import bulk
from credo.store.bulk import BULK_DDL_ROWS
from tests.test_bulk_plain_text import _index

_PIECES = st.sampled_from(
    [
        "getHTTPResponse", "snake_case_name", "__init__", "v1.2.3", "3.14e-10", "0x1F",
        "https://example.com/a_b?c=1&d=2#frag", "C++", "a-b", "it's", "\t", "\n", "  ",
        "\x00", "\x1f", "\x7f", "é", "データ", "🚀", "ß", "", "1", "_", "'", '"', "\\",
    ]
)  # fmt: skip
_ASCII = st.text(st.characters(min_codepoint=0, max_codepoint=127), max_size=20)
_TEXT = st.one_of(_ASCII, st.lists(_PIECES, max_size=6).map(" ".join))


def _write(path: Path, items: list[tuple[str, str | None]]) -> Path:
    lines = [
        json.dumps({"kind": "belief", "id": f"r{i}", "content": c, "context": x})
        for i, (c, x) in enumerate(items)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _load(folder: Path, batches: list[list[tuple[str, str | None]]], view: bool) -> Any:
    folder.mkdir()
    original = bulk.plain_text
    if view:
        bulk.plain_text = lambda rows: False
    try:
        with Memory(folder / "m.db", root=folder) as memory:
            for n, items in enumerate(batches):
                try:
                    memory.import_records(_write(folder / f"r{n}.jsonl", items))
                except Exception as error:  # rejected input must be rejected both ways
                    return type(error).__name__
            assert memory.store.integrity_check() == []
            return _index(memory)
    finally:
        bulk.plain_text = original


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(st.tuples(_TEXT, st.one_of(st.none(), _TEXT)), min_size=1, max_size=12),
    st.lists(st.tuples(_TEXT, st.one_of(st.none(), _TEXT)), max_size=12),
)
def test_tricky_ascii_and_a_reimport_index_as_through_the_view(
    tmp_path_factory: pytest.TempPathFactory,
    first: list[tuple[str, str | None]],
    second: list[tuple[str, str | None]],
) -> None:
    folder = tmp_path_factory.mktemp("rv")
    batches = [first, second] if second else [first]
    assert _load(folder / "plain", batches, view=False) == _load(
        folder / "view", batches, view=True
    )


def test_a_big_reimport_over_a_store_with_beliefs(tmp_path: Path) -> None:
    items = [
        (f"getValue_{i} https://x.io/p?{i} v{i}.0", f"mod.Class{i}")
        for i in range(BULK_DDL_ROWS + 50)
    ]
    changed = [(f"{c} again", x) for c, x in items[:700]] + [
        (f"fresh_{i}", None) for i in range(900)
    ]
    assert _load(tmp_path / "plain", [items, changed], view=False) == _load(
        tmp_path / "view", [items, changed], view=True
    )
