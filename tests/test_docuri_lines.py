"""review84: the range check of probe83 (``docuri._require_file``: a line range that starts
past the file's end is refused) counts a file's lines as ingest numbers them
(``chunk.model.source_lines``: a lone "\\r" ends a line too), and an empty file has its
line 1. It counted "\\n" alone: a CR-only file's ingested passages were anchored on lines
that ``credo link`` then refused as past the end of a "1-line" file."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.errors import InvalidInputError
from credo.knowledge.chunk.model import source_lines
from credo.knowledge.docuri import normalise_doc_uri
from tests.conftest import CliRun


def _lines_ok(path: Path, start: int) -> bool:
    try:
        normalise_doc_uri(path.name, root=path.parent, lines=(start, start), must_exist=True)
    except InvalidInputError:
        return False
    return True


@pytest.mark.parametrize(
    ("data", "last"),
    [
        (b"a\rb\rc\r", 3),  # CR-only (classic Mac): three lines
        (b"a\rb\rc", 3),
        (b"a\r\nb\r\nc\r\n", 3),  # CRLF
        (b"a\r\nb\r\nc", 3),
        (b"a\nb\r\nc\rd", 4),  # mixed
        (b"", 1),  # empty: an editor shows its line 1
        (b"\n", 1),
    ],
)
def test_the_last_line_is_taken_and_the_next_refused(
    tmp_path: Path, data: bytes, last: int
) -> None:
    path = tmp_path / "doc.txt"
    path.write_bytes(data)
    assert _lines_ok(path, last)
    assert not _lines_ok(path, last + 1)


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="ab\r\n", max_size=30))
def test_the_count_is_ingest_s(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    """The last line taken is ingest's last line (``source_lines``, without the empty one
    after a final line ending; an empty file's one line)."""
    path = tmp_path_factory.mktemp("doc") / "doc.txt"
    path.write_bytes(text.encode())
    lines = source_lines(text)
    last = max(1, len(lines) - (1 if text.endswith(("\n", "\r")) else 0))
    assert _lines_ok(path, last)
    assert not _lines_ok(path, last + 1)


def test_a_cr_only_file_s_ingested_range_can_be_linked(run: CliRun) -> None:
    (run.cwd / "mac.md").write_bytes(
        b"# Title\r\rFirst paragraph.\r\r## Deploys\r\rDeploys go through staging.\r"
    )
    run("ingest", "mac.md", check=True)
    belief_id = run("remember", "Deploys go through staging first", check=True).stdout.strip()
    run("link", belief_id, "mac.md#L7-L7", check=True)
    done = run("link", belief_id, "mac.md#L8-L9")
    assert done.returncode != 0 and "has 7 lines" in done.stderr
