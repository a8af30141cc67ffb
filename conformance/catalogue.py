"""docs/properties.md, generated from the ``@pytest.mark.prop`` markers of the property modules.

    python -m conformance.catalogue            # print it
    python -m conformance.catalogue --write    # write docs/properties.md

The modules are read with ``ast``: each test function with a ``prop("ID", ...)`` marker gives
a row with its module, name and the first paragraph of its docstring. The table of which
properties ask which API imports them (nothing runs) to read their ``parametrize`` marks. ``tests/test_catalogue.py`` fails when the checked-in file is not what this
writes, so the index cannot go stale.
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "properties.md"
ORDER = "PVDRCTSAK"

HEADER = """# Properties as shipped

Generated from the `@pytest.mark.prop` markers by `python -m conformance.catalogue --write`
(`tests/test_catalogue.py` fails when this file is stale; `grep -rn 'prop("ID"' conformance/`
finds any of them). Sources are in each marker's `source` and in the result rows; Kafka's
behaviour behind them is in [reference-semantics.md](reference-semantics.md).

## What the ids mean

{families}
## Every property test

| id | module | test | what it checks |
|---|---|---|---|
"""

#: The catalogue's id families: letter -> (what they check, the sources behind them).
PROPERTY_FAMILIES = {
    "P": ("the protocol itself, for every admin API at every version a broker advertises: answers "
          "decode (P1), are well formed with codes the API can return (P2), versions outside the "
          "advertised range are refused (P3), a logical request means the same at every version (P4), "
          "no error code newer than the request's version (P5), error messages where the version has "
          "the field (P6)", "Kafka's message schemas; KIP-482 (flexible versions), KIP-599, KIP-896"),
    "V": ("validate_only: no side effects (V1), the verdict the executed request gets (V2), each item "
          "of a batch judged alone (V3)", "KIP-201, KIP-339; Kafka's controller"),
    "D": ("DeleteTopics: unknown and repeated names, batches, deletion visible in Metadata, timeouts, "
          "topic ids", "KIP-4's DeleteTopics vote (KAFKA-2946), KIP-516; Kafka's ControllerApis"),
    "R": ("DeleteRecords and the log start offset (low watermark)", "Kafka's ReplicaManager, UnifiedLog"),
    "C": ("topic configs through IncrementalAlterConfigs, AlterConfigs and DescribeConfigs: a model of "
          "every change, concurrent writers, full replace, invalid input", "KIP-339; Kafka's "
          "ConfigurationControlManager, LogConfig"),
    "T": ("topic and partition creation: names, counts, replication factors, configs, collisions",
          "Kafka's ReplicationControlManager, Topic.validate"),
    "S": ("stateful: random sequences of admin requests keep the broker equal to a model after every step, "
          "topics, configs and the log (S1) or the whole admin plane in one sequence with its cross-family "
          "rules (S2); concurrent clients' histories are linearizable (S3); acknowledged changes survive "
          "crashed and paused nodes (S4)",
          "all of the above; reference/plane_rules.py; Lowe 2017 and porcupine (the checker); KIP-595"),
    "A": ("configured brokers: policies refuse only what they refuse (A1), authorization hides and "
          "refuses as Kafka does (A2)", "KIP-108, KIP-133, KIP-201; Kafka's StandardAuthorizer"),
    "L": ("ACLs: DescribeAcls lists exactly what its filter matches (L1), DeleteAcls removes and returns "
          "exactly that (L2), a binding created twice is held once (L3), invalid bindings refused alone or "
          "with their request as Kafka does (L4), creates and deletes keep a model (L5)",
          "KIP-140, KIP-290 (prefixed ACLs); Kafka's AclControlManager, ResourcePatternFilter, "
          "StandardAuthorizer"),
    "M": ("the cluster as the admin APIs describe it: DescribeCluster lists Metadata's brokers and cluster "
          "(M1), DescribeTopicPartitions' cursor visits every partition once as Metadata lists it (M2), the "
          "metadata quorum's leader is one of its voters (M3), DescribeLogDirs lists every partition once and "
          "its size grows with what was produced (M4), AlterReplicaLogDirs to a dir the broker lacks answers "
          "LOG_DIR_NOT_FOUND alone (M5), ListConfigResources lists what DescribeConfigs accepts (M6), "
          "FindCoordinator names a broker Metadata lists, the same at every version, each key of a v4+ batch "
          "on its own (M7), UnregisterBroker of an id no broker has answers BROKER_ID_NOT_REGISTERED and changes "
          "nothing (M8), removing a voter the quorum lacks or adding one it has answers KafkaRaftClient's code "
          "and changes no voter (M9)",
          "KIP-700, KIP-966, KIP-595, KIP-853, KIP-113, KIP-1142, KIP-699, KIP-500, KIP-631; Kafka's KafkaApis, "
          "DescribeTopicPartitionsRequestHandler, KafkaRaftClient, ReplicaManager, LogManager, "
          "ReplicationControlManager, AddVoterHandler, RemoveVoterHandler"),
    "F": ("finalized features: UpdateFeatures' validate_only changes nothing (F1), a refused update is "
          "answered as the release line and mode do and applies nothing it refuses (F2), ApiVersions follows "
          "an accepted update (F3)", "KIP-584, KIP-778; Kafka's FeatureControlManager, QuorumController"),
    "Q": ("client quotas: AlterClientQuotas then a strict DescribeClientQuotas gives exactly what was set "
          "and not removed (Q1), validate_only changes nothing and answers as executed (Q2), an invalid "
          "entry (ip with a user or client id, an unknown entity type or key, a value Kafka refuses) fails "
          "alone (Q3), non-strict, default and any-name filters match as Kafka's image does (Q4), concurrent "
          "writers of different keys of one entity lose no acknowledged update (Q5, an added property: KIP-546 "
          "promises nothing of concurrent writers, and ZooKeeper mode keeps the last writer's copy); every entity is a "
          "run-prefixed user or client id, never a default one",
          "KIP-546 (client quota APIs in the Admin Client); Kafka's ClientQuotaControlManager, "
          "ClientQuotasImage"),
    "U": ("SCRAM credentials: an upsertion is described with its mechanism and iterations and never its "
          "salt or salted password, a deletion removes it (U1), a user named twice in an "
          "AlterUserScramCredentials answers DUPLICATE_RESOURCE and changes nothing, iterations outside "
          "Kafka's bounds, unknown mechanisms and empty names are refused alone (U2), an unknown or "
          "repeated user in a describe answers alone (U3)",
          "KIP-554; Kafka's ScramControlManager, ScramImage"),
    "G": ("consumer groups and offsets: offsets committed for an empty (simple) group are fetched back "
          "exactly and the group is listed and described Empty (G1), an unknown group is described Dead, "
          "NONE below DescribeGroups v6 and GROUP_ID_NOT_FOUND from v6 (G2), DeleteGroups deletes each empty "
          "group and refuses each unknown one alone, and a deleted group's offsets go (G3), OffsetDelete "
          "removes the offsets it names alone and refuses an unknown group (G4), a group with a member (joined "
          "over the wire) is refused deletion (NON_EMPTY_GROUP) and so are the offsets of the topics it "
          "subscribes to (GROUP_SUBSCRIBED_TO_TOPIC) (G5), ConsumerGroupDescribe describes a consumer group "
          "(a member joined over the wire by ConsumerGroupHeartbeat) Stable with that member, its subscription and "
          "assignment, and answers GROUP_ID_NOT_FOUND for a classic group and an unknown one, each entry on its own "
          "(G6); every group is run-prefixed and deleted after its example",
          "KIP-1043, KIP-848; Kafka's GroupMetadataManager, OffsetMetadataManager, ClassicGroup, ConsumerGroup"),
    "O": ("ListOffsets as the Admin client's listOffsets uses it, on a fresh topic with produced records: "
          "EARLIEST answers the log start offset and LATEST the high watermark (O1), MAX_TIMESTAMP (v7+) the "
          "first record with the largest timestamp, or -1 on an empty partition (O2), EARLIEST after "
          "DeleteRecords the low watermark it returned (O3); a timestamp a version cannot carry is not sent",
          "KIP-734; Kafka's ReplicaManager.fetchOffset, Partition.fetchOffsetForTimestamp, "
          "UnifiedLog.fetchOffsetByTimestamp"),
    "W": ("DescribeProducers: after an idempotent producer (InitProducerId without a transactional id) "
          "produced over the wire, the partition lists exactly it, with its id, epoch, last sequence and last "
          "batch's max timestamp and no transaction; a partition never written lists no producer; an unknown "
          "topic answers UNKNOWN_TOPIC_OR_PARTITION alone (W1)",
          "KIP-664; Kafka's KafkaApis.handleDescribeProducersRequest, Partition.activeProducerState, "
          "ProducerStateManager"),
    "H": ("delegation tokens: on a listener without authentication every token request answers "
          "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED (H1); on a SASL listener a token is described to its owner and "
          "never to a principal without a part in it (H2); a token for another owner without CREATE_TOKENS, or "
          "with a renewer that is not a User, is refused and creates nothing (H3); only the owner or a renewer renews or "
          "expires a token, and an expired one is no longer described (H4)",
          "KIP-48, KIP-373, KIP-900; Kafka's KafkaApis (allowTokenRequests, handleCreateTokenRequest, "
          "handleDescribeTokensRequest), DelegationTokenManager.filterToken, DelegationTokenControlManager "
          "(allowedToRenew)"),
    "X": ("transactions, opened over the wire as a transactional producer does (InitProducerId with a "
          "transactional id, AddPartitionsToTxn, a transactional Produce) and committed or aborted (EndTxn): "
          "ListTransactions lists it Ongoing, then CompleteCommit or CompleteAbort, exactly when each non-empty "
          "filter (states, producer ids, v1 duration, v2 transactional id pattern) matches, and lists unknown "
          "state names back (X1); DescribeTransactions shows its producer id and epoch, state, timeout and "
          "exactly the partitions added, none once completed, and answers an unknown id "
          "TRANSACTIONAL_ID_NOT_FOUND alone (X2); every transactional id and topic is run-prefixed and an "
          "unfinished transaction is aborted",
          "KIP-664, KIP-994, KIP-1152; Kafka's TransactionCoordinator, TransactionStateManager."
          "listTransactionStates, TransactionMetadata"),
    "E": ("partition reassignments and leader elections, on a fresh run-prefixed topic: a cancellation with "
          "none in progress, an empty, repeated or unregistered replica list and an unknown topic are each "
          "answered alone (NO_REASSIGNMENT_IN_PROGRESS, INVALID_REPLICA_ASSIGNMENT, UNKNOWN_TOPIC_OR_PARTITION) "
          "and move nothing (E1), an accepted reassignment completes to its target (E2), an election whose "
          "leader needs no change answers ELECTION_NOT_NEEDED partition by partition and is left out of an "
          "election of every partition (E3), a preferred replica that does not lead is elected (NONE) and "
          "then leads (E4, a cluster of two brokers or more)",
          "KIP-455, KIP-460; Kafka's ControllerApis, ReplicationControlManager"),
    "Y": ("share and streams groups asked of groups they do not describe: ShareGroupDescribe and "
          "StreamsGroupDescribe answer each unknown group and each group of another type (a classic group made "
          "by an OffsetCommit) GROUP_ID_NOT_FOUND alone (Y1); the share group offsets APIs of an unknown or "
          "classic group answer as Kafka 4.4 does: DeleteShareGroupOffsets GROUP_ID_NOT_FOUND, "
          "AlterShareGroupOffsets GROUP_ID_NOT_FOUND for the classic group and a new, Empty share group for an "
          "unknown one, DescribeShareGroupOffsets NONE with start offset -1 (Y2); the start offsets "
          "AlterShareGroupOffsets sets for an empty share group are described back exactly, and "
          "DeleteShareGroupOffsets removes them (start offset -1 again) (Y3); a share group joined over the "
          "wire (ShareGroupHeartbeat) is described with exactly its member, epoch and subscribed topic (Y4); "
          "every group run-prefixed and "
          "deleted after its example",
          "KIP-932, KIP-1071, KIP-1043; Kafka's GroupMetadataManager, GroupCoordinatorService"),
    "K": ("never-released KIPs, asked only of a broker that declares them: KIP-201's delete-side "
          "validate_only (K1), KIP-694's partition deletion (K2)", "KIP-201, KIP-694, KIP-584"),
}


def _families() -> str:
    return "".join(f"- **{k}**: {what} ({src}).\n" for k, (what, src) in PROPERTY_FAMILIES.items())

FOOTER = """
Properties that need a configured broker run on Apache Kafka targets with a preset
(docs/kafka.md): A1 with `preset=policy`; A2 with `preset=acl` (StandardAuthorizer, SASL/PLAIN,
a super user and a restricted principal); L1-L5 on any broker with an authorizer (on Apache Kafka
`preset=acl`; a broker whose DescribeAcls answers SECURITY_DISABLED is `unsupported` citing the
`authorizer.class.name` it shows, and `fail` where it shows one); Q1-Q5
need no preset, only a broker serving DescribeClientQuotas and AlterClientQuotas (`unsupported`
naming the API elsewhere); P5's version-gated codes with `preset=nodelete`
and `preset=quota`; E4 on a cluster of two brokers or more (`nodes=3`). A run of a plain
`kafka:VERSION` starts these configured companions itself and asks those checks there
(fixtures/companions.py; `--single-broker` does not). Everywhere else their rows are
`unsupported`, saying which preset they need; P5's traffic rows are `unsupported` where nothing in the run provoked a code they gate.
K1 and K2 (never released) run only on a broker that declares them (a KIP-584 feature in
ApiVersions v3+, `conformance/capabilities.py`); K2 passes through the emulating
`proxy:k2@SPEC` (`faults/emulate.py`) and is `unsupported` on every released broker.
F1 and F3 move a finalized feature only where the cluster finalizes one the suite may move
(`reference/features.py`: on Kafka 4.x `eligible.leader.replicas.version` or `group.version`,
put back at once; never `metadata.version`); elsewhere they are `unsupported` saying so. The
M and F checks need no preset; nor do G1-G6, which need only a broker serving the group APIs
(G5 also JoinGroup and LeaveGroup: its member joins over the wire, as a static member, and leaves;
G6 also ConsumerGroupHeartbeat, its consumer joining and leaving as KIP-848's consumer does, and is
`unsupported` where the broker answers it UNSUPPORTED_VERSION with the protocol shown off:
`group.coordinator.rebalance.protocols` without `consumer`, `group.version` below 1 on 4.x, or a
3.x line showing no setting (`reference/switches.py`); elsewhere that answer is a `fail`).
O1-O3 need no preset either, only Produce and ListOffsets (O3 also DeleteRecords); O2 is asked
at ListOffsets v7 and later only, the versions that can carry MAX_TIMESTAMP (KIP-734).
Y1-Y4 need no preset either, only a broker serving the share and streams group APIs (Kafka
4.x; elsewhere their rows are `unsupported`, naming the API) and OffsetCommit for the classic group
(Y3 also Produce, Y4
ShareGroupHeartbeat).

