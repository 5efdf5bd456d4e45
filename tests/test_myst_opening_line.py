"""A MyST admonition's opening line may hold its first line of content (md89, issue #14).

``note``, ``tip``, ``warning``... take no argument, so MyST reads the text after the name as
the content's first line: click's "```{note} If you find that you have requirements beyond
what Click's progress bar supports, try using tqdm." and sphinx-book-theme's "::::{note}
Here's a note!" are what those boxes say. credo read only the lines under the opening one,
so those sentences were lost (`bench/md_audit.py`: colon-fence lines lost).
"""

from __future__ import annotations

import pytest

from credo.knowledge.chunk.markdown import split_markdown


def brief(text: str) -> list[tuple[str, int, int]]:
    return [(c.text, c.start_line, c.end_line) for c in split_markdown(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "```{note} If you need more, try using [tqdm](https://tqdm.github.io/).\n```",
            [("If you need more, try using tqdm.", 1, 1)],
            id="backtick-fence-all-on-its-line",
        ),
        pytest.param(
            "::::{note} Here's a note!\n\n```{tip} And a tip!\n```\n\n::::",
            [("Here's a note!", 1, 1), ("And a tip!", 3, 3)],
            id="colon-fence-nested",
        ),
        pytest.param(
            ":::{seealso} The logging how-to.\n:class: dropdown\nMore below.\n:::",
            [("The logging how-to.", 1, 1), ("More below.", 3, 3)],
            id="options-after-it",
        ),
        pytest.param(
            "```{admonition} A titled box\nIts body.\n```",
            [("A titled box", 1, 1), ("Its body.", 2, 2)],
            id="admonition-title-as-before",
        ),
        pytest.param(
            "::::{grid} 1 2 2 2\n:::{grid-item}\nA cell of text.\n:::\n::::",
            [("A cell of text.", 3, 3)],
            id="grid-columns-are-no-text",
        ),
    ],
)
def test_opening_line_reading(text: str, expected: list[tuple[str, int, int]]) -> None:
    assert brief(text) == expected
