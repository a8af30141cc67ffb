"""S1's invariants, checked before the first step and after every step of an example: the
broker's state equals the model's.

* every row: Metadata (all topics, newest version) lists exactly the model's topics under
  the example's sub-prefix, with its partition counts, a leader for every partition and the
  topic id it was created with;
* log rows: ListOffsets earliest and latest of every partition equal the model's log start
  and end offsets (so offsets are monotone);
* config rows: DescribeConfigs of every model topic equals the model;
* S2: each admin family's describe equals its part of the model (``plane_invariants.py``).

Each is polled until it holds (Kafka applies metadata and config changes asynchronously:
``docs/reference-semantics.md``): every look states what its answers must show as data
(``expectations.py``, the model's facts: ``cluster_model.topic_facts``, ``config_facts``)
and the judge decides; the last look is the verdict, and what it shows is learnt where the
model could not predict it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from protocol import OffsetSpec, apis, requests
from protocol.apis import ApiKey

from .expectations import expected_configs, expected_offsets, expected_topic

if TYPE_CHECKING:
    from .interfaces import RunContext


def check_invariants(run: RunContext) -> None:
    """Every invariant of ``run``'s row holds (polled until it settles), or ``run`` fails."""
    settle(run, _topics_look, "(invariant) Metadata")
    if run.row.watch_logs and ApiKey.ListOffsets in run.row.ranges:
        settle(run, _offsets_look, "(invariant) ListOffsets")
    if run.row.watch_configs:
        settle(run, _configs_look, "(invariant) DescribeConfigs", keep=False)
    for line, look in run.row.family_looks():      # S2: each admin family's describe
        settle(run, look, line, keep=False)


def settle(run: RunContext, look, line: str, keep: bool = True) -> None:
    """Poll ``look`` (its requests and what their answers must show as the model has it)
    until the judge finds it all holding (``check.poll``); the last look is the verdict.
    What a look shows is then learnt where the model could not predict it. Without
    ``keep``, a look that held leaves no expectations in the row (DescribeConfigs states
    every key of every topic after every step; a failing row keeps the failing look's)."""
    seen: dict = {}
    before = len(run.check.expectations)
    with run.judging(f"{line} -> differs from the model"):
        run.check.poll(lambda: seen.update(look(run)), run.row.settle_seconds())
    if not keep:
        run.check.expectations[before:] = [e for e in run.check.expectations[before:] if e["kind"] == "answer"]
    learn = seen.get("learn")
    if learn is not None:
        learn()


def _topics_look(run: RunContext) -> dict:
    """Metadata of all topics: exactly the model's topics under the sub-prefix, each as the
    model has it."""
    m, v = run.model, run.row.ranges[ApiKey.Metadata][1]
    resp = run.send(ApiKey.Metadata, v, requests.metadata(v), "(invariant) Metadata")
    at = len(run.check.steps) - 1
    seen = {t.get("name"): t for t in apis.results(ApiKey.Metadata, resp) if m.owns(t.get("name"))}
    # a deleted name is stated even where this look no longer shows it: a look that held at
    # once states it too, and a reproducer re-sends this step until it holds (``retry_s``)
    for name in sorted(set(m.topics) | set(seen) | m.deleted):
        expected_topic(run, name, seen.get(name), v, step=at)

    def learn():
        for name, entry in seen.items():
            if name in m.topics:
                t = m.topics[name]
                m.learn_topic(t, entry, v)
                if t.topic_id is not None and t.id_seen is None:
                    t.id_seen = (at, ["topics", {"name": name}, "topic_id"])
    return {"learn": learn}


def _offsets_look(run: RunContext) -> dict:
    """ListOffsets earliest and latest of every partition: the model's offsets."""
    m = run.model
    parts = {n: t for n, t in sorted(m.topics.items()) if t.partitions}
    if not parts:
        return {}
    v = run.row.ranges[ApiKey.ListOffsets][1]
    at = {}
    for which in (OffsetSpec.EARLIEST, OffsetSpec.LATEST):
        body = requests.list_offsets(v, [(n, range(t.partitions)) for n, t in parts.items()], which)
        run.send(ApiKey.ListOffsets, v, body, "(invariant) ListOffsets")
        at[which] = len(run.check.steps) - 1
    expected_offsets(run, parts, at)
    return {}


def _configs_look(run: RunContext) -> dict:
    """DescribeConfigs of every model topic: the model's configs."""
    m = run.model
    names = sorted(m.topics)
    if not names:
        return {}
    v = run.row.ranges[ApiKey.DescribeConfigs][1]
    resp = run.send(ApiKey.DescribeConfigs, v, requests.describe_configs(v, [(n, None) for n in names]),
                    "(invariant) DescribeConfigs")
    at = len(run.check.steps) - 1
    for n in names:
        expected_configs(run, n, v, step=at)
    results = {r.get("resource_name"): r for r in apis.results(ApiKey.DescribeConfigs, resp)}

    def learn():
        for n in names:
            m.learn_configs(m.topics[n], {c["name"]: c for c in results[n].get("configs") or []})
    return {"learn": learn}
