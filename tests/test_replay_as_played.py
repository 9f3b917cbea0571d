"""A deal from history replayed and played again as it was played (issue 36): the person's
seat shown and the person's colour kept, the seats and levels of the deal by default, the
bowls and the pulla as they stood when the deal began; a bad record opens in the window from
``vira replay FILE --window`` as from ``vira FILE.yaml``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pygame
import pytest

from tests.screens import runner_of, table_of
from tests.test_gui import key, make_app, run
from vira_desktop.i18n import t
from vira_desktop.paths import history_file
from vira_desktop.rules.ledger import PULLA, SEXMASTARE, Kind, Ledger
from vira_desktop.scenes.app import App
from vira_desktop.scenes.table import TableScene
from vira_desktop.scenes.table.input import Command
from vira_desktop.session.history import History
from vira_desktop.session.record import Record, parse_yaml, read_record
from vira_desktop.session.runner import CommittedDeal, TableRunner
from vira_desktop.session.state import Holdings
from vira_desktop.session.table import SeatConfig, Table

NAMES = ("Anna", "Bo", "Cilla", "Dan")
LEVELS = {"Anna": "human", "Bo": "strong", "Cilla": "easy", "Dan": "normal"}

Tokens = tuple[dict[str, Holdings], Holdings, int]


def _tokens(ledger: Ledger, players: list[str]) -> Tokens:
    """The bowls, the pulla and the pins under it."""
    return {n: ledger.holdings(n) for n in players}, ledger.holdings(PULLA), sum(ledger.holdings(SEXMASTARE).values())


def _kept(
    folder: Path, deals: int, seats: int = 3, seed: int = 3, bowl: dict[Kind, int] | None = None
) -> tuple[History, dict[int, Tokens]]:
    """An autoplayed session kept in history as played by Anna (a person), Bo (strong), Cilla
    (easy) and Dan (normal), ``bowl`` in each one's bowl; the tokens as each deal began, by its index."""
    table = Table([SeatConfig(n, False, "normal") for n in NAMES[:seats]], seed, bowl=bowl)
    committed: list[CommittedDeal] = []
    tokens: dict[int, Tokens] = {}

    def keep(deal: CommittedDeal) -> None:
        committed.append(deal)  # the deal is over, the next not yet dealt: as the next one begins
        tokens[deal.index + 1] = _tokens(table.session.ledger, table.session.players)

    runner = TableRunner(table, pause=0, autoplay=deals, on_committed=keep)
    runner.start()
    step = 0
    while not runner.master.finished:
        step += 1
        runner.poll(float(step))
    runner.close()
    history = History(folder / history_file().name)
    for d in committed:
        levels = {n: LEVELS[n] for n in d.players}
        history.add_deal(d.session_key, d.index, d.record, d.players, levels, started=d.started, bowl=d.bowl)
    return history, tokens


def _replayed(app: App, deal_id: int) -> object:
    """History → the deal chosen → Enter: the replay."""
    from vira_desktop.scenes.table import ReplayScene

    app.push("history")
    run(app, 2)
    scene = app.stack.top
    for _ in range([r.id for r in scene.deals.shown].index(deal_id)):  # type: ignore[union-attr]
        key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    replay = app.stack.top
    assert isinstance(replay, ReplayScene) and replay.deal_id == deal_id
    return replay


def _annas_deal(app: App) -> tuple[object, Record]:
    """A deal in which Anna (a person) sat in middle-hand, neither forehand nor first in the
    form, opened from history in the replay; and its record."""
    kept, _ = _kept(history_file().parent, deals=3)
    row = next(r for r in kept.deals() if r.seats[1] == "Anna")
    record = read_record(kept.record(row.id))
    kept.close()
    return _replayed(app, row.id), record


