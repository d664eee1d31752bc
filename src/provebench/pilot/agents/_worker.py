"""The sandboxed side of an in-process importer provebench did not ship (docs/sandbox.md).

Started by the laboratory inside the sandbox as
`python -I -m provebench.pilot.agents._worker FD MODE SPEC PATH_ENTRY`, it loads the importer
class there — so the candidate's module code, class body and `run_cycle` all run sealed — and
hands it a `ctx` with the documented interface (docs/pilot-lab.md) whose every call is a message
to the laboratory over the socket FD. Nothing of the laboratory is in this process: the gateway,
the fault plan and the cycle's record stay on the other end, so no attribute of `ctx` leads to
them. The laboratory answers each call as its gateway answered it, errors included (the same
`LabError` classes), and records it there.

MODE `identify`: report the class's `name` and `version` (or why it cannot run) and exit.
MODE `run`: receive the cycle's settings, run one cycle, report how it ended.
"""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from provebench.sandbox._channel import FRAME_HEADER, encode_frame


class _Link:
    """The worker's end of the channel (`sandbox._channel`: one frame format both ways)."""

    def __init__(self, fd: int) -> None:
        self.sock = socket.socket(fileno=fd)

    def send(self, message: Any) -> None:
        self.sock.sendall(encode_frame(message, default=_plain))

    def receive(self) -> Any:
        (length,) = FRAME_HEADER.unpack(self._exactly(FRAME_HEADER.size))
        return json.loads(self._exactly(length))

    def _exactly(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = self.sock.recv(size - len(data))
            if not chunk:
                raise SystemExit(3)  # the laboratory closed the channel: nothing to do
            data += chunk
        return data


def _plain(value: object) -> object:
    """What JSON cannot carry as it is: mappings and sequences as such, anything else by its
    type's name (the laboratory's gateway then answers it as the invalid argument it is)."""
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        return list(value)
    return f"<{type(value).__name__} object>"


class _Remote:
    __slots__ = ("_link",)

    def __init__(self, link: _Link) -> None:
        self._link = link

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        self._link.send({"call": name, "args": list(args), "kwargs": kwargs})
        reply = self._link.receive()
        if "error" in reply:
            raise _error(reply["error"])
        return reply.get("ok")


def _error(said: dict[str, Any]) -> BaseException:
    from provebench.pilot.lab import _errors

    kind = str(said.get("class", ""))
    message = str(said.get("message", ""))
    error_class = getattr(_errors, kind, None)
    if isinstance(error_class, type) and issubclass(error_class, _errors.LabError):
        error = error_class(message)
        call = said.get("call")
        error.call = call if type(call) is int else None  # the number, as the gateway gave it
        return error
    return ValueError(message) if kind == "ValueError" else TypeError(message)


def _file(fields: list[Any]) -> Any:
    from provebench.pilot.lab._files import LabFile, LabMetadata

    *head, metadata = fields
    return LabFile._make([*head, None if metadata is None else LabMetadata._make(metadata)])


class _Drive(_Remote):
    __slots__ = ()

    def list_files(self, page_size: int = 100, page_token: str | None = None) -> Any:
        from provebench.pilot.lab._files import FilePage

        page = self._call("drive.list_files", page_size, page_token)
        files = tuple(_file(f) for f in page["files"])
        return FilePage(files, tuple(page["file_ids"]), page["next_page_token"])

    def get_file(self, file_id: str) -> Any:
        return _file(self._call("drive.get_file", file_id))

    def delete_file(self, file_id: str) -> None:
        self._call("drive.delete_file", file_id)

    def rename_file(self, file_id: str, name: str) -> None:
        self._call("drive.rename_file", file_id, name)

    def move_file(self, file_id: str, folder_id: str) -> None:
        self._call("drive.move_file", file_id, folder_id)

    def upload(self, name: str, content: object = None, **metadata: object) -> None:
        self._call("drive.upload", name, None, **metadata)


class _Sheets(_Remote):
    __slots__ = ()

    def append_rows(self, rows: Any) -> int:
        result: int = self._call("sheets.append_rows", rows)
        return result

    def delete_row(self, file_id: str) -> None:
        self._call("sheets.delete_row", file_id)

    def update_row(self, file_id: str, values: Any) -> None:
        self._call("sheets.update_row", file_id, values)

    def set_status(self, file_id: str, status: str) -> None:
        self._call("sheets.set_status", file_id, status)


class _Confirmed(_Remote):
    __slots__ = ()

    def contains(self, file_id: str) -> bool:
        return bool(self._call("confirmed.contains", file_id))

    def all(self) -> frozenset[str]:
        return frozenset(self._call("confirmed.all"))

    def remove(self, file_id: str) -> None:
        self._call("confirmed.remove", file_id)


class _Diagnostics(_Remote):
    __slots__ = ()

    def error(
        self,
        code: str,
        detail: str = "",
        *,
        call: int | None = None,
        file_ids: Sequence[str] = (),
    ) -> None:
        self._call("diagnostics.error", code, detail, call=call, file_ids=list(file_ids))

    def failed_file(self, file_id: str, reason_code: str, detail: str = "") -> None:
        self._call("diagnostics.failed_file", file_id, reason_code, detail)

    def reconciliation(
        self, *, source: int, imported: int, failed: int, already_known: int, **extra: int
    ) -> None:
        self._call(
            "diagnostics.reconciliation",
            source=source,
            imported=imported,
            failed=failed,
            already_known=already_known,
            **extra,
        )

    def self_check(self, name: str, passed: bool, detail: str = "") -> None:
        self._call("diagnostics.self_check", name, passed, detail)

    def note(self, message: str) -> None:
        self._call("diagnostics.note", message)


class _Clock(_Remote):
    __slots__ = ()

    def now(self) -> float:
        return float(self._call("clock.now"))

    def sleep(self, seconds: float) -> None:
        self._call("clock.sleep", seconds)


class _Context:
    """The worker's `ctx`: the attributes of `CycleContext`, every call a message. (Its slots
    are written out, not taken from `CycleContext`: importing the laboratory's context would
    import the gateway's machinery into every worker.)"""

    __slots__ = (
        "clock",
        "confirmed",
        "diagnostics",
        "drive",
        "run_version",
        "sheets",
        "time_zone",
        "work_dir",
    )

    def __init__(self, link: _Link, settings: dict[str, str]) -> None:
        self.drive = _Drive(link)
        self.sheets = _Sheets(link)
        self.confirmed = _Confirmed(link)
        self.diagnostics = _Diagnostics(link)
        self.clock = _Clock(link)
        self.time_zone = settings["time_zone"]
        self.run_version = settings["run_version"]
        self.work_dir = Path(settings["work_dir"])


_NO_CANDIDATE = (
    "is provebench's model client or one of its relays (or made from one), which holds no "
    "candidate code: its candidate is the model or program behind it, which no seal holds "
    "(docs/attestation.md, 'What a seal can hold')"
)


def _load(spec: str, *, identify: bool = True) -> type:
    from provebench._errors import ProvebenchError
    from provebench._plugin import identity_of, resolve_class
    from provebench.pilot.agents._no_candidate import (
        HoldsNoCandidate,
        made_from,
        no_candidate_classes,
    )

    # Held before the candidate's module runs, and judged by the class objects themselves: a
    # look-up in `sys.modules` after it ran is the candidate's to answer (pilot red team 33, A3:
    # `class Model(OpenAIImporter)`, then `del sys.modules[...]`, ran the model client as the
    # candidate). Taken when the class is identified — once a run and once a seal, before any
    # cycle — not every cycle: their modules load the laboratory's machinery, which a cycle's
    # worker does without (tests/pilot/agents/test_worker_imports.py); a cycle still judges
    # the class by the module and name each base was defined with. The rule, and what it does
    # not mean: `agents._no_candidate`, docs/sandbox.md.
    held = no_candidate_classes() if identify else ()
    candidate = resolve_class(spec, {})
    if made_from(candidate, held=held) is not None:
        raise HoldsNoCandidate(f"{candidate.__name__} {_NO_CANDIDATE}", field="--agent")
    identity_of(candidate)
    if not callable(getattr(candidate, "run_cycle", None)):
        raise ProvebenchError(f"{candidate.__name__} has no run_cycle(ctx) method", field="--agent")
    return candidate


def main(argv: list[str]) -> int:
    fd, mode, spec, path_entry = argv
    if path_entry:
        sys.path.insert(0, path_entry)
    link = _Link(int(fd))
    from provebench._errors import ProvebenchError

    try:
        candidate = _load(spec, identify=mode == "identify")
    except ProvebenchError as error:
        from provebench.pilot.agents._no_candidate import HoldsNoCandidate

        link.send(
            {"refused": error.one_line(), "no_candidate": isinstance(error, HoldsNoCandidate)}
        )
        return 0
    if mode == "identify":
        link.send({"identity": {"name": candidate.name, "version": candidate.version}})  # type: ignore[attr-defined]
        return 0
    link.send({"ready": True})
    settings = link.receive()
    try:
        candidate().run_cycle(_Context(link, settings))
    except BaseException as error:  # the importer's failure is evidence: reported, not raised
        link.send({"failed": {"type": type(error).__name__, "message": str(error)}})
        return 0
    link.send({"done": True})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
