"""The dashboard's small pieces of markup, shared by its page (html.py) and the overview at
its top (overview.py): ids, labels, figures and escaping."""
from __future__ import annotations

import re
from html import escape

GROUPS = "PVDRCTSK"
MARK = {"pass": "✓", "partial": "◐", "fail": "✗", "error": "!", "unsupported": "–", "skip": "·"}

def slug(text) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "_", str(text)).strip("_") or "x"


def cell_id(broker, api_key, version, prop) -> str:
    return "-".join(slug(x) for x in (broker, "na" if api_key is None else api_key,
                                      "na" if version is None else version, prop))


def prop_key(p: str):
    m = re.match(r"([A-Za-z]*)(\d*)", p)
    letters, digits = m.group(1), m.group(2)
    return (GROUPS.find(letters[:1]) % 100 if letters else 99, letters, int(digits or 0), p)


def api_label(r: dict) -> str:
    if r.get("api_key") is None:
        return "(whole broker)"
    return f"{r.get('api_name') or 'api'} ({r['api_key']})"


def pct(x) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def esc(x) -> str:
    return "" if x is None else escape(str(x))




def column_of(r: dict) -> str:
    """The broker a row of a table answers for (reports/tables.py ``with_columns``): a Kafka
    release for its companions, else its own broker spec."""
    return r.get("column") or r["broker"]


def detail_id(f: dict) -> str:
    """The id of a failing cell's details: its column's cell, and the spec that asked it when
    that is another (a companion's failure in its release's column)."""
    cid = "fail-" + cell_id(column_of(f), f.get("api_key"), f.get("api_version"), f["property"])
    return cid if column_of(f) == f["broker"] else f"{cid}-as-{slug(f['broker'])}"
