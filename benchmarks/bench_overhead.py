"""Overhead against the wire: the suite's request rate per admin API against a plain loop's,
on the same broker, in the same run (not a test).

    python benchmarks/bench_overhead.py [--broker tansu] [--examples 200] [--seed S]
                                        [--profile-out FILE] [--out FILE]

1. The suite: ``pytest conformance`` runs P2 (``test_p2_responses_are_well_formed``: draw a
   request with hypothesis, encode it, send it, decode the answer, check it is well-formed)
   at the broker's advertised max version of every admin API, ``--examples`` examples each
   (the ``release`` profile's 200 by default), with ``benchmarks/timing.py`` measuring each
   check's wall time and the seconds its exchanges spent on the wire.
2. The limit: right after, on the same broker (still running, same session), a plain loop
   per API sends ``--examples`` requests drawn from the same strategy and encoded before the
   clock starts, one after the other on one connection, and reads each answer (size
   prefix + bytes, not decoded).

The figure is ``overhead_ratio``: API -> suite rate / plain-loop rate (requests per
second; 1.0 = no overhead). Both run on the same broker seconds apart, so the machine's
load moves both. ``--profile-out FILE`` also profiles the suite's part with pyinstrument
and writes the call tree as text.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import struct
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import pytest  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402

from protocol import ApiKey, api_name, codec, requests, wire  # noqa: E402,F401

P2 = "conformance/test_protocol.py::test_p2_responses_are_well_formed"


def advertised(spec: str) -> dict[int, tuple[int, int]]:
    """The target's advertised version ranges (a throwaway start of the same target)."""
    from fixtures.brokers import make_target
    target = make_target(spec)
    info = target.start()
    try:
        return wire.probe(info.host, info.port) or {}
    finally:
        target.stop()


def draw(strategy, n: int, seed: int) -> list:
    """``n`` values of ``strategy`` (hypothesis' generate phase only, as the suite draws)."""
    out = []

    @settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(value):
        out.append(value)

    from hypothesis import seed as hseed
    hseed(seed)(collect)()
    return out


def plain_loop(host: str, port: int, frames: list[bytes]) -> tuple[float, int]:
    """Seconds to send each pre-encoded frame and read its whole answer, one at a time, and
    how many of them the broker answered by closing the connection (the loop reconnects,
    as the suite's client does; the reconnect is part of the limit)."""
    sock, closed = None, 0

    def recv_exact(n):
        buf = bytearray()
        while len(buf) < n:
            chunk = sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("closed")
            buf += chunk
        return buf

    t = time.monotonic()
    for frame in frames:
        if sock is None:
            sock = socket.create_connection((host, port), timeout=30)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            sock.sendall(frame)
            recv_exact(struct.unpack(">i", recv_exact(4))[0])
        except OSError:
            closed += 1
            sock.close()
            sock = None
    seconds = time.monotonic() - t
    if sock is not None:
        sock.close()
    return seconds, closed


#: where a sample's own time is charged: (label, test on the frame's file path / function)
PLACES = (
    ("waiting on the broker (socket send/recv)", lambda path, fn: path.startswith("<built-in>")
        and any(w in fn for w in ("sendall", "recv", "create_connection", "connect"))),
    ("hypothesis (drawing, shrinking, its engine)", lambda path, fn: "/hypothesis/" in path),
    ("codec (kafka-python schemas: encode/decode)", lambda path, fn: "/kafka/" in path or "/protocol/codec" in path),
    ("suite: protocol/ wire client", lambda path, fn: "/protocol/" in path),
    ("suite: strategies/", lambda path, fn: "/strategies/" in path),
    ("suite: fixtures/ (harness, results, traffic screens)", lambda path, fn: "/fixtures/" in path),
    ("suite: conformance/ (the checks)", lambda path, fn: "/conformance/" in path),
    ("pytest, pluggy", lambda path, fn: "/_pytest/" in path or "/pluggy/" in path),
)


def where_time_goes(root) -> dict[str, float]:
    """Seconds of own time per place (``PLACES``; the rest is "other"). Pyinstrument keeps a
    function's own time in a synthetic ``[self]`` child: it is charged to that function."""
    out: dict[str, float] = {}
    stack = [(root, "", "")]
    while stack:
        frame, ppath, pfn = stack.pop()
        path, fn = frame.file_path or "", frame.function or ""
        if frame.is_synthetic or not path:
            path, fn = ppath, pfn
        stack.extend((child, path, fn) for child in frame.children)
        own = frame.total_self_time
        if not own:
            continue
        label = next((lbl for lbl, test in PLACES if test(path, fn)), "other (interpreter, builtins, stdlib)")
        out[label] = out.get(label, 0.0) + own
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


