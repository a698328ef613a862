"""Character abilities: automatic ones and those that ask for a choice (RB "Characters")."""

from __future__ import annotations

from typing import Any

from shadowtable.core.events import note
from shadowtable.games.shadow_planet import actions as A
from shadowtable.games.shadow_planet.context import Context
from shadowtable.games.shadow_planet.state import State
from shadowtable.games.shadow_planet.tasks import ApplyAbility, CancelAbility, ChooseMarkerSeat, MoveForFree


def auto_ability(ctx: Context, s: State, ch: int, effect: dict[str, Any]) -> bool:
    """Apply an ability needing no decision; False if it needs one."""
    kind = effect["kind"]
    rule = "ability" if s.controller[ch] >= 0 else "uncontrolled"
    if kind == "aura_search":
        s.auras.append([ch, effect["amount"], int(effect["include_self"])])
        if s.journal is not None:
            name, amount = ctx.content.char_names[ch], effect["amount"]
            whom = "Characters" if effect["include_self"] else "other Characters"
            note(
                s,
                "ability",
                f"{name}'s ability: {whom} in {name}'s Location gain +{amount} Search this round",
                rule=rule,
                character=name,
                effect=kind,
                amount=amount,
            )
    elif kind == "search_bonus":
        before = s.bonus
        s.bonus += effect["amount"]
        if s.journal is not None:
            name = ctx.content.char_names[ch]
            note(
                s,
                "ability",
                f"{name}'s ability: +{effect['amount']} Search this turn (bonus {before} -> {s.bonus})",
                rule=rule,
                character=name,
                effect=kind,
                amount=effect["amount"],
                before=before,
                after=s.bonus,
            )
    elif kind == "take_protagonist":
        if s.controller[ch] >= 0:
            before = s.protagonist
            s.protagonist = s.controller[ch]
            if s.journal is not None:
                name = ctx.content.char_names[ch]
                note(
                    s,
                    "protagonist",
                    f"seat {s.protagonist} takes the Protagonist card from seat {before} ({name}'s ability)"
                    if before != s.protagonist
                    else f"seat {before} keeps the Protagonist card ({name}'s ability)",
                    rule=rule,
                    character=name,
                    effect=kind,
                    before=before,
                    after=s.protagonist,
                )
    else:
        return False
    return True


def can_enter(ctx: Context, s: State, ch: int, section: int) -> bool:
    """A Character may enter a Section unless it is the Robot, or its Marker is there."""
    colour = ctx.content.char_colour[ch]
    return colour >= 0 and not (s.section_markers[section] >> colour) & 1 and s.char_section[ch] != section


def apply_ability(ctx: Context, s: State, task: ApplyAbility) -> None:
    """Resolve the controlled ability's effects in order; stop at the first that needs a choice
    (the rest waits below it)."""
    ch = s.active
    seat = s.controller[ch]
    effects = ctx.content.char_controlled[ch] if ch != s.cancelled else ()
    index = task.index
    if s.journal is not None and ch == s.cancelled and index == 0 and ctx.content.char_controlled[ch]:
        name = ctx.content.char_names[ch]
        note(s, "cancel", f"{name}'s ability is cancelled this round: it does nothing", rule="ability", character=name)
    while index < len(effects):
        effect = effects[index]
        index += 1
        if auto_ability(ctx, s, ch, effect):
            continue
        kind = effect["kind"]
        choice: CancelAbility | ChooseMarkerSeat | MoveForFree | None = None
        if kind == "cancel_ability":
            choice = CancelAbility(seat)
        elif kind in ("give_pool_marker", "give_pool_markers") and any(s.pool):
            choice = ChooseMarkerSeat(seat, effect["count"])
        elif kind == "free_move_to_section":
            section = ctx.section_index(effect["section"])
            # a free move, but along Links: none that only Vehicles may use (the Caves)
            if can_enter(ctx, s, ch, section) and ctx.walk_reach[s.char_loc[ch]][ctx.content.section_location[section]]:
                choice = MoveForFree(seat, section)
        if choice is not None:
            s.stack.append(ApplyAbility(index))
            s.stack.append(choice)
            return


def cancel_options(ctx: Context, s: State, task: CancelAbility) -> list[int]:
    return [A.CANCEL + ch for ch in range(6) if ch != s.active]


def cancel(ctx: Context, s: State, task: CancelAbility, action: int) -> None:
    """Jenna cancels a Character's ability until the end of the round."""
    s.cancelled = action - A.CANCEL
    if s.journal is not None:
        name, target = ctx.content.char_names[s.active], ctx.content.char_names[s.cancelled]
        note(
            s,
            "cancel",
            f"{name}'s ability cancels {target}'s ability until the end of the round",
            rule="ability",
            seat=task.seat,
            character=name,
            cancelled=target,
        )


def free_move_options(ctx: Context, s: State, task: MoveForFree) -> list[int]:
    return [A.USE, A.SKIP]


def free_move_words(name: str, here: str, there: str, section: str) -> str:
    """The log line of Reed's free move: from his Location (or from another through a Link) into
    the Section."""
    if here == there:
        return f"{name} moves into the {section} ({there}) for free (ability)"
    return f"{name} moves {here} -> {there} and into the {section} for free (ability)"


def move_for_free(ctx: Context, s: State, task: MoveForFree, action: int) -> None:
    """Reed moves into the Section for free (or not)."""
    if action == A.USE:
        ch = s.active
        before = s.char_loc[ch]
        s.char_loc[ch] = ctx.content.section_location[task.section]
        s.char_section[ch] = task.section
        if s.journal is not None:
            name, section = ctx.content.char_names[ch], ctx.content.section_names[task.section]
            here, there = ctx.content.location_names[before], ctx.content.location_names[s.char_loc[ch]]
            note(
                s,
                "move",
                free_move_words(name, here, there, section),
                rule="ability",
                character=name,
                by="ability",
                origin=here,
                to=there,
                section=section,
                cost=0,
            )
