"""``python -m benchmarks`` ends with every figure issue 29 names beside its limit
(benchmarks/limits.py): the table says what was not measured, and each figure it names is
one a benchmark writes. benchmarks/README.md holds one current figure per key, each with its
date, commit and command; every key the README and the docs cite is one of its rows, and the
mutant counts the docs give are the code's (issue 55, item 7)."""
from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

from benchmarks import limits

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_every_figure_is_written_by_a_benchmark():
    sources = "".join(p.read_text() for p in (ROOT / "benchmarks").glob("bench_*.py"))
    for key, *_ in limits.FIGURES:
        assert f'"{key}"' in sources or f'"tests_{{tier}}_s"' in sources and key.startswith("tests_"), key


def test_the_table_names_each_entry_with_its_ratio_and_what_was_not_measured():
    out = limits.lines({"kafka_ci_run_s": {"kafka:4.4.0": 468.0, "kafka:3.9.2": 120.0},
                        "overhead_ratio": {"Metadata": 0.12},
                        "report_vs_full_parse": {"10000000": 1.2}})
    text = "\n".join(out)
    assert "kafka_ci_run_s[kafka:4.4.0]" in text and "ratio 2.60 of the limit, OVER" in text, text
    assert "kafka_ci_run_s[kafka:3.9.2]" in text and "ratio 0.67 of the limit, within" in text, text
    assert "overhead_ratio[Metadata]" in text and "UNDER" in text, text
    assert "report_vs_full_parse[10000000]" in text and "ratio 0.80 of the limit, within" in text, text
    for key in ("kafka_all_properties_s", "matrix_s", "tests_ci_s", "tests_fast_s"):
        assert any(line.startswith(key) and "not measured in this run" in line for line in out), (key, text)


def test_an_unknown_benchmark_is_a_one_line_error():
    proc = subprocess.run([sys.executable, "-m", "benchmarks", "--only", "speed"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "unknown benchmark speed" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_the_tests_cpu_is_summed_per_module_from_the_conftest_lines(tmp_path, monkeypatch):
    """tests/conftest.py writes a line per test when KAC_TEST_CPU_FILE is set; bench_tests
    --cpu sums them per module (here from a real pytest run of two tiny tests)."""
    from benchmarks.bench_tests import cpu_by_module
    (tmp_path / "test_two.py").write_text("import time\n\ndef test_a():\n    t = time.process_time()\n"
                                          "    while time.process_time() - t < 0.3:\n        pass\n\n"
                                          "def test_b():\n    pass\n")
    (tmp_path / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text())
    out = tmp_path / "cpu.jsonl"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "test_two.py")],
                   cwd=tmp_path, env={**os.environ, "KAC_TEST_CPU_FILE": str(out)}, check=True,
                   capture_output=True)
    (module, seconds), = cpu_by_module(str(out))
    assert module.endswith("test_two.py") and seconds >= 0.3, (module, seconds)