class Overhead:
    """Keeps the suite's P2 checks at each API's advertised max version, then runs the
    plain loops against the run's broker before the suite stops it."""

    def __init__(self, spec: str, maxima: dict[int, int], examples: int, seed: int, profile_out: str | None):
        self.spec, self.maxima, self.examples, self.seed = spec, maxima, examples, seed
        self.profile_out = profile_out
        self.plain: dict[int, dict] = {}
        self.where: dict[str, float] = {}

    def pytest_collection_modifyitems(self, config, items):
        keep = [i for i in items
                if getattr(i, "callspec", None)
                and self.maxima.get(int(i.callspec.params["api_key"])) == i.callspec.params["version"]]
        config.hook.pytest_deselected(items=[i for i in items if i not in keep])
        items[:] = keep

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session):
        profiler = None
        if self.profile_out:
            from pyinstrument import Profiler
            profiler = Profiler(interval=0.001)
            profiler.start()
        try:
            return (yield)
        finally:
            if profiler is not None:
                profiler.stop()
                self.where = where_time_goes(profiler.last_session.root_frame())
                with open(self.profile_out, "w") as f:
                    f.write(profiler.output_text(unicode=True, color=False, show_all=False))
            from fixtures.plugin import run_of
            run = run_of(session.config)
            info = run.pool.infos.get(self.spec) if run else None
            if info is not None:
                self._plain_loops(info.host, info.port, f"{run.prefix}plain-")

    def _plain_loops(self, host: str, port: int, prefix: str) -> None:
        from strategies import provoke as provoking
        existing = f"{prefix}existing.x"
        with wire.Connection(host, port) as conn:
            v = self.maxima.get(ApiKey.CreateTopics)
            if v is not None:
                conn.send(ApiKey.CreateTopics, v,
                          requests.create_topics(v, [requests.topic(existing, partitions=2)]))
        for api, v in sorted(self.maxima.items()):
            bodies = draw(provoking.requests(api, v, prefix, [] if api == ApiKey.ApiVersions else [existing]),
                          self.examples, self.seed)
            frames = []
            for cid, body in enumerate(bodies, 1):
                try:
                    frames.append(codec.encode_request(api, v, body, cid))
                except codec.CodecError:
                    pass
            seconds, closed = plain_loop(host, port, frames)
            self.plain[api] = {"requests": len(frames), "seconds": seconds, "closed": closed}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--broker", default="tansu")
    p.add_argument("--examples", type=int, default=200)
    p.add_argument("--seed", type=int, default=20261124)
    p.add_argument("--profile-out", metavar="FILE", help="write pyinstrument's call tree of the suite's part")
    p.add_argument("--out", metavar="FILE", help="merge overhead_ratio into this JSON file")
    a = p.parse_args(argv)

    from conformance.parametrize import ADMIN_KEYS
    ranges = advertised(a.broker)
    maxima = {int(k): ranges[k][1] for k in ADMIN_KEYS if k in ranges}
    timing = tempfile.NamedTemporaryFile(prefix="bench-timing-", suffix=".json", delete=False).name
    results = tempfile.mkdtemp(prefix="bench-overhead-results-")
    os.environ["KAC_BENCH_TIMING"] = timing
    plugin = Overhead(a.broker, maxima, a.examples, a.seed, a.profile_out)
    os.chdir(ROOT)
    code = pytest.main([P2, "-p", "no:cacheprovider", "-q", "-p", "benchmarks.timing",
                        "--broker", a.broker, "--seed", str(a.seed), "--results-dir", results,
                        "--profile", "release", "-o", "addopts="] + [], plugins=[plugin])
    if code not in (0, 1):
        print(f"bench_overhead: the suite's run ended with pytest exit code {code}", file=sys.stderr)
        return 2
    with open(timing) as f:
        checks = json.load(f)["checks"]
    os.unlink(timing)
    ratios, lines = {}, []
    print(f"\n{'API':<26}{'v':>3}{'suite req/s':>13}{'plain req/s':>13}{'ratio':>8}"
          f"{'wire share':>12}  outcome")
    for c in checks:
        api = c["api"]
        plain = plugin.plain.get(api)
        if not plain or not c["wall_s"] or not c["examples"]:
            continue
        suite_rate = c["examples"] / c["wall_s"]      # one request of the API per example
        plain_rate = plain["requests"] / plain["seconds"]
        ratio = suite_rate / plain_rate
        ratios[api_name(api)] = round(ratio, 3)
        lines.append({"api": api_name(api), "version": c["version"], "suite_req_per_s": round(suite_rate, 1),
                      "plain_req_per_s": round(plain_rate, 1), "examples": c["examples"],
                      "exchanges": c["exchanges"], "wall_s": c["wall_s"], "wire_s": c["wire_s"]})
        note = c["outcome"]
        if c["examples"] < plugin.examples:
            note += (f" after {c['examples']} examples" + (" (shrinking included)" if c["outcome"] != "passed"
                                                            else " (hypothesis ran out of distinct requests)"))
        lines[-1]["note"] = note
        print(f"{api_name(api):<26}{c['version']:>3}{suite_rate:>13,.0f}{plain_rate:>13,.0f}{ratio:>8.2f}"
              f"{c['wire_s'] / c['wall_s']:>11.0%}  {note}")
    if plugin.where:
        total = sum(plugin.where.values())
        print(f"\nwhere the suite's time goes (pyinstrument, {total:.1f} s sampled, own time):")
        for label, secs in plugin.where.items():
            print(f"  {secs / total:>5.0%}  {secs:>7.2f} s  {label}")
    if a.out:
        data = json.load(open(a.out)) if os.path.exists(a.out) else {}
        data["overhead_ratio"] = ratios
        data["overhead_detail"] = lines
        if plugin.where:
            data["overhead_where_s"] = {k: round(v, 3) for k, v in plugin.where.items()}
        with open(a.out, "w") as f:
            json.dump(data, f, indent=2, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
