"""The Shadow Planet's adapters, imported only when used."""

from shadowtable.core.manifest import Manifest

MANIFEST = Manifest(
    heuristic_bot="shadowtable.bots.heuristic_shadow_planet:ShadowPlanetHeuristicBot",
    encoder="shadowtable.rl.encoders_shadow_planet:ShadowPlanetEncoder",
    terminal_board="shadowtable.tui.boards.shadow_planet:shadow_planet_board",
    web_board="shadowtable.web.boards.shadow_planet:render_board",
    gym_id="shadowtable/ShadowPlanet-v0",
    length_bound="shadowtable.games.shadow_planet.length:max_game_length",
)
