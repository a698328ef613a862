"""The coach: for the newcomer's :class:`~shadowtable.core.table.SeatView`, what the decision is
for, the rule that applies quoted with its section, what each choice would do, where to look on
the board, what the newcomer chose last and what the bots did since.

Every text is built from the newcomer's view (its observation, its told events, its own legal
choices), the printed material (``game.words.reference()``, the rules help) and the previews of
the newcomer's own choices: never from the game state, so it says nothing the seat may not know."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shadowtable.core.game import Game, Observation
from shadowtable.core.table import Choice, SeatView
from shadowtable.core.wording import HEADLINE, SeatNames, SeatResult, first_per_reading
from shadowtable.tutorial.lesson import lessons

SINCE_LIMIT = 12
"""At most this many lines of what happened since the newcomer's last decision."""

_CARD = re.compile(r"#(\d+)\b")
_POWER = re.compile(r"\b(?:card|ships) (\d+)\b")
_MOVE = re.compile(r"^move .+ (\w)$")
_YOU_VERB = re.compile(r"\byou( \([^)]*\))? (is|has|was|\w+s)\b")
_IRREGULAR = {"is": "are", "has": "have", "was": "were"}
_RESOLVE = re.compile(r"resolve \d (.+)")
"""A choice to pay for a Section's effect, by its label."""
_AND_VERB = re.compile(r"(\byou(?: \([^)]*\))? \w+\b[^.;:,()]*? and )(is|has|was|\w+s)\b")
"""A second verb of the reader's in one clause: ``you roll 2 and loses 2``."""
_OF_YOU = re.compile(r"\bthe (\w+(?: \w+)?) of you\b")
"""The reader's own thing: ``the Attack Hand of you`` (``of seat 0``) reads ``your Attack Hand``."""


@dataclass(frozen=True)
class ChoiceNote:
    """One legal choice: its action, its words, its group and what it would do."""

    action: int
    text: str
    group: str
    effect: str


@dataclass(frozen=True)
class Coaching:
    """What the coach says at one moment of the tutorial."""

    prompt: str
    purpose: str
    rule_section: str
    rule_quote: str
    look_at: str
    choices: tuple[ChoiceNote, ...]
    you_chose: str
    since: tuple[str, ...]
    forced: tuple[str, ...] = ()
    """Decisions with one choice only, taken at once since the last real one."""
    over: bool = False
    result: str = ""

    def texts(self) -> list[str]:
        """Every text the coach shows (for checks that it tells nothing secret)."""
        notes = [f"{c.text} {c.group} {c.effect}" for c in self.choices]
        head = [self.prompt, self.purpose, self.rule_section, self.rule_quote, self.look_at, self.you_chose]
        return [*head, *notes, *self.since, *self.forced, self.result]


def one_per_text(notes: Sequence[ChoiceNote]) -> tuple[ChoiceNote, ...]:
    """The first of the choices that read the same (the same effect: cards alike but for their id)."""
    return tuple(first_per_reading(notes, lambda note: (note.group, note.text)).values())


def named(text: str, names: Sequence[str], seat: int) -> str:
    """``text`` as the newcomer reads it (:meth:`SeatNames.shown`): each ``seat N`` by that seat's
    name (``you`` for the reader's own), without card ids."""
    people = SeatNames.of(["you" if number == seat else name for number, name in enumerate(names)])
    text = _YOU_VERB.sub(second_person, people.shown(text))
    text = _AND_VERB.sub(lambda match: match.group(1) + plain_verb(match.group(2)), text)
    text = _OF_YOU.sub(r"your \1", text)
    return "You" + text[3:] if text.startswith("you") else text


def second_person(match: re.Match[str]) -> str:
    """``you receives`` as ``you receive`` (``is``: ``are``; ``passes``: ``pass``)."""
    return f"you{match.group(1) or ''} {plain_verb(match.group(2))}"


