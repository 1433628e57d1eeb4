"""Headless Chromium driven over the DevTools protocol on a local pipe (no port, no network).

:func:`chromium_binary` finds Debian's ``chromium`` (or ``MEMORY_TEST_CHROMIUM``); a test
without it skips locally and fails under ``CI=true``, like the PostgreSQL tests.
:class:`Browser` starts ``chromium --headless --remote-debugging-pipe``: the protocol's JSON
messages, each ended by a NUL byte, are written to the child's fd 3 and read from its fd 4.
:meth:`Browser.load` opens a file and returns what a person's browser would have reported:
console messages, uncaught exceptions, log entries (CSP violations, failed loads) and every
URL the page requested.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest

CHROMIUM_ENV = "MEMORY_TEST_CHROMIUM"
"""An explicit Chromium binary; by default ``chromium`` (Debian) or ``chromium-browser``."""


def chromium_binary() -> str:
    """The Chromium binary; skips the test when absent, fails it instead when CI=true."""
    explicit = os.environ.get(CHROMIUM_ENV)
    found = explicit or shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    message = (
        f"headless Chromium not found; install Debian's chromium (apt-get install chromium) "
        f"or set {CHROMIUM_ENV}"
    )
    if os.environ.get("CI", "").lower() in ("true", "1"):
        pytest.fail(f"CI requires Chromium: {message}", pytrace=False)
    pytest.skip(message)


class DevToolsError(RuntimeError):
    """The browser answered a command with an error, closed the pipe, or timed out."""


@dataclass
class PageLoad:
    """What loading one page produced in the browser."""

    console: list[dict[str, Any]] = field(default_factory=list)
    """``Runtime.consoleAPICalled`` events (every type)."""
    exceptions: list[dict[str, Any]] = field(default_factory=list)
    """``Runtime.exceptionThrown`` events."""
    log: list[dict[str, Any]] = field(default_factory=list)
    """``Log.entryAdded`` entries (CSP violations and failed loads arrive here)."""
    requests: list[str] = field(default_factory=list)
    """Every URL the page requested (``Network.requestWillBeSent``)."""

    def errors(self) -> list[str]:
        """Every console error or warning, uncaught exception and error or warning log entry."""
        found = [
            f"console.{event['type']}: {event.get('args')}"
            for event in self.console
            if event.get("type") in ("error", "warning", "assert")
        ]
        found += [f"exception: {event.get('exceptionDetails')}" for event in self.exceptions]
        found += [
            f"log {entry.get('level')}: {entry.get('text')} ({entry.get('url', '')})"
            for entry in self.log
            if entry.get("level") in ("error", "warning")
        ]
        return found


class Browser:
    """A headless Chromium speaking the DevTools protocol over a pipe; a context manager."""

    def __init__(self, binary: str, *, timeout: float = 30.0) -> None:
        self._binary = binary
        self._timeout = timeout
        self._next_id = 0
        self._buffer = b""
        self._events: list[dict[str, Any]] = []
        self._profile = tempfile.TemporaryDirectory(prefix="report-chromium-")

    def __enter__(self) -> Browser:
        to_child_read, self._to_child = os.pipe()
        self._from_child, from_child_write = os.pipe()

        def wire() -> None:  # in the child, before exec: the protocol's fds 3 and 4
            os.dup2(to_child_read, 3)
            os.dup2(from_child_write, 4)

        self._process = subprocess.Popen(
            [
                self._binary,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--remote-debugging-pipe",
                f"--user-data-dir={self._profile.name}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,
            pass_fds=(3, 4),
        )
        os.close(to_child_read)
        os.close(from_child_write)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        with contextlib.suppress(DevToolsError, OSError):
            self._send("Browser.close")
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        os.close(self._to_child)
        os.close(self._from_child)
        self._profile.cleanup()

    def _send(self, method: str, session: str | None = None, **params: Any) -> int:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        return self._next_id

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise DevToolsError("timed out waiting for the browser")
            ready, _, _ = select.select([self._from_child], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._from_child, 1 << 16)
            if not chunk:
                raise DevToolsError("the browser closed the DevTools pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        """Send a command and return its result; events read meanwhile are kept."""
        wanted = self._send(method, session, **params)
        deadline = time.monotonic() + self._timeout
        while True:
            message = self._read(deadline)
            if message.get("id") == wanted:
                if "error" in message:
                    raise DevToolsError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result
            if "method" in message:
                self._events.append(message)

    def _wait_for(self, method: str, session: str) -> None:
        deadline = time.monotonic() + self._timeout
        while True:
            for event in self._events:
                if event.get("method") == method and event.get("sessionId") == session:
                    return
            self._events.append(self._read(deadline))

    def load(self, path: Path, *, width: int = 820) -> tuple[str, PageLoad]:
        """Open ``path`` in a new tab ``width`` CSS pixels wide and wait for its load event.

        Returns:
            The tab's session id (for :meth:`evaluate` and :meth:`screenshot`) and what
            loading produced.
        """
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Runtime.enable", "Log.enable", "Page.enable", "Network.enable"):
            self.call(domain, session)
        self.call(
            "Emulation.setDeviceMetricsOverride",
            session,
            width=width,
            height=900,
            deviceScaleFactor=1,
            mobile=False,
        )
        self.call("Page.navigate", session, url=path.resolve().as_uri())
        self._wait_for("Page.loadEventFired", session)
        # One round trip more, so events the load queued are read before they are sorted.
        self.call("Runtime.evaluate", session, expression="1", returnByValue=True)
        load = PageLoad()
        for event in self._events:
            if event.get("sessionId") != session:
                continue
            params = event.get("params", {})
            method = event.get("method")
            if method == "Runtime.consoleAPICalled":
                load.console.append(params)
            elif method == "Runtime.exceptionThrown":
                load.exceptions.append(params)
            elif method == "Log.entryAdded":
                load.log.append(params.get("entry", {}))
            elif method == "Network.requestWillBeSent":
                load.requests.append(params.get("request", {}).get("url", ""))
        return session, load

    def evaluate(self, session: str, expression: str) -> Any:
        """The value of ``expression`` in the tab (returned by value)."""
        result = self.call("Runtime.evaluate", session, expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise DevToolsError(f"evaluate: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, session: str, *, max_height: int | None = None) -> bytes:
        """A PNG of the whole page (cut at ``max_height`` CSS pixels when given)."""
        size = self.call("Page.getLayoutMetrics", session)["cssContentSize"]
        height = size["height"] if max_height is None else min(size["height"], max_height)
        shot = self.call(
            "Page.captureScreenshot",
            session,
            format="png",
            captureBeyondViewport=True,
            clip={"x": 0, "y": 0, "width": size["width"], "height": height, "scale": 1},
        )
        return base64.b64decode(shot["data"])


__all__ = ["Browser", "DevToolsError", "PageLoad", "chromium_binary"]