U1-U3 need no preset: in KRaft (metadata.version 3.5 and later) both SCRAM APIs work without a
SCRAM listener. Every example names its own run-prefixed users and deletes what it upserted,
so that U2's dedicated check of Kafka's known deviation
`scram-upsertion-lost-when-a-deletion-empties-its-mechanism` finds a mechanism nobody holds:
released Kafka (3.9-4.4 measured) acknowledges an upsertion sent beside the deletion of its
mechanism's last credential and never shows it (`ScramDelta.apply`); the other checks leave
that request shape out on those releases (reference/known_deviations.py).
"""


def _prop(decorator) -> str | None:
    if (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)
            and decorator.func.attr == "prop" and decorator.args
            and isinstance(decorator.args[0], ast.Constant)):
        return decorator.args[0].value
    return None


def rows(root: Path = ROOT) -> list[tuple[str, str, str, str]]:
    out = []
    for path in sorted((root / "conformance").glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            ids = [p for p in map(_prop, node.decorator_list) if p]
            if not ids:
                continue
            doc = (ast.get_docstring(node) or "").split("\n\n")[0]
            what = re.sub(r"\s+", " ", doc).strip().replace("|", "\\|")
            out.append((ids[0], f"conformance/{path.name}", node.name, what))
    return sorted(out, key=lambda r: (ORDER.find(r[0][0]) if r[0][0] in ORDER else 99,
                                      int(re.sub(r"\D", "", r[0]) or 0), r[0], r[2]))


def _asked(root: Path = ROOT) -> dict[int, set[str]]:
    """{API key: the property ids whose tests are parametrised over it, or that judge its
    answers (``@pytest.mark.prop(ID, judges=(ApiKey.X, ...))``: G1 judges what ListGroups
    lists)}: read from the ``prop`` and ``parametrize`` marks of the property modules
    (imported; their checks do not run)."""
    import importlib
    import warnings
    out: dict[int, set[str]] = {}
    for path in sorted((root / "conformance").glob("test_*.py")):
        with warnings.catch_warnings():      # outside the suite's plugin, "prop" is an unknown mark
            warnings.simplefilter("ignore")
            module = importlib.import_module(f"conformance.{path.stem}")
        for fn in vars(module).values():
            marks = getattr(fn, "pytestmark", [])
            ids = [m.args[0] for m in marks if m.name == "prop" and m.args]
            for m in marks:
                if m.name == "prop" and m.args:
                    for key in m.kwargs.get("judges", ()):
                        out.setdefault(int(key), set()).add(m.args[0])
            for m in marks:
                names = m.args[0] if m.name == "parametrize" and m.args else ""
                if not ids or "api_key" not in [n.strip() for n in str(names).split(",")]:
                    continue
                at = [n.strip() for n in names.split(",")].index("api_key")
                for p in m.args[1]:
                    values = p.values if hasattr(p, "values") else (p if isinstance(p, tuple) else (p,))
                    out.setdefault(int(values[at]), set()).update(ids)
    return out


def _order(prop: str):
    return (ORDER.find(prop[0]) if prop[0] in ORDER else 99, int(re.sub(r"\D", "", prop) or 0), prop)


def api_table(root: Path = ROOT) -> str:
    """Every admin API, by family: its valid versions, whether it changes a cluster, and the
    properties that ask it (P1-P3 every admin API at every version; P5 where a code is
    version-gated; P6 where the answer has an error_message; the families' own)."""
    from protocol import apis, schema_facts
    asked = _asked(root)
    out = ["| family | API | versions | changes | properties |", "|---|---|---|---|---|"]
    for name, keys in apis.API_FAMILIES.items():
        for key in keys:
            lo, hi = schema_facts.valid_versions(key)
            changes = apis.DECLARATIONS[key].mutates or ""
            props = ", ".join(sorted(asked.get(int(key), ()), key=_order))
            versions = f"{lo}" if lo == hi else f"{lo}-{hi}"
            out.append(f"| {name} | {key.name} | {versions} | {changes} | {props} |")
    return "\n".join(out) + "\n"


API_HEADER = """
## Which properties ask which API

Every admin API the suite declares (`protocol/apis.py`: those Kafka's Admin client sends; the
other APIs Kafka serves, and why they are not admin APIs, are its `NOT_DECLARED`), with the
versions its schema has (Kafka 4.4's `validVersions`; the codec also speaks the removed ones
below) and the properties whose checks are parametrised over it or judge its answers. P1-P3 ask every admin API at
every version a broker advertises; P5 where `reference/error_codes.py` gates a code by
version; P6 where the answer has an `error_message`.

"""


def render(root: Path = ROOT) -> str:
    body = "".join(f"| {i} | `{m}` | `{t}` | {w} |\n" for i, m, t, w in rows(root))
    return HEADER.format(families=_families()) + body + FOOTER + API_HEADER + api_table(root)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text = render()
    if "--write" in argv:
        OUT.write_text(text, encoding="utf-8")
        print(f"catalogue: {len(rows())} tests -> {OUT.relative_to(ROOT)}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
