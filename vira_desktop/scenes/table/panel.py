"""The right-hand panel's buttons, as a pure function of what is asked, the table's state
and the cards selected (:func:`table_buttons`), and the widget that shows them
(:class:`Panel`, which makes its buttons again only when the list differs)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pygame
import pygame_gui

from ...i18n import t
from ...rules.actions import Action, AnnounceAces, Bid, Buy, Decide, Discard, Keep, Pass, Repurchase, SetAside, Turn
from ...rules.decision import CardChoice, Phase
from ...rules.games import Family, Game
from ...rules.scoring import Outcome
from ...session.describe import choice_label, choice_notes
from ...session.flow import Ask
from ...session.state import TableState
from ..base import Scene
from .input import Command
from .model import TABLE_W

__all__ = [
    "ButtonSpec",
    "Layout",
    "Panel",
    "Situation",
    "choice_button",
    "choice_prompt",
    "choice_ready",
    "table_buttons",
]

CHOICE_KEYS = {Keep: "keep", Discard: "discard", Buy: "buy", Repurchase: "repurchase", SetAside: "set_aside"}
# What each step of the declarer's choice after buying does, said beside its button.
LAID_AS_KODILJ = (Family.SOLO, Family.SOLO_MISERE)  # laid down, a solo counts as kodilj; the rest as bet
PANEL_TOP, AFTER_DEAL_TOP = 340, 412  # after a deal, below the result's notes (Finnish runs long)
LOG_TOP = 640  # the buttons close up to stay above the log
MIN_STEP = 30  # the least height of a row of buttons
HINT_W = 96  # the Hint button beside another, where it has no row of its own
HINT_Y = 610  # the Hint button's row in the auction and at a card


@dataclass(frozen=True)
class ButtonSpec:
    label: str
    what: Action | Command | None  # an action to take, a command, or None (decline an offer)
    y: int
    x: int = TABLE_W + 16
    width: int = 288
    enabled: bool = True
    height: int = 38


@dataclass(frozen=True)
class Layout:
    """The panel's buttons, the lines said above them, and the bids the grid offers."""

    buttons: tuple[ButtonSpec, ...] = ()
    details: tuple[str, ...] = ()
    bids: tuple[Bid, ...] | None = None  # in the auction: the legal bids (the grid shows them)
    passes: tuple[Pass, ...] = ()
    detail_room: int = 12  # the lines of details the panel has room for above the buttons

    @property
    def top(self) -> int:
        """Where the panel's first button is (its notes end above it)."""
        return min((b.y for b in self.buttons if b.x >= TABLE_W), default=658)


def choice_prompt(choice: CardChoice) -> str:
    """What to select for a card choice, in the player's words ("choose 1 card …", "choose
    the 2 cards …", "choose 0 to 3 cards …": the noun agrees with the largest number)."""
    low, high = choice.min_count, choice.max_count
    n = str(low) if low == high else t("choice.count_range", low=low, high=high)
    return t(f"choice.prompt.{CHOICE_KEYS[choice.action]}", n=n, count=high)


def choice_button(choice: CardChoice, selected: int) -> str:
    """The button for a card choice: "throw away 3 and buy 3", "keep 4 cards" … or what is
    still wrong with the selection ("too many: at most 3")."""
    if selected > choice.max_count:
        return t("choice.too_many", max=choice.max_count)
    if selected < choice.min_count:
        if choice.action is Repurchase and not selected:  # say what the cards are for
            return t("choice.repurchase_pick")
        return t("choice.more", count=choice.min_count - selected)
    if choice.action is Buy:
        return t("choice.buy", n=selected) if selected else t("choice.buy_nothing")
    if choice.action is Repurchase:
        return t("choice.repurchase", n=selected) if selected else t("choice.no_repurchase")
    return t(f"choice.{CHOICE_KEYS[choice.action]}", count=selected)


def choice_ready(choice: CardChoice, selected: int) -> bool:
    return choice.min_count <= selected <= choice.max_count


@dataclass(frozen=True)
class Situation:
    """What the panel depends on besides the question."""

    state: TableState = field(compare=False)  # compared by identity where it matters: a new one each update
    blocked: bool = False  # the hot-seat cover or the seating draw: no control works
    deals_on: bool = True  # after a deal, the next one (a lesson is one deal)
    ends_session: bool = True  # after a deal, offer the last round and Borup
    back_after: bool = False  # one deal played again: after it, back to the screen it came from
    session_over: bool = False
    host_deals: bool = False  # a shared table: its host deals the next deal (no button for it, no analysis)
    selected: int = 0
    detail_lines: Callable[[Sequence[str]], int] = field(default=len, compare=False)  # wrapped line count


