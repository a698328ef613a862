"""Reinforcement-learning adapters (the ``[rl]`` extra): encoders, PettingZoo, Gymnasium, OpenSpiel."""
