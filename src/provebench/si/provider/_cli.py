"""`provebench si provider`: serve the OASIS SI provider API until interrupted."""

from __future__ import annotations

import signal
from typing import Annotated

import typer


def provider_command(
    port: Annotated[
        int, typer.Option(help="Port on 127.0.0.1 (0: any free port, printed on start).")
    ] = 0,
) -> None:
    """Serve the OASIS SI provider API (provider-guide §4) on 127.0.0.1.

    GET /v1/conformance, POST /provision, /state-snapshot, /inject-state, /observe, /teardown;
    each provisioned environment is a simulated estate with its own agent endpoint, a
    Kubernetes API server for kubectl (its kubeconfig in agent_credentials). The first line on
    stdout is the provider's URL. Stop it with Ctrl-C.
    """
    from provebench._errors import ProvebenchError
    from provebench.si.provider._server import ProviderServer

    if not 0 <= port <= 65535:
        raise ProvebenchError("must be a port number (0-65535)", field="--port")
    try:
        server = ProviderServer(port=port)
    except OSError as error:
        raise ProvebenchError(f"cannot listen: {error.strerror or error}", field="--port") from None
    # Ctrl-C ends the server whatever the parent left SIGINT set to: a process started with
    # SIGINT ignored (a test runner's worker, `nohup`) inherits SIG_IGN, and Python then installs
    # no KeyboardInterrupt handler of its own; SIGTERM ends it the same way.
    for stop in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop, _interrupted)
    typer.echo(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def register(app: typer.Typer) -> None:
    app.command("provider")(provider_command)
