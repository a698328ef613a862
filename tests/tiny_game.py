"""A tiny hidden-information game used to test the protocol and the conformance suite.

Each seat is dealt a secret card 0-4 (a chance node per deal), then two betting rounds follow
in which each seat passes or raises.  The highest card among the seats that raised wins.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from shadowtable.core import (
    CHANCE,
    TERMINAL,
    Game,
    GameSpec,
    Observation,
    OptionSpec,
    StateFormatError,
    Wording,
)
from shadowtable.core.events import Event

CARDS = 5
ACTIONS = ("pass", "raise")


@dataclass(frozen=True)
class TinyState:
    cards: tuple[int, ...]
    history: tuple[int, ...]


class TinyWording(Wording[TinyState]):
    """Tiny Showdown in words."""

    def action_to_str(self, state: TinyState, action: int) -> str:
        if self.game.current_player(state) == CHANCE:
            return f"deal seat {len(state.cards)}: card {action}"
        return ACTIONS[action]

    def event_text(self, state: TinyState, action: int, seat: int | None) -> str | None:
        self.game.check_seat(seat)
        if self.game.current_player(state) == CHANCE:
            return f"seat {len(state.cards)} is dealt a card"
        return f"seat {self.game.current_player(state)}: {ACTIONS[action]}"

    def rules_help(self, observation: Observation) -> str:
        return "Betting (Tiny rules, section 2): pass, or raise to compete for the pot with your card."

    def action_from_str(self, state: TinyState, text: str) -> int | None:
        return ACTIONS.index(text) if text in ACTIONS else None


class TinyGame(Game[TinyState]):
    WORDING = TinyWording
    SPEC = GameSpec(
        id="tiny-showdown",
        name="Tiny Showdown",
        version="1",
        min_players=2,
        max_players=4,
        num_distinct_actions=2,
        max_chance_outcomes=CARDS,
        max_game_length=4 + 2 * 4,
        min_utility=0.0,
        max_utility=1.0,
        options=(OptionSpec("rounds", int, 2, "betting rounds", minimum=1, maximum=2),),
    )

    def initial_state(self) -> TinyState:
        return TinyState(cards=(), history=())

    def current_player(self, state: TinyState) -> int:
        if len(state.cards) < self.players:
            return CHANCE
        if len(state.history) >= self.players * self.options["rounds"]:
            return TERMINAL
        return len(state.history) % self.players

    def legal_actions(self, state: TinyState) -> list[int]:
        player = self.current_player(state)
        if player == CHANCE:
            return list(range(CARDS))
        return [] if player == TERMINAL else [0, 1]

    def chance_outcomes(self, state: TinyState) -> list[tuple[int, float]]:
        if self.current_player(state) != CHANCE:
            return []
        return [(card, 1.0 / CARDS) for card in range(CARDS)]

    def apply(self, state: TinyState, action: int) -> TinyState:
        action = self.check_legal(state, action)
        if self.current_player(state) == CHANCE:
            return replace(state, cards=(*state.cards, action))
        return replace(state, history=(*state.history, action))

    def returns(self, state: TinyState) -> list[float]:
        if not self.is_terminal(state):
            return [0.0] * self.players
        raisers = {i % self.players for i, a in enumerate(state.history) if a == 1}
        if not raisers:
            return [0.0] * self.players
        best = max(state.cards[s] for s in raisers)
        return [1.0 if s in raisers and state.cards[s] == best else 0.0 for s in range(self.players)]

    def observe(self, state: TinyState, seat: int | None) -> Observation:
        self.check_seat(seat)
        over = self.is_terminal(state)
        cards = [c if over or i == seat else None for i, c in enumerate(state.cards)]
        return {"seat": seat, "dealt": len(state.cards), "cards": cards, "history": list(state.history)}

    def determinize(self, observation: Observation, rng: random.Random) -> TinyState:
        """Keep what the seat may know (its own card, or all once the game is over)."""
        seat, history = observation["seat"], tuple(observation["history"])
        over = len(history) >= self.players * self.options["rounds"]
        cards = tuple(c if over or i == seat else rng.randrange(CARDS) for i, c in enumerate(observation["cards"]))
        return TinyState(cards=cards, history=history)

    def state_to_json(self, state: TinyState) -> dict[str, Any]:
        return {"cards": list(state.cards), "history": list(state.history)}

    def state_from_json(self, data: Mapping[str, Any]) -> TinyState:
        try:
            return TinyState(cards=tuple(data["cards"]), history=tuple(data["history"]))
        except (KeyError, TypeError) as exc:
            raise StateFormatError(f"bad tiny state: {exc}") from exc

    def summary(self, state: TinyState) -> dict[str, Any]:
        """Report facts: a role per seat (its card, high or low), rounds, the end, raises per round."""
        per_round = [state.history[i : i + self.players].count(1) for i in range(0, len(state.history), self.players)]
        raisers = sum(per_round)
        return {
            "roles": ["high" if card >= 3 else "low" for card in state.cards],
            "rounds": len(per_round),
            "end_reason": "showdown" if raisers else "everyone passed",
            "trajectories": {"raises": per_round},
        }

    def conservation_errors(self, state: TinyState) -> list[str]:
        if len(state.cards) > self.players or any(not 0 <= c < CARDS for c in state.cards):
            return [f"cards {state.cards} do not fit {self.players} seats"]
        return []


class MutatingTinyGame(TinyGame):
    """Broken: ``apply`` writes the new history into its input state."""

    SPEC = replace(TinyGame.SPEC, id="tiny-mutating")

    def apply(self, state: TinyState, action: int) -> TinyState:
        new = super().apply(state, action)
        object.__setattr__(state, "history", new.history)
        object.__setattr__(state, "cards", new.cards)
        return new


class LeakyTinyGame(TinyGame):
    """Broken: every seat's observation shows every card."""

    SPEC = replace(TinyGame.SPEC, id="tiny-leaky")

    def observe(self, state: TinyState, seat: int | None) -> Observation:
        obs = super().observe(state, seat)
        obs["cards"] = list(state.cards)
        return obs


