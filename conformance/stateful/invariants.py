"""S1's invariants, checked before the first step and after every step of an example: the
broker's state equals the model's.

* every row: Metadata (all topics, newest version) lists exactly the model's topics under
  the example's sub-prefix, with its partition counts, a leader for every partition and the
  topic id it was created with;
* log rows: ListOffsets earliest and latest of every partition equal the model's log start
  and end offsets (so offsets are monotone);
* config rows: DescribeConfigs of every model topic equals the model.

Each is polled until it holds (Kafka applies metadata and config changes asynchronously:
``docs/reference-semantics.md``); what the last look must show is stated as data
(``expectations.py``). The comparisons are the model's (``conformance/cluster_model.py``:
``topic_problem``, ``config_problem``), and what a look shows is learnt where the model
could not predict it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from fixtures import waiting
from protocol import apis, requests
from protocol.apis import ApiKey, OffsetSpec
from protocol.errors import Errors, error_name

from .expectations import expected_configs, expected_offsets, expected_topic

if TYPE_CHECKING:
    from .run import Run


def check_invariants(run: Run) -> None:
    """Every invariant of ``run``'s row holds (polled until it settles), or ``run`` fails."""
    _settle(run, _topics_problem)
    if run.row.watch_logs and ApiKey.ListOffsets in run.row.ranges:
        _settle(run, _offsets_problem)
    if run.row.watch_configs:
        _settle(run, _configs_problem, always=False)


def _settle(run: Run, observe, always: bool = True):
    """Poll ``observe`` until it finds no problem. What its last look must show is stated
    as data (``run.stated``: calls to make once the look is final), after every look for
    cheap invariants (``always``) and only when it fails for the config one."""
    held, problem = waiting.eventually(lambda: observe(run), lambda problem: problem is None,
                                       within=run.row.settle_seconds())
    if always or not held:
        for state in run.stated:
            state()
    run.stated = []
    if not held:
        run.fail(problem)


def _topics_problem(run: Run) -> str | None:
    """Metadata of all topics against the model's topics under the sub-prefix."""
    m, v = run.model, run.row.ranges[ApiKey.Metadata][1]
    resp = run.send(ApiKey.Metadata, v, requests.metadata(v), "(invariant) Metadata")
    seen = {t.get("name"): t for t in apis.results(ApiKey.Metadata, resp) if m.owns(t.get("name"))}
    extra = sorted(set(seen) - set(m.topics))
    at, retry = len(run.check.steps) - 1, run.row.settle_seconds()
    run.stated = [lambda n=n: expected_topic(run, n, at, retry) for n in sorted(set(m.topics) | set(extra))]
    if extra:
        return f"Metadata lists {extra[0]} (error {error_name(seen[extra[0]]['error_code'])}), which the model does not have"
    missing = sorted(set(m.topics) - set(seen))
    if missing:
        return f"Metadata does not list {missing[0]}, which the model has"
    for name, entry in sorted(seen.items()):
        t = m.topics[name]
        if entry["error_code"] != Errors.NONE:
            return f"Metadata: {name} has error {error_name(entry['error_code'])}"
        bad = m.topic_problem(t, entry, v)
        if bad:
            return f"Metadata: {name} has {bad}"
        for p in entry.get("partitions") or []:
            if p.get("error_code") != Errors.NONE or p.get("leader_id", -1) < 0:
                return (f"Metadata: {name}-{p.get('partition_index')} has no leader "
                        f"(error {error_name(p.get('error_code'))})")
    for name, entry in seen.items():
        m.learn_topic(m.topics[name], entry, v)
    return None


def _offsets_problem(run: Run) -> str | None:
    """ListOffsets earliest and latest of every partition against the model's offsets."""
    m = run.model
    parts = {n: t for n, t in sorted(m.topics.items()) if t.partitions}
    if not parts:
        return None
    v = run.row.ranges[ApiKey.ListOffsets][1]
    seen, at = {}, {}
    run.stated = [lambda: expected_offsets(run, parts, at)]
    for which in (OffsetSpec.EARLIEST, OffsetSpec.LATEST):
        body = requests.list_offsets(v, [(n, range(t.partitions)) for n, t in parts.items()], which)
        resp = run.send(ApiKey.ListOffsets, v, body, "(invariant) ListOffsets")
        at[which] = len(run.check.steps) - 1
        for t in resp.get("topics") or []:
            for p in t.get("partitions") or []:
                seen[(t.get("name"), p.get("partition_index"), which)] = (p.get("error_code"), p.get("offset"))
    for n, t in parts.items():
        for p in range(t.partitions):
            for which, want, what in ((OffsetSpec.EARLIEST, t.start[p], "log start offset"),
                                      (OffsetSpec.LATEST, t.end[p], "log end offset (high watermark)")):
                code, got = seen.get((n, p, which), (None, None))
                if code is None:
                    return f"ListOffsets: no answer for {n}-{p}"
                if code != Errors.NONE:
                    return f"ListOffsets: {n}-{p} answered {error_name(code)}"
                if got != want:
                    return f"ListOffsets: {n}-{p} {what} is {got}, the model has {want}"
    return None


def _configs_problem(run: Run) -> str | None:
    """DescribeConfigs of every model topic against the model's configs."""
    m = run.model
    names = [n for n in sorted(m.topics)]
    if not names:
        return None
    v = run.row.ranges[ApiKey.DescribeConfigs][1]
    resp = run.send(ApiKey.DescribeConfigs, v, requests.describe_configs(v, [(n, None) for n in names]),
                    "(invariant) DescribeConfigs")
    at = len(run.check.steps) - 1
    run.stated = [lambda: [expected_configs(run, n, v, step=at) for n in names]]
    results = {r.get("resource_name"): r for r in apis.results(ApiKey.DescribeConfigs, resp)}
    for n in names:
        r = results.get(n)
        if r is None:
            return f"DescribeConfigs: no result for {n}"
        if r["error_code"] != Errors.NONE:
            return f"DescribeConfigs: {n} answered {error_name(r['error_code'])}"
        described = {c["name"]: c for c in r.get("configs") or []}
        bad = m.config_problem(m.topics[n], described, v)
        if bad:
            return f"DescribeConfigs: {n} {bad}"
    for n in names:
        m.learn_configs(m.topics[n], {c["name"]: c for c in results[n].get("configs") or []})
    return None
