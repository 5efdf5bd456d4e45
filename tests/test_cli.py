"""The CLI through the real ``credo`` entry point, in fresh processes."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import CliRun, credo_in


def test_remember_show_stats_round(run: CliRun) -> None:
    (run.cwd / "ops").mkdir()
    (run.cwd / "ops" / "deploy.sh").write_text("echo deploy\n" * 9, encoding="utf-8")
    belief_id = run(
        "remember", "Deploys go through ops/deploy.sh", "--doc", "ops/deploy.sh#L1-L9", check=True
    ).stdout.strip()
    shown = json.loads(run("show", belief_id, "--json", check=True).stdout)
    assert shown["belief"]["content"] == "Deploys go through ops/deploy.sh"
    assert shown["anchors"][0]["doc_uri"] == "ops/deploy.sh#L1-L9"
    other = json.loads(run("remember", "Staging first", "--lock", "--json", check=True).stdout)
    assert other["locked"] is True
    edge = json.loads(
        run("relate", belief_id, other["id"], "supports", "--json", check=True).stdout
    )
    assert edge["type"] == "SUPPORTS" and edge["weight"] == 1.0
    stats = json.loads(run("stats", "--json", check=True).stdout)
    assert (stats["beliefs"], stats["locked"], stats["edges"], stats["anchors"]) == (2, 1, 1, 1)
    assert "beliefs:" in run("stats", check=True).stdout
    assert (
        json.loads(run("feedback", belief_id, "used", "--json", check=True).stdout)["alpha"] == 2.0
    )
    assert run("unlock", other["id"], check=True).stdout.startswith("unlocked")
    assert run("lock", other["id"], check=True).stdout.startswith("locked")
    anchors = json.loads(run("anchors", "--doc", "ops/", "--json", check=True).stdout)
    assert [a["belief_id"] for a in anchors] == [belief_id]
    run("forget", belief_id, check=True)
    assert json.loads(run("show", belief_id, "--json", check=True).stdout)["belief"]["deleted_at"]


def test_a_document_that_does_not_exist_is_refused(run: CliRun) -> None:
    (run.cwd / "real.md").write_text("# Real\n\nA line.\n", encoding="utf-8")
    belief_id = run("remember", "Deploys go through staging", check=True).stdout.strip()
    for args in (
        ("link", belief_id, "nofile.md#L1-L2"),
        ("remember", "Staging is rebuilt nightly", "--doc", "nofile.md"),
    ):
        done = run(*args)
        assert done.returncode != 0
        [line] = done.stderr.strip().splitlines()  # one line, naming the path
        assert "nofile.md" in line and "does not exist" in line
    stats = json.loads(run("stats", "--json", check=True).stdout)
    assert (stats["beliefs"], stats["anchors"]) == (1, 0)  # nothing stored on refusal
    # An existing file and a URL (not fetched) are taken as before.
    run("link", belief_id, "real.md#L1-L3", check=True)
    run("link", belief_id, "https://example.com/deploy", check=True)
    assert json.loads(run("stats", "--json", check=True).stdout)["anchors"] == 2


def test_lines_past_the_end_of_a_document_are_refused(run: CliRun) -> None:
    """probe83: `remember --doc apscheduler/job.py#L9000-L9100` (a 300-line file) was stored;
    a range that starts past the file's end names nothing, as a typo of the path does."""
    (run.cwd / "real.md").write_text("# Real\n\nA line.", encoding="utf-8")  # 3 lines
    belief_id = run("remember", "Deploys go through staging", check=True).stdout.strip()
    for args in (
        ("link", belief_id, "real.md#L4-L9"),
        ("remember", "Staging is rebuilt nightly", "--doc", "real.md#L90-L99"),
    ):
        done = run(*args)
        assert done.returncode != 0
        [line] = done.stderr.strip().splitlines()
        assert "real.md" in line and "has 3 lines" in line and "past its end" in line
    assert json.loads(run("stats", "--json", check=True).stdout)["anchors"] == 0
    run("link", belief_id, "real.md#L3-L9", check=True)  # starts on its last line: kept
    assert json.loads(run("stats", "--json", check=True).stdout)["anchors"] == 1


def test_show_gives_a_passage_s_trail_as_search_does(run: CliRun) -> None:
    (run.cwd / "api.py").write_text(
        "class Client:\n"
        "    def get(self, url):\n"
        '        """Send a GET request to url and return the response."""\n'
        "        return url\n",
        encoding="utf-8",
    )
    run("ingest", "api.py", check=True)
    found = json.loads(run("search", "send a GET request", "--json", check=True).stdout)
    [hit] = [b for b in found["beliefs"] if b["content"].startswith("def get")]
    shown = run("show", hit["id"], check=True).stdout
    assert f"trail:       {hit['trail']}" in shown.splitlines()
    assert hit["trail"] == "api.py › Client › get L2-L4"


def test_import_export_through_cli(run: CliRun, tmp_path: Path) -> None:
    records = tmp_path / "in.jsonl"
    records.write_text(
        '{"kind":"belief","id":"a","content":"Alpha ships first"}\n'
        '{"kind":"belief","id":"b","content":"Beta follows"}\n'
        '{"kind":"edge","src":"b","dst":"a","type":"TEMPORAL_NEXT"}\n',
        encoding="utf-8",
    )
    report = json.loads(run("import", str(records), "--json", check=True).stdout)
    assert report["beliefs_added"] == 2 and report["edges_added"] == 1
    run("export", str(tmp_path / "out.jsonl"), check=True)
    lines = (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["kind"] for line in lines] == ["belief", "belief", "edge"]
    stdin = run(
        "import", "-", stdin='{"kind":"belief","id":"c","content":"from stdin"}\n', check=True
    )
    assert "imported 1 beliefs" in stdin.stdout


