"""S2's operation on SCRAM credentials: AlterUserScramCredentials (KIP-554 "Add Broker-side
SCRAM Config API") upserting or deleting one credential of one of the example's users
``SUB-u1``/``-u2`` (the names of its quota entities and ACL principals), judged as the SCRAM
properties judge it (``conformance/scram_client.py``; Kafka's rules and their sources in
``reference/scram_rules.py``: ``ScramControlManager.alterCredentials``). One user per
request: the known deviation of an upsertion beside the deletion of its mechanism's last
credential (U2) needs two. DescribeUserScramCredentials is the family's invariant.
"""
from __future__ import annotations

import hashlib

from hypothesis import strategies as st

from protocol import ApiKey, Errors
from protocol import requests as build
from reference.scram_rules import MECHANISMS, Deletion, Upsertion, alter, mechanism_name
from strategies import admin_plane as draws

from .operation import FamilyOperation


def salted(user: str, mech: int, iterations: int) -> tuple[bytes, bytes]:
    """A salt and salted password for a made-up credential (any bytes do: the broker stores
    them; derived from the draw so a replay sends the same)."""
    seed = f"{user}/{mech}/{iterations}".encode()
    return hashlib.sha256(b"salt:" + seed).digest()[:16], hashlib.sha512(b"pw:" + seed).digest()[:32 * mech]


class AlterUserScramCredentials(FamilyOperation):
    api = ApiKey.AlterUserScramCredentials
    family = "scram"

    def draw(self, s, focused=False):
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "user": draws.USERS, "delete": st.booleans(), "held": draws.THREE_IN_FOUR,
                                      "mech": st.sampled_from(MECHANISMS), "iterations": draws.ITERATIONS})

    def resolve(self, run, op):
        """A deletion drawn ``held`` deletes a mechanism the user holds, where it holds one
        (a deletion of one it lacks answers RESOURCE_NOT_FOUND: the others ask that)."""
        held = run.model.scram.get(run.model.user(op["user"]), {})
        if op["delete"] and op.pop("held", False) and held:
            op["mech"] = min(held)
        op.pop("held", None)
        return op

    def render(self, op, n):
        what = "delete" if op["delete"] else f"upsert {op['iterations']} iterations"
        return f"{n(op['user'])} {mechanism_name(op['mech'])} {what}"

    def perform(self, run, op, line):
        m, v = run.model, op["v"]
        user = m.user(op["user"])
        if op["delete"]:
            dels, ups = [Deletion(user, op["mech"])], []
        else:
            dels, ups = [], [Upsertion(user, op["mech"], op["iterations"], *salted(user, op["mech"], op["iterations"]))]
        run.send(self.api, v, build.alter_scram_credentials(v, dels, ups), line)
        codes, after = alter(m.scram, dels, ups)
        with run.judging(lambda: f"{line} -> not as the model: {Errors(codes[user]).name}"):
            run.row.scram.expect_altered(codes, f"AlterUserScramCredentials v{v}")
        if codes[user] == Errors.NONE:
            m.scram = after
            m.scram_changed(user, deleted=op["delete"])
        self.settled(run, line, Errors(codes[user]).name)
