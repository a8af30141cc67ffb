"""U1-U3: SCRAM credentials (DescribeUserScramCredentials, AlterUserScramCredentials) as
released Apache Kafka keeps them (KIP-554, "Add Broker-side SCRAM Config API").

Kafka's rules, with their sources, are in ``reference/scram_rules.py``: the controller
validates and applies an AlterUserScramCredentials request user by user
(``ScramControlManager.alterCredentials``: a user named twice answers DUPLICATE_RESOURCE and
none of its entries applies; ``validateScramUsernameAndMechanism`` and ``validateUpsertion``
refuse an empty name, an unknown mechanism and iterations outside ``minIterations`` ..
``MAX_ITERATIONS`` alone), and a broker describes the credentials of its metadata image
(``ScramImage.describe``: a mechanism and its iterations per credential, never the salt or
the keys; a user without credentials answers RESOURCE_NOT_FOUND, a user named twice
DUPLICATE_RESOURCE, each alone).

Each example names its own users (run-prefixed: ``check.topic``), so what it describes is
its own on a shared cluster too; the end-of-run clean-up (``fixtures/leftovers.py``) deletes
the run's SCRAM users on a cluster the suite did not start. A broker serves the describe
from its metadata image, which follows the controller asynchronously: what is held is
polled for ``VISIBLE_S``. In KRaft both APIs work without a SCRAM listener (the
metadata.version must support SCRAM: 3.5 and later), so no preset is needed. A broker that
does not advertise one of the two APIs answers ``unsupported`` naming it.
"""
from __future__ import annotations

import pytest
from hypothesis import strategies as st

from fixtures.harness import Unsupported
from fixtures.waiting import VISIBLE_S, eventually
from protocol import ApiKey, Errors
from protocol import requests as build
from protocol.errors import error_name
from reference import known_deviations as known
from reference.scram_rules import (SHA_256, SHA_512, Deletion, Upsertion, alter, java_bucket,
                                   mechanism_name, refusal)
from strategies import scram_credentials as gen

from .parametrize import every_version
from .scram_client import Scram, show
from protocol.kafka_sources import KAFKA

CONTROL = KAFKA + "metadata/src/main/java/org/apache/kafka/controller/ScramControlManager.java"
DESCRIBE = KAFKA + "metadata/src/main/java/org/apache/kafka/image/ScramImage.java (describe)"
U1_SOURCE = (CONTROL + " (alterCredentials, finishUpsertion); " + DESCRIBE + "; " + KAFKA
             + "clients/src/main/resources/common/message/DescribeUserScramCredentialsResponse.json")
U2_SOURCE = (CONTROL + " (alterCredentials, validateUpsertion, validateScramUsernameAndMechanism); " + KAFKA
             + "clients/src/main/java/org/apache/kafka/common/security/scram/internals/ScramMechanism.java "
               "(minIterations)")
U3_SOURCE = DESCRIBE


def named(entry, names: dict[str, str]):
    return entry._replace(name=names[entry.name])


def _by_round(upsertions: list[Upsertion]) -> list[list[Upsertion]]:
    """Upsertions in requests that name each user once: round k holds each user's k-th."""
    rounds: list[list[Upsertion]] = []
    seen: dict[str, int] = {}
    for u in upsertions:
        k = seen.get(u.name, 0)
        seen[u.name] = k + 1
        if len(rounds) <= k:
            rounds.append([])
        rounds[k].append(u)
    return rounds


def _u1_first() -> list[Upsertion]:
    return [Upsertion(gen.USER + "0", SHA_256, 4096, bytes(range(7, 23)), bytes(range(100, 132))),
            Upsertion(gen.USER + "0", SHA_512, 16384, bytes(range(30, 46)), bytes(range(150, 182))),
            Upsertion(gen.USER + "1", SHA_512, 8192, bytes(range(60, 80)), bytes(range(200, 224)))]


