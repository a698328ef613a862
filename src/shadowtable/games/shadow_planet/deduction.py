"""What a seat of The Shadow Planet could deduce about the others' Objectives.

Model (docs/deduction.md): Bayes over the hidden Objective deal.

* Prior: uniform over the full deals consistent with the seat's current observation (its own
  Objective, any revealed ones, the count removed; the Alien is never removed).  Each way of
  giving the hidden seats their Objectives is weighted by the number of ways the leftover
  Objectives can be the removed (and still undealt) ones.  With no action evidence this is
  exact logical deduction.
* Likelihood: each action another seat decided that this seat saw (:data:`PUBLIC_KINDS`:
  cards played face up, moves, Markers given, Section effects...) is scored under the
  heuristic bot's policy softened by ``epsilon``: probability ``1 - epsilon`` for the
  heuristic's choice and ``epsilon`` spread evenly over the other legal actions.  The policy
  reads the actor's cards, which this seat does not know, so the likelihood is averaged over
  ``samples`` determinizations of this seat's observation at that step (the same draws for
  every role: only the actor's role changes), a Monte Carlo estimate of the likelihood
  marginalised over the actor's hidden cards.  An action not legal in any draw tells nothing
  and is skipped; secret actions (face-down picks and discards) are skipped too, which can
  only lose information.  The heuristic's play depends on the Objective's role only, so
  the likelihood is one number per (seat, role).

Only the seat's observations and the actions it saw are read, never a true state.  Which
Character each seat controls in the face-down draft is not modelled.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import permutations
from typing import Any

from shadowtable.core.deduction import SeenStep
from shadowtable.core.game import Game, Observation
from shadowtable.games.shadow_planet import state as M
from shadowtable.games.shadow_planet.heuristic import ShadowPlanetHeuristicBot
from shadowtable.games.shadow_planet.printed import printed

OBJECTIVES = 5
ALIEN_OBJECTIVE = 0
DEFAULT_EPSILON = 0.5
DEFAULT_SAMPLES = 4
MAX_SAMPLES = 32
"""The most determinizations one step may cost (bounded work per request)."""

PUBLIC_KINDS = frozenset(
    {
        "play_move_cards",
        "play_search_cards",
        "play_get_cards",
        "play_repair_cards",
        "play_attack_cards",
        "spend_move_points",
        "move_for_free",
        "ask_rider",
        "drive_elsewhere",
        "cancel_ability",
        "choose_marker_seat",
        "choose_marker_colour",
        "choose_section_marker_seat",
        "choose_section_marker_colour",
        "choose_section_effect",
        "adjust_countdown",
        "choose_deck",
    }
)
"""Decisions whose choice every seat sees (cards face up, moves, Markers, effects)."""


def consistent_deals(observation: Observation) -> list[tuple[dict[int, int], int]]:
    """Every way to give the seats whose Objective is hidden an Objective, with the number of
    full deals (removed and undealt Objectives) behind it: ``(seat -> Objective, weight)``."""
    public = observation["public"]
    shown = public["objectives"]
    removed = int(public["removed_objectives"])
    hidden = [seat for seat, o in enumerate(shown) if o is None]
    undealt = sum(1 for o in shown if o == -1)
    pool = [o for o in range(OBJECTIVES) if o not in shown]
    deals: list[tuple[dict[int, int], int]] = []
    for chosen in permutations(pool, len(hidden)):
        left = [o for o in pool if o not in chosen]
        if len(left) != removed + undealt:
            continue
        weight = math.comb(len(left) - (ALIEN_OBJECTIVE in left), removed)
        if weight:
            deals.append((dict(zip(hidden, chosen, strict=True)), weight))
    return deals


def step_likelihoods(
    game: Game[Any], step: SeenStep, roles: Sequence[str], epsilon: float, samples: int, rng: random.Random
) -> dict[str, float] | None:
    """Per role, the estimated probability that ``step.actor`` chose ``step.action`` (None: no evidence)."""
    assert step.action is not None
    material = printed(game)
    objective_of = {role: material.objective_role.index(role) for role in roles}
    bot = ShadowPlanetHeuristicBot()
    totals = dict.fromkeys(roles, 0.0)
    seen = False
    for _ in range(samples):
        draw = game.determinize(step.observation, random.Random(rng.getrandbits(64)))
        if game.current_player(draw) != step.actor:
            continue
        legal = game.legal_actions(draw)
        if step.action not in legal:
            continue
        seen = True
        _show_own_cards(draw, step.actor)
        for role in roles:
            draw.objectives[step.actor] = objective_of[role]
            view = game.observe(draw, step.actor)
            choice = bot.choose(game, step.actor, view, legal, random.Random(0))
            totals[role] += soft_policy(choice == step.action, len(legal), epsilon)
    if not seen:
        return None
    return {role: total / samples for role, total in totals.items()}


def soft_policy(is_choice: bool, legal_count: int, epsilon: float) -> float:
    """The softened heuristic's probability of an action: ``1 - epsilon`` for its choice,
    ``epsilon`` shared by the other legal actions (1 when there is no other)."""
    if legal_count <= 1:
        return 1.0
    return 1.0 - epsilon if is_choice else epsilon / (legal_count - 1)


def _show_own_cards(draw: M.State, seat: int) -> None:
    """Let ``seat`` know the cards in the Gear of every Character it controls (a draw only
    gives the observing seat its own knowledge)."""
    for ch, controller in enumerate(draw.controller):
        if controller == seat or draw.seat_char[seat] == ch:
            draw.known[seat] |= draw.zones[M.GEAR0 + ch]


class ShadowPlanetDeduction:
    """The Shadow Planet's deduction adapter (:class:`shadowtable.core.deduction.Deduction`)."""

    def public_action(self, game: Game[Any], observation: Observation, actor: int, seat: int) -> bool:
        return observation["pending"]["kind"] in PUBLIC_KINDS

    def belief(
        self,
        game: Game[Any],
        seat: int,
        steps: Sequence[SeenStep],
        rng: random.Random,
        *,
        epsilon: float = DEFAULT_EPSILON,
        samples: int = DEFAULT_SAMPLES,
        use_actions: bool = True,
    ) -> dict[str, Any]:
        """Per seat, the probability of each Objective (JSON: ``objectives[seat][objective]``)."""
        if not steps:
            raise ValueError("a belief needs at least the seat's current observation")
        tracker = self.tracker(game, seat, rng, epsilon=epsilon, samples=samples, use_actions=use_actions)
        for step in steps:
            tracker.see(step)
        return tracker.belief(steps[-1].observation)

    def tracker(
        self,
        game: Game[Any],
        seat: int,
        rng: random.Random,
        *,
        epsilon: float = DEFAULT_EPSILON,
        samples: int = DEFAULT_SAMPLES,
        use_actions: bool = True,
    ) -> ObjectiveTracker:
        """A belief fed one step at a time (:class:`ObjectiveTracker`): the beliefs along a game
        cost one likelihood per step, not one per step and belief."""
        if not 0.0 < epsilon < 1.0 or not 1 <= samples <= MAX_SAMPLES:
            raise ValueError(f"epsilon must be in (0, 1) and samples in 1..{MAX_SAMPLES}")
        return ObjectiveTracker(game, seat, rng, epsilon, samples, use_actions)


