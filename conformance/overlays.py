"""pytest plugin (listed in conformance/conftest.py): the never-released APIs' options.

``--k2-api-key N``: the API key under which a broker serves KIP-694's DeletePartitions
(K2). None was ever assigned, so a broker implementing it picks one; the default is
``reference.partition_deletion.DEFAULT_API_KEY`` (also the emulating proxy's,
``proxy:k2@SPEC``; ``proxy:k2=N@SPEC`` for another). The overlay is registered into the
codec under that key when the run is configured; a key that is not an int16 or that Kafka
assigns is one line and exit 4.
"""
from __future__ import annotations

import pytest

from reference import partition_deletion as pd

OPTION = "--k2-api-key"


def pytest_addoption(parser):
    parser.getgroup("kafka-admin-conformance").addoption(
        OPTION, default=str(pd.DEFAULT_API_KEY), metavar="N",
        help="API key of KIP-694's DeletePartitions on the broker (K2; never assigned by Kafka; "
             f"default {pd.DEFAULT_API_KEY}, as the emulating proxy:k2@SPEC uses)")


def pytest_configure(config):
    try:
        pd.register(pd.parse_key(config.getoption(OPTION)))
    except ValueError as exc:
        raise pytest.UsageError(f"{OPTION}: {exc}") from None


def k2_api_key(config) -> int:
    return pd.parse_key(config.getoption(OPTION))