def plain_verb(verb: str) -> str:
    """A verb of the third person as the second person says it (``receives``: ``receive``)."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("sses", "shes", "ches", "xes")):
        return verb[:-2]
    return verb if verb.endswith("ss") else verb[:-1]


def without_repeats(lines: Sequence[str]) -> list[str]:
    """``lines`` with each line kept once, in order; a line the next one tells again with more
    (``... face up``, then what the reader knew of it: ``... face up: it is Get (Get 1), ...``)
    is left for that one."""
    seen: set[str] = set()
    kept = []
    for line, after in zip(lines, [*lines[1:], ""], strict=True):
        if line not in seen and not after.startswith(line + ": "):
            seen.add(line)
            kept.append(line)
    return kept


ENDINGS = {
    "done": "ends this step; cards and points you did not use stay unused",
    "end movement": "ends your movement; figures you did not move stay where they are",
    "end building": "ends building; Space Ships you have not placed stay unbuilt",
    "end turn": "ends your turn",
    "leave section": "leaves the Section without paying for its effect",
}
"""What each choice that ends a step or a turn does."""


class Coach:
    """Explains each decision of ``seat`` in ``game`` as it comes, and remembers what it said
    about the choices, so it can say what the newcomer's choice meant."""

    def __init__(self, game: Game[Any], seat: int, names: Sequence[str]) -> None:
        self.game = game
        self.seat = seat
        self.names = list(names)
        self.reference = game.words.reference()
        self._said: dict[int, ChoiceNote] = {}
        self._chosen: ChoiceNote | None = None
        self._role = ""
        self.lesson = lessons()[game.spec.id]

    def own_role(self, view: SeatView) -> str:
        """The role of the newcomer's own Objective, where the title gives one."""
        return self.lesson.role_of(self.game, view.observation, self.seat)

    def choice_effect(self, observation: Observation, text: str, rule: str) -> str:
        """What a choice worded ``text`` would do under ``rule``, from the printed material (and,
        for a Message card, the side it helps, from the reader's own Objective in ``observation``)."""
        self._role = self.lesson.role_of(self.game, observation, self.seat)
        return self._effect(text, rule)

    def chose(self, action: int) -> None:
        """The newcomer took ``action`` (one of the choices last explained)."""
        self._chosen = self._said.get(action)

    def explain(
        self, view: SeatView, previews: Mapping[int, dict[str, Any] | None], forced: Sequence[str] = ()
    ) -> Coaching:
        """What the coach says for ``view`` (the newcomer's), with the previews of its choices and
        the one-choice decisions taken at once since its last choice (``forced``)."""
        pending = view.decision
        rule = pending.rule if pending is not None else ""
        section, _, quote = self.game.words.rules_help(view.observation).strip().partition("\n\n")
        note = self.lesson.note_for(rule)
        groups = {c.action: g.label for g in view.groups or () for c in g.choices}
        self._role = self.own_role(view)
        notes = tuple(
            self._choice_note(choice, groups.get(choice.action, ""), rule, previews.get(choice.action))
            for choice in view.choices or ()
        )
        self._said = {n.action: n for n in notes}
        prompt = named(pending.prompt, self.names, self.seat) if pending is not None and view.deciding else ""
        return Coaching(
            prompt=prompt,
            purpose=note.purpose if view.deciding else "",
            rule_section=section.strip(),
            rule_quote=quote.strip(),
            look_at=note.look_at if view.deciding else "",
            choices=one_per_text(notes),
            you_chose=self._you_chose(),
            since=self._since(view),
            forced=tuple(named(line, self.names, self.seat) for line in forced),
        )

    def finish(self, view: SeatView, results: Sequence[SeatResult], forced: Sequence[str] = ()) -> Coaching:
        """The last word once the game is over (``results``: each seat's, as the game words them)."""
        return Coaching(
            prompt="",
            purpose="",
            rule_section="",
            rule_quote="",
            look_at="",
            choices=(),
            you_chose=self._you_chose(),
            since=self._since(view),
            forced=tuple(named(line, self.names, self.seat) for line in forced),
            over=True,
            result=self.result_text(results),
        )

    def result_text(self, results: Sequence[SeatResult]) -> str:
        """You won, drew or lost, and why (the game's words, as every end box shows them)."""
        mine = next((r for r in results if r.seat == self.seat), None)
        if mine is None:
            return "The game is over."
        return f"{HEADLINE[mine.result]}: {named(mine.why, self.names, self.seat)}"

    def log_lines(self, view: SeatView) -> list[str]:
        """Every line of ``view``'s events in names, each line once."""
        return without_repeats([named(line, self.names, self.seat) for line in view.changes.lines])

    def _you_chose(self) -> str:
        chosen = self._chosen
        if chosen is None:
            return ""
        return f"You chose {chosen.text}" + (f": {chosen.effect}." if chosen.effect else ".")

    def _since(self, view: SeatView) -> tuple[str, ...]:
        lines = [named(line, self.names, self.seat) for line in view.changes.lines]
        lines = [line for line in without_repeats(lines) if not line.startswith("You:")]
        if len(lines) > SINCE_LIMIT:
            hidden = len(lines) - SINCE_LIMIT + 1
            lines = [f"({hidden} earlier lines are in the log)", *lines[hidden:]]
        return tuple(lines)

    def _choice_note(self, choice: Choice, group: str, rule: str, preview: dict[str, Any] | None) -> ChoiceNote:
        parts = [self._effect(choice.text, rule)]
        if preview:
            if preview.get("reach"):
                parts.append("with these points: " + ", ".join(map(str, preview["reach"])))
            if preview.get("choices"):
                parts.append("you go on with this decision after it")
        text = named(choice.text, self.names, self.seat)
        label = named(group, self.names, self.seat) if group != choice.text else ""
        return ChoiceNote(choice.action, text, label, "; ".join(p.rstrip(".") for p in parts if p))

    def _effect(self, text: str, rule: str) -> str:
        card = _CARD.search(text)
        if card is not None:
            return self._card_effect(int(card.group(1)), rule)
        power = _POWER.search(text)
        parts = [self._power_card(int(power.group(1))) if power else "", self._named_effect(text)]
        return "; ".join(part for part in parts if part)

    def _power_card(self, value: int) -> str:
        """The printed text of a Power Card of ``value`` (Shadowlord!)."""
        for card in self.reference.get("power_cards") or []:
            if card.get("value") == value:
                return str(card["text"])
        return ""

    def _card_effect(self, card_id: int, rule: str) -> str:
        cards = self.reference.get("cards") or []
        if not 0 <= card_id < len(cards):
            return ""
        card = cards[card_id]
        if rule == "messages" and self.lesson.card_advice is not None:
            return self.lesson.card_advice(self._role, str(card["type"]))
        return str(card.get("text", ""))

    def _section_payment(self, text: str) -> str:
        """What paying for a Section's effect (``resolve 0 Top card``) costs and does (The Shadow Planet)."""
        chosen = _RESOLVE.fullmatch(text)
        if chosen is None:
            return ""
        for section in self.reference.get("sections") or []:
            for payment in section.get("payments") or []:
                if payment.get("label") == chosen.group(1):
                    return f"reveal {payment['cost']} from your hand: {payment['effect']}"
        return ""

    def _named_effect(self, text: str) -> str:
        """What the printed material says of a Character, figure or galaxy the choice names."""
        ending = ENDINGS.get(text.strip())
        if ending is not None:
            return ending
        if text.strip() == "skip event":
            return "the Special Event does nothing this time"
        payment = self._section_payment(text.strip())
        if payment:
            return payment
        for character in self.reference.get("characters") or []:
            if character["name"] in text and "colour" in character:
                return _character_effect(character)
        for figure in self.reference.get("figures") or []:
            if re.search(rf"\b{re.escape(figure['name'])}\b", text):
                said = f"{figure['name']}: a {figure['kind']} of strength {figure['strength']}"
                return "; ".join(part for part in (self._direction(text), said) if part)
        for galaxy in self.reference.get("galaxies") or []:
            if re.search(rf"\b{re.escape(galaxy['name'])}\b", text):
                return f"galaxy {galaxy['name']}: {galaxy['text']}"
        return ""

    def _direction(self, text: str) -> str:
        """Where a move goes, when the choice's notation ends with a direction letter the game's
        reference spells out ("move Red Warrior s": "moves one galaxy south (down the grid)")."""
        move = _MOVE.match(text.strip())
        directions = self.reference.get("directions") or {}
        return f"moves {directions[move.group(1)]}" if move and move.group(1) in directions else ""


def _character_effect(character: Mapping[str, Any]) -> str:
    """What a Character's printed card says: its colour, its ability (or that it has none)."""
    said = character.get("ability") or "no ability"
    if character.get("uncontrolled"):
        said += f"; while nobody controls it, {character['uncontrolled']}"
    colour = f" ({character['colour']})" if character.get("colour") else ""
    return f"{character['name']}{colour}: {said}"
