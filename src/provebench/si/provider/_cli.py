"""`provebench si provider`: serve the OASIS SI provider API until interrupted."""

from __future__ import annotations

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
    from provebench._signals import raise_interrupt, stopped_by_signals
    from provebench.si.provider._server import ProviderServer

    if not 0 <= port <= 65535:
        raise ProvebenchError("must be a port number (0-65535)", field="--port")
    try:
        server = ProviderServer(port=port)
    except OSError as error:
        raise ProvebenchError(f"cannot listen: {error.strerror or error}", field="--port") from None
    typer.echo(server.url)
    # Ctrl-C and SIGTERM end the server whatever the parent left SIGINT set to (`_signals`).
    try:
        with stopped_by_signals(raise_interrupt):
            server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


def register(app: typer.Typer) -> None:
    app.command("provider")(provider_command)
