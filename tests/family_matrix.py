"""The runs the family can-fail tests share: a property module over the transparent proxy's
baseline and every mutant of the family, each broker a run of its own, two at a time, as
users run it (``python -m pytest conformance/test_X.py --broker proxy:M@SPEC --property P``);
a mutant's run asks only the properties it catches, which is all its tests read of it.

Each broker's run is its own results folder: a mutant's finding replays from its own run's
results.jsonl.
"""
from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from faults.mutation import run_bounded
from fixtures.results import read_rows
from tests.replaying import assert_quickest_finding_replays

ROOT = Path(__file__).resolve().parents[1]
#: brokers checked side by side, a run each: the runs wait on Kafka more than on the CPU (issue 29)
JOBS = int(os.environ.get("KAC_FAMILY_JOBS", "2"))


def family_run(tmp: Path, module: str, specs: list[str], *extra: str, timeout: float = 1800,
               props_of: dict[str, tuple[str, ...]] | None = None) -> dict[str, tuple[Path, dict]]:
    """Run ``module`` against every spec, each a run of its own (``JOBS`` at a time); for
    each: (its results.jsonl, its rows by cell ``(property, api_key, api_version)``, a list
    per cell). A spec named in ``props_of`` asks only those properties (``--property``): a
    mutant's run asks what it catches, which is all the family's tests read of it, instead
    of every property of the module (the groups' mutants name one or two of six; issue 29)."""
    props_of = props_of or {}

    def asks(spec: str) -> tuple[str, ...]:
        if spec not in props_of:
            return extra
        # a mutant's failures are not shrunk: its tests read that its cells fail, and replay
        # its quickest finding's example, not a smaller one (faults/mutation.py does the same)
        return (*extra, *(f"--property={p}" for p in props_of[spec]), "--shrink-seconds=0")

    with ThreadPoolExecutor(JOBS) as pool:
        outputs = list(pool.map(lambda i: _pytest(tmp / f"run-{i}", module, specs[i], asks(specs[i]), timeout),
                                range(len(specs))))
    out: dict[str, tuple[Path, dict]] = {}
    for folders, _ in outputs:
        for line in folders:
            results = Path(line) / "results.jsonl"
            for r in read_rows(results):
                cells = out.setdefault(r["broker"], (results, {}))[1]
                cells.setdefault((r["property"], r["api_key"], r["api_version"]), []).append(r)
    missing = [s for s in specs if s not in out]
    assert not missing, f"no rows for {missing}: " + "".join(o for _, o in outputs)[-2000:]
    return out


def _pytest(tmp: Path, module: str, spec: str, extra: tuple, timeout: float) -> tuple[list[str], str]:
    """One run of ``module`` against ``spec``: (its run folders, the tail of its output)."""
    tmp.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp / "last-run"))
    cmd = [sys.executable, "-m", "pytest", module, "-q", "-p", "no:cacheprovider", "--profile", "ci",
           "--seed", "1", "--results-dir", str(tmp / "results"), *extra, "--broker", spec]
    code, output = run_bounded(cmd, env, timeout)     # forked warm where it can be (faults/forkserver.py)
    assert code == 0, (f"timed out after {timeout:.0f} s: " if code is None else "") + output[-6000:]
    return (tmp / "last-run").read_text().split(), output[-2000:]


def rows_by_spec(run: dict[str, tuple[Path, dict]]) -> dict[str, dict]:
    """A :func:`family_run`'s rows by cell, by broker spec (its results files left out)."""
    return {spec: cells for spec, (_, cells) in run.items()}


def family_mutants(module: str) -> dict:
    """The mutants of ``faults.mutants.<module>``, by name."""
    from faults.mutants import all_mutants
    return {n: c for n, c in all_mutants().items() if c.__module__ == f"faults.mutants.{module}"}


