"""Y1-Y2: the admin APIs of share groups (KIP-932 "Queues for Kafka") and streams groups
(KIP-1071 "Streams Rebalance Protocol") asked of groups they do not describe: groups never
made and a classic group (made empty by an OffsetCommit with no member, as G1 makes one,
``conformance/test_groups.py``), against Kafka's group coordinator.

The letter Y: G (groups) is taken; share and streams groups are the newer group types.

* Y1: ShareGroupDescribe and StreamsGroupDescribe of a batch of groups, some never made and
  some classic, answer one entry per group, each alone: GROUP_ID_NOT_FOUND with no member
  for an unknown group and for a group of another type alike (KIP-1043 "Administration of
  groups": a group of another type is not found by a type's describe).
  ``GroupMetadataManager.shareGroupDescribe`` / ``streamsGroupDescribe`` answer
  GROUP_ID_NOT_FOUND where ``shareGroup`` / ``streamsGroup`` throws
  ``GroupIdNotFoundException`` ("Group %s not found." / "Group %s is not a share group.").
* Y2: the share group offsets APIs of a group never made and of a classic group, as
  kafka:4.4.0 answers them (measured: the newer GroupCoordinatorService decides, and the
  answers differ per API): DeleteShareGroupOffsets answers GROUP_ID_NOT_FOUND for both, with
  no topic; AlterShareGroupOffsets answers the classic group GROUP_ID_NOT_FOUND and alters
  nothing, and makes an unknown group a share group (NONE for each partition; ShareGroupDescribe
  then describes it Empty, with no member); DescribeShareGroupOffsets answers either group
  NONE, each partition asked NONE with start offset -1 (no share-partition state: the
  coordinator does not check the group's type there).

* Y3: the start offsets AlterShareGroupOffsets sets for an empty share group (made by that
  Alter, as Y2 shows) are what DescribeShareGroupOffsets gives back, partition by partition
  (each within the partition's log, 0 to its end offset); DeleteShareGroupOffsets of the topic
  answers NONE for it and DescribeShareGroupOffsets then gives start offset -1 again
  (``GroupCoordinatorService.alterShareGroupOffsets``, ``describeShareGroupOffsets``,
  ``deleteShareGroupOffsets``, the share coordinator's ``ShareCoordinatorShard``; measured on
  kafka:4.4.0).
* Y4: a share group made over the wire (ShareGroupHeartbeat, member epoch 0, a subscription
  to a fresh topic, as a share consumer joins) is described by ShareGroupDescribe with exactly
  that member (its member id, epoch the heartbeat answered) and subscribed topic; the member
  leaves (epoch -1) when the example ends (``GroupMetadataManager.shareGroupHeartbeat``,
  ``shareGroupDescribe``, ``ShareGroup.asDescribedGroup``).

Every group is run-prefixed (``check.topic``) and deleted (DeleteGroups) when its example ends.
"""
from __future__ import annotations

import uuid

import pytest

from fixtures.harness import Unsupported
from fixtures.waiting import VISIBLE_S
from protocol import ApiKey, Errors
from protocol import requests as build
from strategies import groups as gen

from . import capabilities
from .parametrize import every_version
from .group_client import TRANSIENT, Groups
from .test_groups import _made, groups_on_a_fresh_topic
from protocol.kafka_sources import KAFKA as K

COORD = K + "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/"
MSG = K + "clients/src/main/resources/common/message/"
KIPS = ("KIP-932 \"Queues for Kafka\"; KIP-1071 \"Streams Rebalance Protocol\"; KIP-1043 \"Administration of "
        "groups\"")
Y1_SOURCE = (KIPS + "; " + COORD + "GroupMetadataManager.java (shareGroupDescribe, streamsGroupDescribe, "
             "shareGroup, streamsGroup: GroupIdNotFoundException); " + MSG + "ShareGroupDescribeResponse.json, "
             + MSG + "StreamsGroupDescribeResponse.json (GROUP_ID_NOT_FOUND)")
