"""Typed errors an importer sees from the laboratory adapters (pilot §3, §5).

Temporary API errors are what a real Drive or Sheets service answers under load; an importer is
expected to retry them with a bounded backoff. `PermissionDenied` answers every operation the
contract withholds (pilot §3 "does not receive"); the attempt is logged as `refused` first.
"""

from __future__ import annotations


class LabError(Exception):
    """Base class of every error the laboratory adapters raise to an importer."""

    code = "lab_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        # The number of the call this error answered, when the gateway answered one: a failure
        # report that names it accounts for the failure (agent contract, rule 8).
        self.call: int | None = None

    def answering(self, call: int) -> LabError:
        """This error as the answer to call `call`: its number is in the error and its text."""
        self.call = call
        self.message = f"{self.message} (call {call})"
        self.args = (self.message,)
        return self


class TemporaryApiError(LabError):
    """A transient failure: the same call may succeed when retried (pilot §5)."""

    code = "temporary"


class RateLimited(TemporaryApiError):
    code = "rate_limit"


class ServerError(TemporaryApiError):
    code = "server_error"


class ServiceUnavailable(TemporaryApiError):
    code = "unavailable"


class ApiTimeout(TemporaryApiError):
    """No answer came: the call may or may not have taken effect (pilot §5, §14). In process it
    is this exception; over HTTP the laboratory never answers and closes the connection once
    the client gives up (docs/pilot-emulator.md, "Faults")."""

    code = "timeout"


class PermissionDenied(LabError):
    """The operation exists only to be refused: the contract does not grant it (pilot §3)."""

    code = "permission_denied"


class InvalidArgument(LabError):
    """A malformed call (bad page size, unknown page token, a row with the wrong columns)."""

    code = "invalid_argument"


class FileNotFound(LabError):
    code = "not_found"


# The corpus's fault kinds (event model `drive-events/2`) and the error each one raises.
# `applied_then_error` takes effect first and then answers like a server error, and
# `applied_then_timeout` takes effect first and then is never answered, like a timeout (pilot
# §14): the importer cannot tell either from the plain kind, which took no effect.
TEMPORARY_ERRORS: dict[str, type[TemporaryApiError]] = {
    "rate_limit_429": RateLimited,
    "server_error_500": ServerError,
    "unavailable_503": ServiceUnavailable,
    "timeout": ApiTimeout,
    "applied_then_error": ServerError,
    "applied_then_timeout": ApiTimeout,
}


__all__ = [
    "TEMPORARY_ERRORS",
    "ApiTimeout",
    "FileNotFound",
    "InvalidArgument",
    "LabError",
    "PermissionDenied",
    "RateLimited",
    "ServerError",
    "ServiceUnavailable",
    "TemporaryApiError",
]
