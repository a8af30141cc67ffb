"""S2's operation on group configs (KIP-848's dynamic group configuration: a ConfigResource
of type GROUP): IncrementalAlterConfigs of one of the example's groups ``SUB-g1``/``-g2``,
the very names whose offsets the groups family commits and DeleteGroups deletes, setting or
deleting ``consumer.session.timeout.ms`` (values inside the broker's default bounds,
``group.consumer.min/max.session.timeout.ms`` 45000-60000). A group's configs need no group
(KIP-1142 "Allow to list non-existent group which has dynamic config"); NONE for the
resource.

DescribeConfigs of each group the example configured is the family's invariant
(``plane_invariants.py``): its GROUP_CONFIG entries are exactly the model's. What deleting a
group does to its configs (nothing) is the rule GROUP_DELETION_KEEPS_GROUP_CONFIGS
(``reference/plane_rules.py``). The family is off where a DescribeConfigs of a GROUP
resource is not answered NONE (before Kafka 4.0), with that answer as the evidence.
"""
from __future__ import annotations

from hypothesis import strategies as st

from protocol import AlterConfigOp, ApiKey, ConfigResourceType, Errors
from protocol import requests as build
from strategies import admin_plane as draws

from .operation import FamilyOperation

KEY = "consumer.session.timeout.ms"
VALUES = st.sampled_from(("45000", "50000", "60000"))


class AlterGroupConfigs(FamilyOperation):
    api = ApiKey.IncrementalAlterConfigs
    family = "group_configs"

    @property
    def name(self) -> str:
        return "IncrementalAlterConfigs(GROUP)"     # S1's IncrementalAlterConfigs is the topics'

    def draw(self, s, focused=False):
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "group": draws.GROUPS, "value": st.one_of(st.none(), VALUES)})

    def render(self, op, n):
        return f"{n(op['group'])}: {KEY} " + ("DELETE" if op["value"] is None else f"SET {op['value']}")

    def perform(self, run, op, line):
        m, v = run.model, op["v"]
        group = m.name(op["group"])
        change = (KEY, AlterConfigOp.DELETE, None) if op["value"] is None else (KEY, AlterConfigOp.SET, op["value"])
        run.send(self.api, v, build.incremental_alter_configs(v, [(group, [change])],
                                                              resource_type=ConfigResourceType.GROUP), line)
        with run.judging(lambda: f"{line} -> not NONE"):
            run.check.expect_field(["responses", {"resource_name": group}, "error_code"], [Errors.NONE], count=1,
                                   says=f"IncrementalAlterConfigs v{v} of group {group!r}: NONE")
        m.group_configured(group, KEY, op["value"])
        self.settled(run, line, "NONE")