@pytest.mark.prop("U1", source=U1_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.AlterUserScramCredentials,)))
def test_u1_an_upserted_credential_is_described_without_its_secrets_and_a_deletion_removes_it(check, api_key,
                                                                                               version):
    """AlterUserScramCredentials at this version upserts one or two mechanisms
    (SCRAM-SHA-256, SCRAM-SHA-512) for one or two fresh users, each user once per request:
    every user answers NONE, and DescribeUserScramCredentials then lists each user with
    exactly its mechanisms and their iterations; no salt or salted password upserted appears
    in the raw answer, as bytes, hex or base64 (the response schema has no such field, and
    ``ScramImage.describe`` copies only mechanism and iterations). A deletion of each user's
    first mechanism answers NONE and removes it (the user lists only the other, or answers
    RESOURCE_NOT_FOUND), and deleting the rest empties every user."""
    check.require(api_key, version)
    scram = Scram(check)

    def judged(value):
        names = scram.names(value)
        ups = [named(u, names) for u in value]
        users = list(dict.fromkeys(u.name for u in ups))
        secrets = [s for u in ups for s in (u.salt, u.salted_password)]
        held: dict[str, dict[int, int]] = {}
        for batch in _by_round(ups):
            scram.alter(upsertions=batch, version=version)
            codes, held = alter(held, [], batch)
            scram.expect_altered(codes, "Kafka upserts each valid credential")
        scram.held_as(held, users, "after the upsertions", secrets)
        for n in (1, 2):
            dels = [Deletion(u, sorted(held[u])[0]) for u in users if u in held]
            if not dels:
                break
            scram.alter(deletions=dels, version=version)
            codes, held = alter(held, dels, [])
            scram.expect_altered(codes, f"deletion {n}: Kafka deletes each held credential")
            scram.held_as(held, users, f"after deletion {n} of {', '.join(f'{d.name} {mechanism_name(d.mechanism)}' for d in dels)}",
                          secrets)

    check.given(gen.users_credentials(), judged, first=_u1_first())


#: how a request names one user twice (the first entry of each pair comes first in its list;
#: deletions come before upsertions on the wire)
TWICE = ("two upsertions of one mechanism", "two upsertions of both mechanisms", "a deletion and an upsertion",
         "two deletions")


def _twice(kind: str, user: str, held_mech: int, draw) -> tuple[list[Deletion], list[Upsertion]]:
    other = SHA_512 if held_mech == SHA_256 else SHA_256
    if kind == "two upsertions of one mechanism":
        return [], [draw(gen.upsertion(user, other)), draw(gen.upsertion(user, other))]
    if kind == "two upsertions of both mechanisms":
        return [], [draw(gen.upsertion(user, SHA_256)), draw(gen.upsertion(user, SHA_512))]
    if kind == "a deletion and an upsertion":
        return [Deletion(user, held_mech)], [draw(gen.upsertion(user))]
    return [Deletion(user, held_mech), Deletion(user, held_mech)], []


@st.composite
def _duplicates(draw):
    """A user held with one mechanism, named twice in one request (``kind``), beside another
    user's valid upsertion."""
    held = draw(gen.upsertion(gen.USER + "0"))
    kind = draw(st.sampled_from(TWICE))
    dels, ups = _twice(kind, gen.USER + "0", held.mechanism, draw)
    other = draw(gen.upsertion(gen.USER + "1"))
    return {"held": held, "kind": kind, "deletions": dels, "upsertions": draw(st.permutations(ups + [other]))}


def _setup(scram, held_ups: list[Upsertion]) -> dict[str, dict[int, int]]:
    held: dict[str, dict[int, int]] = {}
    for batch in _by_round(held_ups):
        scram.alter(upsertions=batch)
        codes, held = alter(held, [], batch)
        scram.expect_altered(codes, "setup: Kafka upserts each valid credential")
    return held


def _held_then_altered(scram, value: dict, version: int):
    """U2's example: the user of ``value["held"]`` holds its credential, then one
    AlterUserScramCredentials at ``version`` sends the example's deletions and upsertions
    (all named for this run). (names, the held upsertion, deletions, upsertions, the codes
    Kafka answers, what is held afterwards)."""
    names = scram.names([value["held"], *value["deletions"], *value["upsertions"]])
    base = named(value["held"], names)
    dels = [named(d, names) for d in value["deletions"]]
    ups = [named(u, names) for u in value["upsertions"]]
    held = _setup(scram, [base])
    scram.alter(dels, ups, version)
    codes, after = alter(held, dels, ups)
    return names, base, dels, ups, codes, after


