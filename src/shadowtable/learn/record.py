"""What every saved policy names about itself, checked the same way for both file kinds
(``policy.pt`` from training, ``.npz`` for play without PyTorch)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

POLICY_FORMAT = "shadowtable-policy"
POLICY_VERSION = 1


def check_record(record: Any, path: Path) -> None:
    """Raise ``ValueError`` naming the problem unless ``record`` is a policy record of this version."""
    if not isinstance(record, dict) or record.get("format") != POLICY_FORMAT:
        raise ValueError(f"{path} is not a ShadowTable policy file")
    if record.get("version") != POLICY_VERSION:
        raise ValueError(f"{path}: policy format version {record.get('version')!r}, expected {POLICY_VERSION}")
