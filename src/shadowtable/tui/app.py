"""The Textual application: play against bots, hot-seat with friends, or watch bots play.

No game is lost to the app: quitting saves a game in progress, and any unexpected exception saves
the game before the app ends; either way :attr:`PlayApp.exit_report` says where the game was saved
and the exact command that resumes it.
"""

from __future__ import annotations

import asyncio
import signal
import tempfile
import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Header, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from shadowtable.core.errors import ShadowTableError
from shadowtable.core.record import GameRecord
from shadowtable.core.table import Choice
from shadowtable.core.wording import HEADLINE, SeatResult, first_per_reading, without_card_ids
from shadowtable.saves import create_new_save, create_save_at, overwrite_save, resume_command
from shadowtable.tui.boards import board
from shadowtable.tui.details import action_details, how_to_win
from shadowtable.tui.table import Table
from shadowtable.tui.terminal import need_terminal

STOP_SIGNALS = tuple(
    number for number in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if number is not None
)
"""The signals that end a game in the terminal after saving it (SIGHUP: the terminal closed)."""

COLLAPSE_ABOVE = 8
"""With more legal actions than this, actions that differ in a detail are offered as one group."""

FIGHT_KINDS = frozenset({"duel", "battle", "blast"})
"""Event kinds shown as the latest fight's breakdown."""

CSS = """
#board { width: 2fr; border: round $primary; padding: 0 1; }
#side { width: 1fr; }
#status { height: auto; border: round $secondary; padding: 0 1; }
#actions { height: 1fr; min-height: 6; border: round $accent; }
#message { height: auto; color: $warning; padding: 0 1; }
#help { height: auto; max-height: 60%; border: round $panel; padding: 0 1; display: none; }
#help.shown { display: block; }
#help-text { height: auto; }
#detail { height: auto; max-height: 12; border: round $panel; padding: 0 1; }
#main { height: 1fr; }
#bottom { height: 30%; min-height: 5; max-height: 12; }
#recent { width: 1fr; border: round $secondary; padding: 0 1; }
#log { width: 1fr; border: round $panel; padding: 0 1; }
#log-text, #recent-text { height: auto; }
HandOver { align: center middle; }
HandOver > Vertical {
    width: 60; height: auto; border: thick $primary; padding: 1 2; background: $surface;
}
"""


def distinct_choices(choices: Sequence[Choice]) -> list[Choice]:
    """One choice per distinct text as a person reads it (card ids left out): choices that read the
    same do the same, as in the browser (``SeatNames.choices``)."""
    return list(first_per_reading(choices, lambda choice: without_card_ids(choice.text)).values())


class HandOver(ModalScreen[None]):
    """Covers the table between two people's turns so nobody sees another's secrets."""

    BINDINGS = [Binding("enter", "ready", "Ready")]

    def __init__(self, seat: int, name: str) -> None:
        super().__init__()
        self.seat = seat
        self.seat_name = name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Pass the screen to seat {self.seat} ({self.seat_name}).")
            yield Label("Everyone else: look away. Press Enter when ready.")
            yield Button("Ready", id="ready", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)

    def action_ready(self) -> None:
        self.dismiss(None)


