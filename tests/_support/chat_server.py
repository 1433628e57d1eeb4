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

A request with ``"stream": true`` gets its 200 reply as server-sent events, the way
llama-server and OpenAI stream: a role delta, the content a word per chunk (tool calls as a
name chunk and argument fragments), the finish reason, then, only when the request asked for
``stream_options.include_usage`` and the reply carries usage, a usage-only chunk, and
``data: [DONE]``. ``Reply.chunk_delay_seconds`` paces the chunks, so a generation can outlast a
client's read timeout while every gap between chunks stays inside it; the same reply asked for
without streaming arrives whole after the sum of those gaps.
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
    chunk_delay_seconds: float = 0.0
    headers: tuple[tuple[str, str], ...] = ()


def reply_text(
    content: str,
    *,
    prompt_tokens: int = 100,
    completion_tokens: int = 10,
    model: str = "gpt-4o-mini",
    finish_reason: str = "stop",
    usage: bool = True,
    chunk_delay_seconds: float = 0.0,
) -> Reply:
    """A successful reply carrying final text (``usage=False`` leaves the usage object out, as
    some servers do; ``finish_reason="length"`` is a reply cut at ``max_tokens``)."""
    body: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish_reason,
            }
        ],
    }
    if usage:
        body["usage"] = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}
    return Reply(body=body, chunk_delay_seconds=chunk_delay_seconds)


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


def sse_events(body: dict[str, Any], payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The chunks a streaming server sends for the non-streamed reply ``body``."""
    choice = body["choices"][0]
    message = choice.get("message") or {}
    base = {"id": body.get("id", "chatcmpl-test"), "object": "chat.completion.chunk"}
    base["model"] = body.get("model", "")

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    events = [chunk({"role": "assistant", "content": ""})]
    content = message.get("content")
    if content:
        words = content.split(" ")
        events += [chunk({"content": w if i == 0 else " " + w}) for i, w in enumerate(words)]
    for index, call in enumerate(message.get("tool_calls") or ()):
        arguments = call["function"].get("arguments") or ""
        half = len(arguments) // 2
        head = {"index": index, "id": call["id"], "type": "function"}
        head["function"] = {"name": call["function"]["name"], "arguments": arguments[:half]}
        events.append(chunk({"tool_calls": [head]}))
        tail = {"index": index, "function": {"arguments": arguments[half:]}}
        events.append(chunk({"tool_calls": [tail]}))
    events.append(chunk({}, choice.get("finish_reason")))
    wants_usage = bool((payload.get("stream_options") or {}).get("include_usage"))
    if wants_usage and "usage" in body:
        events.append({**base, "choices": [], "usage": body["usage"]})
    return events


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
                streamable = reply.status == 200 and isinstance(reply.body, dict)
                if payload.get("stream") and streamable and reply.raw is None:
                    self._stream(reply, payload)
                    return
                if reply.chunk_delay_seconds and streamable:
                    # a non-streamed reply arrives once the whole generation is done
                    time.sleep(reply.chunk_delay_seconds * len(sse_events(reply.body, payload)))
                data = (reply.raw if reply.raw is not None else json.dumps(reply.body)).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in reply.headers:
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    return

            def _stream(self, reply: Reply, payload: dict[str, Any]) -> None:
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    for event in sse_events(reply.body, payload):
                        if reply.chunk_delay_seconds:
                            time.sleep(reply.chunk_delay_seconds)
                        self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                        self.wfile.flush()
                    self.wfile.write(b"data: [DONE]\n\n")
                    self.wfile.flush()
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
