"""The window's frame statistics while ``vira --autoplay`` runs: each frame's wall and CPU
time, the start-up time and the peak memory."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["FrameStats", "peak_memory_mb", "process_age"]


def peak_memory_mb() -> float:
    """The process's peak resident memory in MB (Windows has no ``resource`` module)."""
    if sys.platform == "win32":
        import ctypes
        from ctypes import wintypes

        class Counters(ctypes.Structure):
            _fields_ = [
                ("cb", wintypes.DWORD),
                ("PageFaultCount", wintypes.DWORD),
                ("PeakWorkingSetSize", ctypes.c_size_t),
                ("WorkingSetSize", ctypes.c_size_t),
                ("QuotaPeakPagedPoolUsage", ctypes.c_size_t),
                ("QuotaPagedPoolUsage", ctypes.c_size_t),
                ("QuotaPeakNonPagedPoolUsage", ctypes.c_size_t),
                ("QuotaNonPagedPoolUsage", ctypes.c_size_t),
                ("PagefileUsage", ctypes.c_size_t),
                ("PeakPagefileUsage", ctypes.c_size_t),
            ]

        # With its prototypes declared: ctypes would pass the pseudo-handle GetCurrentProcess()
        # returns (-1) as a 32-bit int, which 64-bit Windows takes for no process (found under
        # Wine: the frozen game's rss_mb was 0).
        kernel32 = ctypes.WinDLL("kernel32")  # type: ignore[attr-defined]
        psapi = ctypes.WinDLL("psapi")  # type: ignore[attr-defined]
        kernel32.GetCurrentProcess.restype = wintypes.HANDLE
        kernel32.GetCurrentProcess.argtypes = []
        psapi.GetProcessMemoryInfo.restype = wintypes.BOOL
        psapi.GetProcessMemoryInfo.argtypes = [wintypes.HANDLE, ctypes.POINTER(Counters), wintypes.DWORD]
        counters = Counters()
        counters.cb = ctypes.sizeof(Counters)
        if not psapi.GetProcessMemoryInfo(kernel32.GetCurrentProcess(), ctypes.byref(counters), counters.cb):
            return 0.0
        return float(counters.PeakWorkingSetSize) / (1024 * 1024)
    import resource

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def process_age() -> float | None:
    """Seconds since this process started (Linux /proc), or None where that is not known."""
    try:
        stat = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return uptime - int(stat[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


@dataclass
class FrameStats:
    """Each frame's wall time and the frame loop's own CPU time, in seconds, and the start-up
    figure (the first frame's time from the process start, or from ``started``)."""

    started: float  # time.perf_counter() when the window was made
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    first_frame_s: float | None = None

    def record(self, wall: float, cpu: float) -> None:
        """One frame drawn (the first one also gives the start-up figure)."""
        self.wall.append(wall)
        self.cpu.append(cpu)
        if self.first_frame_s is None:
            age = process_age()  # from the process start, imports included
            self.first_frame_s = age if age is not None else time.perf_counter() - self.started

    def summary(self, deals: int) -> dict[str, Any]:
        """The figures ``vira --autoplay`` prints (milliseconds; the first 5 frames left out)."""
        times = sorted(self.wall[5:] or self.wall)
        cpu = sorted(self.cpu[5:] or self.cpu)
        ms = 1000.0

        def pct(q: float, values: list[float] = times) -> float:
            return round(ms * values[min(len(values) - 1, int(q * len(values)))], 3) if values else 0.0

        return {
            "deals": deals,
            "frames": len(self.wall),
            "frame_ms_median": pct(0.5),
            "frame_ms_p95": pct(0.95),
            "frame_ms_max": pct(1.0),
            "frame_cpu_ms_p95": pct(0.95, cpu),
            "frame_cpu_ms_max": pct(1.0, cpu),
            "startup_s": round(self.first_frame_s or 0.0, 3),
            "rss_mb": round(peak_memory_mb(), 1),
        }
