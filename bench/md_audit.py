"""What a Markdown tree loses on its way into the index: lines, words and titles, by construct.

    PYTHONPATH=TREE/src python bench/md_audit.py DIR [DIR ...] [--show CONSTRUCT] [--limit N]

Each ``.md`` / ``.mdx`` / ``.markdown`` file under each DIR (``node_modules`` and hidden
folders skipped) is read as ingest reads it (`split_passages`: the Markdown reader, then
passages). Every non-blank source line is then checked against the passages whose line
range holds it:

- **lost**: no passage holds the line, or fewer than half of its words (letters, three or
  more) are among the words of those passages' text, context and trail;
- **title-less**: the line is held, but the title of the heading the audit sees above it
  (ATX or setext, outside code) is not among the words of its passages' trails.

Lines are grouped by the construct the audit sees them in (a line-level reading with a
little state: code fences, HTML blocks, front matter), so the largest groups of loss say
where to read. Code lines are counted apart: a code example joins its passage as names,
by design (`chunk.passage`), so most of its words are "lost" on purpose.

``--show CONSTRUCT`` prints up to ``--limit`` lost or title-less lines of that construct,
with their file and line, to be read by hand. ``--nav`` also compares each page's
mkdocs.yml ``nav:`` title with its first heading.

Dev trees only: never point this at a held-out corpus (bench/heldout/README.md).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

from credo.errors import InvalidInputError
from credo.knowledge.ingest.split import split_passages

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]{2,}")  # (an identifier's parts: "_Black_" is "Black")
# What no reader sees on a rendered page: link targets, tags with their attributes, URLs,
# a VitePress code group's fence (it draws tabs, no box).
_HIDDEN = re.compile(
    r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)|<[^<>]*>|https?://\S+|\{[:#.][^{}]*\}|\]\[[^\]]*\]"
    r"|^[ \t]*:{3,}[ \t]*code-group[ \t]*$"
)
_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})(.*)$")
_ATX = re.compile(r" {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*(?:\{[^{}]*\})?[ \t]*$")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*$")

# Line constructs, tried in order on a line outside code (first match wins).
_CONSTRUCTS: list[tuple[str, re.Pattern[str]]] = [
    ("myst-target", re.compile(r"[ \t]*\([^()\n]+\)=[ \t]*$")),
    ("html-comment", re.compile(r"[ \t]*<!--")),
    ("heading+attrs", re.compile(r" {0,3}#{1,6}[ \t].*\{[:#.][^{}]*\}[ \t]*$")),
    ("heading", re.compile(r" {0,3}#{1,6}[ \t]")),
    ("html-heading", re.compile(r"[ \t]*<h[1-6][\s>]", re.I)),
    ("details/summary", re.compile(r"[ \t]*</?(?:details|summary)[\s>]", re.I)),
    ("badge", re.compile(r"[ \t]*\[?!\[[^\]]*\]\([^)]*\)\]?(?:\([^)]*\))?[ \t]*$")),
    ("html-line", re.compile(r"[ \t]*</?[A-Za-z][\w-]*[\s>/]")),
    ("admonition", re.compile(r"[ \t]*(?:!!!|\?\?\?\+?)[ \t]")),
    ("content-tab", re.compile(r"[ \t]*===[!+]{0,2}[ \t]+\"")),
    ("snippet", re.compile(r"[ \t]*-{1,2}8<-{1,2}")),
    ("autodoc", re.compile(r"[ \t]*:::[ \t]+[\w.]")),
    ("colon-fence", re.compile(r"[ \t]*:{3,}")),
    ("footnote-def", re.compile(r"[ \t]*\[\^[^\]]+\]:")),
    ("link-ref-def", re.compile(r" {0,3}\[[^\]]+\]:[ \t]*\S")),
    ("table-row", re.compile(r"[ \t]*\|.*\|[ \t]*$|[^|`]*\|[^|]*\|")),
    ("definition", re.compile(r"[ \t]*:[ \t]{1,3}\S")),
    ("abbreviation", re.compile(r"[ \t]*\*\[[^\]]+\]:")),
    ("quote", re.compile(r"[ \t]*>")),
    ("list-item", re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+")),
    ("jinja/macro", re.compile(r"[ \t]*\{[{%#]")),
    ("mdx-import", re.compile(r"import[ \t]+(?:[^'\"\n]*?[ \t]from[ \t]*)?['\"][^'\"\n]+['\"]")),
    ("indented", re.compile(r"(?: {4}|\t)")),
]


_HEADINGS = frozenset({"heading", "heading+attrs", "setext-heading"})


def words(text: str) -> set[str]:
    return {word.lower() for word in _WORD.findall(text)}


def _fence_title(line: str) -> str:
    """What a reader sees of a titled fence line: the title (not the language, hl_lines...)."""
    found = re.search(r"title=(?:\"([^\"]*)\"|'([^']*)'|(\S+))", line)
    return next((group for group in found.groups() if group), "") if found else line


# What an MDX component shows of its attributes (Mintlify's <ParamField body="name">, <Step
# title="...">, Docusaurus' <TabItem label="...">): a capitalised tag's name and title values.
_COMPONENT = re.compile(r"<[A-Z][A-Za-z0-9]*\s[^<>]*>")
_SHOWN = re.compile(r"\b(?:title|label|caption|name|body|path|query|header)=\"([^\"]*)\"")


def shown_words(line: str) -> set[str]:
    if '="' in line and "<" in line:
        line = _COMPONENT.sub(lambda tag: " " + " ".join(_SHOWN.findall(tag.group(0))) + " ", line)
    return words(_HIDDEN.sub(" ", line))


def classify(lines: list[str]) -> list[str]:
    """The construct of each line ("" for a blank one)."""
    out: list[str] = []
    fence = ""
    html = comment = raw = jsx = False
    front = lines[0].rstrip() in ("---", "+++") if lines else False
    for index, line in enumerate(lines):
        stripped = line.strip()
        if front:
            out.append("front-matter")
            if index and stripped in ("---", "...", "+++"):
                front = False
            continue
        code = _FENCE.match(line)
        if fence:
            out.append("code" if stripped else "")
            if code and code.group(1).startswith(fence) and not code.group(2).strip():
                fence = ""
            continue
        if code:
            fence = code.group(1)
            out.append("code-fence+title" if "title=" in code.group(2) else "code")
            continue
        if comment:
            out.append("in-html-comment")
            comment = "-->" not in line
            continue
        if raw:
            out.append("in-script/style")
            raw = not re.search(r"</(?:script|style)>", line, re.I)
            continue
        if not stripped:
            out.append("")
            html = False
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if _SETEXT.match(following) and not _SETEXT.match(line) and out and out[-1] == "":
            out.append("setext-heading")
            continue
        if jsx:
            out.append("jsx-tag")
            jsx = ">" not in line
            continue
        if re.match(r"[ \t]*<[A-Z][\w.]*[ \t]*$", line) or (
            re.match(r"[ \t]*<[A-Z][\w.]*[ \t]", line) and ">" not in line
        ):
            out.append("jsx-tag")  # an MDX component's tag over several lines
            jsx = True
            continue
        if html and not stripped.startswith("<"):
            out.append("in-html-block")
            continue
        kind = next((name for name, pattern in _CONSTRUCTS if pattern.match(line)), "prose")
        if kind == "html-line" and not _opens_html_block(line, out[-1] if out else ""):
            kind = "prose+inline-html"  # ('<a id="x"></a>' opens no block: a heading may follow)
        if kind in ("html-line", "details/summary", "html-heading"):
            html = True
            raw = bool(re.match(r"[ \t]*<(?:script|style)[\s>]", line, re.I)) and not re.search(
                r"</(?:script|style)>", line, re.I
            )
        comment = kind == "html-comment" and "-->" not in line
        if kind == "prose" and re.search(r"<[A-Za-z][\w-]*[\s>/]", line):
            kind = "prose+inline-html"
        out.append(kind)
    return out


# CommonMark's HTML block starts (types 1, 6 and 7): any other tag opens inline HTML in a paragraph.
_BLOCK_TAGS = frozenset(
    "address article aside base basefont blockquote body caption center col colgroup dd details"
    " dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6"
    " head header hr html iframe legend li link main menu menuitem nav noframes ol optgroup option"
    " p param search section summary table tbody td tfoot th thead title tr track ul"
    " pre script style textarea".split()
)
_TAG_NAME = re.compile(r"[ \t]*</?([A-Za-z][\w-]*)")
_LONE_TAG = re.compile(r"[ \t]*(?:<[A-Za-z][\w-]*(?:\s[^<>]*)?/?>|</[A-Za-z][\w-]*\s*>)[ \t]*$")


def _opens_html_block(line: str, before: str) -> bool:
    """Whether the line starts a CommonMark HTML block (a lone complete tag cannot interrupt a
    paragraph: ``before`` is the construct of the line above, "" when blank)."""
    name = _TAG_NAME.match(line)
    if name and name.group(1).lower() in _BLOCK_TAGS:
        return True
    return bool(_LONE_TAG.match(line)) and before == ""


def headings_above(lines: list[str], kinds: list[str]) -> list[str]:
    """For each line, the title of the nearest heading above it (or at it) the audit sees."""
    current = ""
    out = []
    for line, kind in zip(lines, kinds, strict=True):
        if kind in ("heading", "heading+attrs"):
            atx = _ATX.match(line)
            current = atx.group(2) if atx else current
        elif kind == "setext-heading":
            current = line.strip()
        out.append(current)
    return out


def audit_file(path: Path, text: str) -> list[tuple[int, str, str, str]]:
    """(line number, construct, verdict, line) of each non-blank line: verdict is "ok",
    "lost" or "title-less"."""
    try:
        split = split_passages(path.as_posix(), text)
    except InvalidInputError:  # a name ingest does not read as Markdown (LICENSE.md)
        return []
    lines = text.splitlines()
    kinds = classify(lines)
    titles = headings_above(lines, kinds)
    held: dict[int, list[int]] = defaultdict(list)
    for position, passage in enumerate(split.chunks):
        for number in range(passage.start_line, passage.end_line + 1):
            held[number].append(position)
    cache: dict[int, tuple[set[str], set[str]]] = {}

    def seen(position: int) -> tuple[set[str], set[str]]:
        if position not in cache:
            passage = split.chunks[position]
            trail = words(" ".join(passage.section))
            cache[position] = (words(passage.text) | words(passage.context) | trail, trail)
        return cache[position]

    every_trail = words(" ".join(title for chunk in split.chunks for title in chunk.section))
    out = []
    for index, (line, kind) in enumerate(zip(lines, kinds, strict=True)):
        if not kind:
            continue
        number = index + 1
        if kind == "jsx-tag":  # what a component shows of a tag's lines: its titles only
            line = " ".join(_SHOWN.findall(line))
        mine = shown_words(_fence_title(line) if kind == "code-fence+title" else line)
        if not mine:
            continue
        found: set[str] = set()
        trail: set[str] = set()
        for position in held.get(number, []):
            indexed, its_trail = seen(position)
            found |= indexed
            trail |= its_trail
        verdict = "ok"
        if kind in _HEADINGS and not held.get(number):
            # A heading over subsections alone adds no passage: its title is in their trails.
            found = trail = every_trail
        if len(mine & found) * 2 < len(mine):
            verdict = "lost"
        elif (title := shown_words(titles[index])) and not title <= trail:
            verdict = "title-less"
        out.append((number, kind, verdict, line))
    return out


def markdown_files(root: Path) -> list[Path]:
    return sorted(
        path
        for path in root.rglob("*.md*")
        if path.suffix in (".md", ".mdx", ".markdown")
        and path.is_file()
        and not any(
            part == "node_modules" or part.startswith(".") for part in path.relative_to(root).parts
        )
    )


def nav_titles(root: Path) -> list[tuple[str, str, str]]:
    """(page, nav title, first heading) of each titled page of each mkdocs.yml's nav."""
    import yaml

    rows = []
    for config in root.rglob("mkdocs.y*ml"):
        try:
            data = yaml.load(config.read_text(), Loader=_Lenient)
        except Exception:  # (a bench: an unreadable config is skipped)
            continue
        docs = config.parent / str((data or {}).get("docs_dir", "docs"))
        for title, page in _nav_pages((data or {}).get("nav") or []):
            file = docs / page
            heading = ""
            if file.is_file():
                for line in file.read_text(errors="replace").splitlines():
                    if (atx := _ATX.match(line)) and atx.group(1) == "#":
                        heading = atx.group(2)
                        break
            rows.append((page, title, heading))
    return rows


