"""Warm starts for the mutation score's many short runs: a fork server.

A score starts about 190 processes over a CI run's test_proxy.py alone (every mutant's run,
its baselines, the confirmations, the replays), each a fresh interpreter that imported
pytest, hypothesis, kafka-python's codec and the suite's lower layers before it asked
anything: about 1 CPU s of a noida mutant run's 4 (``python -c "import fixtures.plugin"``
alone is 0.85 s on the standard machine). The server imports them once and forks a child
per run, as multiprocessing's ``forkserver`` does. Each run is still a process of its own:
its own session (``stop_runs`` signals its group as before), environment, working folder,
output file and brokers; only the imports are shared, copied at the fork.

    python -m faults.forkserver        (started by :func:`popen`, never by hand)

Requests come one JSON line each on stdin (``argv`` after ``python``: ``["-m", MODULE, ...]``,
``env``, ``cwd``, ``out``: the file that takes the run's stdout and stderr); the server
answers on its stdout ``{"id", "pid"}`` right after the fork and ``{"pid", "code", "cpu_s"}``
when the child exits (``code`` as ``subprocess`` gives it: negative for a signal). It exits when its
stdin closes (the scoring process ended or was killed outright); a run still under way then
gets SIGTERM (its parent-death signal), stops its brokers and leaves an incomplete run. (A
forked run shows the server's command line in ``ps``: ``python -m faults.forkserver``.)

pytest rewrites the asserts of every module of a distribution that registers a pytest
plugin (this suite's packages, hypothesis) as it imports them; the server imports them
through pytest's own rewriting import hook, marked as a run marks them, so a forked run holds
the same rewritten modules a fresh one would (and pytest has nothing to warn about). Test
modules and conftest files are left to each run. A run whose environment differs from the
server's in a ``PYTHON*`` variable (which an interpreter reads only at its start) runs as a
plain subprocess, and so does every run when ``KAC_FORKSERVER=0`` or where the server
cannot start.
"""
from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: imported once by the server: what every run imports before it asks anything (the suite's
#: plugins and their imports); test modules and conftest files are left to each run
PRELOAD = ("pytest", "hypothesis", "hypothesis.strategies", "conformance.entry", "fixtures.plugin",
           "fixtures.traffic", "conformance.overlays", "fixtures.matrix", "fixtures.tidy",
           "faults.proxy", "faults.stop_at_kill")


#: SIGINT as the server process found it at its start (before it ignores it itself)
_INHERITED_SIGINT = signal.getsignal(signal.SIGINT)


def enabled() -> bool:
    return os.environ.get("KAC_FORKSERVER", "1") != "0"


# -- the server --------------------------------------------------------------------------
def _end_with_the_server(server: int) -> None:
    """SIGTERM when the server ends (a parent-death signal): it ends when the scoring process
    is gone, killed outright, and then a run under way stops its brokers (the suite's SIGTERM
    handler, fixtures/brokers/cleanup.py) and its results say it is incomplete."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != server:      # the server ended before the signal was asked for
        os.kill(os.getpid(), signal.SIGTERM)


def _child(request: dict, reply_fd: int, started_fd: int, server: int) -> None:
    """In the forked child: become the run ``request`` names; ends the process (SystemExit
    through :func:`serve`, which the child leaves at once)."""
    code = 1
    try:
        os.close(reply_fd)
        os.setsid()
        os.write(started_fd, b"s")
        os.close(started_fd)
        # as a fresh interpreter has them: SIGINT as this server found it (KeyboardInterrupt,
        # or ignored when the scoring process was started with it ignored), SIGPIPE ignored
        signal.signal(signal.SIGINT, _INHERITED_SIGINT)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        _end_with_the_server(server)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        out = os.open(request["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(null)
        os.close(out)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        import tempfile
        tempfile.tempdir = None            # read TMPDIR again, from this run's environment
        argv = list(request["argv"])
        if argv[:1] != ["-m"] or len(argv) < 2:
            raise ValueError(f"not a -m MODULE command: {argv}")
        import runpy
        sys.argv = [argv[1], *argv[2:]]
        sys.path[0] = request["cwd"]
        try:
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as exc:
            if exc.code is None:
                code = 0
            elif isinstance(exc.code, int):
                code = exc.code
            else:
                print(exc.code, file=sys.stderr)
                code = 1
    except BaseException:
        import traceback
        traceback.print_exc()
        code = 1
    # leave as an interpreter does at its end, so that what a run left to its exit runs: its
    # non-daemon threads are joined and its atexit handlers run (fixtures/brokers/cleanup.py
    # stops the brokers still registered there), then the streams are flushed
    raise SystemExit(code)


def _preload() -> None:
    """Import :data:`PRELOAD` as a pytest run would: through its assertion-rewriting import
    hook, with the modules of pytest-plugin distributions marked for rewriting
    (``_pytest/config/__init__.py`` ``_mark_plugins_for_rewrite``)."""
    import importlib.metadata

    from _pytest.assertion import install_importhook
    from _pytest.config import _iter_rewritable_modules, get_config
    names: set[str] = set()
    for dist in importlib.metadata.distributions():
        if any(ep.group == "pytest11" for ep in dist.entry_points):
            names.update(_iter_rewritable_modules([str(f) for f in dist.files or ()]))
    for name in [m for m in sys.modules if m.split(".")[0] in names]:
        del sys.modules[name]         # this package, imported to run the server: again, rewritten
    hook = install_importhook(get_config())
    hook.mark_rewrite(*names)
    try:
        for name in PRELOAD:
            __import__(name)
    finally:
        sys.meta_path.remove(hook)


def serve() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # the scoring process decides about Ctrl-C
    reply_fd = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)                                  # nothing the server prints reaches the replies
    os.close(null)

    def reply(obj: dict) -> None:
        os.write(reply_fd, (json.dumps(obj) + "\n").encode())

    try:
        _preload()
    except Exception as exc:          # a pytest whose internals moved: the runs go cold
        reply({"ready": False, "why": f"{type(exc).__name__}: {exc}"})
        return
    reply({"ready": True})
    server = os.getpid()
    buffer = b""
    children = 0
    while True:
        ready, _, _ = select.select([0], [], [], 0.05 if children else 1.0)
        if ready:
            chunk = os.read(0, 65536)
            if not chunk:
                return                                # the scoring process is gone
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                if not line.strip():
                    continue
                request = json.loads(line)
                started_r, started_w = os.pipe()
                pid = os.fork()
                if pid == 0:
                    os.close(started_r)
                    _child(request, reply_fd, started_w, server)
                os.close(started_w)
                os.read(started_r, 1)             # its own session first: then a group to signal
                os.close(started_r)
                children += 1
                reply({"id": request["id"], "pid": pid})
        while children:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                children = 0
                break
            if pid == 0:
                break
            children -= 1
            reply({"pid": pid, "code": os.waitstatus_to_exitcode(status),
                   "cpu_s": usage.ru_utime + usage.ru_stime})


# -- the client ----------------------------------------------------------------------------
def _take_output(out: Path) -> str:
    """A finished run's output, its file removed."""
    try:
        output = out.read_text(errors="replace")
    except OSError:
        output = ""
    try:
        out.unlink()
    except OSError:
        pass
    return output


class WarmRun:
    """A run forked by the server, handled as the ``subprocess.Popen`` it replaces
    (``pid``, ``returncode``, ``communicate(timeout)`` giving its output, ``poll()``)."""

    def __init__(self, args, out: Path):
        self.args = args
        self.out = out
        self.pid: int | None = None
        self.returncode: int | None = None
        self._started = threading.Event()
        self._exited = threading.Event()

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._exited.wait(timeout):
            raise subprocess.TimeoutExpired(self.args, timeout)
        return self.returncode

    def communicate(self, timeout: float | None = None) -> tuple[str, None]:
        self.wait(timeout)
        return _take_output(self.out), None


class _Server:
    def __init__(self):
        env = dict(os.environ)
        self.env = env
        self.proc = subprocess.Popen([sys.executable, "-m", "faults.forkserver"], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if json.loads(self.proc.stdout.readline() or b"{}").get("ready") is not True:
            self.proc.kill()
            self.proc.wait()
            raise OSError("the fork server did not start")
        self.lock = threading.Lock()
        self.next_id = 0
        self.pending: dict[int, WarmRun] = {}
        self.running: dict[int, WarmRun] = {}
        self.alive = True
        threading.Thread(target=self._read, name="kac-forkserver-replies", daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            msg = json.loads(line)
            with self.lock:
                if "id" in msg:
                    run = self.pending.pop(msg["id"])
                    run.pid = msg["pid"]
                    self.running[run.pid] = run
                    run._started.set()
                elif "pid" in msg:
                    run = self.running.pop(msg["pid"], None)
                    _FORKED_CPU[0] += msg.get("cpu_s", 0.0)
                    if run is not None:
                        run.returncode = msg["code"]
                        run._exited.set()
        with self.lock:                   # the server is gone: nothing more will be told
            self.alive = False
            for run in [*self.pending.values(), *self.running.values()]:
                run.returncode = -signal.SIGKILL if run.returncode is None else run.returncode
                run._started.set()
                run._exited.set()
            self.pending.clear()
            self.running.clear()

    def start(self, cmd, env: dict, cwd: Path, out: Path) -> WarmRun:
        run = WarmRun(cmd, out)
        with self.lock:
            if not self.alive:
                raise OSError("the fork server is gone")
            self.next_id += 1
            self.pending[self.next_id] = run
            request = {"id": self.next_id, "argv": list(cmd[1:]), "env": env, "cwd": str(cwd), "out": str(out)}
            self.proc.stdin.write((json.dumps(request) + "\n").encode())
            self.proc.stdin.flush()
        run._started.wait()
        if run.pid is None:
            raise OSError("the fork server is gone")
        return run


#: CPU seconds of the forked runs that ended (with their brokers and other children)
_FORKED_CPU = [0.0]


def forked_cpu_seconds() -> float:
    """The CPU seconds of this process's forked runs that ended: they are the server's
    children, so ``RUSAGE_CHILDREN`` of this process never shows them (tests/conftest.py
    adds them to a test's CPU)."""
    return _FORKED_CPU[0]


_SERVER: _Server | None = None
_SERVER_LOCK = threading.Lock()


def _warm(cmd, env: dict) -> bool:
    """Can a forked child be this command: ``python -m MODULE`` of this interpreter, in an
    environment whose ``PYTHON*`` variables are the server's?"""
    if not enabled() or len(cmd) < 3 or cmd[0] != sys.executable or cmd[1] != "-m":
        return False
    base = _SERVER.env if _SERVER is not None else os.environ
    python = lambda e: {k: v for k, v in e.items() if k.startswith("PYTHON")}   # noqa: E731
    return python(env) == python(base)


def popen(cmd, env: dict, cwd: Path, out: Path):
    """Start ``cmd`` in a session of its own, its stdout and stderr to ``out``: forked by the
    server when it can be, else as a subprocess. A handle with ``pid``, ``returncode``,
    ``poll()`` and ``communicate(timeout)`` (the output as text)."""
    global _SERVER
    if _warm(cmd, env):
        try:
            with _SERVER_LOCK:
                if _SERVER is None or not _SERVER.alive:
                    _SERVER = _Server()
                server = _SERVER
            return server.start(cmd, env, cwd, out)
        except OSError:
            pass
    return _Cold(cmd, env, cwd, out)


class _Cold(subprocess.Popen):
    """A plain subprocess with the output handling of :class:`WarmRun`."""

    def __init__(self, cmd, env, cwd, out: Path):
        self.out = out
        with open(out, "wb") as fh:
            super().__init__(cmd, cwd=cwd, env=env, stdout=fh, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True)

    def communicate(self, input=None, timeout=None):
        self.wait(timeout)
        return _take_output(self.out), None


if __name__ == "__main__":
    serve()
