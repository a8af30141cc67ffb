"""The group properties' client of Kafka's group coordinator (G1-G6 and the share and
streams group properties): each group's coordinator found with FindCoordinator, a request
asked again while its coordinator loads or moves, and OffsetCommit / OffsetFetch /
DescribeGroups / DeleteGroups at a version, judged entry by entry.
"""
from __future__ import annotations

from fixtures.admin import Admin
from fixtures.harness import Unsupported, expect_setup
from fixtures.waiting import VISIBLE_S
from protocol import ApiKey, Errors, schema_facts
from protocol import requests as build
from reference.group_rules import BY_TOPIC_ID_FROM, FETCH_GROUPS_FROM, NO_OFFSET
from reference.modes import OFFSETS_V0_SERVED

#: what a coordinator answers while its partition of __consumer_offsets is made or loaded,
#: or moves (GroupCoordinatorService, CoordinatorRuntime): asked again (an OffsetCommit also
#: while the coordinator does not know a topic just made yet)
TRANSIENT = frozenset({int(Errors.COORDINATOR_LOAD_IN_PROGRESS), int(Errors.COORDINATOR_NOT_AVAILABLE),
                       int(Errors.NOT_COORDINATOR)})


def _fetch_has_top_error(v: int) -> bool:
    """Whether OffsetFetch's answer at ``v`` has a top-level error code (v2 to v7)."""
    return schema_facts.has_field(ApiKey.OffsetFetch, v, "error_code", side="response")


def _error_paths(api_key: int, v: int) -> list[list[str]]:
    """Where an answer of ``api_key`` at ``v`` carries error codes."""
    if api_key == ApiKey.OffsetCommit:
        return [["topics", "partitions", "error_code"]]
    if api_key == ApiKey.OffsetFetch:
        if v >= FETCH_GROUPS_FROM:
            return [["groups", "error_code"], ["groups", "topics", "partitions", "error_code"]]
        return ([["error_code"]] if _fetch_has_top_error(v) else []) + [["topics", "partitions", "error_code"]]
    if api_key in (ApiKey.DescribeGroups, ApiKey.ConsumerGroupDescribe):
        return [["groups", "error_code"]]
    if api_key == ApiKey.DeleteGroups:
        return [["results", "error_code"]]
    return [["error_code"]]       # ListGroups, OffsetDelete, JoinGroup, SyncGroup, ConsumerGroupHeartbeat


