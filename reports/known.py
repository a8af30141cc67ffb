"""Known deviations of Apache Kafka itself: tell them from new findings.

    python -m reports.known [RUN_FOLDER ...] [--results-dir DIR] [--runs-from FILE]
                            [--known FILE] [--require-kafka]

Where a released Kafka does not do what its own code and documentation say, the suite's
row stays ``fail`` with the evidence; it is never bent into a pass. The reviewed list of
such deviations (``reference/kafka_known_deviations.json``, one entry per
defect: its request shape, its one dedicated check, API, versions, the Kafka releases it was
seen on, what Kafka does, why it is a defect and not a suite bug, the raw request) lets CI
and the gate accept exactly those rows and nothing else.

A row is *known* when it is a ``fail`` row (an ``error`` is no finding) and the entry
matches its whole shape: ``broker_impl``; the row's release line (``X.Y`` of
``broker_version``) in ``releases`` (and its mode in ``modes``, when the entry lists
modes: ``zk`` for ``mode=zk`` in the broker spec, else ``kraft``); ``property``; ``test``, the entry's
dedicated check (the row's ``check``, else ``counterexample.test``, names it; an entry
whose ``test`` carries parameters, ``test_x[kind=...]``, names the row's ``check``); ``api_key``
and the row's version in ``api_versions`` (an entry of a whole ``history``, S3's, names the API
of its racing requests: the row names none); ``message_regex`` matching the **whole**
message (anchored: a row whose message holds a second finding is not matched); and
``request_regex`` the last request of that API in the counterexample, written as JSON with
sorted keys (so an entry names the request shape, e.g. a resource named twice, not just a
symptom such as a timeout); and, where the entry has an ``input_regex``, the
counterexample's ``input`` written the same way (a race entry: how many writers raced).
Exit 0 when every fail/error row is known; 1 when one is not (each is listed); 2 on bad
input. Pure Python: no Spark needed.

A ``fail`` row of a broker no entry applies to (tansu, noida, an Apache Kafka release or
mode the entry does not list) whose message, check, API, version and requests are an entry's
whole shape all the same *answers as Apache Kafka's known deviation* (:func:`answers_as`):
a category of its own, listed apart from the broker's own findings (here, in SUMMARY.md and
on the dashboard), as s3-tests marks ``fails_on_aws``. It is never known: the row stays a
finding of that broker, and this command and the gate fail on it as on any other. The suite
names the entry in such a row's message when it writes the row (``NOTE``:
" (as Apache Kafka 3.3-4.4 answers: known deviation ID)"); the shape is matched on the
message without that note.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from dataclasses import dataclass

from . import row_schema
from .cells import add_run_arguments, run_files, valid_rows
from .cli import ReportError, run

DEFAULT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "reference", "kafka_known_deviations.json")
FORMAT = "kafka-admin-conformance/known-deviations/2"
REQUIRED = ("id", "broker_impl", "property", "test", "shape", "api_key", "api_versions", "releases",
            "message_regex", "request_regex", "kafka_does", "conforming_answer", "why_a_defect", "evidence",
            "request_hex")
#: The end of a row's message that names the known deviation its broker answered as
#: (reference/known_deviations.py NOTE, written by the suite with the row).
NOTE = re.compile(r" \(as Apache Kafka [^()]* answers: known deviation (?P<id>[a-z0-9-]+)\)$")


@dataclass(frozen=True)
class Known:
    id: str
    broker_impl: str
    property: str
    test: str
    api_key: int
    api_versions: tuple
    releases: tuple
    modes: tuple | None
    message_regex: re.Pattern
    request_regex: re.Pattern
    doc: dict
    input_regex: re.Pattern | None = None

    def matches(self, row: dict) -> bool:
        """The row is this known deviation: a ``fail`` of the entry's broker (implementation,
        release line, mode) with the entry's whole shape (:meth:`shaped`)."""
        return (row.get("outcome", "fail") == "fail" and self.on_its_broker(row)
                and self.shaped(row, row.get("message") or ""))

    def on_its_broker(self, row: dict) -> bool:
        return (row.get("broker_impl") == self.broker_impl
                and release_line(row.get("broker_version")) in self.releases
                and (self.modes is None or row_schema.broker_mode(row.get("broker")) in self.modes))

    def shaped(self, row: dict, message: str) -> bool:
        """The row has the entry's shape, whatever its broker: property, dedicated check, API
        and version, ``message`` whole, the last request of the API, the counterexample's input."""
        row_api = ((row.get("api_key"), row.get("api_version")) == (None, None) if self.doc.get("history") else
                   row.get("api_key") == self.api_key and row.get("api_version") in self.api_versions)
        if not (row.get("property") == self.property and self.names_check_of(row) and row_api
                and self.message_regex.fullmatch(message)):
            return False
        step = last_request(row, self.api_key)
        if not (step is not None and step.get("api_version") in self.api_versions
                and bool(self.request_regex.search(json.dumps(step.get("request"), sort_keys=True)))):
            return False
        if self.input_regex is None:
            return True
        ce = _counterexample(row)
        return bool(self.input_regex.search(json.dumps(ce.get("input") if isinstance(ce, dict) else None,
                                                       sort_keys=True)))

    def names_check_of(self, row: dict) -> bool:
        """The entry's ``test`` names the row's check: the test function, or the function and
        its parameters (``test_c4_...[kind=unknown operation]``) for one kind of a
        parametrised test."""
        if "[" in self.test:
            return row.get("check") == self.test
        return check_function(row) == self.test


