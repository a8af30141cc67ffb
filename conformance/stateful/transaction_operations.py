"""S2's operations on transactions (KIP-98 "Exactly Once Delivery and Transactional
Messaging"): a transactional producer with the example's id ``SUB-tx1`` adds partitions of
the example's topics to its transaction (AddPartitionsToTxn v0-3, the client's versions;
InitProducerId first, once per example; UNKNOWN_TOPIC_OR_PARTITION re-sent, as the Java
producer re-sends it while the coordinator's metadata lacks a topic just made) and commits
or aborts it (EndTxn below v5: KIP-98's transactions, not KIP-890's V2 whose epoch bumps at
every end), as the X properties' producer does (``conformance/test_transactions.py``).
DescribeTransactions is the family's invariant (``plane_invariants.py``): the state, the
producer id, the partitions added.

What a topic's deletion does to an open transaction that added its partitions is the rule
TOPIC_DELETION_SKIPS_TXN_MARKERS (``reference/plane_rules.py``): nothing until it ends, and
then it completes, the markers to the deleted partitions skipped.
"""
from __future__ import annotations

from hypothesis import strategies as st

from fixtures.waiting import VISIBLE_S
from protocol import ApiKey, Errors
from protocol import requests as build
from reference.transaction_rules import COMPLETE
from strategies import admin_plane as draws

from .operation import FamilyOperation, with_existing_partitions

#: the client's AddPartitionsToTxn (v4+ is the brokers' batched form) and KIP-98's EndTxn
ADD_BELOW, END_BELOW = 4, 5
#: what a transactional producer asks again (the Java producer retries them): the previous
#: transaction's markers still being written, the coordinator loading or moving
WAITS = sorted(int(c) for c in (Errors.CONCURRENT_TRANSACTIONS, Errors.COORDINATOR_LOAD_IN_PROGRESS,
                                Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR))
#: the transaction timeout InitProducerId asks: a run that dies leaves the coordinator to abort it
TIMEOUT_MS = 60_000


def learned_producer(run) -> None:
    """The step just sent carries the producer id InitProducerId gave (int64): a reproducer's
    run sends the one its own InitProducerId gets (``fixtures.judge.learned``)."""
    m = run.model
    run.check.expect_learned(m.producer[0].to_bytes(8, "big", signed=True), m.producer_step, ["producer_id"])


class AddPartitionsToTxn(FamilyOperation):
    api = ApiKey.AddPartitionsToTxn
    family = "transactions"
    field = "partitions"
    max_version = ADD_BELOW - 1

    def draw(self, s, focused=False):
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "topic": draws.TOPIC_SLOTS,
                                      "partitions": st.lists(st.integers(0, 1), min_size=1, max_size=2, unique=True)})

    def resolve(self, run, op):
        return with_existing_partitions(run, op)

    def render(self, op, n):
        return f"{n('tx1')}: {n(op['topic'])} partitions {op['partitions']}"

    def perform(self, run, op, line):
        m, v, row = run.model, op["v"], run.row
        tid, topic = m.name("tx1"), m.name(op["topic"])
        coordinator = row.transaction_coordinator(tid)
        with run.judging(lambda: f"{line} -> not NONE"):
            if m.producer is None:
                m.producer = coordinator.init_producer_id(tid, TIMEOUT_MS)
                m.producer_step = run.check.last_step
            coordinator.client.answered(self.api, v, build.add_partitions_to_txn(
                v, tid, *m.producer, [(topic, op["partitions"])]))
            learned_producer(run)
            run.check.expect_field(["results_by_topic_v3_and_below", "results_by_partition", "partition_error_code"],
                                   refused=WAITS, setup=True, retry_s=VISIBLE_S,
                                   says=f"setup: the previous transaction of {tid!r} has ended (none of {WAITS})")
            # re-sent until NONE: a topic the controller acknowledged may not be in the
            # coordinator's metadata yet (UNKNOWN_TOPIC_OR_PARTITION, the rest
            # OPERATION_NOT_ATTEMPTED), which the Java producer re-sends (TransactionManager
            # AddPartitionsToTxnHandler); one still refused after VISIBLE_S is the finding
            for p in op["partitions"]:
                run.check.expect_field(["results_by_topic_v3_and_below", {"name": topic}, "results_by_partition",
                                        {"partition_index": p}, "partition_error_code"], [Errors.NONE], count=1,
                                       retry_s=VISIBLE_S, says=f"AddPartitionsToTxn v{v} of {topic}-{p} to {tid!r}: NONE")
        m.txn_added(topic, op["partitions"])
        self.settled(run, line, "NONE")


class EndTxn(FamilyOperation):
    api = ApiKey.EndTxn
    family = "transactions"
    field = "commit"
    max_version = END_BELOW - 1

    def draw(self, s, focused=False):
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "commit": st.booleans()})

    def resolve(self, run, op):
        return op if run.model.txn_state == "Ongoing" else None

    def render(self, op, n):
        return f"{n('tx1')}: {'commit' if op['commit'] else 'abort'}"

    def perform(self, run, op, line):
        m, v = run.model, op["v"]
        tid = m.name("tx1")
        coordinator = run.row.transaction_coordinator(tid)
        with run.judging(lambda: f"{line} -> not NONE"):
            # CONCURRENT_TRANSACTIONS: the previous end's markers are still being written
            coordinator.client.answered(self.api, v, build.end_txn(v, tid, *m.producer, op["commit"]))
            learned_producer(run)
            run.check.expect_field(["error_code"], refused=WAITS, setup=True, retry_s=VISIBLE_S,
                                   says=f"setup: the coordinator of {tid!r} is ready (none of {WAITS})")
            run.check.expect_field(["error_code"], [Errors.NONE],
                                   says=f"EndTxn v{v} ({'commit' if op['commit'] else 'abort'}) of the open "
                                        f"transaction of {tid!r}: NONE")
        m.txn_ended(COMPLETE[op["commit"]])
        self.settled(run, line, "NONE")
