"""The suite's linearizability checker (fixtures/history/linearizable.py) and porcupine
(github.com/anishathalye/porcupine v1.3.1, tools/porcupine-check/) give the same verdict on
the same histories: a few hundred small random ones, half linearizable by construction (a
sequential run laid out with jittered, overlapping times, some writes indeterminate), half
with one read's output changed. The Go program is built here, from the module proxy; Go is
preinstalled at /usr/local/go/bin on the project's machine, and .ci/setup installs Debian's
golang-go where there is none. No skip: without Go this fails."""
from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fixtures.history import ILLEGAL, MODELS, OK, check
from fixtures.history import generate

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "porcupine-check"
EXAMPLES = 300


def _go() -> str:
    go = shutil.which("go") or next((p for p in ("/usr/local/go/bin/go", "/usr/lib/go/bin/go") if os.access(p, os.X_OK)),
                                    None)
    assert go, "no Go toolchain: .ci/setup installs golang-go (or put /usr/local/go/bin on PATH)"
    return go


@pytest.fixture(scope="module")
def porcupine(tmp_path_factory):
    """The built porcupine-check binary (built in a scratch copy of tools/porcupine-check)."""
    work = tmp_path_factory.mktemp("porcupine-check")
    for name in ("go.mod", "go.sum", "main.go"):
        shutil.copy(TOOL / name, work / name)
    env = dict(os.environ, GOFLAGS="-mod=mod -buildvcs=false")
    if "HOME" not in env and "GOCACHE" not in env:
        env["GOCACHE"] = str(work / ".gocache")
        env["GOPATH"] = str(work / ".gopath")
    proc = subprocess.run([_go(), "build", "-o", str(work / "porcupine-check"), "."], cwd=work, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return str(work / "porcupine-check")


def _theirs(binary: str, histories: list[tuple[str, list]]) -> list[str]:
    payload = json.dumps([{"model": m, "operations": [op.to_json() for op in h]} for m, h in histories])
    proc = subprocess.run([binary, "-timeout", "20s"], input=payload, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


@st.composite
def histories(draw):
    model = draw(st.sampled_from(sorted(MODELS)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    h = generate.linearizable(rng, draw(st.integers(1, 14)), n_keys=draw(st.integers(1, 2)),
                              n_clients=draw(st.integers(1, 5)), model=model,
                              overlap=draw(st.sampled_from([0.5, 1.0, 2.0, 4.0])), values=3,
                              indeterminate=draw(st.sampled_from([0.0, 0.2, 0.5])))
    reads = [i for i, op in enumerate(h) if op.input["op"] == "read"]
    corrupt = bool(reads) and draw(st.booleans())
    if corrupt:
        i = draw(st.sampled_from(reads))
        if model == "register":
            new = draw(st.sampled_from([None, 0, 1, 2]).filter(lambda v: v != h[i].output))
        else:
            new = [{"principal": f"User:u{k}"} for k in sorted(draw(st.sets(st.integers(0, 2), max_size=3)))]
        h[i] = dataclasses.replace(h[i], output=new)
    return model, h, corrupt


def test_the_two_checkers_agree_on_every_history(porcupine):
    drawn: list[tuple[str, list]] = []

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(histories())
    def collect(example):
        model, h, _ = example
        drawn.append((model, h))

    collect()
    ours = [check(MODELS[m], h, timeout_s=20, shrink_s=0).verdict for m, h in drawn]
    theirs = _theirs(porcupine, drawn)
    assert len(theirs) == len(drawn)
    differ = [(i, a, b) for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
    assert not differ, "\n".join(f"history {i}: ours {a}, porcupine {b}\n{json.dumps([op.to_json() for op in drawn[i][1]])}"
                                 for i, a, b in differ[:3])
    assert set(ours) == {OK, ILLEGAL}, "the histories drawn must include both verdicts"
    print(f"{len(drawn)} histories: {ours.count(OK)} ok, {ours.count(ILLEGAL)} illegal, the same by porcupine")


def test_the_cross_check_can_fail(porcupine):
    """A history porcupine finds illegal and a checker that passed everything would not."""
    from fixtures.history import Operation
    k = ("config", "t", "k")
    stale = [Operation(0, k, {"op": "write", "value": 1}, None, 0, 10),
             Operation(1, k, {"op": "read"}, None, 11, 12)]
    assert _theirs(porcupine, [("register", stale)]) == [ILLEGAL]
    assert check(MODELS["register"], stale).verdict == ILLEGAL