class DriftingTinyGame(TinyGame):
    """Broken: hidden global state makes a replay start from a different deal."""

    SPEC = replace(TinyGame.SPEC, id="tiny-drifting")
    games_made = 0

    def initial_state(self) -> TinyState:
        DriftingTinyGame.games_made += 1
        if DriftingTinyGame.games_made == 1:
            return TinyState(cards=(), history=())
        return TinyState(cards=(DriftingTinyGame.games_made % CARDS,), history=())


class IllegalAcceptingTinyGame(TinyGame):
    """Broken: ``apply`` does not check legality."""

    SPEC = replace(TinyGame.SPEC, id="tiny-permissive")

    def apply(self, state: TinyState, action: int) -> TinyState:
        if self.current_player(state) == CHANCE:
            return replace(state, cards=(*state.cards, action))
        return replace(state, history=(*state.history, action))


class BoolTakingTinyGame(TinyGame):
    """Broken: ``apply`` reads its action with ``int()``, so ``True`` is action 1 and ``"3"`` is 3."""

    SPEC = replace(TinyGame.SPEC, id="tiny-bool-taking")

    def apply(self, state: TinyState, action: int) -> TinyState:
        return super().apply(state, int(action))


class InPlaceBoolTakingTinyGame(TinyGame):
    """Broken: ``apply_in_place`` (a search's fast path) reads its action with ``int()``, so
    ``True`` is action 1 there while ``apply`` refuses it."""

    SPEC = replace(TinyGame.SPEC, id="tiny-bool-taking-in-place")

    def apply_in_place(self, state: TinyState, action: int) -> TinyState:
        return super().apply_in_place(state, int(action))


class ChattyTinyWording(TinyWording):
    """Broken: the game log tells every seat which card was dealt."""

    def event_text(self, state: TinyState, action: int, seat: int | None) -> str | None:
        if self.game.current_player(state) == CHANCE:
            return f"seat {len(state.cards)} is dealt card {action}"
        return super().event_text(state, action, seat)


class ChattyTinyGame(TinyGame):
    """Broken: the game log tells every seat which card was dealt."""

    SPEC = replace(TinyGame.SPEC, id="tiny-chatty")
    WORDING = ChattyTinyWording


@dataclass(frozen=True)
class DiscardState:
    cards: tuple[int, ...]
    discards: tuple[int, ...]


class DiscardWording(Wording[DiscardState]):
    """Tiny Discard in words."""

    def action_to_str(self, state: DiscardState, action: int) -> str:
        if self.game.current_player(state) == CHANCE:
            return f"deal seat {len(state.cards) // 2}: card {action}"
        return f"discard card {action}"

    def event_text(self, state: DiscardState, action: int, seat: int | None) -> str | None:
        self.game.check_seat(seat)
        player = self.game.current_player(state)
        if player == CHANCE:
            dealt_to = len(state.cards) // 2
            return f"you are dealt card {action}" if dealt_to == seat else f"seat {dealt_to} is dealt a card"
        if player == seat:
            return f"you: discard card {action}"
        return f"seat {player} discards a card face-down"


