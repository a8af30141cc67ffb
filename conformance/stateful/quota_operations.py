"""S2's operation on client quotas: AlterClientQuotas (KIP-546 "Add Client Quota APIs to the
Admin Client") of the example's users ``SUB-u1``/``-u2`` (the names of its SCRAM users and
ACL principals), validate_only on and off, judged as the quota properties judge it
(``conformance/quota_client.py``; Kafka's rules and their sources in
``reference/quota_rules.py``: ``ClientQuotaControlManager.alterClientQuotas``).
DescribeClientQuotas is the family's invariant (``plane_invariants.py``).
"""
from __future__ import annotations

from hypothesis import strategies as st

from protocol import ApiKey, Errors
from protocol import requests as build
from reference.quota_rules import entity
from strategies import admin_plane as draws

from .operation import FamilyOperation


def entries_of(m, op: dict) -> list:
    return [(entity(user=m.user(e["user"])), [tuple(o) for o in e["ops"]]) for e in op["entries"]]


class AlterClientQuotas(FamilyOperation):
    api = ApiKey.AlterClientQuotas
    family = "quotas"
    field = "entries"

    def draw(self, s, focused=False):
        entry = st.fixed_dictionaries({"user": draws.USERS, "ops": draws.quota_ops()})
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "validate_only": draws.ONE_IN_FOUR,
                                      "entries": st.lists(entry, min_size=1, max_size=2, unique_by=lambda e: e["user"])})

    def render(self, op, n):
        return "entries: [" + ", ".join(
            f"{n(e['user'])} " + " ".join(f"{k}={'-' if v is None else v}" for k, v in e["ops"])
            for e in op["entries"]) + "]"

    def perform(self, run, op, line):
        m, v = run.model, op["v"]
        entries = entries_of(m, op)
        run.send(self.api, v, build.alter_client_quotas(v, entries, op["validate_only"]), line)
        codes = m.quotas.alter(entries, op["validate_only"])
        with run.judging(lambda: f"{line} -> not as the model: {[Errors(c).name for c in codes]}"):
            run.row.quotas.expect_altered(entries, codes, f"AlterClientQuotas v{v}")
        self.settled(run, line, ", ".join(Errors(c).name for c in codes))
