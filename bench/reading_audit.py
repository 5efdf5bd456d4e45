"""What a tree's documents lose on the way into the index, line by line, by construct.

    python bench/reading_audit.py --corpus flask [--corpus pip ...] [--examples 5]
    python bench/reading_audit.py --tree DIR [--kind rst] [--src SRC] [--group directive:confval]

Each tree is ingested into a fresh store (by the credo in ``--src``, this checkout's by
default, in a fresh process with what makes two runs comparable: see ``store_diff``).
Then every non-blank source line of a file of ``--kind`` is asked:

    lost        no stored belief whose anchored range holds the line has half of the
                line's words in its indexed text (content and context: a code line's
                names go to its passage's context)
    title-less  the line is kept, but no belief holding it has half of the words of
                the section title above it in its text or its trail (context)
    unlabelled  the line sits in a titled block (a Sphinx domain directive such as
                ``confval``/``py:function``, a glossary term's definition, a tab, a
                ``changelog`` release by its ``:version:``): no belief holding it has
                half of the block's label words

Each line is filed under the innermost construct it sits in, found by indentation (a
line scanner, not docutils: the audit must not share the reader's view of the file):
``directive:NAME``, ``glossary-term``/``glossary-def``, ``field``, ``definition``,
``option-list``, ``table``, ``literal``, ``line-block``, ``list``, ``paragraph``...
Skipped, and counted as such: blank lines and pure markup (no word of two characters),
title adornments, comments, hyperlink targets, substitution definitions, footnote and
citation bodies, a directive's option lines, and the content of directives whose
content is no prose (``toctree``, ``index``, ``include``, images, ``raw``, math...).
Literal blocks and code directives count as code, not prose: their lines are checked
(their names should reach the passage's context) but reported apart.

``--group NAME`` prints every lost/title-less/unlabelled line of that construct.
Read-only over the corpora; the store is a temporary file.

Other helpers' checks may import `audit_tree` (returns the per-line records) and
`summarise` (prints the tables).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
CACHE = Path.home() / ".cache" / "credo-bench"
# Held-out sets nobody may open (bench/heldout/README.md): refused by name.
FORBIDDEN = ("babel", "lark", "ignore", "query-core", "eslint-plugin-import", "griffe")
KINDS = {"rst": (".rst", ".rest"), "md": (".md", ".markdown"), "txt": (".txt",)}

CHILD = """
import json, sys
from pathlib import Path
import credo.knowledge.chunk.rst as rst
import credo.knowledge.ingest.run as run
from credo import Memory
from credo.config import Settings
rst._BUDGET_SECONDS = 1e9
run.GROUP_SECONDS = 1e9
try:
    import credo.knowledge.chunk.parse_budget as budget
    budget.PARSE_SECONDS = 1e9
except ImportError:
    pass
