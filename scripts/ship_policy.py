"""Ship a trained policy with the package: its weights in 16 bits in a NumPy file (played without
PyTorch), under the name the ``policy`` bot looks for when given no path
(``shadowtable/learn/policies/<configuration>.npz``: ``shadow-planet-4p.npz``,
``shadowlord-2p-modified.npz``).

    python scripts/ship_policy.py runs/sp4/policy.pt [--force]

Evaluate the shipped file itself (``--bots policy,heuristic*3``): it is what players meet.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from shadowtable.bots.ladder import config_name
from shadowtable.learn.network import load_policy_record
from shadowtable.learn.portable import write_portable

POLICIES = Path(__file__).resolve().parent.parent / "src" / "shadowtable" / "learn" / "policies"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("policy", type=Path, help="a policy.pt written by shadowtable train")
    parser.add_argument("--force", action="store_true", help="replace the policy shipped for that game")
    args = parser.parse_args()
    try:
        record = load_policy_record(args.policy)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out = POLICIES / f"{config_name(str(record['game']), int(record['players']), record.get('options') or {})}.npz"
    if out.exists() and not args.force:
        print(f"error: {out} exists; pass --force to replace it", file=sys.stderr)
        return 2
    state = {  # play reads the policy's trunk and head: a value trunk of its own stays out of the file
        name: tensor.float().numpy()
        for name, tensor in record["state_dict"].items()
        if not name.startswith("value_trunk.")
    }
    write_portable({**record, "state_dict": state}, out)
    print(f"shipped {out} ({out.stat().st_size // 1024} KiB); play it with --bots policy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
