"""X1-X2: ListTransactions (API 66) and DescribeTransactions (API 65), KIP-664's tooling to
detect hanging transactions, of a transaction the suite opens over the wire.

The letter X: transactions (T is taken by topics). Each example creates a fresh
run-prefixed topic of four partitions and, as a transactional producer of KIP-98 does,
finds the coordinator of a fresh run-prefixed transactional id (FindCoordinator, key type
1), asks InitProducerId with that id (its producer id p and epoch e), adds a drawn set of
the topic's partitions to the transaction (AddPartitionsToTxn, the client's v0-3) and
appends one transactional batch to the first of them (Produce below v12, the batch's
transactional bit set and sequence 0: ``fixtures.admin.Admin.produce``). Then the
transaction is committed or aborted (EndTxn below v5: KIP-98's transactions, not KIP-890's
V2, whose epoch bumps at every end); an example that stops early aborts it.

Kafka: ``KafkaApis.handleListTransactionsRequest`` -> ``TransactionCoordinator.
handleListTransactions`` -> ``TransactionStateManager.listTransactionStates``: every
transaction of the coordinator but a ``Dead`` one, kept when each non-empty filter matches
(the state among the known names asked, unknown names listed back in
``unknown_state_filters``; the producer id among those asked; v1, KIP-994: the transaction
started more than DurationFilter ms ago, -1 any; v2, KIP-1152: the transactional id
matches TransactionalIdPattern, null or empty any). ``handleDescribeTransactionsRequest`` ->
``TransactionCoordinator.handleDescribeTransactions``: per id, TRANSACTIONAL_ID_NOT_FOUND for
one the coordinator does not have, else the metadata's state, producer id and epoch, timeout
and its ``topicPartitions`` (the partitions added; cleared when the markers are written and
the transaction completes). The states (``TransactionState``): InitProducerId leaves
``Empty``, the first AddPartitionsToTxn ``Ongoing``, EndTxn ``PrepareCommit`` /
``PrepareAbort`` until every marker is written, then ``CompleteCommit`` / ``CompleteAbort``.

Sources: KIP-664 "Provide tooling to detect and abort hanging transactions"; KIP-994
"Minor Enhancements to ListTransactions and DescribeTransactions APIs"; KIP-1152 "Add
transactional ID pattern filter to ListTransactions API"; apache/kafka
``ListTransactionsRequest.json``, ``DescribeTransactionsRequest.json`` and their responses,
``TransactionCoordinator.scala``, ``TransactionStateManager.scala``,
``TransactionMetadata.scala``.
"""
from __future__ import annotations

import pytest

from fixtures.admin import Admin
from fixtures.harness import expect_setup
from fixtures.waiting import VISIBLE_S
from protocol import ApiKey, Errors
from protocol import requests as build
from reference.transaction_rules import COMPLETE, listed, request_of, unknown_states
from strategies import transactions as gen

from .parametrize import every_version
from protocol.kafka_sources import KAFKA as K

MSG = K + "clients/src/main/resources/common/message/"
TXN = K + "core/src/main/scala/kafka/coordinator/transaction/"
KIP664 = "KIP-664 \"Provide tooling to detect and abort hanging transactions\""
X1_SOURCE = (KIP664 + "; KIP-994 \"Minor Enhancements to ListTransactions and DescribeTransactions APIs\"; "
             "KIP-1152 \"Add transactional ID pattern filter to ListTransactions API\"; " + MSG
             + "ListTransactionsRequest.json, ListTransactionsResponse.json; " + TXN + "TransactionCoordinator.scala "
             "handleListTransactions; " + TXN + "TransactionStateManager.scala listTransactionStates (Dead left "
             "out; state, producer id, duration and pattern filters; unknown state names listed back); " + TXN
             + "TransactionMetadata.scala TransactionState names")
X2_SOURCE = (KIP664 + "; " + MSG + "DescribeTransactionsRequest.json, DescribeTransactionsResponse.json; " + TXN
             + "TransactionCoordinator.scala handleDescribeTransactions (TRANSACTIONAL_ID_NOT_FOUND for an id "
             "it does not have; state, producer id and epoch, timeout, topicPartitions); " + TXN
             + "TransactionMetadata.scala (topicPartitions cleared on completion)")

