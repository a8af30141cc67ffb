"""Which APIs and versions the properties are parametrised over (catalogue P1)."""
from __future__ import annotations

import pytest

from protocol import apis
from protocol.codec import ADMIN_APIS, APIS

#: Catalogue P1's admin APIs, in API-key order (the declarations of role ADMIN, protocol/apis.py).
ADMIN_KEYS = apis.keys(apis.Role.ADMIN)

#: Admin APIs whose requests create, delete or alter topics (declared ``mutates``).
MUTATING_KEYS = frozenset(apis.keys(apis.Role.ADMIN, mutating=True))


def every_version(api_keys=ADMIN_KEYS):
    """``(api_key, version)`` params for every schema version 0..max, removed ones included
    (the key as a plain int, as a decoded response carries it)."""
    return [pytest.param(int(k), v, id=f"{APIS[k].name}-v{v}")
            for k in api_keys for v in range(ADMIN_APIS[k].max_version + 1)]


def every_api(api_keys=ADMIN_KEYS):
    return [pytest.param(int(k), None, id=APIS[k].name) for k in api_keys]
