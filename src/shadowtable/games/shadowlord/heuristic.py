"""A rule-based Shadowlord! bot that decides from one seat's observation and the legal actions.

It reads only the typed observation (:class:`~.view.LordObservation`): ``public`` (the board,
counts), ``pending`` (the decision it faces and that decision's public data) and ``private``
(its own Attack Hand and portrait cards), plus the printed material of the configured game
(``game.words.reference()``, read as :class:`.printed.Printed`).  Decisions it
does not recognise fall back to a safe default (``done`` when legal, otherwise a seeded random
legal action).

Strategy, decision kind by decision kind:

* setup and building: ships to the Diplomat first (to search), then Warriors and the Star
  Master (up to six), Merchants three; spare ships loose on held Ruins and Space Bases; 2s (and
  4s beyond four) are discarded for ships while a ring still wants ships; 0s are kept for Bribery.
* cards: with more than three cards in hand, 7s and 10s go under the strongest fighter (the Star
  Master first), at most three per portrait; the rest stays as the Attack Hand (the same after
  the last Battle, then ``end turn``).
* Bribery: four matching 0s or 2s (4s only for a valuable target) on the most valuable enemy.
* movement: Diplomats walk to face-down discs and Search; fighters move to the reachable galaxy
  worth most (unheld Ruins and Space Bases, enemies they should beat), never into a fight they
  may lose or next to an enemy that could beat them; the Star Master stays home until it has four
  ships; a ring leaving a Ruins or Space Base drops a loose ship to hold it; when the Alliance's
  Warriors (plus the Attack Hand) outweigh the Lost Fortress's guards and the Shadowlord, they
  gather next to it and storm it together.  Once the Shadowlord is defeated, the moving
  Alliance's Warriors and Merchants (and its Star Master when needed) besiege the enemy Star
  Master whose stack they outweigh: they gather next to it (a Diplomat goes in first to cancel an
  enemy Diplomat's immunity) and go in together once those next to it suffice; the edge they
  want shrinks as turns pass.
* Battles: fight when clearly stronger, else propose a Truce; accept a Truce unless clearly
  stronger; strongest ring first (the Star Master last); defend with the weakest ring that still
  wins; commit the smallest cards that win the Duel, nothing when it cannot win.
* shadows: move one only onto an enemy it should beat; place a revealed one on the weakest enemy
  ring, else far from its own rings.
* votes: no when the action hurts this seat, yes when it hurts the leader, else yes unless the
  proposer leads.  Offers: accepts those worth more than they cost (never during a Battle);
  makes one only rarely (two spare 0s for a 4).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from shadowtable.core.errors import StateFormatError
from shadowtable.core.game import Game, Observation
from shadowtable.games.shadowlord import actions as A
from shadowtable.games.shadowlord.content import DIPLOMAT, MASTER, MERCHANT, SHADOW, SHADOWLORD, WARRIOR
from shadowtable.games.shadowlord.printed import Printed, printed
from shadowtable.games.shadowlord.state import ACTIVE, BLACK, NOBODY
from shadowtable.games.shadowlord.view import LordObservation, LordPublic, Offer, PlannedBattle

MEAN_CARD = 3.6
"""Average Power Card value (8x0, 15x2, 15x4, 10x7, 2x10)."""
SAFETY_MARGIN = 3
FORTRESS_STRENGTH = 24
"""Estimated Duel total a ring needs before it goes for the Lost Fortress."""


@dataclass(frozen=True)
class Siege:
    """An enemy Star Master's galaxy to storm (``NOBODY``: no siege), the rings that go and the
    expected total they must reach there."""

    target: int
    rings: frozenset[int]
    need: float


NO_SIEGE = Siege(NOBODY, frozenset(), 0.0)


@dataclass
class View:
    """The public facts of one observation plus the printed material, for one deciding seat."""

    game: Any
    seat: int
    pub: LordPublic
    hand: list[int]
    portraits: dict[int, list[int]]
    commits: list[list[int] | None]
    content: Printed
    values_cache: dict[tuple[int, int], float] = field(default_factory=dict)
    assault_cache: list[frozenset[int]] = field(default_factory=list)
    siege_cache: list[Siege] = field(default_factory=list)
    best_cache: dict[tuple[int, int], float] = field(default_factory=dict)
    mine_cache: frozenset[int] | None = None
    """This seat's colours, once asked for (an observation never changes while it is read)."""
    figs_cache: dict[int, list[int]] | None = None
    """The active figures by galaxy, lowest id first, once asked for."""
    threats_cache: list[tuple[int, int, float]] | None = None
    """The enemy rings that can threaten a galaxy (location, range, defence), once asked for."""

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(self.content.card_values)

    @property
    def mine(self) -> list[int]:
        """The colours (Alliances) of this seat."""
        return self.mine_of(self.seat)

    def mine_of(self, seat: int) -> list[int]:
        """The colours (Alliances) of ``seat``."""
        return list(self.content.seat_alliances[seat])

    @property
    def owner_list(self) -> list[int]:
        return list(self.pub.owner)

    @property
    def lord(self) -> int:
        """The Shadowlord's figure id."""
        return int(list(self.content.fig_kind).index(SHADOWLORD))

    @property
    def cur(self) -> int:
        return int(self.pub.current_colour)

    def kind(self, f: int) -> int:
        return int(self.content.fig_kind[f])

    def active(self, f: int) -> bool:
        return bool(self.pub.status[f] == ACTIVE)

    def owner(self, f: int) -> int:
        return int(self.pub.owner[f])

    def mine_set(self) -> frozenset[int]:
        """:attr:`mine` as a set, built once."""
        if self.mine_cache is None:
            self.mine_cache = frozenset(self.mine)
        return self.mine_cache

    def is_mine(self, f: int) -> bool:
        return self.owner(f) in self.mine_set()

    def friendly(self, colour: int) -> bool:
        return colour in self.mine_set()

    def figs_at(self, g: int) -> list[int]:
        """The active figures in ``g``, lowest id first (a new list)."""
        if self.figs_cache is None:
            index: dict[int, list[int]] = {}
            loc, status = self.pub.loc, self.pub.status
            for f in range(len(loc)):
                if status[f] == ACTIVE:
                    index.setdefault(loc[f], []).append(f)
            self.figs_cache = index
        return list(self.figs_cache.get(g, ()))

    def ring_range(self, f: int) -> int:
        """Space Ships plus the Power Stone."""
        return int(self.pub.ships[f]) + (1 if self.pub.stone == f else 0)

    def portrait_count(self, f: int) -> int:
        return int(self.pub.portrait_counts[f])

    def portrait_value(self, f: int) -> float:
        """Known value of own portrait cards; the average for anyone else's."""
        if f in self.portraits:
            return float(sum(v * n for v, n in zip(self.values, self.portraits[f], strict=False)))
        return MEAN_CARD * self.portrait_count(f)

    def defence(self, f: int) -> float:
        """Expected Duel total of ``f`` defending (strength, ships, portrait cards)."""
        return float(self.content.fig_strength[f] + self.ring_range(f) + self.portrait_value(f))

    def best_hand(self, n: int) -> int:
        """Sum of the ``n`` best cards of the Attack Hand."""
        cards = sorted((v for i, v in enumerate(self.values) for _ in range(self.hand[i])), reverse=True)
        return sum(cards[:n])

    def attack(self, f: int) -> float:
        """Expected Duel total of own ``f`` attacking (adds the two best Attack Hand cards)."""
        return self.defence(f) + self.best_hand(2)

    def control(self, g: int) -> int:
        """The colour controlling ``g`` (rings, then loose ships; Home Planets default to owner)."""
        cols = {self.owner(f) for f in self.figs_at(g)}
        loose = int(self.pub.loose_colour[g]) if self.pub.loose_count[g] > 0 else NOBODY
        homes = list(self.content.home_of)
        if g in homes:
            home_owner = homes.index(g)
            if self.pub.alive[home_owner] and not (cols - {home_owner}) and loose in (NOBODY, home_owner):
                return home_owner
        if len(cols) == 1:
            return next(iter(cols))
        if cols:
            return loose if loose in cols else NOBODY
        return loose

    def enemy_fighters_at(self, g: int) -> list[int]:
        return [f for f in self.figs_at(g) if not self.is_mine(f) and self.kind(f) != DIPLOMAT]

    def enemy_diplomat_at(self, g: int) -> bool:
        return any(not self.is_mine(f) and self.kind(f) == DIPLOMAT for f in self.figs_at(g))

    def my_diplomat_at(self, g: int) -> bool:
        return any(self.is_mine(f) and self.kind(f) == DIPLOMAT for f in self.figs_at(g))

    def distances(self, start: int) -> dict[int, int]:
        """Grid distance from ``start`` to every galaxy (obstacles ignored)."""
        return grid_distances(self.content.neighbours, start)

    def seat_material(self, seat: int) -> float:
        """Rough standing of a seat: its characters' strength and ships plus held galaxies."""
        colours = set(self.content.seat_alliances[seat])
        owners = self.pub.owner
        figs = [f for f in range(len(owners)) if owners[f] in colours and self.active(f)]
        held = sum(1 for g in self.special_galaxies() if self.control(g) in colours)
        return float(sum(self.content.fig_strength[f] + self.pub.ships[f] for f in figs) + 4 * held)

    def special_galaxies(self) -> list[int]:
        return sorted(set(self.content.ruins) | set(self.content.bases))

    def leader(self) -> int:
        """The seat with the most material among those still in the game."""
        alive = [k for k in range(self.game.players) if not self.pub.seat_out[k]]
        return max(alive, key=lambda k: (self.seat_material(k), -k)) if alive else NOBODY


