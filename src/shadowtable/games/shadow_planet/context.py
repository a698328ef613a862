"""The configured game: content and options turned into flat per-card and per-place lookup tables."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shadowtable._mypyc import mypyc_attr

if TYPE_CHECKING:
    from shadowtable.games.shadow_planet.content import Content


NO_PATH = 10**6


@mypyc_attr(allow_interpreted_subclasses=True)  # the compiled build: copies as in Python (docs/performance.md)
class Context:
    """Everything the rules look up while playing: content, options, precomputed tables."""

    def __init__(self, content: Content, players: int, options: dict[str, Any]) -> None:
        self.content = content
        self.players = players
        self.options = options
        self.num_cards = content.num_cards
        self.card_type = content.card_type
        self.cards_of_type = tuple(tuple(c for c, t in enumerate(self.card_type) if t == k) for k in range(5))
        """Card ids of each type (0 Move .. 4 Attack), ascending."""
        self.card_value = content.card_value
        self.forbid = [0] * self.num_cards
        self.excl = [0] * self.num_cards
        self.aura: list[tuple[int, bool] | None] = [None] * self.num_cards
        self.end_of_turn: list[bool | None] = [None] * self.num_cards
        self.swap = [False] * self.num_cards
        self.vehicle_play: list[tuple[int, bool, bool] | None] = [None] * self.num_cards
        self.endgame: list[list[tuple[str, int, int]]] = [[] for _ in range(self.num_cards)]
        for card, effects in enumerate(content.card_effects):
            for e in effects:
                self._card_effect(card, e)
        self.end_of_turn_cards = tuple(card for card, face_up in enumerate(self.end_of_turn) if face_up is not None)
        """Cards that leave for the Messages pile at the end of the turn they are played in."""
        self.type_mask = tuple(sum(1 << c for c in cards) for cards in self.cards_of_type)
        """Per card type: the bitmask of its cards."""
        self.excl_mask = tuple(
            sum(1 << c for c in cards if self.excl[c] & (1 << k)) for k, cards in enumerate(self.cards_of_type)
        )
        """Per card type: the bitmask of its cards that are exclusive for that type (Space Suit)."""
        self.caves_vehicle_only = bool(options["caves_vehicle_only"])
        self.walk_ok = [
            [content.link_cost[a][b] > 0 and not (self.caves_vehicle_only and content.link_vehicle_only[a][b])
             for b in range(4)]
            for a in range(4)
        ]  # fmt: skip
        self.drive_dist = _shortest_paths(content.link_cost)
        walk_cost = tuple(
            tuple(c if self.walk_ok[a][b] else 0 for b, c in enumerate(row)) for a, row in enumerate(content.link_cost)
        )
        self.walk_dist = _shortest_paths(walk_cost)
        """Cheapest Move cost on foot between two Locations (``NO_PATH``: none)."""
        self.walk_reach = [[d < NO_PATH for d in row] for row in self.walk_dist]
        self.colour_character = {col: ch for ch, col in enumerate(content.char_colour) if col >= 0}
        self.robot = content.char_colour.index(-1)
        self.repair_start = content.repair_start[players]

    def _card_effect(self, card: int, e: dict[str, Any]) -> None:
        kind = e["kind"]
        types = ("move", "search", "get", "repair", "attack")
        if kind == "forbid_type":
            self.forbid[card] |= 1 << types.index(e["type"])
        elif kind == "exclusive_type":
            self.excl[card] |= 1 << types.index(e["type"])
        elif kind == "aura_search":
            self.aura[card] = (e["amount"], e["include_self"])
        elif kind == "end_of_turn_to_messages":
            self.end_of_turn[card] = e["face_up"]
        elif kind == "swap_with_player":
            self.swap[card] = True
        elif kind == "vehicle_into_play":
            self.vehicle_play[card] = (self.vehicle_index(e["vehicle"]), e["discard_to_messages"], e["value_counts"])
        elif kind == "endgame_count":
            self.endgame[card].append((e["objective"], types.index(e["type"]), e["count"]))

    def vehicle_index(self, name: str) -> int:
        """Index of a Vehicle by id or name (content ids are lower-case names)."""
        for i, vname in enumerate(self.content.vehicle_names):
            if vname.lower() == name.lower():
                return i
        raise ValueError(f"unknown vehicle {name!r}")

    def section_index(self, name: str) -> int:
        """Index of a Section by id (``graveyard``) or name."""
        for i, sname in enumerate(self.content.section_names):
            if sname.lower().replace(" ", "_").startswith(name.lower()) or sname.lower() == name.lower():
                return i
        raise ValueError(f"unknown section {name!r}")


def _shortest_paths(cost: tuple[tuple[int, ...], ...]) -> list[list[int]]:
    size = len(cost)
    dist = [[0 if a == b else (cost[a][b] or NO_PATH) for b in range(size)] for a in range(size)]
    for k in range(size):
        for a in range(size):
            for b in range(size):
                dist[a][b] = min(dist[a][b], dist[a][k] + dist[k][b])
    return dist
