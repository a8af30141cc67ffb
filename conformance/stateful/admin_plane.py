"""S2: the whole admin plane as one random state machine (``docs/stateful.md``, "S2").

One row per broker. Its examples are sequences of S1's topic, config and log operations
(every advertised version, plain and unplain: ``steps.OPERATIONS``) among the admin
families' operations (``acl_operations.py``, ``quota_operations.py``,
``scram_operations.py``, ``group_operations.py``, ``transaction_operations.py``,
``feature_operations.py``, ``token_operations.py``, ``share_operations.py``,
``group_config_operations.py``), all on one example's names
(``plane_model.py``), so that a topic's deletion meets the offsets, ACLs and a re-creation
that name it, and a user's credentials meet its quotas, ACLs and tokens. After every
step S1's invariants and each family's (``plane_invariants.py``) hold; the cross-family
rules (``reference/plane_rules.py``) the steps hit are counted in the row's coverage.

A family runs where the broker serves it: its APIs advertised (in the suite's schemas), and
for ACLs an authorizer (a broker that answers SECURITY_DISABLED and shows no
``authorizer.class.name`` has none: the family is off, and the coverage says why). The row
is ``unsupported`` only where the topics themselves cannot be driven (S1's requirements).
"""
from __future__ import annotations

from hypothesis import strategies as st

from fixtures.admin import Admin
from fixtures.harness import Unsupported, Violation
from protocol import AlterConfigOp, ApiKey, ConfigResourceType, Errors, requests, schema_facts
from reference import plane_rules as rules, switches
from protocol.requests import AclOperation, AclPermission
from reference.features import DOWNGRADABLE
from reference.scram_rules import SHA_512
from strategies import stateful as draws

from ..acl_client import Acls
from ..acl_model import everything_of
from ..capabilities import share_groups_off, switched_off
from ..group_client import Groups
from ..quota_client import Quotas
from ..scram_client import Scram
from . import plane_invariants
from .acl_operations import CreateAcls, DeleteAcls
from .feature_operations import UpdateFeatures
from .group_operations import DeleteGroups, OffsetCommit
from .consumer_group_operations import GROUP as CONSUMER_GROUP, ConsumerGroupHeartbeat
from .reassignment_operations import AlterPartitionReassignments
from .resource_config_operations import KINDS, AlterBrokerDefault, AlterClientMetricsConfigs, AlterGroupConfigs
from .share_operations import AlterShareGroupOffsets, DeleteShareGroupOffsets
from .token_operations import RENEWERS, CreateDelegationToken, ExpireDelegationToken, RenewDelegationToken
from .transaction_operations import END_BELOW, AddPartitionsToTxn, EndTxn
from .operation import FamilyOperation, Operations
from .plane_model import PlaneModel
from .quota_operations import AlterClientQuotas
from .row import Row
from .scram_operations import AlterUserScramCredentials
from .steps import OPERATIONS, Strategies

#: The families' operations, in draw order (a fixed seed draws by position: keep it).
FAMILY_OPERATIONS = (CreateAcls(), DeleteAcls(), AlterClientQuotas(), AlterUserScramCredentials(), OffsetCommit(),
                     DeleteGroups(), UpdateFeatures(), AddPartitionsToTxn(), EndTxn(), CreateDelegationToken(),
                     RenewDelegationToken(), ExpireDelegationToken(), AlterShareGroupOffsets(),
                     DeleteShareGroupOffsets(), AlterGroupConfigs(), AlterClientMetricsConfigs(),
                     AlterPartitionReassignments(), ConsumerGroupHeartbeat(), AlterBrokerDefault())
S2 = Operations(OPERATIONS + FAMILY_OPERATIONS)
#: ApiVersions lists finalized features from v3 (KIP-584; ApiVersionsResponse.json)
FEATURES_VERSION = schema_facts.first_version_with(ApiKey.ApiVersions, "finalized_features", schema_facts.RESPONSE)
#: The APIs each family needs besides its operations' (its invariant's describe).
DESCRIBES = {"acls": (ApiKey.DescribeAcls,), "quotas": (ApiKey.DescribeClientQuotas,),
             "scram": (ApiKey.DescribeUserScramCredentials,), "groups": (ApiKey.OffsetFetch, ApiKey.FindCoordinator),
             "transactions": (ApiKey.InitProducerId, ApiKey.FindCoordinator, ApiKey.DescribeTransactions),
             "features": (ApiKey.ApiVersions,), "tokens": (ApiKey.DescribeDelegationToken,),
             "share": (ApiKey.DescribeShareGroupOffsets, ApiKey.FindCoordinator),
             "group_configs": (ApiKey.DescribeConfigs,), "client_metrics": (ApiKey.DescribeConfigs,),
             "reassignments": (ApiKey.ListPartitionReassignments, ApiKey.Metadata),
             "consumer_groups": (ApiKey.ConsumerGroupDescribe, ApiKey.FindCoordinator),
             "broker_configs": (ApiKey.DescribeConfigs,)}