class ObjectiveTracker:
    """What ``seat`` has learnt about the Objectives from the steps it has seen so far: the
    log-likelihood of each role per seat, updated by :meth:`see` in step order (the random
    draws are taken in that order, so feeding the steps one by one gives exactly the belief of
    :meth:`ShadowPlanetDeduction.belief` on them all)."""

    def __init__(
        self, game: Game[Any], seat: int, rng: random.Random, epsilon: float, samples: int, use_actions: bool
    ) -> None:
        self.game, self.seat, self.rng = game, seat, rng
        self.epsilon, self.samples, self.use_actions = epsilon, samples, use_actions
        self.roles = sorted(set(printed(game).objective_role))
        self.log_lik = [dict.fromkeys(self.roles, 0.0) for _ in range(game.players)]
        self.evidence = 0

    def see(self, step: SeenStep) -> None:
        """Take ``step`` into account (a step secret to the seat, its own or a known seat's tells nothing)."""
        if not self.use_actions or step.action is None or step.actor == self.seat:
            return
        if step.observation["public"]["objectives"][step.actor] is not None:
            return  # already known to this seat
        found = step_likelihoods(self.game, step, self.roles, self.epsilon, self.samples, self.rng)
        if found is None:
            return
        self.evidence += 1
        for role, value in found.items():
            self.log_lik[step.actor][role] += math.log(max(value, 1e-300))

    def belief(self, now: Observation) -> dict[str, Any]:
        """The belief given the steps seen so far and the seat's current observation ``now``."""
        return {
            "model": "bayes-heuristic" if self.use_actions else "logical",
            "epsilon": self.epsilon if self.use_actions else None,
            "evidence_steps": self.evidence,
            "objectives": _posterior(now, self.game.players, self.log_lik, printed(self.game).objective_role),
        }


def _posterior(
    now: Observation, players: int, log_lik: list[dict[str, float]], role_of: Sequence[str]
) -> list[list[float]]:
    """Per seat, the posterior over Objectives (one-hot where shown; zeros before the deal)."""
    shown = now["public"]["objectives"]
    deals = consistent_deals(now)
    scores = []
    for deal, weight in deals:
        scores.append(math.log(weight) + sum(log_lik[s][role_of[o]] for s, o in deal.items()))
    top = max(scores, default=0.0)
    result = [[0.0] * OBJECTIVES for _ in range(players)]
    for seat, o in enumerate(shown):
        if o is not None and o >= 0:
            result[seat][o] = 1.0
    total = 0.0
    for (deal, _), score in zip(deals, scores, strict=True):
        p = math.exp(score - top)
        total += p
        for s, o in deal.items():
            result[s][o] += p
    for s, o in enumerate(shown):
        if o is None and total > 0:
            result[s] = [p / total for p in result[s]]
    return result


DEDUCTION = ShadowPlanetDeduction()
