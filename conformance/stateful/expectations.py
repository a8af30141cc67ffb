"""The model's answers as data: what a conforming broker answers to each step of an S1
example, stated as the check's expectations (``docs/results.md``, "Expectations"). They are
S1's verdicts: the judge (``fixtures/check/judging.py``, the function every exported repro.py
carries) decides each one when it is stated, so a reproducer judges a broker by these
alone, without the model. Each function states one kind of answer: the error codes of a
step's entries, the facts of a NONE entry (``cluster_model.Expect.verify``), Metadata of a
topic, DescribeConfigs of a topic, ListOffsets of the partitions. The values are the
model's (``conformance/cluster_model.py``, after ``docs/reference-semantics.md``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from fixtures import jsonable
from protocol import OffsetSpec, apis
from protocol.errors import Errors, error_name

from .. import cluster_model as cm

if TYPE_CHECKING:
    from .interfaces import RunContext


def codes_text(codes) -> str:
    """Error codes as a script shows them: ``NONE or INVALID_CONFIG``."""
    return " or ".join(error_name(c) for c in sorted(codes))


def entry_path(api: int, key: tuple) -> list:
    """Where the answer to ``api`` holds the entry of a model key (an expectation's path)."""
    s = apis.spec(api)
    if key[0] == "partition":
        return [s.results, {s.item: key[1]}, s.partitions, {"partition_index": key[2]}]
    if key[0] == "id":
        return [s.results, {"topic_id": key[1]}]
    return [s.results, {s.item: key[1]}]


def _named(key) -> str:
    """A model key in full (expectations stand alone: no ``kac-..`` shorthand)."""
    return f"{key[1]}-{key[2]}" if key[0] == "partition" else f"id {key[1]}" if key[0] == "id" else str(key[1])


def expected_answer(run: RunContext, api, expects, entries, everything: bool) -> None:
    """Per predicted entry of the step just answered: its allowed error codes (and one
    entry per key); no entry for a key the request did not ask (an owned key the answer
    shows that the model did not predict); with ``everything``, no entry beyond those
    asked at all."""
    by: dict[tuple, list[cm.Expect]] = {}
    for e in expects:
        by.setdefault(e.key, []).append(e)
    for key, es in by.items():
        allowed = sorted(set().union(*(e.allowed for e in es)))
        run.check.expect_field(entry_path(api, key) + ["error_code"], allowed, count=len(es),
                               says=f"{_named(key)}: {codes_text(allowed)} ({es[0].why})")
    for key in dict.fromkeys(k for k, _, _ in entries if k not in by):
        run.check.expect_field(entry_path(api, key), count=0, says=f"no result for {_named(key)}, which was not asked")
    if everything:
        s = apis.spec(api)
        run.check.expect_field([s.results, s.partitions, "error_code"] if s.partitions else
                               [s.results, "error_code"], count=len(expects),
                               says=f"{len(expects)} result(s): one per item asked")


def stated(run: RunContext, facts: list[cm.Fact], base: list, step: int, label: str, when_none: bool = True) -> None:
    """Record the model's ``facts`` (paths below ``base``, about ``label``) on ``step``'s
    answer: each applies where the entry answered NONE (``when_none``) unless it names its
    own condition."""
    for f in facts:
        f = dict(f, says=f"{label}: {f['says']}") if f.get("says") else dict(f)
        f["path"] = jsonable.dump(base + f["path"])
        if "when" in f:
            f["when"] = dict(f["when"], step=step, path=jsonable.dump(base + f["when"]["path"]))
        elif when_none:
            f["when"] = {"step": step, "path": jsonable.dump(base + ["error_code"]), "in": [int(Errors.NONE)]}
        if "other" in f:
            f["other"] = dict(f["other"], path=jsonable.dump(f["other"]["path"]))
        for k in ("in", "not_in"):
            if k in f:
                f[k] = jsonable.dump(f[k])
        run.check.expect_data(f, step=step)


def expected_entries(run: RunContext, api, expects, entries) -> None:
    """What the model expects of each NONE entry beyond its code (its ``verify`` facts)."""
    step = len(run.check.steps) - 1
    seen = {k: entry for k, _, entry in entries}
    for e in expects:
        if e.verify is not None and Errors.NONE in e.allowed:
            stated(run, e.verify(seen.get(e.key) or {}), entry_path(api, e.key), step, _named(e.key))


def expected_topic(run: RunContext, name: str, entry: dict | None, version: int, step: int | None = None) -> None:
    """Metadata (the step's answer) lists ``name`` as the model has it: without error, its
    partitions (each without error, each with a leader), its topic id; or not at all."""
    t, at = run.model.topics.get(name), ["topics", {"name": name}]
    step = len(run.check.steps) - 1 if step is None else step
    if t is None:
        run.check.expect_field(at, count=0, step=step,
                               says=f"Metadata does not list {_named(('name', name))} (the model has no such topic)")
        return
    run.check.expect_field(at + ["error_code"], [Errors.NONE], count=1, step=step,
                           says=f"Metadata lists {_named(('name', name))} without error")
    stated(run, run.model.topic_facts(t, entry or {}, version), at, step, name, when_none=False)
    run.check.expect_field(at + ["partitions", "error_code"], [Errors.NONE], step=step,
                           says=f"every partition of {_named(('name', name))} answers without error")
    run.check.expect_field(at + ["partitions", "leader_id"], refused=[-1], step=step,
                           says=f"every partition of {_named(('name', name))} has a leader")


def expected_configs(run: RunContext, name: str, version: int, step: int | None = None) -> None:
    """DescribeConfigs (the step's answer) shows ``name``'s configs as the model has them
    (``cluster_model.Model.config_facts``), without error."""
    t = run.model.topics.get(name)
    if t is None:
        return
    step = len(run.check.steps) - 1 if step is None else step
    base = ["results", {"resource_name": name}]
    run.check.expect_field(base + ["error_code"], [Errors.NONE], count=1, step=step,
                           says=f"DescribeConfigs of {name}: NONE")
    stated(run, run.model.config_facts(t, version), base, step, name, when_none=False)


def expected_offsets(run: RunContext, parts: dict, at: dict) -> None:
    """ListOffsets (the steps ``at`` names: earliest, latest) shows every partition of
    ``parts`` with the model's log start and end offsets."""
    for which, field in ((OffsetSpec.EARLIEST, "start"), (OffsetSpec.LATEST, "end")):
        if which not in at:
            continue
        for n, t in parts.items():
            for p in range(t.partitions):
                path = ["topics", {"name": n}, "partitions", {"partition_index": p}]
                run.check.expect_field(path + ["error_code"], [Errors.NONE], count=1, step=at[which],
                                       says=f"ListOffsets of {n}-{p}: NONE")
                run.check.expect_field(path + ["offset"], [getattr(t, field)[p]], count=1, step=at[which],
                                       says=f"{n}-{p}: the model's log "
                                            f"{'start' if field == 'start' else 'end'} offset {getattr(t, field)[p]}")
