"""Kafka's client quota rules (catalogue Q1-Q5), as data and small functions.

Sources (apache/kafka):

* ``metadata/src/main/java/org/apache/kafka/controller/ClientQuotaControlManager.java``
  (``alterClientQuotas``, ``alterClientQuotaEntity``, ``validateEntity``,
  ``configKeysForEntityType``, ``validateQuotaKeyValue``): an entry is refused alone with
  INVALID_REQUEST for a duplicate key in its ops, an empty entity, an entity type other than
  user / client-id / ip, ip together with user or client-id, a key the entity's kind has no
  config for, a value <= 0, or a fractional value of an integral key; a removal of a key
  not held writes nothing; the other entries are applied.
* ``server-common/src/main/java/org/apache/kafka/server/config/QuotaConfig.java``
  (``userAndClientQuotaConfigs``, ``ipConfigs``): the keys and their types.
* ``metadata/src/main/java/org/apache/kafka/image/ClientQuotasImage.java`` (``describe``,
  ``matches``): a filter component of match type 0 matches an entity with that type and
  name, 1 one with that type and the default (null) name, 2 one with that type whatever
  its name; ``strict`` also needs the entity to have no other type.
"""
from __future__ import annotations

from protocol import Errors

USER, CLIENT_ID, IP = "user", "client-id", "ip"
ENTITY_TYPES = (USER, CLIENT_ID, IP)

#: DescribeClientQuotasRequest.json's MatchType: "0 = exact name, 1 = default name, 2 = any
#: specified name"
MATCH_EXACT, MATCH_DEFAULT, MATCH_SPECIFIED = 0, 1, 2

#: QuotaConfig.userAndClientQuotaConfigs: key -> integral (LONG) or not (DOUBLE)
USER_CLIENT_KEYS = {"producer_byte_rate": True, "consumer_byte_rate": True,
                    "request_percentage": False, "controller_mutation_rate": False}
#: QuotaConfig.ipConfigs
IP_KEYS = {"connection_creation_rate": True}

#: A client quota entity: sorted ((type, name), ...); an op: (key, value) with value None for a removal.
QuotaEntity = tuple


def entity(**components) -> QuotaEntity:
    """``entity(user="u", client_id="c")`` as a sorted tuple of (type, name)."""
    return tuple(sorted((k.replace("_", "-"), v) for k, v in components.items()))


def alter_code(ent: QuotaEntity, ops: list[tuple[str, float | None]], values_checked: bool = True,
               duplicates_checked: bool = True) -> int:
    """The code ClientQuotaControlManager answers one entry of AlterClientQuotas.
    ``duplicates_checked``: a key named twice is refused (KRaft; ZooKeeper mode accepts it,
    ``reference/modes.py`` QUOTA_DUPLICATE_KEY_REFUSED). ``values_checked``: a value <= 0 is
    refused and an integral key's value must have no fraction (KRaft from 3.5, KAFKA-14943;
    before, and in ZooKeeper mode, only ``(value + 1e-6).toLong`` is compared with the value:
    ``reference/release_lines.py`` QUOTA_VALUES_CHECKED)."""
    keys = [k for k, _ in ops]
    if duplicates_checked and len(set(keys)) != len(keys):
        return Errors.INVALID_REQUEST                   # "Duplicate quota key"
    # AlterClientQuotasRequest.entries puts an entry's components in a map: a type named twice
    # is named once (its last name) before validateEntity sees it
    ent = tuple(dict(ent).items())
    types = [t for t, _ in ent]
    if not ent or any(t not in ENTITY_TYPES for t in types):
        return Errors.INVALID_REQUEST                   # validateEntity
    if any(n == "" for _, n in ent):
        return Errors.INVALID_REQUEST                   # "Empty ... not supported"
    if IP in types and len(types) > 1:
        return Errors.INVALID_REQUEST                   # configKeysForEntityType: ip with user/client-id
    valid = IP_KEYS if IP in types else USER_CLIENT_KEYS
    for k, v in ops:
        if v is None:
            continue                                    # a removal is not validated
        if k not in valid or (values_checked and v <= 0.0):
            return Errors.INVALID_REQUEST               # validateQuotaKeyValue
        if valid[k] and (abs(v % 1.0) > 1e-6 if values_checked else abs(int(v + 1e-6) - v) > 1e-6):
            # KRaft 3.5+: getErrorForIntegralQuotaValue; before, and ZooKeeper mode
            # (ZkAdminManager): (value + epsilon).toLong, which truncates towards zero,
            # so a negative whole value fails it too
            return Errors.INVALID_REQUEST
    return Errors.NONE


def filter_error(components: list[tuple[str, int, str | None]]) -> int:
    """The code DescribeClientQuotas answers a filter (``ClientQuotasImage.describe``)."""
    seen = set()
    for t, match_type, match in components:
        if not t or t in seen:
            return Errors.INVALID_REQUEST
        seen.add(t)
        if t not in ENTITY_TYPES:
            return Errors.UNSUPPORTED_VERSION
        if (match_type == MATCH_EXACT) != (match is not None) or match_type not in (0, 1, 2):
            return Errors.INVALID_REQUEST
    if IP in seen and (USER in seen or CLIENT_ID in seen):
        return Errors.INVALID_REQUEST
    return Errors.NONE


def matches(ent: QuotaEntity, components: list[tuple[str, int, str | None]], strict: bool) -> bool:
    """``ClientQuotasImage.matches``."""
    names = dict(ent)
    if strict and len(names) != len(components):
        return False
    for t, match_type, match in components:
        if t not in names:
            return False
        if match_type == MATCH_EXACT and names[t] != match:
            return False
        if match_type == MATCH_DEFAULT and names[t] is not None:
            return False
    return True


__all__ = ["CLIENT_ID", "ENTITY_TYPES", "IP", "IP_KEYS", "MATCH_DEFAULT", "MATCH_EXACT", "MATCH_SPECIFIED", "USER",
           "USER_CLIENT_KEYS", "alter_code", "entity", "filter_error", "matches"]
