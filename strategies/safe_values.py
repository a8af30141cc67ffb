"""What a generated request of each admin API may carry: the safe values its family module
declares as data (``protocol/families/``, each family's ``safe``), turned into hypothesis
strategies, and the few rules that need a strategy object of their own.

The generic generator (:mod:`strategies.bodies`) draws every field from the schema
(:mod:`strategies.schema`), every name from the run's names (:mod:`strategies.entities`: the
schemas' ``entityType`` tags and the declarations' ``names``), then applies these rules. A
rule maps a dotted request path to what to draw there (``protocol.declaring.Safe``: a value,
a range, a choice, a list of distinct values, ``fn(names, version)`` returning one); paths a
version lacks are ignored. An API's safe values are its family module's; only a rule that
draws what the data vocabulary cannot say (lists of records, random bytes or text, a question
to the schema) is written here, each saying why.

Requests that could damage the broker under test name nothing real: broker and voter ids no
node has (UnregisterBroker, AddRaftVoter, RemoveRaftVoter: :data:`strategies.entities.FAKE_NODE_IDS`),
a log dir no broker has (AlterReplicaLogDirs), only validate_only feature updates or a feature
no broker knows (UpdateFeatures), only the run's topics for leader elections and
reassignments (never the null "every partition"), only the run's principals in ACL filters
that delete, never a default (null) client quota entity, a voter's listener on loopback at a
port nothing serves.
"""
from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from protocol import schema_facts
from protocol.apis import DECLARED_BY, ApiKey
from protocol.declaring import Choice, Distinct, Maybe, OneOf, Range
from protocol.families.client_quotas import QUOTA_ENTITY_TYPES, QUOTA_KEYS
from protocol.families.cluster import FEATURES

from .entities import RunNames


def strategy(draw, names: RunNames, version: int) -> SearchStrategy:
    """The strategy for one safe value (``protocol.declaring.Safe.draw``) at ``version``."""
    if isinstance(draw, SearchStrategy):
        return draw
    if callable(draw):
        return strategy(draw(names, version), names, version)
    if isinstance(draw, Range):
        return st.integers(draw.lo, draw.hi)
    if isinstance(draw, Choice):
        return st.sampled_from(draw.values)
    if isinstance(draw, Distinct):
        return st.lists(strategy(draw.of, names, version), min_size=draw.min_size, max_size=draw.max_size,
                        unique=True)
    if isinstance(draw, Maybe):
        return st.none() | strategy(draw.of, names, version)
    if isinstance(draw, OneOf):
        return st.one_of(*(strategy(a, names, version) for a in draw.alternatives))
    return st.just(draw)


@dataclass(frozen=True)
class Rule:
    """What to draw at one request path (a safe value, or a strategy or ``fn(names, version)``
    returning one) and why."""
    draw: object
    why: str

    def strategy(self, names: RunNames, version: int) -> SearchStrategy:
        return strategy(self.draw, names, version)


# -- the rules a strategy object draws (lists of records, bytes, text, the schema's answer) --

def _features(names: RunNames, v: int):
    # asks the schema whether the version has validate_only: the protocol layer's families
    # cannot ask it (the schema facts are read from the declarations they make)
    validate_only = schema_facts.has_field(ApiKey.UpdateFeatures, v, "validate_only")
    return st.sampled_from(FEATURES) | names.features if validate_only else names.features


def _quota_entity(names: RunNames, v: int):
    # user and client-id entities named by the run (never null: the default entity applies to everyone)
    one = st.sampled_from(["user", "client-id"]).flatmap(
        lambda t: names.users.map(lambda n, t=t: {"entity_type": t, "entity_name": n}))
    return st.lists(one, min_size=1, max_size=2, unique_by=lambda e: e["entity_type"])


def _quota_ops(names: RunNames, v: int):
    op = st.fixed_dictionaries({"key": st.sampled_from(QUOTA_KEYS) | names.users,
                                "value": st.floats(0, 1e7, allow_nan=False), "remove": st.booleans()})
    return st.lists(op, max_size=3, unique_by=lambda o: o["key"])


def _quota_components(names: RunNames, v: int):
    component = st.fixed_dictionaries({"entity_type": st.sampled_from(QUOTA_ENTITY_TYPES),
                                       "match_type": st.sampled_from([0, 1, 2]),
                                       "match": st.none() | names.users})
    return st.lists(component, max_size=2)


