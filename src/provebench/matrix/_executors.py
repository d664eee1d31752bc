"""Where a matrix's jobs run, behind one interface: `Executor.run(specs)` yields each job's
`JobResult` as it completes (in any order; the summary does not depend on it).

* `LocalPool` (the default): a process pool on this machine (`concurrent.futures`, `spawn`
  workers: a fresh interpreter per worker, nothing inherited from the driver's threads).
* `DaskExecutor` (`--address local-cluster` or `--address tcp://HOST:PORT`; the `cluster`
  extra): Dask distributed. `local-cluster` starts a cluster of worker processes on this machine
  (dashboard off); an address connects to a running scheduler, whose workers may be on other
  machines (docs/matrix.md says how to start them). Why Dask rather than Ray: docs/matrix.md.

A worker that dies mid-job (killed, out of memory) yields a harness fault for that job, never a
lost job: every submitted spec yields exactly one result.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Protocol

from provebench._errors import ProvebenchError
from provebench.matrix._jobs import JobResult, JobSpec, die_with_parent, execute_job

LOCAL_CLUSTER = "local-cluster"


class Executor(Protocol):
    name: str

    def run(self, specs: Sequence[JobSpec]) -> Iterator[JobResult]: ...

    def close(self) -> None: ...


class LocalPool:
    """A pool of `workers` processes on this machine."""

    name = "local-pool"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=die_with_parent,
        )

    def run(self, specs: Sequence[JobSpec]) -> Iterator[JobResult]:
        pending: dict[Future[JobResult], JobSpec] = {
            self._pool.submit(execute_job, spec): spec for spec in specs
        }
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                spec = pending.pop(future)
                yield _result_of(future, spec)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def _result_of(future: Any, spec: JobSpec) -> JobResult:
    try:
        result = future.result()
    except Exception as error:  # the worker died: the harness's fault, not the agent's
        return JobResult(spec.key, "harness_fault", reason=f"worker lost: {type(error).__name__}")
    if not isinstance(result, JobResult):
        return JobResult(spec.key, "harness_fault", reason="the worker answered no job result")
    return result


class DaskExecutor:
    """Dask distributed: a local cluster, or the scheduler at `address`."""

    name = "dask"

    def __init__(self, address: str, workers: int) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise ProvebenchError(
                "--address needs Dask distributed: pip install 'provebench[cluster]'",
                field="--address",
            ) from None
        self._cluster: Any = None
        try:
            if address == LOCAL_CLUSTER:
                self._cluster = LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=50,  # logging.CRITICAL: the progress bar is the output
                )
                self._client: Any = Client(self._cluster)  # type: ignore[no-untyped-call]
            else:
                self._client = Client(address, timeout=30)  # type: ignore[no-untyped-call]
        except OSError as error:
            if self._cluster is not None:
                self._cluster.close()
            raise ProvebenchError(
                f"cannot reach the Dask scheduler: {error}", field="--address"
            ) from None

    def run(self, specs: Sequence[JobSpec]) -> Iterator[JobResult]:
        from distributed import as_completed

        # pure=False: two trials of one job are two runs, never one cached result.
        futures = {
            self._client.submit(execute_job, spec, key=f"job-{index}-{spec.key}", pure=False): spec
            for index, spec in enumerate(specs)
        }
        for future in as_completed(list(futures)):  # type: ignore[no-untyped-call]
            yield _result_of(future, futures[future])

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def executor_for(address: str | None, workers: int) -> Executor:
    """The default local pool, or Dask for `--address`."""
    if address is None:
        return LocalPool(workers)
    return DaskExecutor(address, workers)


__all__ = ["LOCAL_CLUSTER", "DaskExecutor", "Executor", "LocalPool", "executor_for"]