@lru_cache(maxsize=256)
def grid_distances(neighbours: tuple[tuple[int, ...], ...], start: int) -> dict[int, int]:
    """Breadth-first distances over the board's adjacency (cached: the board never changes)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        g = queue.popleft()
        for n in neighbours[g]:
            if n not in dist:
                dist[n] = dist[g] + 1
                queue.append(n)
    return dist


def lord_view(observation: Observation | LordObservation) -> LordObservation:
    """The typed observation (read from its JSON unless it is typed already)."""
    return observation if isinstance(observation, LordObservation) else LordObservation.from_json(observation)


def make_view(game: Game[Any], seat: int, observation: LordObservation) -> View:
    private = observation.private
    hand = list(private.hand or (0,) * 5)
    portraits = {int(k): list(v) for k, v in private.portraits.items()}
    commits = [None if c is None else list(c) for c in private.commit or (None, None)]
    return View(game, seat, observation.public, hand, portraits, commits, printed(game))


def pending_kind(observation: LordObservation) -> str:
    """The kind of the decision the seat faces."""
    return observation.pending.kind


def pending_data(observation: LordObservation) -> dict[str, Any]:
    """The public data of the pending decision (its ``shown`` fields: ``battle``, ``side``...)."""
    return dict(observation.pending.data)


def by_block(legal: Sequence[int]) -> dict[str, list[tuple[int, int]]]:
    """Legal actions grouped by block: ``{block: [(action, index), ...]}``."""
    out: dict[str, list[tuple[int, int]]] = {}
    for action in legal:
        name, index = A.decode(action)
        out.setdefault(name, []).append((action, index))
    return out


def default_action(legal: Sequence[int], rng: random.Random) -> int:
    """``done`` when legal, else a seeded random choice."""
    if A.DONE in legal:
        return A.DONE
    return legal[rng.randrange(len(legal))]


# -- free actions: cards under portraits, Bribery --------------------------------------------------


def card_placement(v: View, legal: Sequence[int]) -> int | None:
    """Put a 7 or 10 under the strongest fighter (the Master first) while keeping an Attack Hand
    of at least three cards; never under Diplomats (the engine does not offer them)."""
    if sum(v.hand) <= 3:
        return None
    places = by_block(legal).get("place", [])
    best: tuple[float, int] | None = None
    for action, index in places:
        value_index, f = divmod(index, A.NF)
        if v.values[value_index] < 7 or not v.active(f) or v.portrait_count(f) >= 3:
            continue
        score = v.content.fig_strength[f] + (4 if v.kind(f) == MASTER else 0) - v.portrait_count(f)
        if best is None or score > best[0]:
            best = (score, action)
    return best[1] if best else None


def bribe_value(v: View, f: int) -> float:
    worth = {WARRIOR: 10.0, MERCHANT: 8.0, DIPLOMAT: 4.0}.get(v.kind(f), 0.0)
    return worth + float(v.pub.ships[f]) + v.portrait_count(f) * MEAN_CARD


def bribery(v: View, legal: Sequence[int]) -> int | None:
    """Bribe with four cheap matching cards (0s or 2s), or with 4s for a valuable Warrior."""
    best: tuple[float, int] | None = None
    for action, index in by_block(legal).get("bribe", []):
        value_index, f = divmod(index, A.NF)
        worth = bribe_value(v, f)
        cost = 4 * v.values[value_index]
        if cost > 8 and worth < 14:
            continue
        score = worth - cost / 2
        if best is None or score > best[0]:
            best = (score, action)
    return best[1] if best else None


# -- Step 3: building ------------------------------------------------------------------------------


def ship_wish(v: View, f: int) -> int:
    """How many Space Ships a ring should carry."""
    return {MASTER: 6, WARRIOR: 6, MERCHANT: 3, DIPLOMAT: 2}.get(v.kind(f), 0)


def build_choice(v: View, legal: Sequence[int]) -> int:
    blocks = by_block(legal)
    rings = [(a, f) for a, f in blocks.get("figure", [])]
    if rings:
        needy = [(ship_wish(v, f) - v.pub.ships[f], -v.content.fig_strength[f], a) for a, f in rings]
        needy.sort(key=lambda t: (-t[0], t[1]))
        if needy[0][0] > 0:
            return needy[0][2]
        holds = [a for a, g in blocks.get("galaxy", []) if g in v.special_galaxies() and v.pub.loose_count[g] < 2]
        if holds:
            return holds[0]
        return needy[0][2]
    hungry = any(v.active(f) and v.is_mine(f) and v.pub.ships[f] < ship_wish(v, f) for f in range(len(v.pub.owner)))
    for action, value_index in blocks.get("buy", []):
        value = v.values[value_index]
        if hungry and (value == 2 or (value == 4 and v.hand[value_index] > 4)):
            return action
    return A.DONE if A.DONE in legal else legal[0]


# -- Step 4: movement --------------------------------------------------------------------------------


def galaxy_value(v: View, f: int, g: int) -> float:
    """How much ring ``f`` wants to stand in ``g`` at the end of its move (negative: avoid)."""
    enemies = v.enemy_fighters_at(g)
    mine_here = [x for x in v.figs_at(g) if v.is_mine(x) and x != f]
    if v.enemy_diplomat_at(g) and v.kind(f) != DIPLOMAT and not v.my_diplomat_at(g):
        return -100.0
    siege = siege_plan(v)
    if f in siege.rings:
        if g == siege.target:
            return 40.0 if siege_ready(v, siege) else -50.0
        if enemies:
            return min(SIEGE_ELSEWHERE, open_galaxy_value(v, f, g, enemies, mine_here))
        return 25.0 - threat_near(v, f, g) if v.distances(g).get(siege.target) == 1 else 0.0
    return open_galaxy_value(v, f, g, enemies, mine_here)


def open_galaxy_value(v: View, f: int, g: int, enemies: list[int], mine_here: list[int]) -> float:
    """:func:`galaxy_value` outside a siege: the Lost Fortress, Ruins, Space Bases, enemies."""
    content = v.content
    assault = assault_rings(v)
    if g == content.fortress:
        if f in assault:
            return 40.0 if assault_ready(v, assault) else -50.0
        return fortress_value(v, f)
    value = 0.0
    if f in assault and not enemies and v.distances(g).get(content.fortress) == 1:
        value += 25.0
    if g in content.ruins or g in content.bases:
        value += 6.0 if not v.friendly(v.control(g)) else 1.0
    if enemies:
        strength = v.attack(f) + sum(v.defence(x) for x in mine_here if v.kind(x) != DIPLOMAT)
        threat = max(v.defence(x) for x in enemies) + MEAN_CARD
        if strength < threat + SAFETY_MARGIN or len(enemies) > 1 + len(mine_here):
            return -50.0
        value += 8.0 + sum(20.0 if v.kind(x) == MASTER else 4.0 for x in enemies)
    elif v.pub.loose_count[g] and not v.friendly(v.pub.loose_colour[g]):
        value += 3.0
    if v.my_diplomat_at(g):
        value += 1.0
    return value - threat_near(v, f, g)


def threat_near(v: View, f: int, g: int) -> float:
    """Penalty for ending next to enemy rings (or shadows) that could beat ``f`` there."""
    if v.my_diplomat_at(g) or g in v.content.homes:
        return 0.0
    dist = v.distances(g)
    mine = v.defence(f)
    step = 12.0 if v.kind(f) == MASTER else 4.0
    penalty = 0.0
    for at, reach, defence in threats(v):
        if 0 < dist.get(at, 99) <= reach and defence + MEAN_CARD > mine:
            penalty += step
    return penalty


def threats(v: View) -> list[tuple[int, int, float]]:
    """The enemy rings :func:`threat_near` weighs (location, range, defence), found once per view."""
    if v.threats_cache is None:
        v.threats_cache = [
            (v.pub.loc[x], max(v.ring_range(x), 0), v.defence(x))
            for x in range(len(v.pub.owner))
            if v.active(x) and not v.is_mine(x) and v.kind(x) not in (DIPLOMAT, SHADOWLORD)
        ]
    return v.threats_cache


def fortress_value(v: View, f: int) -> float:
    """The Lost Fortress is worth attacking with a strong ring once few shadows guard it."""
    if v.kind(f) not in (MASTER, WARRIOR):
        return -50.0
    guards = [x for x in v.figs_at(v.content.fortress) if v.owner(x) == BLACK and v.kind(x) == SHADOW]
    need = FORTRESS_STRENGTH + (6 if v.kind(f) == MASTER else 0) + 4 * len(guards)
    return 30.0 if v.attack(f) >= need and len(guards) <= 1 else -50.0


def hand_value(v: View) -> int:
    return sum(val * n for val, n in zip(v.values, v.hand, strict=False))


def shadowlord_alive(v: View) -> bool:
    fortress = v.content.fortress
    return any(v.kind(x) == SHADOWLORD and v.active(x) and v.pub.loc[x] == fortress for x in range(len(v.owner_list)))


def assault_rings(v: View) -> frozenset[int]:
    """The rings of the moving Alliance that should storm the Lost Fortress together: chosen
    when their strength, ships, portrait cards and the whole Attack Hand outweigh the expected
    totals of every guard plus the Shadowlord (the Star Master joins only when needed and no
    rival Alliance is left)."""
    if v.assault_cache:
        return v.assault_cache[0]
    v.assault_cache.append(frozenset(choose_assault(v)))
    return v.assault_cache[0]


def choose_assault(v: View) -> list[int]:
    if not shadowlord_alive(v) or v.cur not in v.mine:
        return []
    fortress = v.content.fortress
    guards = [x for x in v.figs_at(fortress) if v.owner(x) == BLACK and v.kind(x) == SHADOW]
    lord_total = v.content.fig_strength[v.lord] + 6 + MEAN_CARD
    rivals_left = any(not v.pub.seat_out[k] for k in range(v.game.players) if k != v.seat)
    margin = 10.0 if rivals_left or v.pub.timer > 2 else 4.0
    need = float(sum(v.content.fig_strength[x] + 3.2 + MEAN_CARD for x in guards)) + lord_total + margin
    fighters = [f for f in range(len(v.owner_list)) if v.active(f) and v.owner(f) == v.cur]
    warriors = [f for f in fighters if v.kind(f) == WARRIOR and v.ring_range(f) > 0]
    power = float(sum(v.defence(f) for f in warriors)) + hand_value(v)
    if warriors and power >= need:
        return warriors
    masters = [f for f in fighters if v.kind(f) == MASTER and v.ring_range(f) > 0]
    if not rivals_left and masters and power + sum(v.defence(f) for f in masters) >= need:
        return warriors + masters
    return []


def assault_ready(v: View, assault: frozenset[int]) -> bool:
    """Every storming ring stands next to (or already in) the Lost Fortress."""
    fortress = v.content.fortress
    return all(v.distances(int(v.pub.loc[f])).get(fortress, 9) <= 1 for f in assault)


def siege_plan(v: View) -> Siege:
    """The moving Alliance's siege (memoised for one decision)."""
    if not v.siege_cache:
        v.siege_cache.append(choose_siege(v))
    return v.siege_cache[0]


