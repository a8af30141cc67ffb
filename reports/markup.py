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


