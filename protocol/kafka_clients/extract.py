"""Write the vendored message schemas again from a ``kafka-clients`` jar.

    python -m protocol.kafka_clients.extract PATH/kafka-clients-4.4.0.jar [--names A,B]

Copies ``common/message/<Name>Request.json`` and ``<Name>Response.json`` of every API named
in ``manifest.json`` (``--names`` adds APIs) byte for byte next to this module and records the
jar's name, SHA-256 and Maven coordinates (read from the jar's ``META-INF/maven`` properties
when present, else from its file name) in the manifest. The jar of a release is on Maven
Central as ``org.apache.kafka:kafka-clients:VERSION``; the suite's own resolution
(``fixtures.brokers.kafka.resolve_release``) caches it under ``~/.cache/kafka-admin-conformance``.
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PATH_IN_JAR = "common/message/"


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def coordinates(jar: Path) -> str:
    """``org.apache.kafka:kafka-clients:VERSION`` of the jar (its file name says the version)."""
    m = re.fullmatch(r"(kafka-clients)-(\d+\.\d+\.\d+)\.jar", jar.name)
    if not m:
        raise ValueError(f"{jar.name} is not a kafka-clients-X.Y.Z.jar")
    return f"org.apache.kafka:{m.group(1)}:{m.group(2)}"


def read(jar: Path, files: list[str]) -> dict[str, bytes]:
    """{file name: its bytes} of ``common/message/<file>`` in ``jar``."""
    with zipfile.ZipFile(jar) as z:
        present = set(z.namelist())
        missing = [f for f in files if PATH_IN_JAR + f not in present]
        if missing:
            raise ValueError(f"{jar.name} has no {', '.join(missing)} under {PATH_IN_JAR}")
        return {f: z.read(PATH_IN_JAR + f) for f in files}


def file_names(api_names) -> list[str]:
    return sorted(f"{n}{side}.json" for n in api_names for side in ("Request", "Response"))


def extract(jar: Path, out: Path = HERE, names=()) -> dict:
    """Write the files and the manifest; returns the manifest."""
    current = json.loads((out / "manifest.json").read_text()) if (out / "manifest.json").exists() else {}
    apis = sorted({f.removesuffix("Request.json") for f in current.get("files", []) if f.endswith("Request.json")}
                  | set(names))
    files = file_names(apis)
    for name, data in read(jar, files).items():
        (out / name).write_bytes(data)
    manifest = {"maven": coordinates(jar), "jar": jar.name, "sha256": sha256(jar), "path": PATH_IN_JAR,
                "license": "Apache-2.0 (the files keep Kafka's license header)", "files": files}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0].startswith("-"):
        sys.stderr.write("usage: python -m protocol.kafka_clients.extract PATH/kafka-clients-X.Y.Z.jar [--names A,B]\n")
        return 2
    jar = Path(argv[0])
    names = argv[argv.index("--names") + 1].split(",") if "--names" in argv else ()
    try:
        m = extract(jar, HERE, names)
    except (OSError, ValueError, zipfile.BadZipFile) as exc:
        sys.stderr.write(f"ERROR: {exc}\n")
        return 1
    print(f"{len(m['files'])} files from {m['maven']} (sha256 {m['sha256']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
