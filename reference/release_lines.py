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

Removed request versions need no rule here: they follow the versions the broker
advertises in ApiVersions, which is how KIP-896 removed them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

Line = tuple[int, int]

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
    """One rule of the reference whose value changed at ``since`` (a release line)."""
    name: str
    since: Line
    before: object
    after: object
    source: str

    def at(self, line: Line) -> object:
        return self.after if line >= self.since else self.before

    def now(self) -> object:
        """The value for the broker under check."""
        return self.at(_current)

    def holds_for(self) -> str:
        return f"{line_text(self.since)} and later: {self.after!r}; before: {self.before!r}"


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
    "in 4.1.0+, atLeast(LegacyRecord.RECORD_OVERHEAD_V0) = 14 in 3.x and 4.0.x (released jars)")

RULES = (SEGMENT_BYTES_MIN,)

_current: Line = NEWEST


def use(line: Line | None) -> None:
    """Set the line of the broker under check (the plugin calls this before each check)."""
    global _current
    _current = line or NEWEST


def current() -> Line:
    return _current


def line_of(impl: str | None, version: str | None, fallback: Line = NEWEST) -> Line:
    """The release line a broker follows: its own for Apache Kafka, else ``fallback``."""
    if impl == "apache-kafka" and version:
        try:
            return parse_line(version)
        except ValueError:
            pass
    return fallback
