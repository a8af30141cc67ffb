"""One judge: the function every exported repro.py carries decides every row in-process.

* the harness judges with ``fixtures.judge.judge`` itself (the same function object),
  and reads answers with the judge's decoder (``fixtures.judge.read_answer``);
* the judge's kinds and fields, offline: conditions (``when`` / ``unless``), values by
  their config type (``as``), every code at any depth (``**``), bounds (``at_least``),
  values unlike an earlier step's (``same`` with ``differ``), the history of concurrent
  writers (``history``), what the suite observed (``observed``);
* its words name Kafka's error codes and the entry's message;
* repro.py carries the judge's modules as one file that runs with ``python3 -I -S``, the
  same code as the package's, and the exporter refuses a module that would break that.

Whether rows and their reproducers agree against real brokers, property by property, on
findings mutants make: tests/test_judge_agrees.py.
"""
from __future__ import annotations

import inspect
import os
import subprocess
import types

import pytest

from fixtures import harness
from fixtures import judge
from fixtures.check import judging, recorder
from fixtures.judge import matching, replay, values, verdicts
from protocol import reader, walk
from fixtures.repro import export
from protocol.errors import Errors

NAMES = {int(c): c.name for c in Errors}


def test_the_harness_judges_with_the_reproducers_judge():
    assert harness.judge is judge.judge and judging.judge is judge.judge
    assert recorder.read_answer is judge.read_answer
    source = inspect.getsource(harness.Check.record_answer)
    assert "read_answer(" in source        # the answers the judge reads, as repro.py reads them
    assert export.judge_source().count("def judge(") == 1     # the text repro.py carries


def _answers(*bodies, times=None):
    out = {}
    for i, b in enumerate(bodies):
        sent, took = (times or {}).get(i, (float(i), 0.1))
        out[i] = judge.Answer("ok", b, took, sent_at=sent)
    return out


def test_a_code_is_shown_with_its_name_and_its_entrys_message():
    a = _answers({"topics": [{"name": "t", "error_code": 36, "error_message": "Topic 't' already exists."}]})
    e = {"step": 0, "kind": "field", "path": ["topics", {"name": "t"}, "error_code"], "in": [0]}
    assert judge.judge(e, a, NAMES) == "36 TOPIC_ALREADY_EXISTS (\"Topic 't' already exists.\")"
    assert judge.describe(e, NAMES).endswith("each one of 0 NONE")


def test_unless_judges_only_where_the_condition_fails():
    e = {"step": 0, "kind": "field", "path": ["r", {"n": "x"}, "m"], "not_in": [None, ""],
         "when": {"step": 0, "path": ["r", {"n": "x"}, "c"], "not_in": [0]}}
    assert judge.judge(e, _answers({"r": [{"n": "x", "c": 3, "m": None}]})) is not None    # an error: a message
    assert judge.judge(e, _answers({"r": [{"n": "x", "c": 0, "m": None}]})) is None        # NONE: not judged


def test_config_values_compare_by_what_they_mean():
    e = {"step": 0, "kind": "field", "path": ["v"], "in": ["1"], "as": "double"}
    assert judge.judge(e, _answers({"v": "1.0"})) is None
    assert judge.judge(e, _answers({"v": "1.5"})) is not None
    lst = {"step": 0, "kind": "field", "path": ["v"], "in": ["compact,delete"], "as": "list"}
    assert judge.judge(lst, _answers({"v": "compact, delete"})) is None
    assert judge.judge(lst, _answers({"v": "delete,compact"})) is not None       # order counts


def test_every_code_at_any_depth_and_a_lower_bound():
    body = {"throttle_time_ms": -1, "error_code": 0, "topics": [{"error_code": 0, "partitions": [{"error_code": 89}]}]}
    deep = {"step": 0, "kind": "field", "path": ["**", "error_code"], "not_in": [89]}
    assert judge.judge(deep, _answers(body), NAMES) == "89 THROTTLING_QUOTA_EXCEEDED"
    assert judge.select(body, ["**", "error_code"]) == [0, 0, 89]
    floor = {"step": 0, "kind": "field", "path": ["throttle_time_ms"], "at_least": 0}
    assert judge.judge(floor, _answers(body)) == "[-1]"
    assert judge.judge(floor, _answers({"throttle_time_ms": 0})) is None