#: Where Kafka has the config resource types S2 sets beside topics (the evidence's reading)
WHERE = {"group_configs": "KIP-848, from Kafka 4.0", "client_metrics": "KIP-714, from Kafka 3.7, KRaft only"}
#: What a broker answers a token request with when it makes no tokens: on a listener that
#: authenticates no one (KafkaApis.allowTokenRequests), or without delegation.token.secret.key
TOKENS_OFF = (Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, Errors.DELEGATION_TOKEN_AUTH_DISABLED)
#: How many options of a step's draw each family operation is (default 2; S1's are 1 each).
WEIGHT = {ApiKey.OffsetCommit: 3, ApiKey.AddPartitionsToTxn: 2, ApiKey.EndTxn: 2, ApiKey.DeleteGroups: 3, ApiKey.AlterUserScramCredentials: 3,
          ApiKey.UpdateFeatures: 1, ApiKey.DeleteAcls: 1, ApiKey.CreateDelegationToken: 1,
          ApiKey.RenewDelegationToken: 1, ApiKey.ExpireDelegationToken: 1, ApiKey.AlterShareGroupOffsets: 2,
          ApiKey.DeleteShareGroupOffsets: 1, ApiKey.AlterPartitionReassignments: 1}
#: The family of each of S1's operations (coverage).
S1_FAMILY = {ApiKey.CreateTopics: "topics", ApiKey.DeleteTopics: "topics", ApiKey.CreatePartitions: "topics",
             ApiKey.Metadata: "topics", ApiKey.IncrementalAlterConfigs: "configs", ApiKey.AlterConfigs: "configs",
             ApiKey.DescribeConfigs: "configs", ApiKey.DeleteRecords: "log", ApiKey.Produce: "log"}


