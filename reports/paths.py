"""Run-folder names and the checks on them that need no Spark (shared by every entry point)."""
from __future__ import annotations

import os
from urllib.parse import urlparse

from .cli import ReportError

RESULTS = "results.jsonl"
MANIFEST = "manifest.json"
HINT = ("a run folder is RESULTS_DIR/<run_id>/ holding results.jsonl (docs/results.md); "
        "give --results-dir the folder that holds run folders, or name run folders")


def is_local(uri: str) -> bool:
    scheme = urlparse(uri).scheme
    return scheme in ("", "file") or len(scheme) == 1  # one letter: a Windows drive


def _local(uri: str) -> str:
    return urlparse(uri).path if uri.startswith("file:") else uri


def read_runs_from(path: str) -> list[str]:
    """A text file naming run folders, one a line (the suite's KAC_LAST_RUN_FILE)."""
    try:
        with open(path, encoding="utf-8") as fh:
            runs = [line.strip() for line in fh if line.strip()]
    except OSError as e:
        raise ReportError(f"cannot read --runs-from {path}: {e.strerror}; "
                          "give a file naming run folders, one a line") from None
    if not runs:
        raise ReportError(f"--runs-from {path} names no run folder; run the suite first")
    return runs


def precheck(results_dirs: list[str], runs: list[str]) -> None:
    """Fail fast (before Spark starts) on local paths that cannot be right."""
    if not results_dirs and not runs:
        raise ReportError("no input: give --results-dir DIR and/or run folders")
    for d in filter(is_local, results_dirs):
        p = _local(d)
        if not os.path.isdir(p):
            raise ReportError(f"no such folder: {d} ({HINT})")
        if not any(os.path.isfile(os.path.join(p, c, RESULTS)) for c in os.listdir(p)):
            raise ReportError(f"no run folders under {d}: expected {d}/<run_id>/{RESULTS} ({HINT})")
    for r in filter(is_local, runs):
        p = _local(r)
        if os.path.isfile(p) and p.endswith(RESULTS):
            continue
        if not os.path.isdir(p):
            raise ReportError(f"no such run folder: {r} ({HINT})")
        if not os.path.isfile(os.path.join(p, RESULTS)):
            raise ReportError(f"{r} has no {RESULTS}: not a run folder ({HINT})")


def local_bytes(results_dirs: list[str], runs: list[str]) -> int | None:
    """The size of the results files the inputs name, when every input is local (None
    otherwise: a remote file system is not listed before Spark starts)."""
    if not all(map(is_local, [*results_dirs, *runs])):
        return None
    files = [os.path.join(_local(d), c, RESULTS) for d in results_dirs for c in os.listdir(_local(d))]
    files += [_local(r) if _local(r).endswith(RESULTS) else os.path.join(_local(r), RESULTS) for r in runs]
    return sum(os.path.getsize(f) for f in files if os.path.isfile(f))


def write_page(out: str, name: str, text: str) -> str:
    """Write OUT/NAME (a local folder, made if missing); its path, or a one-line ReportError."""
    path = os.path.join(out, name)
    try:
        os.makedirs(out, exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as e:
        raise ReportError(f"cannot write {path}: {e.strerror}") from None
    return path
