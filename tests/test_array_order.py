"""Lists Kafka keeps in no order: the table, the shuffle shim and the judge agree.

* every path of ``protocol.array_order`` is an array of its API's response schema, and
  every ordered one says why, citing Kafka;
* the shuffle shim (``faults.mutants.shuffle``) reorders every array of an answer the table
  does not mark ordered, keeps the ordered ones, and changes no value;
* the judge (``fixtures/judge``, a ``same`` expectation as the harness writes it)
  gives the verdict it gives the answer as recorded to the answer shuffled, for every
  list-valued field of every API's answer, and still fails a changed value, a missing
  entry, an ordered list reordered.
"""
from __future__ import annotations

import copy
import random
import uuid

import pytest

from faults.mutants import all_mutants
from faults.mutants.shuffle import shuffled
from fixtures import judge
from fixtures.judge.values import _canonical
from protocol import array_order
from protocol.apis import ApiKey
from protocol.codec import APIS

#: every API the suite speaks, by name, for readable test ids
KEYS = sorted(APIS)


def test_every_path_of_the_table_is_an_array_of_its_answer():
    for (api, path) in list(array_order.ORDERED) + list(array_order.IDENTITY):
        assert path in array_order.arrays(api), (api.name, path)
    for (api, path), fields in array_order.IDENTITY.items():
        entry = array_order.arrays(api)[path]
        assert entry.is_struct_array() and set(fields) <= set(entry.fields), (api.name, path, fields)
        assert not array_order.ordered(api, path), (api.name, path)


def test_every_ordered_array_says_why_and_cites_kafka():
    for (api, path), why in array_order.ORDERED.items():
        assert len(why) > 40 and ("apache/kafka" in why or "KIP-" in why or ".json" in why), (api.name, path)


def test_the_known_ordered_arrays_are_ordered_and_the_others_are_not():
    assert array_order.ordered(ApiKey.Metadata, "topics.partitions.replica_nodes")       # the preferred leader first
    assert array_order.ordered(ApiKey.DescribeConfigs, "results.configs.synonyms")       # by precedence (KIP-226)
    assert array_order.ordered(ApiKey.CreateAcls, "results")                             # by position
    assert not array_order.ordered(ApiKey.DescribeConfigs, "results.configs")            # a hash map's order
    assert not array_order.ordered(ApiKey.Metadata, "topics.partitions.isr_nodes")       # a set
    assert not array_order.ordered(ApiKey.DescribeQuorum, "topics.partitions.current_voters")
    assert array_order.identity(ApiKey.DescribeConfigs, "results.configs") == ("name",)
    assert array_order.identity(ApiKey.DescribeConfigs, "results") == ("resource_type", "resource_name")
    assert array_order.identity(ApiKey.DeleteTopics, "responses") == ("name",)           # of name|topic_id, the first
    assert array_order.identity(ApiKey.Metadata, "topics.partitions.isr_nodes") == ()    # plain values
    assert array_order.judge_arrays(ApiKey.DescribeConfigs) == {
        "results": ["resource_type", "resource_name"], "results.configs": ["name"], "results.configs.synonyms": "#"}


def test_the_shuffle_shim_is_a_shim_that_takes_a_seed():
    cls = all_mutants(shims=True)["shuffle"]
    assert cls.shim and set(cls.catches) == {"-"} and "shuffle" not in all_mutants()
    cls.check_arg("7")
    with pytest.raises(ValueError, match="integer seed"):
        cls.check_arg("x")


# -- a synthetic answer of every API: every array three distinct entries ---------------------

def _answer(api_key: int) -> dict:
    """A body with every field of every version of the API's response; every array holds
    three entries that differ in every field."""
    counter = iter(range(1, 1 << 30))

    def value(f):
        t = f._json["type"]
        if t.startswith("[]"):
            if f.is_struct_array():
                return [struct(f.fields) for _ in range(3)]
            return [scalar(t[2:]) for _ in range(3)]
        if f.is_struct():
            return struct(f.fields)
        return scalar(t)

    def scalar(t):
        n = next(counter)
        if t == "bool":
            return n % 2 == 0
        if t == "string":
            return f"s{n}"
        if t == "uuid":
            return str(uuid.UUID(int=n))
        if t in ("bytes", "records"):
            return f"{n:04x}"
        return n

    def struct(fields):
        return {name: value(f) for name, f in fields.items()}

    return struct(APIS[api_key].response.fields)


def _at(body, path):
    """Every list at the dotted ``path`` of ``body``."""
    cur = [body]
    for part in path.split("."):
        nxt = []
        for c in cur:
            for x in (c if isinstance(c, list) else [c]):
                if isinstance(x, dict) and part in x:
                    nxt.append(x[part])
        cur = nxt
    return [c for c in cur if isinstance(c, list)]


@pytest.mark.parametrize("api_key", KEYS, ids=lambda k: APIS[k].name)
def test_the_shim_reorders_every_unordered_array_keeps_the_ordered_and_changes_no_value(api_key):
    body = _answer(api_key)
    out = shuffled(api_key, body, random.Random(5))
    arrays = array_order.judge_arrays(api_key)
    assert judge.canon(out, "", arrays) == judge.canon(body, "", arrays)       # the same entries, values
    for path in array_order.arrays(api_key):
        before, after = _at(body, path), _at(out, path)       # every list at the path (their parents moved)
        assert len(before) == len(after)
        def order(lists):       # each list as its sequence of entries (the entries' own lists sorted)
            return sorted(_canonical([judge.canon(e, path, arrays) for e in x]) for x in lists)
        if array_order.ordered(api_key, path):                # each list in its order
            assert order(after) == order(before), path
        else:                                                 # each list's entries, none in its old order
            assert sorted(_canonical(judge.canon(x, path, arrays)) for x in after) == \
                sorted(_canonical(judge.canon(x, path, arrays)) for x in before), path
            assert not set(order(after)) & set(order(before)), path