def check_function(row: dict) -> str | None:
    """The test function of the row's check: from ``check`` (``test_x[kind=...]``), else
    the counterexample's ``test``, else the pytest node id."""
    check = row.get("check")
    if isinstance(check, str) and check:
        return check.split("[", 1)[0]
    ce = _counterexample(row)
    if isinstance(ce, dict) and ce.get("test"):
        return ce["test"]
    node = row.get("test")
    return node.rsplit("::", 1)[-1].split("[", 1)[0] if isinstance(node, str) and node else None


def _counterexample(row: dict):
    ce = row.get("counterexample")
    if isinstance(ce, str):
        try:
            ce = json.loads(ce)
        except ValueError:
            return None
    return ce


def last_request(row: dict, api_key: int) -> dict | None:
    """The last request of ``api_key`` in the row's counterexample."""
    ce = _counterexample(row)
    steps = ce.get("steps") if isinstance(ce, dict) else None
    return next((s for s in reversed(steps or []) if isinstance(s, dict) and s.get("api_key") == api_key), None)


def release_line(version: str | None) -> str | None:
    m = re.match(r"(\d+)\.(\d+)", version or "")
    return f"{m.group(1)}.{m.group(2)}" if m else None


def entries_of(path: str | None) -> list[Known]:
    """The list at ``path`` (None: the suite's own); none for ``none``, and none for the
    suite's own list where it is not there (an installation without it gates without it)."""
    path = DEFAULT if path is None else path
    if path == "none" or (path == DEFAULT and not os.path.exists(DEFAULT)):
        return []
    return read(path)


