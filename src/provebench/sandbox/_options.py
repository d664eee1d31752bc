"""The sandbox's limits as command-line options, shared by `pilot run` and `si run`
(docs/sandbox.md, "Limits"). Each has its documented default and a range checked by the parser."""

from __future__ import annotations

from typing import Annotated

import typer

from provebench.sandbox._limits import DEFAULT_LIMITS, Limits

MemoryOption = Annotated[
    int,
    typer.Option(
        "--sandbox-memory",
        metavar="MIB",
        help="A sealed candidate's address space, in MiB.",
        min=64,
        max=1024 * 1024,
    ),
]
CpuOption = Annotated[
    int,
    typer.Option(
        "--sandbox-cpu",
        metavar="SECONDS",
        help="CPU seconds of each process of a sealed candidate.",
        min=1,
        max=86400,
    ),
]
ProcessesOption = Annotated[
    int,
    typer.Option(
        "--sandbox-processes",
        metavar="N",
        help="Processes a sealed candidate may run at once.",
        min=1,
        max=65536,
    ),
]
FileSizeOption = Annotated[
    int,
    typer.Option(
        "--sandbox-file-size",
        metavar="MIB",
        help="Size of one file a sealed candidate writes, in MiB.",
        min=1,
        max=1024 * 1024,
    ),
]
DEFAULT_MEMORY_MIB = DEFAULT_LIMITS.memory_mib
DEFAULT_CPU_SEC = DEFAULT_LIMITS.cpu_sec
DEFAULT_PROCESSES = DEFAULT_LIMITS.processes
DEFAULT_FILE_SIZE_MIB = DEFAULT_LIMITS.file_size_mib


def limits_from_options(
    memory_mib: int, cpu_sec: int, processes: int, file_size_mib: int
) -> Limits:
    return Limits(
        cpu_sec=cpu_sec,
        memory_mib=memory_mib,
        file_size_mib=file_size_mib,
        processes=processes,
    )


__all__ = [
    "DEFAULT_CPU_SEC",
    "DEFAULT_FILE_SIZE_MIB",
    "DEFAULT_MEMORY_MIB",
    "DEFAULT_PROCESSES",
    "CpuOption",
    "FileSizeOption",
    "MemoryOption",
    "ProcessesOption",
    "limits_from_options",
]
