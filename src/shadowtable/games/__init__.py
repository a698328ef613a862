"""The built-in games, registered lazily so that importing one never imports the other."""

from shadowtable.core.registry import register_builtin

BUILTIN_GAMES: dict[str, str] = {
    "shadow-planet": "shadowtable.games.shadow_planet.game:ShadowPlanetGame",
    "shadowlord": "shadowtable.games.shadowlord.game:ShadowlordGame",
}

for _game_id, _target in BUILTIN_GAMES.items():
    register_builtin(_game_id, _target)
