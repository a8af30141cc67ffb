"""S1's operations on topic configs: IncrementalAlterConfigs, AlterConfigs, DescribeConfigs.

Sources: DescribeConfigs and AlterConfigs (the full replace) are KIP-133 "Describe and Alter
Configs Admin APIs"; IncrementalAlterConfigs (SET, DELETE, APPEND, SUBTRACT) is KIP-339
"Create a new IncrementalAlterConfigs API". What Kafka answers is the model's
(``conformance/cluster_model.py``, after ``docs/reference-semantics.md``:
``ConfigAdminManager``, ``ConfigurationControlManager``, ``LogConfig``). The config pairs
drawn come from the model's tables, so only values whose verdict is certain are sent.
"""
from __future__ import annotations

from hypothesis import strategies as st

from protocol import AlterConfigOp, requests
from protocol.apis import ApiKey
from reference.known_deviations import ALTER_CONFIGS_RESOURCE_TWICE
from strategies import stateful as draws

from .. import cluster_model as cm
from .operation import Operation

#: The config pairs operations draw: only values whose verdict is certain (the model's tables).
VALID_PAIRS = draws.table_pairs(cm.VALID_VALUES)
BAD_PAIRS = draws.table_pairs(cm.INVALID_VALUES) + [[cm.UNKNOWN_KEY, "1"], ["retention.ms", None]]
KNOWN_KEYS = sorted(cm.VALID_VALUES)


class ConfigChange(Operation):
    """A config API: a cleanup.policy it changes may reach a partition's log late (the
    DeleteRecords prediction allows the old policy for a while)."""
    field = "resources"
    config_row = True

    def perform(self, run, op, line):
        before = run.policy_watch()
        super().perform(run, op, line)
        run.policy_changed(before)


class IncrementalAlterConfigs(ConfigChange):
    """SET, DELETE, APPEND, SUBTRACT (KIP-339)."""
    api = ApiKey.IncrementalAlterConfigs

    def draw(self, s, focused):
        set_valid = s.pair(False).map(lambda kv: [kv[0], "SET", kv[1]])
        delete = st.sampled_from(KNOWN_KEYS).map(lambda k: [k, "DELETE", None])
        if focused:
            op = st.one_of(
                set_valid, delete,
                st.tuples(st.sampled_from(["APPEND", "SUBTRACT"]), st.sampled_from(cm.POLICY_ELEMENTS)).map(
                    lambda t: ["cleanup.policy", t[0], t[1]]),
                st.sampled_from(BAD_PAIRS).map(lambda kv: [kv[0], "SET", kv[1]]),
                st.sampled_from([[cm.UNKNOWN_KEY, "DELETE", None], ["retention.ms", "APPEND", "3600000"],
                                 ["max.message.bytes", "SUBTRACT", "1000000"]]))
            ops = st.lists(op, max_size=3)
            resources = st.lists(st.fixed_dictionaries({"slot": s.slot(True), "ops": ops}), min_size=1, max_size=2)
        else:
            ops = st.lists(st.one_of(set_valid, delete), min_size=1, max_size=2, unique_by=lambda o: o[0])
            resources = st.lists(st.fixed_dictionaries({"slot": s.slot(False), "ops": ops}), min_size=1, max_size=1)
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, focused),
                                      "validate_only": st.booleans() if focused else st.just(False),
                                      "resources": resources})

    def render(self, op, n):
        return "resources: [" + "; ".join(
            f"{n(r['slot'])}: " + (", ".join(f"{o} {k}" + (f"={v}" if v is not None or o != 'DELETE' else "")
                                             for k, o, v in r["ops"]) or "no ops")
            for r in op["resources"]) + "]"

    def items(self, run, op):
        return [{"name": run.model.name(r["slot"]), "ops": [list(o) for o in r["ops"]]} for r in op["resources"]]

    def predict(self, run, items, op):
        return run.model.incremental_alter(items, op["validate_only"])

    def request(self, v, items, op):
        return requests.incremental_alter_configs(
            v, [(r["name"], [(k, AlterConfigOp[o], val) for k, o, val in r["ops"]]) for r in items],
            validate_only=op["validate_only"])


class AlterConfigs(ConfigChange):
    """The legacy full replace: the listed configs become the topic's only overrides. A
    resource named twice is drawn except where Kafka's known deviation of that shape applies
    (never answered: asked once per version by C4's dedicated check instead)."""
    api = ApiKey.AlterConfigs

    def draw(self, s, focused):
        if focused:
            configs = st.lists(s.pair(True), max_size=3)
            once = s.avoids(ALTER_CONFIGS_RESOURCE_TWICE)
            resources = st.lists(st.fixed_dictionaries({"slot": s.slot(True), "configs": configs}),
                                 min_size=1, max_size=2, unique_by=(lambda r: r["slot"]) if once else None)
        else:
            configs = st.lists(s.pair(False), max_size=2, unique_by=lambda kv: kv[0])
            resources = st.lists(st.fixed_dictionaries({"slot": s.slot(False), "configs": configs}),
                                 min_size=1, max_size=1)
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, focused),
                                      "validate_only": st.booleans() if focused else st.just(False),
                                      "resources": resources})

    def render(self, op, n):
        return "resources: [" + "; ".join(
            f"{n(r['slot'])}: " + (", ".join(f"{k}={v}" for k, v in r["configs"]) or "no configs")
            for r in op["resources"]) + "]"

    def items(self, run, op):
        return [{"name": run.model.name(r["slot"]), "configs": [list(kv) for kv in r["configs"]]}
                for r in op["resources"]]

    def predict(self, run, items, op):
        return run.model.alter_configs(items, op["validate_only"])

    def request(self, v, items, op):
        return requests.alter_configs(v, [(r["name"], r["configs"]) for r in items],
                                      validate_only=op["validate_only"])


class DescribeConfigs(Operation):
    api = ApiKey.DescribeConfigs
    field = "resources"
    plain = False
    config_row = True

    def draw(self, s, focused):
        keys = st.none() | st.lists(st.sampled_from(KNOWN_KEYS + [cm.UNKNOWN_KEY]), min_size=1, max_size=2,
                                    unique=True)
        resources = st.lists(st.fixed_dictionaries({"slot": s.slot(True), "keys": keys}),
                             min_size=1, max_size=2, unique_by=lambda r: r["slot"])
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "resources": resources})

    def render(self, op, n):
        return "resources: [" + ", ".join(
            f"{n(r['slot'])} ({'all keys' if r['keys'] is None else ', '.join(r['keys'])})"
            for r in op["resources"]) + "]"

    def items(self, run, op):
        return [{"name": run.model.name(r["slot"]), "keys": r["keys"]} for r in op["resources"]]

    def predict(self, run, items, op):
        return run.model.describe_configs(items, op["v"])

    def request(self, v, items, op):
        return requests.describe_configs(v, [(r["name"], r["keys"]) for r in items])
