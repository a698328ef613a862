"""Shadowlord!'s adapters, imported only when used."""

from shadowtable.core.manifest import Manifest

MANIFEST = Manifest(
    heuristic_bot="shadowtable.games.shadowlord.heuristic:ShadowlordHeuristicBot",
    encoder="shadowtable.games.shadowlord.encoder:ShadowlordEncoder",
    terminal_board="shadowtable.games.shadowlord.boards.terminal:shadowlord_board",
    web_board="shadowtable.games.shadowlord.boards.web:render_board",
    evaluations={"heuristic": "shadowtable.games.shadowlord.evaluation:material"},
    gym_id="shadowtable/Shadowlord-v0",
    length_bound="shadowtable.games.shadowlord.length:max_game_length",
    view="shadowtable.games.shadowlord.view:LordObservation",
    tutorial="shadowtable.games.shadowlord.tutorial:LESSON",
    option_words="shadowtable.games.shadowlord.option_words:OPTION_WORDS",
    rules_extras="shadowtable.games.shadowlord.boards.rules:EXTRAS",
    deduction="shadowtable.games.shadowlord.deduction:DEDUCTION",
    action_kinds="shadowtable.games.shadowlord.kinds:ACTION_KINDS",
    end_reasons="shadowtable.games.shadowlord.summary:END_REASON_WORDS",
    content_parts="shadowtable.games.shadowlord.reference:CONTENT_PARTS_BY_CLAUSE",
    search_settings=":max_rollout_steps=60:evaluate=heuristic:width=4",
    analysis_settings={"horizon": 60, "most_choices": 4},
)