SIEGE_MARGIN = 10.0
"""The edge a siege wants over the defenders at first; it shrinks as the turns pass."""
SIEGE_MARGIN_FLOOR = 3.0
SIEGE_ELSEWHERE = 10.0
"""The most a besieging ring wants from any galaxy but the target and those next to it."""


def siege_margin(turn: int) -> float:
    """The edge a siege wants over the defenders on ``turn`` (the longer the endgame, the bolder)."""
    return max(SIEGE_MARGIN_FLOOR, SIEGE_MARGIN - turn / 10)


def choose_siege(v: View) -> Siege:
    """Once the Shadowlord is defeated only the rival Star Masters stand between a seat and
    victory, and they sit in stacks no lone ring would attack: the moving Alliance's Warriors
    and Merchants (its Star Master too when they need it), with the whole Attack Hand, besiege
    the enemy Star Master whose defenders' expected totals they outweigh by the margin, the
    weakest first."""
    if shadowlord_alive(v) or v.cur not in v.mine:
        return NO_SIEGE
    fighters = [f for f in range(len(v.owner_list)) if v.active(f) and v.owner(f) == v.cur and v.ring_range(f) > 0]
    rings = [f for f in fighters if v.kind(f) in (WARRIOR, MERCHANT)]
    masters = [f for f in fighters if v.kind(f) == MASTER]
    margin = siege_margin(int(v.pub.turn))
    best: tuple[float, int, int, list[int]] | None = None
    for m in range(len(v.owner_list)):
        if not v.active(m) or v.is_mine(m) or v.kind(m) != MASTER:
            continue
        g = int(v.pub.loc[m])
        need = float(sum(v.defence(x) + MEAN_CARD for x in v.enemy_fighters_at(g))) + margin
        for group in (rings, rings + masters):
            if group and sum(v.defence(f) for f in group) + hand_value(v) >= need:
                far = max(v.distances(int(v.pub.loc[f])).get(g, 99) for f in group)
                if best is None or (need, far, g) < best[:3]:
                    best = (need, far, g, group)
                break
    return Siege(best[2], frozenset(best[3]), best[0]) if best else NO_SIEGE


