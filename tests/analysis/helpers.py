"""Records and settings shared by the analysis tests."""

from __future__ import annotations

from pathlib import Path

from shadowtable.analysis import AnalysisSettings, DecisionPoint, decision_points
from shadowtable.core.record import GameRecord

DATA = Path(__file__).parent / "data"


def tiny_record(cards: list[int], history: list[int], rounds: int = 2) -> GameRecord:
    """A finished Tiny Showdown record: the deal, then every seat's pass (0) or raise (1)."""
    from shadowtable.core.record import replay_final

    record = GameRecord(
        game="tiny-showdown",
        version="1",
        players=len(cards),
        options={"rounds": rounds},
        seats=[f"seat-{seat}" for seat in range(len(cards))],
        actions=[*cards, *history],
    )
    game, state = replay_final(record)
    returns = game.returns(state) if game.is_terminal(state) else None
    return GameRecord(**{**record.__dict__, "returns": returns})


def planted(name: str) -> GameRecord:
    """A recorded heuristic game whose last decision was replaced by a planted blunder."""
    return GameRecord.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def last_decision(record: GameRecord, seat: int) -> DecisionPoint:
    """The last decision of ``seat`` in ``record``."""
    return list(decision_points(record, seat))[-1]


FAST = AnalysisSettings(rollouts=8, policy="random")
