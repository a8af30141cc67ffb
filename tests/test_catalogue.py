"""docs/properties.md is what the markers say (regenerate with ``python -m conformance.catalogue --write``)."""
from __future__ import annotations

from conformance import catalogue


def test_docs_properties_md_is_generated_from_the_markers():
    assert catalogue.OUT.read_text(encoding="utf-8") == catalogue.render(), (
        "docs/properties.md is stale: run python -m conformance.catalogue --write")


def test_every_property_test_has_a_row_and_a_description():
    rows = catalogue.rows()
    ids = {r[0] for r in rows}
    assert {"P1", "P5", "V1", "D1", "R1", "C1", "T1", "S1", "A1", "K1"} <= ids, ids
    assert all(r[3] for r in rows), [r[2] for r in rows if not r[3]]


def test_a_reproducers_what_it_checks_is_the_catalogues():
    """REPORT.md's "what it checks" line (fixtures/repro/export.py) is the catalogue's column
    for that test, read from the property modules themselves: the installed wheel carries them
    but not docs/properties.md (tests/test_package.py checks it there)."""
    from fixtures.repro import export
    rows = catalogue.rows()
    seen = export.what_each_test_checks()
    assert {t: w.replace("\\|", "|") for _, _, t, w in rows} == {t: seen.get(t) for _, _, t, _ in rows}
    assert export._what_it_checks(None) is None and export._what_it_checks("test_no_such_property") is None