def test_differ_holds_where_no_value_is_one_the_earlier_step_showed():
    """D4: a re-created topic's id is not the deleted topic's (``same`` with ``differ``)."""
    e = {"step": 1, "kind": "same", "path": ["topics", {"name": "t"}, "topic_id"], "differ": True,
         "other": {"step": 0, "path": ["topics", {"name": "t"}, "topic_id"]}}
    old = {"topics": [{"name": "t", "topic_id": "a"}]}
    assert judge.judge(e, _answers(old, {"topics": [{"name": "t", "topic_id": "b"}]})) is None
    assert judge.judge(e, _answers(old, old)) == '["a"], the value step 1 shows'
    assert "unlike step 1's" in judge.describe({**e, "says": None})
    assert judge.judge({**e, "differ": None}, _answers(old, old)) is None     # without it: equal


def _history(reads, writes):
    """reads: (sent, took, value of k); writes: (sent, took, value, code)."""
    bodies, times, ws, rs = [], {}, [], []
    for sent, took, value, code in writes:
        times[len(bodies)] = (sent, took)
        ws.append({"step": len(bodies), "key": "k", "value": value})
        bodies.append({"responses": [{"resource_name": "t", "error_code": code}]})
    for sent, took, value in reads:
        times[len(bodies)] = (sent, took)
        rs.append(len(bodies))
        bodies.append({"results": [{"resource_name": "t", "configs": [{"name": "k", "value": value}]}]})
    e = {"step": len(bodies) - 1, "kind": "history", "resource": "t", "reads": rs, "writes": ws,
         "initial": {"k": "0"}, "lag_s": 1.0, "as": {"k": "int"}}
    return judge.judge(e, _answers(*bodies, times=times))


def test_the_history_judge_finds_a_lost_update_and_a_value_going_back():
    writes = [(0.0, 0.1, "1", 0), (1.0, 0.1, "2", 0)]
    assert _history([(0.5, 0.1, "1"), (2.0, 0.1, "2"), (3.0, 0.1, "02")], writes) is None   # "02" means 2
    assert "a lost update" in _history([(5.0, 0.1, "1")], writes)                           # 2 acked at 1.1
    assert "undone" in _history([(1.5, 0.1, "2"), (1.7, 0.1, "1")], writes)               # back from 2 to 1
    assert "neither its initial value" in _history([(0.5, 0.1, "7")], writes)


def test_what_the_suite_observed_is_judged_in_process_and_left_to_the_suite_by_a_reproducer():
    e = {"step": 0, "kind": "observed", "what": "the policy was shown", "seen": {"a": 1}, "in": [{"a": 2}]}
    assert judge.judge(e, {}) is not None and judge.judge({**e, "in": [{"a": 1}]}, {}) is None
    assert not judge.judged(e)


def test_an_observed_list_holds_what_has_names_in_any_order():
    e = {"step": 0, "kind": "observed", "what": "the policy was shown", "seen": [{"a": 1, "b": [2]}, "x"],
         "has": [{"b": [2], "a": 1}]}
    assert judge.judge(e, {}) is None
    assert judge.judge({**e, "has": ["y"]}, {}) is not None
    assert judge.judge({**e, "seen": []}, {}) is not None
    assert "holding" in judge.describe(e)


def test_an_answer_with_another_correlation_id_is_no_answer():
    a = judge.read_answer({"fields": []}, 3, 0, 5, "ok", (7).to_bytes(4, "big"), 0.1)
    assert a.status == "mismatched" and a.detail == "correlation id 7, sent 5"
    assert judge.judge({"step": 0, "kind": "answer", "within_s": 15}, {0: a}).startswith("mismatched")


def test_items_finds_a_missing_a_repeated_and_an_extra_result_as_protocol_item_keys_does():
    from protocol import ApiKey, item_keys

    version = 2
    paths = item_keys.answer_levels(ApiKey.DeleteRecords, version)
    want = item_keys.requested(ApiKey.DeleteRecords, version,
                               {"topics": [{"name": "a", "partitions": [{"partition_index": 0, "offset": 1},
                                                                        {"partition_index": 1, "offset": 1}]}],
                                "timeout_ms": 1})
    e = {"step": 0, "kind": "items", "paths": paths, "want": [list(k) for k in want]}

    def answer(parts, error_code=None):
        body = {"throttle_time_ms": 0, "topics": [{"name": "a", "partitions": [
            {"partition_index": p, "low_watermark": 0, "error_code": 0} for p in parts]}]}
        if error_code is not None:
            body["error_code"] = error_code
        assert (item_keys.answered(ApiKey.DeleteRecords, version, body) is not None)
        return {0: judge.Answer("ok", body)}

    assert judge.judge(e, answer([0, 1])) is None
    assert "no result for requested" in judge.judge(e, answer([0]))
    assert "repeats" in judge.judge(e, answer([0, 1, 1]))
    assert "not requested" in judge.judge(e, answer([0, 1, 2]))
    assert judge.judge(e, answer([], error_code=29)) is None       # the whole request failed
    assert "one result per requested item" in judge.describe(e)


