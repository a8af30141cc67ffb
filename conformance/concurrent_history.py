"""S3's histories: 2-6 clients, each on its own connection, run random writes, deletes and
reads of a few independent registers against one broker at the same time, and every
operation is recorded with its call and return times and its answer
(``fixtures/history``); the history is then checked for linearizability against one
register per key (``fixtures.history.REGISTER``), each key on its own.

The registers are admin state Kafka promises to change atomically per request:

* a topic config key (``("config", TOPIC, KEY)``): IncrementalAlterConfigs SET / DELETE of
  one key, DescribeConfigs of that key (its value where the topic overrides it, else unset:
  ``config_source`` TOPIC_CONFIG), KIP-339;
* a client quota of one user (``("quota", USER, KEY)``): AlterClientQuotas set / remove of
  one key, DescribeClientQuotas (strict, exact) of the entity, KIP-546.

A read asks every key of its entity (one request, one observation per key), and once every
client finished one closing read of each entity shows what the history left.

Kafka's controller applies each request in one write event against the current state
(``ConfigurationControlManager.incrementalAlterConfigs``,
``ClientQuotaControlManager.alterClientQuotas``), and a broker's describe reads its metadata
image, which follows the controller's log in order: a history of one broker is linearizable
once a read may lag its write by the image's propagation (a write counts as returned only
when the broker's image holds it: ``LAG_S`` is added to every write's return time, as C2's
``expect_history`` allows a visibility lag). C2 and Q5 ask the same of fixed plans; S3
draws the plan and checks every operation of every client.

An answer the client cannot read (a timeout, a closed connection) or one that says the
outcome is unknown (REQUEST_TIMED_OUT, NOT_CONTROLLER) is *indeterminate*: it may or may
not have taken effect, and the checker allows both.
"""
from __future__ import annotations

import threading
import time

from fixtures.harness import Unsupported
from fixtures.history import REGISTER, Operation
from protocol import ApiKey, Errors
from protocol import requests as build
from protocol import AlterConfigOp, ConfigSource
from protocol.codec import APIS
from reference.quota_rules import MATCH_EXACT

#: answers whose outcome the client cannot know
INDETERMINATE_CODES = frozenset({int(Errors.REQUEST_TIMED_OUT), int(Errors.NOT_CONTROLLER)})
#: DescribeConfigsResponse.java ConfigSource TOPIC_CONFIG: the topic's own override
TOPIC_OVERRIDE = int(ConfigSource.TOPIC_CONFIG)
#: how long a broker's metadata image may lag the controller's acknowledgement: Kafka 4.4.0 passed 143
#: operations with none (seed 1, ci); C2 allows 1 s (config_model.VISIBILITY_LAG_S)
LAG_S = 0.1
#: the registers: two config keys of one topic, two quota keys of one user
CONFIG_KEYS = ("retention.ms", "segment.ms")
QUOTA_KEYS = ("producer_byte_rate", "consumer_byte_rate")
MODEL = REGISTER


