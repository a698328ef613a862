"""The interactive API documentation (``--api-docs``): Swagger UI served from this server.

Its scripts and stylesheet come from the ``swagger-ui-py`` package, never from a CDN; the page
starts it from a static script (the pages' Content-Security-Policy allows no inline script).
"""

from __future__ import annotations

from importlib import resources

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = "/docs-assets"
PAGE = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ShadowTable API</title>
<link rel="stylesheet" href="{ASSETS}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{ASSETS}/swagger-ui-bundle.js"></script>
<script src="/static/api-docs.js"></script>
</body>
</html>
"""


class ApiDocsUnavailable(RuntimeError):
    """The Swagger UI assets are not installed (the ``swagger-ui-py`` package)."""


def swagger_assets() -> str:
    """The folder holding Swagger UI's ``swagger-ui-bundle.js`` and ``swagger-ui.css``."""
    try:
        folder = resources.files("swagger_ui").joinpath("static")
    except ModuleNotFoundError as exc:
        raise ApiDocsUnavailable("--api-docs needs the swagger-ui-py package (in the [web] extra)") from exc
    return str(folder)


def add_api_docs(app: FastAPI) -> None:
    """Serve Swagger UI at ``/docs`` for ``/openapi.json``."""
    app.mount(ASSETS, StaticFiles(directory=swagger_assets()), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(PAGE)