def siege_ready(v: View, siege: Siege) -> bool:
    """The besieging rings next to (or in) the target, with the Attack Hand, outweigh its
    defenders by the margin, and no enemy Diplomat there keeps his immunity."""
    target = siege.target
    if v.enemy_diplomat_at(target) and not v.my_diplomat_at(target):
        return False
    near = [f for f in siege.rings if v.distances(int(v.pub.loc[f])).get(target, 9) <= 1]
    return sum(v.defence(f) for f in near) + hand_value(v) >= siege.need


def siege_diplomat_value(v: View, f: int, g: int) -> float:
    """A Diplomat of the besieging Alliance goes to cancel an enemy Diplomat's immunity there."""
    siege = siege_plan(v)
    if g != siege.target or not siege.rings or v.owner(f) != v.cur or not v.enemy_diplomat_at(g):
        return 0.0
    return 30.0


def disc_target_value(v: View, g: int) -> float:
    """A Diplomat wants galaxies with face-down discs that hold no enemy."""
    if not v.pub.disc[g]:
        return 0.0
    if v.enemy_fighters_at(g) or (v.pub.loose_count[g] and not v.friendly(v.pub.loose_colour[g])):
        return 0.0
    return 10.0


def target_value(v: View, f: int, g: int) -> float:
    """What ring ``f`` wants from galaxy ``g`` (memoised for one decision)."""
    key = (f, g)
    if key not in v.values_cache:
        if v.kind(f) == DIPLOMAT:
            v.values_cache[key] = max(disc_target_value(v, g), siege_diplomat_value(v, f, g))
        else:
            v.values_cache[key] = galaxy_value(v, f, g)
    return v.values_cache[key]


