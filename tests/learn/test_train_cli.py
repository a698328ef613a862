"""``shadowtable train``: a run from the command line, resumed, played by ``tournament``; bad input."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from shadowtable.cli import main


def test_train_then_resume_then_play_the_policy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    base = ["train", "shadow-planet", "--players", "3", "--out", str(out), "--games", "6", "--no-progress"]
    assert main([*base, "--iterations", "1", "--eval-every", "1", "--eval-games", "3", "--hidden", "32"]) == 0
    said = capsys.readouterr().out
    assert "on cpu" in said and "win rate" in said and "policy:path=" in said
    assert main([*base, "--iterations", "2", "--resume"]) == 0
    with open(out / "progress.csv", newline="", encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    assert [r["iteration"] for r in rows] == ["1", "2"]
    assert rows[0]["win_vs_heuristic"] != ""
    capsys.readouterr()
    bots = f"policy:path={out / 'policy.pt'},heuristic*2"
    assert main(["tournament", "shadow-planet", "--players", "3", "--bots", bots, "--games", "3", "--no-progress"]) == 0
    assert "policy" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--hidden", "big"], "--hidden"),
        (["--hidden", "0"], "--hidden"),
        (["--league", "heuristic"], "--league"),
        (["--league", "heuristic=0"], "weights must not all be 0"),
        (["--league", "nosuchbot=1"], "unknown bot"),
        (["--imitate", "nosuchbot"], "unknown bot"),
        (["--resume"], "no checkpoint"),
        (["--device", "tpu"], "device"),
        (["--start-from", "no/such/policy.pt"], "no policy file"),
        (["--start-from", "shipped", "--hidden", "64"], "give --hidden 256,256"),
        (["--start-from", "shipped", "--imitate", "heuristic"], "would replace it"),
    ],
)
def test_bad_input_is_one_error_line_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    out = tmp_path / "run"
    code = main(["train", "shadow-planet", "--players", "3", "--out", str(out), "--no-progress", *extra])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error:") and err.count("\n") == 1 and message in err, err
    assert not out.exists() or not any(out.iterdir())


def test_a_folder_in_use_is_never_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mine.txt").write_text("keep", encoding="utf-8")
    code = main(["train", "shadow-planet", "--players", "3", "--out", str(tmp_path), "--no-progress"])
    assert code == 2 and "not empty" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]


def test_an_interrupted_run_says_how_to_go_on_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from shadowtable.learn import trainer

    real_step = trainer.step

    def interrupted_after_one(run: trainer.Run) -> dict[str, object]:
        if run.iteration == 1:
            raise KeyboardInterrupt
        return real_step(run)

    monkeypatch.setattr(trainer, "step", interrupted_after_one)
    out = tmp_path / "run"
    base = ["train", "shadow-planet", "--players", "3", "--out", str(out), "--games", "4", "--no-progress"]
    assert main([*base, "--iterations", "3", "--eval-every", "0", "--hidden", "16"]) == 130
    assert "1 iterations are saved" in capsys.readouterr().err
    monkeypatch.setattr(trainer, "step", real_step)
    assert main([*base, "--iterations", "3", "--resume"]) == 0
    assert (out / "policy.pt").exists()


def test_play_refuses_a_policy_bot_that_cannot_play_the_game_before_starting(
    capsys: pytest.CaptureFixture[str], hide_shipped_policy: Any
) -> None:
    hide_shipped_policy("shadowlord", 3)
    code = main(["play", "shadowlord", "--players", "3", "--bots", "policy"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error:") and err.count("\n") == 1 and "no policy ships for shadowlord" in err, err


def test_the_entropy_bonus_and_the_guide_are_saved_with_the_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["train", "shadowlord", "--players", "2", "--out", str(out), "--games", "2", "--iterations", "1"]
    extra = ["--eval-every", "0", "--hidden", "16", "--guide", "heuristic", "--guide-weight", "5"]
    extra += ["--entropy-coef", "0", "--guide-kl", "0.25", "--separate-value"]
    assert main([*args, *extra, "--no-progress"]) == 0
    saved = json.loads((out / "settings.json").read_text(encoding="utf-8"))
    assert saved["ppo"]["entropy_coef"] == 0.0 and saved["guide"] == "heuristic" and saved["guide_weight"] == 5.0
    assert saved["ppo"]["guide_kl"] == 0.25 and saved["separate_value"] is True
