"""A team dropping what it decided retires the decision (the corpus's held-out Kafka probe).

Written before the retraction rule, with invented projects; on the extractor before it every
positive case below left the dropped decision live (``We dropped Kafka.`` formed only the event
``User dropped Kafka.``), which is how the benchmark's search-service scenario came to render a
retired decision as current.
"""

from __future__ import annotations

from typing import Any

import pytest

from memory_core import BeliefStatus

Harness = Any


def _decide_then(harness: Harness, decided: str, later: str) -> dict[str, Any]:
    harness.open("s1", project="search")
    harness.say("s1", decided)
    harness.service.run("session_close", "project:search", "s1")
    harness.open("s2", project="search")
    harness.say("s2", later)
    harness.service.run("session_close", "project:search", "s2")
    return {b.statement: b for b in harness.service.list_memories()}


@pytest.mark.parametrize(
    ("decided", "later", "retired"),
    [
        (
            "We decided to use Kafka to feed the indexer.",
            "Change of plan. We dropped Kafka.",
            "The team decided to use Kafka to feed the indexer.",
        ),
        (
            "We chose Redis for the session cache.",
            "We ditched Redis last week.",
            "The team chose Redis for the session cache.",
        ),
        (
            "We agreed to track bugs in Jira.",
            "Our team scrapped Jira.",
            "The team agreed to track bugs in Jira.",
        ),
        (
            "We went with Heroku for hosting.",
            "We've abandoned Heroku.",
            "The team went with Heroku for hosting.",
        ),
        (
            "We decided to use Terraform for the infrastructure.",
            "We are no longer using Terraform.",
            "The team decided to use Terraform for the infrastructure.",
        ),
        (
            "We decided to use Kafka for events.",
            "We dropped Kafka for now.",
            "The team decided to use Kafka for events.",
        ),
        (
            "The team agreed to use Sidekiq for background jobs.",
            "Scratch that, we're not using Sidekiq anymore.",
            "The team agreed to use Sidekiq for background jobs.",
        ),
        (
            "We decided to deploy on Render.",
            "We ditched Render and moved to Railway.",
            "The team decided to deploy on Render.",
        ),
        (
            "We're going with Bootstrap for the layout.",
            "We switched from Bootstrap to plain CSS grid.",
            "The team is going with Bootstrap for the layout.",
        ),
        (
            "We chose Mailgun for transactional email.",
            "We replaced Mailgun with Postmark.",
            "The team chose Mailgun for transactional email.",
        ),
    ],
)
def test_a_dropped_decision_is_superseded(
    harness: Harness, decided: str, later: str, retired: str
) -> None:
    beliefs = _decide_then(harness, decided, later)
    assert beliefs[retired].status is BeliefStatus.SUPERSEDED


@pytest.mark.parametrize(
    ("decided", "later"),
    [
        # Another decision, not the one dropped.
        ("We decided to use OpenSearch for the index.", "We dropped Kafka."),
        # Dropping something to a value, or dropping a person off, retracts nothing.
        ("We decided to use Kafka for events.", "We dropped the Kafka retention to two days."),
        ("We chose Postgres for the ledger.", "We dropped the kids off at school."),
        # Someone else's choice, or a question, is not the team's.
        ("We chose Redis for the cache.", "My cousin's startup ditched Redis."),
        ("We went with Heroku for hosting.", "Should we drop Heroku?"),
        # A household's habit, a move, or a lowercase change is no change of a team decision.
        ("We went with Netflix for streaming.", "We stopped using Netflix."),
        ("We decided to use Vercel for the site.", "We moved from Austin to Denver."),
        ("We chose Jenkins for CI.", "We switched from day shifts to nights."),
    ],
)
def test_other_drops_leave_the_decision_live(harness: Harness, decided: str, later: str) -> None:
    beliefs = _decide_then(harness, decided, later)
    kept = [b for statement, b in beliefs.items() if statement.startswith("The team")]
    assert kept and all(b.is_live for b in kept), [(b.statement, b.status) for b in kept]


@pytest.mark.parametrize(
    ("decided", "later", "formed"),
    [
        (
            "We decided to deploy on Render.",
            "We ditched Render and moved to Railway.",
            "The team ditched Render and moved to Railway.",
        ),
        (
            "We're going with Bootstrap for the layout.",
            "We switched from Bootstrap to plain CSS grid.",
            "The team switched from Bootstrap to plain CSS grid.",
        ),
        (
            "We chose Mailgun for transactional email.",
            "We replaced Mailgun with Postmark.",
            "The team replaced Mailgun with Postmark.",
        ),
    ],
)
def test_what_replaces_a_dropped_decision_is_the_current_one(
    harness: Harness, decided: str, later: str, formed: str
) -> None:
    beliefs = _decide_then(harness, decided, later)
    assert beliefs[formed].is_live, sorted(beliefs)
