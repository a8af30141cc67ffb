"""Kafka's rules for SCRAM credentials (DescribeUserScramCredentials,
AlterUserScramCredentials), as data.

Sources (apache/kafka):

* ``clients/src/main/java/org/apache/kafka/clients/admin/ScramMechanism.java``: the wire
  codes (0 UNKNOWN, 1 SCRAM-SHA-256, 2 SCRAM-SHA-512; ``fromType`` reads any other code as
  UNKNOWN).
* ``clients/src/main/java/org/apache/kafka/common/security/scram/internals/ScramMechanism.java``:
  ``minIterations`` 4096 for both mechanisms.
* ``metadata/src/main/java/org/apache/kafka/controller/ScramControlManager.java``:
  ``MAX_ITERATIONS`` 16384; ``alterCredentials`` keys a request by user name (a user named a
  second time, in deletions or upsertions, answers DUPLICATE_RESOURCE and none of its
  entries applies), ``validateScramUsernameAndMechanism`` (an empty name answers
  UNACCEPTABLE_CREDENTIAL, an UNKNOWN mechanism UNSUPPORTED_SASL_MECHANISM),
  ``validateUpsertion`` (iterations below the mechanism's minimum or above MAX_ITERATIONS
  answer UNACCEPTABLE_CREDENTIAL), ``validateDeletion`` (a credential not held answers
  RESOURCE_NOT_FOUND). The answer lists one result per user name.
* ``core/src/main/scala/kafka/server/ZkAdminManager.scala`` ``alterUserScramCredentials``
  (Kafka 3.x in ZooKeeper mode): a duplicate is a (user, mechanism) pair named twice, so a
  user's entries for its two mechanisms all apply (:func:`alter_in_zookeeper`).
* ``core/src/main/scala/kafka/server/metadata/ScramPublisher.scala`` / the metadata image's
  ``ScramImage.describe``: a user with no credential answers RESOURCE_NOT_FOUND, a user
  named twice DUPLICATE_RESOURCE, each alone.
"""
from __future__ import annotations

from typing import NamedTuple

from protocol.errors import Errors

SHA_256 = 1
SHA_512 = 2
UNKNOWN = 0
MECHANISMS = (SHA_256, SHA_512)
MECHANISM_NAMES = {SHA_256: "SCRAM-SHA-256", SHA_512: "SCRAM-SHA-512", UNKNOWN: "UNKNOWN"}
#: internals/ScramMechanism.java minIterations (both mechanisms)
MIN_ITERATIONS = {SHA_256: 4096, SHA_512: 4096}
#: ScramControlManager.MAX_ITERATIONS
MAX_ITERATIONS = 16384


class Upsertion(NamedTuple):
    name: str
    mechanism: int
    iterations: int
    salt: bytes
    salted_password: bytes


class Deletion(NamedTuple):
    name: str
    mechanism: int


def mechanism_name(m: int) -> str:
    return MECHANISM_NAMES.get(m, f"mechanism {m}")


def refusal(entry) -> int | None:
    """The code Kafka refuses one entry with on its own (None: valid), before it looks at
    what is held (``validateScramUsernameAndMechanism``, ``validateUpsertion``)."""
    if entry.name == "":
        return Errors.UNACCEPTABLE_CREDENTIAL
    if entry.mechanism not in MECHANISMS:
        return Errors.UNSUPPORTED_SASL_MECHANISM
    if isinstance(entry, Upsertion) and not MIN_ITERATIONS[entry.mechanism] <= entry.iterations <= MAX_ITERATIONS:
        return Errors.UNACCEPTABLE_CREDENTIAL
    return None


def alter(held: dict[str, dict[int, int]], deletions: list[Deletion], upsertions: list[Upsertion],
          zookeeper: bool | None = None) -> tuple[dict[str, int], dict[str, dict[int, int]]]:
    """Kafka's answer to one AlterUserScramCredentials and what is held after it
    (``ScramControlManager.alterCredentials``): ``held`` maps a user to its mechanisms'
    iterations. Returns the code per user name and the new holding. ``zookeeper``: as a
    ZooKeeper-mode broker answers (:func:`alter_in_zookeeper`); None: as the broker under
    check does (``reference/modes.py`` SCRAM_DUPLICATE_PER_MECHANISM)."""
    if zookeeper is None:
        from .modes import SCRAM_DUPLICATE_PER_MECHANISM
        zookeeper = SCRAM_DUPLICATE_PER_MECHANISM.now()
    if zookeeper:
        return alter_in_zookeeper(held, deletions, upsertions)
    codes: dict[str, int] = {}
    applied: dict[str, Deletion | Upsertion] = {}
    for e in [*deletions, *upsertions]:
        if e.name in codes:
            continue
        if applied.pop(e.name, None) is not None:
            codes[e.name] = Errors.DUPLICATE_RESOURCE
            continue
        code = refusal(e)
        if code is None and isinstance(e, Deletion) and e.mechanism not in held.get(e.name, {}):
            code = Errors.RESOURCE_NOT_FOUND
        if code is not None:
            codes[e.name] = code
        else:
            applied[e.name] = e
    after = {u: dict(ms) for u, ms in held.items()}
    for name, e in applied.items():
        codes[name] = Errors.NONE
        if isinstance(e, Deletion):
            after[name].pop(e.mechanism, None)
            if not after[name]:
                del after[name]
        else:
            after.setdefault(name, {})[e.mechanism] = e.iterations
    return codes, after


