"""The rules of fixtures/scope.py, on request bodies encoded by the real schemas: what a
cluster the suite did not start may be sent (the runs through the recording proxy are in
tests/test_shared_cluster.py)."""
from __future__ import annotations

import uuid

import pytest

from fixtures import scope
from protocol import ConfigResourceType, OffsetSpec, codec, requests
from protocol.apis import ApiKey
from strategies import domain

P = "kac-abc123-"
OURS = P + "t-1"


def sendable(body_by_version, api_key, version):
    body = body_by_version
    codec.encode_request(api_key, version, body, 1)     # the body is a real request at that version
    return body


@pytest.mark.parametrize("api_key,version,body", [
    (ApiKey.CreateTopics, 4, requests.create_topics(4, [requests.topic("")], timeout_ms=1, validate_only=True)),
    (ApiKey.DeleteTopics, 3, requests.delete_topics(3, [OURS, ".."], timeout_ms=1)),
    (ApiKey.DeleteTopics, 6, requests.delete_topics(6, ["precious"], timeout_ms=1)),
    (ApiKey.DeleteRecords, 2, requests.delete_records(2, [("precious", [(0, -1)])], timeout_ms=1)),
    (ApiKey.CreatePartitions, 3, requests.create_partitions(3, [("precious", 3)], timeout_ms=1, validate_only=True)),
    (ApiKey.DescribeConfigs, 4, requests.describe_configs(4, [("precious", None)])),
    (ApiKey.IncrementalAlterConfigs, 1, requests.incremental_alter_configs(1, [(".", [])], validate_only=True)),
    (ApiKey.AlterConfigs, 2, requests.alter_configs(2, [("x", [])], validate_only=True)),
    (ApiKey.Metadata, 12, requests.metadata(12, ["precious"])),
    (ApiKey.ListOffsets, 5, {"replica_id": -1, "isolation_level": 0, "topics": [{"name": "precious", "partitions": [
        {"partition_index": 0, "current_leader_epoch": -1, "timestamp": OffsetSpec.LATEST}]}]}),
    (ApiKey.Fetch, 12, {"replica_id": -1, "max_wait_ms": 0, "min_bytes": 0, "max_bytes": 1, "isolation_level": 0,
             "session_id": 0, "session_epoch": -1, "topics": [], "forgotten_topics_data": [
                 {"topic": "precious", "partitions": [0]}], "rack_id": ""}),
    (ApiKey.Produce, 8, {"transactional_id": None, "acks": -1, "timeout_ms": 1, "topic_data": [
        {"name": "precious", "partition_data": []}]}),
])
def test_a_name_outside_the_prefix_is_refused_even_with_consent(api_key, version, body):
    sendable(body, api_key, version)
    why = scope.refusal(api_key, version, body, P, allow_destructive=True, existing=lambda: {"precious"})
    assert why and "outside the run prefix" in why, why


def test_prefixed_names_pass_with_consent_and_other_resource_types_are_not_topics():
    topic = requests.describe_configs(4, [(OURS, None)])
    broker = requests.describe_configs(4, [("0", None)], resource_type=ConfigResourceType.BROKER)
    body = {**topic, "resources": topic["resources"] + broker["resources"]}
    assert scope.refusal(ApiKey.DescribeConfigs, 4, body, P, allow_destructive=False) is None
    body = requests.delete_topics(3, [OURS], timeout_ms=1)
    assert scope.refusal(ApiKey.DeleteTopics, 3, body, P, allow_destructive=True) is None


def test_a_producer_that_is_not_transactional_names_no_transaction():
    """A null transactional id is a plain producer (ProduceRequest.json): producing to a run
    topic goes out with consent; a transactional id outside the prefix does not."""
    plain = {"transactional_id": None, "acks": -1, "timeout_ms": 1, "topic_data": [
        {"name": OURS, "partition_data": []}]}
    sendable(plain, ApiKey.Produce, 8)
    assert scope.refusal(ApiKey.Produce, 8, plain, P, allow_destructive=True) is None
    theirs = {**plain, "transactional_id": "their-txn"}
    assert "outside the run prefix" in scope.refusal(ApiKey.Produce, 8, theirs, P, allow_destructive=True)


@pytest.mark.parametrize("api_key", sorted(scope.MUTATING))
def test_without_consent_nothing_that_changes_goes_out(api_key):
    why = scope.refusal(api_key, 0, {}, P, allow_destructive=False)
    assert why and "--allow-destructive" in why


