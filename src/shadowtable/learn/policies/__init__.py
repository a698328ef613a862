"""Policies trained by ``shadowtable train`` that ship with the package.

Each is ``<configuration>.npz`` (``shadow-planet-4p.npz``, ``shadowlord-2p-modified.npz``): NumPy
weights, played without PyTorch (:mod:`shadowtable.learn.portable`).
"""
