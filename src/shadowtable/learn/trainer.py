"""Self-play training: PPO against a league of past selves, the heuristic and the random bot.

Each iteration plays ``games`` games in lockstep (:mod:`shadowtable.learn.selfplay`): a share of
them with the learner in every seat (pure self-play), the rest with the learner in one seat
(rotating) against one kind of opponent drawn from the league. Its decisions train the network
by PPO (:mod:`shadowtable.learn.ppo`). Every ``snapshot_every`` iterations a frozen copy joins
the league (which starts with the untrained network); every ``eval_every`` iterations the
policy plays ``eval_games`` games against each bot of ``eval_against`` (one seat each,
rotating).

With ``imitate`` set, the network first copies that bot's choices (:mod:`shadowtable.learn.imitation`),
once, before the first iteration. With ``guide`` set instead, the network adds a learned weight to
the logit of that bot's choice at every decision, so it starts from the bot's own play and learns
where to depart from it.

Everything a run needs to go on lives in ``out/checkpoint.pt`` (written atomically after every
iteration): the settings, the network, the optimiser, the league and every random generator's
state, so a resumed run makes exactly the updates an uninterrupted one makes. ``out/policy.pt``
is the latest policy (for the ``policy`` bot) and ``out/progress.csv`` one row per iteration.
"""

from __future__ import annotations

import copy
import csv
import json
import math
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import torch

from shadowtable.bots.evaluation import evaluator, evaluators_for
from shadowtable.bots.policy_bot import shipped_policy
from shadowtable.bots.registry import make_bot
from shadowtable.core.game import Game
from shadowtable.core.registry import make
from shadowtable.core.rng import derive_seed
from shadowtable.learn.imitation import demonstrations, demonstrations_meta, imitate, load_demonstrations
from shadowtable.learn.network import PolicyValueNet, load_policy_record, save_policy
from shadowtable.learn.portable import SUFFIX as PORTABLE_SUFFIX
from shadowtable.learn.portable import read_record
from shadowtable.learn.ppo import PPOSettings, make_batch, update
from shadowtable.learn.selfplay import BotPlayer, Finished, NetPlayer, Player, Potential, play_batch
from shadowtable.rl.encoding import encoder_for

CHECKPOINT = "checkpoint.pt"
POLICY = "policy.pt"
PROGRESS = "progress.csv"
IMITATION = "imitation.json"
PROGRESS_FIELDS = (
    "iteration",
    "games",
    "decisions",
    "seconds",
    "mean_return",
    "policy_loss",
    "value_loss",
    "entropy",
    "approx_kl",
    "clip_fraction",
)
"""The progress file's columns, then ``win_vs_<bot>`` for each evaluation opponent."""


@dataclass(frozen=True)
class TrainSettings:
    """One training run's settings (saved in its checkpoint)."""

    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    iterations: int = 100
    games: int = 64
    """Games per iteration."""
    hidden: tuple[int, ...] = (256, 256)
    lr: float = 3e-4
    ppo: PPOSettings = PPOSettings()
    self_play: float = 0.5
    """Share of games with the learner in every seat."""
    league: tuple[tuple[str, float], ...] = (("heuristic", 0.4), ("past", 0.4), ("random", 0.2))
    """Opponent kinds of the other games, with weights: bot specs, or ``past`` (a past self)."""
    snapshot_every: int = 5
    league_size: int = 5
    """Past selves kept (the oldest leaves first)."""
    eval_every: int = 5
    eval_games: int = 50
    eval_against: tuple[str, ...] = ("heuristic", "random")
    """Bots the policy is evaluated against (one seat each, rotating)."""
    shaping: float = 0.0
    """Weight of potential-based reward shaping by the game's first state evaluation (0: off)."""
    imitate: str = ""
    """A bot spec to copy before self-play starts (:mod:`shadowtable.learn.imitation`; empty: none)."""
    imitate_games: int = 200
    imitate_epochs: int = 5
    imitate_from: str = ""
    """A demonstrations file to copy instead of playing ``imitate`` (written by
    ``scripts/collect_demonstrations.py``; empty: none)."""
    guide: str = ""
    """A bot spec guiding the network: a learned weight, starting at ``guide_weight``, is added to
    the logit of that bot's choice (:class:`~shadowtable.learn.network.PolicyValueNet`; empty: none)."""
    guide_weight: float = 4.0
    separate_value: bool = False
    """Give the value a trunk of its own (the value loss then leaves the policy's features alone)."""
    start_from: str = ""
    """A saved policy whose weights the network starts from instead of fresh ones: a
    ``policy.pt``, a ``.npz`` (16-bit weights widened), or ``shipped`` (the configuration's
    shipped policy); it must have been made for the same game, options and network (empty: none)."""
    seed: int = 0
    device: str = "auto"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["hidden"], data["league"] = list(self.hidden), [list(p) for p in self.league]
        data["eval_against"] = list(self.eval_against)
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> TrainSettings:
        known = {f.name for f in fields(TrainSettings)}
        values = {k: v for k, v in data.items() if k in known}
        values["hidden"] = tuple(values.get("hidden", (256, 256)))
        values["league"] = tuple((str(k), float(w)) for k, w in values.get("league", ()))
        values["eval_against"] = tuple(str(b) for b in values.get("eval_against", ("heuristic", "random")))
        values["ppo"] = PPOSettings(**values.get("ppo", {}))
        return TrainSettings(**values)