def target_score(v: View, f: int, g: int, dist: int) -> float:
    return target_value(v, f, g) / (1.0 + dist)


def movement_choice(v: View, legal: Sequence[int]) -> int:
    blocks = by_block(legal)
    searches = blocks.get("search", [])
    if searches:
        return searches[0][0]
    for action, target in blocks.get("stone", []):
        if v.kind(target) == MASTER:
            return action
    drop = loose_drop(v, blocks.get("drop", []))
    if drop is not None:
        return drop
    best: tuple[float, int] | None = None
    for action, index in blocks.get("move", []):
        f, d = divmod(index, 4)
        gain = move_gain(v, f, d)
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, action)
    if best is not None:
        return best[1]
    return A.DONE if A.DONE in legal else legal[0]


def step_target(v: View, g: int, d: int) -> int:
    content = v.content
    r, c = divmod(g, content.cols)
    dr, dc = ((-1, 0), (0, 1), (1, 0), (0, -1))[d]
    r, c = r + dr, c + dc
    return r * content.cols + c if 0 <= r < content.rows and 0 <= c < content.cols else NOBODY


def move_gain(v: View, f: int, d: int) -> float:
    """How much better ``f``'s best reachable target looks after stepping in direction ``d``."""
    here = int(v.pub.loc[f])
    nxt = step_target(v, here, d)
    if nxt == NOBODY:
        return 0.0
    if v.kind(f) == MASTER and v.pub.ships[f] < 4:
        return 0.0
    stay = best_target(v, f, here)
    after = best_target(v, f, nxt)
    gain = after - stay
    arriving = target_score(v, f, nxt, 0)
    if arriving < 0:
        return 0.0
    return gain if gain > 0.05 else 0.0


def best_target(v: View, f: int, g: int) -> float:
    """The best :func:`target_score` ``f`` sees from ``g`` (memoised for one decision)."""
    key = (f, g)
    best = v.best_cache.get(key)
    if best is None:
        best = max((target_score(v, f, t, d) for t, d in v.distances(g).items()), default=0.0)
        v.best_cache[key] = best
    return best


def loose_drop(v: View, drops: list[tuple[int, int]]) -> int | None:
    """Leave one loose Space Ship on a held Ruins or Space Base before a ring moves on."""
    for action, f in drops:
        g = int(v.pub.loc[f])
        if g not in v.special_galaxies() or v.pub.loose_count[g]:
            continue
        if v.pub.moves[f] == 0 and v.pub.ships[f] >= 3 and v.kind(f) != MASTER:
            return action
    return None


# -- Step 5: moving a shadow -----------------------------------------------------------------------


def shadow_move_choice(v: View, legal: Sequence[int]) -> int:
    """Move a shadow onto an enemy ring it should beat; otherwise leave the shadows alone."""
    best: tuple[float, int] | None = None
    for action, index in by_block(legal).get("move", []):
        f, d = divmod(index, 4)
        g = step_target(v, int(v.pub.loc[f]), d)
        victims = [x for x in v.figs_at(g) if not v.is_mine(x) and v.owner(x) < BLACK and v.kind(x) != DIPLOMAT]
        if not victims:
            continue
        edge = v.defence(f) - max(v.defence(x) for x in victims)
        if edge > 0 and (best is None or edge > best[0]):
            best = (edge, action)
    return best[1] if best else A.DONE


def place_shadow_choice(v: View, legal: Sequence[int], rng: random.Random) -> int:
    """Place a revealed shadow on the weakest enemy ring, else as far from own rings as possible."""
    mine = [int(v.pub.loc[f]) for f in range(len(v.pub.owner)) if v.active(f) and v.is_mine(f)]
    scored: list[tuple[float, int]] = []
    for action, g in by_block(legal).get("galaxy", []):
        victims = [x for x in v.figs_at(g) if v.owner(x) < BLACK and v.kind(x) != DIPLOMAT]
        near = min((v.distances(g).get(m, 9) for m in mine), default=9)
        score = float(near)
        if victims:
            score += 20.0 - min(v.defence(x) for x in victims)
        scored.append((score, action))
    if not scored:
        return default_action(legal, rng)
    return max(scored)[1]


# -- Step 6: fighting ------------------------------------------------------------------------------


def battle_entry(v: View, idx: int) -> PlannedBattle | None:
    plan = v.pub.battle.plan if v.pub.battle is not None else ()
    return plan[idx] if 0 <= idx < len(plan) else None


def side_strengths(v: View, g: int) -> tuple[float, float]:
    """(own fighting total, enemy fighting total) in galaxy ``g``."""
    own = float(sum(v.attack(f) if i == 0 else v.defence(f) for i, f in enumerate(own_fighters(v, g))))
    enemy = float(sum(v.defence(f) for f in v.enemy_fighters_at(g)))
    return own, enemy


def own_fighters(v: View, g: int) -> list[int]:
    figs = [f for f in v.figs_at(g) if v.is_mine(f) and v.kind(f) != DIPLOMAT]
    return sorted(figs, key=lambda f: -v.defence(f))


