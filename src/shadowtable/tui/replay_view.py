"""A replay viewer: step through a finished game from one seat's view or a spectator's."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Static

from shadowtable.core.game import Game
from shadowtable.core.record import GameRecord, replay_states
from shadowtable.core.wording import without_card_ids
from shadowtable.tui.boards import board
from shadowtable.tui.terminal import need_terminal

LOG_LINES = 6
"""Lines of the log pane under the step counter: the latest of what the last steps told."""


class ReplayApp(App[None]):
    """Shows ``game.words.render(game.observe(state, seat))`` for each step of a record."""

    CSS = "#board { border: round $primary; padding: 0 1; } #log { height: 9; border: round $panel; }"
    BINDINGS = [
        Binding("right,n", "step(1)", "Next"),
        Binding("left,p", "step(-1)", "Back"),
        Binding("pagedown", "step(25)", "+25", show=False),
        Binding("pageup", "step(-25)", "-25", show=False),
        Binding("home", "jump(0)", "Start", priority=True),
        Binding("end", "jump(-1)", "End", priority=True),
        Binding("q", "quit", "Quit"),
    ]

    def run(self, *args: Any, **kwargs: Any) -> None:
        """Run the app in this terminal; refused (:class:`NoTerminal`) where there is none."""
        need_terminal("shadowtable view", kwargs)
        super().run(*args, **kwargs)

    def __init__(self, record: GameRecord, seat: int | None = None) -> None:
        super().__init__()
        steps = list(replay_states(record))
        self.game: Game[Any] = steps[0][0]
        self.states = [state for _, state in steps]
        self.actions = record.actions
        self.seat = seat
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="board"):
            yield Static(id="board-text")
        yield Static(id="log")
        yield Footer()

    def on_mount(self) -> None:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        self.sub_title = f"replay of {self.game.spec.name} as {who}"
        self.show()

    def show(self) -> None:
        state = self.states[self.index]
        self.query_one("#board-text", Static).update(board(self.game, self.game.observe(state, self.seat)))
        told = [
            line["text"]
            for i in range(max(0, self.index - 6), self.index)
            for line in self.game.words.events(self.states[i], self.actions[i], self.seat)
        ]
        header = f"step {self.index} of {len(self.actions)}"
        self.query_one("#log", Static).update(Text(without_card_ids("\n".join([header, *told[-LOG_LINES:]]))))

    def action_step(self, delta: int) -> None:
        self.index = min(max(self.index + delta, 0), len(self.states) - 1)
        self.show()

    def action_jump(self, where: int) -> None:
        self.index = where if where >= 0 else len(self.states) - 1
        self.show()
