"""Learning agents: self-play PPO (``shadowtable train``) and the ``policy`` bot (the ``[train]`` extra)."""