#: the transaction timeout InitProducerId asks: an example that dies leaves its transaction
#: to the coordinator, which aborts it after this long
TIMEOUT_MS = 60_000
#: where ListTransactions and DescribeTransactions list their entries
ENTRIES = ["transaction_states"]


class Transaction:
    """One example's transaction, through its coordinator: opened by :meth:`open`, ended
    by :meth:`end`, aborted by :meth:`close` if it was not."""

    def __init__(self, check, hint: str):
        check.require(ApiKey.InitProducerId)
        check.require(ApiKey.AddPartitionsToTxn)
        check.require(ApiKey.EndTxn)
        check.require(ApiKey.Produce)
        check.require_mutations()
        self.check, self.admin = check, Admin(check)
        self.topic, self.tid = check.topic(hint), check.topic(hint + "-txn")
        self.producer: tuple[int, int] | None = None
        self.ended = False

    def open(self, partitions: list[int]) -> None:
        self.admin.create_topic(self.topic, partitions=gen.PARTITIONS)
        self.coordinator = self.admin.transaction_coordinator(self.tid)
        self.producer = self.coordinator.init_producer_id(self.tid, TIMEOUT_MS)
        self.coordinator.add_partitions_to_txn(self.tid, self.producer, [(self.topic, partitions)])
        at = self.admin.produce(self.topic, partitions[0], 2, producer=(*self.producer, 0), transactional_id=self.tid)
        expect_setup(at >= 0, f"setup: transactional Produce to {self.topic}-{partitions[0]}: base offset {at}")

    def end(self, commit: bool) -> str:
        """Commit or abort; the state it completes in."""
        code = self.coordinator.end_txn(self.tid, self.producer, commit)
        self.ended = True
        expect_setup(code == Errors.NONE, f"setup: EndTxn ({'commit' if commit else 'abort'}) of {self.tid!r}: "
                                          f"error {code}")
        return COMPLETE[commit]

    def close(self) -> None:
        if self.producer is not None and not self.ended:
            try:
                self.coordinator.end_txn(self.tid, self.producer, False)
            except Exception:  # noqa: BLE001 - the clean-up of a failed example; the timeout aborts it anyway
                pass


@pytest.mark.prop("X1", source=X1_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version([ApiKey.ListTransactions]))
def test_x1_list_transactions_lists_an_open_then_ended_transaction_as_its_filters_select(check, api_key, version):
    """A transaction opened over the wire (InitProducerId with a run-prefixed transactional
    id, AddPartitionsToTxn, a transactional Produce) is listed by ListTransactions without
    filters with its producer id and state Ongoing, once; each drawn filter (states, producer
    ids, v1 DurationFilter, v2 TransactionalIdPattern) lists it exactly when every non-empty
    filter matches it (``TransactionStateManager.listTransactionStates``), and lists back the
    state names Kafka does not know in unknown_state_filters. After EndTxn commits or aborts it,
    the unfiltered listing shows it CompleteCommit or CompleteAbort (polled: PrepareCommit /
    PrepareAbort until the markers are written), and the same filters select it in that state."""
    check.require(ApiKey.ListTransactions, version)

    def lists(example):
        txn = Transaction(check, "x1")
        try:
            txn.open(example["partitions"])
            pid, tid, other = txn.producer[0], txn.tid, txn.tid + "-other"
            client, name = txn.coordinator.client, f"ListTransactions v{version}"

            def look(state, filters):
                client.answered(ApiKey.ListTransactions, version, build.list_transactions(version))
                ours = ENTRIES + [{"transactional_id": tid}]
                check.expect_field(["error_code"], [Errors.NONE], says=f"{name} (no filter): NONE")
                check.expect_field(ours + ["transaction_state"], [state], count=1,
                                   says=f"{name} (no filter): {tid!r} listed once, {state}")
                check.expect_field(ours + ["producer_id"], [pid], count=1,
                                   says=f"{name} (no filter): {tid!r} with producer id {pid}")
                for f in filters:
                    client.answered(ApiKey.ListTransactions, version, request_of(version, f, pid, tid, other))
                    want = listed(f, state)
                    unknown = unknown_states(f)
                    check.expect_field(["error_code"], [Errors.NONE], says=f"{name} {f}: NONE")
                    check.expect_field(ours + ["transaction_state"], [state], count=int(want),
                                       says=f"{name} {f} of {tid!r} ({state}, producer id {pid}): "
                                            + ("listed once" if want else "not listed"))
                    check.expect_field(["unknown_state_filters", "*"], unknown, count=len(unknown), distinct=True,
                                       says=f"{name} {f}: the unknown state names listed back, {unknown}")
            look("Ongoing", example["filters"])
            final = txn.end(example["commit"])
            check.poll(lambda: look(final, example["filters"]), within=VISIBLE_S)
        finally:
            txn.close()

    check.given(gen.listing(version), lists, first=gen.listing_first(version))


