"""A code block's title is text of the page (md88, issue #14): MkDocs Material and
pymdownx.superfences show ```` ```yaml title="mkdocs.yml" ```` as a caption bar over the
code, and Sphinx shows a MyST ``{code-block}``'s ``:caption:`` over it. Before, both were
dropped with the fence line: `bench/md_audit.py` found 69 such lines lost in the dev trees
(copier's "copier.yml" examples, mkdocstrings' "pyproject.toml", pymdown's "Special Lines")."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk.markdown import split_markdown
from credo.knowledge.chunk.model import source_lines
from credo.knowledge.doctor import range_holds
from credo.knowledge.ingest.split import split_passages

PAGE = """\
# Configuring

Put the questions in the template's root:

```yaml title="copier.yml" hl_lines="2"
project_name:
    type: str
```
"""


def brief(text: str) -> list[tuple[str, str, int, int, tuple[str, ...]]]:
    return [(c.role, c.text, c.start_line, c.end_line, c.section) for c in split_markdown(text)]


def test_a_fence_title_reads_as_a_paragraph_at_its_line() -> None:
    assert brief(PAGE)[2:] == [
        ("paragraph", "copier.yml", 5, 5, ("Configuring",)),
        ("code", "project_name:\n    type: str", 5, 8, ("Configuring",)),
    ]


def test_the_title_joins_its_section_passage() -> None:
    [passage] = split_passages("docs/configuring.md", PAGE).chunks
    assert passage.text.endswith("Put the questions in the template's root:\ncopier.yml")
    assert (passage.start_line, passage.end_line) == (1, 8)


def test_a_title_in_single_quotes_in_a_tab_and_as_written() -> None:
    text = "=== \"Python\"\n\n    ```py title='my_pkg/__init__.py'\n    import sys\n    ```\n"
    assert [(c.role, c.text, c.start_line) for c in split_markdown(text)] == [
        ("paragraph", "Python", 1),
        ("paragraph", "my_pkg/__init__.py", 3),  # no emphasis read in a title
        ("code", "import sys", 3),
    ]


def test_fences_without_a_title_are_as_before() -> None:
    for info in ("yaml", 'yaml subtitle="x"', "text linenums=1", 'title="no"'):
        text = f"```{info}\nkey: value\n```\n"
        assert [c.role for c in split_markdown(text)] == ["code"], info


def test_a_myst_code_directive_caption_reads_as_a_paragraph() -> None:
    text = (
        "```{code-block} python\n"
        ":caption: my_distro_config/__init__.py\n"
        ":linenos:\n"
        "\n"
        "def entrypoint(): ...\n"
        "```\n"
    )
    assert brief(text) == [
        ("paragraph", "my_distro_config/__init__.py", 2, 2, ()),
        ("code", "def entrypoint(): ...", 1, 6, ()),
    ]


def test_a_caption_after_the_options_or_in_the_code_is_code() -> None:
    text = "```{code-block} text\n\n:caption: not an option\n```\n"
    assert [c.role for c in split_markdown(text)] == ["code"]


@given(st.text(alphabet=st.characters(blacklist_characters='"\n\r`'), max_size=40))
def test_any_title_is_read_with_a_true_range(title: str) -> None:
    text = f'# T\n\n```text title="{title}"\nsome code here\n```\n'
    lines = source_lines(text)
    for chunk in split_markdown(text):
        assert range_holds(lines, chunk.start_line, chunk.end_line, chunk.text), chunk
