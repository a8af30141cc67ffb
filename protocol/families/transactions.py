"""The producer and transaction APIs an administrator sends (DescribeProducers, KIP-664;
DescribeTransactions, ListTransactions): their declarations, request builders, Kafka's error
codes and the safe values of generated requests.

Error codes as released Apache Kafka (4.x, KRaft) answers them, each row with the place in
apache/kafka it was read from. The broker answers DescribeProducers itself (``KafkaApis``,
``ReplicaManager.activeProducerState``) and hands the transaction APIs to the transaction
coordinator (``TransactionCoordinator``). A producer's own requests (InitProducerId,
AddPartitionsToTxn, EndTxn) are ``participants.py``'s.
"""
from __future__ import annotations

from typing import Iterable

from ..building import Inexpressible, builds
from ..declaring import ADMIN, RUN_PARTITIONS, ApiKey, ApiSpec, Choice, Distinct, Family, OneOf, Range, Safe
from ..errors import Errors
from ..kafka_sources import HANDLE_ERROR, KAFKA_APIS, PARTITION_LEADER, REPLICA_MANAGER, message_source, src

DECLARATIONS = (
    ApiSpec(ApiKey.DescribeProducers, ADMIN, "topics[name].partitions[partition_index]",
            "topics[name].partition_indexes[]", identity={"topics.partitions.active_producers": ("producer_id",)}),
    ApiSpec(ApiKey.DescribeTransactions, ADMIN, "transaction_states[transactional_id]", "transactional_ids[]",
            identity={"transaction_states.topics": ("topic",)}),
    ApiSpec(ApiKey.ListTransactions, ADMIN, identity={"transaction_states": ("transactional_id",)}),
)


# -- request builders ------------------------------------------------------------------------

@builds(ApiKey.DescribeProducers)
def describe_producers(v: int, partitions: Iterable[tuple[str, Iterable[int]]]) -> dict:
    """The active producers of every partition in ``partitions`` (``(topic, [index, ...])``),
    DescribeProducersRequest.json (v0 only)."""
    return {"topics": [{"name": n, "partition_indexes": list(ps)} for n, ps in partitions]}


@builds(ApiKey.DescribeTransactions)
def describe_transactions(v: int, transactional_ids: Iterable[str]) -> dict:
    """The state of each transaction named (DescribeTransactionsRequest.json, v0 only)."""
    return {"transactional_ids": list(transactional_ids)}


@builds(ApiKey.ListTransactions)
def list_transactions(v: int, states: Iterable[str] = (), producer_ids: Iterable[int] = (),
                      duration_ms: int = -1, pattern: str | None = None) -> dict:
    """The coordinator's transactions matching every filter given (an empty one: all):
    ``states`` and ``producer_ids`` from v0, ``duration_ms`` (-1: any) from v1 (KIP-994),
    ``pattern`` (None: any) from v2 (KIP-1152) (ListTransactionsRequest.json); a filter the
    version cannot carry is Inexpressible."""
    if duration_ms != -1 and v < 1:
        raise Inexpressible(f"ListTransactions v{v} has no DurationFilter (v1+)")
    if pattern is not None and v < 2:
        raise Inexpressible(f"ListTransactions v{v} has no TransactionalIdPattern (v2+)")
    body = {"state_filters": list(states), "producer_id_filters": list(producer_ids)}
    if v >= 1:
        body["duration_filter"] = duration_ms
    if v >= 2:
        body["transactional_id_pattern"] = pattern
    return body


# -- error codes -----------------------------------------------------------------------------

TXN = "core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala"

ANY_VERSION = {
    ApiKey.DescribeProducers: {
        Errors.NONE: src(REPLICA_MANAGER, "activeProducerState"),
        **PARTITION_LEADER,
        Errors.TOPIC_AUTHORIZATION_FAILED: src(KAFKA_APIS, "handleDescribeProducersRequest: no READ on the topic"),
        Errors.INVALID_TOPIC_EXCEPTION: src(KAFKA_APIS, "handleDescribeProducersRequest: partitionError for a name "
                                                         "Topic.validate refuses"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.DescribeTransactions: {
        Errors.NONE: src(TXN, "handleDescribeTransactions: the transaction's state"),
        Errors.TRANSACTIONAL_ID_NOT_FOUND: src(TXN, "handleDescribeTransactions: no such transactional id"),
        Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED: src(KAFKA_APIS, "handleDescribeTransactionsRequest: no "
                                                                       "DESCRIBE on the transactional id"),
        Errors.COORDINATOR_NOT_AVAILABLE: src(TXN, "handleDescribeTransactions: the coordinator is not active"),
        Errors.NOT_COORDINATOR: src(TXN, "handleDescribeTransactions: the id's partition is not led here"),
        Errors.COORDINATOR_LOAD_IN_PROGRESS: src(TXN, "handleDescribeTransactions: the partition is loading"),
        Errors.INVALID_REQUEST: src(TXN, "handleDescribeTransactions: an empty transactional id"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.ListTransactions: {
        Errors.NONE: src(TXN, "handleListTransactions"),
        Errors.COORDINATOR_LOAD_IN_PROGRESS: src(TXN, "handleListTransactions: a partition loading"),
        Errors.COORDINATOR_NOT_AVAILABLE: src(TXN, "handleListTransactions: the coordinator is not active"),
        Errors.INVALID_REQUEST: src(TXN, "handleListTransactions: a transactional_id_pattern that is not a regular "
                                          "expression / a negative duration filter"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
}

#: api -> (null on success, note): what Kafka puts in error_message (DescribeProducers'
#: schema gives ``"default": "null"``).
ERROR_MESSAGE_KAFKA = {
    ApiKey.DescribeProducers: (True, message_source("DescribeProducers", src(KAFKA_APIS, "handleDescribeProducersRequest: "
                                                                                    "ApiError.NONE.message() null"))),
}

# -- safe values -----------------------------------------------------------------------------

#: apache/kafka transaction-coordinator/src/main/java/org/apache/kafka/coordinator/transaction/TransactionState.java
TRANSACTION_STATES = ("Empty", "Ongoing", "PrepareCommit", "PrepareAbort", "CompleteCommit", "CompleteAbort",
                      "Dead", "PrepareEpochFence")


def _transactional_id_pattern(names, v):
    return Choice((None, names.prefix + ".*", "^" + names.prefix.replace("-", "\\-") + ".*$", names.prefix))


SAFE = {
    ApiKey.DescribeProducers: {"topics.partition_indexes": RUN_PARTITIONS},
    ApiKey.ListTransactions: {
        "state_filters": Safe(Distinct(OneOf((Choice(TRANSACTION_STATES), "kac-unknown")), max_size=2),
                              "Kafka's transaction states, an unknown one"),
        "producer_id_filters": Safe(Distinct(Range(-1, 1 << 40), max_size=2), "producer ids"),
        "duration_filter": Safe(Choice((-1, 0, 60_000)), "none, any, a minute"),
        "transactional_id_pattern": Safe(_transactional_id_pattern, "none or the run's ids (a regular expression)"),
    },
}

FAMILY = Family("producers and transactions", __name__, DECLARATIONS, codes=ANY_VERSION,
                messages=ERROR_MESSAGE_KAFKA, safe=SAFE)
