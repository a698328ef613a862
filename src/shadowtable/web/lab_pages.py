"""The designer's lab's pages: ``/lab`` (your runs and the choice of a game), ``/lab/new`` (the new
run form for one game and player count), ``/lab/{run}`` (its progress, then its figures) and the
forms that stop, resume and delete a run or open an odd game in the replay.

Only the accounts the operator allows reach them (the error page says who may, 403).  A refused
form is shown again with its values and the error naming the field; nothing is stored then.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response

from shadowtable.core.registry import available_games, game_class
from shadowtable.server.accounts import Account
from shadowtable.server.dependencies import CurrentAccount, ServiceDep
from shadowtable.server.errors import NotFound
from shadowtable.server.lab_replays import odd_game_table
from shadowtable.server.lab_runs import LabRuns, SpecRefused
from shadowtable.server.limits import per_client
from shadowtable.server.routes.lab import LabDep
from shadowtable.web.account_pages import when
from shadowtable.web.forms import form_of
from shadowtable.web.lab_form import DEFAULT_GAMES, PROBE_ROWS, FormError, drawn_seed, game_form, spec_of
from shadowtable.web.lab_plots import figure_view
from shadowtable.web.lab_rules import rules_in_words
from shadowtable.web.responses import PageRoute, page, see

router = APIRouter(include_in_schema=False, route_class=PageRoute)
READS = [per_client("lab_reads")]
STARTS = [per_client("lab_runs")]

STATUS_WORDS = {
    "queued": "waiting for a worker",
    "running": "playing",
    "stopped": "stopped",
    "done": "done",
    "failed": "failed",
    "deleting": "being deleted",
}


def page_account(lab: LabDep, account: CurrentAccount) -> Account:
    return lab.check_allowed(account)


PageAccount = Annotated[Account, Depends(page_account)]


def game_choices() -> list[dict[str, Any]]:
    """Every game with its player counts, for the choice of the new run's game."""
    out = []
    for game_id in available_games():
        spec = game_class(game_id).SPEC
        out.append({"id": game_id, "name": spec.name, "players": list(range(spec.min_players, spec.max_players + 1))})
    return out


@router.get("/lab", response_class=HTMLResponse, dependencies=READS)
async def lab_home(lab: LabDep, account: PageAccount) -> HTMLResponse:
    runs = await lab.runs(account)
    names = {game["id"]: game["name"] for game in game_choices()}
    for run in runs:
        run["game_name"] = names.get(run["game"], run["game"])
        run["when"] = when(run["created_at"])
        run["status_words"] = STATUS_WORDS.get(run["status"], run["status"])
    return page(
        "lab.html",
        runs=runs,
        games=game_choices(),
        most=lab.config.lab_max_runs,
        workers=lab.workers.size,
    )


def new_run_page(
    lab: LabRuns, form: dict[str, str], error: FormError | SpecRefused | None, status: int
) -> HTMLResponse:
    """The new run form for the game and player count of ``form``, with its values."""
    game_id = form.get("game", "")
    try:
        players = int(form.get("players", "0"))
    except ValueError:
        players = 0
    if game_id not in available_games():
        raise NotFound("no such game")
    spec = game_class(game_id).SPEC
    if not spec.min_players <= players <= spec.max_players:
        players = spec.min_players
    shown = game_form(game_id, players)
    values = dict(form)
    values.setdefault("seed", str(drawn_seed()))
    values.setdefault("games", str(min(DEFAULT_GAMES, lab.max_games())))
    return page(
        "lab_new.html",
        status_code=status,
        form=shown,
        values=values,
        error=None if error is None else {"field": error.field, "message": str(error)},
        rules=rules_in_words(game_id, shown),
        max_games=lab.max_games(),
        probe_rows=range(PROBE_ROWS),
        variant_rows=range(4),
    )


@router.get("/lab/new", response_class=HTMLResponse, dependencies=READS)
async def new_run_form(request: Request, lab: LabDep, account: PageAccount) -> HTMLResponse:
    return new_run_page(lab, dict(request.query_params), None, 200)


@router.post("/lab/new", dependencies=STARTS)
async def new_run(request: Request, lab: LabDep, account: PageAccount) -> Response:
    form = await form_of(request)
    try:
        run_id = await lab.create(account, spec_of(form))
    except (FormError, SpecRefused) as exc:
        return new_run_page(lab, form, exc, 422)
    return see(f"/lab/{run_id}")


@router.get("/lab/{run_id}", response_class=HTMLResponse, dependencies=READS)
async def run_page(run_id: str, lab: LabDep, account: PageAccount) -> HTMLResponse:
    run = await lab.run(account, run_id)
    spec = run["spec"]
    result = run["result"]
    figures = figure_view(result) if result is not None else None
    labels = figures["labels"] if figures is not None else []
    odd = [
        {**item, "label": labels[item["arm"]] if item["arm"] < len(labels) else str(item["arm"])}
        for item in (result or {}).get("odd_games", [])
    ]
    return page(
        "lab_run.html",
        run=run,
        spec=spec,
        game_name=game_class(run["game"]).SPEC.name if run["game"] in available_games() else run["game"],
        status_words=STATUS_WORDS,
        figures=figures,
        odd=odd,
        created=when(run["created_at"]),
        finished=when(run["finished_at"]),
    )


@router.post("/lab/{run_id}/stop", dependencies=READS)
async def stop_run(run_id: str, lab: LabDep, account: PageAccount) -> Response:
    await lab.stop(account, run_id)
    return see(f"/lab/{run_id}")


@router.post("/lab/{run_id}/resume", dependencies=STARTS)
async def resume_run(run_id: str, lab: LabDep, account: PageAccount) -> Response:
    await lab.resume(account, run_id)
    return see(f"/lab/{run_id}")


@router.post("/lab/{run_id}/delete", dependencies=READS)
async def delete_run(run_id: str, lab: LabDep, account: PageAccount) -> Response:
    await lab.delete(account, run_id)
    return see("/lab")


@router.post("/lab/{run_id}/odd/{arm}/{index}", dependencies=STARTS)
async def open_odd_game(
    run_id: str, arm: int, index: int, lab: LabDep, account: PageAccount, service: ServiceDep
) -> Response:
    table_id = await odd_game_table(lab, service, account, run_id, arm, index)
    return see(f"/replay/{table_id}?reveal=1")
