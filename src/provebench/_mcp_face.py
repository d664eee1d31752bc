"""One MCP stdio server for every laboratory a client connects to (`si serve`, `pilot serve
--mcp`), built with the official `mcp` SDK: tools answered by the laboratory, the task as the
server's `instructions` and as one prompt (clients differ in what they show the model), optional
text resources, and the identity the client declares handed to the laboratory.

Only the SDK's messages reach stdout. A tool call is answered in a worker thread, so a
laboratory that waits (a cycle handed over to the runner's thread) never blocks the event loop,
and one call at a time (a client may send calls concurrently; the laboratory's record is an
order, and a simulator session is not made to be called from two threads).
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from anyio import AsyncFile


@dataclass(frozen=True)
class FaceTool:
    name: str
    description: str
    input_schema: Mapping[str, Any]


@dataclass(frozen=True)
class FaceResource:
    uri: str
    name: str
    description: str
    mime_type: str
    text: str


# At most this much of a run's client messages is recorded (their escaped JSON text), as for a
# sealed program's standard error; a client that sends more is disconnected (`ClientMessages`).
MAX_RECORDED_BYTES = 1 << 20


class ClientMessages:
    """Every message the client sent, each as one line of JSON with every non-ASCII character
    escaped (a lone surrogate or a control character cannot break the evidence or a terminal),
    in the order received: its method and params, `_meta` included, or a response's result.

    Core §3.5.5: what the agent outputs must not hold a contained value, and a client's
    `notifications/cancelled` reason, `notifications/progress` message or the `_meta` of any
    request is as much its output as a tool's arguments (SI red team 17, H8: a password sent
    there was never recorded, and the disclosure check passed). Bounded: the message that
    would pass `MAX_RECORDED_BYTES` is not kept and the channel is closed there; its length is
    kept (`dropped_bytes`), for the evidence records the cut and a containment check fails on
    it (SI red team 18, m1: the message was dropped unsearched and the check passed)."""

    def __init__(self, limit: int = MAX_RECORDED_BYTES) -> None:
        self.limit = limit
        self.texts: list[str] = []
        self.size = 0
        self.over = False
        self.dropped_bytes = 0  # the escaped length of the message that passed the bound

    def record(self, sent: object) -> bool:
        """Keep one message; False (and nothing kept) once the bound would be passed."""
        text = json.dumps(sent, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
        if self.over or self.size + len(text) > self.limit:
            if not self.over:  # the first past the bound: the channel closes on it
                self.dropped_bytes = len(text)
            self.over = True
            return False
        self.texts.append(text)
        self.size += len(text)
        return True

    def record_line(self, line: bytes | str) -> bool:
        """Keep a line the agent sent that no parse holds whole, as its text (UTF-8, an
        undecodable byte as U+FFFD): `{"unparsed_line": TEXT}`; False as for `record`."""
        text = line.decode("utf-8", errors="replace") if isinstance(line, bytes) else line
        return self.record({UNPARSED_LINE: text})


# The key under which a line recorded as sent, not as parsed, is kept (`ClientMessages`).
UNPARSED_LINE = "unparsed_line"


def as_sent(line: str) -> object:
    """What `ClientMessages` keeps of one line an MCP client wrote: the message as parsed,
    without its constant `jsonrpc` and without the name and arguments of a call whose handler
    records them as an action, where that parse holds every value the line sent; else the line
    itself (`ClientMessages.record_line`).

    The record is of the bytes sent, never of a parse that lost some of them (SI red team 20,
    S2: `"v":SECRET,"v":1` was recorded as the SDK's last value, an extra top-level key not at
    all, and the disclosure check passed). The line is read by provebench's strict JSON
    (`loads_keeping_surrogates`: no duplicate key, no NaN, bounded depth) and by the SDK; the
    parse is recorded only where the two agree on every key and value."""
    import mcp.types as types

    from provebench._jsonfile import loads_keeping_surrogates

    body = line[:-1] if line.endswith("\n") else line
    try:
        strict = loads_keeping_surrogates(body.encode("utf-8", errors="surrogatepass"))
        message = types.jsonrpc_message_adapter.validate_json(body, by_name=False)
    except (ValueError, RecursionError):
        return {UNPARSED_LINE: body}
    if message.model_dump(mode="json", by_alias=True, exclude_unset=True) != strict:
        return {UNPARSED_LINE: body}  # the SDK's message lacks or changed some of it
    assert isinstance(strict, dict)  # a JSON-RPC message is an object
    strict.pop("jsonrpc", None)
    params = strict.get("params")
    if _reaches_a_handler(strict.get("method"), params):
        # A call's tool name and arguments are its action's, searched in the channel the
        # profile names (`tool_call_parameters`; a submitted answer in `agent_response`):
        # recorded here too, they would be searched by every check, a scenario's channels
        # notwithstanding. The rest of the params (`_meta`, any other key) is recorded.
        assert isinstance(params, dict)
        strict["params"] = {k: v for k, v in params.items() if k not in ("name", "arguments")}
    return strict


def _reaches_a_handler(method: object, params: object) -> bool:
    """Whether the handler of a `tools/call` or `prompts/get` receives these params, and with
    them records the name and arguments as an action (a tool call; a `prompts/get` of another
    prompt or with arguments, `McpFace.refused_prompt_tool`). Params the SDK refuses before the
    handler (arguments that are no object) are recorded whole, for nothing else records them."""
    import mcp.types as types
    from pydantic import BaseModel, ValidationError

    model: dict[str, type[BaseModel]] = {
        "tools/call": types.CallToolRequestParams,
        "prompts/get": types.GetPromptRequestParams,
    }
    if not isinstance(method, str) or method not in model or not isinstance(params, dict):
        return False
    try:
        model[method].model_validate(params)
    except ValidationError:
        return False
    return True


@dataclass(frozen=True)
class McpFace:
    """What a laboratory serves, and how it answers a call: `call(name, arguments)` returns
    `(text, is_error)`; `on_identity(name, version)` receives the client's `clientInfo` before
    each call. `refused_prompt_tool`, when set, is the name under which a `prompts/get` of any
    other prompt, or with arguments, is passed to `call` before it is refused: the name and
    arguments are the client's text, which a laboratory that searches what the agent sent must
    record (SI red team 16, H5). `messages`, when set, receives every message the client sends
    (`ClientMessages`) before the server reads it."""

    server_name: str
    instructions: str
    prompt_name: str
    prompt_description: str
    tools: Sequence[FaceTool]
    call: Callable[[str, dict[str, Any]], tuple[str, bool]]
    on_identity: Callable[[object, object], None]
    resources: Sequence[FaceResource] = field(default_factory=tuple)
    refused_prompt_tool: str | None = None
    messages: ClientMessages | None = None


class LineSource(Protocol):
    """A client's stream, one line at a time ("" at its end)."""

    def readline(self) -> str: ...