def test_the_longest_modules_are_collected_first_and_each_exists():
    """tests/conftest.py's LONGEST_FIRST names modules that exist, and the collection starts
    with them in that order (--dist loadfile hands them out first)."""
    from tests.conftest import LONGEST_FIRST
    assert all(next((ROOT / "tests").rglob(name), None) for name in LONGEST_FIRST), LONGEST_FIRST
    proc = subprocess.run([sys.executable, "-m", "pytest", "tests", "--collect-only", "-q", "-p", "no:cacheprovider"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    files = list(dict.fromkeys(line.split("::")[0].rsplit("/", 1)[-1] for line in proc.stdout.splitlines()
                               if "::" in line))
    assert files[:len(LONGEST_FIRST)] == list(LONGEST_FIRST), files[:12]


# -- the current figures (benchmarks/README.md) and what the docs cite of them --------------

#: "(benchmarks/README.md, `key`)", also as a link: "[...](../benchmarks/README.md), `key`"
CITED_KEY = re.compile(r"benchmarks/README\.md\)?,\s+`([^`]+)`")
#: "(benchmarks/HISTORY.md, 2026-11-28 23:27)": a dated entry of the log
CITED_DATE = re.compile(r"benchmarks/HISTORY\.md,\s+(\d{4}-\d\d-\d\d(?: \d\d:\d\d)?)")


def current_figures() -> dict[str, dict[str, str]]:
    """The "Current figures" table of benchmarks/README.md: key -> {column: cell}."""
    text = (ROOT / "benchmarks" / "README.md").read_text()
    lines = text.split("\n## Current figures\n", 1)[1].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| key |"))
    table = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        table.append([c.strip() for c in line.strip().strip("|").split("|")])       # no cell holds a "|"
    head, rows = table[0], table[2:]
    out = {}
    for cells in rows:
        assert len(cells) == len(head), cells
        row = dict(zip(head, cells))
        key = row["key"].strip("`")
        assert row["key"] == f"`{key}`" and key not in out, row["key"]
        out[key] = row
    return out


def docs() -> list[pathlib.Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_every_current_figure_has_a_date_a_commit_a_command_and_the_limits_limit():
    rows = current_figures()
    assert rows, "benchmarks/README.md has no current figure"
    for key, row in rows.items():
        assert re.search(r"\b20\d\d-\d\d-\d\d\b", row["date"]), (key, "no date", row["date"])
        assert re.search(r"\b[0-9a-f]{7,40}\b", row["commit"]), (key, "no commit", row["commit"])
        assert re.search(r"`[^`]+`", row["command"]), (key, "no command", row["command"])
        assert row["figure"] and row["load"], (key, "no figure or no load")
        base = key.split("[", 1)[0]
        if base in limits.LIMIT:
            m = re.search(r"(<=|>=)\s*([\d,.]+)", row["limit"])
            op = next(op for k, _, op, _, _ in limits.FIGURES if k == base)
            assert m and m.group(1) == op and float(m.group(2).replace(",", "")) == limits.LIMIT[base], \
                (key, row["limit"], f"benchmarks/limits.py says {op} {limits.LIMIT[base]:g}")
    for key, *_ in limits.FIGURES:
        assert any(k == key or k.startswith(key + "[") for k in rows), f"no current figure of {key}"


def test_every_key_the_docs_cite_is_a_current_figure_and_every_dated_entry_is_in_the_history():
    rows = current_figures()
    history = (ROOT / "benchmarks" / "HISTORY.md").read_text()
    cited = 0
    for path in docs():
        text = path.read_text()
        for key in CITED_KEY.findall(text):
            cited += 1
            assert key in rows, f"{path.relative_to(ROOT)} cites `{key}`, which benchmarks/README.md's current " \
                                f"figures lack (keys: {', '.join(sorted(rows))})"
        for date in CITED_DATE.findall(text):
            assert date in history, f"{path.relative_to(ROOT)} cites benchmarks/HISTORY.md, {date}: no such entry"
    assert cited, "no doc cites a current figure: the pattern no longer matches how they cite"


def test_the_mutant_counts_the_docs_give_are_the_registrys():
    from faults import mutation
    from faults.mutants import all_mutants
    from tests.test_proxy import MUTANTS
    scored, registered = mutation.scored_mutants(), all_mutants(shims=True)
    facts = {r"\*\*(\d+) scored mutants\*\*": len(scored),
             r"(\d+) are registered, `faults\.mutants\.all_mutants\(shims=True\)`": len(registered),
             r"(\d+) of them shims": sum(1 for c in registered.values() if c.shim),
             r"`tests/test_proxy\.py` the (\d+) that no family": len(MUTANTS),
             r"`tests/test_\*_can_fail\.py`\s+the other (\d+)": len(scored) - len(MUTANTS)}
    text = (ROOT / "docs" / "mutation.md").read_text()
    for pattern, count in facts.items():
        said = re.findall(pattern, text)
        assert said and all(int(n) == count for n in said), (pattern, said, f"the code has {count}")
    for path in [*docs(), ROOT / "benchmarks" / "README.md"]:
        for n in re.findall(r"(\d+) scored mutants", path.read_text()):
            assert int(n) == len(scored), f"{path.relative_to(ROOT)} says {n} scored mutants, the code has {len(scored)}"
