"""ListTransactions and DescribeTransactions faults (catalogue X1, X2): what KIP-664's
tooling reads of a coordinator's transactions. A coordinator whose ListTransactions ignores
the state filter, or the producer-id filter (lists every transaction); one whose
DescribeTransactions leaves out the last partition of each topic a transaction added, or
answers a transactional id it does not have NONE instead of TRANSACTIONAL_ID_NOT_FOUND.
Measured over ``kafka:4.4.0`` (tansu serves neither API; noida fails X1: it lists ``Dead``
back as an unknown state filter).
"""
from __future__ import annotations

from protocol.apis import ApiKey
from protocol.errors import Errors

from .mutant import KAFKA_OVER, Ignoring, Mutant, Recoding, declared, mutant

OVER = KAFKA_OVER


declared(Ignoring, "list-transactions-ignores-state-filter",
         """ListTransactions lists transactions of every state, whatever StateFilters names.""",
         catches=("X1",), apis=(ApiKey.ListTransactions,), over=OVER, ignores=("state_filters", []))
declared(Ignoring, "list-transactions-ignores-producer-id-filter",
         """ListTransactions lists the transactions of every producer, whatever ProducerIdFilters names.""",
         catches=("X1",), apis=(ApiKey.ListTransactions,), over=OVER, ignores=("producer_id_filters", []))


@mutant
class DescribeDropsAPartition(Mutant):
    """DescribeTransactions leaves out the last partition of each topic in a transaction."""
    name = "describe-transactions-drops-a-partition"
    catches = ("X2",)
    apis = (ApiKey.DescribeTransactions,)
    over = OVER

    def response(self, seen, body):
        return {**body, "transaction_states": [
            {**s, "topics": [{**t, "partitions": (t.get("partitions") or [])[:-1]} for t in s.get("topics") or []]}
            for s in body.get("transaction_states") or []]}


declared(Recoding, "describe-transactions-finds-an-unknown-id",
         """DescribeTransactions answers a transactional id the coordinator does not have NONE
         (an empty description) instead of TRANSACTIONAL_ID_NOT_FOUND.""",
         catches=("X2",), apis=(ApiKey.DescribeTransactions,), over=OVER,
         recodes=(Errors.TRANSACTIONAL_ID_NOT_FOUND, Errors.NONE))
