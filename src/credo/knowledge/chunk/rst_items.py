"""Constructs `split_rst`'s walker reads as a head and a body: one chunk of the head and
the body's first paragraph (`lead`), the rest of the body as blocks.

- A bullet or enumerated item is a "bullet" chunk of its first paragraph.
- A definition list item: "term (classifier): definition".
- A field: "name: body" (docinfo and Sphinx ``:param x:`` fields alike).
- An option list item: "-o FILE: description".
- A directive with a label (`rst_parse`: a version directive's "versionchanged 2.1", an
  unknown directive's argument) leads its first paragraph with it; a named one's label
  (a signature, a setting's or a tab's name) is the context of its body (`rst_names`).
- A topic, a sidebar and a generic admonition: their title, as a named directive's label.
  The ``contents`` topic is skipped.

Kept apart from `rst`, whose walker hands these nodes here (and whose placing, `_part`
and `_emit`, they use); docutils is not imported here.
"""

from __future__ import annotations

from typing import Any

from credo.knowledge.chunk import rst_names
from credo.knowledge.chunk.rst_lines import words
from credo.knowledge.chunk.rst_part import Part, raw
from credo.knowledge.chunk.rst_render import options, render


def read_topic(walker: Any, node: Any) -> None:  # (a sidebar, a generic admonition too)
    if "contents" not in node.get("classes", ()):
        head = [c for c in node.children[:1] if c.tagname == "title"]  # a label (`lead`)
        lead(walker, head, list(node.children[len(head) :]), "paragraph", named=bool(head))


def read_item(walker: Any, node: Any) -> None:
    lead(walker, [], list(node.children), "bullet")


def read_definition_item(walker: Any, node: Any) -> None:
    terms = [c for c in node.children if c.tagname == "term"]
    classifiers = [c for c in node.children if c.tagname == "classifier"]
    body = [c for c in node.children if c.tagname == "definition"]
    suffix = ""
    if classifiers:
        suffix = " (" + ", ".join(render(c, walker.links, [])[0] for c in classifiers) + ")"
    lead(walker, terms, list(body[0].children) if body else [], "bullet", suffix)


def read_field(walker: Any, node: Any) -> None:
    names = [c for c in node.children if c.tagname == "field_name"]
    body = [c for c in node.children if c.tagname == "field_body"]
    lead(walker, names, list(body[0].children) if body else [], "bullet")


def read_option_item(walker: Any, node: Any) -> None:
    group = [c for c in node.children if c.tagname == "option_group"]
    body = [c for c in node.children if c.tagname == "description"]
    lead(walker, group, list(body[0].children) if body else [], "bullet")


def read_directive(walker: Any, node: Any) -> None:
    children = list(node.children)
    if "credo-directive" not in node.get("classes", ()) or not children:
        walker._children(node)
        return
    label = [children.pop(0)] if "credo-label" in children[0].get("classes", ()) else []
    lead(walker, label, children, "paragraph", named=bool(label) and "credo-named" in node)


def lead(
    walker: Any,
    heads: list[Any],
    body: list[Any],
    role: str,
    suffix: str = "",
    named: bool = False,
) -> None:
    """One chunk of `heads` (a term, a field name, a label...) and the first paragraph
    of `body`; the rest of `body` as blocks.

    The paragraph is placed first (docutils' line for a term is the end of its
    definition, a field name has none), then each head at the nearest line at or
    before it that holds the head. When `named` (a Sphinx description's signature, a
    setting's or a tab's name), the heads' text, led by outer ones' names (`rst_names`),
    is the context of the rest of `body` as a title is its passages' trail."""
    parts: list[Part] = []
    if body and body[0].tagname == "paragraph":
        parts.append(walker._part(body.pop(0), walker.lo, walker.after))
    last = parts[0].span[0] if parts and parts[0].span else None
    for head in reversed(heads):
        targets: list[tuple[str, str]] = []
        if head.tagname != "option_group":
            text, links = render(head, walker.links, targets)
        else:
            text, links = options(head)
        needle = words(text)
        if last is not None:
            span = walker.index.place_before(needle, raw(head), last, walker.lo)
        else:  # docutils' line for a term is the end of its definition: no hint
            span = walker.index.place(needle, raw(head), None, walker.lo, walker.after)
        parts.insert(0, Part(text, links, span, targets=targets))
        last = span[0] if span else last
    if heads and suffix and parts[0].text:
        parts[0].text += suffix
        parts[0].checked = False
        parts[0].needle = None
    names, outer = walker.names, walker.outer
    inner = rst_names.nest(outer, parts[0].text) if named and heads and parts[0].text else None
    if parts:  # (a lead split into sentences: the label is the later ones' context too)
        walker.rest = inner[0] if inner else None
        walker._emit(parts, role)
        walker.rest = None
    if inner:
        walker.names, walker.outer = inner
    for child in body:
        walker._block(child)
    walker.names, walker.outer = names, outer