ENDING_GAP = 28  # the pixels between the buttons after a deal and the two that end the session


def _analyse_button(state: TableState, y: int) -> tuple[ButtonSpec, ...]:
    """After a deal whose cards were played: "Could I have won?" (the player's side lost) or
    "Could I have done better?" (it won); none for a laid deal or a player sitting out."""
    view = state.view
    result = view.result
    if result is None or not view.tricks or view.spectator:
        return ()
    won = (int(view.seat) == result.declarer) == (result.outcome is Outcome.HOME)
    return (ButtonSpec(t("button.analyse_better" if won else "button.analyse_won"), Command("analyse"), y),)


def table_buttons(ask: Ask | None, s: Situation) -> Layout:
    """The panel for the player shown: the next deal after a deal, the aces offer, the
    auction's Bid / Pass / Hint, or a button per choice with the card-choice button."""
    over = s.state.over
    y = AFTER_DEAL_TOP if over else PANEL_TOP
    if over and s.back_after and not s.blocked:
        specs = [ButtonSpec(t("button.played_again_back"), Command("next"), y)]
        return Layout((*specs, *_analyse_button(s.state, y + 44)))
    if s.blocked or (over and not s.deals_on):
        return Layout()  # a lesson's own buttons take the learner on
    if over and s.session_over:
        specs = [ButtonSpec(t("button.settle"), Command("next"), y)]  # the Borup deal was the last
        return Layout((*specs, *_analyse_button(s.state, y + 44)))
    if over and s.host_deals:
        if s.state.deals_left is not None or not s.ends_session:
            return Layout()
        return Layout((ButtonSpec(t("button.last_round"), Command("last round"), y),
                       ButtonSpec(t("button.borup"), Command("borup"), y + 44)))  # fmt: skip
    if over:
        specs = [ButtonSpec(t("button.next_deal"), Command("next"), y), *_analyse_button(s.state, y + 44)]
        if s.state.deals_left is None and s.ends_session:  # how the session ends, agreed once: apart, below
            y += 44 * len(specs) + ENDING_GAP  # (right under "Next deal" a newcomer feared ending it by a slip)
            specs.append(ButtonSpec(t("button.last_round"), Command("last round"), y))
            specs.append(ButtonSpec(t("button.borup"), Command("borup"), y + 44))
        return Layout(tuple(specs))
    if ask is None or ask.view.decision is None:
        return Layout()
    decision = ask.view.decision
    if ask.optional:
        return Layout(
            (
                ButtonSpec(t("button.aces"), decision.actions[0], y),
                ButtonSpec(t("button.play_on"), None, y + 42),
            )
        )
    if decision.phase is Phase.AUCTION:
        passes = tuple(a for a in decision.actions if isinstance(a, Pass))
        specs = [ButtonSpec(t("button.bid"), Command("bid"), 566, width=140)]
        specs += [ButtonSpec(t("button.pass"), a, 566, TABLE_W + 164, 140) for a in passes]
        specs.append(ButtonSpec(t("button.hint"), Command("hint"), HINT_Y))
        bids = tuple(a for a in decision.actions if isinstance(a, Bid))
        return Layout(tuple(specs), bids=bids, passes=passes)
    if decision.phase is Phase.PLAY:
        aces = [a for a in decision.actions if isinstance(a, AnnounceAces)]  # low gask, before the lead
        hint = ButtonSpec(t("button.hint"), Command("hint"), HINT_Y)  # as in the auction (a newcomer missed it)
        return Layout(((ButtonSpec(t("button.aces"), aces[0], y),) if aces else ()) + (hint,))
    view = ask.view
    notes = _action_help(decision.actions, view.game)
    choice, n = decision.choice, s.selected
    count = len(decision.actions) + (choice is not None) + 1
    repurchase = choice is not None and choice.action is Repurchase
    pays = choice_notes(decision.actions, view.game, view.rules.pulla, repurchase, view.repurchased)  # what each pays
    if pays and not s.state.pulla_bets and view.seat == view.declarer:  # "lifts 1 bet" from "pulla · 0 bets" puzzled
        pays.append(t("choice.pulla_empty"))  # (the first note to give way where room is short)
    while pays and PANEL_TOP + 18 * s.detail_lines(pays) + MIN_STEP * count > LOG_TOP:
        pays.pop()  # eight levels of solo leave room for the first note only: the buttons say the rest
    notes += pays
    if choice is not None:
        prompt = choice_prompt(choice)
        notes.append(t("choice.selected", n=n, prompt=prompt) if n else prompt)
    # the buttons go under what the panel says, and close up to stay above the log: with no
    # room for a row of its own the Hint goes beside the last button, and the notes give way
    rows = len(decision.actions) + (choice is not None)
    lines = s.detail_lines(notes)
    beside = rows > 0 and (LOG_TOP - PANEL_TOP - 18 * lines) // (rows + 1) < MIN_STEP
    lines = min(lines, (LOG_TOP - PANEL_TOP - MIN_STEP * (rows + (not beside))) // 18)
    y = PANEL_TOP + 18 * lines
    step = max(MIN_STEP, min(42, (LOG_TOP - y) // (rows + (not beside))))
    specs = []
    labels: list[tuple[str, Action | Command | None, bool]] = [
        (f"{i + 1}. {choice_label(action, view.game, view.highest, view.suit_level)}", action, True)
        for i, action in enumerate(decision.actions)
    ]
    if choice is not None:
        labels.append((t("button.confirm", what=choice_button(choice, n)), Command("choose"), choice_ready(choice, n)))
    shortest = min(range(len(labels)), key=lambda i: len(labels[i][0]), default=-1) if beside else -1
    hint_y = y + step * (shortest if beside else len(labels))
    for i, (label, what, enabled) in enumerate(labels):
        width = 288 - HINT_W - 8 if i == shortest else 288  # the Hint beside the shortest label
        specs.append(ButtonSpec(label, what, y, width=width, enabled=enabled, height=step - 4))
        y += step
    hint_x, hint_w = (TABLE_W + 304 - HINT_W, HINT_W) if beside else (TABLE_W + 16, 288)
    specs.append(ButtonSpec(t("button.hint"), Command("hint"), hint_y, hint_x, hint_w, height=step - 4))
    return Layout(tuple(specs), details=tuple(notes), detail_room=lines)


def _action_help(actions: Sequence[Action], game: Game | None) -> list[str]:
    """One short line on each choice the buttons do not explain by themselves."""
    out = []
    for action in actions:
        if isinstance(action, Decide) and not action.play:
            solo = game is not None and game.family in LAID_AS_KODILJ
            out.append(t("help.lay_down_kodilj" if solo else "help.lay_down_bet"))
        elif isinstance(action, Turn) and action.again:
            out.append(t("help.turn_again"))
    return out


class Panel:
    """The panel's buttons on screen, made again only when the list of specs differs."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.specs: tuple[ButtonSpec, ...] | None = None
        self.buttons: dict[pygame_gui.elements.UIButton, Action | Command | None] = {}

    def show(self, specs: Sequence[ButtonSpec]) -> bool:
        """Show ``specs`` (``True``: the buttons were made anew)."""
        specs = tuple(specs)
        if specs == self.specs:
            return False
        self.specs = specs
        self.scene.clear_widgets()
        self.buttons = {}
        for spec in specs:
            rect = pygame.Rect(spec.x, spec.y, spec.width, spec.height)
            button = pygame_gui.elements.UIButton(rect, spec.label, manager=self.scene.ui)
            if not spec.enabled:
                button.disable()  # type: ignore[no-untyped-call]
            self.buttons[self.scene.add(button)] = spec.what
        return True

    def forget(self) -> None:
        """The widgets went (a language switch, an overlay closed): make them again next time."""
        self.specs = None

    def select(self, what: Action | Command | None) -> None:
        """Show the button that gives ``what`` selected (the one Enter presses), no other."""
        for button, gives in self.buttons.items():
            if what is not None and gives == what and not button.is_selected:
                button.select()  # type: ignore[no-untyped-call]
            elif (what is None or gives != what) and button.is_selected:
                button.unselect()  # type: ignore[no-untyped-call]

    def numbered(self) -> list[Action | Command | None]:
        """What buttons 1–9 press: the numbered ones, in order."""
        return [w for b, w in self.buttons.items() if b.text[:2].rstrip(".").isdigit()]
