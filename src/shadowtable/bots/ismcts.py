"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS).

After Cowling, Powley and Whitehouse, *Information Set Monte Carlo Tree Search* (IEEE TCIAIG,
2012).  Every iteration samples a full state with ``game.determinize(observation, rng)``, so the
search only ever knows what the bot's seat knows, then runs one MCTS iteration on that
determinization through a single shared tree:

* **Tree.**  A node is reached by the sequence of decision actions played since the root (the
  searching seat's information set at the root, plus every later decision).  Chance outcomes are
  sampled with the bot's ``rng`` from ``chance_outcomes`` and are *not* edges: a node averages
  over them, as in the reference implementation where draws belong to the determinization.
* **Selection.**  UCB1 with availability counts: an action that is legal only in some
  determinizations is scored against the number of times it was *available*, not the parent's
  visit count, so rarely-legal actions are neither starved nor over-explored.
* **Expansion.**  One untried legal action, picked uniformly with ``rng``.
* **Rollout.**  A rollout policy (any registered bot; ``random`` by default) plays on from the
  new node, for at most ``max_rollout_steps`` steps.  A cut-off rollout scores every seat the
  midpoint of the game's utility range.
* **Backup.**  Each node stores the total return of the seat that chose the action leading to
  it, so every seat maximises its own value (multi-player, general-sum).

The move played is the most visited root action (ties: higher mean, then lower id).

Determinism: with an iteration budget alone, the bot draws every random number from the ``rng``
the runner passes to :meth:`ISMCTSBot.choose`, so the same seed replays the same game.  With a
``time`` budget the number of iterations depends on the machine and its load, so games are *not*
reproducible.

Secret moves: the single-observer tree branches on every seat's actions as if every seat could
see them.  When choices are secret until a reveal (one seat at a time, hidden from the others), a
seat deciding later in the tree is told the earlier secret choices, so the searcher expects to be
out-guessed.  ``tree=observations`` fixes this at some cost per step: every decision below the
root is looked up by the acting seat's own observation (canonical JSON), so a seat's node is
shared by all histories it cannot tell apart, much like the per-seat trees of MO-ISMCTS.  Nodes
then form a graph (transpositions share statistics); the path walked is what is backed up.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from time import perf_counter
from typing import Any

from shadowtable._mypyc import mypyc_attr
from shadowtable.bots.evaluation import evaluator
from shadowtable.bots.random_bot import RandomBot
from shadowtable.core.errors import BotError
from shadowtable.core.game import CHANCE, TERMINAL, Game, Observation
from shadowtable.core.rng import sample_outcome

DEFAULT_ITERATIONS = 200
DEFAULT_EXPLORATION = 0.7
DEFAULT_CONFIDENCE = 1.5
SAME_AS_BASELINE_SWEEPS = 8
"""Sweeps after which an action that scored exactly like the prior's move is no longer swept."""
TREE_KINDS = ("actions", "observations")


class Node:
    """A tree node: the action that led here, who chose it, and that seat's statistics.

    The root has ``action == -1`` and ``seat is None``.
    """

    __slots__ = ("action", "seat", "children", "visits", "value_sum", "availability")

    def __init__(self, action: int = -1, seat: int | None = None) -> None:
        self.action = action
        self.seat = seat
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.value_sum = 0.0
        self.availability = 0

    @property
    def mean_value(self) -> float:
        """Mean return of ``seat`` over the iterations that passed through this node."""
        return self.value_sum / self.visits if self.visits else 0.0

    def ucb(self, c: float) -> float:
        """UCB1 score with availability: exploitation plus ``c``-weighted exploration."""
        return self.mean_value + c * math.sqrt(math.log(self.availability) / self.visits)


@mypyc_attr(allow_interpreted_subclasses=True)  # the compiled build: subclasses in Python (docs/performance.md)
class ISMCTSBot:
    """SO-ISMCTS over ``game.determinize``; see the module docstring.

    ``iterations``: iteration budget (default 200; with only ``time`` given, unlimited).
    ``time``: optional budget in seconds; the search stops at whichever budget runs out first.
    ``c``: UCB exploration constant (returns are normalised to ``[0, 1]`` before scoring).
    ``rollout``: the rollout policy, a bot spec such as ``random`` or ``heuristic``, or a bot.
    ``max_rollout_steps``: rollout length cap (default: the game's ``max_game_length``).
    ``tree``: ``actions`` (SO-ISMCTS: nodes keyed by the actions since the root) or
    ``observations`` (each decision below the root keyed by the acting seat's own observation).
    ``evaluate``: name of a state evaluation (:mod:`shadowtable.bots.evaluation`) that scores a
    rollout cut off by ``max_rollout_steps`` (default: every seat 0.5).
    ``prior``: a bot spec (e.g. ``heuristic``) whose move the search must beat: the root is then
    searched in paired sweeps and the bot keeps the prior's move unless another move's paired
    advantage clears ``confidence`` standard errors (see :meth:`paired_choice`).
    ``width``: with a prior, how many root actions a round of paired sweeps compares (the prior's
    move and ``width - 1`` candidates; default: all of them at once).  Progressive widening: when
    a round has dropped every candidate and budget is left, the next candidates are swept (see
    :meth:`widening_choice`).
    """

    name = "ismcts"

    def __init__(
        self,
        iterations: int | None = None,
        time: float | None = None,
        c: float = DEFAULT_EXPLORATION,
        rollout: Any = "random",
        max_rollout_steps: int | None = None,
        tree: str = "actions",
        evaluate: str | None = None,
        prior: Any = None,
        confidence: float = DEFAULT_CONFIDENCE,
        width: Any = None,
    ) -> None:
        self.iterations = _resolve_iterations(iterations, time)
        self.time = _check_positive("time", time)
        self.c = float(_check_non_negative("c", c))
        self.max_rollout_steps = _check_positive("max_rollout_steps", max_rollout_steps)
        self.rollout_policy: Any = _rollout_bot(rollout)
        self.typed_rollout = bool(getattr(self.rollout_policy, "reads_typed_views", False))
        """Whether the rollout policy is given the typed view (built with no JSON in between)."""
        if tree not in TREE_KINDS:
            raise BotError(f"ismcts tree must be one of {', '.join(TREE_KINDS)}, got {tree!r}")
        self.tree = tree
        self.evaluate = evaluate
        self.prior: Any = None if prior is None else _rollout_bot(prior)
        self.confidence = float(_check_non_negative("confidence", confidence))
        self.width = _check_width(width)
        self.last_iterations = 0
        """Iterations (rollouts) run by the latest search; 0 when a decision needed none."""

    def choose(
        self,
        game: Game[Any],
        seat: int,
        observation: Observation,
        legal_actions: Sequence[int],
        rng: random.Random,
    ) -> int:
        """The most visited root action after the search."""
        self.last_iterations = 0
        if len(legal_actions) == 1:
            return legal_actions[0]
        if self.prior is not None:
            return self.paired_choice(game, seat, observation, legal_actions, rng)
        root = self.search(game, observation, rng)
        return best_action(root, legal_actions)

    def paired_choice(
        self, game: Game[Any], seat: int, observation: Observation, legal_actions: Sequence[int], rng: random.Random
    ) -> int:
        """The prior's move, unless the paired search finds a significantly better one.

        Every sweep draws one determinization and one rollout seed and scores *each* surviving
        root action on them (common random numbers), so two actions are compared on the same
        hidden cards and the same luck.  After each sweep, actions significantly worse than the
        current leader are dropped, and so are those that scored exactly like the prior's move in
        every one of the first :data:`SAME_AS_BASELINE_SWEEPS` sweeps (never the prior's move);
        the search ends early when only the prior's move is left.  The move played is the action with
        the best mean paired advantage over the prior's move, if that advantage exceeds
        ``confidence`` standard errors; otherwise the prior's move.
        """
        baseline = int(self.prior.choose(game, seat, observation, legal_actions, random.Random(rng.getrandbits(64))))
        if self.width is not None and self.width < len(legal_actions):
            return self.widening_choice(game, seat, observation, legal_actions, baseline, rng)
        samples = self.paired_search(game, seat, observation, legal_actions, baseline, rng)
        return paired_decision(samples, baseline, self.confidence)

    def widening_choice(
        self,
        game: Game[Any],
        seat: int,
        observation: Observation,
        legal_actions: Sequence[int],
        baseline: int,
        rng: random.Random,
    ) -> int:
        """Paired sweeps in rounds of ``width`` root actions: the prior's move and the next
        ``width - 1`` candidates in :meth:`candidate_order`.  A round goes on until only the
        prior's move is left in it or the budget runs out; the move played is the best significant
        paired advantage over the prior's move found in any round, else the prior's move."""
        assert self.width is not None
        order = self.candidate_order(game, seat, observation, legal_actions, baseline, rng)
        root = Node()
        deadline = None if self.time is None else perf_counter() + self.time
        best, best_mean, done, start = baseline, 0.0, 0, 0
        while start < len(order) and self._budget_left(done, deadline):
            group = [baseline, *order[start : start + self.width - 1]]
            start += self.width - 1
            samples, done = self.paired_sweeps(game, seat, observation, group, baseline, rng, root, done, deadline)
            chosen = paired_decision(samples, baseline, self.confidence)
            if chosen != baseline:
                mean = paired_differences(samples, chosen, baseline)[0]
                if mean > best_mean:
                    best, best_mean = chosen, mean
        self.last_iterations = done
        return best

    def candidate_order(
        self,
        game: Game[Any],
        seat: int,
        observation: Observation,
        legal_actions: Sequence[int],
        baseline: int,
        rng: random.Random,
    ) -> list[int]:
        """The root actions other than ``baseline``, most promising first: with an ``evaluate``,
        by the evaluation of the seat one step after each action on one determinization (ties in
        a random order); without one, in a random order."""
        others = [action for action in legal_actions if action != baseline]
        keys = {action: rng.random() for action in others}
        if self.evaluate is None:
            return sorted(others, key=keys.__getitem__)
        evaluate = evaluator(game.spec.id, self.evaluate)
        state = game.determinize(observation, rng)
        scores = {action: evaluate(game, game.apply_unchecked(state, action))[seat] for action in others}
        return sorted(others, key=lambda action: (-scores[action], keys[action]))

    def paired_search(
        self,
        game: Game[Any],
        seat: int,
        observation: Observation,
        legal_actions: Sequence[int],
        baseline: int,
        rng: random.Random,
    ) -> dict[int, list[float]]:
        """Paired root sweeps within the budget: each action's values of ``seat``, one per sweep.

        Below the root every action's subtree is an ordinary ISMCTS tree (select, expand, roll
        out, back up).  Only complete sweeps are kept; an iteration is one rollout.
        """
        deadline = None if self.time is None else perf_counter() + self.time
        samples, done = self.paired_sweeps(game, seat, observation, legal_actions, baseline, rng, Node(), 0, deadline)
        self.last_iterations = done
        return samples

    def paired_sweeps(
        self,
        game: Game[Any],
        seat: int,
        observation: Observation,
        actions: Sequence[int],
        baseline: int,
        rng: random.Random,
        root: Node,
        done: int,
        deadline: float | None,
    ) -> tuple[dict[int, list[float]], int]:
        """Paired sweeps over ``actions`` until one is left or the budget (``done`` iterations
        so far, ``deadline``) runs out: the surviving actions' values, and the iterations done."""
        alive = list(actions)
        samples: dict[int, list[float]] = {action: [] for action in actions}
        while len(alive) > 1 and self._budget_left(done, deadline):
            state = game.determinize(observation, rng)
            seed = rng.getrandbits(64)
            if not set(alive) <= set(game.legal_actions(state)):
                raise BotError(f"{game.spec.id}: a determinization changed the legal actions at the root")
            sweep: dict[int, float] = {}
            for action in alive:
                if not self._budget_left(done, deadline):
                    break
                sweep[action] = self.iterate_from(game, root, state, action, seat, random.Random(seed))
                done += 1
            if len(sweep) < len(alive):
                break
            for action, value in sweep.items():
                samples[action].append(value)
            alive = surviving_actions(samples, alive, baseline, self.confidence)
        return {action: values for action, values in samples.items() if action in alive}, done

    def iterate_from(
        self, game: Game[Any], root: Node, state: Any, action: int, seat: int, rng: random.Random
    ) -> float:
        """One ISMCTS iteration forced through root ``action``; the return of ``seat``."""
        child = root.children.get(action)
        if child is None:
            child = root.children[action] = Node(action, seat)
        child.availability += 1
        path, end = self.descend(game, child, game.apply_unchecked(state, action), rng)
        values = self.rollout(game, end, rng)
        back_up([root, *path], values)
        return values[seat]

    def search(self, game: Game[Any], observation: Observation, rng: random.Random) -> Node:
        """Run the search from ``observation`` and return the root of the tree."""
        return self.search_tree(game, observation, rng)[0]

    def search_tree(
        self, game: Game[Any], observation: Observation, rng: random.Random
    ) -> tuple[Node, InformationTable | None]:
        """Run the search; the root and, with ``tree=observations``, the table of the other nodes."""
        root = Node()
        table: InformationTable | None = {} if self.tree == "observations" else None
        deadline = None if self.time is None else perf_counter() + self.time
        done = 0
        while done == 0 or self._budget_left(done, deadline):
            self.iterate(game, root, game.determinize(observation, rng), rng, table)
            done += 1
        self.last_iterations = done
        return root, table

    def _budget_left(self, done: int, deadline: float | None) -> bool:
        """Whether both budgets allow another iteration (the first one always runs)."""
        if self.iterations is not None and done >= self.iterations:
            return False
        return deadline is None or perf_counter() < deadline

    def iterate(
        self, game: Game[Any], root: Node, state: Any, rng: random.Random, table: InformationTable | None = None
    ) -> None:
        """One iteration on one determinization: select, expand, roll out, back up."""
        path, state = self.descend(game, root, state, rng, table)
        values = self.rollout(game, state, rng)
        back_up(path, values)

    def descend(
        self, game: Game[Any], root: Node, state: Any, rng: random.Random, table: InformationTable | None = None
    ) -> tuple[list[Node], Any]:
        """Select through fully expanded nodes, expand one new node; return the path and state.

        With a ``table`` (``tree=observations``), every decision below the root is looked up by
        the acting seat's own observation instead of by the actions leading to it.
        """
        node, path = root, [root]
        while True:
            player = game.current_player(state)
            if player == TERMINAL:
                return path, state
            if player == CHANCE:
                state = game.apply_unchecked(state, sample_outcome(game.chance_outcomes(state), rng))
                continue
            if table is not None and len(path) > 1:
                node = table.setdefault(information_key(player, game.observe(state, player)), Node())
            legal = game.legal_actions(state)
            untried = [action for action in legal if action not in node.children]
            if untried:
                mark_available(node, legal)
                action = untried[rng.randrange(len(untried))]
                child = node.children[action] = Node(action, player)
                child.availability = 1
                path.append(child)
                return path, game.apply_unchecked(state, action)
            node = select_child(node, legal, self.c, rng)
            path.append(node)
            state = game.apply_unchecked(state, node.action)

    def rollout(self, game: Game[Any], state: Any, rng: random.Random) -> list[float]:
        """Play the rollout policy to the end (or the step cap); each seat's normalised return."""
        limit = self.max_rollout_steps or game.spec.max_game_length
        if type(self.rollout_policy) is RandomBot:  # the same choices as RandomBot, in the engine's loop
            player = game.current_player(state)
            if limit > 0 and player != TERMINAL:
                state = game.random_rollout(self._rollout_step(game, state, player, rng, owned=False), rng, limit - 1)
        else:
            for step in range(limit):
                player = game.current_player(state)
                if player == TERMINAL:
                    break
                state = self._rollout_step(game, state, player, rng, owned=step > 0)
        if game.is_terminal(state):
            return normalised_returns(game, game.returns(state))
        if self.evaluate is not None:
            return evaluator(game.spec.id, self.evaluate)(game, state)
        return [0.5] * game.players

    def _rollout_step(self, game: Game[Any], state: Any, player: int, rng: random.Random, *, owned: bool) -> Any:
        """The state after one rollout step: ``state`` itself, changed, once the rollout ``owned``
        it (from its second step on); the engine checks only a rollout policy's own choice."""
        apply = game.apply_in_place if owned else game.apply_unchecked
        if player == CHANCE:
            return apply(state, sample_outcome(game.chance_outcomes(state), rng))
        legal = game.legal_actions(state)
        if type(self.rollout_policy) is RandomBot:  # same choice as RandomBot, without observing
            return apply(state, legal[rng.randrange(len(legal))])
        seen = game.observe_typed(state, player) if self.typed_rollout else game.observe(state, player)
        action = int(self.rollout_policy.choose(game, player, seen, legal, rng))
        if action not in legal:
            raise BotError(f"rollout policy chose illegal action {action!r}")
        return apply(state, action)


InformationTable = dict[tuple[int, str], Node]
"""Decision nodes below the root by ``information_key`` (``tree=observations``)."""


def information_key(seat: int, observation: Observation) -> tuple[int, str]:
    """The acting seat and its observation as canonical JSON: one key per information set."""
    return seat, json.dumps(observation, sort_keys=True, separators=(",", ":"))


def back_up(path: Sequence[Node], values: Sequence[float]) -> None:
    """Count one visit on each node and add the return of the seat that chose its action."""
    for node in path:
        node.visits += 1
        if node.seat is not None:
            node.value_sum += values[node.seat]


def mark_available(node: Node, legal: Sequence[int]) -> list[Node]:
    """Count one more availability for each existing child legal now; return those children."""
    available = [node.children[action] for action in legal if action in node.children]
    for child in available:
        child.availability += 1
    return available


def select_child(node: Node, legal: Sequence[int], c: float, rng: random.Random) -> Node:
    """UCB1 with availability over the children legal in this determinization; ties broken by ``rng``."""
    available = mark_available(node, legal)
    scores = [child.ucb(c) for child in available]
    best = max(scores)
    tied = [child for child, score in zip(available, scores, strict=True) if score == best]
    return tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]