def _same(arrays, path, mine, theirs):
    e = {"step": 1, "kind": "same", "path": path, "arrays": arrays,
         "other": {"step": 0, "path": path, "arrays": arrays}}
    return judge.judge(e, {0: judge.Answer("ok", theirs), 1: judge.Answer("ok", mine)})


def _a_scalar(value):
    """The first dict of ``value`` (depth first) with a scalar field: (dict, field)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(v, (dict, list)):
                return value, k
        for v in value.values():
            hit = _a_scalar(v)
            if hit:
                return hit
    if isinstance(value, list):
        for v in value:
            hit = _a_scalar(v)
            if hit:
                return hit
    return None


@pytest.mark.parametrize("api_key", KEYS, ids=lambda k: APIS[k].name)
def test_the_judge_compares_every_list_valued_field_in_any_order_kafka_allows(api_key):
    """For every array of the answer: the recorded answer against itself shuffled holds;
    a value changed inside the array, an entry missing, fail; an ordered array reordered fails."""
    arrays = array_order.judge_arrays(api_key)
    body = _answer(api_key)
    for seed in range(3):
        out = shuffled(api_key, body, random.Random(seed))
        for path in array_order.arrays(api_key):
            where = path.split(".")
            assert _same(arrays, where, out, body) is None, (path, seed)
            assert _same(arrays, where, body, out) is None, (path, seed)
    for path in array_order.arrays(api_key):
        where = path.split(".")
        lists = _at(body, path)
        if not lists or not lists[0]:
            continue
        changed = copy.deepcopy(body)
        target = _at(changed, path)[0]
        hit = _a_scalar(target) if isinstance(target[0], dict) else None
        if hit:
            d, k = hit
            d[k] = "changed" if not isinstance(d[k], str) else d[k] + "-changed"
        else:
            target[0] = "changed"
        assert _same(arrays, where, changed, body) is not None, ("a changed value passed", path)
        fewer = copy.deepcopy(body)
        _at(fewer, path)[0].pop()
        assert _same(arrays, where, fewer, body) is not None, ("a missing entry passed", path)
        if array_order.ordered(api_key, path):
            turned = copy.deepcopy(body)
            _at(turned, path)[0].reverse()
            assert _same(arrays, where, turned, body) is not None, ("an ordered list reordered passed", path)


def test_v1s_configs_compare_by_name_and_synonyms_by_place():
    """V1's comparison (DescribeConfigs configs before and after a validate_only request), the
    configs in another order: the same; a value changed or synonyms in another order: not."""
    arrays = array_order.judge_arrays(ApiKey.DescribeConfigs)

    def configs(*entries):
        return {"results": [{"resource_type": 2, "resource_name": "t", "error_code": 0, "configs": [
            {"name": n, "value": v, "synonyms": [{"name": s, "value": v, "source": 1} for s in syn]}
            for n, v, syn in entries]}]}
    before = configs(("retention.ms", "1", ["a", "b"]), ("cleanup.policy", "delete", []))
    assert _same(arrays, ["results", "configs"], configs(("cleanup.policy", "delete", []),
                                                        ("retention.ms", "1", ["a", "b"])), before) is None
    why = _same(arrays, ["results", "configs"], configs(("cleanup.policy", "compact", []),
                                                       ("retention.ms", "1", ["a", "b"])), before)
    assert why is not None and "differ" in why
    assert _same(arrays, ["results", "configs"], configs(("retention.ms", "1", ["b", "a"]),
                                                        ("cleanup.policy", "delete", [])), before) is not None
    why = _same(arrays, ["results", "configs", "value"], configs(("retention.ms", "1", [])), before)
    assert why is not None and "missing" in why


def test_a_comparison_recorded_before_keyed_ones_keeps_its_meaning():
    """An expectation without ``arrays`` (recorded by an older suite) compares as it did:
    position by position, the outer list sorted with ``sort``."""
    e = {"step": 1, "kind": "same", "path": ["v"], "other": {"step": 0, "path": ["v"]}}
    a = {0: judge.Answer("ok", {"v": [1, 2]}), 1: judge.Answer("ok", {"v": [2, 1]})}
    assert judge.judge(e, a) is not None
    assert judge.judge({**e, "path": ["v", "*"], "other": {"step": 0, "path": ["v", "*"]}, "sort": True}, a) is None


def test_an_overlay_api_without_an_api_key_has_its_arrays_too():
    """A never-released API the codec speaks by an overlay (K2's DeletePartitions, key 10000:
    no ``ApiKey``) is judged and shuffled like the others: its arrays have no order."""
    from reference import partition_deletion

    api = partition_deletion.register()
    arrays = array_order.judge_arrays(api.key)
    assert arrays and all(spec != "#" for spec in arrays.values())
    assert not array_order.ordered(api.key, next(iter(arrays)))
