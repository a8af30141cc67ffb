"""S4: every acknowledged admin change survives nodes that crash (kill -9, then restart on
their data), pause (SIGSTOP past the session timeout) and a crash of the whole cluster while
clients change it (issue 58, parts 3 and 4: a nemesis, durability across restarts).

S3's workload (``conformance/concurrent_history.py``: 2-4 clients writing, deleting and
reading two config keys of a fresh topic and two client quotas of a fresh user, each
operation at a drawn advertised version) runs while a drawn fault schedule
(``strategies/node_faults.py``, ``faults/nemesis.py``) strikes nodes of the cluster. A request
a down node refuses, drops or leaves unanswered is *indeterminate*: it may or may not have
taken effect. Once the faults healed and every node lists every broker again, one closing
read per node shows what survived, and the writes with those reads must be linearizable
against one register per key (``fixtures/history``): an acknowledged write that no later
write replaced is what every node shows, once it caught up (a read showing an older value
is asked again for up to ``CATCH_UP_S``). The reads sent during the faults are not judged
for staleness here (a paused node serves its image as it was until it catches up; Kafka
promises a describe no read-your-writes across brokers), only for their error codes.

Kafka's side of it: a KRaft controller acknowledges a change once its record is committed,
held by a majority of the voters (KIP-595), and the leader flushes each batch it appends
(``raft/src/main/java/org/apache/kafka/raft/KafkaRaftClient.java``, ``flushLeaderLog``); a
node that restarts replays its log and catches up before it serves a request
(``core/src/main/scala/kafka/server/BrokerServer.scala``: startup waits for "the broker to be
unfenced", then enables inbound TCP connections).

Only on brokers the suite started (it never crashes what it did not start): on a cluster of
one node every fault strikes the node the clients talk to, which tests durability across a
restart; on ``nodes=3`` a fault may strike the active controller or a follower. The race and
the faults cannot be replayed standalone: the reproducer sends the requests one after
another and says so (a caveat).
"""
from __future__ import annotations

import time

import pytest
from hypothesis import strategies as st

from faults.nemesis import Fault, Nemesis
from fixtures.admin import Admin
from fixtures.harness import SetupFailed, Skip
from fixtures.history import ILLEGAL, OK, check as linearizable
from protocol import ApiKey
from protocol.kafka_sources import KAFKA
from strategies.node_faults import schedules

from .concurrent_history import (CONFIG_KEYS, MODEL, QUOTA_KEYS, History, family_of, judge_answers, judged_at,
                                 remove_quotas, run_clients, versions_of)

SOURCE = ("issue 58 (durability under faults); KIP-595; " + KAFKA
          + "raft/src/main/java/org/apache/kafka/raft/KafkaRaftClient.java (flushLeaderLog); "
          + KAFKA + "core/src/main/scala/kafka/server/BrokerServer.scala (unfenced before serving); "
            "etcd-io/etcd tests/robustness (failpoints)")
#: how long the nodes may take to be whole again after the last fault ended (a JVM's restart)
HEAL_S = 120.0
#: the checker's bound per history (seconds): beyond it the row is an error, never a pass
CHECK_S = 20.0
#: how long a node's closing read may show what the node held before it caught up, and how often
#: it is asked again meanwhile (kafka:3.9.2 with separate controllers: a broker resumed after a 3 s
#: pause answered a value two writes old 0.1 s after it listed every broker again)
CATCH_UP_S, ASK_AGAIN_S = 15.0, 0.5
#: a history with restarts costs ~10 s: a few examples at ci (the profile's tenth where it asks more)
LEAST_EXAMPLES = 3


#: the one client that writes each entity: concurrent writers of one entity are S3's question
#: (and ZooKeeper mode's known lost update there, a read-modify-write of the whole entity);
#: S4 asks what survives the faults, so every entity's writes come one after another
WRITER = {"config": 0, "quota": 1}


