"""OpenSpiel registration: each ShadowTable game as a pyspiel Python game with explicit chance.

``load("shadow-planet", players=4)`` returns a ``pyspiel.Game`` that OpenSpiel's algorithms
(and ``pyspiel.random_sim_test``) run on; observation tensors come from the game's encoder.
Information-state strings have perfect recall (:meth:`SpielState.information_state_text`);
there is no information-state tensor.  ``max_game_length`` is worked out from the rules
(:func:`max_game_length`).  States clone cheaply and support
``resample_from_infostate``, so OpenSpiel's Python ISMCTS
(``open_spiel.python.algorithms.ismcts.ISMCTSBot``) plays them as they are.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from shadowtable.core.errors import IllegalActionError
from shadowtable.core.game import CHANCE, TERMINAL, Game, action_id
from shadowtable.core.manifest import load as load_adapter
from shadowtable.core.manifest import manifest_of
from shadowtable.core.registry import game_class, make
from shadowtable.rl.encoding import encoder_for, encoder_input


def short_name(game_id: str) -> str:
    """The OpenSpiel short name of a ShadowTable game id."""
    return "python_shadowtable_" + game_id.replace("-", "_")


def spiel_player(player: int) -> int:
    """The pyspiel player id of a ShadowTable ``current_player`` value."""
    if player == CHANCE:
        return int(pyspiel.PlayerId.CHANCE)
    if player == TERMINAL:
        return int(pyspiel.PlayerId.TERMINAL)
    return player


def observation_json(game: Game[Any], state: Any, seat: int) -> str:
    """The observation of ``seat`` as compact JSON with sorted keys."""
    return json.dumps(game.observe(state, seat), sort_keys=True, separators=(",", ":"))


def max_game_length(game: Game[Any]) -> int:
    """An upper bound on the steps (decisions and chance outcomes) of one game: the game's
    ``length_bound`` (its manifest), else ``spec.max_game_length``."""
    reference = manifest_of(type(game)).length_bound
    return game.spec.max_game_length if reference is None else int(load_adapter(reference)(game))


def sampler_rng(sampler: Callable[[], float]) -> random.Random:
    """A ``random.Random`` seeded from two draws of ``sampler`` (floats in [0, 1)), so a seeded
    sampler gives the same generator."""
    high = int(float(sampler()) * 2**53)
    low = int(float(sampler()) * 2**53)
    return random.Random(high << 53 | low)


def same_json(one: Any, other: Any) -> bool:
    """Whether two parsed JSON values are the same value (``1``, ``1.0`` and ``true`` differ)."""
    return bool(one == other) and repr(one) == repr(other)


def json_edits(old: Any, new: Any, path: tuple[str | int, ...] = ()) -> list[list[Any]]:
    """The edits that turn the parsed JSON value ``old`` into ``new``, in a canonical order:
    ``[path, value]`` sets the value at ``path`` (keys and list indices from the top),
    ``[path]`` deletes a key.  Objects are compared key by key and lists of one length item by
    item; any other difference (a change of type included) replaces the value."""
    if same_json(old, new):
        return []
    edits: list[list[Any]] = []
    if type(old) is dict and type(new) is dict:
        for key in sorted(old.keys() | new.keys()):
            if key not in new:
                edits.append([[*path, key]])
            elif key not in old:
                edits.append([[*path, key], new[key]])
            else:
                edits += json_edits(old[key], new[key], (*path, key))
    elif type(old) is list and type(new) is list and len(old) == len(new):
        for index, (was, now) in enumerate(zip(old, new, strict=True)):
            edits += json_edits(was, now, (*path, index))
    else:
        edits.append([list(path), new])
    return edits


def apply_edits(value: Any, edits: list[list[Any]]) -> Any:
    """``value`` (not changed) with :func:`json_edits` applied: ``apply_edits(old,
    json_edits(old, new)) == new``."""
    out = copy.deepcopy(value)
    for edit in edits:
        path = edit[0]
        if not path:
            out = edit[1]
            continue
        parent = out
        for key in path[:-1]:
            parent = parent[key]
        if len(edit) == 1:
            del parent[path[-1]]
        else:
            parent[path[-1]] = edit[1]
    return out


def step_line(own_action: int | None, before: str, after: str) -> str:
    """One step of an information-state string: the seat's own action (``-`` when another seat or
    chance acted) and the edits from its observation before the step to the one after it."""
    edits = [] if before == after else json_edits(json.loads(before), json.loads(after))
    token = "-" if own_action is None else str(own_action)
    return token + " " + json.dumps(edits, sort_keys=True, separators=(",", ":"))


def read_information_state(text: str) -> list[tuple[int | None, Any]]:
    """What an information-state string records, oldest first: ``(None, observation)`` at its
    first state, then per step the seat's own action (``None`` when it did not act) and its
    observation after the step (parsed JSON, as ``json.loads(state.observation_string(p))``)."""
    first, *steps = text.split("\n")
    observation = json.loads(first)
    out: list[tuple[int | None, Any]] = [(None, observation)]
    for line in steps:
        token, edits = line.split(" ", 1)
        observation = apply_edits(observation, json.loads(edits))
        out.append((None if token == "-" else int(token), observation))
    return out


CHECKPOINT = 64
"""Every this many steps from the start, a core keeps each seat's information-state lines asked
for there, so that working them out again walks back this many steps at most."""


class _Core:
    """One engine state, the game it belongs to, the core it came from (``parent``, by
    ``action``, ``depth`` steps from the first) and what is worked out for it by seat: the JSON
    observation, the information-state step from the parent and, every :data:`CHECKPOINT` steps,
    the whole information state.  Only these caches ever change, and only by adding what the
    state and its ancestors determine, so a state and its clones share one core: pyspiel's
    ``clone`` deep-copies each attribute of a Python state, which for a core returns the core
    itself.  Applying an action makes a new core.  A resampled state's core has no parent;
    ``origin`` names the seat it was resampled for and the core whose information state that
    seat keeps.
    """

    __slots__ = ("action", "depth", "game", "lines", "origin", "parent", "state", "steps", "strings")

    def __init__(
        self,
        game: Game[Any],
        state: Any,
        parent: _Core | None = None,
        action: int = -1,
        origin: tuple[int, _Core] | None = None,
    ) -> None:
        self.game = game
        self.state = state
        self.parent = parent
        self.action = action
        self.origin = origin
        self.depth: int = 0 if parent is None else parent.depth + 1
        self.strings: dict[int, str] = {}
        self.steps: dict[int, str] = {}
        self.lines: dict[int, tuple[str, ...]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return self

    def __reduce__(self) -> tuple[Callable[..., _Core], tuple[Game[Any], list[tuple[Any, int, list[int]]]]]:
        """Pickled flat at any depth (pickling the chain of parents would recurse once per step):
        the game and :func:`lineage`; loading replays it (:func:`rebuilt_core`).  The caches are
        worked out again when asked for."""
        return rebuilt_core, (self.game, lineage(self))

    def after(self, action: int) -> _Core:
        """The core of the state after ``action``."""
        return _Core(self.game, self.game.apply(self.state, action), self, action)

    def observation(self, seat: int) -> str:
        """:func:`observation_json` of ``seat``, worked out once."""
        text = self.strings.get(seat)
        if text is None:
            text = self.strings[seat] = observation_json(self.game, self.state, seat)
        return text

    def step(self, seat: int) -> str:
        """:func:`step_line` of ``seat`` for the step from the parent to this core."""
        text = self.steps.get(seat)
        if text is None:
            parent = self.parent
            assert parent is not None
            own = self.action if parent.game.current_player(parent.state) == seat else None
            text = self.steps[seat] = step_line(own, parent.observation(seat), self.observation(seat))
        return text

    def first_lines(self, seat: int) -> tuple[str, ...]:
        """The lines of ``seat``'s information state at this parentless core: those of the core
        it was resampled from, for the seat it was resampled for, else the observation alone."""
        if self.origin is not None and self.origin[0] == seat:
            return information_lines(self.origin[1], seat)
        return (self.observation(seat),)


def lineage(core: _Core) -> list[tuple[Any, int, list[int]]]:
    """How ``core`` came about, oldest first: per parentless core on the way back (the first
    one, then the one each resampled core was resampled from) its engine state, the seat it was
    resampled for (-1 for the first) and the actions that lead from it to the next segment's
    origin, or to ``core`` itself for the last segment."""
    segments: list[tuple[Any, int, list[int]]] = []
    current: _Core | None = core
    while current is not None:
        actions: list[int] = []
        while current.parent is not None:
            actions.append(current.action)
            current = current.parent
        actions.reverse()
        origin = current.origin
        segments.append((current.state, -1 if origin is None else origin[0], actions))
        current = None if origin is None else origin[1]
    segments.reverse()
    return segments


def rebuilt_core(game: Game[Any], segments: list[tuple[Any, int, list[int]]]) -> _Core:
    """The core that :func:`lineage` describes, its ancestors rebuilt by applying its actions."""
    core: _Core | None = None
    for state, seat, actions in segments:
        if (seat < 0) != (core is None):
            raise ValueError("only the first segment of a lineage has no origin")
        core = _Core(game, state, origin=None if core is None else (seat, core))
        for action in actions:
            core = core.after(action)
    if core is None:
        raise ValueError("a lineage has at least one segment")
    return core


def loaded_state(game_id: str, players: int, serialized: str) -> SpielState:
    """A pickled :class:`SpielState` loaded: OpenSpiel's ``deserialize_state`` on the game,
    registered first if this process has not yet."""
    state: SpielState = load(game_id, players).deserialize_state(serialized)
    return state


def information_lines(core: _Core, seat: int) -> tuple[str, ...]:
    """The lines of ``seat``'s information state at ``core`` (see
    :meth:`SpielState.information_state_text`): the steps back to the nearest core that keeps
    them, added to those."""
    walked: list[_Core] = []
    while seat not in core.lines and core.parent is not None:
        walked.append(core)
        core = core.parent
    lines = core.lines.get(seat)
    if lines is None:
        lines = core.lines[seat] = core.first_lines(seat)
    steps: list[str] = []
    for node in reversed(walked):
        steps.append(node.step(seat))
        if node.depth % CHECKPOINT == 0:
            lines += tuple(steps)
            steps.clear()
            node.lines[seat] = lines
    return lines + tuple(steps)


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state wrapping an immutable ShadowTable state (``st_state``)."""

    def __init__(self, game: SpielGame, core: _Core | None = None) -> None:
        super().__init__(game)
        self._core = game.initial_core if core is None else core

    @property
    def st_game(self) -> Game[Any]:
        """The ShadowTable game."""
        return self._core.game

    @property
    def st_state(self) -> Any:
        """The ShadowTable state (never changed: applying an action replaces it)."""
        return self._core.state

    def current_player(self) -> int:
        return spiel_player(self._core.game.current_player(self._core.state))

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.game.legal_actions(self._core.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._core.game.chance_outcomes(self._core.state)

    def apply_action(self, action: Any) -> None:
        """OpenSpiel's ``apply_action``, refusing what the engine refuses (:func:`action_id`):
        OpenSpiel itself would take ``True`` as action 1."""
        number = action_id(action)
        if not -(2**63) <= number < 2**63:  # OpenSpiel's actions are 64-bit
            raise IllegalActionError(f"action {number} is not legal now")
        super().apply_action(number)

    def child(self, action: Any) -> SpielState:
        """OpenSpiel's ``child``, refusing what :meth:`apply_action` refuses."""
        state: SpielState = super().child(action_id(action))
        return state

    def _apply_action(self, action: int) -> None:
        self._core = self._core.after(action_id(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._core.game.words.action_to_str(self._core.state, int(action))

    def is_terminal(self) -> bool:
        return self._core.game.is_terminal(self._core.state)

    def returns(self) -> list[float]:
        return [float(r) for r in self._core.game.returns(self._core.state)]

    def observation_json(self, player: int) -> str:
        """:func:`observation_json` of ``player``, worked out once per state."""
        return self._core.observation(player)

    def information_state_text(self, player: int) -> str:
        """``player``'s information state with perfect recall, one line per state of the
        history: its observation (JSON) at the first state, then per step its own action (``-``
        when another seat or chance acted) and the edits to its observation (:func:`json_edits`).
        Equal strings mean equal observations at every step and equal own actions; each line is
        worked out once per state (:func:`read_information_state` reads it back)."""
        return "\n".join(information_lines(self._core, player))

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> SpielState:
        """A state ``player_id`` cannot tell from this one now: the engine's ``determinize`` of
        that seat's observation, with a generator seeded from ``probability_sampler``.

        Its ``history()`` is empty: the state is built from the observation, not from actions.
        ``player_id``'s information state there is the one here (so search trees keyed by it
        meet the same key); another seat's starts from its observation of the new state, all it
        can know of a state with no history.  ``determinize`` reads only the current observation,
        so the state may contradict what ``player_id`` saw earlier but no longer sees.
        """
        seat = int(player_id)
        game = self._core.game
        sampled = game.determinize(game.observe(self._core.state, seat), sampler_rng(probability_sampler))
        return SpielState(self.get_game(), _Core(game, sampled, origin=(seat, self._core)))

    def __str__(self) -> str:
        return self._core.game.words.render(self._core.game.observe(self._core.state, None))

    def __reduce__(self) -> tuple[Callable[..., SpielState], tuple[str, int, str]]:
        """Pickles and copies go through OpenSpiel's own serialisation (``serialize``: the
        history and the core, pickled flat), with the game's id and player count, so that
        loading registers the game first where it is not yet (a new process)."""
        game = self._core.game
        return loaded_state, (game.spec.id, game.players, self.serialize())


class SpielObserver:
    """Observation tensors (the encoder) and strings (the JSON observation) for one seat."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.encoder = encoder_for(game)
        self.tensor = np.zeros(int(np.prod(self.encoder.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(self.encoder.shape)}

    def set_from(self, state: SpielState, player: int) -> None:
        self.tensor[:] = self.encoder.encode(encoder_input(self.encoder, self.game, state.st_state, player)).reshape(-1)

    def string_from(self, state: SpielState, player: int) -> str:
        return state.observation_json(player)


class InformationStateObserver:
    """Perfect-recall information-state strings (:meth:`SpielState.information_state_text`).
    There is no tensor: a perfect-recall record of a game has no fixed size."""

    tensor = None

    def __init__(self) -> None:
        self.dict: dict[str, Any] = {}

    def set_from(self, state: SpielState, player: int) -> None:
        raise NotImplementedError(
            "ShadowTable games have no information-state tensor (a perfect-recall record has no fixed size): "
            "use information_state_string, or observation tensors (perfect_recall=False)"
        )

    def string_from(self, state: SpielState, player: int) -> str:
        return state.information_state_text(player)


def wants_perfect_recall(iig_obs_type: Any) -> bool:
    """Whether an observer request is for information states (``perfect_recall``); ``None``
    means the default, observations.  Only the seat's own view is offered: a request for public
    information alone, or for every seat's, raises."""
    if iig_obs_type is None:
        return False
    if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
        raise ValueError(
            "ShadowTable games observe for one seat (public_info=True, private_info=SINGLE_PLAYER); got "
            f"public_info={iig_obs_type.public_info}, private_info={iig_obs_type.private_info.name}"
        )
    return bool(iig_obs_type.perfect_recall)


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """A pyspiel game for one ShadowTable game id and player count (parameter ``players``)."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        cls = game_class(self.game_id)
        players = int(params.get("players", cls.SPEC.min_players))
        self.st_game = make(self.game_id, players=players)
        self.initial_core = _Core(self.st_game, self.st_game.initial_state())
        spec = self.st_game.spec
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_distinct_actions,
            max_chance_outcomes=spec.max_chance_outcomes,
            num_players=players,
            min_utility=float(spec.min_utility),
            max_utility=float(spec.max_utility),
            utility_sum=None,
            max_game_length=max_game_length(self.st_game),
        )
        super().__init__(game_type(self.game_id), info, {"players": players})

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def __reduce__(self) -> tuple[Callable[[str, int], Any], tuple[str, int]]:
        """Pickled as its game id and player count (:func:`load`); the class made for the game
        by :func:`register` cannot be found by name."""
        return load, (self.game_id, self.st_game.players)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Any = None
    ) -> SpielObserver | InformationStateObserver:
        """The observer OpenSpiel asks for: information-state strings for ``perfect_recall``
        (their tensor raises), else observations."""
        if isinstance(iig_obs_type, dict):  # parameters alone
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"ShadowTable observers take no parameters; got {params}")
        if wants_perfect_recall(iig_obs_type):
            return InformationStateObserver()
        return SpielObserver(self.st_game)


def game_type(game_id: str) -> Any:
    """The pyspiel ``GameType`` of a ShadowTable game."""
    spec = game_class(game_id).SPEC
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"ShadowTable {spec.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": spec.min_players},
    )


def register(game_id: str) -> str:
    """Register ``game_id`` with pyspiel (once); returns its short name."""
    name = short_name(game_id)
    if name not in pyspiel.registered_names():
        cls = type(f"SpielGame_{game_id.replace('-', '_')}", (SpielGame,), {"game_id": game_id})
        pyspiel.register_game(game_type(game_id), cls)
    return name


def load(game_id: str, players: int) -> Any:
    """The registered pyspiel game for ``game_id`` with ``players`` players."""
    return pyspiel.load_game(register(game_id), {"players": players})