@pytest.mark.prop("X2", source=X2_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version([ApiKey.DescribeTransactions]))
def test_x2_describe_transactions_shows_the_partitions_added_and_refuses_an_unknown_id_alone(check, api_key,
                                                                                             version):
    """DescribeTransactions of a transaction opened over the wire (InitProducerId with a
    run-prefixed transactional id and a 60 s timeout, AddPartitionsToTxn of a drawn set of a
    fresh topic's partitions, a transactional Produce) and of a run-prefixed id never used
    answers the transaction NONE, Ongoing, with InitProducerId's producer id and epoch, the
    timeout asked and exactly the partitions added (one topic entry), and the unknown id
    TRANSACTIONAL_ID_NOT_FOUND, each once (``TransactionCoordinator.
    handleDescribeTransactions``). After EndTxn commits or aborts it, it is described
    CompleteCommit or CompleteAbort with the same producer id and no partition (polled:
    PrepareCommit / PrepareAbort until the markers are written), the unknown id still
    TRANSACTIONAL_ID_NOT_FOUND."""
    check.require(ApiKey.DescribeTransactions, version)

    def describes(example):
        txn = Transaction(check, "x2")
        unknown = check.topic("x2-none-txn")
        try:
            txn.open(example["partitions"])
            (pid, epoch), tid, added = txn.producer, txn.tid, sorted(example["partitions"])
            client, name = txn.coordinator.client, f"DescribeTransactions v{version}"

            def look(state, partitions):
                client.answered(ApiKey.DescribeTransactions, version, build.describe_transactions(version,
                                                                                                 [tid, unknown]))
                ours = ENTRIES + [{"transactional_id": tid}]
                check.expect_field(ours + ["error_code"], [Errors.NONE], count=1, says=f"{name} of {tid!r}: once, NONE")
                check.expect_field(ours + ["transaction_state"], [state], says=f"{name} of {tid!r}: {state}")
                check.expect_field(ours + ["producer_id"], [pid], says=f"{name} of {tid!r}: producer id {pid}")
                if state == "Ongoing":
                    check.expect_field(ours + ["producer_epoch"], [epoch], says=f"{name} of {tid!r}: epoch {epoch}")
                    check.expect_field(ours + ["transaction_timeout_ms"], [TIMEOUT_MS],
                                       says=f"{name} of {tid!r}: the timeout InitProducerId asked, {TIMEOUT_MS}")
                topics = ours + ["topics"]
                check.expect_field(topics + ["topic"], [txn.topic], count=1 if partitions else 0,
                                   says=f"{name} of {tid!r}: " + ("one topic entry, " + txn.topic if partitions
                                                                  else "no topic (the transaction completed)"))
                check.expect_field(topics + ["partitions", "*"], partitions, count=len(partitions), distinct=True,
                                   says=f"{name} of {tid!r}: exactly the partitions added, {partitions}"
                                   if partitions else f"{name} of {tid!r}: no partition")
                check.expect_field(ENTRIES + [{"transactional_id": unknown}, "error_code"],
                                   [Errors.TRANSACTIONAL_ID_NOT_FOUND], count=1,
                                   says=f"{name} of {unknown!r} (never used): once, TRANSACTIONAL_ID_NOT_FOUND")
            look("Ongoing", added)
            final = txn.end(example["commit"])
            check.poll(lambda: look(final, []), within=VISIBLE_S)
        finally:
            txn.close()

    check.given(gen.description(), describes, first=gen.DESCRIPTION_FIRST)
