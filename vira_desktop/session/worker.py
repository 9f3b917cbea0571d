"""One worker for all slow thinking of the window: every bot decision and every hint.

The frame loop submits a job and polls it each frame, so it never waits. Jobs
run in one worker *process*: a thread would hold the GIL while a bot thinks,
and every blit of the frame loop would wait for it (measured: 20-30 ms frames
with hints asked at every decision). Where no process can be started the worker
falls back to a thread. A job is tagged with what it answers; a result for a
position that has gone (undo, a new deal, the menu) is dropped by the caller
comparing tags (a table's jobs: :mod:`.jobs`, by the table's version).

A host serves many tables from one :class:`BotPool`: a few processes made before it
serves, each table thinking in a lane of its own (a table starting never starts a process).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import process as _process
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from .thinking import Hurry, follow_parent, listen, warm_up

__all__ = ["BotPool", "InlineWorker", "Job", "Slot", "Worker"]

log = logging.getLogger(__name__)
_KEPT: list[object] = []  # each process pool's hurry event, for as long as this process lives


def _wake_with_a_byte() -> None:
    """On Windows, have the process pool wake its manager thread with a one-byte message
    instead of an empty one. Under Wine (8.0) an empty message on a pipe shows as ready but
    reading it blocks for ever, so the pool's manager hung at the first job submitted to an
    idle pool and the bots never moved (``scripts/smoke_bundle.sh`` at ``--speed normal``).
    The manager reads every wake-up message whatever it holds, so real Windows is the same."""
    wakeup = getattr(_process, "_ThreadWakeup", None)
    if sys.platform != "win32" or wakeup is None or not hasattr(wakeup, "wakeup"):
        return

    def wake(self: Any) -> None:
        with getattr(self, "_lock", None) or contextlib.nullcontext():
            if not self._closed:
                self._writer.send_bytes(b"\0")

    wakeup.wakeup = wake


_wake_with_a_byte()


@dataclass
class Job:
    tag: object
    future: Future[Any]
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    pool: Executor | None = None  # where it was submitted (a process that dies: see Slot.broken)


@dataclass
class Slot:
    """One worker process (a thread where none can be started) and its hurry event: a
    :class:`Worker`'s own, or shared by the lanes of a :class:`BotPool`."""

    pool: Executor
    hurry: Hurry  # set: the running job's search stops early

    @classmethod
    def start(cls, processes: bool = True) -> Slot:
        if processes:
            try:
                context = multiprocessing.get_context("spawn")
                event = context.Event()
                _KEPT.append(event)  # alive until its process has read it, however soon the pool is shut
                pool = ProcessPoolExecutor(1, mp_context=context, initializer=follow_parent, initargs=(event,))
                pool.submit(warm_up)
                return cls(pool, event)
            except (OSError, RuntimeError, NotImplementedError):
                pass
        return cls(*_thread())  # a thread only where no process could be started

    def broken(self, pool: Executor) -> None:
        """``pool`` lost its process: carry on in a thread (once, whichever lane finds it first)."""
        if self.pool is pool:
            log.warning("the worker process has gone; bots and hints now think in a thread")
            self.pool, self.hurry = _thread()

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def _thread() -> tuple[Executor, Hurry]:
    """A thread to think in: this process's searches listen for its hurry (made only for a
    thread worker, so a process worker never takes the listening from one)."""
    hurry = threading.Event()
    listen(hurry)
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="vira-worker"), hurry


