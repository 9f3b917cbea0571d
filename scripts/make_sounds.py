"""Synthesise the game's sound effects into assets/sounds/ (stdlib only, deterministic).

    python scripts/make_sounds.py

deal.wav    a soft swish of filtered noise (a card sliding off the deck)
play.wav    a short papery snap (a card laid on the cloth)
trick.wav   two quick swishes (the trick gathered in)
tokens.wav  two bright decaying partials, twice (tokens clinking into a bowl)
The sounds are made by this script from sine waves and seeded noise, so they are
the project's own work (same licence as the code).
"""

from __future__ import annotations

import math
import random
import struct
import wave
from pathlib import Path

RATE = 22050
OUT = Path(__file__).resolve().parents[1] / "assets" / "sounds"


def _write(name: str, samples: list[float]) -> None:
    peak = max(1e-9, max(abs(s) for s in samples))
    frames = b"".join(struct.pack("<h", int(32767 * 0.8 * s / peak)) for s in samples)
    with wave.open(str(OUT / name), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)


def _noise(seconds: float, seed: int, attack: float, decay: float, smooth: float) -> list[float]:
    rng = random.Random(seed)
    out, last = [], 0.0
    n = int(seconds * RATE)
    for i in range(n):
        t = i / RATE
        env = min(1.0, t / attack) * math.exp(-t / decay)
        last = smooth * last + (1 - smooth) * rng.uniform(-1, 1)  # one-pole low-pass
        out.append(env * last)
    return out


def _clink(seconds: float, freqs: tuple[float, ...], decay: float) -> list[float]:
    n = int(seconds * RATE)
    return [
        sum(math.sin(2 * math.pi * f * i / RATE) for f in freqs) * math.exp(-i / RATE / decay) / len(freqs)
        for i in range(n)
    ]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    _write("deal.wav", _noise(0.12, 1, 0.01, 0.035, 0.55))
    _write("play.wav", _noise(0.09, 2, 0.002, 0.018, 0.3))
    gap = [0.0] * int(0.04 * RATE)
    _write("trick.wav", _noise(0.1, 3, 0.01, 0.03, 0.6) + gap + _noise(0.12, 4, 0.01, 0.04, 0.6))
    clink = _clink(0.18, (2637.0, 3951.0, 5274.0), 0.05)
    _write("tokens.wav", clink + [0.0] * int(0.03 * RATE) + [0.7 * s for s in _clink(0.2, (2349.0, 3520.0), 0.06)])


if __name__ == "__main__":
    main()
