"""The worker, and the table runner's bookkeeping of the bots' answers, without a window."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest

from vira_desktop.session.jobs import JobKind
from vira_desktop.session.runner import Command, TableRunner
from vira_desktop.session.table import SeatConfig, Table
from vira_desktop.session.thinking import bot_choice, warm_up
from vira_desktop.session.worker import BotPool, Worker


class FakeWorker(Worker):
    """Jobs wait until the test finishes them, in any order it likes."""

    def __init__(self) -> None:
        self.submitted: list[tuple[object, Callable[..., Any], tuple[Any, ...]]] = []
        self.done: list[tuple[object, Any]] = []
        self.given: set[object] = set()
        self.hurried = 0

    def hurry(self) -> None:
        self.hurried += 1

    def submit(self, tag: object, fn: Callable[..., Any], *args: Any) -> Any:
        self.submitted.append((tag, fn, args))

    def finish_last(self) -> tuple[object, Any]:
        """Work out the last job (its answer is handed out by the next poll)."""
        tag, fn, args = self.submitted[-1]
        return tag, fn(*args)

    def poll(self) -> list[tuple[object, Any]]:
        done, self.done = self.done, []
        self.given |= {tag for tag, _ in done}
        return done

    def busy(self, tag: object | None = None) -> bool:
        """A job submitted and not yet handed out by a poll."""
        return any((tag is None or t == tag) and t not in self.given for t, _, _ in self.submitted)

    def pending(self) -> bool:
        return self.busy()

    def cancel(self, stale: Callable[[object], bool]) -> None:
        pass

    def cancel_all(self) -> None:
        pass


def _wait_result(worker: Worker, seconds: float = 60.0) -> list[tuple[object, Any]]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        done = worker.poll()
        if done:
            return done
        time.sleep(0.01)
    raise AssertionError("the worker gave no result")


def test_a_bot_answer_from_before_an_undo_is_never_applied() -> None:
    """Undo, then the same number of actions again: the old job's answer must not count."""
    table = Table([SeatConfig("You", True), SeatConfig("B"), SeatConfig("C")], seed=3)
    worker = FakeWorker()
    runner = TableRunner(table, worker, pause=0)
    while (ask := runner.asked()) is None:  # let the bots bid up to the human
        runner.poll(0)
        worker.done.append(worker.finish_last())
        runner.poll(0)
    assert ask.view.decision is not None
    runner.submit(ask.seat, ask.view.decision.actions[0])
    runner.poll(0)
    stale_tag, stale = worker.finish_last()
    runner.command(Command.UNDO)
    again = runner.asked()
    assert again is not None and again.view.decision is not None
    runner.submit(again.seat, again.view.decision.actions[-1])
    runner.poll(0)
    fresh_tag = worker.submitted[-1][0]
    assert fresh_tag != stale_tag
    log_before = list(table.log)
    worker.done.append((stale_tag, stale))
    assert runner.poll(0) == []
    assert table.log == log_before


def test_a_dead_worker_process_hands_over_to_a_thread() -> None:
    worker = Worker(processes=True)
    try:
        assert worker.in_process
        worker.submit("warm", warm_up)
        assert _wait_result(worker) == [("warm", True)]
        for pid in list(worker._pool._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)
        table = Table([SeatConfig("A"), SeatConfig("B"), SeatConfig("C")], seed=1)
        ask = table.ask()
        assert ask is not None
        spec = table.bot_spec(ask)
        assert spec is not None
        worker.submit("bot", bot_choice, spec, ask.view)
        ((tag, choice),) = _wait_result(worker)
        assert tag == "bot" and choice.action is not None and table.deal.is_legal(choice.action)
        assert not worker.in_process
    finally:
        worker.shutdown()


def test_a_job_that_raises_is_handed_back_not_raised() -> None:
    worker = Worker(processes=False)
    try:
        worker.submit("bad", int, "not a number")
        ((tag, result),) = _wait_result(worker)
        assert tag == "bad" and isinstance(result, ValueError)
    finally:
        worker.shutdown()


