"""Generic protocol faults (catalogue P1, P2, P3, P5, P6) on the admin APIs beyond topics and
configs: the same bug classes as ``faults/mutants/protocol.py`` (whose mutants cover every
API with per-item results), each aimed at one admin API beyond those two families (most are
the generic mutants narrowed to it), so the generic properties are shown to catch them there
too. Scored over kafka:4.4.0, which
serves them all.
"""
from __future__ import annotations

from protocol.apis import ApiKey
from protocol.errors import Errors
from reference.error_codes import may_answer

from .mutant import KAFKA_OVER, Mutant, mutant
from .protocol import AnswersAboveMax, ResultMissing, StaleCorrelationId


@mutant
class StaleCorrelationIdDescribeCluster(StaleCorrelationId):
    """DescribeCluster answers with the previous request's correlation id (a pipelining
    off-by-one in one handler)."""
    name = "stale-correlation-id-describe-cluster"
    apis = (ApiKey.DescribeCluster,)
    over = KAFKA_OVER


@mutant
class DescribeGroupsResultMissing(ResultMissing):
    """DescribeGroups leaves the last group it was asked about out of its answer."""
    name = "describe-groups-result-missing"
    apis = (ApiKey.DescribeGroups,)
    over = KAFKA_OVER


@mutant
class ListGroupsAnswersAboveMax(AnswersAboveMax):
    """ListGroups above the broker's max version is answered (at the max) instead of the
    connection being closed."""
    name = "list-groups-answers-above-max"
    apis = (ApiKey.ListGroups,)
    over = KAFKA_OVER


@mutant
class EndpointTypeErrorAtV0(Mutant):
    """DescribeCluster v0 answers UNSUPPORTED_ENDPOINT_TYPE (115), a code DescribeCluster has
    only from v1 (KIP-919; Kafka answers v0 INVALID_REQUEST where v1 answers 115)."""
    name = "endpoint-type-error-at-v0"
    catches = ("P5",)
    apis = (ApiKey.DescribeCluster,)
    over = KAFKA_OVER
    # P5 judges v0 only where the run provoked the code at v1+ (its row is unsupported
    # otherwise): P1's DescribeCluster checks draw the other endpoint types and provoke it
    pytest_args = ("conformance/test_protocol.py", "--property=P1", "-k", "DescribeCluster")

    def response(self, seen, body):
        if may_answer(ApiKey.DescribeCluster, Errors.UNSUPPORTED_ENDPOINT_TYPE, seen.api_version):
            return None
        return {**body, "error_code": Errors.UNSUPPORTED_ENDPOINT_TYPE,
                "error_message": "Unsupported endpoint type 1"}


@mutant
class DescribeClusterMessageOnSuccess(Mutant):
    """DescribeCluster answers a success with an error_message ("OK") at the top level."""
    name = "describe-cluster-message-on-success"
    catches = ("P6",)
    apis = (ApiKey.DescribeCluster,)
    over = KAFKA_OVER

    def response(self, seen, body):
        if body.get("error_code") == Errors.NONE:
            return {**body, "error_message": "OK"}
