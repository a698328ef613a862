"""``shadowtable train``: a policy trained by self-play PPO, resumable, played as ``policy:path=...``."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from shadowtable.cli.checks import check_bots, import_plugins, shown
from shadowtable.cli.errors import CliError
from shadowtable.cli.options import game_options
from shadowtable.cli.params import GameId, GameOptions, Players, Plugins
from shadowtable.core.registry import make
from shadowtable.sim.progress import batch_progress

if TYPE_CHECKING:
    from shadowtable.learn.trainer import Run, TrainSettings

Out = Annotated[Path, typer.Option(help="folder for the checkpoint, policy.pt and progress.csv")]
Iterations = Annotated[
    int, typer.Option(help="iterations in all (with --resume: up to this many; 0: the warm start only)", min=0)
]
Games = Annotated[int, typer.Option("--games", help="games per iteration", min=1)]
Seed = Annotated[int, typer.Option(help="seed of the run (networks, games, evaluations)")]
Device = Annotated[str, typer.Option(help="auto (CUDA where available), cpu or cuda")]
Threads = Annotated[int, typer.Option(help="CPU threads for PyTorch (1 is fastest for small batches)", min=1)]
Hidden = Annotated[str, typer.Option(help="hidden layer sizes, comma-separated")]
Lr = Annotated[float, typer.Option(help="Adam learning rate", min=0.0)]
SelfPlay = Annotated[float, typer.Option(help="share of games with the learner in every seat", min=0.0, max=1.0)]
League = Annotated[
    str, typer.Option(help="opponents of the other games with weights: bot specs and past (a past self)")
]
SnapshotEvery = Annotated[int, typer.Option(help="iterations between past selves joining the league", min=1)]
EvalEvery = Annotated[int, typer.Option(help="iterations between evaluations (0: none)", min=0)]
EvalGames = Annotated[int, typer.Option(help="games per evaluation, against each of heuristic and random", min=1)]
Shaping = Annotated[float, typer.Option(help="weight of potential-based reward shaping (0: off)", min=0.0)]
Imitate = Annotated[str, typer.Option(help="bot spec to copy before self-play starts (a warm start)")]
ImitateGames = Annotated[int, typer.Option(help="games of --imitate in every seat to copy from", min=1)]
ImitateEpochs = Annotated[int, typer.Option(help="passes over those games' choices", min=1)]
ImitateFrom = Annotated[
    str, typer.Option(help="demonstrations file to copy before self-play (scripts/collect_demonstrations.py)")
]
StartFrom = Annotated[
    str,
    typer.Option(help="a saved policy to go on training instead of fresh weights: policy.pt, a .npz, or shipped"),
]
Guide = Annotated[str, typer.Option(help="bot spec guiding the network: its choice's logit gets a learned bonus")]
GuideWeight = Annotated[float, typer.Option(help="the guide's bonus to start from (a logit)", min=0.0)]
GuideKl = Annotated[
    float, typer.Option(help="weight of a penalty on the policy's divergence from its guide (needs --guide)", min=0.0)
]
SeparateValue = Annotated[bool, typer.Option(help="give the value its own trunk, apart from the policy's")]
EntropyCoef = Annotated[float, typer.Option(help="weight of PPO's entropy bonus", min=0.0)]
Resume = Annotated[bool, typer.Option(help="go on with the run saved in --out")]
Force = Annotated[bool, typer.Option(help="start over in a non-empty --out")]
Progress = Annotated[bool, typer.Option(help="show a progress bar")]

RUN_FIELDS = (
    "game",
    "players",
    "options",
    "iterations",
    "games",
    "hidden",
    "lr",
    "self_play",
    "league",
    "snapshot_every",
    "eval_every",
    "eval_games",
    "shaping",
    "imitate",
    "imitate_games",
    "imitate_epochs",
    "imitate_from",
    "start_from",
    "guide",
    "guide_weight",
    "separate_value",
    "seed",
    "device",
)
"""The fields that go into the run's :class:`~shadowtable.learn.trainer.TrainSettings` (and its checkpoint)."""


@dataclass(frozen=True)
class TrainCommand:
    """One ``train`` command: the run's settings, where it is saved, and how this process runs it."""

    game: str
    players: int
    out: Path
    iterations: int = 100
    games: int = 64
    seed: int = 0
    device: str = "auto"
    threads: int = 1
    hidden: tuple[int, ...] = (256, 256)
    lr: float = 3e-4
    self_play: float = 0.5
    league: tuple[tuple[str, float], ...] = (("heuristic", 0.4), ("past", 0.4), ("random", 0.2))
    snapshot_every: int = 5
    eval_every: int = 5
    eval_games: int = 50
    shaping: float = 0.0
    imitate: str = ""
    imitate_games: int = 200
    imitate_epochs: int = 5
    imitate_from: str = ""
    start_from: str = ""
    guide: str = ""
    guide_weight: float = 4.0
    guide_kl: float = 0.0
    separate_value: bool = False
    entropy_coef: float = 0.01
    options: dict[str, Any] = field(default_factory=dict)
    resume: bool = False
    force: bool = False
    progress: bool = True
    plugins: tuple[str, ...] = ()

    @staticmethod
    def from_params(params: dict[str, Any]) -> TrainCommand:
        """The command from the ``train`` parameters by name, its text options parsed."""
        values = {name: value for name, value in params.items() if name not in ("option", "plugin")}
        values.update(hidden=hidden_sizes(params["hidden"]), league=league_weights(params["league"]))
        return TrainCommand(**values, options=game_options(params["option"]), plugins=tuple(params["plugin"] or []))


