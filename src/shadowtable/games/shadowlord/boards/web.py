"""Shadowlord!: the galaxy grid as an SVG board, and the seat's panel (hand, portraits, Battle,
vote, offers, outcome), built only from the seat's ``view`` message.

Nothing here reads a game state: the message (``obs``, ``legal``, ``pending``), the printed
reference (``game.words.reference()``, read as :mod:`..printed` tables: names, colours, the Alliances
of each seat, the board's geometry) and the pure decoding of action ids
(:func:`shadowtable.games.shadowlord.actions.decode`) are all it uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shadowtable.core.game import Game
from shadowtable.core.kernel import Pending
from shadowtable.core.table import Decision
from shadowtable.core.views import typed_view
from shadowtable.core.wording import SeatNames, counted
from shadowtable.games.shadowlord.actions import DIRS, NF, decode
from shadowtable.games.shadowlord.game import ShadowlordGame
from shadowtable.games.shadowlord.printed import Printed, printed
from shadowtable.games.shadowlord.render import figure_code, motion_text
from shadowtable.games.shadowlord.view import Counts, Duel, DuelResult, LordObservation
from shadowtable.web.boards import BoardHtml
from shadowtable.web.render import SeatMessage
from shadowtable.web.templating import render

Context = dict[str, Any]
"""A template's context: names to the values the template shows."""

CELL = 120
"""Side of a galaxy square in SVG units."""
TOKEN_W, TOKEN_H = 36, 18
TOKENS_PER_ROW = 3
MAX_TOKENS = 15
CHIP_W, CHIP_H = 34, 14
TIMER_H = 64

KIND_LABEL = {
    "space_base": "Space Base",
    "ruins": "Ruins",
    "home": "Home Planet",
    "lost_fortress": "Lost Fortress",
    "galaxy": "",
}
KIND_CLASS = {
    "space_base": "base",
    "ruins": "ruins",
    "home": "home",
    "lost_fortress": "fort",
    "galaxy": "plain",
}
ARROWS = {"n": "\u2191", "e": "\u2192", "s": "\u2193", "w": "\u2190"}
DIR_WORDS = {"n": "north", "e": "east", "s": "south", "w": "west"}
STATUS_WORDS = ("in the bag", "active", "captive", "out of the game")
BATTLE_KIND_WORDS = {
    "normal": "Battle",
    "loose": "challenge of loose Space Ships",
    "fort": "Battle for the Lost Fortress",
}
BATTLE_STATUS_WORDS = ("due", "called off", "begun or fought")
VOTE_WORDS = {-1: "not voted yet", -2: "voted (secret)", 0: "no", 1: "yes"}
OWN_DECISION_SECTIONS = {"vote": "vote", "answer_offer": "offer", "build_offer": "offer"}
"""Pending kinds whose yes / done actions sit in their own panel section, not the generic box."""
OFFER_BLOCKS = (
    "offer_to",
    "offer_give",
    "offer_want",
    "offer_character",
    "offer_release",
    "offer_ship",
    "offer_permission_give",
    "offer_permission_want",
    "offer_truce",
    "offer_send",
    "revoke_truce",
    "revoke_permission",
)
OFFER_GROUP_LABELS = {
    "offer_to": "start an offer to a player",
    "offer_give": "give Power Cards",
    "offer_want": "ask for Power Cards",
    "offer_character": "trade a character",
    "offer_release": "release a captive",
    "offer_ship": "a Space Ship from a character",
    "offer_permission_give": "permission to pass",
    "offer_permission_want": "permission to pass",
    "offer_truce": "a Truce",
    "offer_send": "send the offer",
    "revoke_truce": "revoke a Truce",
    "revoke_permission": "revoke a permission",
}
BATTLE_BLOCKS = (
    "ally_attacker",
    "ally_defender",
    "truce",
    "commit_portrait",
    "commit_hand",
    "blast_card",
    "blast_ships",
)


