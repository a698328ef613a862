"""Observation encoders: a seat's observation to a fixed-shape ``float32`` array, and action masks."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from functools import lru_cache
from operator import add
from typing import Any, Generic, Protocol, TypeGuard, TypeVar, cast

import numpy as np

from shadowtable.core.game import Game, Observation
from shadowtable.core.manifest import load, manifest_of
from shadowtable.core.views import TypedObservation, typed_view

Vector = np.ndarray[tuple[int, ...], np.dtype[np.float32]]
ViewT = TypeVar("ViewT", bound=TypedObservation)


class Encoder(Protocol):
    """Turns observations of one configured game into arrays of one shape."""

    shape: tuple[int, ...]
    low: float
    high: float

    def encode(self, observation: Observation) -> Vector:
        """The observation as a new array of ``shape`` with values in ``[low, high]``."""
        ...


EncoderFactory = Callable[[Game[Any]], Encoder]
_ENCODERS: dict[str, EncoderFactory] = {}


def register_encoder(game_id: str, factory: EncoderFactory) -> None:
    """Make ``factory(game)`` the encoder of ``game_id``."""
    _ENCODERS[game_id] = factory


def encoder_for(game: Game[Any]) -> Encoder:
    """The encoder of ``game``: one registered for its id, else the one its manifest names."""
    factory = _ENCODERS.get(game.spec.id)
    if factory is None:
        reference = manifest_of(type(game)).encoder
        if reference is None:
            raise KeyError(f"no observation encoder registered for {game.spec.id!r}")
        factory = load(reference)
        _ENCODERS[game.spec.id] = factory
    return factory(game)


def encode_into(encoder: Encoder, observation: Observation | TypedObservation, out: Vector) -> Vector:
    """``encoder.encode(observation)`` written into ``out`` (in place where the encoder can).
    ``observation`` is the JSON, or what :func:`encoder_input` gives (a typed view for an
    :class:`ArrayEncoder`)."""
    write = getattr(encoder, "encode_into", None)
    if write is not None:
        result: Vector = write(observation, out)
        return result
    out[...] = encoder.encode(observation)  # type: ignore[arg-type]  # JSON: encoder_input gives it
    return out


def action_mask(game: Game[Any], legal: Sequence[int]) -> np.ndarray[tuple[int, ...], np.dtype[np.int8]]:
    """A 0/1 ``int8`` vector over ``num_distinct_actions`` with ones at ``legal``."""
    mask = np.zeros(game.spec.num_distinct_actions, dtype=np.int8)
    mask[list(legal)] = 1
    return mask


def one_hot(index: int | None, size: int) -> list[float]:
    """``size`` zeros with a one at ``index`` (all zeros for ``None``)."""
    vector = [0.0] * size
    if index is not None:
        vector[index] = 1.0
    return vector


def slot(index: int, size: int) -> int:
    """``index`` as a position in ``size`` slots, counting from the end when negative (as a list
    index does); :class:`IndexError` outside them."""
    position = index + size if index < 0 else index
    if not 0 <= position < size:
        raise IndexError(f"slot {index} out of {size}")
    return position


def shifted_slot(value: int | None, size: int) -> int:
    """The slot of ``value + 1`` in ``size`` slots (``-1``/``None``: slot 0; large values clip)."""
    return 0 if value is None else min(size - 1, max(0, value + 1))


def within(values: Sequence[Any], low: int, high: int) -> TypeGuard[Sequence[int]]:
    """Whether the (non-empty) ``values`` are all numbers from ``low`` to ``high`` (no ``None``)."""
    try:
        return bool(low <= min(values) and max(values) <= high)
    except (TypeError, ValueError):  # a None among them, or none at all
        return False


@lru_cache(maxsize=4096)
def set_bits(mask: int, size: int) -> tuple[int, ...]:
    """The positions of the set bits among the low ``size`` bits of ``mask``."""
    return tuple(i for i in range(size) if mask >> i & 1)


class Features:
    """An encoding being collected: the positions that hold a one, and positions with their
    ratios ``value / top`` (clipped to ``[0, 1]`` when written); :meth:`write` puts them into an
    array, zeros elsewhere.

    Collecting positions in lists and writing them with two vectorised assignments costs far
    less than a Python call and a list per feature.  Runs of ints that are all in range take a
    fast path (checked with ``min``/``max``); anything else takes the general one."""

    __slots__ = ("ones", "at", "ratios")

    def __init__(self) -> None:
        self.ones: list[int] = []
        self.at: list[int] = []
        self.ratios: list[float] = []

    def one_hot(self, offset: int, index: int | None, size: int) -> None:
        """A one at ``offset + index`` (nothing for ``None``; negative counts from the end)."""
        if index is not None:
            self.ones.append(offset + slot(index, size))

    def shifted(self, offset: int, value: int | None, size: int) -> None:
        """A one-hot of ``value + 1`` (see :func:`shifted_slot`)."""
        self.ones.append(offset + shifted_slot(value, size))

    def each_shifted(self, offset: int, values: Sequence[int | None], size: int, stride: int = 0) -> None:
        """:meth:`shifted` of each value, value ``k``'s slots starting at ``offset + k * stride``
        (``stride`` defaults to ``size``: consecutive runs)."""
        stride = stride or size
        if values and within(values, -1, size - 2):
            self.ones.extend(map(add, range(offset + 1, offset + 1 + stride * len(values), stride), values))
            return
        top = size - 1
        self.ones.extend(
            [offset + k * stride + (0 if x is None else min(top, max(0, x + 1))) for k, x in enumerate(values)]
        )

    def members(self, offset: int, items: Sequence[int | None], size: int) -> None:
        """Ones at the non-negative ints of ``items`` below ``size`` (a multi-hot)."""
        if not items:
            return
        if within(items, 0, size - 1):
            self.ones.extend(map(offset.__add__, items))
        else:
            self.ones.extend([offset + x for x in items if x is not None and 0 <= x < size])

    def members_each(self, blocks: Sequence[tuple[int, Sequence[int | None]]], size: int) -> None:
        """:meth:`members` of each ``(offset, items)`` (one pass: many short lists are common)."""
        self.ones.extend([o + x for o, items in blocks for x in items if x is not None and 0 <= x < size])

    def each_bits(self, offset: int, masks: Sequence[int], size: int) -> None:
        """:meth:`bits` of each mask, in consecutive runs of ``size``."""
        self.ones.extend([offset + k * size + i for k, m in enumerate(masks) if m for i in set_bits(m, size)])

    def bits(self, offset: int, mask: int, size: int) -> None:
        """The low ``size`` bits of ``mask``."""
        if mask:
            self.ones.extend(map(offset.__add__, set_bits(mask, size)))

    def flag(self, position: int, value: object) -> None:
        """A one at ``position`` when ``value`` is true."""
        if value:
            self.ones.append(position)

    def scaled(self, position: int, value: float, top: float) -> None:
        """``value / top`` clipped to ``[0, 1]`` at ``position``."""
        self.at.append(position)
        self.ratios.append(value / top)

    def scaled_run(self, offset: int, values: Sequence[float], top: float) -> None:
        """:meth:`scaled` of each value, at consecutive positions from ``offset`` (zeros are
        left out: the array holds zero there already)."""
        at, ratios = self.at, self.ratios
        for k, value in enumerate(values):
            if value:
                at.append(offset + k)
                ratios.append(value / top)

    def scaled_each(self, positions: Iterable[int], values: Collection[float], top: float) -> None:
        """:meth:`scaled` of ``values[k]`` at ``positions[k]``, zeros left out."""
        at, ratios = self.at, self.ratios
        for position, value in zip(positions, values, strict=False):
            if value:
                at.append(position)
                ratios.append(value / top)

    def scaled_tops(self, positions: Sequence[int], values: Sequence[float], tops: Sequence[float]) -> None:
        """``values[k] / tops[k]`` clipped to ``[0, 1]`` at ``positions[k]``, zeros left out."""
        at, ratios = self.at, self.ratios
        for position, value, top in zip(positions, values, tops, strict=False):
            if value:
                at.append(position)
                ratios.append(value / top)

    def write(self, out: Vector) -> Vector:
        """``out`` holding the features (and zeros everywhere else)."""
        out.fill(0.0)
        ones, at = self.ones, self.at
        if ones:
            out[np.fromiter(ones, dtype=np.intp, count=len(ones))] = 1.0
        if at:
            ratios = self.ratios
            if min(ratios) < 0.0 or max(ratios) > 1.0:
                ratios = [min(1.0, max(0.0, r)) for r in ratios]
            out[np.fromiter(at, dtype=np.intp, count=len(at))] = ratios
        return out


class ArrayEncoder(Generic[ViewT]):
    """An encoder made of named fixed-size blocks laid end to end, values in ``[0, 1]``.

    It reads the game's typed observation (``ViewT``): given the JSON one (``game.observe``'s,
    read unchecked, as the game wrote it), it builds the typed view once
    (:func:`shadowtable.core.views.typed_view`).  Subclasses fill :meth:`collect`;
    :meth:`encode_into` writes into an array the caller keeps (an environment holds one per
    seat) and :meth:`encode` returns a new one."""

    low = 0.0
    high = 1.0

    def __init__(self, game: Game[Any], blocks: Sequence[tuple[str, int]]) -> None:
        self.game = game
        self.blocks = list(blocks)
        self.offsets: dict[str, int] = {}
        total = 0
        for name, size in self.blocks:
            self.offsets[name] = total
            total += size
        self.shape: tuple[int, ...] = (total,)

    def collect(self, view: ViewT, features: Features) -> None:
        """Add the features of ``view``."""
        raise NotImplementedError

    def view(self, observation: Observation | ViewT) -> ViewT:
        """``observation`` as the game's typed view (read from its JSON, or as given)."""
        if isinstance(observation, dict):
            return cast(ViewT, typed_view(self.game, observation, checked=False))
        return observation

    def encode_into(self, observation: Observation | ViewT, out: Vector) -> Vector:
        """``observation`` (JSON or typed) encoded into ``out`` (a ``float32`` array of ``shape``);
        returns it."""
        if out.shape != self.shape or out.dtype != np.float32:
            raise ValueError(f"expected a float32 array of shape {self.shape}, got {out.dtype} {out.shape}")
        features = Features()
        self.collect(self.view(observation), features)
        return features.write(out)

    def encode(self, observation: Observation | ViewT) -> Vector:
        """``observation`` (JSON or typed) encoded into a new array."""
        return self.encode_into(observation, np.empty(self.shape, dtype=np.float32))

    def layout(self) -> list[tuple[str, int]]:
        """Block names and sizes, in order."""
        return list(self.blocks)


def encoder_input(encoder: Encoder, game: Game[Any], state: Any, seat: int | None) -> Any:
    """What ``encoder`` reads of ``seat``'s view of ``state``: for an :class:`ArrayEncoder`, the
    typed view built directly (:meth:`~shadowtable.core.game.Game.observe_typed`, no JSON in
    between); for any other encoder, ``game.observe``'s JSON.  Either encodes to the same bytes."""
    if isinstance(encoder, ArrayEncoder):
        return game.observe_typed(state, seat)
    return game.observe(state, seat)