def read(path: str = DEFAULT) -> list[Known]:
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except OSError as e:
        raise ReportError(f"cannot read the known deviations {path}: {e.strerror}") from None
    except ValueError as e:
        raise ReportError(f"{path} is not JSON: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ReportError(f"{path}: not a known-deviations file (format {FORMAT})")
    out = []
    for i, e in enumerate(doc.get("deviations") or [], 1):
        missing = [k for k in REQUIRED if k not in e]
        if missing:
            raise ReportError(f"{path}: entry {i} lacks {', '.join(missing)}")
        try:
            rx = [re.compile(e[k]) for k in ("message_regex", "request_regex")]
            inputs = re.compile(e["input_regex"]) if e.get("input_regex") else None
        except re.error as err:
            raise ReportError(f"{path}: entry {e['id']}: a regex does not compile: {err}") from None
        out.append(Known(e["id"], e["broker_impl"], e["property"], e["test"], e["api_key"],
                         tuple(e["api_versions"]), tuple(e["releases"]),
                         tuple(e["modes"]) if e.get("modes") else None, *rx, e, inputs))
    return out


def classify(row: dict, known: list[Known]) -> Known | None:
    return next((k for k in known if k.matches(row)), None)


def without_note(message: str | None) -> tuple[str, str | None]:
    """``message`` without the suite's note naming a known deviation (``NOTE``), and the id
    the note names (None: no note)."""
    m = NOTE.search(message or "")
    return ((message or "")[:m.start()], m.group("id")) if m else (message or "", None)


def answers_as(row: dict, known: list[Known]) -> Known | None:
    """The entry a ``fail`` row that is no known deviation answers exactly as: a broker the
    entry does not apply to, the entry's whole shape otherwise (the message read without the
    suite's note). Such a row is a finding of its broker all the same: never known."""
    if row.get("outcome", "fail") != "fail" or classify(row, known) is not None:
        return None
    message, _ = without_note(row.get("message"))
    return next((k for k in known if not k.on_its_broker(row) and k.shaped(row, message)), None)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m reports.known", description=__doc__.split("\n")[0])
    add_run_arguments(p)
    p.add_argument("--known", default=DEFAULT, metavar="FILE", help="the known-deviations list (default: the suite's)")
    p.add_argument("--require-kafka", action="store_true",
                   help="fail unless the runs hold rows of an Apache Kafka broker")
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    files = run_files(args)
    known = read(args.known)
    malformed: list = []
    counts = {o: 0 for o in row_schema.OUTCOMES}
    new, alike, seen, kafka = [], [], {}, 0
    for f, row in ((f, row) for f in files for row in valid_rows(f, malformed)):
        counts[row["outcome"]] += 1
        kafka += row.get("broker_impl") == "apache-kafka"
        if row["outcome"] not in ("fail", "error"):
            continue
        k = classify(row, known)
        if k is not None:
            seen[k.id] = seen.get(k.id, 0) + 1
        elif (like := answers_as(row, known)) is not None:
            alike.append((f, row, like))
        else:
            new.append((f, row))
    for f, n, reason in malformed[:5]:
        print(f"malformed {f}:{n}: {reason}", file=sys.stderr)
    total = sum(counts.values())
    if not total:
        raise ReportError("the runs hold no valid row")
    print(f"known: {total} rows: " + ", ".join(f"{n} {o}" for o, n in counts.items() if n))
    for kid, n in sorted(seen.items()):
        print(f"  known deviation {kid}: {n} row(s)")
    for f, row in new[:50]:
        print(f"NEW: {_label(f, row)}: {_first_line(row.get('message'))[:200]}")
    for f, row, like in alike[:50]:
        print(f"AS APACHE KAFKA: {_label(f, row)} answers as Apache Kafka's known deviation {like.id} (still a "
              f"finding of this broker): {_first_line(without_note(row.get('message'))[0])[:160]}")
    problems = []
    if new:
        problems.append(f"{len(new)} fail/error row(s) not in the known-deviations list")
    if alike:
        problems.append(f"{len(alike)} fail row(s) of brokers the list does not apply to that answer as a known "
                        "deviation of Apache Kafka does (findings all the same)")
    if malformed:
        problems.append(f"{len(malformed)} malformed line(s)")
    if args.require_kafka and not kafka:
        problems.append("no row of an Apache Kafka broker")
    print("known: " + ("FAIL: " + "; ".join(problems) if problems else
                       f"PASS: every fail/error row is a known deviation ({sum(seen.values())} row(s))"))
    return 1 if problems else 0


def _label(f: str, row: dict) -> str:
    v = "" if row.get("api_version") is None else f" v{row['api_version']}"
    return f"{row['broker']} {row.get('api_name') or '-'}{v} {row['property']} {row['outcome']} [{f}:{row['row_id']}]"


def _first_line(text) -> str:
    return str(text).splitlines()[0] if text else ""


if __name__ == "__main__":
    sys.exit(run(main))
