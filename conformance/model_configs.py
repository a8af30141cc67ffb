"""The topic configs of the S1 model (:mod:`.cluster_model`): the values S1 draws and their
verdicts, APPEND / SUBTRACT on a list value, and what AlterConfigs, IncrementalAlterConfigs
and DescribeConfigs answer per topic resource. Pure: no I/O.
"""
from __future__ import annotations

from protocol import ConfigSource
from protocol.apis import ApiKey
from protocol.errors import Errors
from protocol.schema_facts import RESPONSE, has_field
from reference import topic_config, topic_names
from reference.modes import TOPIC_CONFIG_CHECKS

from .model_state import Expect, Fact, Topic, Unknown, Value, _counts, _e, _walk, split_list


# -- the topic configs S1 uses -----------------------------------------------------------
# The rules are the reference's (reference/topic_config.py, LogConfig.java);
# these are the values S1 draws, only ones whose verdict is certain on every release line.
# Retention values are >= 1 hour and no segment settings are touched, so the broker's
# own retention/cleaning never moves a log start offset during a run.
VALID_VALUES: dict[str, tuple[str, ...]] = {
    "cleanup.policy": ("delete", "compact", "compact,delete"),
    "retention.ms": ("3600000", "86400000", "-1"),
    "max.message.bytes": ("1000000", "2000000"),
}
INVALID_VALUES: dict[str, tuple[str, ...]] = {
    "cleanup.policy": ("purge",),              # ValidList.in("compact", "delete")
    "retention.ms": ("abc",),                  # not a LONG
    "max.message.bytes": ("1.5",),             # not an INT
}
#: LIST-typed keys (APPEND/SUBTRACT apply); any other key, unknown ones included, answers
#: INVALID_CONFIG to APPEND/SUBTRACT (ConfigurationControlManager.incrementalAlterConfigResource).
LIST_KEYS = topic_config.LIST_KEYS
#: cleanup.policy's elements (``ValidList.in``), in the order S1 draws them.
POLICY_ELEMENTS = ("delete", "compact")
#: No topic has this config: SET answers INVALID_CONFIG "Unknown topic config name".
UNKNOWN_KEY = "conformance.no.such.config"


def value_verdict(key: str, value: Value | None) -> bool | None:
    """True valid, False rejected with INVALID_CONFIG, None not certain."""
    if key not in topic_config.CONFIGS:
        return False                                  # LogConfig.validateNames
    if key not in VALID_VALUES:
        return None                                   # a real key S1 draws no values for
    if isinstance(value, Unknown):
        return True if value.contains else None       # non-empty list of known elements
    if value is None:
        return False
    if key == "cleanup.policy":
        parts = value.split(",")
        if value == "":
            return None                               # an emptied list: not pinned down
        return all(p in topic_config.CONFIGS[key].values for p in parts)
    if value in VALID_VALUES[key]:
        return True
    if value in INVALID_VALUES[key]:
        return False
    return None


def _list_op(base: Value, op: str, elems: list[str]) -> Value:
    """APPEND / SUBTRACT on a list value (ConfigurationControlManager: APPEND adds values
    not already present, SUBTRACT removes them, absent ones are ignored)."""
    if isinstance(base, Unknown):
        e = frozenset(elems)
        if op == "APPEND":
            return Unknown(base.contains | e, base.lacks - e)
        return Unknown(base.contains - e, base.lacks | e)
    parts = split_list(base)
    if op == "APPEND":
        for x in elems:
            if x not in parts:
                parts.append(x)
    else:
        parts = [x for x in parts if x not in elems]
    # An emptied list is stored as "" if Kafka accepts it at all (not pinned down): unknown.
    return ",".join(parts) if parts else Unknown()


def _entries(entry: dict) -> dict[str, dict]:
    return {c["name"]: c for c in entry.get("configs") or []}


def _malformed(key, twice: bool, keys: list[str], null_value: bool) -> Expect | None:
    """What both config APIs refuse per resource before looking at the topic
    (ConfigAdminManager.preprocess): the resource twice in one request, a key twice, a null
    value where the operation needs one."""
    if twice:
        return _e(key, Errors.INVALID_REQUEST, "resource given twice")
    if len(set(keys)) < len(keys):
        return _e(key, Errors.INVALID_REQUEST, "duplicate config key")
    if null_value:
        return _e(key, Errors.INVALID_REQUEST, "null value")
    return None