class _StdinLines:
    """This process's standard input, a line (ended by `\\n` only) at a time, as UTF-8 (an
    undecodable byte as U+FFFD, as the SDK's own stdio transport reads it)."""

    def readline(self) -> str:
        return sys.stdin.buffer.readline().decode("utf-8", errors="replace")


class _RecordedLines:
    """The client's lines, each recorded (`as_sent`) before the SDK reads it: the record is
    taken at the transport, of what was sent, so a notification or `_meta` no handler reads is
    recorded as well as a tool call, and a line the SDK refuses or reads in part as well as one
    it reads whole. Past the bound it ends the stream: the server sees the client go."""

    def __init__(self, lines: LineSource, recorder: ClientMessages) -> None:
        self.lines = lines
        self.recorder = recorder

    def readline(self) -> str:
        line = self.lines.readline()
        if line and not self.recorder.record(as_sent(line)):
            return ""
        return line


async def serve_face_stdio(face: McpFace) -> None:
    """Serve `face` over this process's stdin/stdout until the client disconnects."""
    await serve_face(face)


async def serve_face(
    face: McpFace, receive: LineSource | None = None, send: AsyncFile[str] | None = None
) -> None:
    """Serve `face` over the given streams (default: this process's stdin and stdout) until
    the client's stream ends; one JSON-RPC message a line."""
    import anyio
    import anyio.to_thread
    import mcp.types as types
    from mcp.server import Server, ServerRequestContext
    from mcp.server.stdio import stdio_server
    from mcp.shared.exceptions import MCPError

    from provebench import __version__

    tools = [
        types.Tool(name=t.name, description=t.description, input_schema=dict(t.input_schema))
        for t in face.tools
    ]
    by_uri = {resource.uri: resource for resource in face.resources}
    one_at_a_time = threading.Lock()

    def answer(name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        with one_at_a_time:
            return face.call(name, arguments)

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        info = getattr(getattr(ctx.session, "client_params", None), "client_info", None)
        face.on_identity(getattr(info, "name", None), getattr(info, "version", None))
        arguments = dict(params.arguments or {})
        text, is_error = await anyio.to_thread.run_sync(answer, params.name, arguments)
        return types.CallToolResult(content=[types.TextContent(text=text)], is_error=is_error)

    async def list_prompts(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        prompt = types.Prompt(name=face.prompt_name, description=face.prompt_description)
        return types.ListPromptsResult(prompts=[prompt])

    async def get_prompt(
        ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        if params.name != face.prompt_name or params.arguments:
            if face.refused_prompt_tool is not None:
                sent: dict[str, Any] = {"name": params.name, "arguments": params.arguments or {}}
                await anyio.to_thread.run_sync(answer, face.refused_prompt_tool, sent)
            # a protocol error, answered to the client (a raised exception is logged with its
            # traceback on the server's standard error)
            unknown = f"unknown prompt; the one prompt is {face.prompt_name!r}"
            raise MCPError(types.INVALID_PARAMS, unknown)
        message = types.PromptMessage(
            role="user", content=types.TextContent(text=face.instructions)
        )
        return types.GetPromptResult(description=face.prompt_description, messages=[message])

    async def list_resources(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=r.uri, name=r.name, description=r.description, mime_type=r.mime_type
                )
                for r in face.resources
            ]
        )

    async def read_resource(
        ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        resource = by_uri.get(str(params.uri))
        if resource is None:
            raise ValueError(f"unknown resource {params.uri}")
        return types.ReadResourceResult(
            contents=[
                types.TextResourceContents(
                    uri=resource.uri, mime_type=resource.mime_type, text=resource.text
                )
            ]
        )

    handlers: dict[str, Any] = {}
    if face.resources:
        handlers = {"on_list_resources": list_resources, "on_read_resource": read_resource}
    server: Server[Any] = Server(
        face.server_name,
        version=__version__,
        instructions=face.instructions,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        **handlers,
    )
    options = server.create_initialization_options()
    if face.messages is not None:
        receive = _RecordedLines(receive or _StdinLines(), face.messages)
    lines = None if receive is None else anyio.wrap_file(receive)  # type: ignore[arg-type]
    async with stdio_server(lines, send) as (read_stream, write_stream):
        await server.run(read_stream, write_stream, options)


__all__ = [
    "MAX_RECORDED_BYTES",
    "UNPARSED_LINE",
    "ClientMessages",
    "FaceResource",
    "FaceTool",
    "LineSource",
    "McpFace",
    "as_sent",
    "serve_face",
    "serve_face_stdio",
]
