#!/usr/bin/env bash
# ISMCTS (1 s per decision) against the heuristic bot, one table row per configuration.
# Resumable: rerun the same line to continue; records and results go to docs/results/bots/.
#
#   scripts/bot_tournaments.sh CONFIG [WORKERS]
#
# CONFIG: sp3 sp4 sp5 (The Shadow Planet, 3-5 players), sl2 sl2m sl3 sl4 (Shadowlord!, 2 players,
# 2 players modified, 3 and 4 players).  WORKERS: parallel games (default 1).
# Line-ups: sp3 and sp4 alternate the two bots around the table; sp5, sl3 and sl4 seat one ISMCTS
# bot against heuristic bots in every other seat (cheaper per game: one searching seat).
set -euo pipefail
cd "$(dirname "$0")/.."

config="${1:?usage: scripts/bot_tournaments.sh CONFIG [WORKERS]}"
workers="${2:-1}"
sp_bot="ismcts:time=1:rollout=heuristic:prior=heuristic"
sl_bot="$sp_bot:max_rollout_steps=60:evaluate=heuristic"
case "$config" in
  sp3) args=(shadow-planet --players 3 --games 84 --bots "$sp_bot,heuristic") ; name=shadow-planet-3p ;;
  sp4) args=(shadow-planet --players 4 --games 40 --bots "$sp_bot,heuristic") ; name=shadow-planet-4p ;;
  sp5) args=(shadow-planet --players 5 --games 80 --bots "$sp_bot,heuristic*4") ; name=shadow-planet-5p ;;
  sl2) args=(shadowlord --players 2 --games 40 --bots "$sl_bot,heuristic") ; name=shadowlord-2p ;;
  sl2m) args=(shadowlord --players 2 --option modified=true --games 20 --bots "$sl_bot,heuristic") ; name=shadowlord-2p-modified ;;
  sl3) args=(shadowlord --players 3 --games 60 --bots "$sl_bot,heuristic*2") ; name=shadowlord-3p ;;
  sl4) args=(shadowlord --players 4 --games 32 --bots "$sl_bot,heuristic*3") ; name=shadowlord-4p ;;
  *) echo "unknown configuration '$config' (sp3 sp4 sp5 sl2 sl2m sl3 sl4)" >&2 ; exit 2 ;;
esac
out="docs/results/bots/$name-ismcts-vs-heuristic"
shadowtable tournament "${args[@]}" --seed 7 --workers "$workers" \
  --records "$out.jsonl" --out "$out.json" --resume
