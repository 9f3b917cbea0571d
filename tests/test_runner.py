"""The table runner without a window: whole sessions of bots, the deal-committed hook, hot
seat, undo, one-option steps, hints, the updates' events projected for the seat shown, and
saves written off the caller's thread. This module imports no pygame."""

from __future__ import annotations

import json
import time
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest

from vira_desktop.i18n import configure, t
from vira_desktop.rules.cards import Card
from vira_desktop.rules.errors import ViraError
from vira_desktop.rules.events import DealStarted
from vira_desktop.session.autosave import Autosave
from vira_desktop.session.describe import describe_result
from vira_desktop.session.narration import Narrator
from vira_desktop.session.record import check_result, read_record, replay
from vira_desktop.session.runner import Command, CommittedDeal, TableRunner, Update
from vira_desktop.session.saving import BackgroundSaver
from vira_desktop.session.table import SaveSnapshot, SeatConfig, Table


@pytest.fixture(autouse=True)
def _english() -> None:
    configure("en")


def cards_in(value: object) -> list[Card]:
    """Every card named anywhere in an event (hidden ones are None)."""
    if isinstance(value, Card):
        return [value]
    if isinstance(value, tuple | list):
        return [c for v in value for c in cards_in(v)]
    if is_dataclass(value) and not isinstance(value, type):
        return [c for f in fields(value) for c in cards_in(getattr(value, f.name))]
    return []


def bots(n: int, level: str = "normal") -> list[SeatConfig]:
    return [SeatConfig(name, False, level) for name in ("Anna", "Bertil", "Cecilia", "David")[:n]]


def test_a_whole_four_seat_session_of_bots_runs_through_the_runner_alone() -> None:
    table = Table(bots(4), seed=11)
    committed: list[CommittedDeal] = []
    runner = TableRunner(table, pause=0, autoplay=60, on_committed=committed.append)
    runner.start()
    runner.command(Command.LAST_ROUND)  # each player forehand once more, then Borup: the session ends
    for step in range(200_000):
        runner.poll(float(step))
        if runner.master.finished:
            break
    assert runner.master.finished and runner.master.session_over
    played = len(table.session.deals)
    assert played == runner.master.deals_done == len(committed) >= 4
    assert [c.index for c in committed] == list(range(played))
    assert table.session.ledger.conserved()
    for deal in committed:  # each is a whole deal record that replays to its result
        record = read_record(deal.record)
        assert check_result(record, replay(record)) is None
        assert deal.levels == {name: "normal" for name in ("Anna", "Bertil", "Cecilia", "David")}
    assert table.session.deals[-1].borup and not any(d.borup for d in table.session.deals[:-1])


def test_every_update_names_only_cards_the_seat_shown_may_know() -> None:
    table = Table([SeatConfig("You", True), *bots(2)[1:], SeatConfig("David")], seed=4)
    runner = TableRunner(table, pause=0)
    seen: list[Update] = [runner.start()]
    for step in range(5000):
        seen += runner.poll(float(step))
        ask = runner.asked()
        if ask is not None:
            assert ask.view.decision is not None
            decision = ask.view.decision
            action = (
                decision.actions[0]
                if decision.actions
                else decision.choice.make(  # type: ignore[union-attr]
                    list(decision.choice.candidates)[: decision.choice.min_count]  # type: ignore[union-attr]
                )
            )
            seen.append(runner.submit(ask.seat, action))
        if runner.master.deal_over:
            break
    assert runner.master.deal_over
    seat = runner.port.seat
    known: set[Card] = set()
    deal = table.deal
    if seat is not None:
        known |= set(deal.dealt[seat]) | set(deal.view(seat).hand)
    view = deal.view(seat) if seat is not None else deal.public_view()
    known |= {c for _, cards in view.tricks for _, c in cards} | set(view.turned)
    known |= {c for cards in view.open_hands.values() for c in cards}
    for update in seen:
        for ev in update.events:
            if isinstance(ev, DealStarted) and seat is not None:
                assert {c for c in ev.deck if c is not None} == set(deal.dealt[seat])
            leaked = [c for c in cards_in(ev) if c not in known and c not in set(deal.initial_stock) & known]
            assert not leaked, f"{ev} shows {leaked}"


