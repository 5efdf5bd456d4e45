"""A changed value told with its key ("max_age=900, not 3600", "port 8080, not 80") is found
by capture's rule 1 already: the key and the old value are two topic terms the old belief
shares, so the correction remembered by hand supersedes it. Rule 5's leaving numbers out
("8080, not 80" names nothing alone) costs nothing here; one stored beside another key holding
the same number is left alone."""

from __future__ import annotations

import json

import pytest

from tests.conftest import CliRun

DECISION = "Decision: we sign session cookies with URLSafeTimedSerializer and max_age=3600"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            DECISION,
            "Decision changed: session cookies now expire after 900 seconds (max_age=900), "
            "not 3600, after the security review.",
        ),
        (DECISION, "Actually max_age=900 now, not 3600."),
        ("The dev server listens on port 80.", "Actually port 8080, not 80."),
        ("The request timeout is 60s.", "Correction: timeout 30s, not 60s."),
    ],
)
def test_a_keyed_value_correction_supersedes_the_old_value(run: CliRun, old: str, new: str) -> None:
    old_id = json.loads(run("remember", old, "--kind", "requirement", "--json", check=True).stdout)
    done = json.loads(run("remember", new, "--kind", "correction", "--json", check=True).stdout)
    assert done["supersedes"] == [old_id["id"]] and done["contradicts"] == []


def test_the_same_number_under_another_key_is_left_alone(run: CliRun) -> None:
    run("remember", "Uploads are capped at 3600 files per batch.", check=True)
    done = json.loads(
        run("remember", "Actually max_age=900, not 3600.", "--kind", "correction", "--json").stdout
    )
    assert done["supersedes"] == [] and done["contradicts"] == []


def test_a_fact_naming_a_change_is_not_judged(run: CliRun) -> None:
    # The caller's kind decides (docs/AGENT.md "A correction remembered by hand"): the probe's
    # second `remember` had no --kind correction, so nothing was judged.
    run("remember", DECISION, "--kind", "requirement", check=True)
    new = "Decision changed: session cookies now expire after 900 seconds (max_age=900), not 3600."
    done = json.loads(run("remember", new, "--json", check=True).stdout)
    assert done["supersedes"] == [] and done["contradicts"] == []
