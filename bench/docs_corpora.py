"""The real projects `bench/docs_multi.py` reads: fetched at bench time, never committed.

    python bench/docs_corpora.py [--list]     # fetch every corpus, print where it lives

Each corpus is one release of a permissively licensed project, pinned by version and
sha256, downloaded from PyPI (sdists) or the npm registry on first use and unpacked into
a cache folder (``$CREDO_BENCH_CACHE``, default ``~/.cache/credo-bench``). Only the files
a corpus names are kept. The query files under ``bench/docs_multi/`` are ours; the text
they point at is the projects'.

Documentation corpora: three trees in two markup languages, each with its changelog.
Code corpora: the source of three libraries in two languages (requests added at stop 32,
first as a held-out check).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.parse
import urllib.request
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path


@dataclass(frozen=True)
class Corpus:
    """One pinned release and the files of it that the bench ingests."""

    name: str
    kind: str  # "docs" | "code"
    project: str
    version: str
    licence: str
    url: str  # the archive; "pypi:" ones are found on PyPI, "deb:" ones by apt-get
    sha256: str
    include: tuple[str, ...]  # glob patterns, relative to the archive's top folder
    # A Debian package's files live under a system folder (/usr/share/gocode/src/...):
    # that folder is the corpus's top one.
    top: str = ""

    def files(self, root: Path) -> list[Path]:
        """The corpus files under `root`, sorted."""
        return sorted(
            path
            for path in root.rglob("*")
            if path.is_file()
            and any(fnmatch(path.relative_to(root).as_posix(), p) for p in self.include)
        )


CORPORA: tuple[Corpus, ...] = (
    Corpus(
        name="black",
        kind="docs",
        project="black",
        version="26.10.1",
        licence="MIT",
        url="pypi:black==26.10.1",
        sha256="5f9f83beae62437e060dafd53d7f1fc327e3d3494f74d72ee5c2b73eb90fc4e7",
        include=(
            "docs/*.md",
            "docs/*/*.md",
            "CHANGES.md",
            "README.md",
            "CONTRIBUTING.md",
            "SECURITY.md",
            "AUTHORS.md",
        ),
    ),
    Corpus(
        name="click",
        kind="docs",
        project="click",
        version="8.5.1",
        licence="BSD-3-Clause",
        url="pypi:click==8.5.1",
        sha256="9bbfada76703fd1d784b83eea012e3e8c6a001a876543ef104fa56aaaeb072b4",
        include=("docs/*.md", "CHANGES.md", "README.md"),
    ),
    Corpus(
        name="flask",
        kind="docs",
        project="flask",
        version="3.1.3",
        licence="BSD-3-Clause",
        url="pypi:flask==3.1.3",
        sha256="0ef0e52b8a9cd932855379197dd8f94047b359ca0a78695144304cb45f87c9eb",
        include=("docs/*.rst", "docs/*/*.rst", "CHANGES.rst", "README.md"),
    ),
    Corpus(
        name="urllib3",
        kind="code",
        project="urllib3",
        version="2.8.0",
        licence="MIT",
        url="pypi:urllib3==2.8.0",
        sha256="63bf2ead4c879426ebf22ef2a781eeb4aa3b4ae798a0435506f8687fd5bb9b63",
        include=("src/urllib3/*.py", "src/urllib3/*/*.py", "src/urllib3/*/*/*.py"),
    ),
    Corpus(
        name="requests",
        kind="code",
        project="requests",
        version="2.32.3",
        licence="Apache-2.0",
        url="pypi:requests==2.32.3",
        sha256="55365417734eb18255590a9ff9eb97e9e1da868d4ccd6402399eaf68af20a760",
        include=("src/requests/*.py",),
    ),
    Corpus(
        name="axios",
        kind="code",
        project="axios",
        version="1.21.1",
        licence="MIT",
        url="https://registry.npmjs.org/axios/-/axios-1.21.1.tgz",
        sha256="5659acb8c9414ad88aa539db8e529947c9bac8cdf55973e314a078fc0205751c",
        include=("lib/*.js", "lib/*/*.js", "lib/*/*/*.js", "lib/*/*/*/*.js"),
    ),
)

BY_NAME = {corpus.name: corpus for corpus in CORPORA}


def cache_root() -> Path:
    return Path(os.environ.get("CREDO_BENCH_CACHE", Path.home() / ".cache" / "credo-bench"))


def _archive_url(corpus: Corpus) -> str:
    """The download address; "pypi:" ones are found on PyPI's simple index by hash."""
    if not corpus.url.startswith("pypi:"):
        return corpus.url
    project = corpus.url[len("pypi:") :].split("==")[0]
    index = f"https://pypi.org/simple/{project}/"
    with urllib.request.urlopen(index, timeout=60) as response:
        page = response.read().decode("utf-8", "replace")
    for href in re.findall(r'href="([^"]+)"', page):
        if href.endswith(f"#sha256={corpus.sha256}"):
            return urllib.parse.urljoin(index, href.split("#", 1)[0])
    raise SystemExit(f"{project}: no file with sha256 {corpus.sha256} on {index}")