def test_items_compares_struct_keys_whatever_order_kafka_lists_them_in():
    from protocol import ApiKey, item_keys

    version = 1
    entity = [{"entity_type": "user", "entity_name": "u"}, {"entity_type": "client-id", "entity_name": "c"}]
    request = {"entries": [{"entity": entity, "ops": []}], "validate_only": False}
    want = item_keys.requested(ApiKey.AlterClientQuotas, version, request)
    paths = item_keys.answer_levels(ApiKey.AlterClientQuotas, version)
    e = {"step": 0, "kind": "items", "paths": paths, "want": [list(k) for k in want]}
    body = {"throttle_time_ms": 0, "entries": [{"error_code": 0, "error_message": None,
                                                 "entity": list(reversed(entity))}]}
    assert item_keys.answered(ApiKey.AlterClientQuotas, version, body) == want
    assert judge.judge(e, {0: judge.Answer("ok", body)}) is None


def test_items_match_a_topic_named_by_id_by_its_id_and_find_a_misnamed_result():
    """DeleteTopics v6 (and Metadata v10+) name a topic by name or by id: a result shares one
    of them with the requested item (KIP-516; ControllerApis.deleteTopics answers an unknown id
    with a null name, a known one with its name and id, a name with its id too). A by-id
    result carrying the empty name, no topic's, is misnamed, not missing; v0-v5's plain names
    match results by name."""
    import uuid

    from fixtures import jsonable
    from protocol import ApiKey, item_keys

    tid, other = uuid.UUID(int=5), uuid.UUID(int=6)

    def judged(version, request, results):
        want = item_keys.requested(ApiKey.DeleteTopics, version, request)
        e = {"step": 0, "kind": "items", "paths": item_keys.answer_levels(ApiKey.DeleteTopics, version),
             "want": jsonable.dump(list(dict.fromkeys(want)))}
        return judge.judge(e, {0: judge.Answer("ok", {"throttle_time_ms": 0, "responses": results})})

    by_id = {"topics": [{"name": None, "topic_id": tid}], "timeout_ms": 1}
    by_name = {"topics": [{"name": "t", "topic_id": None}], "timeout_ms": 1}
    assert judged(6, by_id, [{"name": None, "topic_id": str(tid), "error_code": 100}]) is None     # unknown id
    assert judged(6, by_id, [{"name": "t", "topic_id": str(tid), "error_code": 0}]) is None        # deleted: named
    assert judged(6, by_name, [{"name": "t", "topic_id": str(other), "error_code": 0}]) is None   # a name, its id
    why = judged(6, by_id, [{"name": "", "topic_id": str(tid), "error_code": 100}])
    assert why.startswith("misnamed: the result for requested") and 'name ""' in why, why
    assert judged(6, by_id, [{"name": "t", "topic_id": str(other), "error_code": 0}]).startswith("no result for")
    both = {"topics": [{"name": "t", "topic_id": tid}], "timeout_ms": 1}                          # INVALID_REQUEST
    assert judged(6, both, [{"name": "t", "topic_id": str(tid), "error_code": 42}]) is None
    assert judged(6, both, [{"name": "u", "topic_id": str(tid), "error_code": 42}]).startswith("misnamed")
    neither = {"topics": [{"name": None, "topic_id": None}], "timeout_ms": 1}      # names nothing: INVALID_REQUEST
    assert judged(6, neither, [{"name": None, "topic_id": None, "error_code": 42}]) is None
    assert judged(6, neither, [{"name": "t", "topic_id": None, "error_code": 42}]).startswith("no result for")
    plain = {"topic_names": ["a", "b"], "timeout_ms": 1}
    assert judged(4, plain, [{"name": "b", "error_code": 3}, {"name": "a", "error_code": 0}]) is None
    assert "repeats" in judged(4, plain, [{"name": "a", "error_code": 3}, {"name": "a", "error_code": 0},
                                          {"name": "b", "error_code": 0}])


def test_a_number_in_a_path_takes_the_entry_at_that_place():
    body = {"results": [{"error_code": 0}, {"error_code": 42, "error_message": "bad"}]}
    assert judge.select(body, ["results", 1, "error_code"]) == [42]
    assert judge.select(body, ["results", 2, "error_code"]) == []          # no such place: nothing
    e = {"step": 0, "kind": "field", "path": ["results", 1, "error_code"], "in": [0], "count": 1}
    assert judge.judge(e, _answers(body), NAMES) == "42 INVALID_REQUEST ('bad')"
    assert judge.judge({**e, "path": ["results", 0, "error_code"]}, _answers(body), NAMES) is None


