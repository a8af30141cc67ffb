"""Reports over conformance results: Spark aggregation, a static dashboard and a release gate.

Everything here reads only the result files described in docs/results.md
(``RESULTS_DIR/<run_id>/results.jsonl`` and ``manifest.json``); nothing imports the suite.
See docs/reports.md.
"""
