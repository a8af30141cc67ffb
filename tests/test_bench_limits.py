"""``python -m benchmarks`` ends with every figure issue 29 names beside its limit
(benchmarks/limits.py): the table says what was not measured, and each figure it names is
one a benchmark writes."""
from __future__ import annotations

import os
import pathlib
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
