"""S1: random sequences of admin requests keep the broker equal to a model of the cluster.

The operations (one class per API), the runs, the state machine, shrinking and replay are
the package ``conformance/stateful/``; the model and Kafka's semantics it predicts are in
``conformance/cluster_model.py``. One row per broker and *focus* API (``api_version``
null): in the row of API X, X's requests are generated in full (every advertised version,
bad items, duplicates, validate_only) among plain requests of the other APIs. A failure is
a shrunk script of requests in the row's message and counterexample (``input.steps`` is
what ``--replay FILE:ROW`` re-runs).
"""
from __future__ import annotations

import pytest

from .parametrize import every_api
from .stateful import FOCUS_KEYS, SOURCE, run_s1


@pytest.mark.prop("S1", source=SOURCE)
@pytest.mark.parametrize("api_key,version", every_api(FOCUS_KEYS))
def test_s1_random_admin_sequences_keep_the_broker_equal_to_the_model(check, api_key, version):
    """Random sequences of admin requests focused on ``api_key`` (every advertised version,
    bad items, duplicates, validate_only), interleaved with plain requests of the other
    APIs: every answer matches the model's prediction and, after every step, Metadata
    (and ListOffsets in the log rows, DescribeConfigs in the config rows) match the model."""
    run_s1(check, api_key)