root, files, db = Path(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
with Memory(db, root=root, settings=Settings()) as memory:
    memory.ingest(*files)
"""

_WORD = re.compile(r"[^\W_]{2,}")
# Three characters or more; two (``--`` under "S3") only as long as the title above it.
_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}\s*$")
_SHORT_ADORNMENT = re.compile(r"^([!-/;-@\[-`{-~])\1\s*$")
_EXPLICIT = re.compile(r"^\.\.(?:\s|$)")
_DIRECTIVE = re.compile(r"^\.\.\s+([\w:.+-]+?)\s?::(?:\s+(.*))?$")
_SUBSTITUTION = re.compile(r"^\.\.\s+\|[^|]+\|")
_TARGET = re.compile(r"^\.\.\s+_")
_FOOTNOTE = re.compile(r"^\.\.\s+\[")
_FIELD = re.compile(r"^:(?:[^:\\]|\\.)+:(?:\s|$)")
_BULLET = re.compile(r"^(?:[-*+\u2022]|\(?(?:\d+|#|[a-zA-Z]|[ivxIVX]+)[.)])\s+\S")
_OPTION = re.compile(
    r"^(?:-{1,2}|/)[\w-]+(?:[ =][^ ]+)?(?:, (?:-{1,2}|/)[\w-]+(?:[ =][^ ]+)?)*(?:  |$)"
)
_GRID = re.compile(r"^\+[-=+]+\+\s*$")
_SIMPLE_BORDER = re.compile(r"^=+(?: +=+)+\s*$|^=+\s*$")
_ROLE = re.compile(r":([\w:+-]+):`")
_ANCHOR = re.compile(r"#L(\d+)(?:-L(\d+))?$")

# Directives whose content is no prose (or no content at all): their lines are skipped.
NO_PROSE = frozenset(
    "toctree index include literalinclude image figure-image raw math highlight "
    "highlightlang contents sectnum meta target-notes default-role default-domain "
    "currentmodule module py:module py:currentmodule program tabularcolumns "
    "graphviz digraph graph mermaid plot inheritance-diagram uml productionlist "
    "autosummary".split()
)
CODE = frozenset(
    "code-block code sourcecode doctest testcode testoutput testsetup testcleanup "
    "ipython jupyter-execute parsed-literal console prompt code-tab".split()
)
# A directive whose argument names what its content describes (a signature, a setting,
# a tab's name): the content should be findable by that name.
TITLED_NAMES = frozenset(
    "confval option envvar setting describe object function class method attribute "
    "data exception decorator cmdoption signal event reqmeta fixture command tab "
    "admonition topic sidebar table list-table csv-table tab-item dropdown card "
    "setting-group directive role".split()
)

# A directive whose option names what its content is about: the ``changelog`` extension's
# release (alembic, mako: ``.. changelog::`` over ``:version: 1.2.3``) is a section of its
# version, as Sphinx shows it.
LABEL_OPTIONS = {"directive:changelog": "version"}


@dataclass(frozen=True, slots=True)
class Line:
    """One source line's verdict."""

    path: str
    number: int
    text: str
    construct: str
    status: str  # "skip", "code", "prose"
    title: str  # the innermost section title above ("" at top)
    label: str  # the innermost titled block's label ("" outside one)
    lost: bool = False
    title_less: bool = False
    unlabelled: bool = False


@dataclass(slots=True)
class _Block:
    indent: int
    kind: str
    label: str = ""
    options: bool = False  # a directive still reading its option lines
    body: int | None = None  # a glossary's term indent


# What a reader rightly keeps out of a belief's words: link targets (they go to the
# belief's links), role names, bare URLs.
_MARKUP = re.compile(
    r"^\s*\.\.\s+[\w:.+-]+\s?::|^\s*\.\. \[[^\]]*\]"  # a directive's name, a footnote label
    r"|<?[^\s<>`]*>`(?:_{1,2})?|:[\w:+-]+:(?=`)|https?://\S+|^\s*__ \S+"
)


def words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(_MARKUP.sub(" ", text))}


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _titled(name: str) -> bool:
    bare = name.rsplit(":", 1)[-1]
    return (":" in name and bare not in ("module", "currentmodule")) or bare in TITLED_NAMES


