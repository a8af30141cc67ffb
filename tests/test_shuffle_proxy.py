"""Every answer Kafka allows passes: the shuffle proxy changes no outcome (issue 55, item 5).

``proxy:shuffle@SPEC`` (``faults/mutants/shuffle.py``) reorders every array of every answer
whose order Kafka does not define (``protocol/array_order.py``) and changes nothing else, so
a broker behind it answers only what Kafka allows that broker to answer. Every property, run
as users run it (profile ci, failures not shrunk: outcomes are compared), must then give
every cell the outcome it gives through the transparent proxy (``proxy:none@SPEC``): a cell
that differs is a property depending on an order Kafka does not promise.

Against tansu and noida, in one run of the suite; kafka:4.4.0 is measured by hand (its run
through both proxies takes longer than CI affords: docs/reference-semantics.md, "Orders and
choices Kafka does not define").
A direct check first shows the shim reorders a real answer and keeps every entry.
"""
from __future__ import annotations

import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from faults.mutants import all_mutants
from faults.mutation import test_key as cell_key
from faults.proxy import Proxy
from fixtures import judge
from fixtures.results import read_rows
from protocol import array_order, requests, wire
from protocol.apis import ApiKey

ROOT = Path(__file__).resolve().parents[1]
BROKERS = ("tansu", "noida")


def test_the_shim_reorders_a_real_answer_and_keeps_every_entry(noida):
    """DescribeConfigs of a topic through the shim: the same configs, by name and value, in
    another order (noida lists them in one order every time)."""
    shim = all_mutants(shims=True)["shuffle"](arg="3")
    proxy = Proxy(noida.host, noida.port, shim)
    direct = wire.Connection(noida.host, noida.port)
    conn = wire.Connection(*proxy.start())
    try:
        name = "kac-shuffle-configs"
        direct.send(ApiKey.CreateTopics, 4, requests.create_topics(4, [requests.topic(name)]))
        body = requests.describe_configs(4, [(name, None)])
        plain = direct.send(ApiKey.DescribeConfigs, 4, body).response
        orders = [[c["name"] for c in conn.send(ApiKey.DescribeConfigs, 4, body).response["results"][0]["configs"]]
                  for _ in range(3)]
        listed = [c["name"] for c in plain["results"][0]["configs"]]
        assert len(listed) > 3 and all(sorted(o) == sorted(listed) for o in orders)
        assert all(o != listed for o in orders), "the shim left an answer in the broker's order"
        shuffled = conn.send(ApiKey.DescribeConfigs, 4, body).response
        arrays = array_order.judge_arrays(ApiKey.DescribeConfigs)
        assert judge.canon(shuffled, "", arrays) == judge.canon(plain, "", arrays)
        assert not proxy.errors, proxy.errors
    finally:
        conn.close()
        direct.close()
        proxy.stop()


def test_every_cell_through_the_shuffle_proxy_has_its_outcome_through_the_transparent_one(tmp_path):
    """Every property over tansu and noida, each behind both proxies in one run (profile ci,
    ``--shrink-seconds 0``): per cell (test, parameters, check), the same outcome; and the
    shim never failed to reorder an answer (a hook that raises changes nothing, which would
    prove nothing)."""
    errors = tmp_path / "proxy-errors"
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last"), KAC_PROXY_ERRORS=str(errors))
    specs = [f"proxy:{m}@{b}" for b in BROKERS for m in ("none", "shuffle")]
    cmd = [sys.executable, "-m", "pytest", "conformance", "-q", "-p", "no:cacheprovider", "--results-dir",
           str(tmp_path / "results"), "--profile", "ci", "--seed", "11", "--shrink-seconds", "0", "--jobs", "2"]
    proc = subprocess.run(cmd + [a for s in specs for a in ("--broker", s)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=2400)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    cells: dict = defaultdict(dict)
    for folder in (tmp_path / "last").read_text().split():
        for r in read_rows(Path(folder) / "results.jsonl"):
            cells[cell_key(r) + (r.get("check"),)][r["broker"]] = (r["outcome"], r.get("message"))
    for b in BROKERS:
        none, shuffle = f"proxy:none@{b}", f"proxy:shuffle@{b}"
        both = {k: o for k, o in cells.items() if none in o and shuffle in o}
        assert len(both) > 1000, (b, len(both))
        assert all(none in o and shuffle in o for o in cells.values() if none in o or shuffle in o), b
        differ = {k: (o[none], o[shuffle]) for k, o in both.items() if o[none][0] != o[shuffle][0]}
        assert not differ, f"{b}: {len(differ)} cell(s) differ through the shuffle proxy: " + "; ".join(
            f"{k[1:]}: {a[0]} -> {s[0]} ({s[1] or a[1]})"[:600] for k, (a, s) in sorted(differ.items(), key=str)[:5])
    assert not errors.exists() or not errors.read_text().strip(), errors.read_text()[:2000]