def _colour_names(c: Printed) -> list[str]:
    return [*c.colours, "black"]


def _colour_of(c: Printed, colour: int) -> str:
    names = _colour_names(c)
    return names[colour] if 0 <= colour < len(names) else "none"


def _seat_words(c: Printed, seat: int, people: SeatNames) -> str:
    """``Brook (Blue)`` or ``Ada (Red and Yellow)``: the seat's name and Alliances."""
    colours = _alliances_words(c, seat)
    return f"{people(seat)} ({colours})" if colours else people(seat)


def _alliances_words(c: Printed, seat: int) -> str:
    """``Red`` or ``Red and Yellow``: the Alliances a seat leads."""
    return " and ".join(c.colours[a].capitalize() for a in c.alliances_of(seat))


def _act(action: int, words: str) -> Context:
    return {"id": action, "words": words}


def _goal(c: Printed, reference: Context, seat: int | None) -> str:
    if seat is None:
        return ""
    colours = [c.colours[a].capitalize() for a in c.alliances_of(seat)]
    who = " and ".join(colours)
    plural = "Alliances" if len(colours) > 1 else "Alliance"
    text = str(reference.get("goal", ""))
    surrender = "surrender" in text
    return (
        f"You lead the {who} {plural}: defeat the Shadowlord and every other Star Master to become "
        "Master of the Universe"
        + (
            ", or hold the Power Stone (once taken from the Shadowlord) until the others surrender to you"
            if surrender
            else ""
        )
        + ". If the Power Stone Timer reaches the Starburst first, the Shadowlord wins and every player loses."
    )


def render_board(game: Game[Any], message: dict[str, Any]) -> BoardHtml:
    """The board and panel of Shadowlord! for the seat that receives ``message``."""
    if not isinstance(game, ShadowlordGame):
        raise TypeError("render_board needs a Shadowlord! game")
    material = printed(game)
    reference = game.words.reference()
    seen = SeatMessage.from_json(message)
    obs = typed_view(game, seen.obs)
    if not isinstance(obs, LordObservation):
        raise TypeError("render_board needs a Shadowlord! observation")
    people = seen.people
    legal = {action: people.shown(words) for action, words in seen.legal.items()}
    model = _Model(material, reference, obs, legal, seen.decision or obs.pending, people)
    board = render("shadowtable.games.shadowlord.boards:board.html", **model.board())
    panel = render(
        "shadowtable.games.shadowlord.boards:panel.html", **model.panel(), results=message.get("results") or []
    )
    return BoardHtml(board=board, panel=panel, goal=_goal(material, reference, obs.seat))