def test_a_deal_is_committed_only_once_it_can_no_longer_be_undone() -> None:
    table = Table([SeatConfig("You", True), *bots(3)[1:]], seed=8)
    committed: list[CommittedDeal] = []
    runner = TableRunner(table, pause=0, on_committed=committed.append)
    runner.start()
    for step in range(5000):
        runner.poll(float(step))
        if runner.master.deal_over:
            break
        ask = runner.asked()
        if ask is not None and ask.view.decision is not None:
            d = ask.view.decision
            action = d.actions[-1] if d.actions else d.choice.make(list(d.choice.candidates)[: d.choice.min_count])  # type: ignore[union-attr]
            runner.submit(ask.seat, action)
    assert runner.master.deal_over and runner.port.can_undo and committed == []  # an undo may still take it back
    runner.command(Command.NEXT_DEAL)
    assert [c.index for c in committed] == [0] and committed[0].record["result"]
    assert committed[0].levels["You"] == "human"


def test_hot_seat_covers_the_table_when_another_human_must_act() -> None:
    table = Table([SeatConfig("Anna", True), SeatConfig("Bertil", True), SeatConfig("Cecilia")], seed=2)
    runner = TableRunner(table, pause=0)
    runner.start()
    assert runner.port.cover == runner.viewer  # whoever comes back to the table finds it covered
    runner.lift_cover()
    shown = set()
    for step in range(3000):
        runner.poll(float(step))
        if runner.port.cover is not None:
            assert runner.asked() is not None  # the question waits for the player taking the screen
            shown.add(runner.port.cover)
            runner.lift_cover()
        ask = runner.asked()
        if ask is not None and ask.view.decision is not None:
            assert table.name_of(ask.seat) == runner.viewer
            d = ask.view.decision
            action = d.actions[0] if d.actions else d.choice.make(list(d.choice.candidates)[: d.choice.min_count])  # type: ignore[union-attr]
            runner.submit(ask.seat, action)
        if runner.master.deal_over:
            break
    assert shown == {"Anna", "Bertil"}


def at_your_first_turn() -> tuple[Table, TableRunner]:
    """A table of you and two bots, the bots played up to your first question."""
    table = Table([SeatConfig("You", True), *bots(3)[1:]], seed=3)
    runner = TableRunner(table, pause=0)
    runner.start()
    while runner.asked() is None:
        runner.poll(0)
    return table, runner


def test_undo_retells_the_deal_and_a_wrong_turn_is_refused() -> None:
    table, runner = at_your_first_turn()
    ask = runner.asked()
    assert ask is not None and ask.view.decision is not None
    with pytest.raises(ViraError):
        runner.submit((ask.seat + 1) % 3, ask.view.decision.actions[0])
    with pytest.raises(ViraError):
        runner.command(Command.UNDO)  # nothing of the player's yet
    runner.submit(ask.seat, ask.view.decision.actions[0])
    assert runner.port.can_undo
    update = runner.command(Command.UNDO)
    assert update.snap and runner.port.narrator.lines[-1] == t("log.undo")
    assert not any(e.human for e in table.log)
    with pytest.raises(ViraError):
        runner.command(Command.NEXT_DEAL)  # the deal is still in play


def test_the_coach_answers_the_question_standing() -> None:
    table, runner = at_your_first_turn()
    assert runner.ask_hint()
    hints = [u.hint for u in runner.poll(0) if u.hint is not None]
    assert len(hints) == 1 and hints[0] is not None and hints[0].action is not None
    assert table.deal.is_legal(hints[0].action)


