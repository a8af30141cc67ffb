"""The top of the dashboard: the verdict per broker, the score per family of properties
across brokers, and Kafka's own known deviations as triage data (issue 60, items 1, 4, 5)."""
from __future__ import annotations

from collections import defaultdict

from .known import without_note
from .markup import api_label, column_of, detail_id, pct, prop_key, slug
from .markup import esc as _e

def _apart(failing: list[dict]) -> tuple[list[dict], list[dict]]:
    """A broker's failing cells: those of the broker alone, and those whose latest failing
    row answers as a known deviation of Apache Kafka does (the suite names the entry in the
    row's message, reports/known.py ``NOTE``; the cell's table keeps no more of the row to
    match the entry again)."""
    own = [f for f in failing if without_note(f.get("message"))[1] is None]
    return own, [f for f in failing if without_note(f.get("message"))[1] is not None]


def split_failing(failing: list[dict]) -> tuple[list[dict], list[dict], list[dict]]:
    """A broker's failing cells: its own findings, those answering as a known deviation of
    Apache Kafka does (a finding all the same), and Kafka's own reviewed known deviations
    (the cell's row matched by reference/kafka_known_deviations.json, dashboard.py
    ``label_known``)."""
    own, alike = _apart([f for f in failing if not f.get("known")])
    return own, alike, [f for f in failing if f.get("known")]


def _runs_of(runs: list[dict], specs: set[str]) -> list[dict]:
    """The runs that asked any of ``specs`` (the runs table lists each run's broker specs)."""
    return [r for r in runs if specs & {b.strip() for b in str(r.get("brokers") or "").split(",")}]


def specs_of(d: dict) -> dict[str, set[str]]:
    """column -> the broker specs that answered for it (the columns table's parts, the failures
    and changes tables' spec beside their column)."""
    out = defaultdict(set)
    for r in d["matrix"]:
        parts = r.get("parts") or [f"{r['broker']}: "]
        for p in parts.split(", ") if isinstance(parts, str) else parts:
            out[r["broker"]].add(p.rsplit(": ", 1)[0])
    for r in list(d["failures"]) + list(d["changes"]):
        out[column_of(r)].add(r["broker"])
    return out


def _latest_run(spec: str, d: dict) -> str | None:
    """The spec's newest run: from the history table (a point per broker run), else the runs table."""
    points = [(str(h.get("run_start")), str(h["run_id"])) for h in d.get("history") or [] if h["broker"] == spec]
    points = points or [(str(r.get("run_start")), str(r["run_id"])) for r in _runs_of(d["runs"], {spec})]
    return max(points)[1] if points else None


def verdict_word(own: int, alike: int, regressions: int, incomplete: int) -> str:
    """fail: a failing cell of the broker's own or answering as Kafka's known deviation, or a
    regression in its latest run; incomplete: short of that, a run that did not go to its end;
    else pass."""
    if own or alike or regressions:
        return "fail"
    return "incomplete" if incomplete else "pass"


def verdict_section(brokers: list[str], d: dict, fails: dict) -> str:
    """The verdict first (issue 60, item 1): per broker the word and what it rests on, each
    count a link to its list."""
    out = ['<section id="verdict"><h2>Verdict</h2><p class="muted">Per broker: <b>fail</b> when a cell fails '
           "that is no reviewed known deviation of Apache Kafka (by the row that stands for it) or a cell went from "
           "pass to fail in the broker's latest run against its run before; <b>incomplete</b> when, short of that, "
           "a run did not go to its end; else <b>pass</b>. The release gate against a baseline is "
           "<code>tox -e gate</code>; SUMMARY.md counts findings row by row.</p>"
           '<table id="verdicts"><thead><tr><th>broker</th><th>verdict</th><th>failing cells of its own</th>'
           "<th>answering as Kafka's known deviations</th><th>known deviations of Kafka</th>"
           "<th>regressions / fixes in its latest run</th><th>incomplete runs</th><th>score</th></tr></thead><tbody>"]
    link = lambda n, href: f'<a href="{href}">{n}</a>' if n else "0"  # noqa: E731
    specs = specs_of(d)
    for b in brokers:
        own, alike, known = split_failing(fails.get(b, []))
        # each spec's changes into its own latest run: a companion's runs are not its base's
        mine = [c for c in d["changes"] if column_of(c) == b and c.get("to_run_id") == _latest_run(c["broker"], d)]
        regs, fixes = (sum(1 for c in mine if c["kind"] == k) for k in ("regression", "fix"))
        bad = [r for r in _runs_of(d["runs"], specs.get(b) or {b}) if r.get("complete") is not True]
        word = verdict_word(len(own), len(alike), regs, len(bad))
        overall = next((s for s in d["scores"] if s["broker"] == b and s["scope"] == "overall"), {})
        s = slug(b)
        out.append(f'<tr data-broker="{_e(b)}" data-verdict="{word}" data-own="{len(own)}" data-alike="{len(alike)}" '
                   f'data-known="{len(known)}" data-regressions="{regs}" data-fixes="{fixes}" data-incomplete="{len(bad)}">'
                   f'<th><a href="#broker-{s}">{_e(b)}</a></th><td class="word w-{word}">{word}</td>'
                   f'<td>{link(len(own), f"#own-{s}")}</td><td>{link(len(alike), f"#alike-{s}")}</td>'
                   f'<td>{link(len(known), f"#known-{s}")}</td>'
                   f'<td>{link(regs, "#changes-sec")} / {link(fixes, "#changes-sec")}</td>'
                   f'<td>{link(len(bad), "#runs-sec")}</td><td class="score">{pct(overall.get("score"))}</td></tr>')
    out.append("</tbody></table></section>")
    return "".join(out)


