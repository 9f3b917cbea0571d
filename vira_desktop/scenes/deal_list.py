"""History's lists as the History screen shows them, without pygame: the sessions, the deals
of the session chosen that pass the filters (the latest first), the deal chosen and the page
of deals on screen."""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import t
from ..session.history import DealRow, SessionRow
from ..session.history_service import Browse
from ..session.statistics import table_order

__all__ = ["OUTCOMES", "DealList", "Filters", "short_date"]

OUTCOMES = ("home", "bet", "kodilj", "laid")


def short_date(iso: str) -> str:
    """An ISO time to the minute, as the lists say it ("2026-11-30 19:02")."""
    return iso[:16].replace("T", " ")


@dataclass
class Filters:
    """The deals shown: of this game, declarer, outcome and month ("": any)."""

    game: str = ""
    declarer: str = ""
    outcome: str = ""
    month: str = ""


class DealList:
    """The sessions and deals read from history, and what of them is shown: the session chosen
    (``session_at`` 0: every session, else its index in ``sessions`` + 1), its deals that pass
    the ``filters``, the latest first (``shown``), the one chosen (``deal_at``), and the first
    (``top``) of the ``page`` rows on screen."""

    def __init__(self, page: int, filters: Filters | None = None, session_at: int = 0) -> None:
        self.page = page
        self.filters = filters if filters is not None else Filters()
        self.session_at = session_at
        self.loaded = False  # the lists have come
        self.sessions: list[SessionRow] = []
        self.rows: list[DealRow] = []
        self.deal_at = 0
        self.top = 0
        self._read_rows()

    def take(self, browse: Browse) -> None:
        """The lists read (again): the session chosen stays chosen (by its id)."""
        chosen = self.sessions[self.session_at - 1].id if self.loaded and self.session_at else None
        self.sessions, self.rows = browse.sessions, browse.deals
        if self.loaded:
            ids = [s.id for s in self.sessions]
            self.session_at = ids.index(chosen) + 1 if chosen in ids else 0
        self.loaded = True
        self._read_rows()

    def _read_rows(self) -> None:
        """The rows by id and the sessions played again (for drawing), then those shown."""
        self.by_id = {r.id: r for r in self.rows}
        self.again = {r.session_id for r in self.rows if r.parent_id is not None}
        self._filter()

    def in_session(self) -> list[DealRow]:
        """The deals of the session chosen (every deal: all sessions)."""
        session = self.sessions[self.session_at - 1].id if self.session_at and self.sessions else None
        return [r for r in self.rows if session is None or r.session_id == session]

    def _filter(self) -> None:
        f = self.filters
        self.shown = [
            r
            for r in self.in_session()
            if (not f.game or r.game == f.game)
            and (not f.declarer or r.declarer == f.declarer)
            and (not f.outcome or r.outcome == f.outcome)
            and (not f.month or r.played.startswith(f.month))
        ]
        self.shown.reverse()  # the latest first
        self.deal_at = min(self.deal_at, max(0, len(self.shown) - 1))
        self.top = min(self.top, max(0, len(self.shown) - self.page))

    def choices(self) -> list[tuple[str, list[str]]]:
        """Each filter and its values in its menu's order, "" (any) first: those of the session's
        deals, and the value it is set to."""
        pool, f = self.in_session(), self.filters
        return [
            ("game", ["", *sorted({r.game for r in pool} | {f.game} - {""}, key=table_order)]),
            ("declarer", ["", *sorted({r.declarer for r in pool} | {f.declarer} - {""})]),
            ("outcome", ["", *OUTCOMES]),
            ("month", ["", *sorted({r.played[:7] for r in pool} | {f.month} - {""}, reverse=True)]),
        ]

    def set_filter(self, what: str, value: str) -> None:
        """One filter set, the deals shown from the top."""
        setattr(self.filters, what, value)
        self.deal_at = self.top = 0
        self._filter()

    def step_filter(self, what: str, step: int) -> None:
        """One filter set to its next (or previous) value."""
        values = dict(self.choices())[what]
        now = getattr(self.filters, what)
        self.set_filter(what, values[(values.index(now) + step) % len(values)] if now in values else "")

    def choose_session(self, index: int) -> None:
        """The session at ``index`` chosen (0: every session), its deals shown from the top."""
        self.session_at = max(0, min(index, len(self.sessions)))
        self.deal_at = self.top = 0
        self._filter()

    def select(self, index: int) -> None:
        """The deal at ``index`` of those shown chosen, the page moved to show it."""
        if not self.shown:
            return
        self.deal_at = max(0, min(index, len(self.shown) - 1))
        if self.deal_at < self.top:
            self.top = self.deal_at
        elif self.deal_at >= self.top + self.page:
            self.top = self.deal_at - self.page + 1

    def scroll(self, rows: int) -> None:
        """The page moved by ``rows`` (the deal chosen stays chosen)."""
        self.top = max(0, min(self.top + rows, max(0, len(self.shown) - self.page)))

    @property
    def chosen(self) -> DealRow:
        """The deal chosen (there must be one shown)."""
        return self.shown[self.deal_at]

    def origin(self, row: DealRow) -> str:
        """Where a deal played again came from ("" for a deal dealt fresh)."""
        if row.parent_id is None:
            return ""
        parent = self.by_id.get(row.parent_id)
        if parent is None:
            return t("history.again_from_gone", position=row.parent_action)
        values = {"number": parent.number + 1, "date": short_date(parent.played), "session": parent.session_id}
        if not row.parent_action:
            return t("history.again_from_start", **values)
        return t("history.again_from", position=row.parent_action, **values)