def plans(keys: tuple[str, ...]):
    """2-4 clients of 3-8 operations each, with think times (0-0.5 s) before every one so
    that the history spans the faults: writes most (four in six), reads (one), deletes
    (one); client 0 writes the topic's configs, client 1 the user's quotas, and a drawn write
    of an entity another client writes is a read (:data:`WRITER`)."""
    op = st.fixed_dictionaries({"kind": st.sampled_from(("write", "write", "write", "write", "read", "delete")),
                                "key": st.sampled_from(keys), "v": st.integers(0, 7),
                                "pause": st.sampled_from((0.0, 0.1, 0.2, 0.5))})

    def one_writer(plan):
        return [[o if o["kind"] == "read" or WRITER[family_of(o["key"])] == i else {**o, "kind": "read"} for o in ops]
                for i, ops in enumerate(plan)]
    return st.lists(st.lists(op, min_size=3, max_size=8), min_size=2, max_size=4).map(one_writer)


def faultable(check):
    """The target of the check's broker, if the suite started it and can fault its nodes."""
    if check.broker.external:
        raise Skip("S4 crashes and pauses nodes: only on brokers the suite starts")
    target = check.context.pool.targets.get(check.spec)
    if target is None or not all(hasattr(target, m) for m in ("crash", "pause", "resume", "restart",
                                                              "wait_healed", "node_count", "active_controller")):
        raise Skip(f"S4 crashes and pauses nodes: {check.spec} is not a target whose nodes the suite can "
                   "crash and restart (kafka:VERSION and kafka-dist:PATH)")
    return target


def caught_up(history: History, readers: list, first_client: int, writes: list) -> int:
    """Each node's closing read (client ``first_client + i`` on node ``i``), asked again every
    :data:`ASK_AGAIN_S` while it shows a value the writes do not allow, for up to
    :data:`CATCH_UP_S`: a node that resumed or restarted serves its metadata image as it was
    until it has fetched what it missed (Kafka promises a describe no more), so only a value
    it still shows then is lost. Each read kept is the last one asked; the ones asked again
    are left out of the history (their answers' codes are judged). How many were asked again."""
    again, kept = 0, []
    for i, reader in enumerate(readers):
        deadline = time.monotonic() + CATCH_UP_S
        while True:
            mark = len(history.ops)
            history.closing_reads(first_client + i, reader)
            reads = history.ops[mark:]
            shown = linearizable(MODEL, writes + kept + reads, timeout_s=CHECK_S)
            if shown.verdict != ILLEGAL or time.monotonic() >= deadline:
                break
            del history.ops[mark:]
            again += 1
            time.sleep(ASK_AGAIN_S)
        kept += reads
    return again


