"""The chat-completions wire format: requests out, replies (whole or streamed) back in.

Pure functions and one accumulator, no I/O, so :mod:`memory_core.runtime.openai_compat` keeps
only configuration, HTTP and retries:

* :func:`wire_message`, :func:`wire_tool`, :func:`wire_tool_name` and
  :func:`wire_response_format` encode a request;
* :func:`parse_completion` decodes a non-streamed reply and :class:`StreamAccumulator` folds
  server-sent-event chunks into the same :class:`WireReply`;
* :func:`text_tool_calls` reads a tool call a model wrote as JSON text in ``content`` (for
  servers without native tool calls; the client applies it only when configured to).

Decoding raises ``ValueError``/``KeyError``/``TypeError``/``IndexError`` on a malformed reply;
the client turns those into a ``PermanentModelError``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from memory_core.base.model import (
    FinishReason,
    Message,
    ResponseFormat,
    ToolCall,
    ToolSpec,
)

StructuredOutput = Literal["json_schema", "json_object", "off"]
"""How a :class:`ResponseFormat` goes on the wire: a JSON schema, JSON mode, or not at all."""


def wire_tool_name(name: str) -> str:
    """Wire form of a tool name (``[A-Za-z0-9_-]``): dots become ``__``."""
    return name.replace(".", "__")


def wire_message(message: Message) -> dict[str, Any]:
    """One message in chat-completions form (assistant tool calls in their wire form)."""
    wire: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_call_id is not None:
        wire["tool_call_id"] = message.tool_call_id
    if message.tool_calls:
        wire["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {
                    "name": wire_tool_name(call.name),
                    "arguments": json.dumps(dict(call.arguments)),
                },
            }
            for call in message.tool_calls
        ]
    return wire


def wire_tool(tool: ToolSpec) -> dict[str, Any]:
    """One tool in chat-completions ``tools`` form."""
    return {
        "type": "function",
        "function": {
            "name": wire_tool_name(tool.name),
            "description": tool.description,
            "parameters": dict(tool.parameters) or {"type": "object", "properties": {}},
        },
    }


def wire_response_format(fmt: ResponseFormat, mode: StructuredOutput) -> dict[str, Any] | None:
    """The ``response_format`` field for ``mode`` (``None``: send none)."""
    if mode == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": fmt.name, "strict": True, "schema": dict(fmt.schema)},
        }
    if mode == "json_object":
        return {"type": "json_object"}
    return None


def finish_reason(raw: object) -> FinishReason:
    """The typed finish reason of a wire value (unknown or missing: ``OTHER``)."""
    try:
        return FinishReason(str(raw))
    except ValueError:
        return FinishReason.OTHER


@dataclass(frozen=True, kw_only=True)
class WireCall:
    """A native tool call as the server sent it (wire name, raw argument text)."""

    id: str
    name: str
    arguments: Any


@dataclass(frozen=True, kw_only=True)
class WireReply:
    """A decoded reply: content, native tool calls, finish reason, usage and served model."""

    content: str | None
    calls: tuple[WireCall, ...]
    finish_reason: FinishReason
    usage: Mapping[str, Any] | None
    served_model: str


def _usage(raw: object) -> Mapping[str, Any] | None:
    if not isinstance(raw, dict) or "prompt_tokens" not in raw:
        return None
    return raw


def parse_completion(data: Any) -> WireReply:
    """Decode a non-streamed chat-completions reply."""
    choice = data["choices"][0]
    message = choice["message"]
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        raise TypeError("message.content is not a string")
    calls = tuple(
        WireCall(
            id=str(call["id"]),
            name=str(call["function"]["name"]),
            arguments=call["function"].get("arguments"),
        )
        for call in message.get("tool_calls") or ()
    )
    return WireReply(
        content=content,
        calls=calls,
        finish_reason=finish_reason(choice.get("finish_reason")),
        usage=_usage(data.get("usage")),
        served_model=str(data.get("model") or ""),
    )


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


@dataclass
class StreamAccumulator:
    """Folds streamed ``chat.completion.chunk`` objects into one :class:`WireReply`."""

    _content: list[str] = field(default_factory=list)
    _saw_content: bool = False
    _calls: dict[int, _PartialCall] = field(default_factory=dict)
    _finish: object = None
    _usage: Mapping[str, Any] | None = None
    _model: str = ""

    def feed(self, chunk: Any) -> None:
        """Add one decoded chunk (a usage-only chunk has no choices)."""
        if not isinstance(chunk, dict):
            raise TypeError("a stream chunk is not a JSON object")
        self._model = str(chunk.get("model") or self._model)
        usage = _usage(chunk.get("usage"))
        if usage is not None:
            self._usage = usage
        for choice in chunk.get("choices") or ():
            if choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or {}
            piece = delta.get("content")
            if piece is not None:
                if not isinstance(piece, str):
                    raise TypeError("delta.content is not a string")
                self._content.append(piece)
                self._saw_content = self._saw_content or bool(piece)
            for part in delta.get("tool_calls") or ():
                slot = self._calls.setdefault(int(part.get("index", 0)), _PartialCall())
                slot.id = str(part.get("id") or slot.id)
                function = part.get("function") or {}
                slot.name = str(function.get("name") or slot.name)
                if function.get("arguments"):
                    slot.arguments.append(str(function["arguments"]))
            if choice.get("finish_reason") is not None:
                self._finish = choice["finish_reason"]

    def result(self) -> WireReply:
        """The reply the chunks so far add up to."""
        calls = []
        for index in sorted(self._calls):
            slot = self._calls[index]
            if not slot.name:
                raise KeyError("a streamed tool call has no function name")
            calls.append(
                WireCall(
                    id=slot.id or f"call_{index}", name=slot.name, arguments="".join(slot.arguments)
                )
            )
        return WireReply(
            content="".join(self._content) if self._saw_content or not calls else None,
            calls=tuple(calls),
            finish_reason=finish_reason(self._finish),
            usage=self._usage,
            served_model=self._model,
        )


def decode_arguments(raw: Any) -> dict[str, Any]:
    """A tool call's arguments as a JSON object (empty when none were sent)."""
    if raw is None or raw == "":
        return {}
    value = json.loads(raw) if isinstance(raw, str) else raw
    if not isinstance(value, dict):
        raise TypeError("tool call arguments are not a JSON object")
    return value