def truce_question(v: View, task: dict[str, Any], legal: Sequence[int]) -> int:
    """Fight when clearly stronger, otherwise propose a Truce."""
    entry = battle_entry(v, int(task["battle"]))
    if entry is None:
        return A.DONE
    own, enemy = side_strengths(v, entry.galaxy)
    if own >= enemy + SAFETY_MARGIN:
        return A.DONE
    truces = [a for a in legal if a != A.DONE]
    return truces[0] if truces else A.DONE


def truce_answer(v: View, task: dict[str, Any]) -> int:
    """Accept a Truce unless the defence looks clearly stronger."""
    entry = battle_entry(v, int(task["battle"]))
    if entry is None:
        return A.YES
    own, enemy = side_strengths(v, entry.galaxy)
    return A.DONE if own > enemy + SAFETY_MARGIN else A.YES


def place_attacker(v: View, legal: Sequence[int]) -> int:
    """Strongest ring first; the Star Master only when it is far stronger than the others."""
    figs = [f for _, f in by_block(legal).get("figure", [])]

    def score(f: int) -> float:
        return v.attack(f) - (8.0 if v.kind(f) == MASTER else 0.0)

    return A.FIGURE0 + max(figs, key=lambda f: (score(f), -f))


def duel_opponents(v: View, task: dict[str, Any]) -> list[int]:
    attackers = (task.get("first_attacker"), task.get("second_attacker"))
    return [int(x) for x in attackers if isinstance(x, int) and x >= 0]


def place_defender(v: View, task: dict[str, Any], legal: Sequence[int]) -> int:
    """Face the first attacker with the weakest ring that still beats it, else sacrifice the weakest."""
    figs = [f for _, f in by_block(legal).get("figure", [])]
    attackers = duel_opponents(v, task)
    first_placed = isinstance(task.get("first_defender"), int) and task["first_defender"] >= 0
    target = attackers[1] if first_placed and len(attackers) > 1 else (attackers[0] if attackers else NOBODY)
    threat = v.defence(target) + MEAN_CARD if target >= 0 else 0.0
    winners = [f for f in figs if v.defence(f) > threat]
    if winners:
        return A.FIGURE0 + min(winners, key=lambda f: (v.defence(f), f))
    non_master = [f for f in figs if v.kind(f) != MASTER] or figs
    return A.FIGURE0 + min(non_master, key=lambda f: (v.defence(f), f))


def face_choice(v: View, legal: Sequence[int]) -> int:
    figs = [f for _, f in by_block(legal).get("figure", [])]
    return A.FIGURE0 + min(figs, key=lambda f: (v.defence(f), f))


def commit_choice(v: View, task: dict[str, Any], legal: Sequence[int]) -> int:
    """Commit the smallest cards that lift the total past the expected enemy total; commit nothing
    when even every card falls short (unless the Star Master is at stake)."""
    duel = v.pub.battle.duel if v.pub.battle is not None else None
    if duel is None:
        return A.DONE
    side = int(task["side"])
    me, enemy = duel.figures[side], duel.figures[1 - side]
    private_commit = _own_commit(v, side)
    values = v.values
    mine = v.content.fig_strength[me] + v.ring_range(me) + sum(values[x] for x in duel.drawn[side])
    mine += sum(values[i] * n for i, n in enumerate(private_commit))
    theirs = float(v.content.fig_strength[enemy] + v.ring_range(enemy) + sum(values[x] for x in duel.drawn[1 - side]))
    count = duel.count or (0, 0)
    if side == 0:
        theirs += min(v.portrait_count(enemy), 2) * MEAN_CARD
    else:
        theirs += int(count[0]) * MEAN_CARD
    need = theirs + (1 if side == 0 else 0) - mine  # ties go to the defender
    if need <= 0:
        return A.DONE
    blocks = by_block(legal)
    options = [(values[i], a) for a, i in blocks.get("commit_portrait", [])] + [
        (values[i], a) for a, i in blocks.get("commit_hand", [])
    ]
    available = sum(val for val, _ in options_all(v, me, side, blocks))
    if available < need and v.kind(me) != MASTER:
        return A.DONE
    useful = sorted((val, a) for val, a in options if val > 0)
    if not useful:
        return A.DONE
    fitting = [(val, a) for val, a in useful if val >= need]
    return fitting[0][1] if fitting else useful[-1][1]


def _own_commit(v: View, side: int) -> list[int]:
    """Cards this seat has already committed to the current Duel (by value index)."""
    known = v.commits[side] if side < len(v.commits) else None
    return list(known) if known else [0] * len(v.values)


def options_all(v: View, f: int, side: int, blocks: dict[str, list[tuple[int, int]]]) -> list[tuple[int, int]]:
    """Every card still committable to this Duel (by value)."""
    out: list[tuple[int, int]] = []
    for i, n in enumerate(v.portraits.get(f, [0] * len(v.values))):
        out += [(v.values[i], A.COMMIT_PORTRAIT0 + i)] * n
    if side == 0 and blocks.get("commit_hand"):
        for i, n in enumerate(v.hand):
            out += [(v.values[i], A.COMMIT_HAND0 + i)] * n
    return out


def call_in(v: View, legal: Sequence[int]) -> int:
    """The defender calls in its strongest reachable non-Master fighter."""
    figs = [f for _, f in by_block(legal).get("figure", []) if v.kind(f) != MASTER]
    if not figs:
        return A.DONE
    return A.FIGURE0 + max(figs, key=lambda f: (v.defence(f), -f))


