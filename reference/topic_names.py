"""Kafka's topic-name rules, the one place the suite states them.

Source: apache/kafka clients/src/main/java/org/apache/kafka/common/internals/Topic.java
(``validate``, ``LEGAL_CHARS``, ``MAX_NAME_LENGTH``, ``hasCollision``,
``unifyCollisionChars``) and its test ``TopicTest`` (shouldAcceptValidTopicNames,
shouldThrowOnInvalidTopicNames, shouldRecognizeInvalidCharactersInTopicNames,
testTopicHasCollision). The same rules hold on every release line the suite knows.

Pure: no imports from the rest of the suite, so strategies may use it.
"""
from __future__ import annotations

import string

SOURCE = "apache/kafka clients/src/main/java/org/apache/kafka/common/internals/Topic.java"

#: ``Topic.LEGAL_CHARS`` = "[a-zA-Z0-9._-]".
LEGAL_CHARS = string.ascii_letters + string.digits + "._-"
#: ``Topic.MAX_NAME_LENGTH``, counted as Java's ``String.length()`` (UTF-16 code units).
MAX_NAME_LENGTH = 249
#: ``Topic.validate``: "Topic name cannot be \".\" or \"..\"".
DOT_NAMES = (".", "..")

_LEGAL = frozenset(LEGAL_CHARS)


def java_length(name: str) -> int:
    """``String.length()``: a character outside the BMP counts twice."""
    return sum(2 if ord(c) > 0xFFFF else 1 for c in name)


def name_error(name: str) -> str | None:
    """Why ``Topic.validate`` refuses ``name``, in its order of checks: "empty", "dot",
    "too long" or "illegal character"; None for a legal name."""
    if name == "":
        return "empty"
    if name in DOT_NAMES:
        return "dot"
    if java_length(name) > MAX_NAME_LENGTH:
        return "too long"
    if not set(name) <= _LEGAL:
        return "illegal character"
    return None


def is_legal(name: str) -> bool:
    """Does ``Topic.validate`` accept ``name``?"""
    return name_error(name) is None


def collision_key(name: str) -> str:
    """``Topic.unifyCollisionChars``: '.' and '_' collide (in metric names), so 'a.b' and
    'a_b' cannot coexist: two names collide when their keys are equal."""
    return name.replace(".", "_")


#: Of two names of one CreateTopics request that collide (:func:`collision_key`), exactly one
#: is created (NONE) and the other refused, INVALID_TOPIC_EXCEPTION; which one, Kafka does not
#: define, so either is the conforming answer, in KRaft as in ZooKeeper mode. ZooKeeper mode
#: creates whichever its map of the request's topics reaches first and refuses the other
#: ("collides with existing topics": apache/kafka core/src/main/scala/kafka/server/KafkaApis.scala
#: handleCreateTopicsRequest, ``toCreate = mutable.Map[String, CreatableTopic]``, and
#: ZkAdminManager.scala createTopics, each topic created before the next is validated);
#: KAFKA-13743 gave KRaft the check to keep such a pair from existing, not to choose between
#: them (released KRaft creates both: the known deviation
#: ``create-topics-colliding-names-in-one-request-both-created``).
COLLIDING_PAIR_IN_ONE_REQUEST = ("of two colliding names in one CreateTopics, exactly one is created, either one "
                                 "(Kafka defines no order)")
