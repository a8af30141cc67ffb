"""What the command-line entry points share: one-line errors and phase timings."""
from __future__ import annotations

import argparse
import sys
import time


class ReportError(Exception):
    """Bad input the user can fix: printed as one line (no traceback), exit status 2."""


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose refusals (an unknown option, a value of the wrong type) are
    ReportErrors: one line ``error: ...`` and exit status 2, as every other bad input, not
    argparse's usage block followed by its error line."""

    def error(self, message):
        raise ReportError(f"{message} ({self.prog} --help)")


def run(main, argv=None, **kwargs) -> int:
    """Call ``main(argv)``; a ReportError becomes ``error: ...`` on stderr and status 2."""
    try:
        return main(argv, **kwargs) or 0
    except ReportError as e:
        print("error: " + " ".join(str(e).splitlines()), file=sys.stderr)   # one line, whatever it quotes
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
