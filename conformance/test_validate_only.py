"""V1-V3: a validate_only request changes nothing, answers what the executed request
answers, and judges every item of a batch on its own.

Which requests have the flag (the 4.x schemas' ``ValidateOnly`` field): CreateTopics v1+,
CreatePartitions, AlterConfigs and IncrementalAlterConfigs at every version. DeleteTopics
and DeleteRecords have none in released Kafka (KIP-201, "Rationalising Policy interfaces", was never
released; its properties are K1).

What released Kafka does (docs/reference-semantics.md, "V1-V3"): the controller computes
the same per-item result as for a real request and drops the records --
``ReplicationControlManager.createTopics`` (``if (request.validateOnly()) return
ControllerResult.atomicOf(Collections.emptyList(), data)``), ``QuorumController.createPartitions``
/ ``incrementalAlterConfigs`` / ``legacyAlterConfigs`` (``result.withoutRecords()``).
Items are independent except for whole-request failures (timeout, the 10,000-record batch
limit), which the batches here cannot trigger, and duplicates, which fail only the
duplicated entries.

Each example is a batch mixing valid and invalid items (``conformance/batch_model.py``), made
concrete in fresh *worlds* of run-prefixed topics set up identically.
"""
from __future__ import annotations

import pytest
from hypothesis import strategies as st

from protocol import Errors, schema_facts
from protocol.apis import spec

from .parametrize import every_version
from strategies.batches import VALIDATE_ONLY_APIS, describe_item, mixed_batches

from .batch_model import RELATIONAL_KINDS, World, asked, items_for, observe, set_up, settle
from protocol.kafka_sources import KAFKA

RCM = "metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java"
QC = "metadata/src/main/java/org/apache/kafka/controller/QuorumController.java"

#: (api_key, version) for every schema version that has validate_only.
VALIDATE_ONLY_VERSIONS = [p for p in every_version(VALIDATE_ONLY_APIS)
                          if schema_facts.has_field(p.values[0], p.values[1], "validate_only")]


def _batch(items) -> str:
    return "[" + ", ".join(describe_item(i) for i in items) + "]"


# --------------------------------------------------------------------------------------
# V1
# --------------------------------------------------------------------------------------

@pytest.mark.prop("V1", source="catalogue V1; KIP-201 'Rationalising Policy interfaces' ('validated ... but the topic won't actually be "
                               "deleted'), KIP-339 'Create a new IncrementalAlterConfigs API' ('validated without altering the configs'); "
                               f"{KAFKA}{RCM} createTopics (validateOnly: no records), {KAFKA}{QC} createPartitions / "
                               "incrementalAlterConfigs / legacyAlterConfigs (withoutRecords); "
                               f"{KAFKA}core/src/test/scala/unit/kafka/server/AbstractCreateTopicsRequestTest.scala "
                               "validateValidCreateTopicsRequests (validateOnly: topic absent afterwards)")
@pytest.mark.parametrize("api_key,version", VALIDATE_ONLY_VERSIONS)
def test_v1_validate_only_leaves_topics_partitions_and_configs_as_they_were(check, api_key, version):
    """A validate_only batch (valid and invalid items mixed) leaves Metadata (the run's
    topics and their partition counts) and DescribeConfigs of every touched topic exactly
    as they were. Before each look the check creates one more topic and waits for it in
    Metadata, so whatever earlier requests and the validate_only request wrote is visible
    by then (Kafka brokers apply metadata records asynchronously but in log order)."""
    ctx = asked(check, api_key, version)
    sentinels: set[str] = set()
    # mappable on an external cluster: no invalid name that cannot carry the run prefix
    strategy = mixed_batches(api_key, items_for(api_key, version, check.prefix, ctx.rf_floor,
                                                mappable=check.broker.external, avoid=check.avoided_shapes))

    def no_side_effects(items):
        world = World(check, "v1")
        body = world.request(api_key, items, version, True, ctx.broker)
        set_up(ctx.admin, [world], sentinels)
        legal = [n for it, n in zip(items, world.names) if it["kind"] != "bad_name"]
        configs_of = [n for n, _, _ in world.existing] + legal
        at_before = len(check.steps)
        before = observe(ctx.admin, world.names, configs_of, sentinels)
        ctx.client.answered(api_key, version, body)
        settle(ctx.admin, sentinels)
        at_after = len(check.steps)
        observe(ctx.admin, world.names, configs_of, sentinels)
        _expect_unchanged(check, world.names, before, at_before, at_after, len(dict.fromkeys(configs_of)),
                          f"validate_only {ctx.name} (batch {_batch(items)}): ")

    check.given(strategy, no_side_effects)


def _expect_unchanged(check, names, before, at_before, at_after, describes, what: str) -> None:
    """V1's verdict as data: Metadata afterwards lists the same topics with the same
    partition counts, and each DescribeConfigs answers as the one before (its code, its
    configs)."""
    for n in dict.fromkeys(names):
        if n in before["topics"]:
            check.expect_field(["topics", {"name": n}, "partitions", "partition_index"], count=before["topics"][n],
                               step=at_after,
                               says=f"{what}Metadata lists {n!r} with {before['topics'][n]} partitions, as before")
        else:
            check.expect_field(["topics", {"name": n}, "error_code"], refused=[Errors.NONE], step=at_after,
                               says=f"{what}Metadata does not list {n!r} (it did not exist before)")
    for i in range(1, describes + 1):
        check.expect_same(["results", "error_code"], at_before + i, step=at_after + i,
                          says=f"{what}DescribeConfigs answers the code it answered before the request")
        check.expect_same(["results", "configs"], at_before + i, step=at_after + i,
                          says=f"{what}DescribeConfigs shows the configs it showed before the request")


