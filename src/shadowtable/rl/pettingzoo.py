"""``shadowtable.rl.pettingzoo.env("shadow-planet", players=4)``: the PettingZoo environments.

``env`` and ``raw_env`` are the agent-environment-cycle (AEC) environments
(:mod:`shadowtable.rl.pettingzoo_env`); ``parallel_env`` is the parallel one, where seats that
the rules have choose together act in one step (:mod:`shadowtable.rl.pettingzoo_parallel`).
"""

from shadowtable.rl.pettingzoo_env import ShadowTableAEC, env, raw_env
from shadowtable.rl.pettingzoo_parallel import ShadowTableParallel, parallel_env

__all__ = ["ShadowTableAEC", "ShadowTableParallel", "env", "parallel_env", "raw_env"]
