"""review92: go.mod and go.work passages the memory block shows line by line, each form.

Stop 64 taught the block go.mod's directives (``tokens._GOMOD``) but not go.work's usual
``use ./dir`` line, Go 1.24's ``tool golang.org/x/...``, Go 1.25's ``ignore ./dir`` nor a
pre-release ``go 1.21rc1``: such a file's passage was shown as one run-on line.
"""

from __future__ import annotations

import time

import pytest

from credo.tokens import keeps_lines


@pytest.mark.parametrize(
    "text",
    [
        "go 1.22\nuse ./api\nuse ./web",  # go.work, one line each
        "go 1.22\nuse .\nuse ../shared",
        "go 1.22\nuse (\n\t./a\n\t./b\nuse ./c\nreplace x => ../x",
        "module example.com/x\ngo 1.24\ntool golang.org/x/tools/cmd/stringer",
        "module example.com/x\ngo 1.21rc1",
        "module example.com/x\ngo 1.25\nignore ./node_modules",
    ],
)
def test_go_work_and_newer_directives_keep_their_lines(text: str) -> None:
    assert keeps_lines(text)


@pytest.mark.parametrize(
    "text",
    [
        "use the force\ngo 1.13",
        "ignore this\ngo 1.13",
        "use it\nuse them",
        "tool time\ngo 1.2",
        "Use ./a to run it.\ngo 1.2",
        "use ...\ngo 1.2",
    ],
)
def test_prose_starting_with_those_words_does_not(text: str) -> None:
    assert not keeps_lines(text)


def test_long_directive_lines_are_decided_in_bounded_time() -> None:
    start = time.process_time()
    for text in (
        "use " + "./" * 300_000 + " x\nuse .",
        "tool a." + "a" * 600_000 + " x\nuse .",
        "use ./a\n" * 80_000 + "x",
    ):
        assert not keeps_lines(text)
    assert time.process_time() - start < 1.0
