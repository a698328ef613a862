"""A tutorial game: the prepared deal at a table, the newcomer at seat 0, bots elsewhere that answer
at once, and the coach explaining each of the newcomer's decisions."""

from __future__ import annotations

from typing import Any

from shadowtable.bots.registry import make_bot
from shadowtable.core.errors import IllegalActionError
from shadowtable.core.registry import make
from shadowtable.core.table import SeatView, Table
from shadowtable.core.wording import without_card_ids
from shadowtable.tutorial.coach import Coach, Coaching
from shadowtable.tutorial.lesson import NEWCOMER_SEAT, PreparedDeal


class Tutorial:
    """One newcomer's tutorial game on ``deal``."""

    def __init__(self, deal: PreparedDeal) -> None:
        self.deal = deal
        game = make(deal.game_id, players=deal.players, **deal.options)
        bots: list[Any] = [None, *(make_bot(deal.bot) for _ in range(deal.players - 1))]
        self.names = deal.seat_names()
        self.table = Table(game, bots, deal.seed, seat_names=self.names)
        self.table.tell(NEWCOMER_SEAT)
        self.coach = Coach(game, NEWCOMER_SEAT, self.names)
        self.shown = 0
        """The newcomer's channel version when it last decided: what happened since is summarised."""
        self.forced: list[str] = []
        """The newcomer's decisions with one choice only since its last real one, taken at once."""
        self.chosen = 0
        """How many real choices (more than one legal action) the newcomer has made."""
        self.advance()

    @property
    def decisions(self) -> int:
        """How many decisions the newcomer has made (those with one choice only included)."""
        return self.table.decisions(NEWCOMER_SEAT)

    def is_over(self) -> bool:
        return self.table.is_over()

    def view(self) -> SeatView:
        """The newcomer's view, with the events since its last decision."""
        return self.table.view(NEWCOMER_SEAT, self.shown)

    def coaching(self) -> Coaching:
        """What the coach says now."""
        view = self.view()
        if self.is_over():
            return self.coach.finish(view, self.table.results(), self.forced)
        return self.coach.explain(view, self.previews(view), self.forced)

    def previews(self, view: SeatView) -> dict[int, dict[str, Any] | None]:
        """What comes next for each of the newcomer's own choices (the game's previews)."""
        words, state = self.table.game.words, self.table.state
        return {choice.action: words.preview(state, choice.action) for choice in view.choices or ()}

    def choose(self, action: int) -> None:
        """The newcomer takes ``action`` (any legal one); then the bots answer at once."""
        if self.is_over() or self.table.current_player != NEWCOMER_SEAT:
            raise IllegalActionError("it is not your decision now")
        if action not in self.table.game.legal_actions(self.table.state):
            raise IllegalActionError(f"action {action} is not one of your choices now")
        self.shown = self.table.view(NEWCOMER_SEAT).v
        self.coach.chose(action)
        self.forced = []
        self.chosen += 1
        self.table.act(NEWCOMER_SEAT, action)
        self.advance()

    def advance(self) -> None:
        """Let the bots and chance play until the newcomer has a real choice (or the game ends); a
        decision of the newcomer's with one choice only (as it reads) is taken at once and noted."""
        self.table.run()
        while not self.is_over() and self.table.current_player == NEWCOMER_SEAT:
            view = self.table.view(NEWCOMER_SEAT)
            if view.choices is None or view.decision is None:
                return
            if len({without_card_ids(choice.text) for choice in view.choices}) != 1:
                return  # choices that read the same do the same: one of them is no choice
            self.forced.append(f"{view.decision.prompt}: {view.choices[0].text}")
            self.table.act(NEWCOMER_SEAT, view.choices[0].action)
            self.table.run()
