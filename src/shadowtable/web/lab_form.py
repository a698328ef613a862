"""The lab's "new run" form: what it offers for a game and player count (options with their words
and allowed values, the built-in content, bot levels, probe roles and kinds), and the
specification a submitted form describes (checked afterwards by :func:`shadowtable.lab.spec.check_spec`).

Form fields: ``game``, ``players``, ``games``, ``seed``, ``bot_<seat>``; per variant ``v<i>_on``
(variants after the first), ``v<i>_name``, ``v<i>_opt_<option>``, ``v<i>_edit`` and
``v<i>_content``; per probe ``p<j>_role`` and ``p<j>_kind`` (an empty role: no probe).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from shadowtable.bots.ladder import LADDER
from shadowtable.core.errors import ShadowTableError
from shadowtable.core.registry import available_games, game_class
from shadowtable.core.spec import OptionSpec
from shadowtable.lab.kinds import action_kinds
from shadowtable.lab.spec import MAX_VARIANTS, content_checker, probe_roles
from shadowtable.web.lab_plots import role_words
from shadowtable.web.option_words import option_words

PROBE_ROWS = 3
"""Probe rows the form offers."""
SEED_LIMIT = 2**53
"""A drawn seed is below this (what every JSON reader holds exactly)."""
DEFAULT_GAMES = 200
SERVER_OPTIONS = frozenset({"content"})
"""Options the form never offers as switches (the content is edited as a document)."""


class FormError(ShadowTableError):
    """A form value that is not even of the right shape; ``field`` names it as the spec would."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")


@dataclass(frozen=True)
class OptionField:
    """One option switch: its name, words, allowed values (``(value, words)``) and default."""

    name: str
    label: str
    description: str
    choices: tuple[tuple[str, str], ...]
    default: str
    free: bool
    """A number typed in (no fixed choices)."""


@dataclass(frozen=True)
class GameForm:
    """What the form offers for ``game`` with ``players``."""

    game: str
    name: str
    players: int
    options: tuple[OptionField, ...]
    content: str | None
    """The built-in content, pretty JSON (``None``: the game has no content files)."""
    bots: tuple[tuple[str, str], ...]
    roles: tuple[tuple[str, str], ...]
    """Each role a probe may restrict, and its words (a seat counted from 1, as on the run page)."""
    kinds: tuple[str, ...]


def value_text(value: Any) -> str:
    """An option value as the form shows and sends it."""
    return json.dumps(value) if isinstance(value, bool) or value is None else str(value)


def option_field(game_id: str, option: OptionSpec) -> OptionField:
    """``option`` as a form switch, in the game's words."""
    words = option_words(game_id, option)
    default = option.default
    if isinstance(default, bool):
        choices: tuple[tuple[str, str], ...] = (("true", "yes"), ("false", "no"))
    elif option.choices:
        choices = tuple((str(value), words.choices.get(str(value), str(value))) for value in option.choices)
    else:
        choices = ()
    return OptionField(option.name, words.label, words.description, choices, value_text(default), not choices)


def bot_levels() -> tuple[tuple[str, str], ...]:
    """``(spec, words)`` of the ladder's levels a run may seat (those needing no trained model)."""
    return tuple((level.alias, f"{level.alias}: {level.name}") for level in LADDER.values() if level.alias != "policy")


@cache
def builtin_content(game_id: str) -> str | None:
    """``game_id``'s built-in content document, pretty JSON (``None``: it has no content files)."""
    if content_checker(game_id) is None:
        return None
    module = game_class(game_id).__module__.rsplit(".", 1)[0]
    from importlib import resources

    found = resources.files(module).joinpath("data", "content.json")
    return found.read_text("utf-8") if found.is_file() else None


def game_form(game_id: str, players: int) -> GameForm:
    """The form for ``game_id`` with ``players``; :class:`FormError` for an unknown game or count."""
    if game_id not in available_games():
        raise FormError("game", f"unknown game {game_id[:40]!r}")
    spec = game_class(game_id).SPEC
    if not spec.min_players <= players <= spec.max_players:
        raise FormError("players", f"must be {spec.min_players} to {spec.max_players}")
    options = tuple(option_field(game_id, o) for o in spec.options if o.name not in SERVER_OPTIONS)
    roles = tuple((role, role_words(role)) for role in probe_roles(game_id, players))
    return GameForm(
        game_id,
        spec.name,
        players,
        options,
        builtin_content(game_id),
        bot_levels(),
        roles,
        tuple(action_kinds(game_id)),
    )


def drawn_seed() -> int:
    """A seed drawn from the operating system."""
    return secrets.randbelow(SEED_LIMIT)


def typed_option(option: OptionField, text: str) -> Any:
    """The value a switch sent, typed as the option wants it (a number stays text if it is none:
    the spec's check names the field)."""
    if option.choices and option.choices[0][0] == "true":
        return text == "true"
    if option.free:
        try:
            return int(text)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                return text
    return text


def whole_number(form: Mapping[str, str], name: str) -> Any:
    """A number field as an int (its text if it is none: the spec's check names it)."""
    text = form.get(name, "").strip()
    try:
        return int(text)
    except ValueError:
        return text


def variant_of(form: Mapping[str, str], shown: GameForm, i: int) -> dict[str, Any]:
    """Variant ``i`` of the form: its name, the options that differ from their default, its content."""
    name = form.get(f"v{i}_name", "").strip() or ("baseline" if i == 0 else f"variant {i + 1}")
    options = {}
    for option in shown.options:
        text = form.get(f"v{i}_opt_{option.name}")
        if text is not None and text != option.default:
            options[option.name] = typed_option(option, text)
    content = None
    if form.get(f"v{i}_edit") and shown.content is not None:
        text = form.get(f"v{i}_content", "")
        try:
            content = json.loads(text)
        except ValueError as exc:
            raise FormError(f"variants[{i}].content", f"not JSON: {exc}") from exc
        if content == json.loads(shown.content):
            content = None
    return {"name": name, "options": options, "content": content}


def spec_of(form: Mapping[str, str]) -> dict[str, Any]:
    """The specification a submitted form describes (to be checked whole)."""
    game_id = form.get("game", "")
    players = whole_number(form, "players")
    if not isinstance(players, int):
        raise FormError("players", "must be a whole number")
    shown = game_form(game_id, players)
    variants = [variant_of(form, shown, 0)]
    variants += [variant_of(form, shown, i) for i in range(1, MAX_VARIANTS) if form.get(f"v{i}_on")]
    bots = [form.get(f"bot_{seat}", "") for seat in range(players)]
    probes = [
        {"role": form[f"p{j}_role"], "kind": form.get(f"p{j}_kind", "")}
        for j in range(PROBE_ROWS)
        if form.get(f"p{j}_role")
    ]
    return {
        "game": game_id,
        "players": players,
        "variants": variants,
        "bots": bots,
        "games": whole_number(form, "games"),
        "seed": whole_number(form, "seed"),
        "probes": probes,
    }
