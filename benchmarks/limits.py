"""Every figure issue 29 asks ``tox -e bench`` for, beside its limit, in one table.

``python -m benchmarks`` prints this table at its end from the figures the run measured
(the benchmarks each merge their keys into one JSON file); a figure the run did not
measure says so instead of a number. A figure that is a table (per release, per API, per
row count) gets one line per entry.
"""
from __future__ import annotations

#: (key, what it is, "<=" or ">=", limit, unit)
FIGURES = (
    ("kafka_ci_run_s", "a ci-profile run on one Kafka node, JVM start and report included", "<=", 180.0, "s"),
    ("kafka_all_properties_s", "every property asked on a Kafka release as tox -e conformance runs it (companions, shards, default --jobs, report)", "<=", 180.0, "s"),
    ("matrix_s", "every KRaft line 3.3-4.4 and ZooKeeper 3.3-3.9, ci profile, --jobs 2", "<=", 1200.0, "s"),
    ("tests_ci_s", "the project's tests, every tier", "<=", 1200.0, "s"),
    ("tests_fast_s", "the project's fast tier (-m fast)", "<=", 180.0, "s"),
    ("overhead_ratio", "suite request rate / plain-loop rate on one broker, per API", ">=", 0.8, "x"),
    ("report_vs_full_parse", "the report's aggregation / Spark's full parse of the same files", "<=", 1.5, "x"),
    ("bad_input_run_s", "a bad input of run or gate refused in one line, per case (issue 55)", "<=", 10.0, "s"),
)

#: key -> limit: what the benchmarks print their own figure against
LIMIT = {key: limit for key, _, _, limit, _ in FIGURES}


def within(value: float, op: str, limit: float) -> bool:
    return value <= limit if op == "<=" else value >= limit


def lines(data: dict) -> list[str]:
    """One line per figure (per entry of a figure that is a table): value, limit, ratio."""
    out = []
    for key, what, op, limit, unit in FIGURES:
        value = data.get(key)
        if value is None:
            out.append(f"{key:<24} {'-':>10}  limit {op} {limit:g} {unit}: not measured in this run ({what})")
            continue
        entries = sorted(value.items(), key=lambda kv: str(kv[0])) if isinstance(value, dict) else [("", value)]
        for name, v in entries:
            label = f"{key}[{name}]" if name != "" else key
            ratio = v / limit if op == "<=" else (limit / v if v else float("inf"))
            verdict = "within" if within(v, op, limit) else "OVER" if op == "<=" else "UNDER"
            out.append(f"{label:<24} {v:>10,.2f}  limit {op} {limit:g} {unit}: ratio {ratio:.2f} of the limit, {verdict}")
    return out


def print_table(data: dict) -> None:
    print("\nevery figure beside its limit (issue 29; a ratio above 1.00 misses it):")
    for line in lines(data):
        print("  " + line)