@pytest.mark.prop("U2", source=U2_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.AlterUserScramCredentials,)))
def test_u2_a_user_named_twice_answers_duplicate_resource_and_changes_nothing(check, api_key, version):
    """An AlterUserScramCredentials at this version naming one user twice (two upsertions,
    of one mechanism or of both, a deletion and an upsertion, or two deletions) beside a
    valid upsertion of another user: the user named twice answers DUPLICATE_RESOURCE (one
    result: ``alterCredentials`` keys its answer by user) and keeps exactly what it held; the
    other user answers NONE and holds its upsertion. A ZooKeeper-mode broker refuses only a
    (user, mechanism) pair named twice and applies a user's entries of its two mechanisms
    (``ZkAdminManager.alterUserScramCredentials``; reference/modes.py)."""
    check.require(api_key, version)
    scram = Scram(check)

    def judged(value):
        names, base, dels, ups, codes, after = _held_then_altered(scram, value, version)
        how = ("Kafka answers DUPLICATE_RESOURCE for it and applies the other user's"
               if codes.get(base.name) == Errors.DUPLICATE_RESOURCE else
               "a ZooKeeper-mode Kafka applies a user's entries of its two mechanisms (a duplicate is a (user, "
               "mechanism) pair there: reference/modes.py SCRAM_DUPLICATE_PER_MECHANISM)")
        scram.expect_altered(codes, f"{value['kind']} of {base.name!r}: {how}")
        scram.held_as(after, list(dict.fromkeys(names.values())), f"after {value['kind']} of {base.name!r}")
        scram.forget(after)

    check.given(_duplicates(), judged, first=_first_duplicates())


def _first_duplicates() -> dict:
    """The example U2 asks first (on a broker without the refusal it fails at once, and is
    not shrunk): two upsertions of the mechanism a user does not hold, beside another user's
    upsertion (no deletion: not the known deviation's shape)."""
    ups = [gen.first_upsertion(gen.USER + "0", SHA_512)] * 2
    return {"held": gen.first_upsertion(gen.USER + "0", SHA_256), "kind": TWICE[0], "deletions": [],
            "upsertions": ups + [gen.first_upsertion(gen.USER + "1", SHA_256)]}


@st.composite
def _refused(draw, kind: str, avoided: frozenset = frozenset()):
    """One entry Kafka refuses alone (``kind``) beside a valid upsertion of a fresh user and
    the deletion of a held user's credential. Where the broker has the known deviation of
    that shape (``avoided``), the upsertion is of the other mechanism than the deletion."""
    bad = draw(gen.refused(kind))
    held = draw(gen.upsertion(gen.USER + "0"))
    if known.SCRAM_DELETION_BESIDE_AN_UPSERTION in avoided:
        other = draw(gen.upsertion(gen.USER + "1", SHA_512 if held.mechanism == SHA_256 else SHA_256))
    else:
        other = draw(gen.upsertion(gen.USER + "1"))
    value = _beside(held, other, bad)
    return {**value, "deletions": draw(st.permutations(value["deletions"])),
            "upsertions": draw(st.permutations(value["upsertions"]))}


def _beside(held: Upsertion, other: Upsertion, bad) -> dict:
    """U2's example: the deletion of ``held``'s credential and the upsertion ``other``, with
    the refused entry ``bad`` among the deletions or the upsertions (as it is one)."""
    ups = [other] + ([bad] if isinstance(bad, Upsertion) else [])
    dels = [Deletion(held.name, held.mechanism)] + ([bad] if isinstance(bad, Deletion) else [])
    return {"held": held, "deletions": dels, "upsertions": ups}


@pytest.mark.prop("U2", source=U2_SOURCE)
@pytest.mark.parametrize("kind", [pytest.param(k, id=k) for k in gen.REFUSED_KINDS])
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.AlterUserScramCredentials,)))
def test_u2_an_invalid_credential_fails_alone_and_the_others_apply(check, api_key, version, kind):
    """One entry Kafka refuses (``kind``: iterations below the mechanism's ``minIterations``
    (4096) or above ``MAX_ITERATIONS`` (16384) answer UNACCEPTABLE_CREDENTIAL, an unknown
    mechanism upserted or deleted UNSUPPORTED_SASL_MECHANISM, an empty user name
    UNACCEPTABLE_CREDENTIAL) in an AlterUserScramCredentials at this version beside a valid
    upsertion of one user and a deletion of another's credential: the refused user answers
    its code and holds nothing; the others answer NONE and are applied."""
    check.require(api_key, version)
    scram = Scram(check)

    def judged(value):
        names, _, dels, ups, codes, after = _held_then_altered(scram, value, version)
        bad = next(e for e in [*dels, *ups] if refusal(e) is not None)
        scram.expect_altered(codes, f"Kafka refuses the {kind} alone ({error_name(refusal(bad))})")
        scram.held_as(after, [n for n in dict.fromkeys(names.values()) if n],
                      f"after an AlterUserScramCredentials with a {kind}")
        scram.forget(after)

    check.given(_refused(kind, check.avoided_shapes), judged, first=_first_refused(kind, check.avoided_shapes))


