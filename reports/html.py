"""Render the dashboard: one self-contained HTML page (inline CSS and JS, no CDN, no server).

Input is plain Python (lists of row dicts per table, as dashboard.py reads them), so this
module needs no Spark. Cells carry stable ids and data attributes for tests and scripts:
``id="cell-<broker>-<api_key>-<version>-<property>"``, ``data-broker``, ``data-api``,
``data-version``, ``data-property``, ``data-outcome``, class ``o-<outcome>``.
"""
from __future__ import annotations

import json
import re
from collections import defaultdict

from .markup import MARK, api_label, cell_id, column_of, detail_id, pct, prop_key, slug
from .markup import esc as _e
from .overview import family_history, family_section, known_section, split_failing, verdict_section
from .row_schema import CELL_STATES, OUTCOMES, broker_mode

CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
header{background:#263238;color:#fff;padding:12px 24px}header h1{margin:0;font-size:20px}
header p{margin:4px 0 0;color:#cfd8dc}nav{padding:8px 24px;background:#eceff1}
nav a{margin-right:14px;color:#1565c0}main{padding:0 24px 40px}h2{margin-top:32px}
table{border-collapse:collapse;margin:8px 0;background:#fff}
th,td{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f0f0f0;position:sticky;top:0}
table.heat td{padding:0;text-align:center}table.heat th.api{white-space:nowrap}
.cell{display:block;width:100%;min-width:30px;height:24px;border:0;font:inherit;cursor:default}
button.cell.o-fail{cursor:pointer;text-decoration:underline}
.o-pass{background:#a5d6a7}.o-partial{background:#dcedc8;color:#33691e}
.o-fail{background:#ef9a9a;font-weight:bold}.o-error{background:#ffcc80}
.o-unsupported{background:#cfd8dc;color:#555}.o-skip{background:#f5f5f5;color:#999}
.none{background:repeating-linear-gradient(45deg,#fff,#fff 3px,#f3f3f3 3px,#f3f3f3 6px)}
.legend span{display:inline-block;padding:2px 8px;margin-right:6px;border:1px solid #ccc}
.score{font-variant-numeric:tabular-nums}.bar{height:6px;background:#ef9a9a;min-width:80px}
.bar i{display:block;height:6px;background:#43a047}.bar.na{background:#eceff1}td.na{color:#777}
button.cell.known{background:repeating-linear-gradient(45deg,#ef9a9a,#ef9a9a 4px,#f8d7d7 4px,#f8d7d7 8px)}
#verdict{margin-top:16px}#verdict td.word{font-weight:bold;text-transform:uppercase}
#verdict td.w-fail{background:#ef9a9a}#verdict td.w-pass{background:#a5d6a7}#verdict td.w-incomplete{background:#ffcc80}
p.known{background:#eceff1;padding:4px}
details.failure{background:#fff;border:1px solid #e57373;margin:6px 0;padding:4px 8px}
details.failure[open]{box-shadow:0 0 0 2px #e57373}summary{cursor:pointer}
pre{background:#263238;color:#eceff1;padding:8px;overflow:auto;max-height:400px}
code.replay{display:block;background:#fff3e0;padding:4px;white-space:pre-wrap;word-break:break-all}
.regression td:first-child{color:#c62828;font-weight:bold}.fix td:first-child{color:#2e7d32}
.muted{color:#777}.warn{color:#c62828}
figure.history{margin:8px 0 16px;overflow-x:auto}figure.history figcaption{font-weight:bold}
svg.chart{background:#fff;border:1px solid #ddd}svg.chart .grid{stroke:#eee}
svg.chart .axis{stroke:#999}svg.chart polyline{fill:none;stroke:#1565c0;stroke-width:2}
svg.chart circle{fill:#1565c0}svg.chart a.na circle{fill:#fff;stroke:#999}
svg.chart a:hover circle{fill:#c62828}svg.chart text{font-size:11px;fill:#444}
tr:target{background:#fff59d}
"""

JS = """
document.addEventListener('click', function (e) {
  var b = e.target.closest('[data-detail]');
  if (!b) return;
  var d = document.getElementById(b.getAttribute('data-detail'));
  if (!d) return;
  d.open = !d.open;
  if (d.open) d.scrollIntoView({block: 'nearest'});
});
function onlyDiffs(box) {
  document.querySelectorAll('#compare tr[data-differs]').forEach(function (tr) {
    tr.hidden = box.checked && tr.getAttribute('data-differs') === '0';
  });
}
document.addEventListener('DOMContentLoaded', function () {
  var box = document.getElementById('only-diffs'); if (box) onlyDiffs(box);
});
"""


def state_text(r: dict) -> str:
    """The cell's latest state as a reader sees it: ``partial (6 of 7 tests asked)``."""
    o = r["latest_outcome"]
    if o == "partial" and r.get("latest_tests"):
        return f"partial ({r.get('latest_asked')} of {r['latest_tests']} tests asked)"
    return o


def _listed(value) -> list:
    """A list column of the matrix: a list, or the comma list ``dashboard._plain`` made of it."""
    if not value:
        return []
    return value.split(", ") if isinstance(value, str) else list(value)


def _tip(r: dict) -> str:
    counts = ", ".join(f"{o} {r.get('n_' + o, 0)}" for o in OUTCOMES if r.get("n_" + o))
    tip = f"{api_label(r)} v{r.get('api_version')} {r['property']}: latest {state_text(r)} " \
          f"(run {r.get('latest_run_id')}); rows over all runs: {counts}"
    if r.get("last_change_run_id"):
        tip += f"; last changed in run {r['last_change_run_id']} ({r.get('last_change_run_start')}, " \
               f"from {r.get('last_change_from')})"
    elif r.get("runs"):
        tip += f"; unchanged in its {r['runs']} run(s)"
    parts = _listed(r.get("parts"))
    if len(parts) > 1 or any(not p.startswith(f"{r['broker']}: ") for p in parts):
        tip += "; asked on " + "; ".join(parts)
    states = _listed(r.get("run_states"))
    if states:
        tip += f"\nlatest {len(states)} run(s), oldest first: " + "; ".join(states)
    if r.get("latest_message"):
        tip += f"\n{r['latest_message']}"
    return tip


def pretty(text) -> str:
    if text is None:
        return "(none recorded)"
    try:
        return json.dumps(json.loads(text), indent=2, sort_keys=True)
    except ValueError:
        return str(text)


def _attrs(r: dict) -> str:
    v = lambda x: "" if x is None else str(x)  # noqa: E731
    return (f'data-broker="{_e(r["broker"])}" data-api="{v(r.get("api_key"))}" '
            f'data-api-name="{_e(r.get("api_name"))}" data-version="{v(r.get("api_version"))}" '
            f'data-property="{_e(r["property"])}"')


def heatmap(broker: str, rows: list[dict], failing: list[dict] | None = None) -> str:
    """``failing``: the broker's failing cells (the failures table's rows, one per spec that
    failed a cell of its column): a cell's button opens its first one's details, and is drawn
    as a known deviation of Kafka only when every one of them is one."""
    by_cell = defaultdict(list)
    for f in failing or []:
        by_cell[cell_id(broker, f.get("api_key"), f.get("api_version"), f["property"])].append(f)
    props = sorted({r["property"] for r in rows}, key=prop_key)
    grid = defaultdict(dict)
    for r in rows:
        grid[(r.get("api_key") if r.get("api_key") is not None else -1, r.get("api_version") or 0,
              api_label(r), r.get("api_version"))][r["property"]] = r
    out = ['<table class="heat"><thead><tr><th>API / version</th>']
    out += [f'<th title="property {_e(p)}">{_e(p)}</th>' for p in props]
    out.append("</tr></thead><tbody>")
    for key in sorted(grid, key=lambda k: (k[0], k[1])):
        _, _, label, version = key
        vtext = "" if version is None else f" v{version}"
        out.append(f'<tr><th class="api">{_e(label)}{vtext}</th>')
        for p in props:
            r = grid[key].get(p)
            if r is None:
                out.append('<td class="none"></td>')
                continue
            o, cid = r["latest_outcome"], cell_id(broker, r.get("api_key"), r.get("api_version"), p)
            common = (f'id="cell-{cid}" class="cell o-{o}" {_attrs(r)} data-outcome="{o}" '
                      f'data-last-change="{_e(r.get("last_change_run_id"))}" title="{_e(_tip(r))}"')
            if o == "fail":
                parts = by_cell.get(cid, [])
                k = parts[0]["known"] if parts and all(f.get("known") for f in parts) else None
                if k:
                    common = common.replace(f'class="cell o-{o}"', f'class="cell o-{o} known"', 1)
                d = detail_id(parts[0]) if parts else f"fail-{cid}"
                out.append(f'<td><button type="button" {common} data-detail="{d}" data-known="{_e(k)}" '
                           f'aria-controls="{d}">{MARK[o]}</button></td>')
            else:
                out.append(f"<td><span {common}>{MARK.get(o, '?')}</span></td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def failure_details(f: dict, known: dict | None = None) -> str:
    v = "" if f.get("api_version") is None else f" v{f['api_version']}"
    k = f.get("known")
    asked = "" if column_of(f) == f["broker"] else f' <span class="muted">(asked on {_e(f["broker"])})</span>'
    label = ""
    if k:
        doc = (known or {}).get(k, {})
        label = (f'<p class="known">Known deviation of Apache Kafka <a href="#known-entry-{slug(k)}"><code>{_e(k)}</code></a>: '
                 f'{_e(doc.get("title"))} (releases {_e(doc.get("releases"))}'
                 f'{"; mode " + _e(doc["modes"]) if doc.get("modes") else ""}; evidence: {_e(doc.get("evidence"))}). '
                 'The row standing for the cell is that reviewed defect of Kafka, not a finding of this build.</p>')
    return (f'<details class="failure" id="{detail_id(f)}" {_attrs(f)} data-outcome="fail" data-known="{_e(k)}">'
            f'<summary><b>{_e(api_label(f))}{v} {_e(f["property"])}</b>{asked} — {_e(f.get("message"))}</summary>{label}'
            f'<p>Latest failing run <code>{_e(f.get("run_id"))}</code> (row {_e(f.get("row_id"))}, '
            f'{_e(f.get("started_at"))}); first failed in <code>{_e(f.get("first_fail_run_id"))}</code>; '
            f'{_e(f.get("n_fail"))} fail / {_e(f.get("n_pass"))} pass rows overall. '
            f'Build: {_e(f.get("broker_impl"))} {_e(f.get("broker_version"))}.</p>'
            f'<p>Message: {_e(f.get("message"))}</p><p>Source: {_e(f.get("source"))}</p>'
            f'<p>Minimal counterexample:</p><pre class="counterexample">{_e(pretty(f.get("counterexample")))}</pre>'
            f'<p>Replay:</p><code class="replay">{_e(f.get("replay"))}</code>{_reproducer(f)}</details>')


def _reproducer(f: dict) -> str:
    """A standalone reproducer for a broker engineer (fixtures/repro): where `tox -e
    conformance` exported it beside the dashboard, and the command that exports it."""
    ref = (f.get("replay") or "").rpartition(" --replay ")[2].strip().strip("'")
    if not ref:
        return ""
    href = f'repro/{f.get("run_id")}/{f.get("row_id")}/REPORT.md'
    return (f'<p>Standalone reproducer: <a class="repro" href="{_e(href)}">repro.py + REPORT.md</a> '
            f'(export: <code class="export">tox -e repro -- --export-repro {_e(ref)} --out DIR</code>)</p>')


def scores_table(brokers: list[str], scores: list[dict]) -> str:
    by = {(s["broker"], s["scope"], s.get("api_key")): s for s in scores}
    apis = sorted({(s.get("api_key") if s.get("api_key") is not None else -1, api_label(s))
                   for s in scores if s["scope"] == "api"})
    out = ['<table id="scores"><thead><tr><th>API</th>']
    out += [f"<th>{_e(b)}</th>" for b in brokers]
    out.append("</tr></thead><tbody>")
    for key, label in apis + [(None, "Overall")]:
        out.append(f"<tr><th>{_e(label)}</th>")
        for b in brokers:
            s = by.get((b, "overall", None)) if key is None else by.get((b, "api", None if key == -1 else key))
            if s is None:
                out.append('<td class="muted">—</td>')
                continue
            width = 0 if s.get("score") is None else round(100 * s["score"])
            na = not s.get("applicable")        # nothing applicable: neutral, never a red bar
            bar = '<div class="bar na"></div>' if na else f'<div class="bar"><i style="width:{width}%"></i></div>'
            out.append(f'<td class="score{" na" if na else ""}" data-broker="{_e(b)}" data-api="{_e(s.get("api_key"))}" '
                       f'data-score="{_e(s.get("score"))}" title="{s["passing"]} of {s["applicable"]} applicable '
                       f'cells pass ({s.get("n_partial", 0)} of them partial); {s["cells"]} cells '
                       f'({s["n_unsupported"]} unsupported, {s["n_error"]} error, '
                       f'{s["n_skip"]} skip)">{pct(s.get("score"))} <span class="muted">'
                       f'({s["passing"]}/{s["applicable"]})</span>{bar}</td>')
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def compare_table(brokers: list[str], matrix: list[dict]) -> str:
    cells = defaultdict(dict)
    for r in matrix:
        cells[(r.get("api_key") if r.get("api_key") is not None else -1, r.get("api_version") or 0,
               prop_key(r["property"]))][r["broker"]] = r
    out = ['<label><input type="checkbox" id="only-diffs" checked onchange="onlyDiffs(this)"> '
           'only cells where the brokers differ</label><table id="compare"><thead><tr><th>API</th><th>v</th>'
           '<th>property</th>']
    out += [f"<th>{_e(b)}</th>" for b in brokers]
    out.append("</tr></thead><tbody>")
    for key in sorted(cells):
        row = cells[key]
        any_r = next(iter(row.values()))
        outcomes = {row[b]["latest_outcome"] if b in row else None for b in brokers}
        out.append(f'<tr data-differs="{int(len(outcomes) > 1)}"><td>{_e(api_label(any_r))}</td>'
                   f'<td>{_e(any_r.get("api_version"))}</td><td>{_e(any_r["property"])}</td>')
        for b in brokers:
            r = row.get(b)
            if r is None:
                out.append('<td class="none muted">not run</td>')
            else:
                o = r["latest_outcome"]
                out.append(f'<td class="o-{o}" {_attrs(r)} data-outcome="{o}" title="{_e(_tip(r))}">'
                           f'{_e(state_text(r))}</td>')
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def run_anchor(run_id) -> str:
    return f"run-{slug(run_id)}"


def history_chart(chart_id: str, title: str, points: list[dict], limit: int = 100) -> str:
    """One inline SVG line chart: the score of each run, oldest left, the run ids on the
    x axis, each point a link to its run's row in the runs table. ``points`` are history
    rows (broker, run_id, run_start, score, passing, applicable)."""
    points = sorted(points, key=lambda p: (str(p.get("run_start")), str(p["run_id"]), p["broker"]))
    cut = len(points) - limit if len(points) > limit else 0
    points = points[cut:]
    # labels are rotated -45 degrees: a label of n characters reaches about 4.5 n px left and down
    reach = 4.5 * max((len(str(p["run_id"])) for p in points), default=0)
    step, top, h = 44, 12, 150
    left, bottom = max(48, int(reach - step / 2) + 12), max(40, int(reach) + 24)
    width = left + step * max(len(points), 1) + 20
    height = top + h + bottom
    y = lambda score: top + (1 - score) * h  # noqa: E731
    out = [f'<figure class="history" id="{_e(chart_id)}" data-title="{_e(title)}" data-points="{len(points)}">'
           f'<figcaption>{_e(title)}</figcaption>'
           f'<svg class="chart" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{_e(title)}: score per run">']
    for pct_ in (0, 25, 50, 75, 100):
        yy = y(pct_ / 100)
        out.append(f'<line class="grid" x1="{left}" x2="{width - 10}" y1="{yy:.1f}" y2="{yy:.1f}"/>'
                   f'<text x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end">{pct_}%</text>')
    out.append(f'<line class="axis" x1="{left}" x2="{left}" y1="{top}" y2="{top + h}"/>'
               f'<line class="axis" x1="{left}" x2="{width - 10}" y1="{top + h}" y2="{top + h}"/>')
    xs = [left + step * i + step / 2 for i in range(len(points))]
    line = " ".join(f"{x:.1f},{y(p['score']):.1f}" for x, p in zip(xs, points) if p.get("score") is not None)
    if line:
        out.append(f'<polyline points="{line}"/>')
    for x, p in zip(xs, points):
        score = p.get("score")
        yy = y(score) if score is not None else top + h
        who = "" if title == p["broker"] else f" ({p['broker']})"
        tip = (f"run {p['run_id']}{who}, {p.get('run_start')}: {pct(score)} ({p.get('passing')} of "
               f"{p.get('applicable')} applicable cells pass; build {p.get('broker_impl')} {p.get('broker_version')})")
        out.append(f'<a class="point{" na" if score is None else ""}" href="#{run_anchor(p["run_id"])}" '
                   f'data-run="{_e(p["run_id"])}" data-broker="{_e(p["broker"])}" data-score="{_e(score)}">'
                   f'<circle cx="{x:.1f}" cy="{yy:.1f}" r="5"/><title>{_e(tip)}</title></a>'
                   f'<text class="run-label" x="{x:.1f}" y="{top + h + 12}" text-anchor="end" '
                   f'transform="rotate(-45 {x:.1f} {top + h + 12})">{_e(p["run_id"])}</text>')
    out.append("</svg>")
    if cut:
        out.append(f'<p class="muted">Showing the last {len(points):,} of {len(points) + cut:,} runs.</p>')
    out.append("</figure>")
    return "".join(out)


KAFKA_IMPL = "apache-kafka"


def history_section(history: list[dict], brokers: list[str]) -> str:
    """Per broker, and per Apache Kafka release (broker_impl apache-kafka, by broker_version),
    the score over runs."""
    if not history:
        return '<section id="history-sec"><h2>History</h2><p class="muted">No runs.</p></section>'
    out = ['<section id="history-sec"><h2>History: score per run</h2><p class="muted">Score of each run '
           "(its cells' outcomes in that run, scored as above). Click a point for its run; hover it for "
           "the figures.</p>"]
    for b in sorted(set(brokers) | {h["broker"] for h in history}):
        mine = [h for h in history if h["broker"] == b]
        if mine:
            out.append(history_chart(f"history-{slug(b)}", b, mine))
    releases = defaultdict(list)     # (version, mode) -> runs: ZooKeeper mode charted apart
    for h in history:
        if h.get("broker_impl") == KAFKA_IMPL and h.get("broker_version"):
            releases[(h["broker_version"], broker_mode(h.get("broker")))].append(h)
    if releases:
        out.append("<h3>Apache Kafka releases</h3>")
        vkey = lambda vm: ([int(x) if x.isdigit() else x for x in re.split(r"[.-]", vm[0])], vm[1])  # noqa: E731
        for v, mode in sorted(releases, key=vkey):
            zk = mode == "zk"
            out.append(history_chart(f"history-kafka-{slug(v)}" + ("-zk" if zk else ""),
                                     f"Apache Kafka {v}" + (" (ZooKeeper mode)" if zk else ""), releases[(v, mode)]))
    out.append("</section>")
    return "".join(out)


def rows_table(table_id: str, rows: list[dict], cols: list[tuple[str, str]], row_class=None, row_id=None) -> str:
    if not rows:
        return '<p class="muted">None.</p>'
    out = [f'<table id="{table_id}"><thead><tr>'] + [f"<th>{_e(h)}</th>" for h, _ in cols] + ["</tr></thead><tbody>"]
    seen = set()
    for r in rows:
        cls = f' class="{_e(row_class(r))}"' if row_class else ""
        rid = row_id(r) if row_id else None
        if rid and rid not in seen:
            seen.add(rid)
            cls += f' id="{_e(rid)}"'
        out.append(f"<tr{cls}>" + "".join(f"<td>{_e(r.get(k))}</td>" for _, k in cols) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _more(name: str, shown: int, totals: dict) -> str:
    total = totals.get(name)
    return f'<p class="muted">Showing {shown:,} of {total:,}.</p>' if total and total > shown else ""


def page(d: dict) -> str:
    """d: generated, matrix, scores, failures, changes, flaky, runs, malformed (row dicts), totals."""
    matrix, totals = d["matrix"], d.get("totals", {})
    brokers = sorted({r["broker"] for r in matrix} | {s["broker"] for s in d["scores"]})
    fails = defaultdict(list)
    for f in d["failures"]:
        fails[column_of(f)].append(f)
    runs = d["runs"]
    n_rows, n_bad = sum(r.get("rows") or 0 for r in runs), sum(r.get("malformed") or 0 for r in runs)
    body = [f'<header><h1>Kafka admin protocol conformance</h1><p>{len(runs):,} runs, {n_rows:,} rows'
            f'{f", {n_bad:,} malformed lines" if n_bad else ""}; {len(brokers)} broker(s); '
            f'generated {_e(d.get("generated"))}</p></header><nav><a href="#verdict">Verdict</a>'
            '<a href="#families-sec">Families</a>'
            '<a href="#scores-sec">Scores</a><a href="#history-sec">History</a><a href="#compare-sec">Comparison</a>']
    body += [f'<a href="#broker-{slug(b)}">{_e(b)}</a>' for b in brokers]
    body.append('<a href="#known-sec">Known deviations</a><a href="#changes-sec">Regressions &amp; fixes</a>'
                '<a href="#flaky-sec">Flaky</a><a href="#runs-sec">Runs</a><a href="#malformed-sec">Malformed</a></nav><main>')
    body.append(verdict_section(brokers, d, fails))
    body.append(family_section(brokers, matrix))
    body.append('<p class="legend">' + "".join(f'<span class="o-{o}">{MARK[o]} {o}</span>' for o in CELL_STATES)
                + '<span class="none">not run</span></p>'
                '<p class="muted">A cell (broker, API, version, property) is pass only when every test of it '
                'was asked and passed; partial when some of its tests were not asked (unsupported, skip) and '
                'the others passed (hover it for the count); fail when any test failed.</p>')
    body.append('<section id="scores-sec"><h2>Scores</h2><p>Score = share of applicable cells whose latest '
                'state is pass or partial (every test asked passed); a cell is applicable when its latest '
                'state is pass, partial or fail (unsupported, error and skip cells are not scored).</p>'
                + scores_table(brokers, d["scores"]) + "</section>")
    body.append(history_section(d.get("history") or [], brokers))
    body.append('<section id="compare-sec"><h2>Broker comparison</h2>' + compare_table(brokers, matrix)
                + _more("matrix", len(matrix), totals) + "</section>")
    for b in brokers:
        mine = [r for r in matrix if r["broker"] == b]
        overall = next((s for s in d["scores"] if s["broker"] == b and s["scope"] == "overall"), {})
        body.append(f'<section id="broker-{slug(b)}" class="broker" data-broker="{_e(b)}"><h2>{_e(b)} '
                    f'<span class="score">{pct(overall.get("score"))}</span></h2>'
                    '<p class="muted">Rows: API and version; columns: property; colour: latest outcome. '
                    'Hover a cell for its counts; click a failing cell for its counterexample.</p>'
                    + heatmap(b, mine, fails[b]))
        history = family_history(b, d.get("family_history") or [])
        if history:
            body.append(f"<h3>Families over its runs</h3>{history}")
        own, alike, kafkas = split_failing(fails[b])
        s, known = slug(b), d.get("known") or {}
        body.append(f'<h3 id="own-{s}">Failing cells ({len(own)})</h3>'
                    + ("".join(failure_details(f) for f in own) or '<p class="muted">None.</p>'))
        if alike:
            body.append(f'<h3 class="as-kafka" id="alike-{s}">Failing cells answering as Apache Kafka does ({len(alike)})</h3>'
                        '<p class="muted">The latest failing row of each answers exactly as a reviewed known '
                        'deviation of Apache Kafka does (its message names the entry, '
                        'reference/kafka_known_deviations.json): a finding of this broker all the same, '
                        'shown apart from its own.</p>' + "".join(failure_details(f) for f in alike))
        if kafkas:
            body.append(f'<h3 class="known" id="known-{s}">Known deviations of Apache Kafka ({len(kafkas)})</h3>'
                        '<p class="muted">The latest failing row of each is a reviewed defect of Kafka itself '
                        '(reference/kafka_known_deviations.json).</p>'
                        + "".join(failure_details(f, known) for f in kafkas))
        body.append("</section>")
    body.append(_more("failures", len(d["failures"]), totals))
    body.append(known_section(d["failures"], d.get("known") or {}))
    body.append('<section id="changes-sec"><h2>Regressions &amp; fixes between consecutive runs</h2>'
                + rows_table("changes", d["changes"], [
                    ("kind", "kind"), ("broker", "broker"), ("API", "api_name"), ("v", "api_version"),
                    ("property", "property"), ("from run", "from_run_id"), ("to run", "to_run_id"),
                    ("to run start", "to_run_start"), ("message", "message"), ("replay", "replay")],
                    lambda r: r["kind"]) + _more("changes", len(d["changes"]), totals) + "</section>")
    body.append('<section id="flaky-sec"><h2>Flaky cells (passed in one run, failed in another, same broker build)</h2>'
                + rows_table("flaky", d["flaky"], [
                    ("broker", "broker"), ("impl", "broker_impl"), ("version", "broker_version"),
                    ("API", "api_name"), ("v", "api_version"), ("property", "property"),
                    ("runs passed", "runs_pass"), ("runs failed", "runs_fail"), ("runs", "runs"), ("last pass", "last_pass_run_id"),
                    ("last fail", "last_fail_run_id")]) + _more("flaky", len(d["flaky"]), totals) + "</section>")
    body.append('<section id="runs-sec"><h2>Runs</h2>' + rows_table("runs", runs, [
        ("run", "run_id"), ("start", "run_start"), ("complete", "complete"), ("rows", "rows"),
        ("malformed", "malformed"), ("brokers", "brokers"), ("folder", "run_dir")],
        row_id=lambda r: run_anchor(r["run_id"]))
        + _more("runs", len(runs), totals) + "</section>")
    body.append('<section id="malformed-sec"><h2>Malformed lines</h2>' + rows_table("malformed", d["malformed"], [
        ("file", "file"), ("line", "line"), ("reason", "reason"), ("text", "text")])
        + _more("malformed", len(d["malformed"]), totals) + "</section></main>")
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Kafka admin conformance</title>'
            f'<meta name="viewport" content="width=device-width"><style>{CSS}</style><script>{JS}</script>'
            f'</head><body>{"".join(body)}</body></html>\n')
