"""The conformance suite: every registered game, every configuration, the same checks."""

from __future__ import annotations

from typing import Any

import pytest

from shadowtable.core import (
    CHANCE,
    Game,
    IllegalActionError,
    InvalidOptionError,
    InvalidPlayersError,
    UnknownGameError,
    UnknownOptionError,
    available_games,
    game_class,
    make,
)
from shadowtable.core.rng import derived_rng, sample_outcome
from shadowtable.testing import (
    check_action_types,
    check_determinism,
    check_replay,
    checked_playout,
    non_integer_actions,
)

from .settings import CHUNK, SLOW_GAMES, settings_for


def _configurations() -> list[tuple[str, dict[str, Any]]]:
    return [(gid, cfg) for gid in available_games() for cfg in game_class(gid).standard_configurations()]


def _config_id(gid: str, cfg: dict[str, Any]) -> str:
    return "-".join([gid, *(f"{k}={v}" for k, v in cfg.items())])


CONFIGS = _configurations()
CONFIG_IDS = [_config_id(g, c) for g, c in CONFIGS]


def _new(gid: str, cfg: dict[str, Any]) -> Game[Any]:
    opts = dict(cfg)
    return make(gid, players=opts.pop("players"), **opts)


def _chunks(request: pytest.FixtureRequest, gid: str) -> list[range]:
    wanted = request.config.getoption("--conformance-games") or settings_for(gid)["games"]
    return [range(s, min(s + CHUNK, wanted)) for s in range(0, wanted, CHUNK)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "seed_chunk" in metafunc.fixturenames:
        params, ids = [], []
        for (gid, cfg), cid in zip(CONFIGS, CONFIG_IDS, strict=True):
            wanted = metafunc.config.getoption("--conformance-games") or settings_for(gid)["games"]
            for start in range(0, wanted, CHUNK):
                params.append((gid, cfg, range(start, min(start + CHUNK, wanted))))
                ids.append(f"{cid}-seeds{start}")
        metafunc.parametrize("seed_chunk", params, ids=ids)
    elif "config" in metafunc.fixturenames:
        metafunc.parametrize("config", CONFIGS, ids=CONFIG_IDS)


def test_random_playouts_keep_every_invariant(seed_chunk: tuple[str, dict[str, Any], range]) -> None:
    gid, cfg, seeds = seed_chunk
    full_every = settings_for(gid)["full_every"]
    for seed in seeds:
        stats = checked_playout(_new(gid, cfg), seed, full_every=full_every)
        assert stats.steps > 0


def test_same_seed_same_record_despite_global_random(config: tuple[str, dict[str, Any]]) -> None:
    gid, cfg = config
    for seed in (0, 1, 2):
        record = check_determinism(lambda: _new(gid, cfg), seed)
        assert record.actions


def test_records_round_trip_and_replay_identically(config: tuple[str, dict[str, Any]]) -> None:
    gid, cfg = config
    for seed in (3, 4, 5):
        record = check_replay(_new(gid, cfg), seed)
        assert record.returns is not None


def test_only_integers_are_actions_on_this_build(config: tuple[str, dict[str, Any]]) -> None:
    """``apply(s, True)`` is not action 1, ``"3"``, ``3.0`` and ``None`` are refused with
    IllegalActionError, and a NumPy integer is its value: through every entry point, on whichever
    build runs (CI runs this file on the compiled build and again on the pure one)."""
    gid, cfg = config
    game = _new(gid, cfg)
    rng = derived_rng(7, "action types")
    state, bools_probed = game.initial_state(), set()
    for step in range(60):
        if game.is_terminal(state):
            break
        legal = game.legal_actions(state)
        check_action_types(game, state, legal, f"{gid} {cfg} step {step}")
        bools_probed |= {flag for flag in (False, True) if int(flag) in legal}
        if game.current_player(state) == CHANCE:
            state = game.apply(state, sample_outcome(game.chance_outcomes(state), rng))
        else:
            state = game.apply(state, legal[rng.randrange(len(legal))])
    assert bools_probed, "no state had action 0 or 1 legal: True and False were never probed where they matter"


def test_spec_is_consistent(config: tuple[str, dict[str, Any]]) -> None:
    gid, cfg = config
    game = _new(gid, cfg)
    spec = game.spec
    assert spec.id == gid
    assert spec.min_players <= game.players <= spec.max_players
    assert spec.num_distinct_actions > 0 and spec.max_game_length > 0
    assert spec.min_utility <= spec.max_utility
    assert set(game.options) == {o.name for o in spec.options}
    for opt in spec.options:
        assert opt.validate(opt.default) == opt.default or opt.default is None


def test_make_rejects_bad_ids_players_and_options(config: tuple[str, dict[str, Any]]) -> None:
    gid, cfg = config
    spec = game_class(gid).SPEC
    with pytest.raises(UnknownGameError):
        make(gid + "-nope", players=cfg["players"])
    with pytest.raises(InvalidPlayersError):
        make(gid, players=spec.max_players + 1)
    with pytest.raises(InvalidPlayersError):
        make(gid, players=spec.min_players - 1)
    with pytest.raises(UnknownOptionError):
        make(gid, players=cfg["players"], no_such_option=1)
    for opt in spec.options:
        with pytest.raises(InvalidOptionError):
            make(gid, players=cfg["players"], **{opt.name: object()})


@pytest.mark.slow
def test_ten_thousand_random_games(config: tuple[str, dict[str, Any]]) -> None:
    gid, cfg = config
    per_config = SLOW_GAMES // sum(1 for g, _ in CONFIGS if g == gid)
    for seed in range(per_config):
        checked_playout(_new(gid, cfg), 1_000_000 + seed, full_every=10_000)


@pytest.mark.parametrize("action", non_integer_actions(1), ids=repr)
def test_the_kernel_itself_refuses_what_is_not_an_integer(action: object) -> None:
    """A game that hands actions straight to the kernel (as tests/third_game does) keeps the
    contract too: the kernel's entry points take any object and check it, on both builds."""
    from third_game.game import KERNEL, TinyStackGame

    game = TinyStackGame(2)
    state = game.initial_state()
    assert 1 in game.legal_actions(state)
    before = game.state_to_json(state)
    for call in (
        lambda: KERNEL.apply(None, state, action),
        lambda: KERNEL.apply(None, state, action, checked=False),
        lambda: KERNEL.apply_recorded(None, state, action),
        lambda: KERNEL.check_legal(None, state, action),
    ):
        with pytest.raises(IllegalActionError):
            call()
    assert game.state_to_json(state) == before
