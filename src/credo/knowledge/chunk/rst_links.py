"""Where a reStructuredText reference points, for `split_rst`'s walker (`rst_render`).

A reference with its URI written in it (``text <url>`_``, a standalone URL) carries it;
a named reference (``text`_``) points at a hyperlink target found anywhere in the
document (``.. _text: url``), also through other names (``.. _a: b_``); anonymous
references (``text`__``) take the anonymous targets (``__ url``) in document order.
The targets are read from the whole doctree on first need only: most files name none.
"""

from __future__ import annotations

from typing import Any


class Links:
    """The URIs of one document's references, read in document order (`uri`)."""

    __slots__ = ("anonymous", "document", "targets")

    def __init__(self, document: Any) -> None:
        self.document = document  # its hyperlink targets are read on first need (`uri`)
        self.targets: dict[str, str] | None = None  # hyperlink target name -> URI
        self.anonymous: list[str] = []  # anonymous targets' URIs, next last

    def uri(self, node: Any) -> str:
        """The URI `node` (a ``reference``) points at, or "" when it points nowhere;
        an anonymous reference takes the next anonymous target's."""
        if node.get("refuri"):
            return str(node["refuri"])
        if self.targets is None:  # a walk of the whole doctree: only when a name needs it
            self.targets, self.anonymous = targets(self.document)
        if node.get("anonymous"):
            return self.anonymous.pop() if self.anonymous else ""
        return self.targets.get(node.get("refname", ""), "")


def targets(document: Any) -> tuple[dict[str, str], list[str]]:
    """Hyperlink target names to URIs (indirect targets, ``.. _a: b_``, followed), and
    the URIs of anonymous targets (``__ url``) in reverse document order."""
    uris: dict[str, str] = {}
    aliases: dict[str, str] = {}
    anonymous: list[str] = []
    stack = [document]
    while stack:
        node = stack.pop()
        if node.tagname == "target":
            uri = str(node.get("refuri") or "")
            if uri and node.get("anonymous"):
                anonymous.append(uri)
            for name in node.get("names", ()):
                if uri:
                    uris.setdefault(name, uri)
                elif node.get("refname"):
                    aliases.setdefault(name, str(node["refname"]))
        stack.extend(reversed([c for c in node.children if c.tagname != "#text"]))
    for name, alias in aliases.items():
        seen = {name}
        while alias in aliases and alias not in seen:
            seen.add(alias)
            alias = aliases[alias]
        if alias in uris:
            uris.setdefault(name, uris[alias])
    anonymous.reverse()
    return uris, anonymous
