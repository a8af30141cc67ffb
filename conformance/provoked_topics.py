"""The broker side of the error-provoking requests (catalogue P5, P6): the topics a check
creates first.

The requests themselves are drawn by ``strategies/provoke.py`` (``requests(api_key,
version, prefix, existing)``: half realistic, half built to provoke an error Kafka defines
for the API); ``existing`` are the topics :func:`existing_topics` created, so "already
exists", "not an increase" and successes happen too.
"""
from __future__ import annotations

from fixtures.admin import Admin
from fixtures.harness import Violation
from protocol import ApiKey, schema_facts
from protocol.apis import Entity


def names_topics(api_key: int) -> bool:
    """Whether the API's requests name topics (only then is a topic created for it)."""
    return bool({Entity.TOPIC, Entity.CONFIG_RESOURCE} & set(schema_facts.entity_fields(api_key).values()))


def existing_topics(check, api_key: int) -> list[str]:
    """One topic the check creates first (so 'already exists', 'not an increase' and
    successes occur); none when the broker cannot create it (the check then provokes the
    other errors)."""
    if api_key == ApiKey.Metadata and not check.broker.advertised(ApiKey.CreateTopics):
        return []
    # a '.' in the name: its '_' twin collides with it (Kafka refuses to create the twin)
    name = f"{check.prefix}{check.prop}-{api_key}-{check.api_version}-x.c"
    since = len(check.expectations)
    try:
        Admin(check).create_topic(name, partitions=2)
    except Violation:       # the check goes on without it: so does its reproducer
        check.without_setup(since)
        return []
    return [name]