def classify(lines: Sequence[str]) -> list[tuple[str, str, str, str]]:
    """Per line: (construct, status, section title, block label) by a scanner of
    indentation; see the module docstring."""
    out: list[tuple[str, str, str, str]] = []
    stack: list[_Block] = []
    title = ""
    simple_table = 0  # borders seen of the open simple table (0: none open)
    doctest = False  # in a doctest block (it ends at a blank line)
    n = len(lines)
    for i, raw in enumerate(lines):
        line = raw.rstrip()
        if not line.strip():
            doctest = False
            for block in stack:
                block.options = False
            out.append(("blank", "skip", title, ""))
            continue
        ind = _indent(line)
        body = line.strip()
        nxt = lines[i + 1].rstrip() if i + 1 < n else ""
        prev = lines[i - 1].rstrip() if i else ""
        # Section titles (underline, optional overline) and their adornments.
        if (
            ind == 0
            and _ADORNMENT.match(line)
            and (not prev.strip() or _ADORNMENT.match(prev) or len(line) >= len(prev.strip()))
        ):
            if prev.strip() and not _ADORNMENT.match(prev) and out and out[-1][0] == "title":
                out.append(("adornment", "skip", title, ""))
                continue
            if _ADORNMENT.match(nxt) or (i + 2 < n and _ADORNMENT.match(lines[i + 2].rstrip())):
                out.append(("adornment", "skip", title, ""))
                continue
        if (
            ind == 0
            and nxt
            and (_ADORNMENT.match(nxt) or (_SHORT_ADORNMENT.match(nxt) and len(body) <= 2))
            and len(nxt.strip()) >= min(len(body), 3)
            and not _ADORNMENT.match(line)
            and not simple_table
        ):
            stack.clear()
            title = body
            out.append(("title", "prose", title, ""))
            continue
        if (_SIMPLE_BORDER.match(line) and " " in body) or (
            simple_table and _SIMPLE_BORDER.match(line)
        ):
            # As docutils isolates a simple table: it ends at its third border, or at a
            # border a blank line follows (blank lines inside a row's cells do not end it).
            simple_table += 1
            if simple_table > 1 and (simple_table == 3 or not nxt.strip()):
                simple_table = 0
            out.append(("table", "skip", title, _label(stack)))
            continue
        while stack and ind <= stack[-1].indent:
            if (
                stack[-1].kind == "glossary"
                and stack[-1].body is not None
                and ind >= stack[-1].body
            ):
                break
            stack.pop()
        top = stack[-1] if stack else None
        label = _label(stack)
        if simple_table:
            out.append(("table", "prose", title, label))
            continue
        if top and top.options and _FIELD.match(body):
            option, _, value = body[1:].partition(":")
            if LABEL_OPTIONS.get(top.kind) == option and words(value):
                top.label = value.strip()
            out.append(("directive-option", "skip", title, label))
            continue
        if top and top.kind.startswith("directive:"):
            top.options = False
        if top and top.kind in ("skip", "code", "literal"):
            out.append((top.label, "skip" if top.kind == "skip" else "code", title, label))
            continue
        if top and top.kind == "glossary":
            if top.body is None:
                top.body = ind
            if ind == top.body:
                term = body
                stack.append(_Block(ind, "glossary-def", term))
                out.append(("glossary-term", "prose", title, term))
                continue
        match = _DIRECTIVE.match(body)
        if match:
            name, argument = match.group(1), (match.group(2) or "").strip()
            if name in NO_PROSE or (
                name.startswith(("auto", "py:auto")) and not _has_body(lines, i, ind)
            ):
                stack.append(_Block(ind, "skip", "directive:" + name))
                out.append(("directive:" + name, "skip", title, label))
            elif name in CODE:
                stack.append(_Block(ind, "code", "directive:" + name))
                out.append(("directive:" + name, "skip", title, label))
            elif name == "glossary":
                stack.append(_Block(ind, "glossary", options=True))
                out.append(("directive:glossary", "skip", title, label))
            else:
                own = argument if _titled(name) else ""
                stack.append(_Block(ind, "directive:" + name, own, options=True))
                status = "prose" if words(argument) else "skip"
                out.append(("directive:" + name, status, title, own or label))
            continue
        if _EXPLICIT.match(body):
            kind = (
                "substitution"
                if _SUBSTITUTION.match(body)
                else "target"
                if _TARGET.match(body)
                else "footnote"
                if _FOOTNOTE.match(body)
                else "comment"
            )
            status = "prose" if kind == "footnote" else "skip"
            stack.append(_Block(ind, "skip" if status == "skip" else kind, kind))
            out.append((kind, status, title, label))
            continue
        inner = _inner(stack)
        if body.startswith(">>>") or doctest:
            # Doctest blocks are skipped by design (rst_parse: measured, their words mislead).
            doctest = True
            out.append(("doctest", "skip", title, label))
            continue
        if _GRID.match(body):
            out.append(("table", "skip", title, label))
            continue
        if body.startswith("|") and (top is None or top.kind != "line-block"):
            kind = "table" if body.rstrip().endswith("|") and len(body) > 2 else "line-block"
            out.append((kind, "prose", title, label))
            if body.endswith("::"):
                stack.append(_Block(ind, "literal", "literal"))
            continue
        if _FIELD.match(body):
            stack.append(_Block(ind, "field", "field"))
            construct = "field"
        elif _OPTION.match(body) and not body.startswith("- "):
            stack.append(_Block(ind, "option-list", "option-list"))
            construct = "option-list"
        elif _BULLET.match(body):
            stack.append(_Block(ind, "list", "list"))
            construct = inner if inner not in ("paragraph", "list") else "list"
        elif (
            nxt.strip()
            and _indent(nxt) > ind
            and not body.endswith("::")
            and not _BULLET.match(nxt.strip())
            and not prev.strip()
        ):
            stack.append(_Block(ind, "definition", body))
            construct = "definition-term" if inner in ("paragraph", "list") else inner
        else:
            construct = inner
        if body.endswith("::") and not body.startswith(".."):
            stack.append(_Block(ind, "literal", "literal"))
        out.append((construct, "prose" if words(body) else "skip", title, label))
    return out


