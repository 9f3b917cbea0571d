"""Draw the application icon into assets/icons/ (pygame drawing + stdlib, deterministic).

    python scripts/make_icon.py

The icon is two playing cards fanned on the green cloth of the table, a red heart
behind a black spade, with the gold of the menu's title as the frame. It is drawn
here from circles and polygons (no font, no outside art), so it is the project's
own work (same licence as the code).

Writes:
  vira-16.png … vira-1024.png   PNG at every size a desktop asks for (hicolor, .deb, tar.gz)
  vira.ico                      Windows: the PNGs 16–256 in one ICO (PNG-compressed entries)
  vira.icns                     macOS: the PNGs 16–1024 in one ICNS (PNG-compressed entries)
"""

from __future__ import annotations

import math
import os
import struct
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame

OUT = Path(__file__).resolve().parents[1] / "assets" / "icons"
BIG = 2048  # drawn at twice the largest size, then scaled down (anti-aliasing by supersampling)
SIZES = (16, 24, 32, 48, 64, 128, 256, 512, 1024)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS types with PNG data: (type, pixel size)
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"icp6", 64),
    (b"ic07", 128),
    (b"ic08", 256),
    (b"ic09", 512),
    (b"ic10", 1024),
    (b"ic11", 32),
    (b"ic12", 64),
    (b"ic13", 256),
    (b"ic14", 512),
)

FELT = (24, 92, 56)
FELT_LIGHT = (40, 124, 78)
GOLD = (240, 200, 90)
CARD = (250, 248, 240)
EDGE = (150, 150, 140)
RED = (200, 30, 40)
BLACK = (24, 24, 24)


def _tangent(centre: tuple[float, float], radius: float, point: tuple[float, float], outer: int) -> tuple[float, float]:
    """The point where a line from ``point`` touches the circle (``outer`` ±1 picks the side)."""
    cx, cy = centre
    px, py = point
    d = math.hypot(px - cx, py - cy)
    base = math.atan2(py - cy, px - cx)
    turn = math.acos(radius / d)
    angle = base + outer * turn
    return (cx + radius * math.cos(angle), cy + radius * math.sin(angle))


def heart(surface: pygame.Surface, colour: tuple[int, int, int], cx: float, cy: float, size: float) -> None:
    """A heart ``size`` wide, centred on (cx, cy): two lobes and a point below."""
    r = size * 0.27
    left = (cx - r * 0.93, cy - size * 0.14)
    right = (cx + r * 0.93, cy - size * 0.14)
    tip = (cx, cy + size * 0.48)
    pygame.draw.circle(surface, colour, left, r)
    pygame.draw.circle(surface, colour, right, r)
    points = [
        _tangent(left, r, tip, +1),
        left,
        (cx, cy - size * 0.14),
        right,
        _tangent(right, r, tip, -1),
        tip,
    ]
    pygame.draw.polygon(surface, colour, points)


def spade(surface: pygame.Surface, colour: tuple[int, int, int], cx: float, cy: float, size: float) -> None:
    """A spade ``size`` wide: an upside-down heart and a flared stem."""
    box = int(size * 1.3)
    layer = pygame.Surface((box, box), pygame.SRCALPHA)
    heart(layer, colour, box / 2, box / 2, size)
    layer = pygame.transform.flip(layer, False, True)
    surface.blit(layer, (cx - box / 2, cy - box / 2 - size * 0.08))
    stem_top = cy + size * 0.05
    stem_bottom = cy + size * 0.62
    half = size * 0.2
    pygame.draw.polygon(
        surface,
        colour,
        [
            (cx - size * 0.05, stem_top),
            (cx + size * 0.05, stem_top),
            (cx + size * 0.08, stem_bottom - size * 0.12),
            (cx + half, stem_bottom),
            (cx - half, stem_bottom),
            (cx - size * 0.08, stem_bottom - size * 0.12),
        ],
    )


