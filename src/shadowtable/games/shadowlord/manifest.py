"""Shadowlord!'s adapters, imported only when used."""

from shadowtable.core.manifest import Manifest

MANIFEST = Manifest(
    heuristic_bot="shadowtable.bots.heuristic_shadowlord:ShadowlordHeuristicBot",
    encoder="shadowtable.rl.encoders_shadowlord:ShadowlordEncoder",
    terminal_board="shadowtable.tui.boards.shadowlord:shadowlord_board",
    web_board="shadowtable.web.boards.shadowlord:render_board",
    evaluations={"heuristic": "shadowtable.bots.evaluation_shadowlord:material"},
    gym_id="shadowtable/Shadowlord-v0",
    length_bound="shadowtable.games.shadowlord.length:max_game_length",
)