def test_a_hurry_stops_a_long_search_and_it_still_answers() -> None:
    """A strong bot given eight seconds a card answers well within them once hurried (a hint is
    asked, or the position has gone), with a legal card; the next job is not hurried."""
    from vira_desktop.rules.actions import PlayCard

    from .test_strong import _play_views

    deal, seat = next((d, s) for d, s in _play_views(6, 9) if len(d.tricks_played) < 4)
    view = deal.view(seat)
    worker = Worker()
    try:
        worker.submit("warm", warm_up)
        while worker.busy():
            time.sleep(0.01)
        start = time.monotonic()
        worker.submit("slow", bot_choice, ("strong", 1, 1, 8.0), view)
        time.sleep(0.3)
        worker.hurry()
        while worker.busy() and time.monotonic() - start < 6:
            time.sleep(0.01)
        assert time.monotonic() - start < 4.0  # 8 s unhurried; a loaded 2-core machine took 2.6 s hurried
        ((_, choice),) = [r for r in worker.poll() if r[0] == "slow"]
        assert isinstance(choice.action, PlayCard) and choice.action in view.decision.actions  # type: ignore[union-attr]
        start = time.monotonic()
        worker.submit("next", bot_choice, ("strong", 2, 1, 0.6), view)
        while worker.busy():
            time.sleep(0.01)
        # not hurried (the hurry was for the one before): it thinks till its layouts are done or the
        # next would likely run past its budget (0.54 s); under load that was 0.38 s once, a hurried
        # search answers within a few milliseconds
        assert time.monotonic() - start >= 0.25
    finally:
        worker.shutdown()


def test_a_hint_asked_while_a_bot_thinks_hurries_it() -> None:
    table = Table([SeatConfig("You", True), SeatConfig("Bertil", False, "strong"), SeatConfig("Cecilia")], seed=4)
    worker = FakeWorker()
    runner = TableRunner(table, worker, pause=0)
    runner.start()
    for step in range(200):
        runner.poll(float(step))
        if runner.master.jobs.busy(JobKind.BOT):
            break
    ask = runner.table.ask()
    assert runner.master.jobs.busy(JobKind.BOT) and ask is not None  # a bot is thinking over its question
    runner.master.jobs.ask(JobKind.HINT, runner.master.version, str, "a hint", owner=runner.port.owner)
    assert worker.hurried == 1


def test_a_process_worker_leaves_a_thread_workers_hurry_listened_to() -> None:
    """This process's searches listen to the thread worker's hurry (its searches run here);
    a process worker made after it has its own event in its own process, and takes nothing."""
    from vira_desktop.ai import strong

    threads = Worker(processes=False)
    process = Worker()
    try:
        assert strong._stop == threads._hurry.is_set
    finally:
        process.shutdown()
        threads.shutdown()