def _first_refused(kind: str, avoided: frozenset) -> dict:
    """The example U2 asks first for ``kind`` (the simplest of ``_refused``): on a broker
    that accepts the entry it fails at once, unshrunk; on Kafka hypothesis then draws."""
    held = gen.first_upsertion(gen.USER + "0", SHA_256)
    other = gen.first_upsertion(gen.USER + "1", SHA_512 if known.SCRAM_DELETION_BESIDE_AN_UPSERTION in avoided
                                else SHA_256)
    return _beside(held, other, gen.first_refused(kind))


@st.composite
def _described(draw):
    """Users held (one or two, their credentials) and the users a describe names: each held
    one and one unknown, in drawn order, with one of them named twice or not."""
    held = draw(gen.users_credentials())
    known_users = list(dict.fromkeys(u.name for u in held))
    asked = draw(st.permutations(known_users + [gen.USER + "unknown"]))
    twice = draw(st.one_of(st.none(), st.sampled_from(asked)))
    if twice is not None:
        asked = list(asked)
        asked.insert(draw(st.integers(0, len(asked))), twice)
    return {"held": held, "asked": list(asked)}


def _expect_described_by_name(scram, held: dict[str, dict[int, int]], asked: list[str], says: str) -> None:
    """DescribeUserScramCredentials of ``asked`` (a user may be named twice) answers one result
    per distinct user: a user named twice DUPLICATE_RESOURCE without credentials, a held one
    NONE with its credentials, an unknown one RESOURCE_NOT_FOUND."""
    twice = {u for u in asked if asked.count(u) > 1}
    c = scram.check
    distinct = list(dict.fromkeys(asked))
    once = [u for u in distinct if u not in twice]
    c.expect_field(["error_code"], [Errors.NONE], says=f"{says}: NONE at the top level")
    c.expect_field(["results", "error_code"], count=len(distinct), says=f"{says}: one result per distinct user")
    for u in twice:
        c.expect_field(["results", {"user": u}, "error_code"], [Errors.DUPLICATE_RESOURCE], count=1,
                       says=f"{says}: {u!r} named twice answers DUPLICATE_RESOURCE")
        c.expect_field(["results", {"user": u}, "credential_infos", "mechanism"], count=0,
                       says=f"{says}: {u!r} named twice lists no credential")
    for u in once:
        infos = ["results", {"user": u}, "credential_infos"]
        if u in held:
            c.expect_field(["results", {"user": u}, "error_code"], [Errors.NONE], count=1,
                           says=f"{says}: {u!r} holds {show(held[u])}: NONE")
            for m, it in held[u].items():
                c.expect_field(infos + [{"mechanism": m}, "iterations"], [it], count=1,
                               says=f"{says}: {u!r} {mechanism_name(m)} with {it} iterations")
            c.expect_field(infos + ["mechanism"], count=len(held[u]), says=f"{says}: {u!r} lists its mechanisms")
        else:
            c.expect_field(["results", {"user": u}, "error_code"], [Errors.RESOURCE_NOT_FOUND], count=1,
                           says=f"{says}: {u!r} holds no credential: RESOURCE_NOT_FOUND alone")


@pytest.mark.prop("U3", source=U3_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.DescribeUserScramCredentials,)))
def test_u3_an_unknown_or_repeated_user_answers_alone(check, api_key, version):
    """DescribeUserScramCredentials at this version naming held users and an unknown one (in
    any order, one of them possibly twice): the unknown user answers RESOURCE_NOT_FOUND
    alone, each held user NONE with its mechanisms and iterations, a user named twice
    DUPLICATE_RESOURCE (one result per distinct user, ``ScramImage.describe``), and the top
    level NONE."""
    check.require(api_key, version)
    scram = Scram(check)

    def judged(value):
        names = scram.names(value["held"])
        names[gen.USER + "unknown"] = check.topic("scram")
        held = _setup(scram, [named(u, names) for u in value["held"]])
        asked = [names[u] for u in value["asked"]]
        scram.held_as(held, list(held), "setup: the upserted credentials are held")
        check.poll(lambda: (scram.describe(asked, version),
                            _expect_described_by_name(scram, held, asked, f"describe of {asked}")),
                   within=VISIBLE_S)
        scram.forget(held)

    check.given(_described(), judged, first={"held": _u1_first(), "asked": [gen.USER + "1", gen.USER + "unknown",
                                                                        gen.USER + "0"]})