def _expect_same_verdicts(check, api_key, mine, theirs, their_step, items, what, fields=()) -> None:
    """V2/V3's verdict as data: item by item, the entries naming ``mine[i]`` in the last
    answer carry the error codes the entries naming ``theirs[i]`` carry in the answer to
    ``their_step`` (and, for ``fields``, the same values where both succeeded)."""
    s = spec(api_key)
    for a, b, it in zip(mine, theirs, items):
        check.expect_same([s.results, {s.item: a}, "error_code"], their_step, [s.results, {s.item: b}, "error_code"],
                          says=f"{describe_item(it)}: {a!r} gets the error codes {b!r} gets ({what} "
                                          "answer alike)")
        for f in fields:
            check.expect_same([s.results, {s.item: a, "error_code": Errors.NONE}, f], their_step,
                              [s.results, {s.item: b, "error_code": Errors.NONE}, f],
                              says=f"{describe_item(it)}: {a!r} and {b!r}: the same {f} where both succeeded")


# --------------------------------------------------------------------------------------
# V2
# --------------------------------------------------------------------------------------

@pytest.mark.prop("V2", source="catalogue V2; KIP-201, KIP-339 (validate_only validates the request as it would be "
                               f"executed); {KAFKA}{RCM} createTopics (one code path; validateOnly drops only the "
                               f"records), {KAFKA}{QC} createPartitions / incrementalAlterConfigs / legacyAlterConfigs "
                               "(result.withoutRecords()); docs/reference-semantics.md V2 (topic_id of a "
                               "validate_only CreateTopics v7 answer is random: ignored)")
@pytest.mark.parametrize("api_key,version", VALIDATE_ONLY_VERSIONS)
def test_v2_validate_only_answers_each_item_as_the_executed_request_does(check, api_key, version):
    """The same batch sent with validate_only to one world and executed in an identical
    other world gets the same error code for every item (and, for CreateTopics v5+, the
    same num_partitions / replication_factor for every success). Messages name the
    world's topics and topic ids are random, so neither is compared."""
    ctx = asked(check, api_key, version)
    strategy = mixed_batches(api_key, items_for(api_key, version, check.prefix, ctx.rf_floor, mappable=True,
                                                avoid=check.avoided_shapes))

    def same_verdicts(items):
        validated, executed = World(check, "va"), World(check, "vb")
        body_v = validated.request(api_key, items, version, True, ctx.broker)
        body_x = executed.request(api_key, items, version, False, ctx.broker)
        set_up(ctx.admin, [validated, executed])
        ctx.client.answered(api_key, version, body_v)
        at_v = len(check.steps) - 1
        ctx.client.answered(api_key, version, body_x)
        _expect_same_verdicts(check, api_key, executed.names, validated.names, at_v, items,
                              "executed and validate_only", fields=("num_partitions", "replication_factor")
                              if schema_facts.item_has(api_key, version, "num_partitions") else ())

    check.given(strategy, same_verdicts)


# --------------------------------------------------------------------------------------
# V3
# --------------------------------------------------------------------------------------

@pytest.mark.prop("V3", source="catalogue V3; KIP-201 ('validation failure only affects the relevant "
                               f"topic'); {KAFKA}{RCM} createTopics / createPartitions (per-topic ApiError), "
                               f"{KAFKA}metadata/src/main/java/org/apache/kafka/controller/ConfigurationControlManager.java "
                               "incrementalAlterConfigs / legacyAlterConfigs (per-resource result); "
                               f"{KAFKA}core/src/test/scala/unit/kafka/server/CreateTopicsRequestTest.scala "
                               "testErrorCreateTopicsRequests ('Partial': each topic its own code)")
@pytest.mark.parametrize("api_key,version", VALIDATE_ONLY_VERSIONS)
def test_v3_each_item_of_a_batch_gets_the_verdict_it_gets_alone(check, api_key, version):
    """Every item of a mixed batch (validate_only or executed) gets the code it gets when
    sent alone from an identical starting state: a failing item does not change the
    verdict of the others. Duplicated entries fail because of each other, so they are
    in the batches but not compared."""
    ctx = asked(check, api_key, version)
    batches = mixed_batches(api_key, items_for(api_key, version, check.prefix, ctx.rf_floor, mappable=True,
                                               avoid=check.avoided_shapes))

    def independent(args):
        items, validate_only = args
        batch = World(check, "vt")
        body = batch.request(api_key, items, version, validate_only, ctx.broker)
        alone = []
        for i, it in enumerate(items):
            if it["kind"] not in RELATIONAL_KINDS:
                w = World(check, f"v{i}")
                alone.append((i, w, w.request(api_key, [it], version, validate_only, ctx.broker)))
        set_up(ctx.admin, [batch] + [w for _, w, _ in alone])
        ctx.client.answered(api_key, version, body)
        at_batch = len(check.steps) - 1
        mode = "validate_only" if validate_only else "executed"
        for i, w, b in alone:
            ctx.client.answered(api_key, version, b)
            _expect_same_verdicts(check, api_key, w.names, [batch.names[i]], at_batch, [items[i]],
                                  f"{mode}, alone and in the batch {_batch(items)}")

    check.given(st.tuples(batches, st.booleans()), independent)
