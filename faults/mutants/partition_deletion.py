"""Partition deletion done wrong (catalogue K2): the emulation, one rule broken each.

Each mutant is the emulating broker of :mod:`faults.emulate` (KIP-694's DeletePartitions)
with one of the rules of ``reference/partition_deletion.py`` broken, run as
``proxy:MUTANT@proxy:k2@tansu``: the outer proxy answers DeletePartitions itself and filters
Metadata through its own model, so the inner emulation only supplies the baseline
(``proxy:none@proxy:k2@tansu``, where K2 passes).
"""
from __future__ import annotations

from protocol.errors import Errors
from faults.emulate import PartitionDeletion
from .mutant import mutant

OVER = "proxy:k2@tansu"


class _Deviation(PartitionDeletion):
    catches = ("K2",)
    shim = False
    over = OVER


@mutant
class ValidateOnlyDeletes(_Deviation):
    """A validate_only DeletePartitions deletes the partitions (KIP-201: validate_only
    changes nothing)."""
    name = "k2-validate-only-deletes"

    def applies(self, request):
        return True


@mutant
class LastPartitionDeletable(_Deviation):
    """Deleting from partition 0 (every partition) is accepted and leaves a topic without
    partitions (a topic keeps at least one; that is DeleteTopics' job)."""
    name = "k2-every-partition-deletable"

    def verdict(self, name, k):
        code, msg = super().verdict(name, k)
        if k == 0 and self.count(name) is not None:
            return Errors.NONE, None
        return code, msg


@mutant
class MissingPartitionAccepted(_Deviation):
    """Deleting from a partition the topic does not have (k >= its count) answers NONE
    instead of INVALID_PARTITIONS."""
    name = "k2-missing-partition-accepted"

    def verdict(self, name, k):
        n = self.count(name)
        if n is not None and k >= n:
            return Errors.NONE, None
        return super().verdict(name, k)


@mutant
class InvalidRequestForInvalidPartitions(_Deviation):
    """A deletion the topic cannot take answers INVALID_REQUEST (42) instead of
    INVALID_PARTITIONS (37)."""
    name = "k2-wrong-refusal-code"

    def verdict(self, name, k):
        code, msg = super().verdict(name, k)
        return (Errors.INVALID_REQUEST, msg) if code == Errors.INVALID_PARTITIONS else (code, msg)


@mutant
class DeletionNotApplied(_Deviation):
    """DeletePartitions answers NONE but Metadata keeps listing the deleted partitions."""
    name = "k2-partitions-still-listed"

    def apply(self, name, k):
        return None


@mutant
class BatchFailsTogether(_Deviation):
    """One failing item fails every item of the request with its code, and nothing is
    deleted (per-topic results are not transactional: KIP-201, and KIP-4's DeleteTopics vote)."""
    name = "k2-batch-fails-together"

    def settle(self, verdicts):
        bad = next(((code, msg) for _, _, code, msg in verdicts if code != Errors.NONE), None)
        if bad is None:
            return verdicts
        return [(n, k, *bad) for n, k, _, _ in verdicts]


@mutant
class ErrorsWithoutMessage(_Deviation):
    """Errors carry no error_message (KIP-201: the response's errors carry messages)."""
    name = "k2-error-without-message"

    def message(self, code, text):
        return None