def _voter_listeners(names: RunNames, v: int):
    # loopback, a port nothing serves: the leader may try to reach the "new voter" and fail
    listener = st.fixed_dictionaries({"name": st.sampled_from(["CONTROLLER", "kac"]), "host": st.just("127.0.0.1"),
                                      "port": st.just(1)})
    return st.lists(listener, max_size=1)


def _renewers(names: RunNames, v: int, min_size: int = 1):
    return st.lists(st.fixed_dictionaries({"principal_type": st.just("User"), "principal_name": names.users}),
                    min_size=min_size, max_size=2)


def _token_owners(names: RunNames, v: int):
    return st.none() | _renewers(names, v, min_size=0)


def _unique_ints(lo=0, hi=3, min_size=1):
    return st.lists(st.integers(lo, hi), min_size=min_size, max_size=3, unique=True)


_AN_HMAC = Rule(st.binary(min_size=16, max_size=64), "an HMAC no token has (random bytes)")

#: Per admin API: dotted request path -> Rule, for what the families' data cannot say (each
#: says why: a list of records, random bytes or text, or the schema's answer).
STRATEGIES: dict[ApiKey, dict[str, Rule]] = {
    ApiKey.OffsetCommit: {
        "topics.partitions.committed_metadata": Rule(st.none() | st.text(max_size=8), "short metadata (text)"),
    },
    ApiKey.AlterReplicaLogDirs: {
        "dirs": Rule(lambda n, v: st.lists(st.fixed_dictionaries({"path": n.log_dirs, "topics": st.lists(
            st.fixed_dictionaries({"name": n.topics, "partitions": _unique_ints()}), min_size=1, max_size=2,
            unique_by=lambda t: t["name"])}), min_size=1, max_size=1),
            "one log dir no broker has, the run's topics (a replica moved across dirs is one result; records)"),
    },
    ApiKey.CreateDelegationToken: {
        "renewers": Rule(_renewers, "at least one run user (v1-v2 tokens are the requester's: the clean-up finds "
                                    "them by their renewers; records)"),
    },
    ApiKey.RenewDelegationToken: {"hmac": _AN_HMAC},
    ApiKey.ExpireDelegationToken: {"hmac": _AN_HMAC},
    ApiKey.DescribeDelegationToken: {"owners": Rule(_token_owners, "every token, or the run users' (records)")},
    ApiKey.ElectLeaders: {
        "topic_partitions": Rule(lambda n, v: st.lists(st.fixed_dictionaries({"topic": n.topics,
                                                                              "partitions": _unique_ints()}),
                                                       min_size=1, max_size=3, unique_by=lambda t: t["topic"]),
                                 "only the run's topics, never null (every partition of the cluster; records)"),
    },
    ApiKey.DescribeClientQuotas: {"components": Rule(_quota_components, "user/client-id/ip components, run names "
                                                                        "(records)")},
    ApiKey.AlterClientQuotas: {
        "entries.entity": Rule(_quota_entity, "run-named user and client-id entities, never the default (null; "
                                              "records)"),
        "entries.ops": Rule(_quota_ops, "Kafka's quota keys and unknown ones (records)"),
    },
    ApiKey.DescribeUserScramCredentials: {
        "users": Rule(lambda n, v: st.none() | st.lists(st.fixed_dictionaries({"name": n.users}), max_size=3,
                                                        unique_by=lambda u: u["name"]),
                      "every user, or run users (records)"),
    },
    ApiKey.AlterUserScramCredentials: {
        "upsertions.salt": Rule(st.binary(min_size=0, max_size=32), "a salt (empty: refused; random bytes)"),
        "upsertions.salted_password": Rule(st.binary(min_size=0, max_size=64),
                                           "a salted password (empty: refused; random bytes)"),
    },
    ApiKey.UpdateFeatures: {
        "feature_updates.feature": Rule(_features, "Kafka's features only when validate_only; else unknown ones "
                                                   "(the schema says which version has validate_only)"),
    },
    ApiKey.AddRaftVoter: {"listeners": Rule(_voter_listeners, "loopback at a port nothing serves (records)")},
}


def rules(api_key: int) -> dict[str, Rule]:
    """Every rule of ``api_key``'s generated requests: its family's safe values, then the
    strategies above."""
    key = ApiKey(api_key)
    family = DECLARED_BY.get(key)
    declared = {p: Rule(s.draw, s.why) for p, s in (family.safe.get(key, {}) if family else {}).items()}
    return {**declared, **STRATEGIES.get(key, {})}


__all__ = ["Rule", "STRATEGIES", "rules", "strategy"]