def test_on_windows_the_pool_wakes_its_manager_with_a_byte(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wine's pipes hang on an empty message: the wake-up carries one byte there, and a pool
    woken so still runs its jobs."""
    from concurrent.futures import process

    from vira_desktop.session import worker as worker_module

    monkeypatch.setattr(process._ThreadWakeup, "wakeup", process._ThreadWakeup.wakeup)  # put back afterwards
    real = sys.platform
    monkeypatch.setattr(sys, "platform", "win32")
    worker_module._wake_with_a_byte()
    monkeypatch.setattr(sys, "platform", real)  # the pool below is started as here
    wakeup = process._ThreadWakeup()
    wakeup.wakeup()
    assert wakeup._reader.recv_bytes() == b"\0"
    wakeup.clear()
    assert not wakeup._reader.poll()
    wakeup.close()
    job = Worker()
    try:
        job.submit("sum", sum, [1, 2, 3])
        deadline = time.monotonic() + 60
        while not (done := job.poll()) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert done == [("sum", 6)]
    finally:
        job.shutdown()


def test_one_rule_for_every_kind_of_job_an_answer_counts_only_at_the_version_it_was_asked_at() -> None:
    """Bot moves, hints, bid advice and analysis go through one queue: an answer asked at a
    version that has gone is dropped, whatever its kind, and a queued job of a gone version is
    cancelled (a running one is hurried)."""
    from vira_desktop.session.jobs import Job, Jobs

    worker = FakeWorker()
    jobs = Jobs(worker)
    for kind in JobKind:
        assert jobs.ask(kind, 1, str, kind.value)
        assert not jobs.ask(kind, 1, str, kind.value)  # once a version
        assert jobs.busy(kind)
    worker.done = [(Job(kind, 1), kind.value) for kind in JobKind]
    jobs.moved_on(2)
    assert jobs.answers(2) == [] and not any(jobs.busy(k) for k in JobKind)
    assert jobs.ask(JobKind.HINT, 2, str, "again")
    worker.done = [(Job(JobKind.HINT, 2), "again"), (Job(JobKind.BOT, 1), "stale")]
    assert jobs.answers(2) == [(Job(JobKind.HINT, 2), "again")] and not jobs.busy(JobKind.HINT)

    real = Worker(processes=False)
    try:
        queue = Jobs(real)
        queue.ask(JobKind.BOT, 1, time.sleep, 0.3)  # runs
        queue.ask(JobKind.HINT, 1, time.sleep, 5)  # waits behind it
        queue.moved_on(2)
        assert [job.future.cancelled() for job in real._jobs] in ([False], [])
        start = time.monotonic()
        while real.busy() and time.monotonic() - start < 3:
            time.sleep(0.01)
        assert time.monotonic() - start < 1.0 and queue.answers(2) == []  # the 5 s job never ran
    finally:
        real.shutdown()


def test_the_lanes_of_one_pool_each_get_their_own_answers_in_order() -> None:
    """A host's pool: five tables' lanes over two processes, the lanes spread over them; each
    lane polls its own answers, in order, and never another's; an idle lane's hurry stops no
    other lane's search; a lane shut (twice) gives its place back, and the others go on."""
    pool = BotPool(2)
    try:
        lanes = [pool.lane() for _ in range(5)]
        assert sorted(pool.lanes) == [2, 3] and all(lane.in_process and lane.shared for lane in lanes)
        for i, lane in enumerate(lanes):
            for j in range(3):
                lane.submit((i, j), pow, i + 2, j)
        got: list[list[tuple[object, Any]]] = [[] for _ in lanes]
        deadline = time.monotonic() + 60
        while any(len(g) < 3 for g in got) and time.monotonic() < deadline:
            for g, lane in zip(got, lanes, strict=True):
                g += lane.poll()
            time.sleep(0.01)
        assert got == [[((i, j), (i + 2) ** j) for j in range(3)] for i in range(5)]
        assert not any(lane.pending() for lane in lanes)
        first, second = lanes[0], next(lane for lane in lanes[1:] if lane._slot is lanes[0]._slot)
        first.submit("long", time.sleep, 0.5)
        second.hurry()  # nothing of its own in hand: the other's job is left alone
        assert not first._hurry.is_set()
        lanes[0].shutdown()
        lanes[0].shutdown()
        assert sorted(pool.lanes) == [2, 2]
        second.submit("after", sum, [1, 2])
        assert _wait_result(second) == [("after", 3)]
    finally:
        pool.shutdown()


def test_when_a_pools_process_dies_its_lanes_go_on_in_one_thread(caplog: pytest.LogCaptureFixture) -> None:
    """Two tables' lanes on the one process of a pool: it is killed with a job of each in
    hand, each lane's job is run again, and both lanes (and a job asked afterwards) think in
    the one thread that took the process's place."""
    pool = BotPool(1)
    try:
        first, second = pool.lane(), pool.lane()
        first.submit("warm", warm_up)
        assert _wait_result(first) == [("warm", True)]
        first.submit("a", time.sleep, 1.0)
        second.submit("b", sum, [3, 4])  # queued behind it
        time.sleep(0.3)
        for pid in list(first._pool._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)
        assert _wait_result(second) == [("b", 7)] and _wait_result(first) == [("a", None)]
        thread = pool.slots[0].pool
        assert not first.in_process and first._pool is second._pool is thread
        first.submit("c", sum, [1, 2])
        assert _wait_result(first) == [("c", 3)] and pool.slots[0].pool is thread
        assert sum("process has gone" in r.getMessage() for r in caplog.records) == 1  # one thread made
    finally:
        pool.shutdown()
