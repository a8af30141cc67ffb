"""The project cites only public sources: KIPs by number and title, Kafka's source by
repository path. No file names a private document (a "seed" file of the project's origins)
or a path outside the repository, in code, docs, messages or result rows."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: What a reader outside the project cannot open: the origin documents by number, the
#: folder they lived in, and absolute paths of a build machine. (Spelt with character classes,
#: and the examples below split in two, so this file names none of them and is scanned too.)
PRIVATE = re.compile("|".join((
    r"\bseeds? \d{3}\b", r"\bseeds? 0\d\d/", r"\bSEED_0\d\d\b",
    r"(?<![\w.-])share[d]/", r"/wor[k]/",
)), re.IGNORECASE)

TEXT = {".py", ".md", ".json", ".toml", ".ini", ".java", ".html", ".js", ".css", ".txt", ".cfg", ".sh", ""}


def _tracked() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split("\n")
    return [ROOT / f for f in out if f and (ROOT / f).is_file() and (ROOT / f).suffix in TEXT]


def test_no_file_cites_a_private_source_or_a_path_outside_the_repository():
    hits = []
    for path in _tracked():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if PRIVATE.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:120]}")
    assert not hits, "cite KIPs by number and title, Kafka by repository path:\n" + "\n".join(hits)


def test_the_pattern_catches_what_it_is_for():
    # made-up examples of each form (no real origin document or machine path is named here)
    for bad in ("see seed " "123", "Seed " "456's lost update", "seeds 0" "10/011", "/wor" "k/somewhere/NOTES.md",
                "`share" "d/NOTES.md`", "SEED_" "099 = 1"):
        assert PRIVATE.search(bad), bad
    for fine in ("--seed 20261123", "hypothesis seed 20260501", "a shared cluster", "KIP-694",
                 "tests/test_shared_cluster.py", "DEFAULT_SEED"):
        assert not PRIVATE.search(fine), fine
