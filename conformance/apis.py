"""Which APIs and versions the properties are parametrised over (catalogue P1)."""
from __future__ import annotations

import pytest

from protocol.codec import ADMIN_APIS, APIS

#: Catalogue P1's admin APIs, in API-key order.
ADMIN_KEYS = (3, 18, 19, 20, 21, 32, 33, 37, 44)

#: APIs whose requests create, delete or alter topics.
MUTATING_KEYS = frozenset({19, 20, 21, 33, 37, 44})


def every_version(api_keys=ADMIN_KEYS):
    """``(api_key, version)`` params for every schema version 0..max, removed ones included."""
    return [pytest.param(k, v, id=f"{APIS[k].name}-v{v}")
            for k in api_keys for v in range(ADMIN_APIS[k].max_version + 1)]


def every_api(api_keys=ADMIN_KEYS):
    return [pytest.param(k, None, id=APIS[k].name) for k in api_keys]
