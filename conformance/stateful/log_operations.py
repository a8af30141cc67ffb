"""S1's operations on partition logs: DeleteRecords (a focus of its own) and Produce (only
to grow log end offsets in the log rows).

Sources: DeleteRecords is KIP-107 "Add deleteRecordsBefore() API in AdminClient"; what Kafka
answers is the model's (``conformance/cluster_model.py``, after
``docs/reference-semantics.md``: ``Partition.deleteRecordsOnLeader``, ``ReplicaManager``).
Produce sends record batches of message format v2 (``MemoryRecordsBuilder(magic=2)``; the
format of Produce v3+) and stops below v13, which names topics by id (KIP-516 "Topic
Identifiers"; ``ProduceRequest.json`` in apache/kafka
``clients/src/main/resources/common/message/``).
"""
from __future__ import annotations

import time

from hypothesis import strategies as st
from kafka.record.memory_records import MemoryRecordsBuilder

from protocol import apis, requests, schema_facts
from protocol.apis import ApiKey
from protocol.errors import Errors

from .operation import Operation

class DeleteRecords(Operation):
    """Offsets are drawn as choices (the high watermark, the middle of the log, its end,
    its start, 0, beyond the end, negative) resolved against the model's offsets."""
    api = ApiKey.DeleteRecords
    log_row = True
    #: Plain DeleteRecords only in these rows (elsewhere it moves log starts where
    #: re-creation / growth must not).
    plain_rows = (ApiKey.DeleteTopics, ApiKey.CreatePartitions)

    def draw(self, s, focused):
        if focused:
            part = st.tuples(st.integers(0, 3), st.sampled_from(
                ["hw", "mid", "end", "start", "zero", "beyond", "neg"])).map(list)
            topics = st.lists(st.fixed_dictionaries({"slot": s.slot(True),
                                                     "partitions": st.lists(part, min_size=1, max_size=3)}),
                              min_size=1, max_size=2, unique_by=lambda t: t["slot"])
        else:
            part = st.tuples(st.integers(0, 1), st.sampled_from(["hw", "mid", "end", "zero"])).map(list)
            topics = st.lists(st.fixed_dictionaries({"slot": s.slot(False),
                                                     "partitions": st.lists(part, min_size=1, max_size=1)}),
                              min_size=1, max_size=1)
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, focused),
                                      "topics": topics})

    def enabled(self, row):
        return super().enabled(row) and row.focus in self.plain_rows

    def keep_plain(self, m, items):
        return [{**t, "partitions": [[p % m.topics[m.name(t["slot"])].partitions, o] for p, o in t["partitions"]]}
                for t in items if m.name(t["slot"]) in m.topics and m.topics[m.name(t["slot"])].partitions]

    def resolve(self, run, op):
        op["topics"] = [{"slot": t["slot"], "partitions": [[p, self.offset(run.model, t["slot"], p, o)]
                                                           for p, o in t["partitions"]]}
                        for t in op["topics"]]
        return op

    @staticmethod
    def offset(m, slot, p, choice):
        if isinstance(choice, int):
            return choice
        t = m.topics.get(m.name(slot))
        start = end = 0
        if t is not None and t.partitions is not None and p < t.partitions:
            start, end = t.start[p], t.end[p]
        return {"hw": -1, "mid": (start + end) // 2, "end": end, "start": start, "zero": 0,
                "beyond": end + 1, "neg": -2}[choice]

    def render(self, op, n):
        return ", ".join(f"{n(t['slot'])}-{p} before {o}" + (" (high watermark)" if o == -1 else "")
                         for t in op["topics"] for p, o in t["partitions"])

    def items(self, run, op):
        return [{"name": run.model.name(t["slot"]), "partitions": [list(p) for p in t["partitions"]]}
                for t in op["topics"]]

    def predict(self, run, items, op):
        now = time.monotonic()
        unsettled = frozenset(n for n, until in run.unsettled.items() if until > now)
        return run.model.delete_records(items, unsettled)

    def request(self, v, items, op):
        return requests.delete_records(v, [(t["name"], t["partitions"]) for t in items])

    def entries(self, run, resp, items, op):
        parts = apis.spec(self.api).partitions
        return [(("partition", t["name"], p["partition_index"]), p["error_code"], p)
                for t in apis.items(self.api, resp) for p in t.get(parts) or []]

    @staticmethod
    def extra(e, entry):
        return f" lw {entry.get('low_watermark')}"


class Produce(Operation):
    """Support for the log rows (grows a partition's log end offset): keyed records (a
    compacted topic refuses unkeyed ones) at the newest version, no row of its own."""
    api = ApiKey.Produce
    focus = plain = False
    #: from v3 (record batches of magic 2, KIP-98) to the last version naming topics by name
    min_version, max_version = 3, schema_facts.by_id_from(ApiKey.Produce) - 1
    #: Copies among a log row's step options.
    weight = 2

    def draw(self, s, focused):
        return st.fixed_dictionaries({"api": st.just(self.name), "slot": s.slot(False),
                                      "partition": st.integers(0, 3), "count": st.integers(1, 5)})

    def support(self, row):
        return self.weight if row.watch_logs and self.api in row.ranges else 0

    def resolve(self, run, op):
        t = run.model.topics.get(run.model.name(op["slot"]))
        if t is None or not t.partitions:
            return None
        op["partition"] = op["partition"] % t.partitions
        return op

    def render(self, op, n):
        return f"{n(op['slot'])}-{op['partition']}: {op['count']} record{'s' if op['count'] != 1 else ''}"

    def perform(self, run, op, line):
        m = run.model
        name, p, count = m.name(op["slot"]), op["partition"], op["count"]
        v = run.row.ranges[self.api][1]
        line = f"Produce v{v} {line[len('Produce '):]}"
        builder = MemoryRecordsBuilder(magic=2, compression_type=0, batch_size=1 << 20)
        ts = int(time.time() * 1000)
        for i in range(count):     # keyed: a compacted topic refuses records without a key
            builder.append(ts, f"k{i}".encode(), f"s1-{i}".encode())
        builder.close()
        body = requests.produce(v, [(name, [(p, builder.buffer())])])
        expected = m.topics[name].end[p]

        at = ["responses", {"name": name}, "partition_responses", {"index": p}]

        def look():     # a partition not ready yet answers a transient error and appends nothing
            run.send(self.api, v, body, line)
            run.check.expect_field(at + ["error_code"], [Errors.NONE], count=1,
                                   says=f"a keyed Produce to {name}-{p} answers NONE")
        with run.judging(lambda: f"{line} -> refused"):
            run.check.poll(look, run.row.settle_seconds())
            run.check.expect_field(at + ["base_offset"], [expected], count=1,
                                   says=f"base_offset {expected}: the model's log end offset of {name}-{p}")
        base = expected
        m.produced(name, p, count)
        run.script.append(f"{line} -> NONE base_offset {base}")