def send_ally_choice(v: View, task: dict[str, Any], legal: Sequence[int]) -> int:
    """Send a non-Master fighter only to a side that is this seat's own (2-player game)."""
    entry = battle_entry(v, int(task["battle"]))
    if entry is None:
        return A.DONE
    blocks = by_block(legal)
    for side, block in ((0, "ally_attacker"), (1, "ally_defender")):
        if not v.friendly((entry.attacker, entry.defender)[side]):
            continue
        figs = [f for _, f in blocks.get(block, []) if v.kind(f) != MASTER]
        if figs:
            best = max(figs, key=lambda f: (v.defence(f), -f))
            return (A.ALLY_ATTACKER0 if side == 0 else A.ALLY_DEFENDER0) + best
    return A.DONE


def fight_order_choice(v: View, legal: Sequence[int]) -> int:
    """Fight first where the edge is largest."""
    gals = [(a, g) for a, g in by_block(legal).get("galaxy", [])]

    def edge(g: int) -> float:
        own, enemy = side_strengths(v, g)
        return own - enemy

    return max(gals, key=lambda t: (edge(t[1]), -t[1]))[0]


def blast_choice(v: View) -> int:
    duel = v.pub.battle.duel if v.pub.battle is not None else None
    figs = duel.figures if duel is not None else ()
    enemy = next((f for f in figs if not v.is_mine(f)), NOBODY)
    if enemy >= 0 and v.pub.ships[enemy] >= 3:
        return A.BLAST_SHIPS
    return A.BLAST_CARD


# -- events, recruiting, votes, trades ---------------------------------------------------------------


def event_choice(v: View, task: dict[str, Any], legal: Sequence[int], rng: random.Random) -> int:
    blocks = by_block(legal)
    figs = blocks.get("figure", [])
    if figs:
        return max(figs, key=lambda t: (bribe_value(v, t[1]) if not v.is_mine(t[1]) else v.defence(t[1]), -t[1]))[0]
    seats = blocks.get("seat", [])
    if seats:
        return max(seats, key=lambda t: (v.seat_material(t[1]), -t[1]))[0]
    gals = blocks.get("galaxy", [])
    if gals:
        homes = [v.content.home_of[c] for c in v.mine]
        return min(gals, key=lambda t: (min(v.distances(t[1]).get(h, 9) for h in homes), t[1]))[0]
    return default_action(legal, rng)


def storm_choice(v: View, legal: Sequence[int]) -> int:
    """Lose loose ships and Diplomats' ships first, the Star Master's last."""
    blocks = by_block(legal)
    gals = blocks.get("galaxy", [])
    if gals:
        return gals[0][0]
    order = {DIPLOMAT: 0, MERCHANT: 1, WARRIOR: 2, MASTER: 3}
    figs = blocks.get("figure", [])
    return min(figs, key=lambda t: (order.get(v.kind(t[1]), 1), -v.pub.ships[t[1]], t[1]))[0]


def dismiss_choice(v: View, legal: Sequence[int]) -> int:
    figs = [f for _, f in by_block(legal).get("figure", [])]
    return A.FIGURE0 + min(figs, key=lambda f: (v.content.fig_strength[f] + v.pub.ships[f], f))


def place_char_choice(v: View, legal: Sequence[int]) -> int:
    """Put a new character where own rings are strongest (safe company)."""
    gals = by_block(legal).get("galaxy", [])

    def company(g: int) -> float:
        return sum(v.defence(f) for f in v.figs_at(g) if v.is_mine(f))

    return max(gals, key=lambda t: (company(t[1]), -t[1]))[0]


def vote_choice(v: View) -> int:
    """Yes when the action hurts the leader or helps this seat, no when it hurts this seat."""
    vote = v.pub.vote
    kind = vote.kind if vote is not None else None
    a = vote.subject if vote is not None else NOBODY
    proposer = v.content.seat_of(v.cur)
    if kind == "defect":
        victims = {v.content.seat_of(v.owner(a))} if a >= 0 else set()
    elif kind in ("place_shadow", "move_shadow") and a >= 0:
        g = v.pub.loc[a]
        victims = {v.content.seat_of(v.owner(x)) for x in v.figs_at(g) if v.owner(x) < BLACK}
    else:
        return A.DONE
    if v.seat in victims:
        return A.DONE
    leader = v.leader()
    if leader in victims:
        return A.YES
    return A.DONE if proposer == leader else A.YES


def offer_value(v: View, offer: Offer) -> float:
    """What accepting ``offer`` is worth to this seat (it is the receiver)."""
    values = v.values
    worth: float = sum(values[i] * n for i, n in enumerate(offer.give))
    worth -= sum(values[i] * n for i, n in enumerate(offer.want))
    for f in offer.characters:
        value = float(v.content.fig_strength[f] + v.pub.ships[f] + 4)
        worth += -value if v.is_mine(f) else value
    for f in offer.release:
        worth += 8 if v.is_mine(f) else -8
    worth += 1 if offer.permission_give else 0
    worth -= 2 if offer.permission_want else 0
    return worth


SPARE_ZEROS = 6
"""Zeros held beyond a Bribery's four before the bot tries to trade two of them away."""


def junk_offer_start(v: View, kind: str, legal: Sequence[int]) -> int | None:
    """The only offer the bot makes, and rarely: during its own building, holding at least six
    worthless 0s, it offers two of them for a 4 to the rival with the largest Attack Hand."""
    if kind != "build" or v.pub.offers or v.hand[0] < SPARE_ZEROS:
        return None
    seats = [a - A.OFFER_TO0 for a in legal if A.OFFER_TO0 <= a < A.OFFER_TO0 + 4]
    rich = [k for k in seats if v.pub.hand_counts[k] >= 3]
    if not rich:
        return None
    return A.OFFER_TO0 + max(rich, key=lambda k: (v.pub.hand_counts[k], -k))


def junk_offer_item(v: View, legal: Sequence[int]) -> int:
    """Build the junk offer item by item: give two 0s, want one 4, send."""
    offer = v.pub.offer
    give, want = (offer.give, offer.want) if offer is not None else ((0,) * 5, (0,) * 5)
    for action in (A.OFFER_GIVE0 if give[0] < 2 else None, A.OFFER_WANT0 + 2 if not want[2] else None, A.OFFER_SEND):
        if action is not None and action in legal:
            return action
    return A.DONE


