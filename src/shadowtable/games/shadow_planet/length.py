"""An upper bound on the length of a game of The Shadow Planet (its decisions and chance
outcomes), worked out from the rules: OpenSpiel's ``max_game_length`` (through the manifest).
``SPEC.max_game_length`` stays as it is: other code relies on it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shadowtable.games.shadow_planet.context import Context

if TYPE_CHECKING:
    from shadowtable.games.shadow_planet.game import ShadowPlanetGame

SETUP_STEPS = 6
"""The setup's chance nodes: 5 - n Objectives removed, n dealt, the Protagonist chosen."""
ACTION_STEPS = 5
"""Action steps per turn (Move, Search, Get, Repair, Attack), each ended by one ``done``."""
MOVE_TYPE, SEARCH_TYPE = 0, 1
"""The card types of Move and Search cards."""


def ability_decisions(effect: Mapping[str, Any]) -> int:
    """Decisions an ability effect asks for in one turn: a cancel or a free move asks once; giving
    pool Markers asks who receives them, then one colour per Marker."""
    kind = effect["kind"]
    if kind in ("cancel_ability", "free_move_to_section"):
        return 1
    if kind in ("give_pool_marker", "give_pool_markers"):
        return 1 + int(effect["count"])
    return 0


def section_effect_steps(effect: Mapping[str, Any]) -> int:
    """Steps a Section effect takes, but for reveals of Location decks: the Accommodation's
    Messages reveals and removals, the Bridge's two choices, the Countdown choice, who receives
    Markers and their colours, a deck choice per Graveyard draw, a pick per Temple card."""
    kind = effect["kind"]
    if kind == "messages_look_remove":
        return int(effect["look"]) + int(effect["remove"])
    if kind == "robot_gear_swap":
        return 2
    if kind == "countdown_adjust":
        return 1
    if kind == "give_pool_markers":
        return 1 + int(effect["count"])
    if kind in ("draw_any_location", "temple_pile"):
        return int(effect["count"])
    return 0


def location_cards(ctx: Context) -> list[int]:
    """Cards in each Location deck at the start (a Location deck never gains a card)."""
    return [sum(1 for home in ctx.content.card_home if home == deck) for deck in range(4)]


def countdown_back(ctx: Context) -> int:
    """The most one Section effect moves the Countdown back."""
    amounts = [
        int(effect["amount"])
        for reveals in ctx.content.section_reveals
        for reveal in reveals
        for effect in reveal.effects
        if effect["kind"] == "countdown_adjust"
    ]
    return max(amounts, default=0)


def most_rounds(ctx: Context) -> int:
    """The most rounds a game can last.

    A round that does not end the game leaves the Countdown at 1 or more.  Its last change, 1 plus
    one per empty Location deck, lowers it by 1 at least; the Messages comparison raises it by
    the Search cards revealed at most, and a Decompression Chamber choice by
    :func:`countdown_back` at most (nothing else moves it, and clamping never raises it above
    these sums).  So round ``L`` is reached only
    if ``L - 1 <= countdown_start - 1 + S + B``, where over the rounds before it ``S`` counts the
    Search cards revealed and ``B`` the Countdown moved back.  A revealed card leaves the game for
    good, so ``S`` is at most the Search cards.  Each seat that moves it back in a round shows the
    two cards of the cost, which stay in its hand to the Messages phase, so it discards one to the
    Messages pile and that round reveals (and removes) ``min(reveal_count, such seats)`` cards or
    more: ``B`` is at most ``countdown_back * ceil(n / reveal_count)`` per card of the game.
    """
    search_cards = len(ctx.cards_of_type[SEARCH_TYPE])
    per_card = countdown_back(ctx) * -(-ctx.players // ctx.content.reveal_count)
    return ctx.content.countdown_start + search_cards + per_card * ctx.num_cards


def most_round_steps(ctx: Context) -> int:
    """The most steps of one round, but for reveals of Location decks.

    The draft (a chance draw, ``n`` picks); each controlled Character's ability choices; per
    controlled turn five ``done``, one drive declaration, a ride question to each other controlled
    Character, the last walking decision or the drive fallback, the Search reorder (one less than
    a Location deck's cards) and the Section (a choice, a shown card per card of its cost, its
    effects); over the round, the Move cards' total value over the smallest Link cost in walking
    steps, one play per card (a played card stays out of every hand until the Messages phase),
    three swap questions per swap card; ``n`` discards and ``reveal_count`` reveals of the
    Messages pile.
    """
    c, n = ctx.content, ctx.players
    abilities = sum(ability_decisions(effect) for effects in c.char_controlled for effect in effects)
    section = 1 + max(
        sum(reveal.cost) + sum(section_effect_steps(effect) for effect in reveal.effects)
        for reveals in c.section_reveals
        for reveal in reveals
    )
    turn = ACTION_STEPS + 1 + (n - 1) + 1 + (max(location_cards(ctx)) - 1) + section
    link = min(c.link_cost[a][b] for a in range(4) for b in range(4) if ctx.walk_ok[a][b])
    walking = sum(ctx.card_value[card] for card in ctx.cards_of_type[MOVE_TYPE]) // link
    swaps = 3 * sum(ctx.swap)
    return 1 + n + abilities + n * turn + walking + ctx.num_cards + swaps + n + c.reveal_count


def max_game_length(game: ShadowPlanetGame) -> int:
    """An upper bound on the steps of a game: the setup, every round (:func:`most_rounds` times
    :func:`most_round_steps`), each Location card revealed once at most (it stays on its deck's
    known top until it leaves the deck for good) and a tied identity choice per seat.  Derived
    for the built-in content."""
    if game.options["content"] is not None:
        raise ValueError("the length bound is derived for the built-in content")
    ctx = game.ctx
    return SETUP_STEPS + most_rounds(ctx) * most_round_steps(ctx) + sum(location_cards(ctx)) + ctx.players