def test_saves_are_written_off_the_callers_thread_and_load_back(tmp_path: Path) -> None:
    path, journal = tmp_path / "autosave.sqlite3", tmp_path / "journal"
    saver = BackgroundSaver(Autosave(path), journal)
    table = Table(bots(3), seed=5)
    runner = TableRunner(table, pause=0, save=saver)
    runner.start()
    for step in range(400):
        runner.poll(float(step))
    assert saver.flush()
    assert saver.written >= 1
    loaded = Autosave(path).load()
    assert [(e.deal, e.player, e.action) for e in loaded.log] == [(e.deal, e.player, e.action) for e in table.log]
    last = json.loads(journal.read_text(encoding="utf-8").splitlines()[-1])
    assert last["log"] == len(table.log)


class _Faulty(Autosave):
    """An autosave whose first write fails with a fault that is not the disk's."""

    faults = 1

    def write(self, snapshot: SaveSnapshot) -> None:
        if self.faults:
            self.faults -= 1
            raise ValueError("not the disk")
        super().write(snapshot)


def test_a_save_that_fails_with_a_fault_is_told_and_the_next_is_written(tmp_path: Path) -> None:
    """A fault in a save (not an OSError) is told as a failed save, and the saver's thread
    lives on: the next save is written and every wait on it ends (before, the thread died with
    the fault and the table's next save was never written)."""
    failures: list[OSError] = []
    saver = BackgroundSaver(_Faulty(tmp_path / "autosave.sqlite3"), failed=failures.append)
    table = Table(bots(3), seed=5)
    saver(table)
    assert saver.flush() and len(failures) == 1 and "not the disk" in str(failures[0])
    saver(table)
    assert saver.flush() and saver.written == 1
    saver.close()
    assert Autosave(tmp_path / "autosave.sqlite3").load().log == table.log


class _Slow(Autosave):
    """An autosave whose every write takes 20 ms more."""

    def write(self, snapshot: SaveSnapshot) -> None:
        time.sleep(0.02)
        super().write(snapshot)


def test_each_save_written_is_told_while_newer_ones_keep_coming(tmp_path: Path) -> None:
    """Saves asked for faster than the disk writes them: each one written is told with its
    number (one written holds every one asked before it) while newer ones are still asked for.
    A host sends its clients what waited for a save as soon as that save is written; before,
    it was told only once no save was under way, so bots moving faster than the disk kept a
    table's clients waiting for as long as they moved."""
    told: list[tuple[int, int]] = []  # (the save written, the saves asked for by then)
    saver = BackgroundSaver(_Slow(tmp_path / "autosave.sqlite3"), done=lambda n: told.append((n, saver.asked)))
    table = Table(bots(3), seed=5)
    numbers: list[int] = []
    # Asked for every 4 ms until the first is told and five more after it (at most 500: told
    # only once no save is under way, none would be told before the asking stops), so a
    # loaded machine slows the test down but cannot make it fail.
    while len(numbers) < 500 and not (told and len(numbers) >= told[0][1] + 5):
        numbers.append(saver(table))
        time.sleep(0.004)
    assert saver.flush()
    saver.close()
    assert numbers == list(range(1, len(numbers) + 1))
    written = [n for n, _ in told]
    assert written == sorted(written) and written[-1] == len(numbers)  # in order, the last one too
    assert told[0][1] < len(numbers)  # told while the saves were still coming


def played_to_the_first_ala_om(players: int) -> tuple[Table, TableRunner]:
    """Easy bots play (seed 1) until a winner's lift first needs everyone to ante again."""
    table = Table(bots(players, "easy"), seed=1)
    runner = TableRunner(table, pause=0, autoplay=20)
    runner.start()
    for step in range(200_000):
        runner.poll(float(step))
        if runner.master.deal_over and table.session.deals and table.session.deals[-1].ala_om:
            return table, runner
    raise AssertionError("no åla om in 20 deals")