@pytest.mark.prop("S4", source=SOURCE)
def test_s4_acknowledged_admin_changes_survive_crashed_and_paused_nodes(check):
    """While 2-4 clients write, delete and read two config keys of a fresh topic and two
    client quotas of a fresh user, one or two faults crash (kill -9, then restart) or pause
    (SIGSTOP, then SIGCONT) a drawn node or the active controller, or crash every node at once; once every node is back, each node's closing read
    shows, for every key, a value that a linearization of the writes allows: no acknowledged
    change is lost, none comes back from nowhere."""
    for api in (ApiKey.IncrementalAlterConfigs, ApiKey.DescribeConfigs):
        check.require(api)
    target = faultable(check)
    quotas = all(check.broker.advertised(a) is not None for a in (ApiKey.AlterClientQuotas,
                                                                  ApiKey.DescribeClientQuotas))
    keys = CONFIG_KEYS + (QUOTA_KEYS if quotas else ())
    versions = versions_of(check, "S4")
    admin = Admin(check)
    nodes = target.node_count()
    pool = check.context.pool

    def under_faults(drawn):
        plan, faults = drawn[0], [Fault.of(f) for f in drawn[1]]
        topic, user = check.topic("s4"), check.topic("s4-user")
        admin.create_topic(topic)
        history = History(check, topic, user, versions)
        clients = [check.client() for _ in plan]
        nemesis = Nemesis(target, faults)
        with pool.under_faults(check.spec):
            nemesis.start()
            try:
                run_clients(history, clients, plan, closing=False)
            finally:
                problem = nemesis.heal(HEAL_S)
        check.unanswered = None         # the faults left requests unanswered, not a silent broker
        check.reconnect()               # a connection to a node's crashed process is dead
        if problem is not None:
            raise SetupFailed(f"after {', '.join(f.describe() for f in faults)}: {problem}")
        readers = [check.client(node=addr) for addr in (check.broker.addresses or [(check.broker.host,
                                                                                    check.broker.port)])]
        closing_from = len(plan)
        writes = [op for op in history.ops if op.input.get("op") != "read"]
        asked_again = caught_up(history, readers, closing_from, writes)
        if quotas:
            remove_quotas(admin, history)
        check.expect_caveat("S4's clients ran at the same time while nodes crashed and paused; the reproducer "
                            "sends their requests one after another on a healthy broker, so it shows each answer, "
                            "not the race or the faults")
        judge_answers(check, history)
        closing = [op for op in history.ops if op.client >= closing_from]
        if any(op.indeterminate for op in closing):
            raise SetupFailed(f"a closing read got no answer after the faults healed ({nodes} nodes)")
        judged = writes + closing
        result = linearizable(MODEL, judged, timeout_s=CHECK_S)
        check.coverage = {"examples": check.coverage.get("examples", 0) + 1,
                          "operations": check.coverage.get("operations", 0) + len(history.ops),
                          "indeterminate": check.coverage.get("indeterminate", 0)
                          + sum(op.indeterminate for op in history.ops),
                          "acknowledged_writes": check.coverage.get("acknowledged_writes", 0)
                          + sum(op.input.get("op") != "read" and not op.indeterminate and op.output is None
                                for op in history.ops),
                          "crashes": check.coverage.get("crashes", 0) + nemesis.struck("crash"),
                          "pauses": check.coverage.get("pauses", 0) + nemesis.struck("pause"),
                          "whole_cluster_crashes": check.coverage.get("whole_cluster_crashes", 0)
                          + nemesis.struck("crash-all"),
                          "on_the_active_controller": check.coverage.get("on_the_active_controller", 0)
                          + nemesis.on_the_active_controller(),
                          "closing_reads_asked_again": check.coverage.get("closing_reads_asked_again", 0)
                          + asked_again,
                          "nodes": nodes}
        last = max((at for at, _, _ in history.steps), default=None)
        schedule = "; ".join(f"{e['at_s']:.2f}s {e['event']}" for e in nemesis.schedule())
        if result.verdict == ILLEGAL:
            t0 = min(op.call for op in result.minimal)
            shown = [f"client {op.client}{' (closing read)' if op.client >= closing_from else ''}: {op.input} -> "
                     f"{'?' if op.indeterminate else op.output} [{op.call - t0:.3f}s]" for op in result.minimal]
            check.expect_observed("every acknowledged change of " + repr(result.failing_key) + " survives the faults",
                                  shown, [[]], step=judged_at(result.minimal, last),
                                  says=f"{result.failing_key!r}: after the faults ({schedule}) every node shows a "
                                       f"value the writes allow (smallest failing sub-history: "
                                       f"{len(result.minimal)} operations)")
        elif result.verdict != OK:
            raise SetupFailed(f"the checker's bound ({CHECK_S:g} s) ran out on {result.unknown_keys}: no verdict")
        else:
            check.expect_observed("keys whose acknowledged changes were lost", [], [[]], step=last,
                                  says=f"every acknowledged change survived ({schedule}; {len(judged)} operations "
                                       f"judged of {len(history.ops)})")

    examples = max(LEAST_EXAMPLES, check.context.budget.max_examples // 10)
    check.given(st.tuples(plans(keys), schedules(nodes)), under_faults, max_examples=examples)