Y2_SOURCE = (KIPS + "; " + COORD + "GroupCoordinatorService.java (describeShareGroupOffsets, "
             "alterShareGroupOffsets, deleteShareGroupOffsets); " + COORD + "GroupMetadataManager.java "
             "(shareGroup); " + MSG + "DescribeShareGroupOffsetsResponse.json, " + MSG
             + "AlterShareGroupOffsetsResponse.json, " + MSG + "DeleteShareGroupOffsetsResponse.json; measured on "
             "kafka:4.4.0")
Y3_SOURCE = (KIPS + "; " + COORD + "GroupCoordinatorService.java (alterShareGroupOffsets, describeShareGroupOffsets, "
             "deleteShareGroupOffsets); " + K + "share-coordinator/src/main/java/org/apache/kafka/coordinator/share/"
             "ShareCoordinatorShard.java; measured on kafka:4.4.0")
Y4_SOURCE = (KIPS + "; " + COORD + "GroupMetadataManager.java (shareGroupHeartbeat, shareGroupDescribe); "
             + COORD + "modern/share/ShareGroup.java (asDescribedGroup); " + MSG + "ShareGroupHeartbeatRequest.json, "
             + MSG + "ShareGroupDescribeResponse.json")

#: what DescribeShareGroupOffsets answers for a partition without share-partition state
NO_START_OFFSET = -1
#: the state of a share group with no member (ShareGroup.ShareGroupState)
EMPTY = "Empty"
DESCRIBES = (ApiKey.ShareGroupDescribe, ApiKey.StreamsGroupDescribe)
OFFSETS = (ApiKey.DescribeShareGroupOffsets, ApiKey.AlterShareGroupOffsets, ApiKey.DeleteShareGroupOffsets)
def _share_groups_on(check, api_key: int) -> None:
    """Unsupported, saying why, where the broker's finalized features show share groups off
    (``capabilities.share_groups_off``); StreamsGroupDescribe is not theirs."""
    why = None if api_key == ApiKey.StreamsGroupDescribe else capabilities.share_groups_off(check)
    if why:
        raise Unsupported(f"share groups are off on this broker: {why}")


def _describe(api_key: int, v: int, names: list[str]) -> dict:
    if api_key == ApiKey.ShareGroupDescribe:
        return build.share_group_describe(v, names)
    return build.streams_group_describe(v, names)


def _on_a_fresh_topic(check, api_key: int, version: int, hint: str) -> tuple[Groups, str, str]:
    """Unsupported unless the broker advertises ``api_key`` at ``version`` with share groups
    on; the check's Groups, a fresh topic it created, and the API's name at the version."""
    check.require(api_key, version)
    _share_groups_on(check, api_key)
    return (*groups_on_a_fresh_topic(check, hint), f"{ApiKey(api_key).name} v{version}")


def _made_as(known: bool) -> str:
    """How a group of a Y1/Y2 batch was made."""
    return "a classic group (OffsetCommit, no member)" if known else "never made"


#: where an AlterShareGroupOffsets answer carries its partitions' codes
ALTERED = ["responses", "partitions", "error_code"]


def _asked(check, g: Groups, client, api_key: int, v: int, body: dict, path: list) -> None:
    """Send; while the coordinator is loading or moving (``TRANSIENT`` at ``path``), again;
    an AlterShareGroupOffsets also while a partition answers UNKNOWN_TOPIC_OR_PARTITION (the
    coordinator does not know the topic just made yet: measured on kafka:4.4.0)."""
    client.answered(api_key, v, body)
    check.expect_field(path, refused=sorted(TRANSIENT), setup=True, retry_s=VISIBLE_S,
                       says=f"setup: the coordinator is ready for {ApiKey(api_key).name} v{v}")
    if api_key == ApiKey.AlterShareGroupOffsets:
        check.expect_field(ALTERED, refused=[Errors.UNKNOWN_TOPIC_OR_PARTITION], setup=True, retry_s=VISIBLE_S,
                           says=f"setup: the coordinator knows the topic of AlterShareGroupOffsets v{v}")