LOST_ENTRY = "scram-upsertion-lost-when-a-deletion-empties-its-mechanism"


def _ordered_pair(check) -> tuple[str, str]:
    """Two fresh run-prefixed users, the first visited before the second by a small
    ``java.util.HashMap`` (``reference.scram_rules.java_bucket``): the order in which
    released Kafka's ``ScramDelta.apply`` loses the upsertion."""
    first = check.topic("scram")
    for _ in range(64):
        second = check.topic("scram")
        if java_bucket(first) < java_bucket(second):
            return first, second
        first = second if java_bucket(second) < java_bucket(first) else first
    raise AssertionError("no two fresh names in HashMap order")


@pytest.mark.prop("U2", source=U2_SOURCE + "; " + KAFKA
                  + "metadata/src/main/java/org/apache/kafka/image/ScramDelta.java (apply)")
@pytest.mark.known_deviation(LOST_ENTRY)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.AlterUserScramCredentials,)))
def test_u2_deleting_a_mechanisms_last_credential_keeps_another_users_upsertion_of_it(check, api_key, version):
    """One user holds the only credential of a mechanism; an AlterUserScramCredentials at this
    version deletes it and upserts another user's credential of the same mechanism (two
    users, each named once): both answer NONE, and afterwards the first user answers
    RESOURCE_NOT_FOUND and the second holds the upserted credential
    (``ScramControlManager.alterCredentials`` writes both records; the metadata image applies
    both). Released Kafka's ``ScramDelta.apply`` removes the mechanism's map from the image
    when a deletion empties it and then puts the upsertion into the detached map, where the
    deletion is visited first: the dedicated check of the known deviation
    ``scram-upsertion-lost-when-a-deletion-empties-its-mechanism``. It needs a mechanism no
    user of the cluster holds; where only users of this run hold one (other checks'
    upsertions), their credentials of it are deleted first."""
    check.require(api_key, version)
    scram = Scram(check)

    def holders() -> dict[int, set[str]]:
        everyone = scram.client.answered(ApiKey.DescribeUserScramCredentials, scram.dv,
                                         build.describe_scram_credentials(scram.dv))
        held = {SHA_256: set(), SHA_512: set()}
        for r in everyone.get("results") or []:
            for c in r.get("credential_infos") or []:
                held.setdefault(c.get("mechanism"), set()).add(r.get("user"))
        return held

    def free_mechanism() -> int:
        """A mechanism no user of the cluster holds (asked inside the example: a broker whose
        answer is unreadable fails the row with its counterexample). Where every holder of a
        mechanism is a user of this run (other checks' generated upsertions: P1, P4, S1),
        their credentials of it are deleted first, so the check is asked whatever ran before
        it on this broker (one worker, or a shard of it: fixtures/shards.py)."""
        held = holders()
        free = [m for m in (SHA_256, SHA_512) if not held[m]]
        ours = [m for m in (SHA_256, SHA_512) if all(u.startswith(check.prefix) for u in held[m])]
        if not free and ours:
            scram.forget({u: {ours[0]: 0} for u in held[ours[0]]})
            # the broker's image follows the controller's commit
            _, held = eventually(holders, lambda h: not h[ours[0]], within=VISIBLE_S)
            free = [m for m in (SHA_256, SHA_512) if not held[m]]
        if not free:
            users = sorted(set().union(*held.values()))
            raise Unsupported("every SCRAM mechanism has a credential on this cluster: the check needs one no user "
                              f"holds (a fresh broker); held by {len(users)} users: {', '.join(users[:4])}")
        return free[0]

    def judged(value):
        mech = free_mechanism()
        x, y = _ordered_pair(check)
        first = Upsertion(x, mech, value["iterations"], value["salt"], value["salted_password"])
        held = _setup(scram, [first])
        scram.held_as(held, [x], "setup: the mechanism's only credential is held")
        dels, ups = [Deletion(x, mech)], [first._replace(name=y, iterations=value["again"])]
        scram.alter(dels, ups, version)
        codes, after = alter(held, dels, ups)
        scram.expect_altered(codes, "Kafka deletes the one credential and upserts the other user's")
        scram.held_as(after, [x, y], f"after deleting the mechanism's last credential, of {x!r}, and upserting "
                                     f"one of {y!r}")
        scram.forget(after)

    check.once({"iterations": 4096, "again": 8192, "salt": bytes(range(40, 56)),
                "salted_password": bytes(range(60, 92))}, judged)