_TAGGED = re.compile(r"<tool_call>\s*(?P<body>.*?)\s*</tool_call>", re.DOTALL)
_FENCED = re.compile(r"^```(?:json|JSON)?[ \t]*\n(?P<body>.*)\n```$", re.DOTALL)


def _call_objects(content: str) -> list[Any] | None:
    text = content.strip()
    tagged = _TAGGED.findall(text)
    if tagged:
        if _TAGGED.sub("", text).strip():
            return None  # prose around the tags: an answer that mentions a call, not a call
        bodies: list[str] = list(tagged)
    else:
        fenced = _FENCED.match(text)
        bodies = [fenced.group("body").strip() if fenced else text]
    found: list[Any] = []
    for body in bodies:
        try:
            value = json.loads(body)
        except ValueError:
            return None
        found.extend(value if isinstance(value, list) else [value])
    return found


def text_tool_calls(content: str | None, offered: Sequence[ToolSpec]) -> tuple[ToolCall, ...]:
    """Tool calls a model wrote as JSON text instead of native ``tool_calls``.

    Accepted shapes: the whole content is one JSON object ``{"name": ..., "arguments": {...}}``
    (``parameters`` accepted for ``arguments``), a JSON list of them, a single code fence
    around either, or one or more ``<tool_call>...</tool_call>`` blocks and nothing else. Every
    name must be an offered tool (dotted or wire form). Anything else is not a tool call and
    yields ``()``, leaving the content the final answer.
    """
    if not content or not offered:
        return ()
    names = {wire_tool_name(t.name): t.name for t in offered} | {t.name: t.name for t in offered}
    objects = _call_objects(content)
    if not objects:
        return ()
    calls: list[ToolCall] = []
    for index, item in enumerate(objects):
        if not isinstance(item, dict) or set(item) - {"name", "arguments", "parameters"}:
            return ()
        name = item.get("name")
        if not isinstance(name, str) or name not in names:
            return ()
        raw = item.get("arguments", item.get("parameters"))
        try:
            arguments = decode_arguments(raw)
        except (ValueError, TypeError):
            return ()
        calls.append(ToolCall(id=f"text_call_{index + 1}", name=names[name], arguments=arguments))
    return tuple(calls)


__all__ = [
    "StreamAccumulator",
    "StructuredOutput",
    "WireCall",
    "WireReply",
    "decode_arguments",
    "finish_reason",
    "parse_completion",
    "text_tool_calls",
    "wire_message",
    "wire_response_format",
    "wire_tool",
    "wire_tool_name",
]