def _debian_package(corpus: Corpus) -> bytes:
    """A "deb:PACKAGE=VERSION" corpus's .deb, fetched by apt-get (Debian's own client)."""
    spec = corpus.url[len("deb:") :]
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            ["apt-get", "download", spec], cwd=folder, capture_output=True, text=True
        )
        debs = sorted(Path(folder).glob("*.deb"))
        if done.returncode != 0 or len(debs) != 1:
            raise SystemExit(
                f"{corpus.name}: apt-get download {spec} failed ({done.stderr.strip()}); "
                "run apt-get update on a Debian machine first"
            )
        return debs[0].read_bytes()


def _debian_data(deb: bytes) -> bytes:
    """The data.tar.* member of a .deb (an ar archive: 8-byte magic, 60-byte headers)."""
    at = 8
    while at + 60 <= len(deb):
        name = deb[at : at + 16].decode("ascii").strip().rstrip("/")
        size = int(deb[at + 48 : at + 58].decode("ascii"))
        if name.startswith("data.tar"):
            return deb[at + 60 : at + 60 + size]
        at += 60 + size + size % 2
    raise SystemExit("no data.tar member in the .deb")


def fetch(corpus: Corpus) -> Path:
    """The unpacked corpus folder, downloading and checking it on first use."""
    root = cache_root() / f"{corpus.name}-{corpus.version}"
    if (root / ".complete").exists():
        return root
    debian = corpus.url.startswith("deb:")
    if debian:
        data = _debian_package(corpus)
    else:
        with urllib.request.urlopen(_archive_url(corpus), timeout=120) as response:
            data = response.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != corpus.sha256:
        raise SystemExit(f"{corpus.name}: sha256 {digest} != pinned {corpus.sha256}")
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    if debian:
        data = _debian_data(data)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as archive:
        for member in archive.getmembers():
            if not member.isfile():
                continue
            if debian:
                # ./usr/share/...: keep what is under the corpus's top folder
                name = member.name.removeprefix("./")
                if not name.startswith(corpus.top + "/"):
                    continue
                relative = name[len(corpus.top) + 1 :]
            else:
                relative = member.name.split("/", 1)[1] if "/" in member.name else member.name
            if not any(fnmatch(relative, pattern) for pattern in corpus.include):
                continue
            target = root / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            extracted = archive.extractfile(member)
            assert extracted is not None
            target.write_bytes(extracted.read())
    (root / ".complete").write_text(corpus.sha256 + "\n")
    return root


def corpus_names(corpora: str) -> list[str]:
    """The names in the comma-separated ``corpora``; exits naming the known ones when one
    is not a docs bench corpus (a name of another set ran nothing and said nothing: pass its
    tree with --tree)."""
    names = [n for n in corpora.split(",") if n]
    if unknown := sorted(set(names) - {corpus.name for corpus in CORPORA}):
        known = ", ".join(corpus.name for corpus in CORPORA)
        raise SystemExit(f"not a docs bench corpus: {', '.join(unknown)} (known: {known})")
    return names


def bench_work(corpora: str, trees: list[str]) -> list[tuple[str, Path, list[str]]]:
    """(name, root, files) to ingest: the bench corpora named in the comma-separated
    ``corpora`` (every one when empty), then each folder of ``trees`` whole, named by its
    whole path (two trees may share a folder name)."""
    names = corpus_names(corpora)
    work: list[tuple[str, Path, list[str]]] = []
    for corpus in CORPORA:
        if not names or corpus.name in names:
            root = fetch(corpus)
            work.append((corpus.name, root, [str(f) for f in corpus.files(root)]))
    for tree in trees:
        path = Path(tree).resolve()
        work.append((str(path), path, [str(path)]))
    return work


def main(argv: list[str] | None = None, corpora: tuple[Corpus, ...] = CORPORA) -> int:
    """Fetch `corpora` and print where each lives (bench/heldout/corpora.py passes its own)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="also list each corpus' files")
    args = parser.parse_args(argv)
    for corpus in corpora:
        root = fetch(corpus)
        files = corpus.files(root)
        print(
            f"{corpus.name:10} {corpus.kind:5} {corpus.version:8} {corpus.licence:13} "
            f"{len(files):4} files  {root}"
        )
        if args.list:
            for path in files:
                print("   ", path.relative_to(root).as_posix())
    return 0


if __name__ == "__main__":
    sys.exit(main())
