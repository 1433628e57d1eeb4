"""A real chat-completions HTTP server on 127.0.0.1 for tests: scripted replies and failures.

Usage::

    with ChatServer() as server:
        server.enqueue(reply_text("Portland", prompt_tokens=120, completion_tokens=3))
        server.enqueue(reply_error(429))
        model = OpenAICompatibleModel(model="gpt-4o-mini", base_url=server.base_url)

When the queue is empty the server repeats ``default`` (a reply) or answers 500. A server given
a ``responder`` (a callable from the request's JSON payload to a reply) answers from it whenever
the queue is empty, so a test can still inject scripted failures ahead of a content-aware model::

    server = ChatServer(responder=lambda payload: reply_text(answer_from(payload["messages"])))
    server.enqueue(reply_error(429))        # the first request fails, later ones are answered
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True, kw_only=True)
class Reply:
    """One scripted HTTP reply."""

    status: int = 200
    body: Any = None
    raw: str | None = None
    delay_seconds: float = 0.0


def reply_text(
    content: str,
    *,
    prompt_tokens: int = 100,
    completion_tokens: int = 10,
    model: str = "gpt-4o-mini",
) -> Reply:
    """A successful reply carrying final text."""
    return Reply(
        body={
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
        }
    )


def reply_tool_call(
    name: str,
    arguments: dict[str, Any],
    *,
    call_id: str = "call_1",
    prompt_tokens: int = 100,
    completion_tokens: int = 10,
    model: str = "gpt-4o-mini",
) -> Reply:
    """A successful reply asking for one tool call (``name`` as it appears on the wire)."""
    return Reply(
        body={
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": call_id,
                                "type": "function",
                                "function": {"name": name, "arguments": json.dumps(arguments)},
                            }
                        ],
                    },
                    "finish_reason": "tool_calls",
                }
            ],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
        }
    )


def reply_error(status: int, message: str = "scripted failure") -> Reply:
    """An HTTP error reply with an OpenAI-style error body."""
    return Reply(status=status, body={"error": {"message": message, "type": "test"}})


def reply_stall(seconds: float) -> Reply:
    """A reply delayed past a client's timeout (then a 200 nobody reads)."""
    return Reply(status=200, body=reply_text("late").body, delay_seconds=seconds)


@dataclass
class ChatServer:
    """Threaded HTTP server answering ``POST /chat/completions`` (and ``/v1/...``) from a queue."""

    default: Reply | None = None
    responder: Callable[[dict[str, Any]], Reply] | None = None
    requests: list[dict[str, Any]] = field(default_factory=list)
    _queue: deque[Reply] = field(default_factory=deque)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def enqueue(self, *replies: Reply) -> None:
        """Append replies to the script."""
        with self._lock:
            self._queue.extend(replies)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``."""
        assert self._server is not None, "server not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def _next(self) -> Reply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        return self.default if self.default is not None else reply_error(500, "script empty")

    def _answer(self, payload: dict[str, Any]) -> Reply:
        """The reply to ``payload``: queued replies first, then the responder (when set)."""
        if self.responder is None:
            return self._next()
        with self._lock:
            queued = self._queue.popleft() if self._queue else None
        return queued if queued is not None else self.responder(payload)

    def start(self) -> ChatServer:
        """Bind to an ephemeral port on 127.0.0.1 and serve in a daemon thread."""
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                payload = json.loads(self.rfile.read(length) or b"{}")
                with owner._lock:
                    owner.requests.append(payload)
                if not self.path.endswith("/chat/completions"):
                    self.send_response(404)
                    self.end_headers()
                    return
                reply = owner._answer(payload)
                if reply.delay_seconds:
                    time.sleep(reply.delay_seconds)
                data = (reply.raw if reply.raw is not None else json.dumps(reply.body)).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        ).start()
        return self

    def stop(self) -> None:
        """Shut the server down."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> ChatServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