def pick_device(name: str) -> torch.device:
    """``auto``: CUDA where it is available, else the CPU; ``cpu``; ``cuda`` or ``cuda:N``.
    Raises ``ValueError`` for anything else, and for CUDA where there is none."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name != "cpu" and name != "cuda" and not (name.startswith("cuda:") and name[5:].isdigit()):
        raise ValueError(f"device {name!r}: use auto, cpu, cuda or cuda:N")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError(f"device {name!r}: CUDA is not available here (use auto or cpu)")
    return torch.device(name)


def use_threads(threads: int) -> None:
    """PyTorch's CPU threads for this process.  The batches of play are small: on two cores one
    thread ran a forward pass of 32 observations in 0.9 ms, two threads in 23 ms."""
    torch.set_num_threads(threads)


@dataclass
class Run:
    """A training run in memory."""

    settings: TrainSettings
    game: Game[Any]
    net: PolicyValueNet
    optimizer: torch.optim.Optimizer
    rng: random.Random
    generator: torch.Generator
    device: torch.device
    league: list[PolicyValueNet] = field(default_factory=list)
    iteration: int = 0
    imitation: dict[str, Any] | None = None
    """How the warm start went (None: not done, or not asked for)."""


def new_run(settings: TrainSettings, *, starting: bool = True) -> Run:
    """A fresh run: a new network seeded from ``settings.seed``, or with ``settings.start_from``'s
    weights where it names a policy and the run is ``starting`` (a resumed run takes its weights
    from its checkpoint instead)."""
    game = make(settings.game, players=settings.players, **settings.options)
    torch.manual_seed(derive_seed(settings.seed, "init") % 2**63)
    net = PolicyValueNet(
        math.prod(encoder_for(game).shape),
        game.spec.num_distinct_actions,
        settings.hidden,
        guide=settings.guide,
        guide_weight=settings.guide_weight,
        separate_value=settings.separate_value,
    )
    if settings.start_from and starting:
        net.load_state_dict(starting_weights(settings, net))
    device = pick_device(settings.device)
    net.to(device)
    net.eval()
    generator = torch.Generator().manual_seed(derive_seed(settings.seed, "torch") % 2**63)
    optimizer = torch.optim.Adam(net.parameters(), lr=settings.lr, eps=1e-5)
    rng = random.Random(derive_seed(settings.seed, "games"))
    return Run(settings, game, net, optimizer, rng, generator, device, league=[_frozen(net)])


def starting_weights(settings: TrainSettings, net: PolicyValueNet) -> dict[str, torch.Tensor]:
    """The weights of ``settings.start_from`` for ``net``; ``ValueError`` naming the problem where
    there is no such policy or it was made for another game, player count, options or network."""
    path = start_from_path(settings)
    record = read_record(path) if path.suffix == PORTABLE_SUFFIX else load_policy_record(path)
    made_for = (record.get("game"), record.get("players"), dict(record.get("options") or {}))
    if made_for != (settings.game, settings.players, dict(settings.options)):
        raise ValueError(
            f"--start-from {settings.start_from}: a policy for {made_for[0]} with {made_for[1]} players"
            f" and options {made_for[2]}, not for this run ({settings.game} with {settings.players} players"
            f" and options {dict(settings.options)})"
        )
    hidden = [int(h) for h in record.get("hidden", ())]
    guide, separate = str(record.get("guide", "")), bool(record.get("separate_value", False))
    if (hidden, guide, separate) != (list(net.hidden), net.guide_spec, net.separate_value) or (
        record.get("obs_size"),
        record.get("num_actions"),
    ) != (net.obs_size, net.num_actions):
        flags = f"--hidden {','.join(map(str, hidden))}" + (f" --guide {guide}" if guide else "")
        flags += " --separate-value" if separate else ""
        raise ValueError(f"--start-from {settings.start_from}: its network differs from this run's; give {flags}")
    weights = {name: torch.as_tensor(value).float() for name, value in record["state_dict"].items()}
    fresh = net.state_dict()
    missing = [name for name in fresh if name not in weights]
    if set(weights) - set(fresh) or any(not name.startswith(VALUE_TRUNK) for name in missing):
        raise ValueError(f"--start-from {settings.start_from}: its weights do not fit this run's network")
    return {**{name: fresh[name] for name in missing}, **weights}


VALUE_TRUNK = "value_trunk."
"""The value's own trunk (``--separate-value``), which a shipped file leaves out (play does not read
it): a run started from such a file gives it fresh weights."""


def start_from_path(settings: TrainSettings) -> Path:
    """The file ``settings.start_from`` names (``shipped``: the configuration's shipped policy)."""
    if settings.start_from != "shipped":
        return Path(settings.start_from)
    shipped = shipped_policy(settings.game, settings.players, settings.options)
    if shipped is None:
        raise ValueError(f"--start-from shipped: no policy ships for {settings.game} with {settings.players} players")
    return shipped


def _frozen(net: PolicyValueNet) -> PolicyValueNet:
    snapshot = copy.deepcopy(net)
    snapshot.eval()
    for parameter in snapshot.parameters():
        parameter.requires_grad_(False)
    return snapshot


def _opponent(run: Run, kind: str) -> Player:
    if kind == "past":
        return NetPlayer(run.league[run.rng.randrange(len(run.league))])
    return BotPlayer(make_bot(kind))


def lineups(run: Run) -> list[list[Player]]:
    """This iteration's games: self-play, and the learner in one seat against the league."""
    learner = NetPlayer(run.net, learning=True)
    players = run.settings.players
    kinds, weights = zip(*run.settings.league, strict=True)
    out: list[list[Player]] = []
    for index in range(run.settings.games):
        if run.rng.random() < run.settings.self_play:
            out.append([learner] * players)
            continue
        opponent = _opponent(run, run.rng.choices(kinds, weights)[0])
        seat = (run.iteration * run.settings.games + index) % players
        out.append([learner if s == seat else opponent for s in range(players)])
    return out


def potential_of(settings: TrainSettings) -> Potential | None:
    """The shaping potential: the seat's share by the game's first registered state evaluation."""
    if not settings.shaping:
        return None
    names = evaluators_for(settings.game)
    if not names:
        raise ValueError(f"{settings.game} has no state evaluation to shape rewards with")
    evaluate = evaluator(settings.game, names[0])
    return lambda game, state, seat: float(evaluate(game, state)[seat])


def win_rate(run: Run, opponent: str, games: int, seed: int) -> float:
    """The share of ``games`` the policy wins, one seat each (rotating) against ``opponent``."""
    players, top = run.settings.players, run.game.spec.max_utility
    learner = NetPlayer(run.net)
    lineup = [
        [learner if s == g % players else BotPlayer(make_bot(opponent)) for s in range(players)] for g in range(games)
    ]
    finished = play_batch(run.game, lineup, random.Random(seed), device=run.device)
    wins = sum(1 for g, f in enumerate(finished) if f.returns[g % players] >= top)
    return wins / max(1, len(finished))


def step(run: Run) -> dict[str, Any]:
    """One iteration: play, update, maybe snapshot and evaluate; its progress row."""
    started = time.perf_counter()
    settings = run.settings
    finished: list[Finished] = play_batch(
        run.game,
        lineups(run),
        run.rng,
        shaping=settings.shaping,
        potential=potential_of(settings),
        device=run.device,
    )
    trajectories = [t for f in finished for t in f.trajectories]
    batch = make_batch(trajectories, settings.ppo)
    stats = update(run.net, run.optimizer, batch, settings.ppo, run.generator, run.device)
    run.iteration += 1
    if run.iteration % settings.snapshot_every == 0:
        run.league = [*run.league, _frozen(run.net)][-settings.league_size :]
    row: dict[str, Any] = {
        "iteration": run.iteration,
        "games": len(finished),
        "decisions": len(batch),
        "mean_return": sum(f.returns[t.seat] for f in finished for t in f.trajectories) / max(1, len(trajectories)),
        **asdict(stats),
    }
    evaluating = settings.eval_every and run.iteration % settings.eval_every == 0
    for opponent in settings.eval_against:
        seed = derive_seed(settings.seed, "eval", run.iteration, opponent)
        row[f"win_vs_{opponent}"] = win_rate(run, opponent, settings.eval_games, seed) if evaluating else ""
    row["seconds"] = time.perf_counter() - started
    return row


def checkpoint_data(run: Run) -> dict[str, Any]:
    """Everything :func:`resume_run` needs to go on exactly where the run stands."""
    return {
        "format": "shadowtable-training",
        "settings": run.settings.to_json(),
        "iteration": run.iteration,
        "net": run.net.state_dict(),
        "optimizer": run.optimizer.state_dict(),
        "league": [snapshot.state_dict() for snapshot in run.league],
        "rng": run.rng.getstate(),
        "generator": run.generator.get_state(),
        "torch_rng": torch.get_rng_state(),
        "imitation": run.imitation,
    }


def save_checkpoint(run: Run, out: Path) -> None:
    """Write the checkpoint and the latest policy, each through a temporary file."""
    tmp = out / (CHECKPOINT + ".tmp")
    torch.save(checkpoint_data(run), tmp)
    tmp.replace(out / CHECKPOINT)
    save_policy(run.net, out / POLICY, run.settings.game, run.settings.players, run.settings.options)


def resume_run(out: Path) -> Run:
    """The run saved in ``out``; raises ``ValueError`` if there is none."""
    path = out / CHECKPOINT
    if not path.exists():
        raise ValueError(f"no checkpoint in {out} to resume")
    data = torch.load(path, map_location="cpu", weights_only=True)
    if not isinstance(data, dict) or data.get("format") != "shadowtable-training":
        raise ValueError(f"{path} is not a ShadowTable training checkpoint")
    run = new_run(TrainSettings.from_json(data["settings"]), starting=False)
    run.net.load_state_dict(data["net"])
    run.optimizer.load_state_dict(data["optimizer"])
    run.league = []
    for state in data["league"]:
        snapshot = _frozen(run.net)
        snapshot.load_state_dict(state)
        run.league.append(snapshot)
    run.rng.setstate(_as_random_state(data["rng"]))
    run.generator.set_state(data["generator"])
    torch.set_rng_state(data["torch_rng"])
    run.iteration = int(data["iteration"])
    run.imitation = data.get("imitation")
    return run


def _as_random_state(state: Any) -> tuple[Any, ...]:
    version, internal, gauss = state
    return int(version), tuple(int(x) for x in internal), gauss


def start(settings: TrainSettings, out: Path, *, resume: bool = False, force: bool = False) -> Run:
    """A run writing to ``out``: resumed from its checkpoint, or new (``out`` must then be empty
    or absent, unless ``force``)."""
    check_warm_start(settings)
    pick_device(settings.device)
    if resume:
        run = resume_run(out)
        _trim_progress(out / PROGRESS, run.iteration, progress_fields(run.settings))
        return run
    if out.exists() and any(out.iterdir()) and not force:
        raise ValueError(f"{out} is not empty; pass --resume to go on with its run or --force to start over")
    run = new_run(settings)  # before the folder changes: a policy to start from may be refused
    out.mkdir(parents=True, exist_ok=True)
    for name in (CHECKPOINT, POLICY, PROGRESS, IMITATION):
        (out / name).unlink(missing_ok=True)
    (out / "settings.json").write_text(json.dumps(settings.to_json(), indent=2) + "\n", encoding="utf-8")
    return run


def check_warm_start(settings: TrainSettings) -> None:
    """``ValueError`` for a warm start that cannot be: two sources, copying the guide itself, or
    a demonstrations file of another game or without the guide's choices a guided network needs."""
    if settings.imitate and settings.imitate_from:
        raise ValueError("give --imitate (a bot to play) or --imitate-from (saved demonstrations), not both")
    if settings.start_from and (settings.imitate or settings.imitate_from):
        raise ValueError(
            "--start-from starts from a trained policy: a warm start (--imitate or --imitate-from) would replace it"
        )
    if settings.guide and settings.imitate == settings.guide:
        raise ValueError("a guided network starts from its guide's play: copying the guide itself teaches it nothing")
    if not settings.imitate_from:
        return
    meta = demonstrations_meta(Path(settings.imitate_from))
    wanted = {"game": settings.game, "players": settings.players, "options": dict(settings.options)}
    found = {key: meta.get(key) for key in wanted}
    if found != wanted:
        raise ValueError(f"{settings.imitate_from}: demonstrations of {found}, not of {wanted}")
    if settings.guide and meta.get("guide") != settings.guide:
        raise ValueError(
            f"{settings.imitate_from}: kept the choices of guide {meta.get('guide') or 'none'!r}, "
            f"not of {settings.guide!r}"
        )


def progress_fields(settings: TrainSettings) -> list[str]:
    """The progress file's columns for a run with ``settings``."""
    return [*PROGRESS_FIELDS, *(f"win_vs_{opponent}" for opponent in settings.eval_against)]


def _trim_progress(path: Path, iterations: int, columns: list[str]) -> None:
    """Drop progress rows after the checkpoint's iteration (an iteration cut short)."""
    if not path.exists():
        return
    with open(path, newline="", encoding="utf-8") as stream:
        rows = [r for r in csv.DictReader(stream) if int(r["iteration"]) <= iterations]
    _write_rows(path, rows, "w", columns)


def _write_rows(path: Path, rows: list[dict[str, Any]], mode: str, columns: list[str]) -> None:
    """Rows to the progress file: ``a`` appends, ``w`` rewrites (a new file gets the header)."""
    new = mode == "w" or not path.exists()
    with open(path, "w" if new else "a", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, columns, extrasaction="ignore")
        if new:
            writer.writeheader()
        writer.writerows(rows)


def warm_start(run: Run) -> dict[str, Any]:
    """Copy ``settings.imitate``'s choices into the network; the new network becomes the league's
    first past self. Returns (and keeps in the run) what it learnt from and how well."""
    settings = run.settings
    started = time.perf_counter()
    if settings.imitate_from:
        demos = load_demonstrations(Path(settings.imitate_from))
        source = {"demonstrations": settings.imitate_from, **demos.meta}
    else:
        demos = demonstrations(run.game, settings.imitate, settings.imitate_games, run.rng)
        source = {"bot": settings.imitate, "games": settings.imitate_games}
    stats = imitate(
        run.net, run.optimizer, demos, epochs=settings.imitate_epochs, generator=run.generator, device=run.device
    )
    run.league = [_frozen(run.net)]
    run.imitation = {
        **source,
        **asdict(stats),
        "seconds": time.perf_counter() - started,
    }
    return run.imitation


def train(
    run: Run,
    out: Path,
    until: int,
    on_iteration: Callable[[dict[str, Any]], None] | None = None,
    on_warm_start: Callable[[dict[str, Any]], None] | None = None,
) -> Run:
    """Warm start where asked (once, before the first iteration), then iterate until ``until``
    iterations are done, saving after each."""
    if (run.settings.imitate or run.settings.imitate_from) and run.iteration == 0 and run.imitation is None:
        stats = warm_start(run)
        (out / IMITATION).write_text(json.dumps(stats, indent=2) + "\n", encoding="utf-8")
        save_checkpoint(run, out)
        if on_warm_start is not None:
            on_warm_start(stats)
    while run.iteration < until:
        row = step(run)
        _write_rows(out / PROGRESS, [row], "a", progress_fields(run.settings))
        save_checkpoint(run, out)
        if on_iteration is not None:
            on_iteration(row)
    return run
