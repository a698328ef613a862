"""What the browser pages answer with: a rendered page, the error page, a redirect; and the route
classes that mark a route as a page (its errors are answered with the error page, not JSON)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from typing import Any

from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.routing import APIRoute
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

import shadowtable
from shadowtable.server.accounts import lab_open, signed_in
from shadowtable.web.templating import render

PRIVATE = {"Cache-Control": "no-store", "Referrer-Policy": "same-origin"}
"""Headers of a page holding a secret code (an invite, a password reset): kept out of caches and of
other sites' referrers (``same-origin``, not ``no-referrer``: under that a browser sends ``Origin:
null`` with the page's form, which the check against forged requests refuses)."""


def page(template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """``template`` rendered for the signed-in account (if any) of the request being served."""
    context.setdefault("account", signed_in.get())
    context.setdefault("lab_open", lab_open.get())
    return HTMLResponse(render(template, version=shadowtable.__version__, **context), status_code=status_code)


def error_page(status: int, message: str, headers: Mapping[str, str] | None = None) -> HTMLResponse:
    """The error page: ``error: <message>`` with ``status`` (and ``headers``, a retry hint)."""
    answer = page("error.html", status_code=status, message=message)
    answer.headers.update(headers or {})
    return answer


def see(url: str) -> RedirectResponse:
    """A redirect after a form: the browser gets ``url`` next."""
    return RedirectResponse(url, status_code=303)


class PageRoute(APIRoute):
    """A browser page: a refusal is answered with the error page (see
    :func:`shadowtable.server.failures.answer_error`)."""

    headers: Mapping[str, str] = {}
    """Headers every answer of the route carries, the error page included."""


class PrivatePageRoute(PageRoute):
    """A page holding a secret code: every answer, the error page included, carries :data:`PRIVATE`."""

    headers = PRIVATE

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def private(request: Request) -> Response:
            answer = await handler(request)
            answer.headers.update(self.headers)
            return answer

        return private


def page_route(connection: HTTPConnection) -> PageRoute | None:
    """The page route serving ``connection``, or ``None`` (an API route, or no route matched)."""
    route = connection.scope.get("route")
    return route if isinstance(route, PageRoute) else None