class DiscardTinyGame(Game[DiscardState]):
    """Each seat is dealt two secret cards 0-4, then discards one face-down; the highest kept card
    wins.  A seat with a pair has one legal discard: the case that tempts a log to name it."""

    SPEC = GameSpec(
        id="tiny-discard",
        name="Tiny Discard",
        version="1",
        min_players=2,
        max_players=4,
        num_distinct_actions=CARDS,
        max_chance_outcomes=CARDS,
        max_game_length=3 * 4,
        min_utility=0.0,
        max_utility=1.0,
    )
    WORDING = DiscardWording

    def initial_state(self) -> DiscardState:
        return DiscardState(cards=(), discards=())

    def current_player(self, state: DiscardState) -> int:
        if len(state.cards) < 2 * self.players:
            return CHANCE
        return TERMINAL if len(state.discards) == self.players else len(state.discards)

    def hand(self, state: DiscardState, seat: int) -> tuple[int, int]:
        return state.cards[2 * seat], state.cards[2 * seat + 1]

    def legal_actions(self, state: DiscardState) -> list[int]:
        player = self.current_player(state)
        if player == CHANCE:
            return list(range(CARDS))
        return [] if player == TERMINAL else sorted(set(self.hand(state, player)))

    def chance_outcomes(self, state: DiscardState) -> list[tuple[int, float]]:
        return [(c, 1.0 / CARDS) for c in range(CARDS)] if self.current_player(state) == CHANCE else []

    def apply(self, state: DiscardState, action: int) -> DiscardState:
        action = self.check_legal(state, action)
        if self.current_player(state) == CHANCE:
            return replace(state, cards=(*state.cards, action))
        return replace(state, discards=(*state.discards, action))

    def kept(self, state: DiscardState, seat: int) -> int:
        first, second = self.hand(state, seat)
        return second if state.discards[seat] == first else first

    def returns(self, state: DiscardState) -> list[float]:
        if not self.is_terminal(state):
            return [0.0] * self.players
        best = max(self.kept(state, s) for s in range(self.players))
        return [1.0 if self.kept(state, s) == best else 0.0 for s in range(self.players)]

    def observe(self, state: DiscardState, seat: int | None) -> Observation:
        self.check_seat(seat)
        over = self.is_terminal(state)
        cards = [c if over or i // 2 == seat else None for i, c in enumerate(state.cards)]
        discards = [d if over or i == seat else None for i, d in enumerate(state.discards)]
        return {"seat": seat, "cards": cards, "discards": discards}

    def determinize(self, observation: Observation, rng: random.Random) -> DiscardState:
        cards = [c if c is not None else rng.randrange(CARDS) for c in observation["cards"]]
        discards = [
            d if d is not None else cards[2 * i + rng.randrange(2)] for i, d in enumerate(observation["discards"])
        ]
        return DiscardState(cards=tuple(cards), discards=tuple(discards))

    def state_to_json(self, state: DiscardState) -> dict[str, Any]:
        return {"cards": list(state.cards), "discards": list(state.discards)}

    def state_from_json(self, data: Mapping[str, Any]) -> DiscardState:
        try:
            return DiscardState(cards=tuple(data["cards"]), discards=tuple(data["discards"]))
        except (KeyError, TypeError) as exc:
            raise StateFormatError(f"bad tiny discard state: {exc}") from exc


class TrueStateWording(DiscardWording):
    """Broken: the log decides what to name from the true state's alternatives, so a seat whose
    hand holds one value (a pair) has its face-down discard named to everyone."""

    def event_text(self, state: DiscardState, action: int, seat: int | None) -> str | None:
        self.game.check_seat(seat)
        player = self.game.current_player(state)
        if player == seat:
            return f"you: {self.action_to_str(state, action)}"
        seen = self.game.observe(self.game.apply(state, action), seat)
        twins = (a for a in self.game.legal_actions(state) if a != action)
        if any(self.game.observe(self.game.apply(state, a), seat) == seen for a in twins):
            return None if player == CHANCE else f"seat {player} acted"
        return f"{'chance' if player == CHANCE else f'seat {player}'}: {self.action_to_str(state, action)}"


class TrueStateWordingTinyGame(DiscardTinyGame):
    """Broken: the log decides what to name from the true state's alternatives, so a seat whose
    hand holds one value (a pair) has its face-down discard named to everyone."""

    SPEC = replace(DiscardTinyGame.SPEC, id="tiny-true-state-wording")
    WORDING = TrueStateWording


class SeatTrustingWording(TinyWording):
    """Broken: the log words any seat number it is given."""

    def event_text(self, state: TinyState, action: int, seat: int | None) -> str | None:
        if self.game.current_player(state) == CHANCE:
            return f"seat {len(state.cards)} is dealt a card"
        return f"seat {self.game.current_player(state)}: {ACTIONS[action]}"


class SeatTrustingTinyGame(TinyGame):
    """Broken: ``observe`` indexes with any seat number, so seat -1 reads the last seat's card."""

    SPEC = replace(TinyGame.SPEC, id="tiny-seat-trusting")
    WORDING = SeatTrustingWording

    def observe(self, state: TinyState, seat: int | None) -> Observation:
        over = self.is_terminal(state)
        cards = [
            c if over or i == seat or (seat is not None and i == seat % self.players) else None
            for i, c in enumerate(state.cards)
        ]
        return {"seat": seat, "dealt": len(state.cards), "cards": cards, "history": list(state.history)}


class EventTellingTinyGame(TinyGame):
    """Broken: its log lines are safe, but an event noted at each deal tells everyone the card."""

    SPEC = replace(TinyGame.SPEC, id="tiny-event-telling")

    def apply_recorded(self, state: TinyState, action: int, *, checked: bool = True) -> tuple[TinyState, list[Event]]:
        new = self.apply(state, action)
        if self.current_player(state) != CHANCE:
            return new, []
        return new, [Event("deal", f"seat {len(state.cards)} is dealt card {action}", data={"card": action})]