def _has_body(lines: Sequence[str], i: int, ind: int) -> bool:
    """An autodoc directive with prose under it (without, it is skipped: its docstring is
    the code's, read there)."""
    for line in lines[i + 1 :]:
        if line.strip():
            if _indent(line) <= ind:
                return False
            if not _FIELD.match(line.strip()):
                return True
    return False


def _inner(stack: list[_Block]) -> str:
    """The innermost construct a line sits in: a directive or special block wins over
    the list and definition items around it."""
    for block in reversed(stack):
        if block.kind.startswith("directive:") or block.kind in (
            "glossary-def",
            "field",
            "option-list",
            "table",
        ):
            return block.kind
    for block in reversed(stack):
        if block.kind in ("list", "definition"):
            return "definition" if block.kind == "definition" else "list"
    return "paragraph"


def _label(stack: list[_Block]) -> str:
    for block in reversed(stack):
        if block.label and (block.kind.startswith("directive:") or block.kind == "glossary-def"):
            return block.label
    return ""


def build(src: str, root: Path, files: list[str], db: Path) -> None:
    env = dict(os.environ, PYTHONPATH=src, PYTHONHASHSEED="0", CREDO_INGEST_WORKERS="0")
    argv = [sys.executable, "-c", CHILD, str(root), json.dumps(files), str(db)]
    subprocess.run(argv, env=env, check=True, capture_output=True)


def beliefs(db: Path) -> dict[str, list[tuple[int, int, set[str], set[str]]]]:
    """path -> (start, end, content words, content+context words) of each belief."""
    conn = sqlite3.connect(db)
    found: dict[str, list[tuple[int, int, set[str], set[str]]]] = defaultdict(list)
    sql = (
        "SELECT d.doc_uri, b.content, b.context FROM beliefs b "
        "JOIN belief_documents d ON d.belief_id = b.id WHERE b.deleted_at IS NULL"
    )
    for uri, content, context in conn.execute(sql):
        anchor = _ANCHOR.search(uri)
        if anchor is None:  # (no line range; a "#L" may be part of a name: "#LO-EXPORT")
            continue
        start, end = anchor.group(1), anchor.group(2)
        own = words(content)
        path = uri[: anchor.start()]
        found[path].append((int(start), int(end or start), own, own | words(context or "")))
    conn.close()
    return found


def _reaches(wanted: set[str], have: Iterable[set[str]]) -> bool:
    if not wanted:
        return True
    need = (len(wanted) + 1) // 2
    return any(len(wanted & got) >= need for got in have)


def audit_tree(root: Path, kind: str = "rst", src: str | None = None) -> list[Line]:
    """Every line of ``root``'s files of ``kind`` with its verdict (see the docstring)."""
    suffixes = KINDS[kind]
    files = sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and p.name.endswith(suffixes) and ".git" not in p.parts
    )
    if not files:
        return []  # (credo ingest refuses an empty list: a tree with none has nothing to lose)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "audit.db"
        build(src or str(ROOT / "src"), root, [str(p) for p in files], db)
        stored = beliefs(db)
    lines: list[Line] = []
    for path in files:
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace").splitlines()
        held = stored.get(rel, [])
        seen: Counter[str] = Counter(line.strip() for line in text if line.strip())
        for number, (raw, (construct, status, title, label)) in enumerate(
            zip(text, classify(text), strict=True), 1
        ):
            if status == "skip" or construct == "blank":
                if raw.strip():
                    lines.append(Line(rel, number, raw, construct, "skip", title, label))
                continue
            # A title alone (a sub-title right under it) is in no range: it is found
            # through its sections' trails.
            covering = held if construct == "title" else [b for b in held if b[0] <= number <= b[1]]
            mine = words(raw)
            if status == "code" or construct == "title":
                lost = not _reaches(mine, (b[3] for b in covering))
            else:
                lost = not _reaches(mine, (b[2] for b in covering))
            title_less = (
                not lost
                and construct != "title"
                and not _reaches(words(title), (b[3] for b in covering))
            )
            unlabelled = (
                not lost and bool(label) and not _reaches(words(label), (b[3] for b in covering))
            )
            if lost and seen[raw.strip()] > 1:
                # One belief per text per file: a repeated passage anchors its first place.
                construct = "repeat"
            lines.append(
                Line(
                    rel, number, raw, construct, status, title, label, lost, title_less, unlabelled
                )
            )
    return lines


