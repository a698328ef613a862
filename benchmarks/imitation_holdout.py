"""Can a network learn a teacher's choices? Train on the first rows of a demonstrations file and
measure on the last ones, before spending a ladder run on the copy.

    python benchmarks/imitation_holdout.py runs/sl2-level2.npz --weights 4 --lrs 3e-4 --epochs 2,4,8,16
    python benchmarks/imitation_holdout.py runs/sl2-level2.npz --weights 0.5,2 --lrs 1e-3 --epochs 4,8,16

The rows are in game order (``scripts/collect_demonstrations.py``), so the last ``--holdout``
share is, but for one game cut in two, games never trained on. For each setting (guide weight,
learning rate, passes) a fresh network (seeded, one CPU thread) is trained as the warm start trains
it and scored on the held-out rows: the share of the teacher's choices it ranks first, and, where
the file kept a guide's choices, the share of the teacher's departures from the guide it ranks
first and the share of rows where it departs from the guide when the teacher did not. Copying
the guide alone scores the guide's agreement with the teacher, which a copy must beat to be
worth playing. Writes the table as JSON with ``--out``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from pathlib import Path
from typing import Any

import torch

from shadowtable.core.registry import make
from shadowtable.learn.imitation import Demonstrations, imitate, load_demonstrations
from shadowtable.learn.network import PolicyValueNet
from shadowtable.rl.encoding import encoder_for


def rows(demos: Demonstrations, start: int, stop: int) -> Demonstrations:
    """Rows ``start`` to ``stop`` of ``demos``."""
    guides = None if demos.guides is None else demos.guides[start:stop]
    return Demonstrations(
        demos.observations[start:stop],
        demos.masks[start:stop],
        demos.actions[start:stop],
        demos.returns[start:stop],
        guides,
        demos.meta,
    )


def scored(net: PolicyValueNet, held: Demonstrations) -> dict[str, float]:
    """How ``net`` ranks the held-out rows' choices."""
    guides = None if held.guides is None or not net.guide_spec else torch.from_numpy(held.guides)
    with torch.no_grad():
        logits, _ = net(torch.from_numpy(held.observations), torch.from_numpy(held.masks), guides)
    top = logits.argmax(dim=-1).numpy()
    result = {"agreement": float((top == held.actions).mean())}
    if held.guides is not None:
        departs = held.guides != held.actions
        result["departures_found"] = float((top[departs] == held.actions[departs]).mean()) if departs.any() else 0.0
        result["wrong_departures"] = float(((top != held.guides) & ~departs).mean())
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demonstrations", type=Path)
    parser.add_argument("--holdout", type=float, default=0.1, help="the last share of rows kept apart")
    parser.add_argument("--weights", default="4", help="guide weights to start from (0 with no guide)")
    parser.add_argument("--lrs", default="3e-4")
    parser.add_argument("--epochs", default="2,4,8,16")
    parser.add_argument("--hidden", default="256,256")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    try:
        demos = load_demonstrations(args.demonstrations)
        weights = [float(x) for x in args.weights.split(",")]
        lrs = [float(x) for x in args.lrs.split(",")]
        epochs = [int(x) for x in args.epochs.split(",")]
        hidden = tuple(int(x) for x in args.hidden.split(","))
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not 0 < args.holdout < 1 or len(demos) < 2:
        print("error: --holdout must be between 0 and 1, and the file must hold two rows or more", file=sys.stderr)
        return 2
    meta = demos.meta
    game = make(meta["game"], players=int(meta["players"]), **dict(meta.get("options") or {}))
    cut = len(demos) - max(1, int(len(demos) * args.holdout))
    train, held = rows(demos, 0, cut), rows(demos, cut, len(demos))
    torch.set_num_threads(1)
    guide = str(meta.get("guide") or "")
    baseline = float((held.guides == held.actions).mean()) if held.guides is not None else None
    table: list[dict[str, Any]] = []
    print(f"{len(train)} rows to train on, {len(held)} held out; the guide alone agrees with the teacher: {baseline}")
    for weight, lr, passes in itertools.product(weights, lrs, epochs):
        torch.manual_seed(args.seed)
        net = PolicyValueNet(
            math.prod(encoder_for(game).shape),
            game.spec.num_distinct_actions,
            hidden,
            guide=guide if weight > 0 else "",
            guide_weight=weight,
        )
        optimizer = torch.optim.Adam(net.parameters(), lr=lr, eps=1e-5)
        stats = imitate(net, optimizer, train, epochs=passes, generator=torch.Generator().manual_seed(args.seed))
        row = {"guide_weight": weight, "lr": lr, "epochs": passes, "train_agreement": stats.accuracy}
        row.update(scored(net, held))
        table.append(row)
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()}), flush=True)
    if args.out is not None:
        result = {
            "demonstrations": str(args.demonstrations),
            "meta": meta,
            "rows": len(demos),
            "held_out": len(held),
            "guide_alone": baseline,
            "settings": table,
        }
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
