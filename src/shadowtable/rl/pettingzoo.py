"""``shadowtable.rl.pettingzoo.env("shadow-planet", players=4)``: the PettingZoo AEC environments.

The implementation lives in :mod:`shadowtable.rl.pettingzoo_env`; this module is the short name.
"""

from shadowtable.rl.pettingzoo_env import ShadowTableAEC, env, raw_env

__all__ = ["ShadowTableAEC", "env", "raw_env"]
