"""Every request builder under one name: ``from protocol import requests as build``, then
``build.delete_topics(v, names=[...])``.

A builder lives in the family module that declares its API (``protocol/families/``), next to
that API's error codes and safe values, and says which API it builds
(``protocol.building.builds``); what every builder shares (the suite's timeout,
:class:`Inexpressible`, the topic id that names nothing) is ``protocol/building.py``'s. This
module holds no builder of its own: it gathers every registered builder by its name (so a
builder added to its family is ``build.X`` with no line here) and, by name, the few enums and
constants of the families that callers pass to builders. Two builders of one name fail at
import. Only the generic properties, which must send odd shapes on purpose, write raw bodies.
"""
from __future__ import annotations

from .building import BUILDERS, TIMEOUT_MS, ZERO_UUID, Inexpressible
from .families import REGISTERED
from .families.acls import (ACL_CREATION_FIELDS, ACL_FILTER_FIELDS, AclOperation, AclPatternType, AclPermission,
                            AclResourceType)
from .families.cluster import CLIENT_SOFTWARE
from .families.groups import Commit
from .families.log_dirs import PREFERRED, UNCLEAN


def _by_name() -> dict[str, object]:
    named: dict[str, object] = {}
    modules = {f.module for f in REGISTERED}
    for fn in (fn for fn in BUILDERS if fn.__module__ in modules):
        if fn.__name__ in named:
            raise ValueError(f"two builders named {fn.__name__}: {named[fn.__name__].__module__} and {fn.__module__}")
        named[fn.__name__] = fn
    return named


#: builder name -> builder, of every registered family.
BY_NAME = _by_name()
globals().update(BY_NAME)

__all__ = ["ACL_CREATION_FIELDS", "ACL_FILTER_FIELDS", "BY_NAME", "CLIENT_SOFTWARE", "PREFERRED", "TIMEOUT_MS",
           "UNCLEAN", "ZERO_UUID", "AclOperation", "AclPatternType", "AclPermission", "AclResourceType", "Commit",
           "Inexpressible", *sorted(BY_NAME)]
