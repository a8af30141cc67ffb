"""JUnit XML (the format CI servers read): one testsuite, one testcase per compared cell."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass


@dataclass
class Case:
    classname: str
    name: str
    status: str = "passed"  # passed | failure | skipped
    message: str = ""
    text: str = ""


def write(path: str, suite: str, cases: list[Case], properties: dict | None = None) -> None:
    """``properties``: the suite's ``<properties>`` (name -> value), what a CI page shows
    about the run as a whole (the gate: which of its options let cells through)."""
    failures = sum(c.status == "failure" for c in cases)
    skipped = sum(c.status == "skipped" for c in cases)
    root = ET.Element("testsuites", name=suite, tests=str(len(cases)), failures=str(failures))
    ts = ET.SubElement(root, "testsuite", name=suite, tests=str(len(cases)), failures=str(failures),
                       errors="0", skipped=str(skipped))
    if properties:
        props = ET.SubElement(ts, "properties")
        for name, value in properties.items():
            ET.SubElement(props, "property", name=name, value=str(value))
    for c in cases:
        tc = ET.SubElement(ts, "testcase", classname=c.classname, name=c.name, time="0")
        if c.status in ("failure", "skipped"):
            el = ET.SubElement(tc, c.status, message=c.message)
            el.text = c.text or None
        elif c.text:
            ET.SubElement(tc, "system-out").text = c.text
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
