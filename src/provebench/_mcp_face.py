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

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

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


@dataclass(frozen=True)
class McpFace:
    """What a laboratory serves, and how it answers a call: `call(name, arguments)` returns
    `(text, is_error)`; `on_identity(name, version)` receives the client's `clientInfo` before
    each call. `refused_prompt_tool`, when set, is the name under which a `prompts/get` of any
    other prompt, or with arguments, is passed to `call` before it is refused: the name and
    arguments are the client's text, which a laboratory that searches what the agent sent must
    record (SI red team 16, H5)."""

    server_name: str
    instructions: str
    prompt_name: str
    prompt_description: str
    tools: Sequence[FaceTool]
    call: Callable[[str, dict[str, Any]], tuple[str, bool]]
    on_identity: Callable[[object, object], None]
    resources: Sequence[FaceResource] = field(default_factory=tuple)
    refused_prompt_tool: str | None = None


async def serve_face_stdio(face: McpFace) -> None:
    """Serve `face` over this process's stdin/stdout until the client disconnects."""
    await serve_face(face)


async def serve_face(
    face: McpFace, receive: AsyncFile[str] | None = None, send: AsyncFile[str] | None = None
) -> None:
    """Serve `face` over the given text streams (default: this process's stdin and stdout)
    until the client's stream ends; one JSON-RPC message a line."""
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
    async with stdio_server(receive, send) as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


__all__ = ["FaceResource", "FaceTool", "McpFace", "serve_face", "serve_face_stdio"]