def test_the_replay_opens_on_the_persons_seat_and_each_player_keeps_the_colour_of_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replay shows Anna's cards (not forehand's), and each player keeps the colour of the
    table (the new-game form's order: Anna yellow, Bo blue, Cilla red), wherever they sit."""
    from vira_desktop.scenes.table.view import TableView
    from vira_desktop.scenes.theme import PLAYER_COLOURS

    app = make_app(tmp_path, monkeypatch)
    replay, record = _annas_deal(app)
    assert record.names[replay.driver.viewer] == "Anna"  # type: ignore[attr-defined]
    state = replay.view.state  # type: ignore[attr-defined]
    assert state.viewer_name == "Anna"
    seat_of = {name: seat for seat, name in enumerate(state.seats)}
    for i, name in enumerate(NAMES[:3]):
        assert TableView.colour_of(state, seat_of[name]) == PLAYER_COLOURS[i]


def test_play_from_here_offers_the_seats_and_levels_the_deal_was_played_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Play from here (P) offers the seats as they were (Anna a person, Bo strong, Cilla easy),
    Anna's row chosen, and starts them so, Anna in her colour."""
    from vira_desktop.scenes.history import PlayAgainScene
    from vira_desktop.scenes.table import TableScene

    app = make_app(tmp_path, monkeypatch)
    _, record = _annas_deal(app)
    key(app, pygame.K_p)
    form = app.stack.top
    assert isinstance(form, PlayAgainScene)
    assert form.kinds == [LEVELS[n] for n in record.names]  # the deal's own seats and levels
    assert form.row == record.names.index("Anna")
    key(app, pygame.K_RETURN)
    table = app.stack.top
    assert isinstance(table, TableScene)
    seats = {s.name: ("human" if s.human else s.level) for s in table_of(table).seats}
    assert seats == {n: LEVELS[n] for n in NAMES[:3]}
    assert table.runner.state().colour_index("Anna") == 0  # yellow at the table too


def test_replay_and_play_again_show_the_tokens_as_they_stood_when_the_deal_began(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deal 4 of a four-seat session (bowls of their own size): the replay and the table
    played again show the four bowls and the pulla as the first three deals left them, not
    as the session began."""
    from vira_desktop.scenes.table import TableScene

    app = make_app(tmp_path, monkeypatch)
    bowl = {Kind.TRIANGLE: 3, Kind.BET: 15, Kind.ROUND: 12, Kind.PIN: 25}
    kept, tokens = _kept(history_file().parent, deals=5, seats=4, bowl=bowl)
    row = next(r for r in kept.deals() if r.number == 3)
    kept.close()
    fresh = Ledger(bowl)
    for n in NAMES:
        fresh.add_player(n)
    fresh.ante(list(NAMES), "åla")
    assert tokens[3] != _tokens(fresh, list(NAMES))  # the first deals moved tokens
    replay = _replayed(app, row.id)
    state = replay.view.state  # type: ignore[attr-defined]
    assert (state.bowls, state.pulla, state.sexmastare) == tokens[3]
    assert Counter(state.players) == Counter(NAMES)  # the one sitting out still at the table
    key(app, pygame.K_END)  # the deal's own payment on top of them
    assert replay.driver.session.ledger.conserved()  # type: ignore[attr-defined]
    key(app, pygame.K_HOME)
    key(app, pygame.K_p)
    key(app, pygame.K_RETURN)
    table = app.stack.top
    assert isinstance(table, TableScene)
    session = table_of(table).session
    assert _tokens(session.ledger, session.players) == tokens[3]


def test_vira_replay_window_opens_a_bad_record_at_the_action_before_as_vira_file_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``vira replay BAD.yaml --window`` opens the window at the last good action with the
    error shown (as ``vira BAD.yaml``), not one line and exit 2."""
    from tests.test_history import bad_at_5, opened_in_a_window
    from vira_desktop.scenes.table import ReplayScene

    app = opened_in_a_window(monkeypatch, "replay", str(bad_at_5(tmp_path)), "--window")
    scene = app.stack.top
    assert isinstance(scene, ReplayScene) and scene.quit_on_back
    assert len(scene.driver.actions) == 4 and scene.driver.at_end and "action 5" in scene.problem
    assert scene.problem in scene.view.shown.message
    scene.command(Command("analyse"))  # a playtest found "laid down" or a lost deal told of a cut-off record
    assert scene.view.shown.message == t("analysis.record_stops", good=4)
    pushed: list[tuple[str, dict[str, object]]] = []
    monkeypatch.setattr(app, "push", lambda name, **values: pushed.append((name, values)))
    scene.command(Command("play_again"))  # from where it stops, not "from the start (the deal is over)"
    assert pushed[0][0] == "play_again" and pushed[0][1]["upto"] == 4


def test_a_record_known_only_by_itself_opens_on_you_and_plays_again_with_you_there() -> None:
    """A record from a file: the player called "You" is the person (bots, normal, elsewhere);
    a record without "You": forehand's seat."""
    from vira_desktop.session.as_played import as_recorded
    from vira_desktop.session.replay import ReplayDriver

    text = (Path(__file__).parent / "records" / "laid_solo8.yaml").read_text(encoding="utf-8")
    record = read_record(parse_yaml(text))
    driver = ReplayDriver(record)
    assert driver.viewer == 0 and driver.played.player == record.names[0]
    middle = record.names[1]
    renamed = read_record(parse_yaml(text.replace(middle, "You")))
    played = as_recorded(renamed)
    assert played.player == "You" and played.colours[0] == "You"
    assert played.levels == {n: "human" if n == "You" else "normal" for n in renamed.names}
    assert ReplayDriver(renamed).viewer == 1


def test_you_takes_no_possessive_s_and_the_declarer_no_gendered_pronoun() -> None:
    """A record's error about the player called "You" says "your hand"; the analysis's foot
    has its own text for "You"; the declarer is never "he" (Cecilia may declare)."""
    from vira_desktop.i18n import LANGUAGES, configure, t
    from vira_desktop.rules.errors import RecordError
    from vira_desktop.session.record import replay

    text = (Path(__file__).parent / "records" / "laid_solo8.yaml").read_text(encoding="utf-8")
    text = text.replace("Anna", "You").replace("  - You: lay down", "  - You: play\n  - You: 2C")
    with pytest.raises(RecordError) as caught:
        replay(read_record(parse_yaml(text)))
    assert str(caught.value).endswith("it is Bertil's turn, not yours")  # not "not You's"
    try:
        for language in LANGUAGES:
            configure(language)
            count, other = t("analysis.legend_count_you"), t("analysis.other_games", games="x", misere=0)
            assert "You" not in count and "'s" not in count
            assert not [word for word in (" he ", " han ") if word in other]
    finally:
        configure("en")


def test_the_statistics_count_contracts_on_whole_number_ticks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The contracts chart counts contracts: its axis says 0, 1, 2 …, never 0.2 or 2.5."""
    from vira_desktop.scenes.charts import nice_ticks
    from vira_desktop.scenes.history import StatisticsScene

    for high in (1, 2, 3, 7, 12, 23, 140):
        ticks = nice_ticks(0, high, whole=True)
        assert all(tick == int(tick) for tick in ticks) and ticks[-1] >= high and len(ticks) >= 2
    app = make_app(tmp_path, monkeypatch)
    _kept(history_file().parent, deals=2)[0].close()
    app.push("statistics")
    run(app, 2)
    stats = app.stack.top
    assert isinstance(stats, StatisticsScene)
    stats.player = "Anna"
    stats._count()
    run(app, 1)
    ticks, _ = stats.charts[0]._scale()
    assert stats.stats.deals == 2 and all(tick == int(tick) for tick in ticks)


def _annas_deal_again(app: App) -> TableScene:
    """Anna's deal from history played again (P, then Enter on the form), in play."""
    _annas_deal(app)
    key(app, pygame.K_p)
    key(app, pygame.K_RETURN)
    table = app.stack.top
    assert isinstance(table, TableScene) and not runner_of(table).master.deal_over
    return table


def test_esc_in_a_deal_played_again_asks_before_it_drops_the_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deal played again is saved nowhere: the first Esc asks (as New game asks before it
    ends a saved game), another key plays on, and Esc twice goes back to history."""
    from vira_desktop.i18n import t
    from vira_desktop.scenes.history import HistoryScene

    app = make_app(tmp_path, monkeypatch)
    table = _annas_deal_again(app)
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is table and table.view.shown.message == t("message.leave_again")
    key(app, pygame.K_h)  # any other key: the question is taken back
    assert app.stack.top is table and table.view.shown.message != t("message.leave_again")
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is table
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.stack.top, HistoryScene)


def test_closing_the_window_in_a_deal_played_again_asks_first_as_esc_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The window's close button ended a table of friends without a word where Esc asks: now
    where Esc would ask, closing asks too (over a sheet, the sheet closes so the question is
    seen), a key takes the question back, and closing twice ends the program. A saved game
    closes at once."""

    def close(app: App) -> None:
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        run(app, 1)

    app = make_app(tmp_path, monkeypatch)
    table = _annas_deal_again(app)
    key(app, pygame.K_s)  # the score sheet over the table
    assert app.stack.top is not table
    close(app)
    assert app.running and app.stack.top is table
    assert table.view.shown.message == t("message.close_again")
    key(app, pygame.K_h)  # any key: the question is taken back, and the next close asks again
    assert table.view.shown.message != t("message.close_again")
    close(app)
    assert app.running and table.view.shown.message == t("message.close_again")
    close(app)
    assert not app.running

    saved = make_app(tmp_path / "saved", monkeypatch)
    saved.start_table(
        Table([SeatConfig("You", True), SeatConfig("Bertil", False), SeatConfig("Cecilia", False)], seed=3)
    )
    run(saved, 2)
    close(saved)
    assert not saved.running


def test_a_file_this_game_exported_opens_with_its_levels_its_colours_and_its_deals_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A playtest opened an exported deal: the play-again form offered Bertil as a normal bot
    where the file's first line says strong, the heading said deal 1 where it says 4, and the
    colours were not the table's."""
    import json

    from vira_desktop import cli
    from vira_desktop.scenes.table import ReplayScene

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    about = {"table": ["Cecilia", "Anna", "Bertil"], "number": 3, "levels": {"Anna": "human", "Bertil": "strong"}}
    text = (Path(__file__).parent / "records" / "laid_solo8.yaml").read_text(encoding="utf-8")
    path = tmp_path / "exported.yaml"
    path.write_text("# vira-desktop: " + json.dumps(about) + "\n" + text, encoding="utf-8")
    seen: list[App] = []
    monkeypatch.setattr(App, "run", lambda self: seen.append(self))
    assert cli.main(["replay", str(path), "--window"]) == 0
    scene = seen[0].stack.top
    assert isinstance(scene, ReplayScene)
    played = scene.driver.played
    assert played.levels == {"Anna": "human", "Bertil": "strong", "Cecilia": "normal"}
    assert played.player == "Anna" and played.colours == ("Cecilia", "Anna", "Bertil")
    assert scene.driver.index == 3
