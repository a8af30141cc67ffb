"""The model's answers as data: what a conforming broker answers to each step of an S1
example, recorded in the check's ``expectations`` (``docs/results.md``, "expect"), so that
an exported reproducer (``fixtures/repro``) judges a broker by these alone, without the
model. Each function states one kind of answer: the error codes of a step's entries, the
fields of a NONE entry the model verifies, Metadata of a topic, DescribeConfigs of a
topic, ListOffsets of the partitions. The values are the model's
(``conformance/cluster_model.py``, after ``docs/reference-semantics.md``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from protocol import apis, schema_facts
from protocol.apis import ApiKey, ConfigSource, OffsetSpec
from protocol.errors import Errors, error_name

from .. import cluster_model as cm

if TYPE_CHECKING:
    from .run import Run


def codes_text(codes) -> str:
    """Error codes as a script shows them: ``NONE or INVALID_CONFIG``."""
    return " or ".join(error_name(c) for c in sorted(codes))


def entry_path(api: int, key: tuple) -> list:
    """Where the answer to ``api`` holds the entry of a model key (an expectation's path)."""
    s = apis.spec(api)
    if key[0] == "partition":
        return [s.results, {s.item: key[1]}, s.partitions, {"partition_index": key[2]}]
    if key[0] == "id":
        return [s.results, {"topic_id": key[1]}]
    return [s.results, {s.item: key[1]}]


def _named(key) -> str:
    """A model key in full (expectations stand alone: no ``kac-..`` shorthand)."""
    return f"{key[1]}-{key[2]}" if key[0] == "partition" else f"id {key[1]}" if key[0] == "id" else str(key[1])


def expected_answer(run: Run, api, expects, everything: bool) -> None:
    """Per predicted entry of the step just answered: its allowed error codes (and one
    entry per key); with ``everything``, no entry beyond those asked."""
    by: dict[tuple, list[cm.Expect]] = {}
    for e in expects:
        by.setdefault(e.key, []).append(e)
    for key, es in by.items():
        allowed = sorted(set().union(*(e.allowed for e in es)))
        run.check.expect_field(entry_path(api, key) + ["error_code"], allowed, count=len(es),
                               says=f"{_named(key)}: {codes_text(allowed)} ({es[0].why})")
    if everything:
        s = apis.spec(api)
        run.check.expect_field([s.results, s.partitions, "error_code"] if s.partitions else
                               [s.results, "error_code"], count=len(expects),
                               says=f"{len(expects)} result(s): one per item asked")


def expected_entry(run: Run, api, key, items, version) -> None:
    """What the model expects of a NONE entry beyond its code (its ``verify``), as data."""
    m, at = run.model, entry_path(api, key)
    if api == ApiKey.CreateTopics:
        want = next((i["partitions"] for i in items or [] if i["name"] == key[1]), None)
        if want is not None and want > 0:
            run.check.expect_field(at + ["num_partitions"], [want], count=1,
                                   says=f"{_named(key)}: num_partitions {want}, as requested")
    elif api == ApiKey.DeleteRecords:
        t = m.topics.get(key[1])
        off = next((o for i in items or [] if i["name"] == key[1] for q, o in i["partitions"] if q == key[2]),
                   None)
        if t is not None and off is not None and t.partitions and key[2] < t.partitions:
            start, end = t.start[key[2]], t.end[key[2]]
            lw = max(start, end if off == -1 else off)
            run.check.expect_field(at + ["low_watermark"], [lw], count=1,
                                   says=f"{_named(key)}: low_watermark {lw} (log start {start}, offset {off})")
    elif api == ApiKey.Metadata:
        expected_topic(run, key[1])
    elif api == ApiKey.DescribeConfigs:
        keys = next((i["keys"] for i in items or [] if i["name"] == key[1]), None)
        expected_configs(run, key[1], version, keys)


def expected_topic(run: Run, name: str, step: int | None = None, retry_s: float | None = None) -> None:
    """Metadata (the step's answer) lists ``name`` as the model has it."""
    t, at = run.model.topics.get(name), ["topics", {"name": name}]
    if t is None:
        run.check.expect_field(at, count=0, step=step, retry_s=retry_s,
                               says=f"Metadata does not list {_named(('name', name))} (the model has no such topic)")
        return
    run.check.expect_field(at + ["error_code"], [Errors.NONE], count=1, step=step, retry_s=retry_s,
                           says=f"Metadata lists {_named(('name', name))} without error")
    if t.partitions is not None:
        run.check.expect_field(at + ["partitions", "partition_index"], list(range(t.partitions)),
                               count=t.partitions, step=step, retry_s=retry_s,
                               says=f"{_named(('name', name))} has {t.partitions} partition(s)")
        run.check.expect_field(at + ["partitions", "error_code"], [Errors.NONE], step=step, retry_s=retry_s,
                               says=f"every partition of {_named(('name', name))} answers without error")
        run.check.expect_field(at + ["partitions", "leader_id"], refused=[-1], step=step, retry_s=retry_s,
                               says=f"every partition of {_named(('name', name))} has a leader")


def expected_configs(run: Run, name: str, version: int, keys=None, step: int | None = None,
                     retry_s: float | None = None) -> None:
    """DescribeConfigs (the step's answer) shows ``name``'s configs as the model has them
    (``cluster_model.Model.config_problem`` as data)."""
    m = run.model
    t, d = m.topics.get(name), m.defaults
    if t is None:
        return
    expected = set(t.configs) | (set(d.configs) if d.configs_known else set())
    if keys is not None:
        expected &= set(keys)
    base = ["results", {"resource_name": name}, "configs"]
    label = _named(("name", name))
    if d.configs_known:
        run.check.expect_field(base + ["name"], sorted(expected), step=step, retry_s=retry_s,
                               says=f"{label}: only the keys a fresh topic lists and the model's overrides")
    for k in sorted(expected):
        at = base + [{"name": k}]
        if k in t.configs:
            want, source = t.configs[k], ConfigSource.TOPIC_CONFIG
            if isinstance(want, cm.Unknown):
                run.check.expect_field(at + ["name"], count=1, step=step, retry_s=retry_s,
                                       says=f"{label}: lists the override {k}")
                want = None
            else:
                run.check.expect_field(at + ["value"], [want], count=1, step=step, retry_s=retry_s,
                                       says=f"{label}: {k}={want!r} (the model's override)")
        else:
            want, source = d.configs[k]
            run.check.expect_field(at + ["value"], [want], count=1, step=step, retry_s=retry_s,
                                   says=f"{label}: {k}={want!r} (a fresh topic's value)")
        if source is not None and schema_facts.has_field(
                ApiKey.DescribeConfigs, version, "results.configs.config_source", schema_facts.RESPONSE):
            run.check.expect_field(at + ["config_source"], [source], count=1, step=step, retry_s=retry_s,
                                   says=f"{label}: {k} has config_source {int(source)}")


def expected_offsets(run: Run, parts: dict, at: dict) -> None:
    """ListOffsets (the steps ``at`` names: earliest, latest) shows every partition of
    ``parts`` with the model's log start and end offsets."""
    for which, field in ((OffsetSpec.EARLIEST, "start"), (OffsetSpec.LATEST, "end")):
        if which not in at:
            continue
        for n, t in parts.items():
            for p in range(t.partitions):
                path = ["topics", {"name": n}, "partitions", {"partition_index": p}]
                run.check.expect_field(path + ["error_code"], [Errors.NONE], count=1, step=at[which])
                run.check.expect_field(path + ["offset"], [getattr(t, field)[p]], count=1, step=at[which],
                                       says=f"{n}-{p}: the model's log "
                                            f"{'start' if field == 'start' else 'end'} offset {getattr(t, field)[p]}")
