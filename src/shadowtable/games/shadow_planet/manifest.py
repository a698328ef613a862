"""The Shadow Planet's adapters, imported only when used."""

from shadowtable.core.manifest import Manifest

MANIFEST = Manifest(
    heuristic_bot="shadowtable.games.shadow_planet.heuristic:ShadowPlanetHeuristicBot",
    encoder="shadowtable.games.shadow_planet.encoder:ShadowPlanetEncoder",
    terminal_board="shadowtable.games.shadow_planet.boards.terminal:shadow_planet_board",
    web_board="shadowtable.games.shadow_planet.boards.web:render_board",
    gym_id="shadowtable/ShadowPlanet-v0",
    length_bound="shadowtable.games.shadow_planet.length:max_game_length",
    view="shadowtable.games.shadow_planet.view:PlanetObservation",
    tutorial="shadowtable.games.shadow_planet.tutorial:LESSON",
    option_words="shadowtable.games.shadow_planet.option_words:OPTION_WORDS",
    rules_extras="shadowtable.games.shadow_planet.boards.rules:EXTRAS",
    deduction="shadowtable.games.shadow_planet.deduction:DEDUCTION",
    action_kinds="shadowtable.games.shadow_planet.kinds:ACTION_KINDS",
    end_reasons="shadowtable.games.shadow_planet.summary:END_REASON_WORDS",
    content_parts="shadowtable.games.shadow_planet.reference:CONTENT_PARTS_BY_CLAUSE",
)
