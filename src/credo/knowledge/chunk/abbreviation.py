"""The words a code identifier's abbreviated parts stand for: ``cfg`` -> configuration.

Code says ``cb``, ``cfg``, ``ctx``, ``idx`` and ``resp`` where a reader asks about the
callback, the configuration, the context, the index and the response; no stemmer brings the
two together. Expanding abbreviations inside identifiers is standard practice in code search
and identifier normalisation (Lawrie, Feild and Binkley, "Extracting meaning from
abbreviated identifiers", SCAM 2007; Hill et al., "AMAP: automatically mining abbreviation
expansions in programs", MSR 2008; Lawrie and Binkley, "Expanding identifiers to normalize
source code vocabulary", ICSM 2011). Those works mine expansions per program; credo reads
code it has never seen, in one pass, so it keeps a fixed table of the abbreviations that
programmers use across languages with one dominant meaning.

The table was written from general programming knowledge before any benchmark question was
read, and no entry is there for a question's sake. Left out on purpose: abbreviations with
two common senses (``res``: result, resource or response; ``desc``: description or
descending; ``mod``: module, modulo or modify; ``ext``: extension or external; ``tx``:
transaction or transmit; ``ws``: websocket or whitespace; ``cur``: current or cursor;
``op``: operation or operator; ``doc``: document or documentation; ``win``: window or
Windows; ``min``: minimum or minute; ``temp``: temporary or temperature; ``hist``: history
or histogram; ``ns``: namespace or nanoseconds; ``stat``, ``sig``, ``sel``, ``gen``, ``ln``,
``rel``, ``rem``, ``inc``, ``dec``, ``exp``, ``pref``, ``sec``, ``ms``, ``dt``, ``ts``), and the
languages' keywords that stand alone as names (``def``, ``fn``, ``int``, ``var``: the body
lexers drop them, chunk/code_names.py). So are those the index's porter stemmer already
joins to their word (``alloc``, ``iter``, ``util``: allocate, iterator and utility stem to
them). A plural part (``args``, ``hdrs``) reads as its
singular's expansion, which the index's porter stemmer matches with the plural a reader
writes, unless the plural is a word of its own (`NOT_PLURALS`: ``rms``, ``socks``).
"""

from __future__ import annotations

from collections.abc import Iterable

# Abbreviation -> the words it stands for, lower case. Keys are whole identifier parts as
# the splitters cut them (``get_cfg_dir`` -> get, cfg, dir everywhere; ``reqCtx`` -> req,
# ctx only in a file's name, titles and body names: the passage text is not camel-split).
ABBREVIATIONS: dict[str, str] = {
    "abs": "absolute",
    "ack": "acknowledge",
    "addr": "address",
    "alt": "alternative",
    "app": "application",
    "arg": "argument",
    "arr": "array",
    "attr": "attribute",
    "auth": "authentication",
    "avg": "average",
    "bg": "background",
    "btn": "button",
    "buf": "buffer",
    "buff": "buffer",
    "calc": "calculate",
    "cb": "callback",
    "cert": "certificate",
    "cfg": "configuration",
    "char": "character",
    "chk": "check",
    "chr": "character",
    "cmd": "command",
    "cmp": "compare",
    "cnt": "count",
    "col": "column",
    "conf": "configuration",
    "config": "configuration",
    "conn": "connection",
    "coord": "coordinate",
    "ctor": "constructor",
    "ctrl": "control",
    "ctx": "context",
    "curr": "current",
    "db": "database",
    "dbg": "debug",
    "decl": "declaration",
    "del": "delete",
    "dep": "dependency",
    "dest": "destination",
    "dflt": "default",
    "dict": "dictionary",
    "diff": "difference",
    "dir": "directory",
    "dst": "destination",
    "dup": "duplicate",
    "el": "element",
    "elem": "element",
    "env": "environment",
    "eq": "equal",
    "err": "error",
    "esc": "escape",
    "evt": "event",
    "exc": "exception",
    "exe": "executable",
    "exec": "execute",
    "expr": "expression",
    "fd": "file descriptor",
    "fmt": "format",
    "fs": "filesystem",
    "func": "function",
    "hdr": "header",
    "hex": "hexadecimal",
    "id": "identifier",
    "idx": "index",
    "img": "image",
    "impl": "implementation",
    "info": "information",
    "init": "initialize",
    "kw": "keyword",
    "kwarg": "keyword argument",
    "lang": "language",
    "len": "length",
    "lib": "library",
    "lim": "limit",
    "loc": "location",
    "lvl": "level",
    "max": "maximum",
    "mem": "memory",
    "meta": "metadata",
    "mgr": "manager",
    "msg": "message",
    "nav": "navigation",
    "num": "number",
    "obj": "object",
    "opt": "option",
    "orig": "original",
    "param": "parameter",
    "passwd": "password",
    "perm": "permission",
    "pid": "process identifier",
    "pkg": "package",
    "pkt": "packet",
    "pos": "position",
    "prev": "previous",
    "proc": "process",
    "prop": "property",
    "ptr": "pointer",
    "qty": "quantity",
    "rand": "random",
    "rd": "read",
    "recv": "receive",
    "ref": "reference",
    "regex": "regular expression",
    "repo": "repository",
    "req": "request",
    "resp": "response",
    "ret": "return",
    "rm": "remove",
    "sep": "separator",
    "seq": "sequence",
    "sess": "session",
    "sock": "socket",
    "spec": "specification",
    "src": "source",
    "srv": "server",
    "stats": "statistics",
    "std": "standard",
    "stderr": "standard error",
    "stdin": "standard input",
    "stdout": "standard output",
    "str": "string",
    "svc": "service",
    "sys": "system",
    "tbl": "table",
    "tgt": "target",
    "tmp": "temporary",
    "tmpl": "template",
    "tok": "token",
    "tpl": "template",
    "txt": "text",
    "tz": "timezone",
    "usr": "user",
    "val": "value",
    "vec": "vector",
    "ver": "version",
    "wr": "write",
    "xfer": "transfer",
}


# A key's "s" plural that is a word or a name of its own, not the key's plural: "rms" (root
# mean square, not removes), "socks" (the SOCKS proxy protocol, not sockets), "lens" (not
# lengths).
NOT_PLURALS = frozenset({"lens", "rms", "socks"})

# Every part `expansion` answers, plurals included: one dict look-up a part.
_LOOKUP: dict[str, str] = {
    **{
        plural: words
        for key, words in ABBREVIATIONS.items()
        if (plural := f"{key}s") not in NOT_PLURALS
    },
    **ABBREVIATIONS,  # (a key that ends in "s" is its own entry: "stats")
}


def expansion(part: str) -> str | None:
    """The words a lower-case identifier part stands for, or None: ``cfg`` ->
    ``configuration``, ``hdrs`` -> ``header`` (a plural reads as its singular's words)."""
    return _LOOKUP.get(part)


def expanded(parts: Iterable[str]) -> list[str]:
    """The full words of the abbreviations among lower-case identifier `parts`, each once,
    in first-seen order; never a word of `parts` itself."""
    parts = list(parts)
    found = [words for words in map(_LOOKUP.get, parts) if words]
    if not found:
        return []
    given = set(parts)
    out = dict.fromkeys(word for words in found for word in words.split())
    return [word for word in out if word not in given]
