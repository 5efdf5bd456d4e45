"""The context of a nested Sphinx description's body: its outer objects' names.

A ``.. method:: replace([url, ...])`` inside ``.. class:: Request(url, ...)`` describes
``Request.replace``; a reader asks for it by both names. The body of a named directive
(`rst_items.lead`) takes as context the innermost label whole (the signature, as
written) led by the outer labels' object names only ("Request", not its signature:
the context stays short), outermost first.
"""

from __future__ import annotations

import re

# The object name in a signature: the last word before its parameters, annotation or
# value ("async fetch(url)" -> "fetch", "meta: dict" -> "meta", "X = 1" -> "X").
_SIGNATURE = re.compile(r"^([^(:=]*?)\s*[(:=]")


def object_name(label: str) -> str:
    """The name a label describes: a signature's object, its last dotted part
    ("scrapy.http.Request(url)" -> "Request"); a label that is no signature (a tab's,
    a setting's name) whole."""
    found = _SIGNATURE.match(label)
    head = found.group(1) if found is not None else label
    words = head.split()
    if not words or (found is None and len(words) > 1):
        return label.strip()
    return words[-1].rstrip(".").rpartition(".")[2] or words[-1]


def nest(outer: tuple[str, ...], label: str) -> tuple[str, tuple[str, ...]]:
    """The context of the body of a directive labelled `label` inside the named
    directives whose object names are `outer`, and the names its own nested ones see.
    An outer name the label already qualifies itself with ("CCompiler.compile(...)" in
    ``.. class:: CCompiler``) is not said twice."""
    path = label.partition("(")[0].split(".")[:-1]
    said = [name for name in outer if name not in path]
    return " ".join(filter(None, (*said, label))), (*outer, object_name(label))