class _Model:
    """The template context, built once from one message."""

    def __init__(
        self,
        material: Printed,
        reference: Context,
        obs: LordObservation,
        legal: dict[int, str],
        pending: Decision | Pending,
        people: SeatNames,
    ) -> None:
        self.c = material
        self.people = people
        self.ref = reference
        self.obs = obs
        self.pub = obs.public
        self.priv = obs.private
        self.seat = obs.seat
        self.legal = legal
        self.pending = pending
        self.kind = pending.kind
        self.names = self.c.fig_name
        self.values = self.c.card_values
        self.nf = len(self.pub.owner)
        # the legal actions sorted by where they go
        self.by_block: dict[str, list[tuple[int, int, str]]] = {}
        for action, words in sorted(legal.items()):
            try:
                block, i = decode(action)
            except ValueError:
                continue
            self.by_block.setdefault(block, []).append((action, i, words))
        self.placed: set[int] = set()
        """Action ids given a place on the board or in the panel (the rest stay in the list)."""

    # -- helpers -------------------------------------------------------------------------------

    def acts(self, block: str) -> list[tuple[int, int, str]]:
        return self.by_block.get(block, [])

    def place(self, action: int, words: str) -> Context:
        self.placed.add(action)
        return _act(action, words)

    def fig_words(self, f: int) -> str:
        """A figure in words: name, colour, kind and strength, Space Ships, the Power Stone."""
        p = self.pub
        owner = p.owner[f]
        info = self.ref["figures"][f] if f < len(self.ref["figures"]) else {}
        kind = info.get("kind", "")
        parts = [f"{self.names[f]}"]
        if 0 <= owner < 5 and not self.names[f].lower().startswith(_colour_of(self.c, owner)):
            parts.append(f"({_colour_of(self.c, owner)} {kind})" if kind else f"({_colour_of(self.c, owner)})")
        parts.append(f"strength {info.get('strength', '?')}, {counted(p.ships[f], 'Space Ship')}")
        if p.stone == f:
            parts.append("holding the Power Stone")
        return " ".join(parts)

    def card(self, v: int) -> Context:
        ref = self.ref["power_cards"][v] if v < len(self.ref["power_cards"]) else {}
        return {"value": self.values[v], "index": v, "text": ref.get("text", f"Power Card {self.values[v]}")}

    def my_colours(self) -> list[int]:
        if self.seat is None:
            return []
        return list(self.c.alliances_of(self.seat))

    # -- the SVG board -------------------------------------------------------------------------

    def board(self) -> Context:
        c = self.c
        moves, reach = self._moves()
        captives_of = self._captives_of()
        cells: list[Context] = []
        desc: list[str] = []
        for g in range(c.num_galaxies):
            cell, words = self._cell(g, g in reach, captives_of)
            cells.append(cell)
            if words:
                desc.append(f"{cell['words']}: {'; '.join(words)}.")
        chips = self._move_chips(moves)
        timer = self._timer()
        desc.append(timer["words"])
        desc.append(self._stone_words())
        legend = [
            {"colour": name, "letter": figure_code(self.c, 0, k, 0, False)[0], "label": name.capitalize()}
            for k, name in enumerate(_colour_names(self.c))
        ]
        return {
            "width": c.cols * CELL,
            "height": c.rows * CELL + TIMER_H,
            "cells": cells,
            "chips": chips,
            "timer": timer,
            "title": "Shadowlord! galaxy map, 5 by 5 galaxies (a1 to e5), Lost Fortress in "
            + c.galaxy_name(c.fortress),
            "desc": " ".join(desc),
            "legend": legend,
            "size": CELL,
        }

    def _moves(self) -> tuple[dict[int, list[tuple[int, int, int]]], set[int]]:
        """The legal moves by the galaxy they leave (figure, direction, action), and the
        galaxies they reach."""
        c, p = self.c, self.pub
        moves: dict[int, list[tuple[int, int, int]]] = {}
        reach: set[int] = set()
        for a, i, _w in self.acts("move"):
            f, d = divmod(i, 4)
            src = p.loc[f]
            if not 0 <= src < c.num_galaxies:
                continue
            dest = c.steps[src][d]
            if dest < 0:
                continue
            moves.setdefault(src, []).append((f, d, a))
            reach.add(dest)
        return moves, reach

    def _captives_of(self) -> dict[int, int]:
        """How many captives each figure holds (only those that hold any)."""
        p = self.pub
        captives_of: dict[int, int] = {}
        for f in range(self.nf):
            if p.status[f] == 2 and p.captor[f] >= 0:
                captives_of[p.captor[f]] = captives_of.get(p.captor[f], 0) + 1
        return captives_of

    def _cell(self, g: int, reach: bool, captives_of: dict[int, int]) -> tuple[Context, list[str]]:
        """A galaxy square with its figures, loose Space Ships, disc and Truce, and what is
        there in words."""
        c, p = self.c, self.pub
        r, col = divmod(g, c.cols)
        x, y = col * CELL, r * CELL
        kind = c.cell_kind[g]
        name = c.galaxy_name(g)
        home = c.home_of.index(g) if g in c.homes else -1
        label = f"Home {c.colours[home].capitalize()}" if home >= 0 else KIND_LABEL.get(kind, "")
        tokens, words = self._tokens(g, x, y, captives_of)
        loose = None
        if p.loose_count[g] > 0:
            lc = _colour_of(self.c, p.loose_colour[g])
            loose = {"n": p.loose_count[g], "colour": lc, "letter": lc[:1].upper()}
            words.append(counted(p.loose_count[g], f"loose {lc} Space Ship"))
        disc = bool(p.disc[g])
        if disc:
            words.append("a face-down disc (?)")
        truce = bool(p.truce >> g & 1)
        if truce:
            words.append("a Truce holds here")
        if reach:
            words.append("a move can reach it")
        gact = {i: (a, w) for a, i, w in self.acts("galaxy")}.get(g)
        cell = {
            "g": g, "x": x, "y": y, "name": name, "label": label, "kind": KIND_CLASS.get(kind, "plain"),
            "home_colour": c.colours[home] if home >= 0 else "", "tokens": tokens, "loose": loose,
            "disc": disc, "truce": truce, "reach": reach,
            "act": self.place(gact[0], gact[1]) if gact else None,
            "words": f"{name}{' ' + label if label else ''}",
        }  # fmt: skip
        return cell, words

    def _tokens(self, g: int, x: int, y: int, captives_of: dict[int, int]) -> tuple[list[Context], list[str]]:
        """The tokens of the active figures in galaxy ``g`` (the last one ``+n`` when too many
        fit), and each figure in words."""
        p = self.pub
        fig_acts = {i: (a, w) for a, i, w in self.acts("figure")}
        figs = [f for f in range(self.nf) if p.loc[f] == g and p.status[f] == 1]
        tokens: list[Context] = []
        words: list[str] = []
        for k, f in enumerate(figs):
            fw = self.fig_words(f)
            if captives_of.get(f):
                fw += f", holding {counted(captives_of[f], 'captive')}"
            words.append(fw)
            if k >= MAX_TOKENS - 1 and len(figs) > MAX_TOKENS:
                if k == MAX_TOKENS - 1:
                    tokens.append(self._token_more(x, y, k, len(figs) - k))
                continue
            act = fig_acts.get(f)
            tokens.append({
                "x": x + 4 + (k % TOKENS_PER_ROW) * (TOKEN_W + 2),
                "y": y + 20 + (k // TOKENS_PER_ROW) * (TOKEN_H + 2),
                "w": TOKEN_W, "h": TOKEN_H,
                "code": figure_code(self.c, f, p.owner[f], p.ships[f], p.stone == f),
                "colour": _colour_of(self.c, p.owner[f]), "words": fw, "stone": p.stone == f,
                "captives": captives_of.get(f, 0),
                "act": self.place(act[0], act[1]) if act else None,
            })  # fmt: skip
        return tokens, words

    def _stone_words(self) -> str:
        stone = self.pub.stone
        if 0 <= stone < self.nf:
            return f"The Power Stone is held by {self.names[stone]}."
        return "The Power Stone is off the board."

    def _token_more(self, x: int, y: int, k: int, n: int) -> Context:
        return {
            "x": x + 4 + (k % TOKENS_PER_ROW) * (TOKEN_W + 2),
            "y": y + 20 + (k // TOKENS_PER_ROW) * (TOKEN_H + 2),
            "w": TOKEN_W,
            "h": TOKEN_H,
            "code": f"+{n}",
            "colour": "more",
            "words": f"{n} more figures",
            "stone": False,
            "captives": 0,
            "act": None,
        }

    def _move_chips(self, moves: dict[int, list[tuple[int, int, int]]]) -> list[Context]:
        """A clickable arrow chip on the edge a figure crosses, one per legal move."""
        chips: list[Context] = []
        p = self.pub
        for src in sorted(moves):
            r, col = divmod(src, self.c.cols)
            x, y = col * CELL, r * CELL
            count = {d: 0 for d in range(4)}
            for f, d, a in moves[src]:
                k = count[d]
                count[d] += 1
                direction = DIRS[d]
                if direction == "n":
                    cx, cy = x + 4 + k * (CHIP_W + 2), y - CHIP_H // 2
                elif direction == "s":
                    cx, cy = x + CELL - 4 - CHIP_W - k * (CHIP_W + 2), y + CELL - CHIP_H // 2
                elif direction == "e":
                    cx, cy = x + CELL - CHIP_W // 2, y + 30 + k * (CHIP_H + 2)
                else:
                    cx, cy = x - CHIP_W // 2, y + CELL - 4 - CHIP_H - k * (CHIP_H + 2)
                dest = self.c.steps[src][d]
                code = figure_code(self.c, f, p.owner[f], p.ships[f], p.stone == f).split(":")[0]
                act = self.place(a, self.legal[a])
                act["words"] = f"{self.legal[a]} (to {self.c.galaxy_name(dest)})"
                chips.append(
                    {
                        "x": cx,
                        "y": cy,
                        "w": CHIP_W,
                        "h": CHIP_H,
                        "text": f"{code}{ARROWS[direction]}",
                        "colour": _colour_of(self.c, p.owner[f]),
                        "act": act,
                        "dir": DIR_WORDS[direction],
                    }
                )
        return chips

    def _timer(self) -> Context:
        t = self.pub.timer
        notches = self.c.timer_notches
        y = self.c.rows * CELL + 8
        width = self.c.cols * CELL
        slot = width // (notches + 2)
        boxes = []
        for n in range(notches, -1, -1):
            i = notches - n
            boxes.append(
                {
                    "x": 4 + i * slot,
                    "y": y + 14,
                    "w": slot - 6,
                    "h": 30,
                    "label": "Starburst" if n == 0 else str(n),
                    "here": t == n,
                    "burst": n == 0,
                }
            )
        if t < 0:
            words = "The Power Stone Timer has been removed from the game."
        elif t == 0:
            words = "The Power Stone Timer stands on the Starburst."
        else:
            words = f"The Power Stone Timer stands {t} notch(es) from the Starburst."
        return {"y": y, "boxes": boxes, "words": words, "removed": t < 0, "width": width}

    # -- the panel -----------------------------------------------------------------------------

    def panel(self) -> Context:
        hand = self._hand()
        portraits = self._portraits()
        battle = self._battle()
        vote = self._vote()
        offer = self._offer()
        status = self._status()
        decision = self._decision()
        choices = self._choices()
        return {
            "status": status,
            "hand": hand,
            "portraits": portraits,
            "others": self._others(),
            "captives": self._captives(),
            "battle": battle,
            "last_duel": self._duel_result(self.pub.last_duel),
            "vote": vote,
            "last_vote": self._last_vote(),
            "offer": offer,
            "decision": decision,
            "choices": choices,
            "outcome": None if self.obs.outcome is None else self.people.shown(self.obs.outcome),
            "spectator": self.seat is None,
        }

    def _status(self) -> Context:
        p = self.pub
        cur = p.current_colour
        seat_cur = self.c.seat_of(cur) if 0 <= cur < 4 else -1
        decider = self.pending.seat
        if decider is None:
            who = "nobody (the game is over)"
        elif decider < 0:
            who = "chance (a draw or a roll)"
        else:
            who = "you" if decider == self.seat else _seat_words(self.c, decider, self.people)
        stone = p.stone
        return {
            "turn": p.turn + 1,
            "colour": _colour_of(self.c, cur).capitalize() if 0 <= cur < 4 else "-",
            "seat": _seat_words(self.c, seat_cur, self.people) if seat_cur >= 0 else "-",
            "player": self.people(seat_cur) if seat_cur >= 0 else "-",
            "yours": seat_cur >= 0 and seat_cur == self.seat,
            "setting_up": not 0 <= cur < 4,
            "decider": who,
            "prompt": self.people.shown(self.pending.prompt),
            "timer": self._timer()["words"],
            "deck": p.deck_count,
            "discard": p.discard_count,
            "stone": self.names[stone] if 0 <= stone < self.nf else "not on the board",
            "me": _seat_words(self.c, self.seat, self.people) if self.seat is not None else "spectator",
            "my_alliances": _alliances_words(self.c, self.seat) if self.seat is not None else "",
        }

    def _hand(self) -> Context | None:
        hand = self.priv.hand
        if self.seat is None or hand is None:
            return None
        per_value: dict[int, list[Context]] = {}
        for block in ("commit_hand", "buy", "offer_give"):
            for a, v, w in self.acts(block):
                per_value.setdefault(v, []).append(self.place(a, w))
        cards = []
        for v, n in enumerate(hand):
            for k in range(n):
                card = self.card(v)
                card["acts"] = per_value.get(v, []) if k == 0 else []
                cards.append(card)
        return {"cards": cards, "count": sum(hand)}

    def _portraits(self) -> list[Context]:
        if self.seat is None:
            return []
        p = self.pub
        mine = set(self.my_colours())
        cards = self.priv.portraits
        places: dict[int, list[Context]] = {}
        for a, i, w in self.acts("place"):
            v, f = divmod(i, NF)
            places.setdefault(f, []).append(self.place(a, w))
        for block in ("drop", "pick", "search", "stone"):
            for a, f, w in self.acts(block):
                places.setdefault(f, []).append(self.place(a, w))
        bribes: dict[int, list[Context]] = {}
        for a, i, w in self.acts("bribe"):
            v, f = divmod(i, NF)
            bribes.setdefault(f, []).append(self.place(a, w))
        out = []
        for f in range(self.nf):
            if p.owner[f] not in mine or p.status[f] not in (1, 2):
                continue
            counts = cards.get(str(f)) or [0] * len(self.values)
            under = [self.card(v) for v, n in enumerate(counts) for _ in range(n)]
            where = self.c.galaxy_name(p.loc[f]) if p.status[f] == 1 and p.loc[f] >= 0 else "captive"
            out.append(
                {
                    "fig": f,
                    "name": self.names[f],
                    "colour": _colour_of(self.c, p.owner[f]),
                    "where": where,
                    "ships": p.ships[f],
                    "cards": under,
                    "count": p.portrait_counts[f],
                    "acts": places.get(f, []),
                    "bribe": False,
                }
            )
        # bribes target other Alliances' characters: listed with the figure named
        for f, acts in sorted(bribes.items()):
            out.append(
                {
                    "fig": f,
                    "name": f"bribe {self.names[f]}",
                    "colour": _colour_of(self.c, p.owner[f]),
                    "where": self.c.galaxy_name(p.loc[f]) if p.loc[f] >= 0 else "-",
                    "ships": p.ships[f],
                    "cards": [],
                    "count": 0,
                    "acts": acts,
                    "bribe": True,
                }
            )
        return out

    def _others(self) -> list[Context]:
        p = self.pub
        out = []
        for k in range(self.c.players):
            if k == self.seat:
                continue
            colours = list(self.c.alliances_of(k))
            portrait = sum(p.portrait_counts[f] for f in range(self.nf) if p.owner[f] in colours)
            out.append(
                {
                    "seat": _seat_words(self.c, k, self.people),
                    "hand": p.hand_counts[k],
                    "portraits": portrait,
                    "out": bool(p.seat_out[k]) if k < len(p.seat_out) else False,
                }
            )
        return out

    def _captives(self) -> list[str]:
        p = self.pub
        return [
            f"{self.names[f]} ({_colour_of(self.c, p.owner[f])}), held by {self.names[p.captor[f]]}"
            for f in range(self.nf)
            if p.status[f] == 2 and 0 <= p.captor[f] < self.nf
        ]

    def _duel_result(self, last: DuelResult | None) -> Context | None:
        """A resolved Duel with its arithmetic: strength + Space Ships + cards = total."""
        if not last:
            return None
        sides = []
        for side in (0, 1):
            f = last.figures[side]
            strength = self.c.fig_strength[f]
            cards = [self.values[v] for v in last.cards[side]]
            total = last.totals[side]
            ships = total - strength - sum(cards)
            card_words = " + ".join(str(v) for v in cards) if cards else "no cards"
            sides.append(
                {
                    "role": "attacker" if side == 0 else "defender",
                    "name": self.names[f],
                    "words": f"{self.names[f]}: strength {strength} + {counted(ships, 'Space Ship')} and Stone "
                    f"+ Power Cards {card_words} (= {sum(cards)}) = {total}",
                    "total": total,
                }
            )
        winner = self.names[last.winner]
        return {"sides": sides, "winner": winner, "margin": abs(last.totals[0] - last.totals[1])}

    def _battle(self) -> Context | None:
        b = self.pub.battle
        acts: dict[str, list[Context]] = {}
        for block in BATTLE_BLOCKS:
            for a, _i, w in self.acts(block):
                if block == "commit_hand":
                    continue  # on the hand's cards
                acts.setdefault(_battle_label(block), []).append(self.place(a, w))
        if b is None and not acts:
            return None
        plan = []
        for g, att, dfd, kind, state in b.plan if b else ():
            plan.append(
                f"{self.c.galaxy_name(g)}: {_colour_of(self.c, att).capitalize()} attacks "
                f"{_colour_of(self.c, dfd).capitalize()} ({BATTLE_KIND_WORDS.get(kind, kind)}, "
                f"{BATTLE_STATUS_WORDS[state] if 0 <= state < 3 else state})"
            )
        allies = []
        for idx, pair in enumerate(b.allies if b else ()):
            for side, figs in enumerate(pair):
                for f in figs:
                    allies.append(
                        f"{self.names[f]} joins the {'attacker' if side == 0 else 'defender'} (Battle {idx + 1})"
                    )
        duel = None
        if b and b.duel:
            duel = self._duel_view(b.duel, self.priv.commit or (None, None))
        ready_commit = self.priv.ready_commit
        ready = [
            self._duel_view(d, ready_commit[k] if k < len(ready_commit) else (None, None))
            for k, d in enumerate(b.ready if b else ())
        ]
        return {
            "plan": plan,
            "allies": allies,
            "duel": duel,
            "ready": ready,
            "acts": [{"label": k, "acts": v} for k, v in acts.items()],
        }

    def _duel_view(self, duel: Duel, mine: Sequence[Counts | None]) -> Context:
        sides = []
        for side in (0, 1):
            f = duel.figures[side]
            drawn = [self.values[v] for v in duel.drawn[side]]
            own = mine[side] if side < len(mine) else None
            own_cards = [self.card(v) for v, n in enumerate(own) for _ in range(n)] if own else []
            strength = self.c.fig_strength[f]
            ships = self.pub.ships[f] + (1 if self.pub.stone == f else 0)
            known = strength + ships + sum(drawn) + sum(cd["value"] for cd in own_cards)
            hidden = duel.count[side] - (len(own_cards) if own is not None else 0)
            words = (
                f"{self.names[f]}: strength {strength} + {counted(ships, 'Space Ship')}/Stone"
                + (f" + drawn {' + '.join(map(str, drawn))}" if drawn else "")
                + (f" + your committed {' + '.join(str(cd['value']) for cd in own_cards)}" if own_cards else "")
                + f" = {known}"
                + (f", plus {counted(hidden, 'face-down card')}" if hidden > 0 else "")
            )
            sides.append(
                {
                    "role": "attacker" if side == 0 else "defender",
                    "name": self.names[f],
                    "words": words,
                    "own": own_cards,
                    "count": duel.count[side],
                }
            )
        return {"sides": sides}

    def _vote(self) -> Context | None:
        vote = self.pub.vote
        if not vote:
            return None
        motion = self.people.shown(
            motion_text(self.c, self.pub.current_colour, self.pub.loc, vote.kind, vote.subject, vote.origin)
        )
        cast = [
            {"seat": _seat_words(self.c, k, self.people), "vote": VOTE_WORDS.get(v, str(v)), "me": k == self.seat}
            for k, v in enumerate(vote.votes)
            if k in vote.voters
        ]
        acts = []
        if self.kind == "vote":
            for block in ("yes", "done"):
                for a, _i, w in self.acts(block):
                    acts.append(self.place(a, w) | {"kind": block})
        return {
            "motion": motion,
            "voters": ", ".join(_seat_words(self.c, k, self.people) for k in vote.voters),
            "cast": cast,
            "acts": acts,
        }

    def _last_vote(self) -> Context | None:
        """The last closed vote: its motion, its result and the reader's own vote (the message
        holds no other seat's)."""
        vote = self.pub.last_vote
        if not vote:
            return None
        loc = [-1] * (vote.subject + 1)
        loc[vote.subject] = vote.subject_location
        mine = vote.votes[self.seat] if self.seat is not None and self.seat < len(vote.votes) else -1
        return {
            "motion": self.people.shown(motion_text(self.c, vote.caller, loc, vote.kind, vote.subject, vote.origin)),
            "result": "passed" if vote.passed else "failed",
            "mine": VOTE_WORDS[mine] if mine in (0, 1) else "",
        }

    def _offer(self) -> Context | None:
        o = self.pub.offer
        groups: dict[str, list[Context]] = {}
        for block in OFFER_BLOCKS:
            for a, _i, w in self.acts(block):
                groups.setdefault(OFFER_GROUP_LABELS[block], []).append(self.place(a, w))
        reply: list[Context] = []
        if self.kind in ("answer_offer", "build_offer"):
            for block in ("yes", "done"):
                for a, _i, w in self.acts(block):
                    reply.append(self.place(a, w) | {"kind": block})
        if o is None and not groups and not reply:
            return None
        terms = None
        if o is not None:
            vals = self.values
            names = self.names
            terms = {
                "from": _seat_words(self.c, o.sender, self.people),
                "to": _seat_words(self.c, o.receiver, self.people),
                "give": [vals[v] for v, n in enumerate(o.give) for _ in range(n)],
                "want": [vals[v] for v, n in enumerate(o.want) for _ in range(n)],
                "chars": [names[f] for f in o.characters],
                "release": [names[f] for f in o.release],
                "ships": [names[f] for f in o.ships],
                "perm_give": bool(o.permission_give),
                "perm_want": bool(o.permission_want),
                "truce": [self.c.galaxy_name(g) for g in o.truce],
                "items": o.items,
                "to_me": o.receiver == self.seat,
                "from_me": o.sender == self.seat,
            }
        return {
            "terms": terms,
            "reply": reply,
            "groups": [{"label": k, "acts": v} for k, v in groups.items()],
        }

    def _decision(self) -> Context | None:
        """The yes / done of any other decision (accept a Truce, enlist, end movement ...)."""
        if not self.legal or OWN_DECISION_SECTIONS.get(self.kind):
            return None
        acts = [self.place(a, w) | {"kind": block} for block in ("yes", "done") for a, _i, w in self.acts(block)]
        if not acts:
            return None
        return {"prompt": self.pending.prompt, "acts": acts}

    def _choices(self) -> list[Context]:
        """Figures not on the board (captives, portraits) and seats the decision may name."""
        out = []
        for a, _f, w in self.acts("figure"):
            if a not in self.placed:
                out.append(self.place(a, w))
        for a, _k, w in self.acts("seat"):
            out.append(self.place(a, w))
        return out


def _battle_label(block: str) -> str:
    return {
        "ally_attacker": "send an ally to the attacker",
        "ally_defender": "send an ally to the defender",
        "truce": "propose a Truce",
        "commit_portrait": "commit a card from the portrait",
        "blast_card": "Power Blast",
        "blast_ships": "Power Blast",
    }.get(block, block)