class PlayApp(App[None]):
    """A game at the table: the board as the viewer may see it, the legal actions, a log."""

    CSS = CSS
    TITLE = "ShadowTable"
    BINDINGS = [
        Binding("q", "quit_game", "Quit (saves)"),
        Binding("s", "save", "Save"),
        Binding("r", "toggle_help", "Rules"),
        Binding("slash", "focus_notation", "Type action"),
        Binding("u", "undo", "Undo"),
    ]

    def run(self, *args: Any, **kwargs: Any) -> None:
        """Run the app in this terminal; refused (:class:`NoTerminal`) where there is none.  While
        it runs, a SIGTERM or SIGHUP (the terminal window closed) saves the game and ends it
        (:meth:`stopped`)."""
        need_terminal("shadowtable play", kwargs)
        main = threading.current_thread() is threading.main_thread()
        previous = {number: signal.signal(number, self.stopped) for number in STOP_SIGNALS} if main else {}
        try:
            super().run(*args, **kwargs)
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)

    def stopped(self, number: int, _frame: object = None) -> None:
        """The process was told to stop (``number``, a signal): save the game as ``q`` does, say
        where, and end the app."""
        why = f"Stopped by {signal.Signals(number).name}"
        if self.nothing_to_save:
            self.exit_report = f"{why}; the game was over, nothing to save."
        else:
            path, problem = self._save_somewhere()
            self.exit_report = (
                f"{why}. Game saved to {path}\nResume it with: {resume_command(path)}"
                if path is not None
                else f"{why}. The game could not be saved: {problem}"
            )
        try:  # the handler runs between two steps of the app's loop, which may be waiting: wake it
            asyncio.get_running_loop().call_soon_threadsafe(self.exit)
        except RuntimeError:  # no loop running (the app had not started, or has ended)
            self.exit()

    def __init__(
        self,
        table: Table,
        *,
        save_path: Path | None = None,
        resumed_from: Path | None = None,
        save_folder: Path | None = None,
        hotseat: bool = False,
        watch_delay: float | None = None,
        spectator_seat: int | None = None,
    ) -> None:
        """``save_path``: where to save; ``None``: a new file in ``save_folder`` (default: the saves
        folder, see :mod:`shadowtable.saves`). An existing file is only ever replaced when it is
        ``resumed_from``, the save this game was loaded from.
        """
        super().__init__()
        self.table = table
        self.save_path = save_path
        self.save_folder = save_folder
        self.started = datetime.now()
        self.saved_to: Path | None = resumed_from if save_path in (None, resumed_from) else None
        """The save file this game owns (written by it, or loaded from); ``None`` before the first save."""
        self.exit_report = ""
        """What to tell the player once the app has ended: where the game is saved, how to resume."""
        self.crashed = False
        self.quit_unsaved = False
        self.hotseat = hotseat
        self.watch_delay = watch_delay
        self.spectator_seat = spectator_seat
        self.shown_seat: int | None = None
        self.handing_over = False
        self.reference = table.game.words.reference()
        self.open_group: str | None = None
        """The group of choices opened (its label), or ``None``: the top-level list."""

    # -- layout ---------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with VerticalScroll(id="board"):
                yield Static(id="board-text")
            with Vertical(id="side"):
                yield Static(id="status")
                yield OptionList(id="actions")
                yield Input(placeholder="type an action, Enter to play", id="notation")
                yield Static(id="message")
                yield Static(id="detail")
                with VerticalScroll(id="help"):
                    yield Static(id="help-text")
        with Horizontal(id="bottom"):
            with VerticalScroll(id="recent"):
                yield Static(id="recent-text")
            with VerticalScroll(id="log"):
                yield Static(id="log-text")
        yield Footer()

    def on_mount(self) -> None:
        game = self.table.game
        self.sub_title = f"{game.spec.name}, {game.players} players"
        self.query_one("#recent", VerticalScroll).border_title = "While you waited"
        self.query_one("#log", VerticalScroll).border_title = "Game log (scroll back to the start)"
        self.query_one("#detail", Static).border_title = "About this choice"
        self.query_one("#help", VerticalScroll).border_title = "Rules (r)"
        if self.watch_delay is not None:
            self.set_interval(max(self.watch_delay, 0.01), self._watch_tick)
        self.advance()

    # -- flow -----------------------------------------------------------------------------------
    def advance(self) -> None:
        """Let bots and chance move until a person decides or the game ends, then redraw."""
        if self.watch_delay is None:
            self.table.run_automatic()
        self.refresh_view()

    def _watch_tick(self) -> None:
        if self.table.step_automatic():
            self.refresh_view()

    def viewer(self) -> int | None:
        if self.watch_delay is not None:
            return self.spectator_seat
        return self.table.viewer()

    def refresh_view(self) -> None:
        seat = self.viewer()
        if self.hotseat and seat is not None and seat != self.shown_seat and not self.table.session.is_over():
            self._hand_over(seat)
            return
        self.shown_seat = seat
        self._draw(seat)

    def _hand_over(self, seat: int) -> None:
        self.handing_over = True
        self._draw_blank()
        name = self.table.session.seat_names[seat]

        def done(_: None) -> None:
            self.handing_over = False
            self.shown_seat = seat
            self._draw(seat)

        self.push_screen(HandOver(seat, name), done)

    def _draw_blank(self) -> None:
        self.query_one("#board-text", Static).update("")
        self.query_one("#actions", OptionList).clear_options()
        self.query_one("#log-text", Static).update("")
        self.query_one("#recent-text", Static).update("")
        self.query_one("#detail", Static).update("")
        self.query_one("#help-text", Static).update("")
        self.query_one("#status", Static).update("hand-over")

    def _draw(self, seat: int | None) -> None:
        table, game = self.table, self.table.game
        observation = table.observation(seat)
        self.query_one("#board-text", Static).update(board(game, observation))
        self.query_one("#status", Static).update(Text(self._status_line(seat)))
        self._fill_choices()
        rules = game.words.rules_help(observation) or "No rule text for this moment."
        goal = how_to_win(self.reference, table.typed(observation))
        self.query_one("#help-text", Static).update(Text(f"{rules}\n\n{goal}" if goal else rules))
        self.query_one("#help", VerticalScroll).scroll_home(animate=False)
        self.query_one("#recent-text", Static).update(Text(self._recent_text(seat)))
        self.query_one("#log-text", Static).update(Text("\n".join(table.log(seat))))
        for panel in ("#log", "#recent"):
            scroll = self.query_one(panel, VerticalScroll)
            scroll.call_after_refresh(scroll.scroll_end, animate=False)

    def _fill_choices(self) -> None:
        """The legal actions: every one when they are few; else one entry per group of actions
        that differ in a detail (open it to choose the detail), or the opened group's actions."""
        options = self.query_one("#actions", OptionList)
        options.clear_options()
        self.query_one("#detail", Static).update("")
        groups = self.table.choice_groups()
        shown = [distinct_choices(group.choices) for group in groups]
        total = sum(len(choices) for choices in shown)
        labels = [group.label for group in groups]
        if self.open_group not in labels:
            self.open_group = None
        entries: list[Option] = []
        for index, (group, choices) in enumerate(zip(groups, shown, strict=True)):
            if self.open_group is not None and group.label != self.open_group:
                continue
            if self.open_group is None and total > COLLAPSE_ABOVE and len(choices) > 1:
                entries.append(Option(Text(f"\u25b8 {group.label} ({len(choices)} choices)"), id=f"group:{index}"))
                continue
            entries.extend(Option(Text(without_card_ids(choice.text)), id=str(choice.action)) for choice in choices)
        if self.open_group is not None:
            entries.insert(0, Option(Text("\u25c2 back to all choices"), id="back"))
        options.add_options(entries)
        if options.option_count:
            options.highlighted = 0
            options.focus()

    def _recent_text(self, seat: int | None) -> str:
        """What happened since the viewer's last decision, then the latest fight's breakdown."""
        lines = [event.text for event in self.table.recent(seat)]
        fight = self.table.latest(seat, FIGHT_KINDS)
        if fight:
            lines += ["", "Latest fight:", *(event.text for event in fight)]
        return without_card_ids("\n".join(lines)) or "Nothing yet."

    def _status_line(self, seat: int | None) -> str:
        session = self.table.session
        who = "spectator" if seat is None else f"seat {seat} ({session.seat_names[seat]})"
        if session.is_over():
            return f"Game over. Viewing as {who}. {end_words(session.results(), session.seat_names, seat)}"
        player = session.current_player
        turn = "your decision" if player == seat and player in self.table.humans else "waiting"
        return f"Viewing as {who}; step {len(session.actions)}; {turn}."

    # -- input ----------------------------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        chosen = event.option.id
        if chosen is None:
            return
        if chosen == "back" or chosen.startswith("group:"):
            groups = self.table.choice_groups()
            index = int(chosen.split(":")[1]) if chosen != "back" else -1
            self.open_group = groups[index].label if 0 <= index < len(groups) else None
            self._fill_choices()
            return
        self.open_group = None
        self._play(lambda: self.table.play(int(chosen)))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Say what the highlighted choice names (card texts, costs) and what would follow it."""
        chosen = event.option.id
        detail = self.query_one("#detail", Static)
        if chosen is None or not chosen.isdigit() or not self.table.session.awaits_outside_decision():
            detail.update("")
            return
        state = self.table.session.state
        try:
            text = action_details(self.table.game, self.reference, state, int(chosen))
        except ShadowTableError:
            text = ""
        detail.update(Text(without_card_ids(text)))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Play the typed action; then, whatever happened, the single-key commands work again."""
        text = event.value
        event.input.value = ""
        if text.strip().lower() == "undo":
            self.action_undo()
        elif text.strip():
            self._play(lambda: self.table.play_text(text))
        self._focus_actions()

    def _focus_actions(self) -> None:
        """Give the keyboard back to the list of legal actions (the action box is only for ``/``)."""
        if not self.handing_over:
            self.query_one("#actions", OptionList).focus()

    def _play(self, move: Callable[[], object]) -> None:
        message = self.query_one("#message", Static)
        if self.handing_over or not self.table.session.awaits_outside_decision():
            message.update("Not your turn.")
            return
        try:
            move()
        except ShadowTableError as exc:
            message.update(Text(f"Not allowed: {exc}"))
            return
        message.update("")
        self.advance()

    # -- commands -------------------------------------------------------------------------------
    def action_undo(self) -> None:
        """Take back the last person's last decision, when it revealed nothing (``u``, or ``undo``)."""
        message = self.query_one("#message", Static)
        if self.handing_over:
            return
        try:
            seat = self.table.undo()
        except ShadowTableError as exc:
            message.update(Text(f"Not undone: {exc}"))
            return
        message.update(Text(f"Seat {seat} ({self.table.session.seat_names[seat]}) took back a move"))
        self.advance()

    def action_save(self) -> None:
        message = self.query_one("#message", Static)
        try:
            path = self.save_game()
        except (OSError, ShadowTableError) as exc:
            message.update(Text(f"Not saved: {exc}"))
            return
        message.update(Text(f"Saved to {path}. Resume with: {resume_command(path)}"))

    def save_game(self) -> Path:
        """Save the game and return the file: this game's own file, or a new one (never another's)."""
        record = self.table.session.record()
        if self.saved_to is not None:
            overwrite_save(self.saved_to, record)
            return self.saved_to
        if self.save_path is not None:
            try:
                create_save_at(self.save_path, record)
            except FileExistsError:
                pass  # someone else's file appeared there: leave it alone, save to a new file
            else:
                self.saved_to = self.save_path
                return self.saved_to
        self.saved_to = create_new_save(record, self.started, self.save_folder)
        return self.saved_to

    @property
    def nothing_to_save(self) -> bool:
        """The game is over and has no save file to bring up to date."""
        return self.table.session.is_over() and self.saved_to is None and self.save_path is None

    def action_quit_game(self) -> None:
        """Quit, saving first while the game is on (or when it has a save file to bring up to date)."""
        if self.nothing_to_save:
            self.exit_report = "Game over; nothing to save."
            self.exit()
            return
        path, problem = self._save_somewhere()
        if path is None and not self.quit_unsaved:
            self.quit_unsaved = True
            self.query_one("#message", Static).update(
                Text(f"Not saved, so not quitting: {problem}. Press q again to quit WITHOUT saving.")
            )
            return
        if path is None:
            self.exit_report = f"The game was NOT saved: {problem}"
        else:
            self.exit_report = f"Game saved to {path}\nResume it with: {resume_command(path)}"
        self.exit()

    async def action_quit(self) -> None:
        """Textual's own quit (Ctrl+Q) saves like ``q``."""
        self.action_quit_game()

    def _handle_exception(self, error: Exception) -> None:
        """Textual calls this with any exception a handler lets escape; the app then ends.

        Save the game first, so an unexpected error never loses it, and say how to resume.
        """
        if not self.crashed:
            self.crashed = True
            self.exit_report = self.rescue(error)
        super()._handle_exception(error)

    def rescue(self, error: BaseException) -> str:
        """Save the game after an unexpected error; the report names the file and the resume command."""
        lines = [f"ShadowTable stopped on an unexpected error: {type(error).__name__}: {error}"[:500]]
        path, problem = self._save_somewhere()
        if path is None:
            return "\n".join([*lines, f"The game could not be saved: {problem}"])
        lines += [
            f"Your game is saved in {path}",
            f"Resume it with: {resume_command(path)}",
            "Please report the error (the traceback above) so it can be fixed.",
        ]
        return "\n".join(lines)

    def _save_somewhere(self) -> tuple[Path | None, str]:
        """Save as usual, else to a new file in the temporary folder; the file, or why neither worked."""
        try:
            return self.save_game(), ""
        except Exception as first:  # the usual place failed (or saving itself is what broke)
            try:
                return create_new_save(self._bare_record(), self.started, Path(tempfile.gettempdir())), ""
            except Exception as second:
                return None, f"{first}; {second}"

    def _bare_record(self) -> GameRecord:
        """The record without the game's summary (which runs game code that may be what broke)."""
        session = self.table.session
        game = session.game
        return GameRecord(
            game=game.spec.id,
            version=game.spec.version,
            players=game.players,
            options=dict(game.options),
            seats=list(session.seat_names),
            actions=list(session.actions),
            seed=session.seed,
            truncated=True,
        )

    def action_toggle_help(self) -> None:
        self.query_one("#help", VerticalScroll).toggle_class("shown")

    def action_focus_notation(self) -> None:
        self.query_one("#notation", Input).focus()


def end_words(results: Sequence[SeatResult], names: Sequence[str], seat: int | None) -> str:
    """How the game ended for ``seat`` (who won, for a spectator), then every seat's result."""
    mine = next((r for r in results if r.seat == seat), None)
    winners = [names[r.seat] for r in results if r.result == "won"]
    head = f"{HEADLINE[mine.result]}: {mine.why}." if mine else f"Won: {', '.join(winners) or 'nobody'}."
    lines = "; ".join(f"{names[r.seat]} (seat {r.seat}) {r.result}" for r in results)
    return f"{head} Results: {lines}."