def _share(part: int, whole: int) -> str:
    return f"{part / whole:6.1%}" if whole else "     -"


def summarise(name: str, lines: list[Line], examples: int = 3, group: str | None = None) -> None:
    """Print the per-kind and per-construct tables of one tree's audit."""
    prose = [x for x in lines if x.status == "prose"]
    code = [x for x in lines if x.status == "code"]
    skipped = Counter(x.construct for x in lines if x.status == "skip")
    files = len({x.path for x in lines})
    print(f"== {name}: {files} files, {len(prose)} prose lines, {len(code)} code lines,", end="")
    print(f" {sum(skipped.values())} skipped")
    lost = sum(x.lost for x in prose)
    title_less = sum(x.title_less for x in prose)
    labelled = sum(bool(x.label) for x in prose)
    unlabelled = sum(x.unlabelled for x in prose)
    print(
        f"   prose lost {_share(lost, len(prose))}  title-less {_share(title_less, len(prose))}"
        f"  unlabelled {_share(unlabelled, labelled)} of labelled"
        f"  | code lost {_share(sum(x.lost for x in code), len(code))}"
    )
    by: dict[str, list[Line]] = defaultdict(list)
    for x in prose + code:
        by[("code " if x.status == "code" else "") + x.construct].append(x)
    print(f"   {'construct':28} {'lines':>6} {'lost':>6} {'t-less':>6} {'unlab':>6}")
    rows = sorted(
        by.items(), key=lambda kv: -(sum(x.lost or x.title_less or x.unlabelled for x in kv[1]))
    )
    for construct, group_lines in rows:
        bad = [x for x in group_lines if x.lost or x.title_less or x.unlabelled]
        if not bad and len(group_lines) < 50:
            continue
        counts = [
            sum(getattr(x, a) for x in group_lines) for a in ("lost", "title_less", "unlabelled")
        ]
        print(f"   {construct[:28]:28} {len(group_lines):6} " + " ".join(f"{c:6}" for c in counts))
        for x in bad[:examples]:
            flag = "L" if x.lost else "T" if x.title_less else "U"
            print(f"      {flag} {x.path}:{x.number}: {x.text.strip()[:90]}")
    roles = Counter(r for x in prose if x.lost for r in _ROLE.findall(x.text))
    if roles:
        print("   roles on lost lines: " + ", ".join(f"{r} {c}" for r, c in roles.most_common(12)))
    print("   skipped: " + ", ".join(f"{k} {c}" for k, c in skipped.most_common(14)))
    if group:
        for x in by.get(group, []):
            if x.lost or x.title_less or x.unlabelled:
                flag = "L" if x.lost else "T" if x.title_less else "U"
                print(
                    f"   {flag} {x.path}:{x.number}: [{x.label or x.title}] {x.text.strip()[:110]}"
                )


def _tree(name: str) -> Path:
    if any(name.startswith(f) for f in FORBIDDEN):
        raise SystemExit(f"{name}: a held-out set; never opened")
    found = sorted(CACHE.glob(f"{name}*"))
    exact = [p for p in found if p.name.startswith(name + "-")]
    if not exact:
        raise SystemExit(f"{name}: no tree under {CACHE}")
    return exact[0]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--corpus", action="append", default=[], help="a tree in ~/.cache/credo-bench"
    )
    parser.add_argument("--tree", action="append", default=[], type=Path)
    parser.add_argument("--kind", default="rst", choices=sorted(KINDS))
    parser.add_argument("--src", default=None, help="the credo to ingest with (a src folder)")
    parser.add_argument("--examples", type=int, default=3)
    parser.add_argument("--group", default=None, help="print every flagged line of this construct")
    args = parser.parse_args()
    trees = [(name, _tree(name)) for name in args.corpus] + [(str(t), t) for t in args.tree]
    if not trees:
        parser.error("give --corpus NAME or --tree DIR")
    total: list[Line] = []
    for name, tree in trees:
        lines = audit_tree(tree, args.kind, args.src)
        summarise(name, lines, args.examples, args.group)
        total += lines
    if len(trees) > 1:
        summarise("all", total, args.examples, args.group)


if __name__ == "__main__":
    main()
