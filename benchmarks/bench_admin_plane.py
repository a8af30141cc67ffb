"""S2's throughput: steps per second of the admin-plane state machine, beside a plain loop of
the very requests it sent, on the same broker in the same run (not a test).

    python benchmarks/bench_admin_plane.py [--broker tansu] [--broker kafka:4.4.0,preset=acl]
                                           [--seed 3] [--profile ci] [--out FILE]

1. The suite: ``pytest conformance/test_admin_plane.py`` (S2's one row) in this process,
   ``--single-broker``, seeded; every request any connection of the run sends is recorded
   (API, version, body, principal) as it goes. The row's ``duration_s`` and its coverage's
   ``steps`` (the manifest's ``coverage_by_check``) give ``s2_steps_per_s``; the requests
   recorded give the suite's request rate (its invariants' describes, clean-ups and set-up
   included).
2. The limit: right after the row, while its broker still runs, one connection (with the
   same SASL principal on ``preset=acl``) sends the recorded requests again, in order, each
   encoded before the clock starts, reading each answer's bytes without decoding them. The
   broker's state differs (the names exist or not), the work per request is alike.

The figure is ``s2_vs_plain_loop`` per broker: the suite's request rate / the plain loop's
(1.0 = no overhead), with ``s2_steps_per_s`` beside it.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import pytest  # noqa: E402

from protocol import codec, wire  # noqa: E402

TEST = "conformance/test_admin_plane.py"


class Recorder:
    """A pytest plugin: records every request sent (wire.Connection.send), and after S2's row
    replays them as a plain loop against the broker the row ran on."""

    def __init__(self):
        self.sent: list[tuple[tuple[str, int], str | None, int, int, dict]] = []
        self.loop: dict | None = None
        self._send = wire.Connection.send

    def pytest_configure(self, config):
        rec, send = self, self._send

        def recording(conn, api_key, version, body):
            rec.sent.append(((conn.host, conn.port), conn.principal, api_key, version, body))
            return send(conn, api_key, version, body)
        wire.Connection.send = recording

    def pytest_unconfigure(self, config):
        wire.Connection.send = self._send

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item):
        try:
            return (yield)
        finally:                # passing or failing, its broker still runs
            if self.loop is None and self.sent:
                try:
                    self.loop = plain_loop(self.sent)
                except Exception as exc:    # never the row's outcome: the figure says it is missing
                    self.loop = {"error": f"{type(exc).__name__}: {exc}"}


def plain_loop(sent) -> dict:
    """The recorded requests, pre-encoded, sent in order on one connection per node and
    principal; each answer read (size prefix and bytes) and not decoded."""
    conns: dict = {}
    frames = []
    for i, (node, principal, api_key, version, body) in enumerate(sent):
        try:
            frame = codec.encode_request(api_key, version, body, i + 1, wire.CLIENT_ID)
        except Exception:       # a body the suite sent on purpose malformed: skip it
            continue
        key = (node, principal)
        if key not in conns:
            conns[key] = wire.Connection(*node, timeout=30, principal=principal).connect()
        frames.append((conns[key], frame))
    closed = 0
    t0 = time.perf_counter()
    for conn, frame in frames:
        try:
            sock = conn.connect()._sock
            sock.sendall(frame)
            head = _read(sock, 4)
            _read(sock, int.from_bytes(head, "big"))
        except OSError:         # the broker closed on this request (as it did for the suite): reconnect
            closed += 1
            conn.close()
    seconds = time.perf_counter() - t0
    for c in conns.values():
        c.close()
    return {"requests": len(frames), "closed": closed, "seconds": round(seconds, 3),
            "per_s": round(len(frames) / seconds, 1)}


def _read(sock, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("the broker closed the connection")  # an OSError
        buf += chunk
    return buf


def measure(spec: str, seed: str, profile: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        rec = Recorder()
        os.environ["KAC_LAST_RUN_FILE"] = os.path.join(tmp, "last-run")
        code = pytest.main([os.path.join(ROOT, TEST), "-q", "-p", "no:cacheprovider", "--broker", spec,
                            "--single-broker", "--profile", profile, "--seed", seed, "--results-dir", tmp],
                           plugins=[rec])
        run = open(os.path.join(tmp, "last-run")).read().strip()
        rows = [json.loads(line) for line in open(os.path.join(run, "results.jsonl"))]
        manifest = json.load(open(os.path.join(run, "manifest.json")))
    [row] = [r for r in rows if r["property"] == "S2"]
    coverage = next(iter((manifest.get("coverage_by_check") or {}).values()), {})
    steps, seconds = coverage.get("steps", 0), row["duration_s"]
    suite_rate = len(rec.sent) / seconds if seconds else 0.0
    loop = rec.loop or {}
    return {"broker": spec, "pytest_exit": int(code), "outcome": row["outcome"], "steps": steps,
            "seconds": seconds, "s2_steps_per_s": round(steps / seconds, 2) if seconds else None,
            "requests": len(rec.sent), "suite_requests_per_s": round(suite_rate, 1), "plain_loop": loop,
            "s2_vs_plain_loop": round(suite_rate / loop["per_s"], 3) if loop.get("per_s") else None}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--broker", action="append", help="repeatable; default tansu and kafka:4.4.0,preset=acl")
    p.add_argument("--seed", default="3")
    p.add_argument("--profile", default="ci")
    p.add_argument("--out", metavar="FILE", help="merge the figures into this JSON file")
    a = p.parse_args(argv)
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    figures = {"s2_steps_per_s": {}, "s2_vs_plain_loop": {}, "s2_details": []}
    for spec in a.broker or ["tansu", "kafka:4.4.0,preset=acl"]:
        f = measure(spec, a.seed, a.profile)
        figures["s2_details"].append(f)
        figures["s2_steps_per_s"][spec] = f["s2_steps_per_s"]
        figures["s2_vs_plain_loop"][spec] = f["s2_vs_plain_loop"]
        print(f"{spec}: S2 {f['outcome']}, {f['steps']} steps in {f['seconds']} s = {f['s2_steps_per_s']} steps/s; "
              f"{f['requests']} requests = {f['suite_requests_per_s']}/s; plain loop of the same "
              f"{f['plain_loop'].get('requests')} requests {f['plain_loop'].get('per_s')}/s; "
              f"ratio {f['s2_vs_plain_loop']}", flush=True)
    if a.out:
        data = {}
        if os.path.exists(a.out):
            with open(a.out, encoding="utf-8") as fh:
                data = json.load(fh)
        data.update(figures)
        with open(a.out, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