def test_errors_are_one_line_with_nonzero_exit(run: CliRun, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind":"belief","content":"ok"}\n{oops\n', encoding="utf-8")
    cases = [
        ("remember", "   "),
        ("show", "missing-id"),
        ("relate", "x", "y", "LIKES"),
        ("import", str(bad)),
        ("import", str(tmp_path / "nope.jsonl")),
        ("link", "missing-id", "docs/a.md"),
    ]
    for args in cases:
        done = run(*args)
        assert done.returncode == 1, args
        assert done.stderr.startswith("Error: "), (args, done.stderr)
        assert done.stderr.count("\n") == 1, (args, done.stderr)
        assert "Traceback" not in done.stderr
    assert json.loads(run("stats", "--json", check=True).stdout)["beliefs"] == 0


def test_corrupt_store_is_a_clean_error(run: CliRun) -> None:
    run.db.write_bytes(b"garbage" * 1000)
    done = run("stats")
    assert done.returncode == 1
    assert done.stderr.startswith("Error: cannot open store")
    assert run.db.read_bytes() == b"garbage" * 1000


def test_usage_errors_exit_nonzero(run: CliRun) -> None:
    done = run("anchors")
    assert done.returncode == 2
    assert "give either a belief ID or --doc PATH" in done.stderr


def test_hrr_commands(run: CliRun) -> None:
    a = run("remember", "the claim", "--id", "claim", check=True).stdout.strip()
    run("remember", "a citing note", "--id", "note", check=True)
    run("relate", "note", a, "CITES", check=True)
    built = json.loads(run("enable-hrr", "--dim", "256", "--json", check=True).stdout)
    assert built == {"edges_encoded": 1}
    found = json.loads(run("search", "what cites claim", "--json", check=True).stdout)
    assert "note" in [b["id"] for b in found["beliefs"]]
    assert "hrr" in found["beliefs"][[b["id"] for b in found["beliefs"]].index("note")]["lanes"]
    assert run("disable-hrr", check=True).stdout.startswith("HRR traces dropped")


def test_init_in_a_git_tree_keeps_the_store_out_of_git(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    done = credo_in(repo, "init")
    assert done.returncode == 0, done.stderr
    assert str(repo / ".credo" / "memory.db") in done.stdout
    assert (repo / ".credo" / ".gitignore").read_text(encoding="utf-8") == "*\n"


def test_a_read_of_a_missing_store_creates_nothing(run: CliRun, tmp_path: Path) -> None:
    """A mistyped --db (or CREDO_DB) is an error for every command that only reads or needs
    a belief there already, through both the fast search path and click's; a write makes it."""
    reads = [
        ("search", "deploy"),
        ("search", "deploy", "--json"),
        ("search", "deploy", "--cluster"),
        ("stats",),
        ("show", "abcdef12"),
        ("history", "abcdef12"),
        ("anchors", "--doc", "docs/"),
        ("conflicts",),
        ("export", str(tmp_path / "out.jsonl")),
        ("doctor",),
        ("log",),
        ("captured",),
        ("lock", "abcdef12"),
        ("forget", "abcdef12"),
        ("relate", "a", "b", "SUPPORTS"),
        ("disable-hrr",),
        ("enable-hrr",),
    ]
    for args in reads:
        done = run(*args)
        assert done.returncode == 1, (args, done.stderr)
        assert done.stderr == f"Error: no store at {run.db}; a write (`credo init`, " + (
            "`remember`, `ingest`, `import`) creates one\n"
        ), args
        assert not run.db.exists() and not (tmp_path / "out.jsonl").exists(), args
    typed = run("--db", str(tmp_path / "typo.db"), "search", "deploy")
    assert typed.returncode == 1 and "no store at" in typed.stderr
    assert not (tmp_path / "typo.db").exists()
    assert run("remember", "Deploys go through ops/deploy.sh", check=True).stdout.strip()
    assert run.db.exists()
    assert "deploy.sh" in run("search", "deploy", check=True).stdout


def test_show_json_gives_the_context_without_the_length_filler(run: CliRun, tmp_path: Path) -> None:
    """A short passage's context ends in filler words that only lengthen its row for BM25:
    `show --json` (and MCP's get_belief, the same JSON) gives the context a reader needs."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "alpha.md").write_text("# Alpha\n\nAlpha talks about retries.\n", encoding="utf-8")
    run("ingest", str(docs), check=True)
    found = json.loads(run("search", "retries", "--json", check=True).stdout)["beliefs"][0]
    shown = json.loads(run("show", found["id"], "--json", check=True).stdout)["belief"]
    assert shown["context"] == "docs/alpha.md › Alpha L1-L3\nAlpha"
    run("export", str(tmp_path / "out.jsonl"), check=True)
    exported = (tmp_path / "out.jsonl").read_text(encoding="utf-8")
    assert "credolengthfiller" in exported  # the index's own text travels whole


def test_a_read_in_a_fresh_git_tree_leaves_no_credo_folder(tmp_path: Path) -> None:
    """With no --db and no CREDO_DB, the default store is the work tree's .credo/memory.db:
    a read there before any write is the one-line error, and no .credo folder appears
    (connect would make it, with its .gitignore, for a store it creates)."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    for args in [("search", "deploy"), ("stats",), ("doctor",)]:
        done = credo_in(repo, *args)
        assert done.returncode == 1 and done.stdout == "", args
        assert done.stderr.startswith(f"Error: no store at {repo / '.credo' / 'memory.db'}; ")
        assert sorted(p.name for p in repo.iterdir()) == [".git"], args