@pytest.mark.prop("Y1", source=Y1_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version(DESCRIBES))
def test_y1_share_and_streams_describe_answer_unknown_and_other_type_groups_not_found_alone(check, api_key,
                                                                                           version):
    """ShareGroupDescribe / StreamsGroupDescribe at this version of a drawn batch of groups,
    some made classic and empty by an OffsetCommit (no member) and some never made, in a
    drawn order: one entry per group, each GROUP_ID_NOT_FOUND with no member, the unknown ones
    and the classic ones alike (``GroupMetadataManager.shareGroupDescribe`` /
    ``streamsGroupDescribe``)."""
    g, topic, name = _on_a_fresh_topic(check, api_key, version, "yd")

    def judged(kinds):
        names, model = _made(check, g, list(kinds), topic)
        try:
            for client, batch in g.by_coordinator(names):
                _asked(check, g, client, api_key, version, _describe(api_key, version, batch), ["groups", "error_code"])
                check.expect_field(["groups", "group_id"], count=len(batch),
                                   says=f"{name}: one entry per group asked ({len(batch)})")
                for group in batch:
                    why = _made_as(group in model.held)
                    at = ["groups", {"group_id": group}]
                    check.expect_field([*at, "error_code"], [Errors.GROUP_ID_NOT_FOUND], count=1,
                                       says=f"{name} of {group!r}, {why}: GROUP_ID_NOT_FOUND, whatever the others are")
                    check.expect_field([*at, "members", "member_id"], count=0,
                                       says=f"{name}: {group!r} lists no member")
        finally:
            g.forget([n for n in names if n in model.held])

    check.given(gen.batch(), judged, first=["unknown", "known", "unknown"])


@pytest.mark.prop("Y2", source=Y2_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version(OFFSETS))
def test_y2_share_group_offsets_of_an_unknown_or_classic_group_answer_as_kafka_does(check, api_key, version):
    """The share group offsets API at this version, of a group never made or of a classic
    group made empty by an OffsetCommit (drawn), for partition 0 of a fresh topic:
    DeleteShareGroupOffsets answers GROUP_ID_NOT_FOUND and no topic for either;
    AlterShareGroupOffsets (start offset 0) answers the classic group GROUP_ID_NOT_FOUND and no
    topic, and an unknown group NONE for the partition, after which ShareGroupDescribe
    describes that group Empty with no member; DescribeShareGroupOffsets answers the group
    NONE and the partition NONE with start offset -1 (no share-partition state)."""
    g, topic, name = _on_a_fresh_topic(check, api_key, version, "yo")

    def judged(kind):
        names, model = _made(check, g, [kind], topic)
        group = names[0]
        why = _made_as(kind == "known")
        try:
            client = g.client(group)
            if api_key == ApiKey.DescribeShareGroupOffsets:
                _asked(check, g, client, api_key, version,
                       build.describe_share_group_offsets(version, group, [(topic, [0])]), ["groups", "error_code"])
                at = ["groups", {"group_id": group}]
                check.expect_field([*at, "error_code"], [Errors.NONE], count=1,
                                   says=f"{name} of {group!r}, {why}: NONE")
                part = [*at, "topics", {"topic_name": topic}, "partitions", {"partition_index": 0}]
                check.expect_field([*part, "error_code"], [Errors.NONE], count=1, says=f"{name}: {topic}-0 NONE")
                check.expect_field([*part, "start_offset"], [NO_START_OFFSET], count=1,
                                   says=f"{name}: {topic}-0 of {group!r}, {why}, has no share-partition state: "
                                        f"start offset {NO_START_OFFSET}")
                return
            if api_key == ApiKey.DeleteShareGroupOffsets:
                body = build.delete_share_group_offsets(version, group, [topic])
            else:
                body = build.alter_share_group_offsets(version, group, [(topic, [(0, 0)])])
            _asked(check, g, client, api_key, version, body, ["error_code"])
            if api_key == ApiKey.AlterShareGroupOffsets and kind == "unknown":
                check.expect_field(["error_code"], [Errors.NONE], says=f"{name} of {group!r}, {why}: NONE")
                check.expect_field(["responses", {"topic_name": topic}, "partitions", "error_code"], [Errors.NONE],
                                   count=1, says=f"{name}: {topic}-0 NONE")
                dv = g.admin.version(ApiKey.ShareGroupDescribe)
                _asked(check, g, client, ApiKey.ShareGroupDescribe, dv, build.share_group_describe(dv, [group]),
                       ["groups", "error_code"])
                at = ["groups", {"group_id": group}]
                check.expect_field([*at, "error_code"], [Errors.NONE], count=1,
                                   says=f"ShareGroupDescribe v{dv}: {group!r}, made by {name}, is a share group: NONE")
                check.expect_field([*at, "group_state"], [EMPTY], count=1, says=f"ShareGroupDescribe: {group!r} Empty")
                check.expect_field([*at, "members", "member_id"], count=0, says=f"ShareGroupDescribe: no member")
                return
            check.expect_field(["error_code"], [Errors.GROUP_ID_NOT_FOUND],
                               says=f"{name} of {group!r}, {why}: GROUP_ID_NOT_FOUND")
            check.expect_field(["responses", "topic_name"], count=0, says=f"{name} of {group!r}: no topic answered")
        finally:
            g.forget(names)

    check.given(gen.kind(), judged, first="unknown")