def test_metadata_that_could_auto_create_needs_consent():
    md = ApiKey.Metadata
    auto = requests.metadata(4, [OURS], allow_auto_topic_creation=True)
    assert "allow_auto_topic_creation=true" in scope.refusal(md, 4, auto, P, False)
    assert scope.refusal(md, 4, requests.metadata(4, [OURS]), P, False) is None
    # v0-v3 cannot say no: only names that exist
    named = requests.metadata(3, [OURS])
    assert "does not exist" in scope.refusal(md, 3, named, P, False, existing=lambda: set())
    assert scope.refusal(md, 3, named, P, False, existing=lambda: {OURS}) is None
    assert scope.refusal(md, 3, named, P, True, existing=lambda: set()) is None
    assert scope.refusal(md, 1, requests.metadata(1), P, False) is None      # all topics: creates nothing


def test_a_topic_id_of_another_topic_is_refused():
    theirs, mine = uuid.uuid4(), uuid.uuid4()
    dt = ApiKey.DeleteTopics
    body = requests.delete_topics(6, ids=[theirs], timeout_ms=1)
    assert "belongs to a topic outside" in scope.refusal(dt, 6, body, P, True, ids_of=lambda: {theirs: "precious"})
    assert "belongs to a topic outside" in scope.refusal(dt, 6, body, P, True, foreign_ids={theirs})
    ok = requests.delete_topics(6, ids=[mine], timeout_ms=1)
    assert scope.refusal(dt, 6, ok, P, True, ids_of=lambda: {theirs: "precious", mine: OURS}) is None
    seen = {"topics": [{"name": "precious", "topic_id": theirs}, {"name": OURS, "topic_id": mine}]}
    assert scope.foreign_ids_in(ApiKey.Metadata, seen, P) == {theirs}


def test_invalid_names_for_an_external_cluster_all_carry_the_prefix():
    from hypothesis import given, settings

    @settings(max_examples=200, database=None)
    @given(domain.invalid_topic_names(P, labelled=True, prefixed_only=True))
    def check(rn):
        assert rn[1].startswith(P) and rn[0] in ("too long", "illegal character")
    check()


@pytest.mark.parametrize("prefix,ok", [("kac-3f2a1c-", True), ("kac-", False), ("kac-zzzzzz-", False),
                                       ("precious", False), ("kac-3f2a1c", False), ("", False)])
def test_only_the_suites_run_prefixes_can_be_swept(prefix, ok):
    assert bool(scope.PREFIX_FORM.match(prefix)) == ok
    if not ok:
        assert "refused" in scope.sweep("127.0.0.1", 1, prefix)["error"]


# -- names other than topics' (groups, principals, users, quota entities, nodes, features) ----

ACL_FILTER = {"resource_type_filter": 2, "resource_name_filter": None, "pattern_type_filter": 3, "host_filter": None,
              "operation": 3, "permission_type": 3}


@pytest.mark.parametrize("api_key,version,body,why", [
    (ApiKey.DescribeGroups, 5, {"groups": ["theirs"], "include_authorized_operations": False}, "group 'theirs'"),
    (ApiKey.DeleteGroups, 3, {"groups_names": [P + "g", "theirs"]}, "group 'theirs'"),
    (ApiKey.OffsetCommit, 9, {"group_id": "theirs", "generation_id_or_member_epoch": -1, "member_id": "",
                              "group_instance_id": None, "topics": []}, "group 'theirs'"),
    (ApiKey.DeleteAcls, 3, {"filters": [{**ACL_FILTER, "principal_filter": None}]}, "every principal (null)"),
    (ApiKey.DeleteAcls, 3, {"filters": [{**ACL_FILTER, "principal_filter": "User:alice"}]}, "principal 'User:alice'"),
    (ApiKey.DeleteAcls, 3, {"filters": [{**ACL_FILTER, "principal_filter": "User:" + P + "u", "pattern_type_filter": 2,
                                         "resource_name_filter": "theirs"}]}, "ACL resource 'theirs'"),
    (ApiKey.CreateAcls, 3, {"creations": [{"resource_type": 4, "resource_name": "kafka-cluster", "resource_pattern_type": 3,
                                           "principal": "User:" + P + "u", "host": "*", "operation": 2,
                                           "permission_type": 3}]}, "ACL resource 'kafka-cluster'"),
    (ApiKey.AlterClientQuotas, 1, {"entries": [{"entity": [{"entity_type": "user", "entity_name": None}], "ops": []}],
                                   "validate_only": False}, "every quota entity (null)"),
    (ApiKey.AlterUserScramCredentials, 0, {"deletions": [{"name": "admin", "mechanism": 1}], "upsertions": []},
     "user 'admin'"),
    (ApiKey.UnregisterBroker, 0, {"broker_id": 1}, "node 1"),
    (ApiKey.RemoveRaftVoter, 0, {"cluster_id": None, "voter_id": 0, "voter_directory_id": uuid.uuid4()}, "node 0"),
    (ApiKey.UpdateFeatures, 0, {"timeout_ms": 1, "feature_updates": [{"feature": "metadata.version",
                                                                      "max_version_level": 1, "allow_downgrade": True}]},
     "feature 'metadata.version'"),
    (ApiKey.AlterReplicaLogDirs, 2, {"dirs": [{"path": "/var/kafka", "topics": []}]}, "log dir '/var/kafka'"),
    (ApiKey.IncrementalAlterConfigs, 1, requests.incremental_alter_configs(
        1, [("0", [])], resource_type=ConfigResourceType.BROKER), "node '0'"),
    (ApiKey.CreateDelegationToken, 2, {"renewers": [], "max_lifetime_ms": -1}, "names no user of the run"),
])
def test_every_kind_of_name_stays_in_the_run_even_with_consent(api_key, version, body, why):
    sendable(body, api_key, version)
    got = scope.refusal(api_key, version, body, P, allow_destructive=True)
    assert got and why in got and "not sent to an external cluster" in got, got