def alter_in_zookeeper(held: dict[str, dict[int, int]], deletions: list[Deletion], upsertions: list[Upsertion]
                       ) -> tuple[dict[str, int], dict[str, dict[int, int]]]:
    """``ZkAdminManager.alterUserScramCredentials`` (Kafka 3.x in ZooKeeper mode): a user with
    an illegal entry answers that entry's code (an upsertion's over a deletion's); a user
    naming one (user, mechanism) pair twice answers DUPLICATE_RESOURCE, while entries of its
    two mechanisms are all applied; a user deleting a credential it does not hold answers
    RESOURCE_NOT_FOUND; every other user answers NONE, its deletions applied, then its
    upsertions."""
    codes: dict[str, int] = {}
    for e in [*deletions, *upsertions]:         # the upsertions' map is added last: theirs win
        code = refusal(e)
        if code is not None:
            codes[e.name] = code
    pairs = [(e.name, e.mechanism) for e in [*upsertions, *deletions] if e.name not in codes]
    seen: set = set()
    for pair in pairs:
        if pair in seen:
            codes[pair[0]] = Errors.DUPLICATE_RESOURCE
        seen.add(pair)
    valid = {name for name, _ in pairs if name not in codes}
    for d in deletions:
        if d.name in valid and d.mechanism not in held.get(d.name, {}):
            codes[d.name] = Errors.RESOURCE_NOT_FOUND
    valid -= set(codes)
    after = {u: dict(ms) for u, ms in held.items()}
    for d in deletions:
        if d.name in valid:
            after.get(d.name, {}).pop(d.mechanism, None)
    for u in upsertions:
        if u.name in valid:
            after.setdefault(u.name, {})[u.mechanism] = u.iterations
    for name in valid:
        codes[name] = Errors.NONE
    return codes, {u: ms for u, ms in after.items() if ms}


def java_bucket(name: str, capacity: int = 16) -> int:
    """The bucket of ``name`` in a ``java.util.HashMap`` of ``capacity`` buckets
    (``String.hashCode`` spread by ``HashMap.hash``): the order a small HashMap keyed by user
    name visits its users in (``ScramDelta.apply``'s per-mechanism changes)."""
    h = 0
    for unit in name.encode("utf-16-be").hex(" ", 2).split():
        h = (31 * h + int(unit, 16)) & 0xFFFFFFFF
    h ^= h >> 16
    return h & (capacity - 1)


def last_holder_deleted_beside_an_upsertion(body: dict) -> bool:
    """An AlterUserScramCredentials whose valid entries delete one user's credential of a
    mechanism and upsert another user's credential of the same mechanism (each user named
    once: a user named twice applies nothing). Where the deleted user is the mechanism's
    only holder, released Kafka's ``ScramDelta.apply`` drops the upsertion (entry
    ``scram-upsertion-lost-when-a-deletion-empties-its-mechanism``)."""
    dels = [Deletion(d.get("name"), d.get("mechanism")) for d in body.get("deletions") or []]
    ups = [Upsertion(u.get("name"), u.get("mechanism"), u.get("iterations"), b"", b"")
           for u in body.get("upsertions") or []]
    names = [e.name for e in [*dels, *ups]]
    once = [e for e in [*dels, *ups] if isinstance(e.name, str) and names.count(e.name) == 1
            and isinstance(e.mechanism, int) and isinstance(getattr(e, "iterations", 0), int) and refusal(e) is None]
    deleted = {(e.mechanism, e.name) for e in once if isinstance(e, Deletion)}
    return any(isinstance(u, Upsertion) and any(m == u.mechanism and n != u.name for m, n in deleted) for u in once)