@pytest.mark.prop("Y3", source=Y3_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version(OFFSETS))
def test_y3_share_group_start_offsets_altered_are_described_back_and_deleted(check, api_key, version):
    """For a fresh topic of 1-2 partitions (none above 1: a known deviation's shape), each
    with drawn records produced, and a fresh
    group: AlterShareGroupOffsets of a drawn start offset per partition (0 to the partition's
    end offset) answers NONE per partition; DescribeShareGroupOffsets of the topic gives each
    partition back exactly its start offset; DeleteShareGroupOffsets of the topic answers NONE
    (top level and topic); DescribeShareGroupOffsets then gives each partition start offset -1.
    The API of this cell at this version, the other two at the newest the broker advertises."""
    check.require(api_key, version)
    for other in OFFSETS:
        check.require(other)
    _share_groups_on(check, api_key)
    g = Groups(check)
    v = {k: version if k == api_key else g.admin.version(k) for k in OFFSETS}
    dv, av = v[ApiKey.DescribeShareGroupOffsets], v[ApiKey.AlterShareGroupOffsets]
    xv = v[ApiKey.DeleteShareGroupOffsets]

    def described(client, group, topic, starts, says):
        _asked(check, g, client, ApiKey.DescribeShareGroupOffsets, dv,
               build.describe_share_group_offsets(dv, group, [(topic, list(range(len(starts))))]),
               ["groups", "error_code"])
        at = ["groups", {"group_id": group}]
        check.expect_field([*at, "error_code"], [Errors.NONE], count=1, says=f"{says}: {group!r} NONE")
        for p, o in enumerate(starts):
            part = [*at, "topics", {"topic_name": topic}, "partitions", {"partition_index": p}]
            check.expect_field([*part, "error_code"], [Errors.NONE], count=1, says=f"{says}: {topic}-{p} NONE")
            check.expect_field([*part, "start_offset"], [o], count=1, says=f"{says}: {topic}-{p} start offset {o}")

    def judged(parts):
        topic, group = check.topic("ys"), check.topic("ys-g")
        g.admin.create_topic(topic, len(parts))
        for p, (records, _) in enumerate(parts):
            if records:
                g.admin.produce(topic, p, records)
        starts = [min(at, records) for records, at in parts]
        try:
            client = g.client(group)
            _asked(check, g, client, ApiKey.AlterShareGroupOffsets, av, build.alter_share_group_offsets(
                av, group, [(topic, list(enumerate(starts)))]), ["error_code"])
            check.expect_field(["error_code"], [Errors.NONE], says=f"AlterShareGroupOffsets v{av} of {group!r}: NONE")
            check.expect_field(["responses", {"topic_name": topic}, "partitions", "error_code"], [Errors.NONE],
                               count=len(starts), says=f"AlterShareGroupOffsets v{av}: each partition NONE")
            described(client, group, topic, starts, f"DescribeShareGroupOffsets v{dv} after the Alter of {starts}")
            _asked(check, g, client, ApiKey.DeleteShareGroupOffsets, xv,
                   build.delete_share_group_offsets(xv, group, [topic]), ["error_code"])
            check.expect_field(["error_code"], [Errors.NONE], says=f"DeleteShareGroupOffsets v{xv} of {group!r}: NONE")
            check.expect_field(["responses", {"topic_name": topic}, "error_code"], [Errors.NONE], count=1,
                               says=f"DeleteShareGroupOffsets v{xv}: {topic} NONE")
            described(client, group, topic, [NO_START_OFFSET] * len(starts),
                      f"DescribeShareGroupOffsets v{dv} after the Delete")
        finally:
            g.forget([group])

    check.given(gen.share_starts(), judged, first=[(3, 1), (0, 0)])