def best_action(root: Node, legal_actions: Sequence[int]) -> int:
    """The most visited legal root action; ties go to the higher mean, then the lower id."""
    visited = [root.children[a] for a in legal_actions if a in root.children]
    if not visited:
        return legal_actions[0]
    return max(visited, key=lambda child: (child.visits, child.mean_value, -child.action)).action


def paired_differences(samples: dict[int, list[float]], action: int, baseline: int) -> tuple[float, float]:
    """Mean and standard error of ``action``'s value minus ``baseline``'s over the shared sweeps."""
    diffs = [a - b for a, b in zip(samples[action], samples[baseline], strict=False)]
    if len(diffs) < 2:
        return (sum(diffs) / len(diffs) if diffs else 0.0), math.inf
    mean = sum(diffs) / len(diffs)
    variance = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean, math.sqrt(variance / len(diffs))


def surviving_actions(
    samples: dict[int, list[float]], alive: Sequence[int], baseline: int, confidence: float
) -> list[int]:
    """The actions still worth sweeping; ``baseline`` always stays.

    Dropped: an action significantly worse than the leader (by mean value), and, after
    :data:`SAME_AS_BASELINE_SWEEPS` sweeps, one that scored exactly like ``baseline`` in every
    sweep (with common random numbers it plays out the same, so it cannot be shown better).
    """
    leader = max(alive, key=lambda a: (sum(samples[a]) / max(1, len(samples[a])), -a))
    kept = []
    for action in alive:
        mean, error = paired_differences(samples, action, leader)
        if action == baseline or (
            (action == leader or mean + confidence * error >= 0) and not _same_as(samples, action, baseline)
        ):
            kept.append(action)
    return kept


