"""The linearizability checker's cost (issue 58, "done when": histories of 100, 1,000 and
10,000 operations, time and memory, and where the bound gives ``unknown``).

    python benchmarks/bench_checker.py [--bound 10] [--sizes 100 1000 10000] [--out FILE]

``checker_s``: per history (``N ops, C clients, model``), the seconds
``fixtures.history.check`` takes on a history linearizable by construction
(``fixtures.history.generate``: 4 keys, 2-6 clients, calls and returns spread over two
instants around each operation's, 5% of the writes indeterminate), and
``checker_peak_mib`` the peak of Python's allocations during it (tracemalloc, in a second run:
tracing slows the check several times). With the
same bound, ``checker_unknown`` gives, per number of concurrent operations on one key (all
writes overlapping, then a read of a value none wrote: illegal, but only after the search
has tried every set of the writes), the verdict and the seconds taken: where the bound
turns the answer to ``unknown``. Every history is checked once, one after another, in
this process.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import tracemalloc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from fixtures.history import MODELS, REGISTER, Operation, check  # noqa: E402
from fixtures.history import generate  # noqa: E402

CLIENTS = (2, 4, 6)
KEY = ("config", "t", "k")


def measure_sizes(sizes, bound: float) -> tuple[dict, dict]:
    seconds, peaks = {}, {}
    for n in sizes:
        for clients in CLIENTS:
            for model in sorted(MODELS):
                h = generate.linearizable(random.Random(n * 10 + clients), n, n_keys=4, n_clients=clients,
                                          model=model, overlap=2.0, indeterminate=0.05)
                t0 = time.monotonic()
                result = check(MODELS[model], h, timeout_s=bound)
                took = time.monotonic() - t0
                tracemalloc.start()                       # a second run: tracing slows it several times
                check(MODELS[model], h, timeout_s=bound * 10)
                peak = tracemalloc.get_traced_memory()[1] / 2**20
                tracemalloc.stop()
                name = f"{n} ops, {clients} clients, {model}"
                print(f"{name:<34} {result.verdict:<8} {took:8.3f} s  peak {peak:7.1f} MiB")
                seconds[name] = round(took, 3) if result.verdict == "ok" else result.verdict
                peaks[name] = round(peak, 1)
    return seconds, peaks


def _concurrent(n: int) -> list[Operation]:
    return [Operation(i % 6, KEY, {"op": "write", "value": i}, None, 0, 100) for i in range(n)] + \
        [Operation(0, KEY, {"op": "read"}, -1, 200, 201)]


def measure_unknown(bound: float, widths) -> dict:
    out = {}
    for n in widths:
        t0 = time.monotonic()
        result = check(REGISTER, _concurrent(n), timeout_s=bound, shrink_s=0)
        took = time.monotonic() - t0
        print(f"{n:>3} concurrent writes on one key, then a read of no write's value: {result.verdict:<8} {took:8.3f} s")
        out[f"{n} concurrent"] = {"verdict": result.verdict, "s": round(took, 3)}
        if result.verdict == "unknown":
            break
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bound", type=float, default=10.0, help="check's time bound, seconds")
    p.add_argument("--sizes", type=int, nargs="+", default=[100, 1_000, 10_000])
    p.add_argument("--widths", type=int, nargs="+", default=[8, 12, 14, 16, 18, 20, 22, 24])
    p.add_argument("--out", metavar="FILE", help="merge the figures into this JSON file")
    a = p.parse_args(argv)
    print(f"load average at start: {os.getloadavg()[0]:.1f}; bound {a.bound:g} s")
    seconds, peaks = measure_sizes(a.sizes, a.bound)
    unknown = measure_unknown(a.bound, a.widths)
    if a.out:
        data = {}
        if os.path.exists(a.out):
            with open(a.out, encoding="utf-8") as fh:
                data = json.load(fh)
        data.update(checker_s=seconds, checker_peak_mib=peaks, checker_unknown=unknown)
        with open(a.out, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2)
    return 0 if all(isinstance(v, float) for v in seconds.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