@pytest.mark.prop("Y4", source=Y4_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.ShareGroupDescribe,)))
def test_y4_a_share_group_joined_over_the_wire_is_described_with_its_member(check, api_key, version):
    """ShareGroupHeartbeat (member epoch 0, a fresh member id, subscribed to a fresh topic of
    1-2 partitions) of a fresh group answers NONE with a member epoch above 0; then
    ShareGroupDescribe at this version describes the group NONE with exactly one member: that
    member id, that member epoch, the topic as its only subscribed topic. The member leaves
    (epoch -1) at the end."""
    check.require(api_key, version)
    check.require(ApiKey.ShareGroupHeartbeat)
    _share_groups_on(check, api_key)
    g = Groups(check)
    hv = g.admin.version(ApiKey.ShareGroupHeartbeat)

    def judged(partitions):
        topic, group = check.topic("ym"), check.topic("ym-g")
        member = str(uuid.uuid4())
        g.admin.create_topic(topic, partitions)
        client = g.client(group)
        joined = False
        try:
            _asked(check, g, client, ApiKey.ShareGroupHeartbeat, hv,
                   build.share_group_heartbeat(hv, group, member, 0, [topic]), ["error_code"])
            check.expect_field(["error_code"], [Errors.NONE], setup=True,
                               says=f"setup: ShareGroupHeartbeat v{hv} of {member} joining {group!r}: NONE")
            joined = True
            answer = check.answers[check.last_step].response or {}
            epoch = answer.get("member_epoch")
            check.expect_field(["member_epoch"], at_least=1, setup=True, says="setup: the member's epoch is above 0")
            _asked(check, g, client, api_key, version, build.share_group_describe(version, [group]),
                   ["groups", "error_code"])
            name, at = f"ShareGroupDescribe v{version}", ["groups", {"group_id": group}]
            check.expect_field([*at, "error_code"], [Errors.NONE], count=1, says=f"{name} of {group!r}: NONE")
            check.expect_field([*at, "members", "member_id"], [member], count=1,
                               says=f"{name}: exactly the member that joined ({member})")
            check.expect_field([*at, "members", "member_epoch"], [epoch], count=1,
                               says=f"{name}: the member's epoch, {epoch}, as the heartbeat answered")
            check.expect_field([*at, "members", "subscribed_topic_names"], [[topic]], count=1,
                               says=f"{name}: the member subscribes to {topic} only")
        finally:
            if joined:
                client.send(ApiKey.ShareGroupHeartbeat, hv, build.share_group_heartbeat(hv, group, member, -1, None))
            g.forget([group])

    check.given(gen.share_partitions(), judged, first=1)
