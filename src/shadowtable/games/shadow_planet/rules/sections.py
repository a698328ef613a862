"""Sections at the end of the turn: paying an effect by revealing cards, running its effects, the
Marker left behind and the expulsion (RB "Sections")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shadowtable.core.events import note
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.board import hand, tell_all
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.rules.causes import TYPE_NAMES, article, secret
from shadowtable.games.shadow_planet.rules.effects import COLOURS, TYPES
from shadowtable.games.shadow_planet.rules.section_effects import start_effect
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import ApplySectionEffect, ChooseSectionEffect, EndInSection, ShowRevealCard

if TYPE_CHECKING:
    from shadowtable.games.shadow_planet.content import Reveal


def payable(ctx: Context, s: State, section: int) -> list[int]:
    """Indices of the Section's reveals the active hand can pay."""
    counts = [0] * 5
    for card in hand(s, s.active):
        counts[ctx.card_type[card]] += 1
    reveals: tuple[Reveal, ...] = ctx.content.section_reveals[section]
    return [i for i, rv in enumerate(reveals) if all(counts[t] >= need for t, need in enumerate(rv.cost))]


def end_in_section(ctx: Context, s: State, task: EndInSection) -> None:
    """End of turn in a Section: offer the effect if it can be paid, else just expel."""
    section = s.char_section[s.active]
    if section < 0:
        return
    if payable(ctx, s, section):
        s.stack.append(ChooseSectionEffect(s.controller[s.active], section))
    else:
        expel(ctx, s, "its effect is not paid")


def expel(ctx: Context, s: State, why: str) -> None:
    """The Character leaves the Section for its Location."""
    section = s.char_section[s.active]
    s.char_section[s.active] = -1
    if s.journal is not None:
        name, place = ctx.content.char_names[s.active], ctx.content.location_names[s.char_loc[s.active]]
        note(
            s,
            "expel",
            f"{name} is expelled from the {ctx.content.section_names[section]} into {place} ({why})",
            rule="section",
            character=name,
            section=ctx.content.section_names[section],
            to=place,
            cause=why,
        )


def choice_options(ctx: Context, s: State, task: ChooseSectionEffect) -> list[int]:
    return [A.RESOLVE + i for i in payable(ctx, s, task.section)] + [A.LEAVE]


def choose(ctx: Context, s: State, task: ChooseSectionEffect, action: int) -> None:
    """Leave, or start paying a reveal: forced cards are shown at once, the player picks the rest."""
    if action == A.LEAVE:
        expel(ctx, s, f"seat {task.seat} does not pay its effect")
    else:
        _reveal_forced(ctx, s, ShowRevealCard(task.seat, task.section, action - A.RESOLVE, ()))


def reveal_needs(ctx: Context, task: ShowRevealCard) -> list[int]:
    """Cards of each type still to be shown for the chosen reveal."""
    need = list(ctx.content.section_reveals[task.section][task.reveal].cost)
    for card in task.shown:
        need[ctx.card_type[card]] -= 1
    return need


def reveal_choices(ctx: Context, s: State, task: ShowRevealCard) -> list[int]:
    """Hand cards the player may show next (types still needed, not shown yet)."""
    need = reveal_needs(ctx, task)
    return [c for c in hand(s, s.active) if need[ctx.card_type[c]] > 0 and c not in task.shown]


def reveal_options(ctx: Context, s: State, task: ShowRevealCard) -> list[int]:
    return [A.CHOOSE + card for card in reveal_choices(ctx, s, task)]


def reveal(ctx: Context, s: State, task: ShowRevealCard, action: int) -> None:
    """Show the card from hand to everyone (it stays in hand)."""
    card = action - A.CHOOSE
    tell_all(s, card)
    _reveal_forced(ctx, s, ShowRevealCard(task.seat, task.section, task.reveal, (*task.shown, card)))


def _reveal_forced(ctx: Context, s: State, task: ShowRevealCard) -> None:
    """Show every card a type needs when the hand holds exactly that many; ask for the rest, or
    run the effects once the cost is shown."""
    need = reveal_needs(ctx, task)
    shown = list(task.shown)
    for t, count in enumerate(need):
        cards = [c for c in hand(s, s.active) if ctx.card_type[c] == t and c not in shown]
        if count > 0 and len(cards) == count:
            for card in cards:
                shown.append(card)
                tell_all(s, card)
    task = ShowRevealCard(task.seat, task.section, task.reveal, tuple(shown))
    if any(n > 0 for n in reveal_needs(ctx, task)):
        s.stack.append(task)
    else:
        s.stack.append(ApplySectionEffect(task.section, task.reveal, 0))
        if s.journal is not None:
            c = ctx.content
            rv = c.section_reveals[task.section][task.reveal]
            # which card of a type was shown is the payer's choice, and the observation keeps
            # only that the cards are known: the others are told the cost, not the cards
            cost = ", ".join(f"{n} {TYPE_NAMES[t]}" for t, n in enumerate(rv.cost) if n)
            head = f"seat {task.seat} pays the {c.section_names[task.section]} effect ({rv.label}) by revealing {cost}"
            secret(
                s,
                "pay",
                (task.seat,),
                f"{head}: {', '.join(c.short(card) for card in shown)}",
                f"{head} from hand",
                "section",
                {"cards": shown, "names": [c.card_name[card] for card in shown]},
                seat=task.seat,
                character=c.char_names[s.active],
                section=c.section_names[task.section],
                reveal=task.reveal,
                label=rv.label,
                cost={TYPES[t]: n for t, n in enumerate(rv.cost) if n},
            )


def apply_section_effect(ctx: Context, s: State, task: ApplySectionEffect) -> None:
    """Run the paid reveal's effects from number ``index`` (one that asks waits with the rest
    below it); after the last, place the Marker and expel."""
    effects = ctx.content.section_reveals[task.section][task.reveal].effects
    index = task.index
    while index < len(effects):
        effect = effects[index]
        index += 1
        if start_effect(ctx, s, effect, ApplySectionEffect(task.section, task.reveal, index)):
            return
    colour = ctx.content.char_colour[s.active]
    if colour >= 0 and s.pool[colour] > 0 and not (s.section_markers[task.section] >> colour) & 1:
        s.pool[colour] -= 1
        s.section_markers[task.section] |= 1 << colour
        if s.journal is not None:
            name, section = ctx.content.char_names[s.active], ctx.content.section_names[task.section]
            note(
                s,
                "marker",
                f"{article(COLOURS[colour])} {COLOURS[colour]} Marker is placed on the {section}: "
                f"{name} applied its effect ({name} may not enter it again)",
                rule="section",
                colour=COLOURS[colour],
                to="section",
                section=section,
                character=name,
                cause="section",
                pool=s.pool[colour],
            )
    elif s.journal is not None and colour >= 0:
        name, section = ctx.content.char_names[s.active], ctx.content.section_names[task.section]
        why = "the pool has none left" if s.pool[colour] == 0 else "one is there already"
        note(
            s,
            "marker",
            f"no {COLOURS[colour]} Marker is placed on the {section}: {why}",
            rule="section",
            colour=COLOURS[colour],
            to="section",
            section=section,
            character=name,
            cause="section",
            placed=0,
            pool=s.pool[colour],
        )
    expel(ctx, s, "after its effect")