@pytest.mark.parametrize("players", [3, 4])
def test_ala_om_is_told_in_the_banner_and_the_log_and_again_after_continue(players: int) -> None:
    table, runner = played_to_the_first_ala_om(players)
    state = runner.state()
    assert state.ala_om == 1 and state.view.result is not None
    level = state.view.contract.suit_level if state.view.contract else 0
    lines = describe_result(state.view.result, state.seats, level, state.ala_om, len(state.players))[1]
    four = players == 4
    said = t("result.ala_om_four" if four else "result.ala_om", count=1)
    lift = next(i for i, line in enumerate(lines) if " lifts " in line or line.startswith("You lift"))
    assert lines[lift - 1] == said  # said before the lift, as it is made
    told = t("log.ala_om_four" if four else "log.ala_om")
    assert told in runner.port.narrator.lines
    assert ("sitter-out" in said) == four and ("sitter-out" in told) == four  # only four players have one
    resumed = TableRunner(Table.from_json(table.to_json()), pause=0)  # Continue
    resumed.start()
    assert told in resumed.port.narrator.lines and resumed.port.narrator.lines[-1] == runner.port.narrator.lines[-1]
    assert resumed.state().ala_om == 1


def test_the_first_deals_ala_stays_in_the_log_after_continue_and_undo() -> None:
    table, runner = at_your_first_turn()
    assert t("log.ala") in runner.port.narrator.lines
    ask = runner.asked()
    assert ask is not None and ask.view.decision is not None
    runner.submit(ask.seat, ask.view.decision.actions[0])
    resumed = TableRunner(Table.from_json(table.to_json()), pause=0)  # Continue
    resumed.start()
    assert t("log.ala") in resumed.port.narrator.lines
    resumed.command(Command.UNDO)
    assert t("log.ala") in resumed.port.narrator.lines


class EveryLine(Narrator):
    """A narrator that keeps every line it said (the log keeps only the newest)."""

    def __init__(self) -> None:
        super().__init__()
        self.every: list[str] = []

    def say(self, *lines: str) -> None:
        self.every.extend(lines)
        super().say(*lines)


def test_a_marking_is_told_once_in_the_log_of_a_hot_seat() -> None:
    """Two humans share one log: the screen passing back and forth tells no marking again. The
    note beside the table says a marking while it stands, and no more once the deal is over."""
    from vira_desktop.ai import make_bot

    marked = noted = 0
    for seed in range(1, 4):
        table = Table([SeatConfig("Anna", True), SeatConfig("Bo", True), SeatConfig("Cissi")], seed)
        narrator = EveryLine()
        runner = TableRunner(table, pause=0, narrator=narrator)
        runner.start()
        bot = make_bot("normal", 1)
        for step in range(20_000):
            runner.poll(float(step))
            runner.lift_cover()
            ask = runner.asked()
            if ask is not None:
                runner.submit(ask.seat, bot.choose(ask.view).action)
            noted += narrator.note.startswith("Ågren")
            if runner.master.deal_over:
                break
        markings = [line for line in narrator.every if line.startswith("Ågren")]
        assert runner.master.deal_over and len(markings) == len(set(markings)), markings
        assert narrator.note == ""  # the deal is over: the marking no longer stands beside it
        marked += bool(markings)
    assert marked and noted  # some deal had a marking to tell, and it stood in the note


def test_the_coach_weighs_each_bid_once_per_auction_turn_of_the_player() -> None:
    """With ``coach_bids`` the runner asks the worker once per auction turn of the player shown;
    the advice comes in an update, is kept for that turn only, and is gone after an undo."""
    from vira_desktop.rules.actions import Bid
    from vira_desktop.rules.decision import Phase

    _, runner = at_your_first_turn()
    ask = runner.asked()
    assert ask is not None and ask.view.phase is Phase.AUCTION
    assert runner.advice() is None and not any(u.advice for u in runner.poll(0))  # not asked for
    runner.coach_bids = True
    updates = runner.poll(0) + runner.poll(0)  # asked at the end of one poll, taken in by the next
    advised = [u.advice for u in updates if u.advice is not None]
    assert len(advised) == 1 and runner.advice() == advised[0]
    assert ask.view.decision is not None
    assert set(advised[0]) == {a for a in ask.view.decision.actions if isinstance(a, Bid)}
    assert not any(u.advice for u in runner.poll(0))  # once per turn: kept, not asked again
    runner.submit(ask.seat, ask.view.decision.actions[-1])
    assert runner.advice() is None  # the turn is gone
    runner.command(Command.UNDO)
    assert runner.advice() is None
    assert any(u.advice for u in runner.poll(0) + runner.poll(0))  # the turn stands again: asked again