class History:
    """One example's history: its topic and user, the clients' operations, what was sent."""

    def __init__(self, check, topic: str, user: str, versions: dict[int, tuple[int, int]]):
        self.check, self.topic, self.user, self.versions = check, topic, user, versions
        self.ops: list[Operation] = []
        self.steps: list[tuple[int, int, str]] = []      # (step, api, what): every answer, for its code
        self._lock = threading.Lock()
        self._unique = 0

    def value(self, key: str) -> str | float:
        with self._lock:
            self._unique += 1
            n = self._unique
        return str(3_600_000 + 1_000 * n) if key in CONFIG_KEYS else float(1024 * n)

    # -- one client's operation -----------------------------------------------------------------
    def run(self, client_id: int, client, op: dict) -> None:
        kind, key = op["kind"], op["key"]
        family = family_of(key)
        api = {("config", "read"): ApiKey.DescribeConfigs, ("quota", "read"): ApiKey.DescribeClientQuotas,
               ("config", "write"): ApiKey.IncrementalAlterConfigs, ("quota", "write"): ApiKey.AlterClientQuotas,
               ("config", "delete"): ApiKey.IncrementalAlterConfigs, ("quota", "delete"): ApiKey.AlterClientQuotas}[
            (family, kind)]
        lo, hi = self.versions[api]
        v = lo + op["v"] % (hi - lo + 1)
        value = self.value(key) if kind == "write" else None
        # a read asks every key of its entity: one observation per key, each a read of its register
        keys = (CONFIG_KEYS if family == "config" else QUOTA_KEYS) if kind == "read" else (key,)
        body = self._body(api, v, family, kind, keys, value)
        time.sleep(op.get("pause", 0.0))       # a client's think time: reads spread past the lag
        call = time.monotonic()
        ex = client.send(api, v, body)
        ret = time.monotonic()
        at = self.check.last_step
        outputs, indeterminate = self._outcome(api, ex, keys, kind)
        inp = {"op": kind, **({"value": value} if kind == "write" else {})}
        if kind != "read" and not indeterminate:
            ret += LAG_S
        entity = self.topic if family == "config" else self.user
        with self._lock:
            if ex.ok:               # an answer to judge (one the client could not read is indeterminate)
                self.steps.append((at, api, f"client {client_id}: {kind} {family} {', '.join(keys)}"))
            for k in keys:
                self.ops.append(Operation(client_id, (family, entity, k), inp, outputs.get(k), call, ret,
                                          indeterminate, meta={"api": api.name, "v": v, "step": at}))

    def closing_reads(self, client_id: int, client) -> None:
        """Once every client finished and ``LAG_S`` passed, one read of each entity by a client
        of its own (``client_id``): what the history left, so a lost update no later read of a
        client happened to see is seen here."""
        time.sleep(LAG_S)
        families = {op.key[0] for op in self.ops}
        for key in (CONFIG_KEYS[0],) + ((QUOTA_KEYS[0],) if "quota" in families else ()):
            self.run(client_id, client, {"kind": "read", "key": key, "v": 0, "pause": 0.0})

    def _body(self, api, v, family, kind, keys, value) -> dict:
        if api == ApiKey.IncrementalAlterConfigs:
            op = AlterConfigOp.SET if kind == "write" else AlterConfigOp.DELETE
            return build.incremental_alter_configs(v, [(self.topic, [(keys[0], op, value)])])
        if api == ApiKey.AlterClientQuotas:
            return build.alter_client_quotas(v, [((("user", self.user),), [(keys[0], value)])])
        if api == ApiKey.DescribeConfigs:
            return build.describe_configs(v, [(self.topic, list(keys))])
        return build.describe_client_quotas(v, [("user", MATCH_EXACT, self.user)], True)

    def _outcome(self, api, ex, keys, kind) -> tuple[dict, bool]:
        """({key: output}, indeterminate): a read's value of each key (None: unset), a write's
        refusal (``{"error": code}``), nothing for a write that took."""
        if not ex.ok or ex.response is None:
            return {}, True
        r = ex.response
        if api == ApiKey.IncrementalAlterConfigs:
            code = next((e.get("error_code") for e in r.get("responses") or []), None)
        elif api == ApiKey.AlterClientQuotas:
            code = next((e.get("error_code") for e in r.get("entries") or []), None)
        else:
            code = r.get("error_code") if api == ApiKey.DescribeClientQuotas else next(
                (e.get("error_code") for e in r.get("results") or []), None)
        if code in INDETERMINATE_CODES:
            return {}, True
        if code != Errors.NONE:
            return {k: {"error": code} for k in keys}, False
        if kind != "read":
            return {}, False
        out: dict = {}
        if api == ApiKey.DescribeConfigs:
            for res in r.get("results") or []:
                for c in res.get("configs") or []:
                    if c.get("name") in keys and c.get("config_source") == TOPIC_OVERRIDE:
                        out[c["name"]] = c.get("value")
            return out, False
        for e in r.get("entries") or []:
            for val in e.get("values") or []:
                if val.get("key") in keys:
                    out[val["key"]] = val.get("value")
        return out, False


def family_of(key: str) -> str:
    """The entity a register's key belongs to: the topic's ``config`` or the user's ``quota``."""
    return "config" if key in CONFIG_KEYS else "quota"