def train(
    ctx: typer.Context,
    game: GameId,
    players: Players,
    out: Out,
    iterations: Iterations = 100,
    games: Games = 64,
    seed: Seed = 0,
    device: Device = "auto",
    threads: Threads = 1,
    hidden: Hidden = "256,256",
    lr: Lr = 3e-4,
    self_play: SelfPlay = 0.5,
    league: League = "heuristic=0.4,past=0.4,random=0.2",
    snapshot_every: SnapshotEvery = 5,
    eval_every: EvalEvery = 5,
    eval_games: EvalGames = 50,
    shaping: Shaping = 0.0,
    imitate: Imitate = "",
    imitate_games: ImitateGames = 200,
    imitate_epochs: ImitateEpochs = 5,
    imitate_from: ImitateFrom = "",
    start_from: StartFrom = "",
    guide: Guide = "",
    guide_weight: GuideWeight = 4.0,
    guide_kl: GuideKl = 0.0,
    separate_value: SeparateValue = False,
    entropy_coef: EntropyCoef = 0.01,
    option: GameOptions = None,
    resume: Resume = False,
    force: Force = False,
    progress: Progress = True,
    plugin: Plugins = None,
) -> None:
    """Train a policy by self-play PPO; play it with the bot spec policy:path=OUT/policy.pt.

    With --resume, a run goes on with its saved settings; only --iterations may grow.
    """
    run_training(TrainCommand.from_params(ctx.params))


def hidden_sizes(text: str) -> tuple[int, ...]:
    """``--hidden "256,256"`` to layer sizes, each at least 1."""
    try:
        layers = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise CliError(f"--hidden {shown(text)}: expected sizes such as 256,256") from None
    if not layers or any(size < 1 for size in layers):
        raise CliError(f"--hidden {shown(text)}: expected sizes such as 256,256")
    return layers


def league_weights(text: str) -> tuple[tuple[str, float], ...]:
    """``--league "heuristic=0.5,past=0.5"`` to (kind, weight) pairs; the weights must not all be 0."""
    pairs: list[tuple[str, float]] = []
    for part in text.split(","):
        kind, sep, weight = part.strip().rpartition("=")
        try:
            value = float(weight)
        except ValueError:
            value = -1.0
        if not sep or not kind or value < 0:
            raise CliError(f"--league {shown(text)}: expected kind=weight pairs, e.g. heuristic=0.5,past=0.5")
        pairs.append((kind, value))
    if sum(w for _, w in pairs) <= 0:
        raise CliError("--league: the weights must not all be 0")
    return tuple(pairs)


def start_run(command: TrainCommand) -> Run:
    """Check the game, options and bots, then start or resume the run saved in ``command.out``."""
    from shadowtable.learn import trainer
    from shadowtable.learn.ppo import PPOSettings

    settings: TrainSettings = trainer.TrainSettings(
        **{name: getattr(command, name) for name in RUN_FIELDS},
        ppo=PPOSettings(entropy_coef=command.entropy_coef, guide_kl=command.guide_kl),
    )
    if command.guide_kl and not command.guide:
        raise CliError("--guide-kl keeps a policy near its guide: give --guide too")
    make(command.game, players=command.players, **command.options)  # fail fast on a bad game, count or option
    if command.iterations == 0 and not (command.imitate or command.imitate_from):
        raise CliError("--iterations 0 trains nothing: it runs the warm start alone (give --imitate or --imitate-from)")
    for kind, _ in command.league:
        if kind != "past":
            check_bots([kind], command.players)
    for spec in (command.imitate, command.guide):
        if spec:
            check_bots([spec], command.players)
    try:
        run = trainer.start(settings, command.out, resume=command.resume, force=command.force)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    run.settings = replace(run.settings, iterations=command.iterations)
    return run


def _reporter(run: Run, advance: Any) -> Any:
    """The callback printing each evaluation's win rates as the iterations go by."""

    def report(row: dict[str, Any]) -> None:
        advance(1)
        rates = [f"{row[f'win_vs_{b}']:.2f} against {b}" for b in run.settings.eval_against if row[f"win_vs_{b}"] != ""]
        if rates:
            typer.echo(f"iteration {row['iteration']}: win rate {', '.join(rates)}")

    return report


def _warmed(stats: dict[str, Any]) -> None:
    source = stats.get("teacher") or stats.get("bot")
    where = f" ({stats['demonstrations']})" if "demonstrations" in stats else ""
    typer.echo(
        f"warm start: copied {source} from {stats['decisions']} choices in {stats['games']} games{where}, "
        f"{stats['accuracy']:.0%} of them ranked first"
    )


def run_training(command: TrainCommand) -> None:
    """Start the run, then train it (:func:`~shadowtable.learn.trainer.train`) with progress; an
    interrupt keeps the iterations done and says how to go on (exit status 130)."""
    try:
        from shadowtable.learn import trainer
    except ImportError:
        raise CliError("shadowtable train needs PyTorch: pip install -e '.[train]'") from None
    import_plugins(command.plugins)
    trainer.use_threads(command.threads)
    run, out, iterations = start_run(command), command.out, command.iterations
    where = f"on {run.device}, iteration {run.iteration} of {iterations}"
    typer.echo(f"training {command.game} ({command.players} players) {where}")
    with batch_progress(iterations, enabled=command.progress) as bar:
        bar.start(run.iteration)
        try:
            trainer.train(run, out, iterations, _reporter(run, bar.advance), _warmed)
        except KeyboardInterrupt:
            typer.echo(
                f"interrupted: {run.iteration} iterations are saved in {out}; go on with the same command and --resume",
                err=True,
            )
            raise typer.Exit(130) from None
    typer.echo(f"policy in {out / trainer.POLICY}; play it with --bots policy:path={out / trainer.POLICY}")
