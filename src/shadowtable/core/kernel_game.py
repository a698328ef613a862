"""``KernelGame``: the protocol carried out once for every game built on the kernel.

A game on the kernel declares what is its own: ``SPEC``, ``KERNEL`` (its rulebook's engine
loop), its context (:meth:`KernelGame.make_context`), its initial state and how a state is read
back from JSON (:meth:`KernelGame.new_state`, :meth:`KernelGame.load_state`), and the hooks of
:class:`~shadowtable.core.game.Game` that only it can answer (``returns``, ``observe``,
``determinize``, and optionally ``summary`` and ``conservation_errors``), and its words
(``WORDING``, :class:`~shadowtable.core.wording.Wording`).  Legality, every way of applying an
action, rollouts and JSON loading live here, written once: every action passes through
:func:`~shadowtable.core.game.action_id` in Python before the (possibly compiled) kernel sees it.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, TypeVar

from shadowtable.core.errors import StateFormatError
from shadowtable.core.events import Event
from shadowtable.core.game import TERMINAL, Game, action_id
from shadowtable.core.kernel import Kernel, KernelState, Task

C = TypeVar("C")
S = TypeVar("S", bound=KernelState)


class KernelGame(Game[S], Generic[C, S]):
    """A :class:`~shadowtable.core.game.Game` whose engine is a :class:`~shadowtable.core.kernel.Kernel`.

    Subclasses set ``SPEC`` and ``KERNEL`` and implement :meth:`new_state`, :meth:`load_state`,
    ``returns``, ``observe`` and ``determinize``, and set ``WORDING``.
    ``SIMULTANEOUS`` lists the decision tasks that several seats answer together and in secret
    (:meth:`simultaneous_decisions`).
    """

    KERNEL: ClassVar[Kernel[Any, Any]]
    SIMULTANEOUS: ClassVar[tuple[type[Task], ...]] = ()

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(players, options)
        self.kernel: Kernel[C, S] = self.KERNEL
        self.ctx: C = self.make_context()

    # -- what each game declares ----------------------------------------------------------------
    def make_context(self) -> C:
        """The configured game the rules read (content, options, derived tables), built once from
        ``self.players`` and ``self.options``; raises :class:`InvalidOptionError` for options that
        do not go together.  ``None`` by default."""
        return None  # type: ignore[return-value]

    @abstractmethod
    def new_state(self) -> S:
        """The state as set up, before the kernel runs its first automatic work."""

    @abstractmethod
    def load_state(self, data: Mapping[str, Any]) -> S:
        """A state rebuilt from :meth:`state_to_json` data (tasks through the rulebook's
        ``task_from_json``); a missing or mistyped field may raise ``KeyError``, ``TypeError``,
        ``ValueError`` or ``AttributeError``, which :meth:`state_from_json` reports as
        :class:`StateFormatError`."""

    # -- dynamics -------------------------------------------------------------------------------
    def initial_state(self) -> S:
        state = self.new_state()
        self.kernel.prepare(self.ctx, state)
        return state

    def current_player(self, state: S) -> int:
        seat = self.kernel.current_player(state)  # CHANCE_SEAT is CHANCE
        return TERMINAL if seat is None else seat

    def is_terminal(self, state: S) -> bool:
        return self.kernel.current_player(state) is None

    def legal_actions(self, state: S) -> list[int]:
        return self.kernel.legal_actions(self.ctx, state)

    def chance_outcomes(self, state: S) -> list[tuple[int, float]]:
        return self.kernel.chance_outcomes(self.ctx, state)

    # Every action passes through action_id here, in Python: the compiled kernel's int parameters
    # would read True as 1 and raise TypeError for "3" (docs/performance.md).
    def apply(self, state: S, action: int) -> S:
        return self.kernel.apply(self.ctx, state, action_id(action))

    def apply_unchecked(self, state: S, action: int) -> S:
        return self.kernel.apply(self.ctx, state, action_id(action), checked=False)

    def apply_in_place(self, state: S, action: int) -> S:
        self.kernel.apply_in_place(self.ctx, state, action_id(action))
        return state

    def apply_recorded(self, state: S, action: int, *, checked: bool = True) -> tuple[S, list[Event]]:
        return self.kernel.apply_recorded(self.ctx, state, action_id(action), checked=checked)

    def random_rollout(self, state: S, rng: random.Random, limit: int) -> S:
        self.kernel.random_rollout(self.ctx, state, rng, limit)
        return state

    def simultaneous_decisions(self, state: S) -> list[tuple[int, list[int]]]:
        """The run of ``SIMULTANEOUS`` decisions from ``state`` on, each seat's options listed on
        the state after the seats before it answered with their first legal action (the rules
        guarantee that no answer changes another seat's options)."""
        block: list[tuple[int, list[int]]] = []
        if not self.SIMULTANEOUS:
            return block
        probe = state
        while isinstance(self.kernel.top(probe), self.SIMULTANEOUS):
            legal = self.legal_actions(probe)
            block.append((self.current_player(probe), legal))
            probe = self.apply_unchecked(probe, legal[0])
        return block

    # -- serialisation ------------------------------------------------------------------------
    def state_to_json(self, state: S) -> dict[str, Any]:
        data: dict[str, Any] = state.to_json()  # type: ignore[attr-defined]
        return data

    def state_from_json(self, data: Mapping[str, Any]) -> S:
        try:
            return self.load_state(data)
        except StateFormatError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StateFormatError(f"bad {self.SPEC.id} state: {exc}") from exc