def versions_of(check, prop: str) -> dict[int, tuple[int, int]]:
    """The versions a history's operations may be sent at: what the broker advertises of each
    API and the schemas know, DescribeConfigs from v1 (``config_source``); Unsupported, with
    the advertised range, where the broker has no DescribeConfigs v1+."""
    out = {}
    for api in (ApiKey.IncrementalAlterConfigs, ApiKey.DescribeConfigs, ApiKey.AlterClientQuotas,
                ApiKey.DescribeClientQuotas):
        adv = check.broker.advertised(api)
        if adv is not None:
            out[api] = (max(adv[0], 1 if api == ApiKey.DescribeConfigs else adv[0]), min(adv[1], APIS[api].max_version))
    if out[ApiKey.DescribeConfigs][0] > out[ApiKey.DescribeConfigs][1]:
        adv = check.broker.advertised(ApiKey.DescribeConfigs)
        raise Unsupported(f"{prop} reads configs with DescribeConfigs v1+ (config_source); the broker advertises "
                          f"v{adv[0]}-{adv[1]}")
    return out


def judge_answers(check, history: History) -> None:
    """Every answer the history's clients read: NONE, or an outcome the client cannot know
    (:data:`INDETERMINATE_CODES`)."""
    allowed = [Errors.NONE, *sorted(INDETERMINATE_CODES)]
    for at, api, what in history.steps:
        if api in (ApiKey.DescribeConfigs, ApiKey.IncrementalAlterConfigs):
            field = ["results" if api == ApiKey.DescribeConfigs else "responses", "error_code"]
        else:
            field = ["error_code"] if api == ApiKey.DescribeClientQuotas else ["entries", "error_code"]
        check.expect_field(field, allowed, step=at, says=f"{what}: NONE (or an outcome the client cannot know)")


def remove_quotas(admin, history: History) -> None:
    """The history's user's quotas go with its example (unjudged)."""
    v = history.versions[ApiKey.AlterClientQuotas][1]
    admin.client.send(ApiKey.AlterClientQuotas, v, build.alter_client_quotas(
        v, [((("user", history.user),), [(k, None) for k in QUOTA_KEYS])]))


def judged_at(minimal: list[Operation], last: int | None) -> int | None:
    """The step a history's verdict is told beside: the failing sub-history's last answered
    operation (the read that broke it), so the row names that request; else ``last``."""
    answered = [op for op in minimal if not op.indeterminate and (op.meta or {}).get("step") is not None]
    return max(answered, key=lambda op: op.call).meta["step"] if answered else last


def overlapping_writes(ops: list[Operation], minimal: list[Operation]) -> list[Operation]:
    """The writes and deletes of the failing key's entity (its topic, its user) on *other*
    keys whose time overlapped the failing sub-history (from its first call to its last),
    by call time: what a broker that rewrites the whole entity per request races against."""
    family, entity, key = minimal[0].key
    start, end = min(op.call for op in minimal), max(op.call for op in minimal)
    return sorted((op for op in ops if op.key[:2] == (family, entity) and op.key[2] != key
                   and op.input.get("op") != "read" and op.call <= end and (op.ret is None or op.ret >= start)),
                  key=lambda op: op.call)


def run_clients(history: History, clients: list, plans: list[list[dict]], timeout_s: float = 120,
                closing: bool = True) -> None:
    """Each client runs its plan on a thread of its own, all at once; then (``closing``) the
    closing reads (:meth:`History.closing_reads`, on the first client's connection as a
    client of its own)."""
    failures: list[BaseException] = []
    start = threading.Barrier(len(plans))

    def one(i: int):
        try:
            start.wait(timeout=30)
            for op in plans[i]:
                history.run(i, clients[i], op)
        except BaseException as exc:       # noqa: BLE001 - re-raised in the calling thread
            failures.append(exc)

    threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(len(plans))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=timeout_s)
    if failures:
        raise failures[0]
    if closing:
        history.closing_reads(len(plans), clients[0])


__all__ = ["CONFIG_KEYS", "History", "LAG_S", "MODEL", "QUOTA_KEYS", "family_of", "judge_answers", "judged_at",
           "overlapping_writes", "remove_quotas", "run_clients", "versions_of"]
