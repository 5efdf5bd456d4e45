"""A glossary entry of several terms over one definition, read as one entry.

Sphinx's ``glossary`` lets an entry name several terms, one a line, over one definition::

    .. glossary::

       master document
       root document
          The document that contains the root ``toctree`` directive.

docutils, which credo parses the body with, knows one term a definition-list item: it reads
the term lines as a paragraph, reports "Unexpected indentation." and reads the definition
as a block quote, so the terms were a paragraph of their own and the definition a chunk
with no term to label it (Sphinx's glossary page, stop 63's rst89 audit). Each such
paragraph, report and block quote among a glossary's blocks becomes one definition-list
item: a term a line, the block quote's blocks its definition, as Sphinx reads it.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes

_UNEXPECTED = "Unexpected indentation."


def keep(body: Any, state: Any) -> None:
    """Join each term paragraph, indentation report and block quote among `body`'s
    children into a definition-list item (`state`: the directive's, to read the terms)."""
    children = list(body.children)
    for index in range(len(children) - 2):
        terms, report, quote = children[index : index + 3]
        if not (
            terms.tagname == "paragraph"
            and report.tagname == "system_message"
            and quote.tagname == "block_quote"
            and report.children
            and report.children[0].astext() == _UNEXPECTED
        ):
            continue
        lines = [line.strip() for line in terms.rawsource.split("\n")]
        if not all(lines):
            continue
        first = int(report.get("line") or 1) - len(lines)
        term = nodes.term(terms.rawsource, "")  # (one term of its lines: "a, b: definition")
        term.line = first
        for offset, line in enumerate(lines):
            inline, _ = state.inline_text(line, first + offset)
            term.extend([nodes.Text(", ")] if offset else [])
            term.extend(inline)
        item = nodes.definition_list_item(terms.rawsource, term)
        definition = nodes.definition("")
        definition.extend(quote.children)
        item += definition
        listed = nodes.definition_list("", item)
        body.replace(terms, listed)
        body.remove(report)
        body.remove(quote)