def card(width: int, height: int, suit: str) -> pygame.Surface:
    """A white card with rounded corners, a thin edge and one big suit symbol."""
    surface = pygame.Surface((width, height), pygame.SRCALPHA)
    radius = width // 9
    pygame.draw.rect(surface, EDGE, surface.get_rect(), border_radius=radius)
    inner = surface.get_rect().inflate(-width // 40, -width // 40)
    pygame.draw.rect(surface, CARD, inner, border_radius=radius - width // 80)
    symbol = width * 0.62
    if suit == "heart":
        heart(surface, RED, width / 2, height * 0.48, symbol)
    else:
        spade(surface, BLACK, width / 2, height * 0.44, symbol)
    return surface


def draw_icon() -> pygame.Surface:
    """The icon at BIG×BIG, on a transparent background."""
    s = BIG
    icon = pygame.Surface((s, s), pygame.SRCALPHA)
    margin = s * 0.04
    tile = pygame.Rect(0, 0, round(s - 2 * margin), round(s - 2 * margin))
    tile.center = (s // 2, s // 2)
    corner = round(s * 0.2)
    pygame.draw.rect(icon, GOLD, tile, border_radius=corner)
    cloth = tile.inflate(-round(s * 0.05), -round(s * 0.05))
    pygame.draw.rect(icon, FELT, cloth, border_radius=corner - round(s * 0.025))
    # a soft lighter pool of light in the middle of the cloth
    glow = pygame.Surface((s, s), pygame.SRCALPHA)
    for i in range(24):
        radius = s * 0.42 * (1 - i / 24)
        alpha = 9
        pygame.draw.circle(glow, (*FELT_LIGHT, alpha), (s / 2, s * 0.47), radius)
    mask = pygame.Surface((s, s), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), cloth, border_radius=corner - round(s * 0.025))
    glow.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    icon.blit(glow, (0, 0))

    width, height = round(s * 0.4), round(s * 0.57)
    shadow = pygame.Surface((width, height), pygame.SRCALPHA)
    pygame.draw.rect(shadow, (0, 0, 0, 70), shadow.get_rect(), border_radius=width // 9)
    for suit, angle, dx, dy in (("heart", 15, -0.14, -0.01), ("spade", -9, 0.12, 0.02)):
        for layer, offset in ((shadow, s * 0.012), (card(width, height, suit), 0.0)):
            turned = pygame.transform.rotozoom(layer, angle, 1.0)
            box = turned.get_rect(center=(s / 2 + dx * s + offset, s / 2 + dy * s + offset))
            icon.blit(turned, box)
    return icon


def png_bytes(surface: pygame.Surface) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "icon.png"
        pygame.image.save(surface, str(path))
        return path.read_bytes()


def write_ico(path: Path, pngs: dict[int, bytes]) -> None:
    """An ICO whose entries are PNGs (read by Windows Vista and later)."""
    sizes = [n for n in ICO_SIZES if n in pngs]
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, data = b"", b""
    for n in sizes:
        blob = pngs[n]
        dim = 0 if n >= 256 else n  # 0 means 256
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset + len(data))
        data += blob
    path.write_bytes(header + entries + data)


def write_icns(path: Path, pngs: dict[int, bytes]) -> None:
    """An ICNS whose entries are PNGs (macOS 10.7 and later)."""
    body = b"".join(kind + struct.pack(">I", 8 + len(pngs[n])) + pngs[n] for kind, n in ICNS_TYPES)
    path.write_bytes(b"icns" + struct.pack(">I", 8 + len(body)) + body)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    big = draw_icon()
    pngs: dict[int, bytes] = {}
    for n in SIZES:
        small = pygame.transform.smoothscale(big, (n, n))
        pngs[n] = png_bytes(small)
        (OUT / f"vira-{n}.png").write_bytes(pngs[n])
    write_ico(OUT / "vira.ico", pngs)
    write_icns(OUT / "vira.icns", pngs)
    for f in sorted(OUT.iterdir()):
        print(f"{f.relative_to(OUT.parents[1])}  {f.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
