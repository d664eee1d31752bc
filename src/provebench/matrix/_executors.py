"""Where a matrix's jobs run, behind one interface: `Executor.run(specs)` yields each job's
`JobResult` as it completes (in any order; the summary does not depend on it).

* `LocalPool` (the default): a process pool on this machine (`concurrent.futures`, `spawn`
  workers: a fresh interpreter per worker, nothing inherited from the driver's threads).
* `DaskExecutor` (`--address local-cluster` or `--address tls://HOST:PORT`; the `cluster`
  extra): Dask distributed over mutual TLS. `local-cluster` starts a cluster of worker processes
  on this machine (dashboard off); an address connects to a running scheduler, whose workers may
  be on other machines (docs/matrix.md says how to start them). Why Dask rather than Ray:
  docs/matrix.md.

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
    """Dask distributed over mutual TLS: a local cluster, or the scheduler at a `tls://` address.

    A Dask scheduler runs what any client it accepts submits, on every worker — and a worker of a
    matrix holds the laboratory key (it signs the runs it makes). Over plain TCP anything that
    reaches the port is accepted: a key-less process joined as a worker, had the key-holding
    worker run other jobs under a job's attempt and read the private key with `client.run`; under
    `local-cluster` another local user did the same (red team round 14, H1–H3). So every
    connection is mutual TLS: `local-cluster` draws a temporary certificate authority in memory
    that only this driver and the workers it starts hold, and an address must be `tls://` with
    Dask's TLS settings naming the certificate authority and this client's certificate
    (docs/matrix.md, "Several machines"); a plain `tcp://` address is refused."""

    name = "dask"

    def __init__(self, address: str, workers: int, *, security: Any = None) -> None:
        try:
            from distributed import Client, LocalCluster
            from distributed.security import Security
        except ImportError:
            raise ProvebenchError(
                "--address needs Dask distributed: pip install 'provebench[cluster]'",
                field="--address",
            ) from None
        self._cluster: Any = None
        try:
            if address == LOCAL_CLUSTER:
                security = Security.temporary()  # type: ignore[no-untyped-call]
                self._cluster = LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=50,  # logging.CRITICAL: the progress bar is the output
                    security=security,
                    protocol="tls://",
                    host="127.0.0.1",
                )
                self._client: Any = Client(self._cluster, security=security)  # type: ignore[no-untyped-call]
            else:
                security = _checked_security(address, security or Security())  # type: ignore[no-untyped-call]
                self._client = Client(address, timeout=30, security=security)  # type: ignore[no-untyped-call]
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


def _checked_security(address: str, security: Any) -> Any:
    """`security` for a scheduler at `address`, refused in one line unless it is mutual TLS."""
    if not address.startswith("tls://"):
        raise ProvebenchError(
            f"{address!r} is not a tls:// address: a scheduler over plain TCP runs what any "
            "process that reaches it submits, on workers that hold the laboratory key; start it "
            "with TLS (docs/matrix.md, 'Several machines')",
            field="--address",
        )
    if not (security.tls_ca_file and security.tls_client_cert and security.tls_client_key):
        raise ProvebenchError(
            "Dask's TLS settings name no certificate authority or no client certificate and "
            "key: set DASK_DISTRIBUTED__COMM__TLS__CA_FILE, "
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT and "
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY (docs/matrix.md, 'Several machines')",
            field="--address",
        )
    security.require_encryption = True
    return security


def executor_for(address: str | None, workers: int) -> Executor:
    """The default local pool, or Dask for `--address`."""
    if address is None:
        return LocalPool(workers)
    return DaskExecutor(address, workers)


__all__ = ["LOCAL_CLUSTER", "DaskExecutor", "Executor", "LocalPool", "executor_for"]