def answer_offer(v: View, legal: Sequence[int]) -> int:
    """Accept offers worth more than they cost; never trade while a Battle is being fought."""
    offer = v.pub.offer
    if v.pub.battle is not None:
        return A.DONE
    if A.YES in legal and offer and offer_value(v, offer) > 0:
        return A.YES
    return A.DONE


def setup_choice(v: View, legal: Sequence[int]) -> int:
    """Starting ships: one for the Diplomat, then the Warrior, then the Star Master."""
    order = {DIPLOMAT: 0, WARRIOR: 1, MASTER: 2}
    figs = [f for _, f in by_block(legal).get("figure", [])]
    wish = {DIPLOMAT: 1, WARRIOR: 2, MASTER: 6}
    hungry = [f for f in figs if v.pub.ships[f] < wish.get(v.kind(f), 1)]
    pool = hungry or figs
    return A.FIGURE0 + min(pool, key=lambda f: (order.get(v.kind(f), 3), f))


def shift_from_choice(v: View, legal: Sequence[int]) -> int:
    """Before a Battle, move ships from Diplomats and Merchants towards fighting rings."""
    sources = [f for _, f in by_block(legal).get("figure", []) if v.kind(f) in (DIPLOMAT, MERCHANT)]
    if not sources:
        return A.DONE
    return A.FIGURE0 + max(sources, key=lambda f: (v.pub.ships[f], -f))


def shift_to_choice(v: View, legal: Sequence[int]) -> int:
    """The receiving ring: a Warrior first, then the strongest ring."""
    figs = [f for _, f in by_block(legal).get("figure", [])]
    return A.FIGURE0 + max(figs, key=lambda f: (v.kind(f) == WARRIOR, v.content.fig_strength[f], -f))


def weakest_seat_choice(v: View, legal: Sequence[int]) -> int:
    """Hand a character to the seat with the least material (never strengthen the leader)."""
    seats = by_block(legal).get("seat", [])
    return min(seats, key=lambda t: (v.seat_material(t[1]), t[1]))[0]


def give_stone_choice(v: View, legal: Sequence[int]) -> int:
    figs = [f for _, f in by_block(legal).get("figure", [])]
    return A.FIGURE0 + max(figs, key=lambda f: (v.kind(f) == MASTER, v.defence(f), -f))


class ShadowlordHeuristicBot:
    """Expands to Ruins and Space Bases, recruits with Diplomats, builds ships, fights only
    favourable Battles, keeps its Star Master safe and goes for the Lost Fortress when strong."""

    name = "heuristic"

    def __init__(self) -> None:
        self.fallbacks = 0
        """Decisions where the rules raised on an unexpected observation and the default was used."""

    def choose(
        self,
        game: Game[Any],
        seat: int,
        observation: Observation | LordObservation,
        legal_actions: Sequence[int],
        rng: random.Random,
    ) -> int:
        legal = [a for a in legal_actions if not A.OFFER_TO0 <= a < A.OFFER_TO0 + 4] or list(legal_actions)
        try:
            typed = lord_view(observation)
            offer = junk_offer_start(make_view(game, seat, typed), pending_kind(typed), legal_actions)
            action = offer if offer is not None else self._decide(game, seat, typed, legal, rng)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, StateFormatError):
            self.fallbacks += 1
            action = default_action(legal, rng)
        return action if action in legal_actions else default_action(legal, rng)

    def _decide(
        self, game: Game[Any], seat: int, observation: LordObservation, legal: list[int], rng: random.Random
    ) -> int:
        v = make_view(game, seat, observation)
        kind = pending_kind(observation)
        task = pending_data(observation)
        if kind in ("choose_event_target", "build", "move", "move_shadow", "place_portrait_cards"):
            free = bribery(v, legal) or card_placement(v, legal)
            if free is not None:
                return free
            legal = [a for a in legal if not A.PLACE0 <= a < A.BUY0]
        handlers = {
            "place_starting_ship": lambda: setup_choice(v, legal),
            "build": lambda: build_choice(v, legal),
            "move": lambda: movement_choice(v, legal),
            "move_shadow": lambda: shadow_move_choice(v, legal),
            "place_shadow": lambda: place_shadow_choice(v, legal, rng),
            "choose_event_target": lambda: event_choice(v, task, legal, rng),
            "discard_storm_ship": lambda: storm_choice(v, legal),
            "enlist": lambda: A.YES,
            "want": lambda: A.YES,
            "dismiss": lambda: dismiss_choice(v, legal),
            "place_character": lambda: place_char_choice(v, legal),
            "place_traded": lambda: place_char_choice(v, legal),
            "give_dismissed": lambda: weakest_seat_choice(v, legal),
            "shift_from": lambda: shift_from_choice(v, legal),
            "shift_to": lambda: shift_to_choice(v, legal),
            "vote": lambda: vote_choice(v),
            "propose_truce": lambda: truce_question(v, task, legal),
            "answer_truce": lambda: truce_answer(v, task),
            "challenge_loose_ships": lambda: A.YES,
            "call_own_character": lambda: call_in(v, legal),
            "send_ally": lambda: send_ally_choice(v, task, legal),
            "choose_next_battle": lambda: fight_order_choice(v, legal),
            "place_attacker": lambda: place_attacker(v, legal),
            "place_defender": lambda: place_defender(v, task, legal),
            "face": lambda: face_choice(v, legal),
            "commit": lambda: commit_choice(v, task, legal),
            "blast": lambda: blast_choice(v),
            "give_stone": lambda: give_stone_choice(v, legal),
            "teleport": lambda: A.YES,
            "surrender": lambda: A.DONE,
            "place_portrait_cards": lambda: A.DONE,
            "build_offer": lambda: junk_offer_item(v, legal),
            "answer_offer": lambda: answer_offer(v, legal),
        }
        handler = handlers.get(kind)
        if handler is None:
            return default_action(legal, rng)
        return handler()
