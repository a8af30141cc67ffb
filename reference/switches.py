"""What turns on a feature of an API Kafka advertises, and so what shows a broker lacks it.

Kafka advertises some APIs whether or not it serves them, and answers UNSUPPORTED_VERSION
to every request while a switch is off: a finalized feature below a level (KIP-584), a
broker setting without a value, or a release line whose default leaves the feature off.
Such a refusal is ``unsupported`` only with that evidence, cited in the row; a broker that
advertises the API, shows the switch on (or shows nothing that turns it off) and refuses is
a finding (``fail``). Each :class:`Switch` names its evidence and its source in apache/kafka;
``conformance/capabilities.py`` reads the broker's side of it (:func:`off`'s arguments).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from . import broker_config, release_lines
from .release_lines import KRAFT, Line, line_text

KAFKA_APIS = "apache/kafka core/src/main/scala/kafka/server/KafkaApis.scala"


@dataclass(frozen=True)
class Switch:
    """A feature Kafka serves only while it is switched on. ``feature``: the finalized
    feature (name, least level) it needs, from line ``feature_from`` (KRaft only); ``setting``
    and ``member``: a broker setting whose comma-separated list must hold ``member``;
    ``on_from``: the first line whose default has it on where the broker shows no value."""
    what: str
    source: str
    feature: tuple[str, int] | None = None
    feature_from: Line = release_lines.OLDEST
    setting: broker_config.Setting | None = None
    member: str | None = None
    on_from: Line | None = None

    def off(self, finalized: Mapping[str, int] | None, shown: Mapping[str, str | None],
            line: Line, mode: str) -> str | None:
        """Why this switch is off on a broker whose ``finalized`` features (None: not read),
        ``shown`` settings and release ``line`` / ``mode`` these are; None where nothing shows
        it off (a refusal is then a finding)."""
        if self.feature is not None and finalized and mode == KRAFT and line >= self.feature_from:
            name, level = self.feature
            have = finalized.get(name, 0)
            if have < level:
                listed = f"{name} at level {have}" if name in finalized else f"no {name}"
                return f"its finalized features show {listed}, and Kafka serves {self.what} only from level {level}"
        if self.setting is not None:
            value = shown.get(self.setting.key)
            if value is not None:
                if self.member not in [p.strip() for p in value.split(",")]:
                    return f"it shows {self.setting.key}={value}, without {self.member!r}"
            elif self.on_from is not None and line < self.on_from:
                return (f"it shows no {self.setting.key}, and Kafka {line_text(line)}'s default leaves "
                        f"{self.what} off (on by default from {line_text(self.on_from)})")
        return None


#: KIP-848's consumer groups: ``KafkaApis.isConsumerGroupProtocolEnabled`` needs "consumer"
#: among ``group.coordinator.rebalance.protocols`` and, from 4.0, the finalized feature
#: ``group.version`` at 1 or more ("Enabling and disabling the protocol is controlled by the
#: group.version feature flag", Kafka 4.0's docs, operations/consumer-rebalance-protocol);
#: 3.7-3.9 had it in preview, off by default.
CONSUMER_GROUPS = Switch(
    "the consumer rebalance protocol (KIP-848)",
    f"{KAFKA_APIS} isConsumerGroupProtocolEnabled (UNSUPPORTED_VERSION otherwise); apache/kafka "
    "server-common/src/main/java/org/apache/kafka/server/common/GroupVersion.java",
    feature=("group.version", 1), feature_from=(4, 0), setting=broker_config.GROUP_PROTOCOLS, member="consumer", on_from=(4, 0))

#: Delegation tokens in KRaft need metadata.version 3.6-IV2 (feature level 14, "Add KRaft
#: support for Delegation Tokens"): below it ``DelegationTokenControlManager`` answers
#: UNSUPPORTED_VERSION. (A KRaft broker before 3.6 does not start with tokens enabled at all:
#: ``release_lines.DELEGATION_TOKENS_ENABLED``.)
DELEGATION_TOKENS = Switch(
    "delegation tokens in KRaft (KIP-900)",
    "apache/kafka metadata/src/main/java/org/apache/kafka/controller/DelegationTokenControlManager.java "
    "(UNSUPPORTED_VERSION below metadata.version 3.6-IV2); apache/kafka server-common/src/main/java/org/apache/"
    "kafka/server/common/MetadataVersion.java (IBP_3_6_IV2, feature level 14)",
    feature=("metadata.version", 14), feature_from=(3, 6))


def off(switch: Switch, finalized: Mapping[str, int] | None) -> str | None:
    """:meth:`Switch.off` for the broker under check: its settings as read this run
    (``broker_config.current``) and its release line and mode (``release_lines``)."""
    return switch.off(finalized, broker_config.current(), release_lines.current(), release_lines.current_mode())
