"""Beliefs changing through the real ``credo`` entry point: relate (and --force), search and
its fast path (--history, --explain, --json), history, conflicts and resolve."""

from __future__ import annotations

import json

from tests.conftest import CliRun


def two_deploys(run: CliRun) -> tuple[str, str]:
    old = run("remember", "We deploy with Capistrano to the staging servers", check=True)
    new = run("remember", "We deploy with Kamal to the staging servers since March", check=True)
    return old.stdout.strip(), new.stdout.strip()


def test_the_issue_as_a_new_user_tries_it(run: CliRun) -> None:
    old, new = two_deploys(run)
    first = json.loads(run("search", "how do we deploy to staging", "--json", check=True).stdout)
    assert first["beliefs"][0]["id"] == old  # before: the replaced belief ranks first
    run("relate", new, old, "SUPERSEDES", check=True)
    found = json.loads(run("search", "how do we deploy to staging", "--json", check=True).stdout)
    assert [b["id"] for b in found["beliefs"]] == [new]
    assert found["beliefs"][0]["replaces"] == [old] and found["superseded"] == [old]
    text = run("search", "how do we deploy to staging", "--explain", check=True).stdout
    assert f"replaces: {old}" in text and "1 superseded beliefs left out" in text
    history = run("search", "how do we deploy to staging", "--history", "--json", check=True)
    beliefs = json.loads(history.stdout)["beliefs"]
    assert [b["id"] for b in beliefs] == [new, old] and beliefs[1]["superseded_by"] == [new]
    # The click command and the fast path print the same bytes.
    for flags in ([], ["--history"], ["--explain"], ["--json", "--history"]):
        fast = run("search", "deploy staging", *flags, check=True).stdout
        slow = run("search", "deploy staging", "--cluster", *flags, check=True).stdout
        assert fast == slow, flags


def test_history_prints_the_chain_with_dates_and_origins(run: CliRun) -> None:
    old, new = two_deploys(run)
    run("relate", new, old, "SUPERSEDES", check=True)
    text = run("history", old, check=True).stdout
    assert f"current: {new}" in text and "[superseded]" in text and "user_stated" in text
    assert " UTC " in text
    data = json.loads(run("history", new, "--json", check=True).stdout)
    assert data["current"] == [new]
    assert [(s["belief"]["id"], s["status"]) for s in data["steps"]] == [
        (old, "superseded"),
        (new, "current"),
    ]


def test_a_lock_takes_force_and_conflicts_resolve(run: CliRun) -> None:
    rule = run("remember", "Never deploy on Fridays", "--lock", check=True).stdout.strip()
    loose = run("remember", "Deploy any day of the week", check=True).stdout.strip()
    refused = run("relate", loose, rule, "SUPERSEDES")
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert refused.stderr.startswith("Error: ") and "--force" in refused.stderr
    run("relate", loose, rule, "CONTRADICTS", check=True)
    assert "1 open contradiction (" in run("conflicts", check=True).stdout
    listed = json.loads(run("conflicts", "--json", check=True).stdout)["conflicts"]
    assert (listed[0]["first"]["id"], listed[0]["second"]["id"]) == (rule, loose)
    found = json.loads(run("search", "deploy", "--json", check=True).stdout)["beliefs"]
    assert [b["id"] for b in found] == [rule, loose] and found[1]["conflicts"] == [rule]
    assert run("resolve", loose, rule).returncode == 1  # a locked loser: the user's call
    done = json.loads(run("resolve", loose, rule, "--force", "--json", check=True).stdout)
    assert [e["type"] for e in done["edges"]] == ["SUPERSEDES", "RESOLVES"]
    assert run("conflicts", check=True).stdout.strip() == "no open contradictions"
    again = run("resolve", loose, rule, "--force")
    assert again.returncode == 1 and "already supersedes and resolves" in again.stderr


def test_bad_supersessions_are_one_line_errors(run: CliRun) -> None:
    old, new = two_deploys(run)
    run("relate", new, old, "SUPERSEDES", check=True)
    for args, says in [
        (("relate", old, old, "SUPERSEDES"), "cannot supersede itself"),
        (("relate", old, new, "SUPERSEDES"), "would close a cycle"),
        (("relate", "nope", old, "SUPERSEDES"), "no belief with id 'nope'"),
        (("history", "nope"), "no belief with id 'nope'"),
        (("resolve", "nope", old), "no belief with id 'nope'"),
        # Found by probe60: a belief resolved against itself read as a cycle it "already" was.
        (("resolve", old, old), "a belief cannot resolve a contradiction with itself"),
    ]:
        done = run(*args)
        assert done.returncode == 1 and says in done.stderr, (args, done.stderr)
        assert done.stderr.count("\n") == 1
    assert json.loads(run("stats", "--json", check=True).stdout)["beliefs"] == 2


def test_dedup_apply_packs_one_and_undo_brings_both_back(run: CliRun) -> None:
    run("remember", "Deploys go through ops/deploy.sh on the build host", check=True)
    run("remember", "Deploys go through ops/deploy.sh on the build host now", check=True)
    both = json.loads(run("search", "deploy build host", "--json", check=True).stdout)
    assert len(both["beliefs"]) == 2
    assert "wrote 1 SUPERSEDES edges" in run("dedup", "--apply", check=True).stdout
    one = json.loads(run("search", "deploy build host", "--json", check=True).stdout)
    assert len(one["beliefs"]) == 1 and len(one["beliefs"][0]["replaces"]) == 1
    run("dedup", "--undo", check=True)
    again = json.loads(run("search", "deploy build host", "--json", check=True).stdout)
    assert len(again["beliefs"]) == 2


def test_plain_search_says_which_beliefs_disagree_or_replace(run: CliRun) -> None:
    """Found by probe75: two beliefs in an open contradiction came out of `credo search`
    side by side at the same score with nothing saying they disagree (the memory block and
    --explain said it; the people's view did not), nor that a belief replaces another."""
    old, new = two_deploys(run)
    run("relate", new, old, "CONTRADICTS", check=True)
    found = json.loads(run("search", "how do we deploy to staging", "--json", check=True).stdout)
    short = {b["id"]: b["short_id"] for b in found["beliefs"]}
    text = run("search", "how do we deploy to staging", check=True).stdout
    assert f"conflicts with: {short[old]}" in text and f"conflicts with: {short[new]}" in text
    run("resolve", new, old, check=True)
    text = run("search", "how do we deploy to staging", check=True).stdout
    assert f"replaces: {short[old]}" in text and "conflicts with" not in text
    # The fast path prints the same bytes as the click command.
    assert run("search", "deploy staging", "--cluster", check=True).stdout == (
        run("search", "deploy staging", check=True).stdout
    )


def test_conflicts_and_remember_say_how_to_settle_a_contradiction(run: CliRun) -> None:
    """Found by probe75: `credo remember --kind correction` printed `contradicts ID` and
    `credo conflicts` listed the pairs, but neither named the command that settles one."""
    old = run("remember", "We use npm to install packages", check=True).stdout.strip()
    said = run("remember", "--kind", "correction", "Actually we moved from npm to pnpm.")
    new, line = said.stdout.splitlines()
    assert line == f"contradicts {old} (if this one holds: credo resolve {new} {old})"
    listed = run("conflicts", check=True).stdout
    assert listed.rstrip().endswith("settle one: credo resolve WINNER LOSER (ids as above)")
