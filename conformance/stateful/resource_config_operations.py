"""S2's operations on the config resources that are not topics: IncrementalAlterConfigs of a
GROUP resource (KIP-848's dynamic group configuration), of a CLIENT_METRICS resource
(KIP-714's client metrics subscriptions) and of the cluster-wide broker default (KIP-226),
each SET or DELETE of one key.

Both name the example's groups ``SUB-g1``/``-g2``: the very names whose offsets the groups
family commits and DeleteGroups deletes, and a client metrics subscription under the same
name, so that one name holds configs of two types at once. A group's configs need no group
(KIP-1142 "Allow to list non-existent group which has dynamic config"), a subscription no
client; NONE for the resource. Values stay inside what the broker accepts by default: a
group's ``consumer.session.timeout.ms`` 45000-60000 (``group.consumer.min/max.session.timeout.ms``),
a subscription's ``interval.ms`` 100-3600000 and ``metrics`` any prefix list
(``ClientMetricsConfigs.validate``). Every SET of a subscription also sets its ``match`` to
``client_id=`` its own name, a client id no client has: a subscription without a match
applies to every client of the cluster (KIP-714), and S2 may run on a cluster it did not
start.

DescribeConfigs of each resource the example configured is the family's invariant
(``plane_invariants.py``): its entries of the type's config source (GROUP_CONFIG,
CLIENT_METRICS_CONFIG) are exactly the model's. What deleting a group does to its configs
(nothing) is GROUP_DELETION_KEEPS_GROUP_CONFIGS; that the two types of one name are apart,
CONFIG_RESOURCES_ARE_TYPED; what the broker default does to topics (it is their value where
they do not override it), BROKER_DEFAULTS_REACH_TOPICS (``reference/plane_rules.py``). A family is off where a
DescribeConfigs of its type is not answered NONE (group configs before Kafka 4.0, client
metrics before 3.7 and in ZooKeeper mode), with that answer as the evidence.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from hypothesis import strategies as st

from protocol import AlterConfigOp, ApiKey, ConfigResourceType, ConfigSource, Errors
from protocol import requests as build
from strategies import admin_plane as draws

from .operation import FamilyOperation


@dataclass(frozen=True)
class ResourceKind:
    """One config resource type S2 sets: its family, type, the source its overrides are
    described with, and the keys it sets with their values."""
    family: str
    type: ConfigResourceType
    source: ConfigSource
    values: dict[str, tuple[str, ...]]
    #: keys set beside every SET, from the resource's name: a client metrics subscription
    #: matches only a client id no client has (its own name), so that a subscription S2 makes
    #: on a cluster it did not start asks no other client for metrics (KIP-714: a subscription
    #: without ``match`` applies to every client)
    pinned: Callable[[str], dict[str, str]] = lambda name: {}


GROUP = ResourceKind("group_configs", ConfigResourceType.GROUP, ConfigSource.GROUP_CONFIG,
                     {"consumer.session.timeout.ms": ("45000", "50000", "60000")})
CLIENT_METRICS = ResourceKind("client_metrics", ConfigResourceType.CLIENT_METRICS, ConfigSource.CLIENT_METRICS_CONFIG,
                              {"interval.ms": ("60000", "120000"),
                               "metrics": ("org.apache.kafka.producer.", "org.apache.kafka.consumer.")},
                              pinned=lambda name: {"match": f"client_id={name}"})
KINDS = (GROUP, CLIENT_METRICS)


class AlterResourceConfigs(FamilyOperation):
    """IncrementalAlterConfigs of one key of one resource of ``kind``."""
    api = ApiKey.IncrementalAlterConfigs
    kind: ResourceKind

    @property
    def family(self) -> str:
        return self.kind.family

    @property
    def name(self) -> str:
        return f"IncrementalAlterConfigs({self.kind.type.name})"     # S1's IncrementalAlterConfigs is the topics'

    def draw(self, s, focused=False):
        key = st.sampled_from(sorted(self.kind.values))
        return key.flatmap(lambda k: st.fixed_dictionaries({
            "api": st.just(self.name), "v": s.version(self.api, True), "group": draws.GROUPS, "key": st.just(k),
            "value": st.one_of(st.none(), st.sampled_from(self.kind.values[k]))}))

    def render(self, op, n):
        key = op.get("key") or next(iter(self.kind.values))
        pinned = "" if op["value"] is None else "".join(f", {k} SET {v}" for k, v in self.kind.pinned(n(op["group"])).items())
        return f"{n(op['group'])}: {key} " + ("DELETE" if op["value"] is None else f"SET {op['value']}") + pinned

    def perform(self, run, op, line):
        m, v, kind = run.model, op["v"], self.kind
        name, key = m.name(op["group"]), op.get("key") or next(iter(kind.values))
        pinned = {} if op["value"] is None else kind.pinned(name)
        changes = [(key, AlterConfigOp.DELETE, None) if op["value"] is None else (key, AlterConfigOp.SET, op["value"])]
        changes += [(k, AlterConfigOp.SET, value) for k, value in pinned.items()]
        run.send(self.api, v, build.incremental_alter_configs(v, [(name, changes)], resource_type=kind.type), line)
        with run.judging(lambda: f"{line} -> not NONE"):
            run.check.expect_field(["responses", {"resource_name": name}, "error_code"], [Errors.NONE], count=1,
                                   says=f"IncrementalAlterConfigs v{v} of {kind.type.name} {name!r}: NONE")
        m.resource_configured(kind.family, name, key, op["value"])
        m.resource_configs[kind.family][name].update(pinned)
        self.settled(run, line, "NONE")


class AlterBrokerDefault(FamilyOperation):
    """IncrementalAlterConfigs of the cluster-wide broker default (the BROKER resource named
    ``""``, KIP-226): SET or DELETE ``log.retention.ms``, whose topic synonym is
    ``retention.ms``. Only on a broker the suite started: a broker config is not the run's,
    and on a cluster it did not start the suite sends none (``fixtures/scope.py``)."""
    api = ApiKey.IncrementalAlterConfigs
    family = "broker_configs"
    #: the broker default S2 moves, its topic synonym, and the values it sets (2 h, 3 h)
    KEY, SYNONYM, VALUES = "log.retention.ms", "retention.ms", ("7200000", "10800000")

    @property
    def name(self) -> str:
        return "IncrementalAlterConfigs(BROKER)"

    def draw(self, s, focused=False):
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "value": st.one_of(st.none(), st.sampled_from(self.VALUES))})

    def render(self, op, n):
        return f"cluster default: {self.KEY} " + ("DELETE" if op["value"] is None else f"SET {op['value']}")

    def perform(self, run, op, line):
        m, v = run.model, op["v"]
        change = (self.KEY, AlterConfigOp.DELETE, None) if op["value"] is None else (self.KEY, AlterConfigOp.SET,
                                                                                     op["value"])
        run.send(self.api, v, build.incremental_alter_configs(v, [("", [change])],
                                                              resource_type=ConfigResourceType.BROKER), line)
        with run.judging(lambda: f"{line} -> not NONE"):
            run.check.expect_field(["responses", {"resource_name": ""}, "error_code"], [Errors.NONE], count=1,
                                   says=f"IncrementalAlterConfigs v{v} of the cluster-wide broker default: NONE")
        m.broker_default(self.SYNONYM, op["value"])
        self.settled(run, line, "NONE")


class AlterGroupConfigs(AlterResourceConfigs):
    kind = GROUP


class AlterClientMetricsConfigs(AlterResourceConfigs):
    kind = CLIENT_METRICS


__all__ = ["CLIENT_METRICS", "GROUP", "KINDS", "AlterBrokerDefault", "AlterClientMetricsConfigs", "AlterGroupConfigs",
           "ResourceKind"]
