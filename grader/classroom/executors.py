"""Where a class's jobs run, as `grader grade --executor` names it: `local` (this machine's warm
workers) or `dask://HOST:PORT`, a dask.distributed cluster whose scheduler listens there. Every
Dask worker needs the same workbook checkout, its .venv and bubblewrap (see docs/instructors.md)."""
import logging
import threading
import time
from concurrent.futures import Executor, Future, InvalidStateError
from contextlib import contextmanager, suppress

from grader.errors import GraderError

LOCAL = "local"
DASK = "dask://"
CONNECT_SECONDS = 10        # to reach the scheduler
WORKERS_SECONDS = 60        # for a first worker to join it; the longest a run waits with none
WATCH_SECONDS = 2           # how often the cluster is looked at while jobs run
INSTALL = ("`make setup` installs it (or `.venv/bin/pip install dask==2026.8.0 "
           "distributed==2026.8.0`)")


def dask_address(spec):
    """The scheduler's address (tcp://HOST:PORT) that `spec` (dask://HOST:PORT) names."""
    where = spec[len(DASK):].strip("/")
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit():
        raise GraderError(f"--executor {spec}: name the Dask scheduler as dask://HOST:PORT "
                          "(its port is 8786 unless it was started with another)")
    return f"tcp://{where}"


class Cluster(Executor):
    """A Dask client as a concurrent.futures executor whose jobs end, with a GraderError that says
    why, when the connection to the scheduler is lost or no worker is left for WORKERS_SECONDS
    (Dask itself would leave them waiting for ever). Dask hands the jobs of a worker that died to
    another."""

    def __init__(self, client, address):
        self.client, self.address = client, address
        self.waiting, self.lock, self.failure = {}, threading.Lock(), None   # key: (Dask's, ours)
        self.stopped = threading.Event()
        threading.Thread(target=self.watch, daemon=True, name="cluster-watch").start()

    def submit(self, fn, /, *args, **kwargs):
        if self.failure or self.disconnected():
            raise self.failure or GraderError(self.disconnected())
        remote = self.client.submit(fn, *args, pure=False, **kwargs)  # handed out again: run again
        future = Future()
        with self.lock:
            self.waiting[remote.key] = (remote, future)     # held, or Dask would forget the job
        remote.add_done_callback(self.arrived)
        return future

    def arrived(self, remote):
        with self.lock:
            _, future = self.waiting.pop(remote.key, (None, None))
        if future is not None:
            try:
                settle(future.set_result, remote.result())
            except Exception as exc:       # the job's own error, or Dask's (a lost connection)
                settle(future.set_exception, exc)

    def disconnected(self):
        if self.client.status not in ("running", "connecting"):
            return f"lost the connection to the Dask scheduler at {self.address}"
        return None

    def watch(self):
        alone_since = None
        while not self.stopped.wait(WATCH_SECONDS):
            why = self.disconnected()
            if why is None:
                try:
                    workers = self.client.scheduler_info(n_workers=0)["n_workers"]
                except (OSError, TimeoutError, KeyError):
                    continue        # the client is reconnecting, or closing: seen next time
                alone_since = None if workers else alone_since or time.monotonic()
                if alone_since is None or time.monotonic() - alone_since < WORKERS_SECONDS:
                    continue
                why = (f"the Dask scheduler at {self.address} has had no worker for "
                       f"{WORKERS_SECONDS} s")
            self.fail(GraderError(why))
            return

    def fail(self, failure):
        """End every job still waiting with `failure`, and refuse new ones."""
        self.failure = failure
        with self.lock:
            waiting = [future for _, future in self.waiting.values()]
        for future in waiting:
            settle(future.set_exception, failure)

    def shutdown(self, wait=True, *, cancel_futures=False):
        """Stop watching; cancel the jobs still waiting (after an interrupt or an error)."""
        self.stopped.set()
        with self.lock:
            remotes = [remote for remote, _ in self.waiting.values()]
            self.waiting.clear()
        if remotes and not self.disconnected():
            with suppress(Exception):   # the connection went meanwhile: nothing left to cancel
                self.client.cancel(remotes)


def settle(set_outcome, value):
    """Set a future's outcome unless it already has one (it was cancelled or failed meanwhile)."""
    try:
        set_outcome(value)
    except InvalidStateError:
        pass


@contextmanager
def opened(spec):
    """The executor `spec` names, open for the run: None for local grading, else a Dask client's
    executor. Raises GraderError, with what to do, when it cannot be had."""
    if spec == LOCAL:
        yield None
        return
    if not spec.startswith(DASK):
        raise GraderError(f"--executor {spec}: expected `{LOCAL}` or dask://HOST:PORT")
    address = dask_address(spec)
    try:
        from distributed import Client
    except ImportError:
        raise GraderError(f"--executor {spec} needs dask.distributed, which is not installed "
                          f"here: {INSTALL}") from None
    for name in [n for n in logging.root.manager.loggerDict if n.startswith("distributed")]:
        logging.getLogger(name).setLevel(logging.CRITICAL)   # its own words, not ours
    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise GraderError(f"could not reach the Dask scheduler at {address} ({exc}); is "
                          f"`dask scheduler` running there, and its port open to this machine? "
                          "Nothing was graded") from None
    try:
        try:
            client.wait_for_workers(1, timeout=WORKERS_SECONDS)
        except (OSError, TimeoutError):
            raise GraderError(f"the Dask scheduler at {address} has no workers (none joined in "
                              f"{WORKERS_SECONDS} s): start `dask worker {address}` on each "
                              "grading machine. Nothing was graded") from None
        cluster = Cluster(client, address)
        try:
            yield cluster
        finally:
            cluster.shutdown()
    finally:
        try:
            client.close(timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError):
            pass            # the scheduler is gone: nothing of ours is left on it
