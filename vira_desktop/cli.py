"""The ``vira`` command: bid table, record replay, headless simulation."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from . import __version__
from .config import ConfigError
from .rules.errors import RecordError
from .rules.games import GAMES, Game, game, table_cells

if TYPE_CHECKING:
    from .rules.cards import Card
    from .session.analysis import Analysis, Solution
    from .session.record import Record

Figures = TypeVar("Figures", "Solution", "Analysis")


def bidtable_rows() -> list[dict[str, Any]]:
    """The 40 rows as ``vira bidtable --json`` prints them."""
    rows = []
    for g in GAMES:
        misere = None if g.misere is None else {"open": g.misere.open, "cards": g.misere.cards}
        off, suit, highest = g.pins
        pins = {"off_suit": off, "suit": suit, "highest": highest}  # None where the table has a dash
        rows.append(
            {
                "no": g.no,
                "name": g.name,
                "printed": g.printed,
                "tricks": g.tricks,
                "can_play_low": g.can_play_low,
                "misere": misere,
                "pins": pins,
            }
        )
    return rows


def _print_bidtable(as_json: bool) -> int:
    rows = bidtable_rows()
    if as_json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    print(f"{'No':>3}  {'Game':<34}{'Tricks':>7}  {'Misère':<11}{'Off/mis':>8}{'Suit':>6}{'Highest':>8}")
    for g in GAMES:
        tricks, misere, (off, suit, highest) = table_cells(g)
        print(f"{g.no:>3}  {g.printed:<34}{tricks:>7}  {misere:<11}{off:>8}{suit:>6}{highest:>8}")
    return 0


def _replay(path: str, as_json: bool, check: bool, window: bool = False) -> int:
    from .session.record import check_result, load_record, replay, summary

    if window:  # as ``vira FILE.yaml``: a record bad at its action N opens at the action before, the error shown
        from .scenes.app import open_file_window

        return open_file_window(path, check)
    try:
        record = load_record(path)
        deal = replay(record)
        problem = check_result(record, deal) if check else None
        if problem:
            raise RecordError(problem)
    except RecordError as exc:
        print(f"{path}: {one_line(str(exc))}", file=sys.stderr)
        return 2
    info = summary(deal, record.names)
    if as_json:
        print(json.dumps(info, ensure_ascii=False))
    elif not info["complete"]:
        print(f"position: {info['phase']}, {info['to_act']} to act")
    else:
        from .session.record import dump_record

        print(dump_record({"result": {k: v for k, v in info.items() if k != "complete"}}), end="")
    return 0


def one_line(text: str) -> str:
    """``text`` on one line: a line break or other control character (a record's own words, a
    player's name among them, are quoted in its errors) written as its escape, so an error stays
    one line whatever the file holds."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _record_figures(path: str, compute: Callable[[Record], Figures], as_json: bool) -> Figures | int:
    """``compute`` of the record at ``path`` to print as text; the exit code where it is done
    already (printed as JSON, or the record's fault said in one line)."""
    from .session.analysis import plain
    from .session.record import load_record

    try:
        info = compute(load_record(path))
    except RecordError as exc:
        print(f"{path}: {one_line(str(exc))}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(plain(info), ensure_ascii=False))
        return 0
    return info


def _solve(path: str, at: int | None, as_json: bool) -> int:
    from .session.analysis import solve_record

    info = _record_figures(path, lambda record: solve_record(record, at), as_json)
    if isinstance(info, int):
        return info
    trick = f", after {' '.join(map(str, info.trick))}" if info.trick else ""
    print(f"after action {info.actions}: {info.to_act} to play{trick}")
    game = info.game.name if info.game else None
    print(f"{info.declarer} declares {game}: {info.best} of {info.tricks_in_play} tricks with best play")
    sign = -1 if info.wants == "most" else 1
    for card, value in sorted(info.moves.items(), key=lambda kv: sign * kv[1]):
        diff = value - info.best
        print(f"  {card!s:3} {value:2}" + (f"  ({diff:+d})" if diff else ""))
    return 0


def _analyse(path: str, as_json: bool, side: str | None = None, layouts: int | None = None) -> int:
    from .ai.single_dummy import LAYOUTS
    from .session.analysis import analyse_record
    from .session.thinking import side_of

    def compute(record: Record) -> Analysis:
        sides = frozenset(side_of(record, side)) if side else None
        return analyse_record(record, sides, LAYOUTS if layouts is None else layouts)

    info = _record_figures(path, compute, as_json)
    if isinstance(info, int):
        return info
    aim = "fewest" if info.low else "most"
    tricks = "trick" if info.taken == 1 else "tricks"
    print(f"{info.declarer} declared {info.game.name if info.game else None} and took {info.taken} {tricks};")
    print(f"with every card known and best play ({aim} tricks for the declarer), the cards allowed {info.allowed}")
    print("the tricks as played; [N]: the declarer's tricks at the end with best play from that trick on")
    for trick in info.tricks:
        cards = "  ".join(f"{c.seat} {c.card}" + (f" (gave up {c.lost})" if c.lost else "") for c in trick.cards)
        print(f"  trick {trick.trick:2} [{trick.before:2}]  {cards}")
    games = info.other_games
    by_trump = ", ".join(f"{k} {v}" for k, v in games.items() if k != "misère")
    misere = games["misère"]
    by_trump = by_trump or "no game by trump (cards set aside)"
    print(f"the hands as they lay at the first card, double dummy: {by_trump}; misère (best defence) {misere}")
    if not info.costly and not info.tricks_only:
        print("no card gave up a trick")
    for c in info.costly:
        print(f"changed the result: {c.seat}'s {c.card} at trick {c.trick} (gave up {c.lost})")
    for c in info.tricks_only:
        print(f"tricks only: {c.seat}'s {c.card} at trick {c.trick} (gave up {c.lost}, the result the same)")
    if info.layouts:
        print(f"on what each seat could see ({info.layouts} layouts a card; declarer's home/bet/kodilj):")
    for s in info.seen:
        if s.call == "good" and not s.lost:
            continue
        odds = f"{s.chances.home:.0%}/{s.chances.bet:.0%}/{s.chances.kodilj:.0%}"
        best = f"{s.best} {s.best_chances.home:.0%}/{s.best_chances.bet:.0%}/{s.best_chances.kodilj:.0%}"
        said = "unlucky" if s.unlucky else s.call
        coach = f"; the coach advised {s.coach}" if s.coach is not None else ""
        gap = f"{s.gap:+.0f} ±{s.noise:.0f} points"
        print(f"  {said}: {s.seat}'s {s.card} at trick {s.trick}: {odds}, best {best} ({gap}){coach}")
    if info.diverges is not None:
        turn = info.diverges
        print(f"best line, turning at trick {turn.trick} ({turn.seat}); [N]: the declarer's tricks after the trick")
        for i, line in enumerate(info.best_line, 1):
            cards = "  ".join(f"{c.seat} {c.card}{_as_good(c.also)}" for c in line.cards)
            print(f"  trick {i:2} [{line.declarer_tricks:2}]  {cards}")
    return 0


def _as_good(cards: Sequence[Card]) -> str:
    """The other cards of the best line as good as the one shown: " (or 4S 6S TS QS …)"."""
    if not cards:
        return ""
    return f" (or {' '.join(map(str, cards[:4]))}{' …' if len(cards) > 4 else ''})"


def _simulate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .config import load_settings
    from .session.match import simulate

    contract: Game | None = game(args.contract) if args.contract else None
    settings = None
    if args.config:
        path = Path(args.config)
        if not path.exists():
            raise ConfigError(f"{path}: no such file")
        settings = load_settings(path)
    players = args.players or (settings.session.players if settings else 3)
    stats = simulate(
        args.deals,
        args.seed,
        players=players,
        bots=[b.strip() for b in args.bots.split(",")],
        contract=contract,
        check=not args.no_check,
        rules=settings.house_rules if settings else None,
        bowl=dict(settings.session.bowl) if settings else None,
        records=Path(args.records) if args.records else None,
    )
    _print_info(stats.as_json(), args.json)
    return 1 if stats.errors or not stats.conservation_ok else 0


def _print_info(info: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(info, ensure_ascii=False))
    else:
        for key, value in info.items():
            print(f"{key}: {value}")


def _match(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .session.match import duplicate_match

    records = Path(args.records) if args.records else None
    _print_info(duplicate_match(args.a, args.b, args.deals, args.seed, args.jobs, records).as_json(), args.json)
    return 0


def _host(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    from pathlib import Path

    from .ai import LEVELS
    from .net.host import HostConfig, serve_host
    from .paths import host_save_dir

    if args.bots not in LEVELS:
        raise ValueError(f"unknown bot level: {args.bots!r} (available: {', '.join(LEVELS)})")
    if bool(args.tls_cert) != bool(args.tls_key):
        raise ValueError("--tls-cert and --tls-key go together")
    if args.bot_processes is not None and args.bot_processes < 0:
        raise ValueError("--bot-processes takes 0 or more")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    logging.getLogger("websockets").setLevel(logging.WARNING)
    config = HostConfig(
        players=args.players,
        humans=args.humans,
        bots=args.bots,
        deals=args.deals,
        records=Path(args.records) if args.records else None,
        save=None if args.no_save else Path(args.save) if args.save else host_save_dir(args.prefix),
        tls=(Path(args.tls_cert), Path(args.tls_key)) if args.tls_cert else None,
        announce=not args.no_announce,
        max_tables=args.max_tables,
        max_connections=args.max_connections,
        password=args.password,
        seat_timeout=args.seat_timeout,
        deal_pause=args.deal_pause,
        bot_pause=args.bot_pause,
        prefix=args.prefix,
        seed=args.seed,
        once=args.once,
        bot_processes=args.bot_processes,
    )
    try:
        return asyncio.run(serve_host(config, args.bind, args.port))
    except KeyboardInterrupt:
        return 0


def _join(args: argparse.Namespace) -> int:
    import asyncio
    import contextlib
    from typing import IO

    from .ai import LEVELS
    from .net.client import JoinOptions, join

    if args.list:
        return _list_tables(args.seconds, args.address)
    if args.address is None:
        raise ValueError("give the host's address (or --list to find the tables on the LAN)")
    if args.bot is not None and args.bot not in LEVELS:
        raise ValueError(f"unknown bot level: {args.bot!r} (available: {', '.join(LEVELS)})")
    with contextlib.ExitStack() as stack:
        dump: IO[str] | None = None
        if args.dump:
            dump = stack.enter_context(open(args.dump, "w", encoding="utf-8", buffering=1))
        options = JoinOptions(
            args.address,
            args.name,
            args.table,
            args.password,
            args.token,
            args.bot,
            dump,
            args.seed,
            reconnect=args.reconnect,
            tls=args.tls or args.cafile is not None,
            cafile=args.cafile,
        )
        try:
            return asyncio.run(join(options))
        except KeyboardInterrupt:
            return 1


def _list_tables(seconds: float, interface: str | None) -> int:
    """``vira join --list``: the tables announced on the LAN, one a line (0 when any)."""
    import asyncio

    from .net.lan import browse

    tables = asyncio.run(browse(seconds, interface))
    for ad in tables:
        free = f"{ad.free} seat{'s' if ad.free != 1 else ''} free" if ad.free else "in play"
        print(f"{ad.code:<20} {ad.url:<40} {free}" + ("" if ad.protocol == 1 else f" (protocol {ad.protocol})"))
    if not tables:
        print(f"no tables found in {seconds:g} s", file=sys.stderr)
    return 0 if tables else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vira", description="Vira Desktop: the Swedish card game Vira.", allow_abbrev=False
    )
    parser.add_argument("--version", action="version", version=f"vira {__version__}")
    parser.add_argument("--autoplay", type=int, metavar="N", help="the window plays N deals with bots only, then exits")
    parser.add_argument(
        "--seed", type=int, help="seed for the deals of new games (default: fresh deals) and of --autoplay (default: 1)"
    )
    parser.add_argument("--speed", choices=("instant", "fast", "normal", "slow"), default="normal")
    parser.add_argument("--players", type=int, choices=(3, 4), default=3, help="seats for --autoplay")
    parser.add_argument("--autosave", action="store_true", help="--autoplay saves after every action")
    parser.add_argument("--resume", action="store_true", help="--autoplay continues from the autosave")
    parser.add_argument("--history", action="store_true", help="--autoplay keeps its deals in history")
    parser.add_argument("--hints", action="store_true", help="--autoplay asks for a hint at every decision of seat 1")
    sub = parser.add_subparsers(dest="command")
    p = sub.add_parser("bidtable", help="print the 40-row bid table")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("replay", help="replay a deal record and print its result")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.add_argument("--check", action="store_true", help="fail if the recorded result differs")
    p.add_argument("--window", action="store_true", help="step the record in the game window (→ ← Tab Esc)")
    said = "the tricks each card of a deal record gave up (double dummy), each judged on what its seat could see"
    p = sub.add_parser("analyse", help=said)
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.add_argument("--side", metavar="NAME", help="judge only the cards of NAME's side (default: every seat's)")
    p.add_argument("--layouts", type=int, default=None, metavar="N", help="layouts a card is judged over (0: none)")
    p = sub.add_parser("solve", help="the double-dummy value of each card at a deal record's position")
    p.add_argument("file")
    p.add_argument(
        "--at", type=int, metavar="N", help="after the first N actions (default: all; a finished deal: its first card)"
    )
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("simulate", help="headless self-play")
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", type=int, choices=(3, 4), help="3 or 4 (default: the config's session.players, or 3)")
    p.add_argument("--bots", default="random", help="a level, or one per player separated by commas")
    p.add_argument("--contract", help="force every auction to end in this game")
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-check", action="store_true", help="skip the conservation checks after every action")
    p.add_argument("--config", help="a config.yaml whose house rules and bowls to use")
    p.add_argument("--records", metavar="DIR", help="write each deal there as a deal record")
    p = sub.add_parser("match", help="a duplicate match between two bot levels")
    p.add_argument("--a", default="normal")
    p.add_argument("--b", default="random")
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="processes to play in (the result is the same)")
    p.add_argument("--records", metavar="DIR", help="write each play of each deal there as a deal record")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("host", help="serve tables to network players (WebSocket)")
    p.add_argument("--port", type=int, default=8417)
    p.add_argument("--bind", default="127.0.0.1", help="the address to listen on (default: this machine only)")
    p.add_argument("--players", type=int, choices=(3, 4), default=3, help="seats at each table")
    p.add_argument("--humans", type=int, metavar="N", help="seats for network players (default: all; the rest bots)")
    p.add_argument("--deals", type=int, metavar="N", help="end each session after N deals")
    p.add_argument("--records", metavar="DIR", help="write each finished deal there as a deal record")
    p.add_argument("--save", metavar="DIR", help="keep the tables there (default: in the user data folder)")
    p.add_argument("--no-save", action="store_true", help="keep no tables: a restart starts afresh")
    p.add_argument("--tls-cert", metavar="FILE", help="serve wss:// with this certificate chain (PEM)")
    p.add_argument("--tls-key", metavar="FILE", help="... and this private key (PEM)")
    p.add_argument("--no-announce", action="store_true", help="do not announce the tables on the LAN (mDNS)")
    p.add_argument("--max-tables", type=int, default=8, metavar="N", help="tables in play at once (default 8)")
    p.add_argument("--max-connections", type=int, default=64, metavar="N", help="connections at once (default 64)")
    p.add_argument("--password", help="players must give it in their hello")
    p.add_argument("--bots", default="normal", metavar="LEVEL", help="the host's bots and stand-ins for dropped seats")
    p.add_argument("--seat-timeout", type=float, default=60.0, metavar="S", help="a dropped seat is held S seconds")
    p.add_argument("--deal-pause", type=float, default=2.0, metavar="S", help="seconds between deals")
    p.add_argument("--bot-pause", type=float, default=0.45, metavar="S", help="seconds between two moves")
    p.add_argument("--prefix", default="v", help="table codes start PREFIX- (names this host to a proxy)")
    p.add_argument("--seed", type=int, help="seed for the tables' deals (default: fresh deals)")
    p.add_argument("--once", action="store_true", help="stop when the last table's session has ended")
    p.add_argument("--bot-processes", type=int, metavar="N", help="processes all tables' bots share (default: cores)")
    p = sub.add_parser("join", help="take a seat at a host's table, headless")
    p.add_argument("address", nargs="?", help="HOST[:PORT], [IPv6]:PORT or a ws:// or wss:// URL")
    p.add_argument("--list", action="store_true", help="find the tables announced on the LAN and print them")
    p.add_argument("--seconds", type=float, default=3.0, metavar="S", help="how long --list looks (default 3)")
    p.add_argument("--name", default="Player")
    p.add_argument("--table", default="", metavar="CODE", help="the table's code (default: the host's first)")
    p.add_argument("--password")
    p.add_argument("--token", help="take back a seat held for you (printed when you joined)")
    p.add_argument("--bot", metavar="LEVEL", help="a bot of LEVEL answers for the seat")
    p.add_argument("--seed", type=int, help="the --bot's seed (default: from the name)")
    p.add_argument("--dump", metavar="FILE", help="write every message received, one JSON text a line")
    p.add_argument("--tls", action="store_true", help="wss:// for an address without a scheme")
    p.add_argument("--cafile", metavar="FILE", help="trust this certificate for wss:// (implies --tls)")
    p.add_argument(
        "--reconnect", type=float, default=60.0, metavar="S", help="after a drop, try S seconds to come back (0: never)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    if len(given) == 1 and given[0].lower().endswith((".yaml", ".yml")):  # vira FILE.yaml: the replay window
        from .scenes.app import open_file_window

        return open_file_window(given[0])
    parser = build_parser()
    args = parser.parse_args(argv)
    from .ai.native import warn_once

    warn_once()  # the compiled helper missing: one line on stderr
    if args.command == "bidtable":
        return _print_bidtable(args.json)
    if args.command == "replay":
        return _replay(args.file, args.json, args.check, args.window)
    if args.command == "solve":
        return _solve(args.file, args.at, args.json)
    if args.command == "analyse":
        return _analyse(args.file, args.json, args.side, args.layouts)
    commands = {"host": _host, "join": _join, "simulate": _simulate, "match": _match}
    if args.command in commands:
        try:
            return commands[args.command](args)
        except (ValueError, OSError, ConfigError) as exc:  # one line, not the usage text
            print(f"vira {args.command}: {exc}", file=sys.stderr)
            return 2
    if args.autoplay is not None:
        from .scenes.autoplay import autoplay

        seed = 1 if args.seed is None else args.seed
        return autoplay(
            args.autoplay, seed, args.speed, args.players, args.autosave, args.resume, args.hints, args.history
        )
    from .scenes.app import run_game

    return run_game(seed=args.seed)
