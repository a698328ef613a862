"""The game server: tables, seats, bots and a durable action log over HTTP and WebSockets.

Needs the ``[web]`` extra.  :func:`shadowtable.server.app.create_app` builds the FastAPI
application; ``shadowtable serve`` runs it on uvicorn.  See ``docs/server.md``.
"""