def test_the_analysis_of_a_finished_deal_comes_through_the_worker() -> None:
    """'Could I have won?' without a window: asked once the deal is over (and only then), it
    comes as an update from poll, for the player's side, and is gone with the next deal. It is
    worked out a step a job (the double dummy, then a trick's cards judged on what their
    seats could see), each step in telling how far it has come."""
    table = Table([SeatConfig("You", False, "normal"), *bots(3)[1:]], seed=3)
    runner = TableRunner(table, pause=0, viewer="You")
    runner.start()
    assert not runner.ask_analysis()  # nothing to analyse before the deal is over
    for step in range(5000):
        runner.poll(float(step))
        if runner.master.deal_over and runner.table.deal.tricks_played:
            break
        if runner.master.deal_over:
            runner.command(Command.NEXT_DEAL)
    runner.port.analysis_layouts = 4  # a few layouts a card: the steps, not their figures, are tested here
    assert runner.ask_analysis()
    updates = []
    for _ in range(40):  # one step a poll: the double dummy, then each trick
        updates += runner.poll(9999.0)
        if any(u.analysis is not None for u in updates):
            break
        assert runner.ask_analysis()  # asked again meanwhile: nothing asked twice
    got = [u.analysis for u in updates if u.analysis is not None]
    assert len(got) == 1 and runner.analysis() == got[0]
    info = got[0]
    deal = runner.table.deal
    steps = [u.analysing for u in updates if u.analysing is not None]
    assert steps == [(n, len(deal.tricks_played)) for n in range(len(deal.tricks_played))]
    names = runner.table.session.seats
    side = {"You"} if info.declarer == "You" else {n for n in names if n != info.declarer}
    assert info.layouts == 4 and {s.seat for s in info.seen} <= side  # the player's side alone is judged
    assert deal.declarer is not None
    assert info.taken == deal.tricks_won[deal.declarer]
    assert len(info.best_line) == len(deal.tricks_played)
    runner.command(Command.NEXT_DEAL)
    assert runner.analysis() is None


def test_the_runner_settles_the_session_with_its_events_and_says_so_once() -> None:
    """The end of a session happens behind the port, not in a drawing class: the runner shares
    the pulla (the ledger's events in its update, the settlement in the state it gives), tells
    whoever kept the autosave, and refuses while a deal is in play."""
    from vira_desktop.rules.errors import ViraError
    from vira_desktop.rules.ledger import TokensMoved

    settled: list[bool] = []
    table = Table([SeatConfig("A"), SeatConfig("B"), SeatConfig("C")], seed=2)
    runner = TableRunner(table, pause=0, on_settled=lambda: settled.append(True))
    runner.start()
    with pytest.raises(ViraError):
        runner.command(Command.SETTLE)
    for step in range(5000):
        runner.poll(float(step))
        if runner.master.deal_over:
            break
    update = runner.command(Command.SETTLE)
    state = runner.state()
    assert state.settlement is not None and settled == [True]
    assert sum(state.settlement.results.values()) == 0
    assert any(isinstance(ev, TokensMoved) for ev in update.events) or state.settlement.pulla_bets == 0
    assert runner.command(Command.SETTLE).events == ()  # once only