def test_what_the_run_may_name_passes():
    ours = "User:" + P + "u"
    cases = [
        (ApiKey.DescribeAcls, 3, {**ACL_FILTER, "principal_filter": None}),          # reading every ACL
        (ApiKey.DeleteAcls, 3, {"filters": [{**ACL_FILTER, "principal_filter": ours}]}),   # any resource of ours
        (ApiKey.DeleteAcls, 3, {"filters": [{**ACL_FILTER, "principal_filter": ours, "pattern_type_filter": 2,
                                             "resource_name_filter": P + "acl-1-a"}]}),   # MATCH: L2's filters
        (ApiKey.UnregisterBroker, 0, {"broker_id": 1 << 30}),
        (ApiKey.UpdateFeatures, 1, {"timeout_ms": 1, "feature_updates": [
            {"feature": "metadata.version", "max_version_level": 1, "upgrade_type": 1}], "validate_only": True}),
        (ApiKey.DescribeConfigs, 4, requests.describe_configs(4, [("0", None)], resource_type=ConfigResourceType.BROKER)),
        (ApiKey.DeleteGroups, 3, {"groups_names": [P + "g"]}),
        (ApiKey.CreateDelegationToken, 2, {"renewers": [{"principal_type": "User", "principal_name": P + "u"}],
                                           "max_lifetime_ms": -1}),
    ]
    for api_key, version, body in cases:
        sendable(body, api_key, version)
        assert scope.refusal(api_key, version, body, P, allow_destructive=True) is None, (api_key, body)


def test_what_the_cluster_could_not_remove_is_not_created():
    """tansu serves CreateAcls but no DeleteAcls: the run's ACLs could not be removed at its end."""
    served = {ApiKey.CreateAcls: (0, 3), ApiKey.DescribeAcls: (0, 3)}.get
    creation = {"creations": [{"resource_type": 2, "resource_name": P + "t", "resource_pattern_type": 3,
                               "principal": "User:" + P + "u", "host": "*", "operation": 3, "permission_type": 3}]}
    why = scope.refusal(ApiKey.CreateAcls, 3, creation, P, True, advertised=served)
    assert why and "does not serve DeleteAcls" in why, why
    served = {ApiKey.CreateAcls: (0, 3), ApiKey.DescribeAcls: (0, 3), ApiKey.DeleteAcls: (0, 3)}.get
    assert scope.refusal(ApiKey.CreateAcls, 3, creation, P, True, advertised=served) is None


def test_a_null_array_of_topic_names_names_no_topic():
    """A share member's leave (ShareGroupHeartbeat epoch -1, subscribed_topic_names null) goes
    out with the run's group: it names no topic. Refusing it left the member joined and its
    group undeletable on an external cluster until the session expired (seen on kafka:4.4.0
    as bootstrap:, 2026-11-27). A subscription naming a topic outside the run is refused."""
    leave = requests.share_group_heartbeat(1, P + "g", "m", -1, None)
    assert scope.refusal(ApiKey.ShareGroupHeartbeat, 1, leave, P, True) is None
    join = requests.share_group_heartbeat(1, P + "g", "m", 0, ["someone-elses"])
    assert "outside the run prefix" in scope.refusal(ApiKey.ShareGroupHeartbeat, 1, join, P, True)
    assert scope.refusal(ApiKey.ShareGroupHeartbeat, 1, requests.share_group_heartbeat(1, P + "g", "m", 0, [P + "t"]),
                         P, True) is None