class Worker:
    """Jobs run one at a time, in order, in a worker process (or a thread): the worker's own
    (:class:`Slot`), or one a :class:`BotPool`'s lane shares with other tables."""

    def __init__(
        self, processes: bool = True, *, slot: Slot | None = None, release: Callable[[], None] | None = None
    ) -> None:
        self._jobs: list[Job] = []
        self._slot = slot if slot is not None else Slot.start(processes)
        self._release = release  # a lane's: hands its place in the pool back at shutdown

    @property
    def _pool(self) -> Executor:
        return self._slot.pool

    @property
    def _hurry(self) -> Hurry:
        return self._slot.hurry

    @property
    def shared(self) -> bool:
        """A lane of a pool: other tables' jobs run in the same process."""
        return self._release is not None

    def hurry(self) -> None:
        """Have the running job's search stop early with what it has found so far (a hint is
        asked, or the position has gone): the job still answers, sooner. A lane hurries only
        a job of its own that has been handed to the process."""
        if any(not job.future.done() and (job.future.running() or not self.shared) for job in self._jobs):
            self._hurry.set()

    @property
    def in_process(self) -> bool:
        return isinstance(self._pool, ProcessPoolExecutor)

    def submit(self, tag: object, fn: Callable[..., Any], *args: Any) -> Job:
        """Run ``fn(*args)`` (picklable: a module-level function and plain values)."""
        pool = self._pool
        try:
            future = pool.submit(fn, *args)
        except (BrokenProcessPool, RuntimeError):  # the process died while idle: carry on in a thread
            self._to_threads(pool)
            future = self._pool.submit(fn, *args)
        job = Job(tag, future, fn, args, self._pool)
        self._jobs.append(job)
        return job

    def _to_threads(self, broken: Executor | None) -> None:
        """``broken`` lost its process: this worker's jobs run again in the thread that takes
        its place (one for the slot, whichever of its lanes finds it first)."""
        if broken is not None:
            self._slot.broken(broken)
        pool = self._pool
        self._jobs = [Job(j.tag, pool.submit(j.fn, *j.args), j.fn, j.args, pool) for j in self._jobs]

    def busy(self, tag: object | None = None) -> bool:
        """Whether a job (with ``tag``, if given) is queued or running."""
        return any(tag is None or job.tag == tag for job in self._jobs if not job.future.done())

    def pending(self) -> bool:
        """Whether any job is queued, running, or finished and not yet polled (a window that
        slept now would leave its answer unread until the next input)."""
        return bool(self._jobs)

    def poll(self) -> list[tuple[object, Any]]:
        """The (tag, result) of every job finished since the last poll, in order submitted.
        A job that raised gives its exception as the result (the caller decides; the frame
        loop never sees it raised)."""
        done: list[tuple[object, Any]] = []
        while self._jobs and self._jobs[0].future.done():
            job = self._jobs[0]
            try:
                result = job.future.result()
            except BrokenProcessPool:  # the process died with the job: run it again in a thread
                self._to_threads(job.pool)
                continue
            except Exception as exc:
                result = exc
            self._jobs.pop(0)
            done.append((job.tag, result))
        return done

    def cancel(self, stale: Callable[[object], bool]) -> None:
        """Drop the queued jobs whose tag is ``stale``; hurry a running one that is (it still
        answers, and the caller drops the answer)."""
        running = [job for job in self._jobs if stale(job.tag) and not job.future.cancel()]
        self._jobs = [job for job in self._jobs if not job.future.cancelled()]
        if any(not job.future.done() for job in running):
            self._hurry.set()

    def cancel_all(self) -> None:
        """Drop queued jobs; a running one is hurried, finishes and is polled (its tag tells it
        is stale)."""
        self.cancel(lambda tag: True)

    def shutdown(self) -> None:
        """The worker's process is stopped; a lane only drops its jobs (a running one hurried)
        and gives its place in the pool back."""
        if self._release is None:
            self._slot.shutdown()
        else:
            self.cancel_all()
            self._release()
            self._release = lambda: None  # once
        self._jobs = []


class BotPool:
    """The worker processes of a host: ``processes`` of them, made at once and shared by all
    its tables (0: one thread of this process, for tests). Each table thinks in a
    :meth:`lane`, a :class:`Worker` with its own jobs and answers, tied to one process of the
    pool: the one with the fewest tables when the lane is made. A table's jobs so run in
    order in one process, as in the window: its bots keep their state there (the same seed
    plays the same), and its hurry stops only a search of that process. The price: a long
    search (a strong bot's) holds up the other tables of its process."""

    def __init__(self, processes: int) -> None:
        self.slots = [Slot.start(processes > 0) for _ in range(max(1, processes))]
        self.lanes = [0] * len(self.slots)  # the lanes open on each slot

    def lane(self) -> Worker:
        """A table's worker in the pool (see the class); its ``shutdown`` closes only the lane."""
        index = min(range(len(self.slots)), key=self.lanes.__getitem__)
        self.lanes[index] += 1

        def release() -> None:
            self.lanes[index] -= 1

        return Worker(slot=self.slots[index], release=release)

    def shutdown(self) -> None:
        for slot in self.slots:
            slot.shutdown()


class InlineWorker(Worker):
    """Runs each job at once, in the caller's thread (a table without a window: tests, the
    command line). Results come out of :meth:`poll` as from the real worker."""

    def __init__(self) -> None:  # no pool: nothing to start (an idle thread pool starts no thread)
        super().__init__(slot=Slot(ThreadPoolExecutor(1), threading.Event()))  # the hurry never needed

    def submit(self, tag: object, fn: Callable[..., Any], *args: Any) -> Job:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args))
        except Exception as exc:
            future.set_exception(exc)
        job = Job(tag, future, fn, args)
        self._jobs.append(job)
        return job

    @property
    def in_process(self) -> bool:
        return False

    def shutdown(self) -> None:
        self._jobs = []