class ConfigsModel:
    """The config APIs of :class:`cluster_model.Model`: its ``topics`` and ``defaults``, what
    each resource of a request answers and what a DescribeConfigs entry shows."""

    # -- IncrementalAlterConfigs (ConfigAdminManager.preprocess, ConfigurationControlManager) --
    def incremental_alter(self, resources: list[dict], validate_only: bool) -> list[Expect]:
        """resources: {"name", "ops": [[key, "SET"|"DELETE"|"APPEND"|"SUBTRACT", value], ...]}"""
        counts = _counts(r["name"] for r in resources)
        out = []
        for r in resources:
            name, key = r["name"], ("name", r["name"])
            refused = _malformed(key, counts[name] > 1, [k for k, _, _ in r["ops"]],
                                 any(v is None and op != "DELETE" for _, op, v in r["ops"]))
            if refused:
                out.append(refused)
                continue
            t = self.topics.get(name)
            new: dict[str, Value] = dict(t.configs) if t else {}
            uncertain, error = False, None
            for k, op, v in r["ops"]:
                if op == "SET":
                    new[k] = v
                elif op == "DELETE":
                    if k not in topic_config.CONFIGS:
                        uncertain = True          # DELETE of an unknown key: no-op by code reading
                    new.pop(k, None)
                else:
                    if k not in LIST_KEYS:
                        error = _e(key, Errors.INVALID_CONFIG, f"{op} on non-list key {k}")
                        break
                    new[k] = _list_op(new.get(k, Unknown()), op, split_list(v))
            if error:
                out.append(error)
                continue
            out.append(self._altered(key, name, t, new, uncertain, validate_only))
        return out

    def _altered(self, key, name, t, new, uncertain, validate_only) -> Expect:
        """One topic resource of AlterConfigs / IncrementalAlterConfigs, its checks in the
        mode's order (reference/modes.py TOPIC_CONFIG_CHECKS)."""
        verdicts = [value_verdict(k, v) for k, v in new.items()]
        outcomes: dict[str, tuple[bool, int, str]] = {}
        if not topic_names.is_legal(name):
            outcomes["name"] = (True, Errors.INVALID_TOPIC_EXCEPTION, "invalid name")
        if any(v is False for v in verdicts):
            outcomes["config"] = (True, Errors.INVALID_CONFIG, "bad config")
        elif uncertain or None in verdicts:
            outcomes["config"] = (False, Errors.INVALID_CONFIG, "config not certain")
        if t is None:
            outcomes["exists"] = (True, Errors.UNKNOWN_TOPIC_OR_PARTITION, "no such topic")
        codes, whys, refused = _walk(TOPIC_CONFIG_CHECKS.now(), outcomes)
        if refused:
            return _e(key, codes, " or ".join(whys))
        codes.add(Errors.NONE)

        def effect(entry):
            if not validate_only:
                t.configs = new
        return _e(key, codes, "valid" + (" (validate_only)" if validate_only else ""), effect)

    # -- AlterConfigs, legacy full replace (ConfigurationControlManager.legacyAlterConfigResource) --
    def alter_configs(self, resources: list[dict], validate_only: bool) -> list[Expect]:
        """resources: {"name", "configs": [[key, value-or-None], ...]}"""
        counts = _counts(r["name"] for r in resources)
        out = []
        for r in resources:
            name, key = r["name"], ("name", r["name"])
            refused = _malformed(key, counts[name] > 1, [k for k, _ in r["configs"]],
                                 any(v is None for _, v in r["configs"]))
            if refused:
                out.append(refused)
                continue
            out.append(self._altered(key, name, self.topics.get(name), dict(r["configs"]), False, validate_only))
        return out

    # -- DescribeConfigs (ConfigHelper.describeConfigs) -----------------------------------
    def describe_configs(self, resources: list[dict], version: int) -> list[Expect]:
        """resources: {"name", "keys": None or [key, ...]} (names distinct)."""
        out = []
        for r in resources:
            name, key = r["name"], ("name", r["name"])
            if not topic_names.is_legal(name):
                out.append(_e(key, Errors.INVALID_TOPIC_EXCEPTION, "invalid name"))
            elif name not in self.topics:
                out.append(_e(key, Errors.UNKNOWN_TOPIC_OR_PARTITION, "no such topic"))
            else:
                t = self.topics[name]
                out.append(_e(key, Errors.NONE, "exists",
                              lambda e, t=t: self.learn_configs(t, _entries(e)),
                              lambda e, t=t, r=r: self.config_facts(t, version, r["keys"])))
        return out

    def config_facts(self, t: Topic, version: int, keys: list[str] | None = None) -> list[Fact]:
        """What a DescribeConfigs entry for ``t`` shows (facts below the resource entry):
        the keys a fresh topic lists and the model's overrides, nothing else; each with the
        default unless overridden; an override with config_source TOPIC_CONFIG; a value the
        model knows only in part (:class:`Unknown`) holding what it must and lacking what it
        must not."""
        d = self.defaults
        sourced = has_field(ApiKey.DescribeConfigs, version, "results.configs.config_source", RESPONSE)
        expected = set(t.configs) | (set(d.configs) if d.configs_known else set())
        if keys is not None:
            expected &= set(keys)
        facts = []
        if d.configs_known:
            facts.append({"kind": "field", "path": ["configs", "name"], "in": sorted(expected),
                          "says": "only the keys a fresh topic lists and the model's overrides"})
        for k in sorted(expected):
            at = ["configs", {"name": k}]
            if k in t.configs:
                want, source = t.configs[k], ConfigSource.TOPIC_CONFIG
                if isinstance(want, Unknown):
                    facts.append({"kind": "field", "path": at + ["value"], "count": 1, "has": sorted(want.contains),
                                  "lacks": sorted(want.lacks),
                                  "says": f"{k} holds {sorted(want.contains)} and none of {sorted(want.lacks)}"})
                else:
                    facts.append({"kind": "field", "path": at + ["value"], "in": [want], "count": 1,
                                  "says": f"{k}={want!r} (the model's override)"})
            elif k in d.configs:
                want, source = d.configs[k]
                facts.append({"kind": "field", "path": at + ["value"], "in": [want], "count": 1,
                              "says": f"{k}={want!r} (a fresh topic's value)"})
            else:
                continue
            if sourced and source is not None:
                facts.append({"kind": "field", "path": at + ["config_source"], "in": [int(source)], "count": 1,
                              "says": f"{k} has config_source {int(source)}" +
                                      (" (an override is TOPIC_CONFIG)" if k in t.configs else " (a fresh topic's)")})
        return facts

    def learn_configs(self, t: Topic, described: dict[str, dict]) -> None:
        for k, v in list(t.configs.items()):
            if isinstance(v, Unknown) and k in described:
                t.configs[k] = described[k].get("value")