class PlaneStrategies(Strategies):
    """S2's draws: every operation at any version in range, on the plain slots."""

    def version(self, api, focused):
        return draws.versions(*self.row.ranges[api], True)

    def slot(self, focused):
        return draws.slots(False)

    def pair(self, focused):
        return super().pair(False)

    def first_family_steps(self):
        """A step of each family the broker serves, before the drawn ones, each on ``u1``,
        ``g1`` and topic ``a`` (the names most draws take), after the first CreateTopics: a
        config override, a quota set, a credential upserted, a binding created, a partition
        added to a transaction, a group's and a client metrics subscription's config of one
        name, the cluster-wide log.retention.ms, offsets committed, a consumer group member subscribed to ``a`` (and the group's deletion refused), a partition
        reassigned to its replicas. The
        minimiser drops what a failure does not need."""
        row, out = self.row, []

        def at(api, body):
            return st.fixed_dictionaries({"api": st.just(api.name), "v": self.version(api, True),
                                          **{k: st.just(v) for k, v in body.items()}})
        if ApiKey.IncrementalAlterConfigs in row.ranges and "configs" in row.families:
            out.append(at(ApiKey.IncrementalAlterConfigs, {"validate_only": False, "plain": True, "resources": [
                {"slot": "a", "ops": [["retention.ms", "SET", "3600000"]]}]}))
        if ApiKey.AlterClientQuotas in row.ranges and "quotas" in row.families:
            out.append(at(ApiKey.AlterClientQuotas, {"validate_only": False, "entries": [
                {"user": "u1", "ops": [["producer_byte_rate", 1024.0]]}]}))
        if ApiKey.AlterUserScramCredentials in row.ranges and "scram" in row.families:
            out.append(at(ApiKey.AlterUserScramCredentials, {"user": "u1", "delete": False, "held": False,
                                                             "mech": SHA_512, "iterations": 4096}))
        if ApiKey.CreateAcls in row.ranges and "acls" in row.families:
            out.append(at(ApiKey.CreateAcls, {"bindings": [{"res": "topic", "slot": "a", "user": "u1",
                                                            "op": int(AclOperation.READ),
                                                            "perm": int(AclPermission.ALLOW)}]}))
        if ApiKey.AddPartitionsToTxn in row.ranges and "transactions" in row.families:
            out.append(at(ApiKey.AddPartitionsToTxn, {"topic": "a", "partitions": [0]}))
        if ApiKey.CreateDelegationToken in row.ranges and "tokens" in row.families:
            out.append(at(ApiKey.CreateDelegationToken, {"user": "u1", "lifetime": 3_600_000}))
        if ApiKey.AlterShareGroupOffsets in row.ranges and "share" in row.families:
            out.append(at(ApiKey.AlterShareGroupOffsets, {"group": "sg1", "topic": "a", "partitions": [0],
                                                          "at": "end"}))
        for op, key, value in ((AlterGroupConfigs(), "consumer.session.timeout.ms", "50000"),
                               (AlterClientMetricsConfigs(), "interval.ms", "60000")):
            if op.enabled(row):
                out.append(at(op.api, {"api": op.name, "group": "g1", "key": key, "value": value}))
        if ApiKey.OffsetCommit in row.ranges and "groups" in row.families:
            out.append(at(ApiKey.OffsetCommit, {"group": "g1", "topic": "a", "partitions": [0], "offset": 7,
                                                "metadata": ""}))
        if AlterBrokerDefault().enabled(row):
            out.append(at(ApiKey.IncrementalAlterConfigs, {"api": AlterBrokerDefault().name, "value": "7200000"}))
        if ConsumerGroupHeartbeat().enabled(row):
            out.append(at(ApiKey.ConsumerGroupHeartbeat, {"member": "m1", "leave": False, "topics": ["a"]}))
            if ApiKey.DeleteGroups in row.ranges and "groups" in row.families:
                out.append(at(ApiKey.DeleteGroups, {"groups": [CONSUMER_GROUP]}))
        if AlterPartitionReassignments().enabled(row):
            out.append(at(ApiKey.AlterPartitionReassignments, {"topic": "a", "partitions": [0], "to": "current"}))
        return st.tuples(*out) if out else None

    def steps(self):
        """S1's operations once each (plain where they may be: they touch only topics the
        model has, or for CreateTopics has not), CreateTopics and DeleteTopics unplain too
        (a name the model lacks or has: the model says what Kafka answers), DeleteTopics plain
        twice, and each enabled family operation WEIGHT times (``draws.weighed``: ``one_of``
        keeps one of the same object): the cross-family rules need the
        families' steps between a topic's or a user's changes."""
        row = self.row
        options = []
        for op in OPERATIONS:
            if op.api in row.ranges and op.api in S1_FAMILY:
                options.append(op.draw(self, False).map(draws.plain) if op.plain else op.draw(self, False))
                if op.api in (ApiKey.CreateTopics, ApiKey.DeleteTopics):
                    options.append(op.draw(self, False))
                if op.api == ApiKey.DeleteTopics:       # most rules are what a topic's deletion does
                    options.append(op.draw(self, False).map(draws.plain))
        for op in FAMILY_OPERATIONS:
            if op.enabled(row):
                options += draws.weighed(op.draw(self), WEIGHT.get(op.api, 2))
        return st.one_of(options)


