"""What the command-line entry points share: one-line errors and phase timings."""
from __future__ import annotations

import sys
import time


class ReportError(Exception):
    """Bad input the user can fix: printed as one line (no traceback), exit status 2."""


def run(main, argv=None, **kwargs) -> int:
    """Call ``main(argv)``; a ReportError becomes ``error: ...`` on stderr and status 2."""
    try:
        return main(argv, **kwargs) or 0
    except ReportError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130


class Phases:
    """Prints ``[name] phase ... 1.2s`` lines: a few per job, never per task."""

    def __init__(self, name: str, quiet: bool = False):
        self.name, self.quiet = name, quiet
        self.start = self.last = time.monotonic()

    def done(self, what: str) -> None:
        now = time.monotonic()
        if not self.quiet:
            print(f"[{self.name}] {what} ({now - self.last:.1f}s)", flush=True)
        self.last = now

    def total(self) -> float:
        return time.monotonic() - self.start