class Family:
    """A family's can-fail matrix: the mutants of ``faults.mutants.<mutants>``, each over its
    broker (``proxy:NAME@OVER``), beside the baseline, the same broker behind the transparent
    proxy; :meth:`run` runs the property module ``module`` against all of them at once (with
    the pytest arguments ``extra``: ``--property E4``, a selection)."""

    def __init__(self, mutants: str, module: str, over: str, extra: tuple[str, ...] = (),
                 leave_out: str | None = None):
        self.name, self.over = mutants, over
        self.mutants, self.module, self.extra = family_mutants(mutants), module, extra
        self.baseline = f"proxy:none@{over}"
        #: rows of checks whose name starts so are not the family's to judge (a known
        #: deviation's dedicated check: its rows fail on Kafka by design)
        self.leave_out = leave_out

    def spec_of(self, name: str) -> str:
        return f"proxy:{name}@{self.mutants[name].over}"

    def run(self, tmp: Path) -> dict[str, tuple[Path, dict]]:
        out = family_run(tmp, self.module, [self.baseline, *(self.spec_of(n) for n in self.mutants)], *self.extra,
                         props_of={self.spec_of(n): tuple(c.catches) for n, c in self.mutants.items()})
        if self.leave_out is None:
            return out
        return {spec: (results, {cell: kept for cell, rs in cells.items()
                                 if (kept := [r for r in rs if not r["check"].startswith(self.leave_out)])})
                for spec, (results, cells) in out.items()}

    def tests(self, props: tuple[str, ...]) -> dict:
        """A can-fail module's fixtures and tests for this family's properties ``props``; the
        module takes them with ``globals().update(FAMILY.tests(PROPS))`` (pytest collects
        what a module holds). ``MUTANTS`` among them: test_proxy leaves these mutants to it."""
        family = self

        @pytest.fixture(scope="module")
        def run(tmp_path_factory):
            """Each broker's (results.jsonl, rows by cell), from its run."""
            return family.run(tmp_path_factory.mktemp(f"{family.name}-can-fail"))

        @pytest.fixture(scope="module")
        def rows(run):
            return rows_by_spec(run)

        def test_there_is_a_mutant_for_every_property_of_the_family_and_each_runs_over_its_broker():
            assert_a_mutant_for_every_property(family.mutants, props, over=family.over)

        def test_the_broker_passes_every_property_of_the_family_through_the_transparent_proxy(rows):
            assert_the_baseline_passes(rows[family.baseline], props)

        @pytest.mark.parametrize("name", sorted(family.mutants))
        def test_the_mutant_fails_every_version_of_its_properties(rows, name):
            assert_the_mutant_fails_every_version(name, family.mutants[name], rows[family.spec_of(name)],
                                                  rows[family.baseline], family.baseline)

        @pytest.mark.parametrize("name", sorted(family.mutants))
        def test_the_mutants_first_finding_gives_its_verdict_through_its_repro(run, name):
            """The mutant's quickest failing row, exported as a standalone repro.py, gives the
            same verdict against a fresh broker under the mutant (issue 25, item 1)."""
            results, cells = run[family.spec_of(name)]
            assert_quickest_finding_replays(name, family.spec_of(name), cells, results)

        tests = (test_there_is_a_mutant_for_every_property_of_the_family_and_each_runs_over_its_broker,
                 test_the_broker_passes_every_property_of_the_family_through_the_transparent_proxy,
                 test_the_mutant_fails_every_version_of_its_properties,
                 test_the_mutants_first_finding_gives_its_verdict_through_its_repro)
        return {"MUTANTS": family.mutants, "run": run, "rows": rows, **{t.__name__: t for t in tests}}


# -- the checks every family's can-fail test makes of its matrix's rows ---------------------------


def assert_a_mutant_for_every_property(mutants: dict, props, over: str | None = None) -> None:
    """Each property of the family names at least one mutant that catches it; with ``over``,
    every mutant runs over that broker spec."""
    caught = {p for c in mutants.values() for p in c.catches}
    assert caught >= set(props), f"no mutant for {set(props) - caught}"
    if over is not None:
        assert {c.over for c in mutants.values()} == {over}


def assert_the_baseline_passes(base: dict, props, allowed=("pass", "unsupported")) -> None:
    """The transparent proxy's rows: every property of the family has a judged cell (one that
    is not only unsupported), and each judged cell's rows are ``allowed`` outcomes."""
    judged = {cell for cell, rs in base.items() if any(r["outcome"] != "unsupported" for r in rs)}
    assert {cell[0] for cell in judged} == set(props), sorted(judged)
    for cell in judged:
        assert all(r["outcome"] in allowed for r in base[cell]), base[cell]


def assert_the_mutant_fails_every_version(name: str, cls, mutated: dict, base: dict, baseline: str) -> None:
    """Every cell of each property the mutant ``catches`` that passes over ``baseline`` has a
    fail row under the mutant, each with its counterexample."""
    for prop in cls.catches:
        cells = sorted(c for c in base if c[0] == prop and any(r["outcome"] == "pass" for r in base[c]))
        assert cells, f"{name}: no {prop} row passes over {baseline}"
        for cell in cells:
            failing = [r for r in mutated[cell] if r["outcome"] == "fail"]
            assert failing, f"{name} ({cls.describe()}) survived {cell}: " + "; ".join(
                f"{r['outcome']} {r['message']}" for r in mutated[cell])
            assert all(r["counterexample"] is not None for r in failing), failing