def test_a_failed_hint_is_asked_again_by_the_player_not_at_every_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """With hints at every decision, a coach that fails was asked again at every poll (a review);
    now once a position, and again when the player presses H."""
    from vira_desktop.session import port as module

    calls: list[int] = []

    def failing(view: object) -> object:
        calls.append(1)
        raise RuntimeError("the coach is down")

    monkeypatch.setattr(module, "coach_hint", failing)
    table = Table([SeatConfig("You", True), SeatConfig("B"), SeatConfig("C")], seed=3)
    runner = TableRunner(table, pause=0, hint_every_decision=True)
    runner.start()
    for step in range(200):
        runner.poll(float(step))
        if runner.asked() is not None and calls:
            break
    version = runner.master.version
    for step in range(20):
        runner.poll(200.0 + step)
    assert runner.master.version == version and len(calls) == 1
    assert runner.ask_hint()
    runner.poll(300.0)
    assert len(calls) == 2


def test_the_panel_says_whose_tricks_are_counted_and_a_defender_is_told_the_partner() -> None:
    """A newcomer read "tricks taken 2, 6 needed" not knowing whose, and the coach's "partner"
    not knowing whom: the panel names the declarer ("Bertil's tricks …", yours "your tricks
    …") and tells a defender the partner."""
    from dataclasses import replace

    from vira_desktop.rules.decision import Phase
    from vira_desktop.rules.seat import Seat
    from vira_desktop.scenes.table.panel_text import contract_lines

    table = Table([SeatConfig("You", True), *bots(3)[1:]], seed=4)
    runner = TableRunner(table, pause=0)
    runner.start()
    for step in range(2000):
        runner.poll(float(step))
        if (ask := runner.asked()) is not None:
            decision = ask.view.decision
            assert decision is not None
            action = (
                decision.actions[0]
                if decision.actions
                else decision.choice.make(  # type: ignore[union-attr]
                    list(decision.choice.candidates)[: decision.choice.min_count]  # type: ignore[union-attr]
                )
            )
            runner.submit(ask.seat, action)
        if table.deal.phase is Phase.PLAY:
            break
    state = runner.state()
    contract = state.view.contract
    assert contract is not None
    declarer = contract.declarer
    defenders = [Seat(s) for s in range(3) if s != declarer]
    name = state.seats[declarer]
    whose = "your tricks 0" if name == "You" else f"{name}'s tricks 0"
    assert contract_lines(replace(state, viewer=declarer))[0].startswith(whose)
    for seat in defenders:
        other = next(s for s in defenders if s != seat)
        lines = contract_lines(replace(state, viewer=seat))
        assert lines[0].startswith(whose)
        assert lines[1] == f"your partner: {state.seats[other]} · your side's tricks 0"
    assert len(contract_lines(replace(state, viewer=None))) == 1  # sitting out: nobody's partner


def test_a_strong_bot_is_shown_the_cards_its_seat_laid_aside_after_an_undo_too() -> None:
    """A view stops showing the seat's cards laid aside once the first card is played; the
    strong bot remembers them, and the table keeps that memory for it, so after an undo (its
    bots made anew) it is still shown them; a normal bot, which does not remember, is not."""
    from vira_desktop.ai.normal import NormalBot

    seats = [SeatConfig("You", True), SeatConfig("Bertil", False, "strong"), SeatConfig("Cecilia")]
    table = Table(seats, seed=3)
    chooser = NormalBot(1)
    shown_after_undo = undos = 0
    for _ in range(8):  # deals
        undone = False
        while (ask := table.ask()) is not None:
            deal = table.deal
            human = table.is_human(ask.seat)
            if deal.first_card_played and not human:
                shown = table.bot_view(ask).own_laid_aside
                strong = table.seat_config(table.name_of(ask.seat)).level == "strong"
                assert shown == (deal.laid_aside(ask.seat) if strong else ())
                shown_after_undo += bool(shown) and undone
            if human and len(deal.tricks_played) >= 2 and not undone and table.can_undo():
                table.undo()  # the bots are made anew: the table still knows what each laid aside
                undone, undos = True, undos + 1
                continue
            table.answer(ask, chooser.choose(ask.view).action, human=human)
        table.next_deal()
    assert undos >= 5 and shown_after_undo > 40, (undos, shown_after_undo)
