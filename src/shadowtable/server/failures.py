"""The one answer to a refused or failed request: ``{"error": ...}`` for the API, the error page for
a browser page (a route of :class:`~shadowtable.web.responses.PageRoute`, or an unknown address
outside ``/api/`` that a browser asks for).

A :class:`~shadowtable.server.errors.ServiceError` answers with its status and headers (429 with
``Retry-After``), any other error of the core (:class:`~shadowtable.core.errors.ShadowTableError`)
with 400, the framework's own refusals (an unknown path, a body over the limit) with theirs.  An
unexpected exception is answered 500 by the outermost layer, outside every middleware: that answer
carries the security headers itself.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from shadowtable.core.errors import ShadowTableError
from shadowtable.server.errors import ServiceError
from shadowtable.server.security import with_security_headers
from shadowtable.web.responses import error_page, page_route

INTERNAL = "the server failed to answer this request"
"""The words of a 500 (what failed is logged, never shown)."""


def described(exc: Exception) -> tuple[int, str, Mapping[str, str]]:
    """The status, the words and the headers ``exc`` is answered with."""
    if isinstance(exc, ServiceError):
        return exc.status, str(exc), exc.headers()
    if isinstance(exc, ShadowTableError):
        return 400, str(exc), {}
    if isinstance(exc, HTTPException):
        return exc.status_code, str(exc.detail), exc.headers or {}
    return 500, INTERNAL, {}


async def answer_error(request: Request, exc: Exception) -> Response:
    """The answer to ``exc``: the error page on a page route, else ``{"error": ...}``; with the
    security headers (a 500 is sent past the middleware that adds them)."""
    status, message, headers = described(exc)
    route = page_route(request)
    if route is not None:
        answer: Response = error_page(status, message, {**headers, **route.headers})
    elif status == 404 and browsing(request):
        answer = error_page(status, NO_PAGE, headers)
    else:
        answer = JSONResponse({"error": message}, status_code=status, headers=dict(headers))
    return with_security_headers(answer)


NO_PAGE = "there is no page at this address (check the link, or start from the lobby)"
"""The words of a browser's unknown address."""


def browsing(request: Request) -> bool:
    """A browser asking for a page (it takes HTML) at an address outside the API: an unknown
    one is answered with the error page, not JSON."""
    return "text/html" in request.headers.get("accept", "") and not request.url.path.startswith("/api/")


HANDLED: tuple[type[Exception], ...] = (ShadowTableError, HTTPException, Exception)
"""What :func:`answer_error` is registered for (``Exception``: the outermost 500)."""
