"""Google's JSON error bodies, and how the laboratory's errors map onto them (pilot §3, §5).

Every error the emulator answers has the shape a Google client parses:
`{"error": {"code": 403, "message": "...", "status": "PERMISSION_DENIED", "errors":
[{"message": "...", "domain": "global", "reason": "forbidden"}]}}`. The `reason` matters:
google-api-python-client retries a 403 only for the rate-limit reasons, so a refused write must
say `forbidden`.
"""

from __future__ import annotations

from typing import Any

from provebench.pilot.lab import (
    ApiTimeout,
    FileNotFound,
    InvalidArgument,
    LabError,
    PermissionDenied,
    RateLimited,
    ServerError,
    ServiceUnavailable,
)


class GoogleApiError(Exception):
    """An HTTP error answer with Google's body."""

    def __init__(
        self, code: int, status: str, message: str, reason: str, call: int | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.message = message
        self.reason = reason
        self.call = call

    def body(self) -> dict[str, Any]:
        detail = {"message": self.message, "domain": "global", "reason": self.reason}
        error: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "status": self.status,
            "errors": [detail],
        }
        if self.call is not None:
            # The number of the failed call, as Google's structured ErrorInfo: a failure report
            # that names it accounts for the failure (agent contract, rule 8).
            error["details"] = [
                {
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": self.reason,
                    "domain": "provebench",
                    "metadata": {"call": str(self.call)},
                }
            ]
        return {"error": error}


def bad_request(message: str, reason: str = "badRequest") -> GoogleApiError:
    return GoogleApiError(400, "INVALID_ARGUMENT", message, reason)


def not_found(message: str = "Requested entity was not found.") -> GoogleApiError:
    return GoogleApiError(404, "NOT_FOUND", message, "notFound")


def unauthenticated() -> GoogleApiError:
    return GoogleApiError(
        401,
        "UNAUTHENTICATED",
        "Request is missing required authentication credential. Expected OAuth 2 access token, "
        "login cookie or other valid authentication credential.",
        "authError",
    )


def length_required() -> GoogleApiError:
    return GoogleApiError(
        411,
        "INVALID_ARGUMENT",
        "Transfer-Encoding is not supported: send the body with a Content-Length",
        "lengthRequired",
    )


def no_cycle_open() -> GoogleApiError:
    return GoogleApiError(
        503, "UNAVAILABLE", "The laboratory has no open cycle; retry later.", "backendError"
    )


# (HTTP code, status, reason) per laboratory error; the most specific class first.
_LAB_ERRORS: tuple[tuple[type[LabError], int, str, str], ...] = (
    (RateLimited, 429, "RESOURCE_EXHAUSTED", "rateLimitExceeded"),
    (ServiceUnavailable, 503, "UNAVAILABLE", "backendError"),
    (ApiTimeout, 504, "DEADLINE_EXCEEDED", "backendError"),
    (ServerError, 500, "INTERNAL", "backendError"),
    (PermissionDenied, 403, "PERMISSION_DENIED", "forbidden"),
    (InvalidArgument, 400, "INVALID_ARGUMENT", "badRequest"),
    (FileNotFound, 404, "NOT_FOUND", "notFound"),
)


def from_lab_error(error: LabError) -> GoogleApiError:
    """The HTTP answer of a laboratory error: 429/500/503/504 for the corpus's faults, 403 for a
    refused operation, 400 for a malformed call, 404 for an unknown file."""
    for error_type, code, status, reason in _LAB_ERRORS:
        if isinstance(error, error_type):
            return GoogleApiError(code, status, error.message, reason, error.call)
    return GoogleApiError(500, "INTERNAL", error.message, "backendError", error.call)


__all__ = [
    "GoogleApiError",
    "bad_request",
    "from_lab_error",
    "length_required",
    "no_cycle_open",
    "not_found",
    "unauthenticated",
]
