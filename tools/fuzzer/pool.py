"""The parent's side of a fuzz worker: start it, send it cases, notice
when it dies (``crash``) or runs past the time limit (``hang``), and start
a fresh one.

A worker runs many cases in a row (refinfer is imported once, compiled
kernels stay loaded); it is restarted after a crash, a hang or a
``memory`` outcome, whose process may be left in a poor state, and once
its address space passes half its limit: the limit is meant for one case,
and a long run's compiled kernels and allocator arenas add up (a worker of
campaign seed 44 held 4 GiB after 18,500 cases, when a case's 88 MB of
inputs no longer fitted).
"""
from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "worker.py")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(WORKER)))
MEMORY_LIMIT = 4 << 30
START_TIMEOUT = 120.0           # importing refinfer and Numba, on a busy machine
KILL_GRACE = 5.0                # after the time limit, for faulthandler's dump
COMPILE_ALLOWANCE = 600.0       # one Numba compile, however busy the machine
FRAME = re.compile(r'File "([^"]+)", line \d+ in (\S+)')


class Worker:
    """One worker process; ``run`` returns a result dict for a request."""

    def __init__(self, memory_limit: int = MEMORY_LIMIT):
        self.memory_limit = memory_limit
        self.process: subprocess.Popen | None = None
        self.log = tempfile.TemporaryFile()
        self.buffer = b""

    def run(self, request: dict) -> dict:
        if self.process is None:
            self._start()
        stage = "build"
        self.process.stdin.write((json.dumps(request) + "\n").encode())
        self.process.stdin.flush()
        deadline = time.monotonic() + request["timeout"] + KILL_GRACE
        while True:
            message = self._read_line(deadline)
            if message is None:
                return self._lost(stage)
            if "compiling" in message:
                deadline = time.monotonic() + (COMPILE_ALLOWANCE if message["compiling"]
                                               else request["timeout"] + KILL_GRACE)
            if "outcome" not in message:
                stage = message.get("stage", stage)
                continue
            if message["outcome"] == "memory" or self.memory_limit and \
                    message.get("address_space", 0) > self.memory_limit // 2:
                self.stop()
            return message

    def stop(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            self.process.stdin.close()
            self.process.stdout.close()
            self.process = None

    def _start(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (ROOT, env.get("PYTHONPATH")) if p)
        self.log.seek(0)
        self.log.truncate()
        self.buffer = b""
        self.process = subprocess.Popen(
            [sys.executable, WORKER, str(self.memory_limit)], cwd=ROOT, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log)
        if self._read_line(time.monotonic() + START_TIMEOUT) is None:
            raise RuntimeError("the fuzz worker did not start:\n" + self._log_tail())

    def _read_line(self, deadline: float) -> dict | None:
        """The next JSON line of the worker; None if it died or the
        deadline passed (then it is killed)."""
        out = self.process.stdout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([out], [], [], left)[0]:
                self.process.kill()
                return None
            chunk = os.read(out.fileno(), 1 << 16)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def _lost(self, stage: str) -> dict:
        """The result of a case whose worker died or was killed. A hang is
        named by its stage alone (and whether its stack was deep): where a
        loop was when time ran out is chance."""
        self.process.wait()
        code = self.process.returncode
        log = self._log_tail()
        self.stop()
        if "Timeout (" in log or code == -signal.SIGKILL:
            outcome, signature = "hang", f"hang:{stage}"
            if "\n  ...\n" in log:     # faulthandler's mark of a stack cut at 100
                signature += " (deep stack)"
            error = f"no answer within the time limit ({stage})"
        else:
            outcome = "memory" if "MemoryError" in log or "bad_alloc" in log \
                else "crash"
            name = signal.Signals(-code).name if code < 0 else f"exit {code}"
            signature = f"{outcome}:{name}@{_innermost_frame(log)}"
            error = (log.strip().splitlines() or [f"exit status {code}"])[-1][:300]
        return {"outcome": outcome, "signature": signature, "stage": stage,
                "error": error, "traceback": log}

    def _log_tail(self, size: int = 20000) -> str:
        self.log.seek(0, os.SEEK_END)
        end = self.log.tell()
        self.log.seek(max(0, end - size))
        return self.log.read().decode(errors="replace")


def _innermost_frame(log: str) -> str:
    """The innermost refinfer frame of the first stack faulthandler dumped
    (its stacks list the most recent call first)."""
    start = max(log.rfind("Timeout ("), log.rfind("Fatal Python error"), 0)
    for filename, function in FRAME.findall(log[start:]):
        if f"{os.sep}refinfer{os.sep}" in filename:
            return "refinfer/" + filename.rsplit(f"{os.sep}refinfer{os.sep}", 1)[1] \
                + f":{function}"
    return "?"