class PlaneRow(Row):
    """S2's side of one check: S1's row (versions, a fresh topic's defaults, failures), the
    admin families the broker serves, their clients, and the coverage of its examples."""

    operations = S2
    model_class = PlaneModel
    #: Longer examples than S1's: a cross-family effect needs two families' steps, then the other's
    steps = {"ci": 40, "dev": 50, "release": 60}

    def __init__(self, check):
        super().__init__(check, None)
        self.families: dict[str, str] = {}       # family -> how it is asked (or why it is off: self.off)
        self.off: dict[str, str] = {}
        self.movable_features: tuple[str, ...] = ()
        self.features_version = 0
        self.features: dict[str, int] = {}
        self.tokens_version = 0
        self.list_reassignments_version = 0
        self.consumer_describe_version = 0
        self.acls = self.quotas = self.scram = self.groups = self.share = None
        self._coordinators: dict[str, Admin] = {}
        self.totals = {"examples": 0, "steps": 0}
        self.reached: dict[str, int] = {}
        self.hits: dict[str, int] = {}
        self.most_families = 0          # the most families one example's steps reached

    def _watches(self, focus) -> tuple[bool, bool]:
        return True, True

    def strategies(self) -> Strategies:
        return PlaneStrategies(self)

    @property
    def machine_name(self) -> str:
        return "S2AdminPlane"

    def header(self, sub: str) -> str:
        return f"# S2, the admin plane ({', '.join(self.families)}); kac-.. is {sub}"

    def require(self) -> None:
        check = self.check
        for api in (ApiKey.Metadata, ApiKey.CreateTopics, ApiKey.DeleteTopics):
            check.require(api)
            if api not in self.ranges:
                raise Unsupported(f"S2 needs {api.name} to make and observe topics; no version both the broker "
                                  "and the suite's schemas have")
        check.require_mutations()

    # -- the families the broker serves ---------------------------------------------------------
    def learn(self) -> None:
        super().learn()
        self.families = {"topics": "CreateTopics, DeleteTopics, CreatePartitions, Metadata"}
        for family, apis in (("configs", (ApiKey.IncrementalAlterConfigs, ApiKey.DescribeConfigs)),
                             ("log", (ApiKey.Produce, ApiKey.DeleteRecords, ApiKey.ListOffsets))):
            self._family(family, apis, lambda: None)
        self._family("acls", (ApiKey.CreateAcls, ApiKey.DeleteAcls), self._acls)
        self._family("quotas", (ApiKey.AlterClientQuotas,), self._quotas)
        self._family("scram", (ApiKey.AlterUserScramCredentials,), self._scram)
        self._family("groups", (ApiKey.OffsetCommit, ApiKey.DeleteGroups), self._groups)
        self._family("transactions", (ApiKey.AddPartitionsToTxn, ApiKey.EndTxn), self._transactions)
        self._family("features", (), self._features)
        self._family("tokens", (ApiKey.CreateDelegationToken, ApiKey.RenewDelegationToken,
                                ApiKey.ExpireDelegationToken), self._tokens)
        self._family("share", (ApiKey.AlterShareGroupOffsets, ApiKey.DeleteShareGroupOffsets), self._share)
        for kind in KINDS:
            self._family(kind.family, (ApiKey.IncrementalAlterConfigs,), lambda kind=kind: self._resource_configs(kind))
        self._family("reassignments", (ApiKey.AlterPartitionReassignments,), self._reassignments)
        self._family("consumer_groups", (ApiKey.ConsumerGroupHeartbeat,), self._consumer_groups)
        self._family("broker_configs", (ApiKey.IncrementalAlterConfigs,), self._broker_configs)

    def _family(self, family: str, apis, start) -> None:
        missing = [a.name for a in (*apis, *DESCRIBES.get(family, ())) if self.check.broker.advertised(a) is None]
        if missing:
            self.off[family] = f"the broker does not advertise {', '.join(missing)}"
            return
        try:
            start()
        except Unsupported as why:
            self.off[family] = str(why)
            return
        self.families[family] = ", ".join(a.name for a in apis) or "ApiVersions"

    def _acls(self):
        self.acls = Acls(self.check)

    def _quotas(self):
        self.quotas = Quotas(self.check)

    def _scram(self):
        self.scram = Scram(self.check)

    def _groups(self):
        self.groups = Groups(self.check)

    def _transactions(self):
        self.check.require_mutations()
        self.admin = Admin(self.check)

    def transaction_coordinator(self, tid: str) -> Admin:
        """The coordinator of the transactional id ``tid`` (FindCoordinator, once per id)."""
        if tid not in self._coordinators:
            self._coordinators[tid] = self.admin.transaction_coordinator(tid)
        return self._coordinators[tid]

    def _features(self):
        rng = self.check.broker.advertised(ApiKey.ApiVersions)
        if rng is None or rng[1] < FEATURES_VERSION:
            raise Unsupported(f"ApiVersions lists finalized features from v{FEATURES_VERSION} (KIP-584); the broker "
                              f"advertises {'no ApiVersions' if rng is None else f'v{rng[0]}-{rng[1]}'}")
        self.features_version = FEATURES_VERSION
        answer = self.client.answered(ApiKey.ApiVersions, FEATURES_VERSION, requests.api_versions(FEATURES_VERSION))
        self.features = {f["name"]: f["max_version_level"] for f in answer.get("finalized_features") or []}
        self.movable_features = tuple(f for f in DOWNGRADABLE if self.features.get(f, 0) >= 1)

    def _tokens(self):
        """Tokens are made where a CreateDelegationToken with an owner is in range and the
        broker's describe of them answers NONE; one of TOKENS_OFF is the evidence that it
        makes none (a PLAINTEXT listener, no secret key), any other answer the invariant's
        finding."""
        if ApiKey.CreateDelegationToken not in self.ranges:
            lo, hi = self.check.broker.advertised(ApiKey.CreateDelegationToken)
            raise Unsupported(f"S2 asks CreateDelegationToken from v{CreateDelegationToken.min_version} (an owner, "
                              f"KIP-373); the broker advertises v{lo}-{hi}")
        v = self.tokens_version = Admin(self.check, self.client).version(ApiKey.DescribeDelegationToken)
        answer = self.client.answered(ApiKey.DescribeDelegationToken, v,
                                      requests.describe_delegation_token(v, [("User", n) for _, n in RENEWERS]))
        if answer.get("error_code") in TOKENS_OFF:
            raise Unsupported(f"DescribeDelegationToken v{v} answered {Errors(answer['error_code']).name}: the broker "
                              "makes no tokens on this listener (KafkaApis.allowTokenRequests: a listener without "
                              "SASL; DELEGATION_TOKEN_AUTH_DISABLED: no delegation.token.secret.key)")

    def _share(self):
        """Share groups are asked unless the broker's finalized features show them off
        (``capabilities.share_groups_off``, as the Y properties ask them)."""
        why = share_groups_off(self.check)
        if why:
            raise Unsupported(f"share groups are off: {why}")
        self.share = Groups(self.check)

    def _resource_configs(self, kind):
        """Group configs (KIP-848) and client metrics subscriptions (KIP-714) are asked where a
        DescribeConfigs of a resource of their type is answered NONE; another code is the
        evidence that the broker has none (Kafka before 4.0 for groups, before 3.7 and in
        ZooKeeper mode for client metrics: INVALID_REQUEST)."""
        if ApiKey.DescribeConfigs not in self.ranges:
            lo, hi = self.check.broker.advertised(ApiKey.DescribeConfigs)
            raise Unsupported(f"the broker advertises DescribeConfigs v{lo}-{hi}, no version the suite's schemas have")
        v = self.ranges[ApiKey.DescribeConfigs][1]
        probe = self.check.topic("s2-gc")
        answer = self.client.answered(ApiKey.DescribeConfigs, v, requests.describe_configs(
            v, [(probe, None)], resource_type=kind.type))
        code = next((r.get("error_code") for r in answer.get("results") or []), None)
        if code != Errors.NONE:
            raise Unsupported(f"DescribeConfigs v{v} of a {kind.type.name} resource answered "
                              f"{'no result' if code is None else Errors(code).name}: the broker has no "
                              f"{kind.family.replace('_', ' ')} ({WHERE[kind.family]})")

    def _broker_configs(self):
        if self.check.broker.external:
            raise Unsupported("a cluster the suite did not start: a broker config is not the run's, and the suite "
                              "sends none there (fixtures/scope.py refuses every BROKER config resource)")
        if ApiKey.IncrementalAlterConfigs not in self.ranges or not self.defaults.configs_known:
            raise Unsupported("the topics' config defaults are not learnt: nothing to see a broker default reach")

    def _consumer_groups(self):
        """KIP-848's consumer groups are asked unless what the broker shows turns their protocol
        off (``reference/switches.py`` CONSUMER_GROUPS: Kafka 3.7-3.9 advertise
        ConsumerGroupHeartbeat and answer it UNSUPPORTED_VERSION without "consumer" among
        ``group.coordinator.rebalance.protocols``; 4.x without ``group.version`` 1)."""
        why = switched_off(self.check, switches.CONSUMER_GROUPS)
        if why:
            raise Unsupported(f"the consumer rebalance protocol is off: {why} ({switches.CONSUMER_GROUPS.source})")
        if self.groups is None:
            self.groups = Groups(self.check)
        self.consumer_describe_version = Admin(self.check, self.client).version(ApiKey.ConsumerGroupDescribe)

    def _reassignments(self):
        self.list_reassignments_version = Admin(self.check, self.client).version(ApiKey.ListPartitionReassignments)

    def replicas_of(self, topic: str) -> dict[int, list[int]]:
        """Each partition of ``topic`` and its replicas, as Metadata lists them now."""
        v = self.ranges[ApiKey.Metadata][1]
        answer = self.client.answered(ApiKey.Metadata, v, requests.metadata(v, [topic]))
        return {p["partition_index"]: list(p.get("replica_nodes") or [])
                for t in answer.get("topics") or [] if t.get("name") == topic for p in t.get("partitions") or []}

    def family_looks(self) -> list:
        return plane_invariants.looks(self)

    # -- examples and their coverage --------------------------------------------------------------
    def new_run(self, sub=None):
        run = super().new_run(sub or self.check.topic("s2"))
        run.model.features = dict(self.features)
        self.totals["examples"] += 1
        return run

    def example_ended(self, run) -> None:
        """Remove what the example made beside its topics (unjudged: its ACLs, quotas, SCRAM
        credentials, groups, share groups, group configs and delegation tokens), and add its steps, families reached and rules hit to the
        row's coverage."""
        self._forget(run.model)
        self.totals["steps"] += len(run.ops)
        reached = dict(run.model.reached)
        for op in run.ops:
            operation = self.operations.by_name[op["api"]]      # a family's counts itself (settled)
            family = None if isinstance(operation, FamilyOperation) else S1_FAMILY.get(operation.api)
            if family:
                reached[family] = reached.get(family, 0) + 1
        for k, n in reached.items():
            self.reached[k] = self.reached.get(k, 0) + n
        self.most_families = max(self.most_families, len(reached))
        for k, n in run.model.hits.items():
            self.hits[k] = self.hits.get(k, 0) + n
        self.check.coverage = self.coverage()

    def _forget(self, m: PlaneModel) -> None:
        try:
            if self.acls is not None and m.acls.held:
                v = self.acls.xv
                self.acls.client.send(ApiKey.DeleteAcls, v, requests.delete_acl_filters(
                    v, [everything_of(m.principal(u)) for u in plane_invariants.USERS]))
            if self.quotas is not None and m.quotas.held:
                self.quotas.client.send(ApiKey.AlterClientQuotas, self.quotas.av, requests.alter_client_quotas(
                    self.quotas.av, [(e, [(k, None) for k in vs]) for e, vs in m.quotas.held.items()]))
            if self.scram is not None and m.scram:
                self.scram.forget(m.scram)
            for g, members in m.consumers.items():
                for c in members.values():
                    v = self.ranges[ApiKey.ConsumerGroupHeartbeat][1]
                    self.groups.client(g).send(ApiKey.ConsumerGroupHeartbeat, v,
                                               requests.consumer_group_heartbeat(v, g, c.member_id, -1))
            if self.groups is not None and (m.asked or m.consumers):
                self.groups.forget(sorted(set(m.asked) | set(m.consumers)))
            if self.share is not None and m.share:
                self.share.forget(sorted(m.share))
            for kind in KINDS:      # a group's configs outlive it (GROUP_DELETION_KEEPS_GROUP_CONFIGS)
                configured = {g: sorted(keys) for g, keys in m.resource_configs[kind.family].items() if keys}
                if configured:
                    v = self.ranges[ApiKey.IncrementalAlterConfigs][1]
                    self.client.send(ApiKey.IncrementalAlterConfigs, v, requests.incremental_alter_configs(
                        v, [(g, [(k, AlterConfigOp.DELETE, None) for k in keys]) for g, keys in configured.items()],
                        resource_type=kind.type))
            if m.broker_defaults:
                v = self.ranges[ApiKey.IncrementalAlterConfigs][1]
                self.client.send(ApiKey.IncrementalAlterConfigs, v, requests.incremental_alter_configs(
                    v, [("", [(AlterBrokerDefault.KEY, AlterConfigOp.DELETE, None)])],
                    resource_type=ConfigResourceType.BROKER))
            if m.tokens:
                v = Admin(self.check, self.client).version(ApiKey.ExpireDelegationToken)
                for token in m.tokens.values():
                    self.client.send(ApiKey.ExpireDelegationToken, v, requests.expire_delegation_token(v, token.hmac, -1))
            if m.txn_state == "Ongoing":
                tid = m.name("tx1")
                coordinator = self.transaction_coordinator(tid)
                v = coordinator.version(ApiKey.EndTxn, below=END_BELOW)
                coordinator.client.send(ApiKey.EndTxn, v, requests.end_txn(v, tid, *m.producer, False))
        except Violation:       # no answer: the run's end sweeps what is left (fixtures/leftovers.py)
            pass

    def coverage(self) -> dict:
        return {"examples": self.totals["examples"], "steps": self.totals["steps"],
                "families": {f: self.reached.get(f, 0) for f in rules.FAMILIES if f in self.families},
                "most_families_in_one_sequence": self.most_families, "families_off": dict(self.off),
                "rules": {r.id: self.hits.get(r.id, 0) for r in rules.RULES}}


__all__ = ["FAMILY_OPERATIONS", "PlaneRow", "S2"]
