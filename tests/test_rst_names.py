"""A nested Sphinx description's body: its context names the outer objects too."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk import split_rst
from credo.knowledge.chunk.rst_names import nest, object_name


def test_a_nested_description_s_body_names_its_outer_object() -> None:
    """``.. method:: replace`` inside ``.. class:: Request`` describes Request.replace:
    its body past the first paragraph had "replace([url, ...])" as context, no
    "Request" (scrapy's request-response page). Fails before rst_names."""
    text = (
        ".. class:: Request(url, callback=None)\n\n"
        "   A request.\n\n"
        "   .. method:: replace([url, ...])\n\n"
        "      Return a copy.\n\n"
        "      Attributes are copied.\n\n"
        "   .. attribute:: meta\n\n"
        "      A dict.\n\n"
        "      Shared with the response.\n\n"
        "   After the members.\n\n"
        "Outside.\n"
    )
    assert [(c.text, c.context) for c in split_rst(text)] == [
        ("Request(url, callback=None): A request.", ""),
        ("replace([url, ...]): Return a copy.", "Request(url, callback=None)"),
        ("Attributes are copied.", "Request replace([url, ...])"),
        ("meta: A dict.", "Request(url, callback=None)"),
        ("Shared with the response.", "Request meta"),
        ("After the members.", "Request(url, callback=None)"),
        ("Outside.", ""),
    ]


def test_three_levels_name_every_outer_object_outermost_first() -> None:
    text = (
        ".. class:: Session\n\n"
        "   A session.\n\n"
        "   .. class:: scrapy.http.Request(url)\n\n"
        "      A request.\n\n"
        "      .. method:: copy()\n\n"
        "         Copy it.\n\n"
        "         Deeply.\n"
    )
    contexts = {c.text: c.context for c in split_rst(text)}
    assert contexts["Deeply."] == "Session Request copy()"


def test_an_outer_name_the_label_qualifies_itself_with_is_not_repeated() -> None:
    """setuptools' distutils reference writes ``.. method:: CCompiler.compile(...)``
    inside ``.. class:: CCompiler``: "CCompiler CCompiler.compile(...)" said it twice."""
    assert nest(("CCompiler",), "CCompiler.compile(sources)")[0] == "CCompiler.compile(sources)"
    assert nest(("Spider",), "Request.copy()")[0] == "Spider Request.copy()"


def test_object_names() -> None:
    assert object_name("scrapy.http.Request(url[, callback])") == "Request"
    assert object_name("async fetch(url)") == "fetch"
    assert object_name("meta: dict") == "meta"
    assert object_name("X = 1") == "X"
    assert object_name("DOWNLOAD_DELAY") == "DOWNLOAD_DELAY"
    assert object_name("Linux and macOS") == "Linux and macOS"  # a tab's name, whole


@given(st.text(max_size=40))
def test_an_object_name_is_short_and_from_its_label(label: str) -> None:
    name = object_name(label)
    assert len(name) <= len(label)
    assert name in label or name == label.strip()


@given(st.lists(st.text(min_size=1, max_size=10), max_size=4), st.text(min_size=1, max_size=20))
def test_nesting_ends_with_the_label_whole(outer: list[str], label: str) -> None:
    context, names = nest(tuple(outer), label)
    assert context.endswith(label) and len(context) <= len(" ".join((*outer, label)))
    assert names[:-1] == tuple(outer) and names[-1] == object_name(label)