def _nav_pages(nav: object) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    items = nav if isinstance(nav, list) else [nav]
    for item in items:
        if isinstance(item, dict):
            for title, value in item.items():
                if isinstance(value, str) and value.endswith(".md"):
                    found.append((str(title), value))
                else:
                    found.extend(_nav_pages(value))
    return found


def _lenient_loader() -> type:
    import yaml

    class Lenient(yaml.SafeLoader):
        pass

    Lenient.add_multi_constructor("", lambda loader, suffix, node: None)
    return Lenient


_Lenient: type = object


def main() -> int:
    global _Lenient
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--show", default="")
    parser.add_argument("--verdict", default="", help="only lines with this verdict in --show")
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--nav", action="store_true")
    args = parser.parse_args()
    totals: Counter[tuple[str, str]] = Counter()
    shown = 0
    for root in args.dirs:
        for path in markdown_files(root):
            text = path.read_text(encoding="utf-8", errors="replace")
            for number, kind, verdict, line in audit_file(path, text):
                totals[kind, verdict] += 1
                if (
                    kind == args.show
                    and verdict != "ok"
                    and (not args.verdict or verdict == args.verdict)
                    and shown < args.limit
                ):
                    shown += 1
                    print(f"{verdict:10} {path}:{number}: {line[:150]}")
    kinds = sorted(
        {kind for kind, _ in totals},
        key=lambda k: -sum(totals[k, v] for v in ("lost", "title-less")),
    )
    print(f"{'construct':22} {'lines':>7} {'lost':>7} {'share':>6} {'no title':>8}")
    for kind in kinds:
        count = sum(totals[kind, v] for v in ("ok", "lost", "title-less"))
        lost, bare = totals[kind, "lost"], totals[kind, "title-less"]
        print(f"{kind:22} {count:7} {lost:7} {lost / count:6.1%} {bare:8}")
    if args.nav:
        _Lenient = _lenient_loader()
        for root in args.dirs:
            rows = nav_titles(root)
            differ = [row for row in rows if words(row[1]) - words(row[2])]
            print(f"{root}: {len(rows)} titled nav pages, {len(differ)} with words not in their H1")
            for page, title, heading in differ[: args.limit]:
                print(f"   {page}: nav {title!r}  H1 {heading!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