def known_section(failures: list[dict], known: dict) -> str:
    """Known deviations as triage data: each entry seen, what it is, its evidence, and the
    cells its rows stand for."""
    seen = defaultdict(list)
    for f in failures:
        if f.get("known"):
            seen[f["known"]].append(f)
    out = ['<section id="known-sec"><h2>Known deviations of Apache Kafka</h2><p class="muted">Failing cells whose '
           "row is a reviewed defect of Kafka (reference/kafka_known_deviations.json): labelled on their cell, not "
           "counted as findings of the build.</p>"]
    if not seen:
        out.append('<p class="muted">None.</p>')
    for k in sorted(seen):
        doc = known.get(k, {})
        cells = "".join(f'<li><a href="#{detail_id(f)}">'
                        f'{_e(f["broker"])} {_e(api_label(f))} v{_e(f.get("api_version"))} {_e(f["property"])}</a></li>'
                        for f in seen[k])
        out.append(f'<div class="known-entry" id="known-entry-{slug(k)}" data-entry="{_e(k)}"><h3><code>{_e(k)}</code></h3>'
                   f'<p>{_e(doc.get("title"))}</p><p class="muted">Releases {_e(doc.get("releases"))}'
                   f'{"; mode " + _e(doc["modes"]) if doc.get("modes") else ""}; evidence: {_e(doc.get("evidence"))}</p>'
                   f"<ul>{cells}</ul></div>")
    out.append("</section>")
    return "".join(out)




APPLICABLE = ("pass", "partial", "fail")
PASSING = ("pass", "partial")


def family(prop: str) -> str:
    """A property's family: the letters of its id (``P`` of P1, ``S`` of S3)."""
    return prop.rstrip("0123456789") or prop


def family_section(brokers: list[str], matrix: list[dict]) -> str:
    """Family x broker: the share of applicable cells (latest state pass, partial or fail)
    that pass, as the scores count them; and per family the interop score: of the cells
    (API, version, property) every broker of the page asked applicably, the share passing
    on all of them."""
    by = defaultdict(dict)                   # (family, broker) -> {cell: state}
    for r in matrix:
        by[(family(r["property"]), r["broker"])][(r.get("api_key"), r.get("api_version"), r["property"])] = \
            r["latest_outcome"]
    families = sorted({f for f, _ in by}, key=prop_key)
    out = ['<section id="families-sec"><h2>Families across brokers</h2><p class="muted">Share of each family\'s '
           "applicable cells that pass, per broker (click for its heatmap); <b>every broker</b>: of the cells "
           "asked applicably on every broker, the share passing on all of them.</p>"
           '<table id="families"><thead><tr><th>family</th>'
           + "".join(f"<th>{_e(b)}</th>" for b in brokers) + "<th>every broker</th></tr></thead><tbody>"]
    for f in families:
        out.append(f'<tr data-family="{_e(f)}"><th>{_e(f)}</th>')
        for b in brokers:
            states = by.get((f, b), {})
            applicable = [s for s in states.values() if s in APPLICABLE]
            passing = sum(1 for s in applicable if s in PASSING)
            out.append(_share(f'#broker-{slug(b)}', b, passing, len(applicable), len(states)))
        common = set.intersection(*[{c for c, s in by.get((f, b), {}).items() if s in APPLICABLE} for b in brokers]) \
            if brokers else set()
        everywhere = sum(1 for c in common if all(by[(f, b)][c] in PASSING for b in brokers))
        out.append(_share(None, "every broker", everywhere, len(common), len(common)))
        out.append("</tr>")
    out.append("</tbody></table></section>")
    return "".join(out)


def _share(href: str | None, who: str, passing: int, applicable: int, cells: int) -> str:
    score = passing / applicable if applicable else None
    text = pct(score) + f' <span class="muted">({passing}/{applicable})</span>'
    bar = ('<div class="bar na"></div>' if score is None else
           f'<div class="bar"><i style="width:{round(100 * score)}%"></i></div>')
    link = f'<a href="{href}">{text}</a>' if href and cells else text
    return (f'<td class="score{" na" if score is None else ""}" data-broker="{_e(who)}" data-passing="{passing}" '
            f'data-applicable="{applicable}" title="{passing} of {applicable} applicable cells pass; {cells} cells">'
            f"{link}{bar}</td>")


#: runs a family's history shows per broker (the newest)
FAMILY_RUNS = 8


def family_history(broker: str, points: list[dict]) -> str:
    """Per family of the broker (its column), its score in each of its last runs that asked it,
    oldest first; a point's tooltip names the run and the spec that answered."""
    mine = defaultdict(list)
    for h in points:
        if column_of(h) == broker:
            mine[h["family"]].append(h)
    if not mine:
        return ""
    out = [f'<table class="family-history" data-broker="{_e(broker)}"><thead><tr><th>family</th>'
           f'<th colspan="{FAMILY_RUNS}">score in its last runs, oldest first</th></tr></thead><tbody>']
    for fam in sorted(mine, key=prop_key):
        runs = sorted(mine[fam], key=lambda h: (str(h.get("run_start")), str(h["run_id"])))[-FAMILY_RUNS:]
        out.append(f'<tr data-family="{_e(fam)}"><th>{_e(fam)}</th>' + "".join(
            f'<td class="score{" na" if h.get("score") is None else ""}" data-run="{_e(h["run_id"])}" '
            f'data-score="{_e(h.get("score"))}" title="run {_e(h["run_id"])} ({_e(h["broker"])}, {_e(h.get("run_start"))}): '
            f'{h.get("passing")} of {h.get("applicable")} applicable cells pass">{pct(h.get("score"))}</td>'
            for h in runs) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)