def test_a_learned_value_is_sent_as_this_runs_answer_gave_it():
    """``learn`` notes (a delegation token's HMAC, H4): the recorded bytes in a frame become
    what this run's earlier answer holds at the note's path; another length, or no such value,
    cannot be replayed (None)."""
    was, now = bytes(range(64)), bytes(range(64, 128))
    frame = b"\x00\x27" + was + b"\x00\x01"
    note = {"kind": "learn", "step": 1, "was": was.hex(), "other": {"step": 0, "path": ["hmac"]}}
    assert note["kind"] in judge.NOTES and judge.judge(note, {}) is None
    answers = {0: judge.Answer("ok", {"hmac": now.hex()})}
    assert judge.learned(note, answers, frame) == b"\x00\x27" + now + b"\x00\x01"
    assert judge.learned(note, {0: judge.Answer("ok", {"hmac": now[:10].hex()})}, frame) is None
    assert judge.learned(note, {0: judge.Answer("ok", {"error_code": 62})}, frame) is None
    assert judge.learned(note, {}, frame) is None


# -- the judge as repro.py carries it ----------------------------------------------------------

def _code(co: types.CodeType) -> tuple:
    """What a function does: its bytecode, names and constants, nested functions' alike."""
    return (co.co_code, co.co_names, co.co_varnames, co.co_freevars,
            tuple(_code(c) if isinstance(c, types.CodeType) else c for c in co.co_consts))


def test_repro_py_carries_the_judges_modules_as_they_are():
    """Every top-level function and class of fixtures/judge and of the protocol modules it carries
    (protocol/reader.py, protocol/walk.py) is in the one text, compiled to the
    same code, and nothing else is defined there."""
    carried: dict = {"__name__": "repro"}
    exec(compile(export.judge_source(), "repro.py", "exec"), carried)
    seen = set()
    for module in (matching, reader, replay, values, verdicts, walk):
        for name, obj in vars(module).items():
            if getattr(obj, "__module__", None) != module.__name__:
                continue                # imported from a sibling or the standard library
            seen.add(name)
            mine = carried[name]
            if isinstance(obj, type):
                assert {n: _code(f.__code__) for n, f in vars(obj).items() if isinstance(f, types.FunctionType)} == \
                       {n: _code(f.__code__) for n, f in vars(mine).items() if isinstance(f, types.FunctionType)}, name
            else:
                plain = getattr(obj, "__wrapped__", obj)      # functools.lru_cache
                assert _code(plain.__code__) == _code(getattr(mine, "__wrapped__", mine).__code__), name
    functions = {n for n, v in carried.items() if isinstance(v, (types.FunctionType, type)) or hasattr(v, "__wrapped__")}
    assert functions == seen


def test_repro_py_runs_with_the_standard_library_alone(tmp_path):
    data = {"title": "t", "row": {"run_id": "r", "row_id": 1}, "config": "a note"}
    (tmp_path / "repro.py").write_text(export.repro_source(data), encoding="utf-8")
    p = subprocess.run(["python3", "-I", "-S", "repro.py", "--config"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=60, env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
    assert (p.returncode, p.stdout, p.stderr) == (0, "a note\n", "")


@pytest.mark.parametrize("modules, refused", [
    ({"a.py": "from .b import f as g\n", "b.py": "def f():\n    pass\n"}, "without an alias"),
    ({"a.py": "from . import b\n", "b.py": "X = 1\n"}, "without an alias"),
    ({"a.py": "def f():\n    from .b import X\n", "b.py": "X = 1\n"}, "without an alias"),
    ({"a.py": "from .b import Y\n", "b.py": "X = 1\n"}, "b.py defines no Y"),
    ({"a.py": "from protocol import wire\n"}, "imports protocol, not the standard library"),
    ({"a.py": "def f():\n    import hypothesis\n"}, "imports hypothesis"),
    ({"a.py": "from __future__ import annotations\n"}, "imports __future__"),
    ({"a.py": "X = 1\n", "b.py": "def X():\n    pass\n"}, "both define X"),
    ({"a.py": "from .b import X\nY = 1\n", "b.py": "from .a import Y\nX = 1\n"}, "in a circle: a, b"),
])
def test_the_exporter_refuses_a_judge_module_repro_py_could_not_carry(tmp_path, modules, refused):
    folder = tmp_path / "judge"
    folder.mkdir()
    for name, text in modules.items():
        (folder / name).write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=refused):
        export.judge_source(folder)
