"""A broker that stopped advertising an API: ``proxy:unadvertise=API@SPEC`` (issue 55).

A client learns what a broker serves from its ApiVersions answer (KIP-35, "Retrieving
protocol version"; Kafka: ``apache/kafka clients/src/main/java/org/apache/kafka/clients/NodeApiVersions.java``),
and so does the suite: a check of an API the broker does not advertise is ``unsupported``,
citing the advertised versions (fixtures/check/asking.py, fixtures/admin.py). That verdict is
right, so no property catches this mutant: it is not a property's fault. What must catch
it is the release gate: a cell that passed in the baseline and is now unsupported lost its
verdict, and ``reports/gate.py`` fails on it unless told ``--allow-new-unsupported``
(tests/reports/test_gate_mutant.py runs it). It is a probe (``Mutant.probe``): usable in
broker specs, left out of the mutation score and of ``all_mutants()``.
"""
from __future__ import annotations

from protocol.apis import ApiKey
from protocol.wire import INT16_MAX
from .mutant import Mutant, mutant


def parse_api(arg: str | None) -> int:
    """``=API``: an API key, by number (``60``) or by Kafka's name (``DescribeCluster``);
    ValueError with a one-line reason otherwise."""
    if not arg:
        raise ValueError("write proxy:unadvertise=API@SPEC, API a key (60) or a name (DescribeCluster)")
    try:
        key = int(arg) if arg.isdigit() else int(ApiKey[arg])
    except KeyError:
        raise ValueError(f"unadvertise={arg}: no API is named {arg!r} (Kafka's names, e.g. DescribeCluster)") \
            from None
    if not 0 <= key <= INT16_MAX:
        raise ValueError(f"unadvertise={arg}: an API key is an int16 (0..{INT16_MAX})")
    if key == ApiKey.ApiVersions:
        raise ValueError("unadvertise=ApiVersions: a broker answers ApiVersions to tell what it serves")
    return key


@mutant
class Unadvertised(Mutant):
    """Every ApiVersions answer leaves one API out (``=API``); the broker still serves it if asked."""
    name = "unadvertise"
    catches = ("-",)        # no property's: the gate catches it
    probe = True
    apis = (ApiKey.ApiVersions,)

    parse_arg = staticmethod(parse_api)       # self.parsed: the API key left out

    def response(self, seen, body):
        listed = body.get("api_keys") or []
        if not any(a["api_key"] == self.parsed for a in listed):
            return None
        return {**body, "api_keys": [a for a in listed if a["api_key"] != self.parsed]}
