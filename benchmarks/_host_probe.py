"""``vira host`` under a probe, for ``benchmarks/network.py --probe DIR [--profile]``: its
event loop's lateness measured, and each move's passage through the host stamped on this
machine's one clock (``DIR/host.json``): when the host read the submission, and when every
seat's update and state of that version were queued (then held until its save is written:
that wait is in the clients' part of the split); ``profile``:
the host process under cProfile too (``DIR/host.prof``; it slows the host several times).
Run by the benchmark as ``python benchmarks/_host_probe.py DIR profile|stamps host-arguments...``.
"""

from __future__ import annotations

import asyncio
import cProfile
import json
import sys
import time
from pathlib import Path
from typing import Any


def main() -> int:
    folder, profiling, argv = Path(sys.argv[1]), sys.argv[2] == "profile", sys.argv[3:]
    from vira_desktop import cli
    from vira_desktop.net import host
    from vira_desktop.net.protocol import ClientMessage, Submit

    moves: dict[tuple[str, int], list[float]] = {}  # (table, version made) -> received, flushed
    waiting: dict[str, list[tuple[int, list[float]]]] = {}  # each table's moves not yet flushed
    flushed: dict[str, tuple[float, int]] = {}  # each table's last flush: when, at which version
    lags: list[float] = []
    receive, flush, serve = host.NetTable.receive, host.NetTable._flush, host.serve_host

    def probed_receive(self: host.NetTable, member: host.Member, message: ClientMessage) -> str | None:
        start = time.monotonic()
        refusal = receive(self, member, message)
        if isinstance(message, Submit) and refusal is None and message.version is not None:
            made = message.version + 1
            stamps = moves[(self.code, made)] = [start]
            at, version = flushed.get(self.code, (0.0, -1))
            if at >= start and version >= made:  # flushed within the submission's own turn
                stamps.append(at)
            else:
                waiting.setdefault(self.code, []).append((made, stamps))
        return refusal

    def probed_flush(self: host.NetTable, now: float) -> None:
        flush(self, now)
        done = time.monotonic()
        assert self.master is not None
        version = self.master.version
        flushed[self.code] = (done, version)
        for made, stamps in waiting.pop(self.code, []):
            if made <= version:
                stamps.append(done)
            else:
                waiting.setdefault(self.code, []).append((made, stamps))

    async def lag() -> None:
        while True:
            start = time.monotonic()
            await asyncio.sleep(0.01)
            lags.append(time.monotonic() - start - 0.01)

    async def probed_serve(*args: Any, **kwargs: Any) -> int:
        task = asyncio.create_task(lag())
        try:
            return await serve(*args, **kwargs)
        finally:
            task.cancel()

    host.NetTable.receive = probed_receive  # type: ignore[method-assign]
    host.NetTable._flush = probed_flush  # type: ignore[method-assign]
    host.serve_host = probed_serve
    profile = cProfile.Profile() if profiling else None
    try:
        return profile.runcall(cli.main, ["host", *argv]) if profile is not None else cli.main(["host", *argv])
    finally:
        if profile is not None:
            profile.dump_stats(folder / "host.prof")
        rows = [[code, version, *stamps] for (code, version), stamps in moves.items()]
        (folder / "host.json").write_text(json.dumps({"moves": rows, "lags": lags}))


if __name__ == "__main__":  # a bot worker process imports this module again, as __mp_main__
    raise SystemExit(main())