def _same_as(samples: dict[int, list[float]], action: int, baseline: int) -> bool:
    """Whether ``action`` scored exactly like ``baseline`` in each of at least the first few sweeps."""
    mine, theirs = samples[action], samples[baseline]
    return len(mine) >= SAME_AS_BASELINE_SWEEPS and mine == theirs


def paired_decision(samples: dict[int, list[float]], baseline: int, confidence: float) -> int:
    """The action with the best paired advantage over ``baseline`` if it is significant, else ``baseline``."""
    best, best_mean = baseline, 0.0
    for action in sorted(samples):
        if action == baseline or not samples[action]:
            continue
        mean, error = paired_differences(samples, action, baseline)
        if mean - confidence * error > 0 and mean > best_mean:
            best, best_mean = action, mean
    return best


def normalised_returns(game: Game[Any], returns: Sequence[float]) -> list[float]:
    """Returns rescaled from the game's utility range to ``[0, 1]``, so ``c`` is game-independent."""
    low, high = game.spec.min_utility, game.spec.max_utility
    span = high - low
    return [(r - low) / span if span else 0.5 for r in returns]


def _resolve_iterations(iterations: int | None, time: float | None) -> int | None:
    if iterations is None:
        return None if time is not None else DEFAULT_ITERATIONS
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise BotError(f"ismcts iterations must be a positive int, got {iterations!r}")
    return iterations


def _check_width(width: Any) -> int | None:
    if width is not None and (isinstance(width, bool) or not isinstance(width, int) or width < 2):
        raise BotError(f"ismcts width must be an int of at least 2, got {width!r}")
    return width


def _check_positive(name: str, value: Any) -> Any:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float) or value <= 0):
        raise BotError(f"ismcts {name} must be a positive number, got {value!r}")
    return value


def _check_non_negative(name: str, value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise BotError(f"ismcts {name} must be a non-negative number, got {value!r}")
    return value


def _rollout_bot(rollout: Any) -> Any:
    """The rollout policy: a bot, or a registered bot spec resolved now (imported lazily)."""
    if not isinstance(rollout, str):
        return rollout
    from shadowtable.bots.registry import make_bot

    return make_bot(rollout)
