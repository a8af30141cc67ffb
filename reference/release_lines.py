"""Kafka release lines, and the reference rules that changed between them.

The suite's expectations follow the release line of the broker under check: a Kafka 3.9
cluster (still widely run) accepts ``segment.bytes=14`` and serves CreateTopics v0, while
4.0 raised the floor to 1 MiB (KIP-1030) and removed old request versions (KIP-896).

Which line a broker follows:

* ``kafka:VERSION`` and ``kafka-dist:PATH`` know their version (``BrokerInfo.version``);
* any other broker follows ``--kafka-release X.Y`` (default: :data:`NEWEST`, the newest
  line the suite knows), since tansu, noida-db or Redpanda claim no Kafka version.

The line is recorded per broker in the manifest (``kafka_release``) and set for the
duration of each check (:func:`use`), so that a rule's value (:meth:`Rule.now`) is the one
of the broker being asked, also inside strategies drawn during the check. Checks run one
at a time in a process (a pytest-xdist worker is a process of its own).

So is the broker's metadata **mode**: ``kraft``, or ``zk`` for a 3.x Kafka that keeps its
metadata in ZooKeeper (``kafka:VERSION,mode=zk``; manifest ``brokers[].mode``). There the
admin requests take ``KafkaApis``' ZooKeeper branches and ``ZkAdminManager`` instead of
``ControllerApis`` and the quorum controller, and some rules differ: a rule states its
ZooKeeper-mode value beside its KRaft one (:attr:`Rule.zk`). Every broker other than a
ZooKeeper-mode Kafka follows KRaft's rules.

Removed request versions need no rule here: they follow the versions the broker
advertises in ApiVersions, which is how KIP-896 removed them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from protocol.errors import Errors

Line = tuple[int, int]
KRAFT, ZK = "kraft", "zk"
_SAME = object()        # a rule whose ZooKeeper-mode value is its KRaft one

#: The newest Apache Kafka line the suite's reference was checked against.
NEWEST: Line = (4, 4)
#: Lines the suite's reference covers (KRaft lines; 3.3 was the first production KRaft).
OLDEST: Line = (3, 3)


def parse_line(text: str) -> Line:
    """``"4.1"``, ``"4.1.0"`` or ``"3.9.2"`` -> ``(4, 1)``; ValueError otherwise."""
    m = re.fullmatch(r"(\d+)\.(\d+)(?:\.\d+)?(?:[-.\w]*)", text.strip())
    if not m:
        raise ValueError(f"{text!r} is not a Kafka release (write X.Y, e.g. 4.1)")
    return int(m.group(1)), int(m.group(2))


def line_text(line: Line) -> str:
    return f"{line[0]}.{line[1]}"


@dataclass(frozen=True)
class Rule:
    """One rule of the reference whose value changed at ``since`` (a release line), and,
    where ZooKeeper mode's code path differs, its value there (``zk``, with ``zk_source``).
    ``measured``: the releases (``kafka:VERSION[,mode=zk]``) the values were seen on."""
    name: str
    since: Line
    before: object
    after: object
    source: str
    zk: object = _SAME
    zk_source: str = ""
    measured: tuple[str, ...] = ()

    def at(self, line: Line, mode: str = KRAFT) -> object:
        if mode == ZK and self.zk is not _SAME:
            return self.zk
        return self.after if line >= self.since else self.before

    def now(self) -> object:
        """The value for the broker under check."""
        return self.at(_current, _mode)

    def holds_for(self) -> str:
        text = f"{line_text(self.since)} and later: {self.after!r}; before: {self.before!r}"
        return text + (f"; ZooKeeper mode: {self.zk!r}" if self.zk is not _SAME else "")


#: The topic config ``segment.bytes``'s lower bound: ``atLeast(1024 * 1024)`` since **4.1**,
#: ``atLeast(LegacyRecord.RECORD_OVERHEAD_V0)`` = 14 before. KIP-1030 is listed for 4.0, but
#: 4.0 raised only the broker config ``log.segment.bytes`` to 1 MiB; the topic config kept
#: 14 in 4.0.0-4.0.2 and got the 1 MiB floor in 4.1.0, together with the test-only
#: ``internal.segment.bytes``. Read in the released jars (``javap -c -constants
#: org.apache.kafka.storage.internals.log.LogConfig`` of kafka-storage 3.9.2, 4.0.0, 4.0.2,
#: 4.1.0, 4.4.0: ``define("segment.bytes", INT, 1073741824, atLeast(14 | 1048576), ...)``)
#: and seen on the brokers: kafka:4.0.0 accepts ``segment.bytes=1048575``, 4.1.0 refuses it.
SEGMENT_BYTES_MIN = Rule(
    "segment.bytes minimum", (4, 1), 14, 1 << 20,
    "KIP-1030 (topic config from 4.1.0); apache/kafka storage/src/main/java/org/apache/kafka/storage/"
    "internals/log/LogConfig.java CONFIG define(TopicConfig.SEGMENT_BYTES_CONFIG, INT, ..., atLeast(1024 * 1024)) "
    "in 4.1.0+, atLeast(LegacyRecord.RECORD_OVERHEAD_V0) = 14 in 3.x and 4.0.x (released jars)",
    measured=("kafka:3.9.2", "kafka:4.0.0", "kafka:4.0.1", "kafka:4.0.2", "kafka:4.1.0", "kafka:4.1.1", "kafka:4.1.2",
              "kafka:4.2.0", "kafka:4.2.1", "kafka:4.2.2", "kafka:4.3.0", "kafka:4.3.1", "kafka:4.4.0"))

#: CreateTopics of ``__cluster_metadata`` (KRaft's own log): INVALID_REQUEST "Creation of
#: internal topic __cluster_metadata is prohibited." since **3.9** (KAFKA-16975, apache/kafka
#: f595802cc75); before, the name was only left out of the authorized topics (KAFKA-14358,
#: 9b409de1e27, in 3.3.2 and 3.4.0), so it answered TOPIC_AUTHORIZATION_FAILED "Authorization
#: failed.". Both ``ControllerApis.createTopics`` and ``KafkaApis.handleCreateTopicsRequest``
#: (the ZooKeeper-mode path) changed together, so ZooKeeper mode follows the same lines.
CLUSTER_METADATA_CREATE_ERROR = Rule(
    "CreateTopics of __cluster_metadata answers", (3, 9), Errors.TOPIC_AUTHORIZATION_FAILED, Errors.INVALID_REQUEST,
    "KAFKA-16975 (apache/kafka f595802cc75, 3.9.0): core/src/main/scala/kafka/server/ControllerApis.scala "
    "createTopics and KafkaApis.scala handleCreateTopicsRequest answer INVALID_REQUEST 'Creation of internal "
    "topic __cluster_metadata is prohibited.'; before, KAFKA-14358 (9b409de1e27, 3.3.2 and 3.4.0) left the "
    "name out of the authorized topics: TOPIC_AUTHORIZATION_FAILED 'Authorization failed.'",
    measured=tuple(f"kafka:{v}" for v in ("3.3.2", "3.4.1", "3.5.2", "3.6.2", "3.7.2", "3.8.1", "3.9.2", "4.0.2",
                                          "4.1.2", "4.2.2", "4.3.1", "4.4.0"))
    + tuple(f"kafka:{v},mode=zk" for v in ("3.3.2", "3.4.1", "3.5.2", "3.6.2", "3.7.2", "3.8.1", "3.9.2")))

#: Whether the broker enforces KIP-599's controller mutation quota (``controller_mutation_rate``).
#: A KRaft controller does since **3.5** (KAFKA-14351, apache/kafka e3817cac894: ControllerApis
#: asks ``quotas.controllerMutation.newQuotaFor``); a 3.3 or 3.4 KRaft broker accepts the quota
#: (AlterClientQuotas, DescribeClientQuotas show it) but never throttles. ZooKeeper mode has
#: enforced it since 2.7 (KafkaApis' ZooKeeper branches, ZkAdminManager).
MUTATION_QUOTA_ENFORCED = Rule(
    "the controller mutation quota is enforced", (3, 5), False, True,
    "KAFKA-14351 (apache/kafka e3817cac894, 3.5.0): core/src/main/scala/kafka/server/ControllerApis.scala "
    "createTopics / deleteTopics / createPartitions with quotas.controllerMutation.newQuotaFor",
    zk=True, zk_source="apache/kafka core/src/main/scala/kafka/server/KafkaApis.scala handleCreateTopicsRequest "
    "(quotas.controllerMutation.newQuotaFor(request, strictSinceVersion = 6)), 3.x",
    measured=("kafka:3.3.2,preset=quota", "kafka:3.9.2,mode=zk,preset=quota"))

#: Whether a broker may start with delegation tokens enabled (``delegation.token.secret.key``
#: set). A KRaft broker may since **3.6** (KIP-900, KAFKA-15219: the controller's
#: DelegationTokenControlManager, metadata version 3.6-IV2); before, ``BrokerServer.startup``
#: throws "Delegation tokens are not supported" and the broker exits. ZooKeeper mode has had
#: them since 1.1 (KIP-48; ``DelegationTokenManager`` over ZooKeeper). ``preset=acl`` sets
#: the key only where the broker starts with it (``fixtures/acl.py``).
DELEGATION_TOKENS_ENABLED = Rule(
    "a broker starts with delegation tokens enabled", (3, 6), False, True,
    "KIP-900 (KAFKA-15219, 3.6.0): metadata/src/main/java/org/apache/kafka/controller/"
    "DelegationTokenControlManager.java; before, core/src/main/scala/kafka/server/BrokerServer.scala startup "
    "(config.tokenAuthEnabled: throw UnsupportedOperationException(\"Delegation tokens are not supported\"))",
    zk=True, zk_source="KIP-48: core/src/main/scala/kafka/server/DelegationTokenManager.scala (ZooKeeper), 1.1+",
    measured=("kafka:3.5.2,preset=acl", "kafka:3.6.2,preset=acl", "kafka:3.9.2,preset=acl", "kafka:3.9.2,mode=zk,preset=acl",
              "kafka:4.4.0,preset=acl"))

#: Whether AlterClientQuotas refuses a quota value <= 0 ("Quota KEY must be greater than 0")
#: and checks an integral key by the value's fraction (``getErrorForIntegralQuotaValue``). A
#: KRaft controller does since **3.5** (KAFKA-14943, apache/kafka 33962e8ba14: "Don't allow
#: setting negative or zero values for quotas"); a 3.3 or 3.4 KRaft controller, like
#: ZooKeeper mode on every 3.x line, accepts zero and any value whose ``(value + 1e-6).toLong``
#: is the value (a negative byte rate fails that, as it truncates towards zero).
QUOTA_VALUES_CHECKED = Rule(
    "AlterClientQuotas refuses a value <= 0", (3, 5), False, True,
    "KAFKA-14943 (apache/kafka 33962e8ba14, 3.5.0): metadata/src/main/java/org/apache/kafka/controller/"
    "ClientQuotaControlManager.java validateQuotaKeyValue ('must be greater than 0', "
    "getErrorForIntegralQuotaValue); before, only (value + epsilon).longValue was compared with the value",
    zk=False, zk_source="apache/kafka core/src/main/scala/kafka/server/ZkAdminManager.scala alterClientQuotas "
    "(only the key and an integral type's (value + epsilon).toLong are checked), 3.x",
    measured=("kafka:3.3.2", "kafka:3.4.1", "kafka:3.5.2", "kafka:3.9.2", "kafka:4.4.0", "kafka:3.9.2,mode=zk"))

RULES = (SEGMENT_BYTES_MIN, CLUSTER_METADATA_CREATE_ERROR, MUTATION_QUOTA_ENFORCED, DELEGATION_TOKENS_ENABLED,
         QUOTA_VALUES_CHECKED)

_current: Line = NEWEST
_mode: str = KRAFT


def use(line: Line | None, mode: str | None = None) -> None:
    """Set the line and mode of the broker under check (the plugin calls this before each check)."""
    global _current, _mode
    _current = line or NEWEST
    _mode = mode or KRAFT


def current() -> Line:
    return _current


def current_mode() -> str:
    return _mode


def zookeeper_mode() -> bool:
    """Whether the broker under check keeps its metadata in ZooKeeper (3.x ``mode=zk``)."""
    return _mode == ZK


def mode_of(impl: str | None, mode: str | None) -> str:
    """The mode a broker follows: ZooKeeper's for a ZooKeeper-mode Apache Kafka, else KRaft's."""
    return ZK if impl == "apache-kafka" and mode == ZK else KRAFT


def line_of(impl: str | None, version: str | None, fallback: Line = NEWEST) -> Line:
    """The release line a broker follows: its own for Apache Kafka, else ``fallback``."""
    if impl == "apache-kafka" and version:
        try:
            return parse_line(version)
        except ValueError:
            pass
    return fallback
