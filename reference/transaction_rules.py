"""ListTransactions' filters as data (catalogue X1): which of a coordinator's transactions a
request lists, and the request a drawn filter (``strategies/transactions.py``) is.

* apache/kafka core/src/main/scala/kafka/coordinator/transaction/TransactionStateManager.scala
  ``listTransactionStates``: a ``Dead`` transaction is never listed; each non-empty filter
  must match: the state among the known state names asked (a name
  ``TransactionState.fromName`` does not know is listed back in ``unknown_state_filters``),
  the producer id among those asked, v1 (KIP-994) a DurationFilter >= 0 keeps only what
  started more than that long ago, v2 (KIP-1152) the transactional id matching the pattern
  (null or empty: any).
* apache/kafka core/src/main/scala/kafka/coordinator/transaction/TransactionMetadata.scala
  ``TransactionState.AllStates``: the state names, ``Dead`` and ``PrepareEpochFence`` among them.
* apache/kafka clients/src/main/resources/common/message/ListTransactionsRequest.json.
"""
from __future__ import annotations

import re

from protocol import requests

#: ``TransactionState.AllStates``' names
STATES = ("Empty", "Ongoing", "PrepareCommit", "PrepareAbort", "CompleteCommit", "CompleteAbort",
          "PrepareEpochFence", "Dead")
#: the state a completed transaction is listed and described in, by ``committed``
COMPLETE = {True: "CompleteCommit", False: "CompleteAbort"}


def listed(f: dict, state: str) -> bool:
    """Whether ListTransactions with filter ``f`` (``strategies.transactions``) lists the
    example's transaction in ``state``, started less than an hour ago (every example's): the
    producer-id filter ``"other"`` names only another id, the pattern ``"other"`` matches
    only another transactional id."""
    if state == "Dead":
        return False
    if f["states"] and state not in f["states"]:
        return False
    if f["pids"] == "other":
        return False
    if f["duration"] >= 0:
        return False
    return f["pattern"] != "other"


def unknown_states(f: dict) -> list[str]:
    """The state names of ``f`` Kafka does not know: listed back in ``unknown_state_filters``."""
    return [s for s in f["states"] if s not in STATES]


def request_of(v: int, f: dict, pid: int, tid: str, other: str) -> dict:
    """The ListTransactions v``v`` body of filter ``f`` for the transaction ``tid`` of
    producer ``pid``: the other producer id is ``pid`` + 1, the other transactional id
    ``other``; a pattern of one id matches exactly it (anchored and quoted, so that Java's
    ``Matcher.matches`` and ``find`` agree)."""
    pids = {"none": [], "ours": [pid], "other": [pid + 1], "both": [pid, pid + 1]}[f["pids"]]
    pattern = f["pattern"]
    if pattern in ("ours", "other"):
        pattern = "^" + re.escape(tid if pattern == "ours" else other) + "$"
    return requests.list_transactions(v, f["states"], pids, f["duration"], pattern)


__all__ = ["COMPLETE", "STATES", "listed", "request_of", "unknown_states"]
