"""``vira --autoplay``: bots play in the window, then the frame statistics as JSON (each
frame's wall and CPU time, the start-up time and the peak memory); the window keeps them only
while autoplay runs."""

from __future__ import annotations

import json

import pygame

from ..session.factory import SeatConfig, TableOrder
from .app import App
from .frames import FrameStats

__all__ = ["autoplay"]


def autoplay(
    deals: int,
    seed: int,
    speed: str,
    players: int = 3,
    save: bool = False,
    resume: bool = False,
    hints: bool = False,
    history: bool = False,
) -> int:
    """Play ``deals`` deals with every seat a bot, then print the frame statistics as JSON.

    ``save`` autosaves after every action as a real game does; ``resume`` continues the autosave;
    ``hints`` asks the coach for a hint at every decision of the first seat, as a player would;
    ``history`` keeps every deal in history as a real game does.
    """
    app = App(autoplay_speed=speed, save_autoplay=save, history=history)
    frames = app.frame_stats = FrameStats(app.started)
    app.to_menu()
    app.step(0.0)  # the menu's first frame: the start-up figure
    names = ["North", "East", "South", "West"][:players]
    order = TableOrder(tuple(SeatConfig(n, False, "normal") for n in names), seed, players_settings=False)
    if resume and app.has_autosave():
        app.resume_autosave(autoplay=deals, hints=hints)
    else:
        app.start_table(order, autoplay=deals, hints=hints)
    app.run()
    top = app.stack.top
    stats = frames.summary(getattr(top, "deals_done", deals))
    app.flush_saves()
    if hints:
        stats["hints"] = getattr(top, "hints_asked", 0)
    print(json.dumps(stats))
    pygame.quit()
    return 0