class Groups:
    """One check's view of the broker's groups: each group's coordinator and the group APIs."""

    def __init__(self, check):
        for api_key in (ApiKey.OffsetCommit, ApiKey.OffsetFetch):
            check.require(api_key)
        check.require_mutations()
        self.check = check
        self.admin = Admin(check)
        self.cv = self.admin.version(ApiKey.OffsetCommit)
        self.fv = self.admin.version(ApiKey.OffsetFetch)
        self._clients: dict = {}

    # -- where a group's requests go -------------------------------------------------
    def client(self, group: str):
        """The group's coordinator's connection: the one FindCoordinator names (asked until
        it answers NONE; as for Kafka's clients, FindCoordinator is what makes
        ``__consumer_offsets`` on a new cluster), the check's own on a single broker."""
        v = self.admin.version(ApiKey.FindCoordinator)
        self.admin.client.answered(ApiKey.FindCoordinator, v, build.find_coordinator(v, group))
        batched = schema_facts.has_field(ApiKey.FindCoordinator, v, "coordinators", side="response")
        self.check.expect_field(["coordinators", "error_code"] if batched else ["error_code"], [Errors.NONE],
                                setup=True, retry_s=VISIBLE_S,
                                says=f"setup: FindCoordinator v{v} of {group!r} names its coordinator (NONE)")
        answer = self.check.answers[self.check.last_step].response or {}
        found = (answer.get("coordinators") or [{}])[0] if batched else answer
        node = (found["host"], found["port"])
        if node == self.admin.client.node or len(self.check.broker.addresses) == 1:
            return self.admin.client
        return self._clients.setdefault(node, self.check.client(node))

    def by_coordinator(self, groups: list[str]) -> list[tuple[object, list[str]]]:
        """``groups`` split by coordinator, in their order (one batch on a single broker)."""
        out: dict = {}
        for g in groups:
            c = self.client(g)
            out.setdefault(id(c), (c, []))[1].append(g)
        return list(out.values())

    def answered(self, client, api_key: int, v: int, body: dict, waits: frozenset = TRANSIENT,
                 ids: dict | None = None) -> dict:
        """Send the request (naming the topics of ``ids`` by those ids); while any of its
        codes is one of ``waits`` (the coordinator loading or moving), send it again, for up
        to ``VISIBLE_S`` (a set-up poll a reproducer repeats); the last answer."""
        client.answered(api_key, v, body)
        for topic, topic_id in (ids or {}).items():
            self.check.expect_id_of(topic, topic_id)
        for path in _error_paths(api_key, v):
            self.check.expect_field(path, refused=sorted(waits), setup=True, retry_s=VISIBLE_S,
                                    says=f"setup: the coordinator is ready for {ApiKey(api_key).name} v{v} (none "
                                         f"of {sorted(waits)} at {'.'.join(path)})")
        return self.check.answers[self.check.last_step].response or {}

    # -- topics -------------------------------------------------------------------------
    def topics(self, counts: dict[str, int], versions: tuple[int, ...]) -> dict:
        """Create the topics of ``counts``; their ids when a version names topics by id."""
        for name, n in counts.items():
            self.admin.create_topic(name, n)
        if max(versions) < BY_TOPIC_ID_FROM:
            return {}
        ids = {n: t.topic_id for n, t in self.admin.metadata(list(counts), version=None).items()}
        expect_setup(all(ids.get(n) for n in counts), f"setup: Metadata gives no topic id for some of {sorted(counts)}")
        return ids

    # -- the APIs -------------------------------------------------------------------------
    def commit(self, client, group: str, offsets: dict, ids: dict, v: int | None = None, setup: bool = False,
               says: str = "") -> None:
        """OffsetCommit of ``offsets`` ({(topic, partition): (offset, metadata)}) for ``group``;
        every partition answers NONE."""
        v = self._by_name(self.cv, ids) if v is None else v
        per: dict[str, list] = {}
        for (t, p), (o, m) in offsets.items():
            per.setdefault(t, []).append((p, o, m))
        resp = self.answered(client, ApiKey.OffsetCommit, v, build.offset_commit(v, group, per.items(), ids=ids),
                             waits=TRANSIENT | {int(Errors.UNKNOWN_TOPIC_OR_PARTITION)},
                             ids={t: ids[t] for t in per} if v >= BY_TOPIC_ID_FROM else None)
        codes = {p.get("error_code") for t in resp.get("topics") or [] for p in t.get("partitions") or []}
        if v == 0 and not OFFSETS_V0_SERVED.now() and codes == {Errors.UNSUPPORTED_VERSION}:
            raise Unsupported("OffsetCommit v0 keeps offsets in ZooKeeper; the broker answers UNSUPPORTED_VERSION, "
                              "as a KRaft Kafka 3.x does (reference/modes.py OFFSETS_V0_SERVED)")
        for (t, p) in offsets:
            self.check.expect_field([*self._topic(["topics"], t, ids, v), "partitions", {"partition_index": p},
                                     "error_code"], [Errors.NONE], count=1, setup=setup,
                                    says=f"{says}OffsetCommit v{v} of {t}-{p} for {group!r}, a simple group "
                                         "(generation -1, no member): NONE")

    @staticmethod
    def _by_name(newest: int, ids: dict) -> int:
        """The newest version, or without topic ids the newest that names topics by name."""
        return newest if ids else min(newest, BY_TOPIC_ID_FROM - 1)

    @staticmethod
    def _topic(at: list, t: str, ids: dict, v: int) -> list:
        return [*at, {"topic_id": ids[t]} if v >= BY_TOPIC_ID_FROM else {"name": t}]

    def fetch(self, client, group: str, expected: dict, ids: dict, v: int | None = None, says: str = "",
              uncommitted: int = Errors.NONE) -> None:
        """OffsetFetch of ``group`` for the partitions of ``expected`` ({(topic, partition):
        (offset, metadata)}); each answers NONE with exactly that offset and metadata (a
        partition with nothing committed: ``uncommitted``, NONE but for v0 in ZooKeeper mode)."""
        v = self._by_name(self.fv, ids) if v is None else v
        per: dict[str, list] = {}
        for (t, p) in expected:
            per.setdefault(t, []).append(p)
        self.answered(client, ApiKey.OffsetFetch, v, build.offset_fetch(v, group, per.items(), ids=ids),
                      ids={t: ids[t] for t in per} if v >= BY_TOPIC_ID_FROM else None)
        c = self.check
        top = ["groups", {"group_id": group}] if v >= FETCH_GROUPS_FROM else []
        if v >= FETCH_GROUPS_FROM:
            c.expect_field([*top, "error_code"], [Errors.NONE], count=1, says=f"{says}{group!r} answers NONE, once")
        elif _fetch_has_top_error(v):
            c.expect_field(["error_code"], [Errors.NONE], says=f"{says}OffsetFetch v{v} of {group!r}: NONE")
        c.expect_field([*top, "topics", "partitions", "partition_index"], count=len(expected),
                       says=f"{says}one entry per partition asked ({len(expected)})")
        for (t, p), (o, m) in expected.items():
            at = [*self._topic([*top, "topics"], t, ids, v), "partitions", {"partition_index": p}]
            what = f"committed {o} with metadata {m!r}" if o != NO_OFFSET else "holds no offset: -1 and metadata ''"
            code = Errors.NONE if o != NO_OFFSET else uncommitted
            c.expect_field([*at, "error_code"], [code], count=1, says=f"{says}{t}-{p}: {int(code)} {code.name}")
            c.expect_field([*at, "committed_offset"], [o], count=1, says=f"{says}{t}-{p} {what}")
            c.expect_field([*at, "metadata"], [m], count=1, says=f"{says}{t}-{p} {what}")

    def describe(self, client, groups: list[str], v: int | None = None) -> dict:
        v = self.admin.version(ApiKey.DescribeGroups) if v is None else v
        return self.answered(client, ApiKey.DescribeGroups, v, build.describe_groups(v, groups))

    def forget(self, groups: list[str]) -> None:
        """Delete the example's groups (unjudged), so nothing of it outlives it."""
        if self.check.broker.advertised(ApiKey.DeleteGroups) is None:
            return
        v = self.admin.version(ApiKey.DeleteGroups)
        for client, names in self.by_coordinator(groups):
            client.send(ApiKey.DeleteGroups, v, build.delete_groups(v, names))
