"""The HTTP surface's protections: a strict Origin check on state-changing requests (against
cross-site request forgery, log-in forgery included), security headers on every response, and the
``Secure`` flag on cookies served over TLS.

A state-changing request (``POST``, ``PUT``, ``PATCH``, ``DELETE``) is refused with 403 when its
``Origin`` (or, without one, its ``Referer``) is neither the server's own origin nor one of
``allowed_origins``, and when it carries cookies but neither header nor ``Authorization``.  A request
with neither header and no cookie (``curl``), or with a Bearer token, cannot be forged by another
site's page and passes.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SECURE_COOKIES = ("auto", "always", "never")
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}
"""Added to every response that does not set its own."""
FOREIGN = "this request comes from another site's page: refused (cross-site request forgery)"
UNSOURCED = "this request carries cookies but neither Origin nor Referer: refused (cross-site request forgery)"


def add_security_headers(headers: MutableHeaders) -> None:
    """Add each of :data:`HEADERS` that ``headers`` does not set already."""
    for name, value in HEADERS.items():
        if name not in headers:
            headers[name] = value


def with_security_headers(response: Response) -> Response:
    """``response``, with the security headers it does not set itself (for answers sent outside
    :class:`SecurityMiddleware`: the outermost 500)."""
    add_security_headers(response.headers)
    return response


def request_origin(headers: Headers) -> str | None:
    """The origin a request says it comes from: ``Origin``, else the origin of ``Referer``
    (``"null"`` for one that has none); ``None`` when neither header is sent."""
    origin = headers.get("origin")
    if origin is not None:
        return origin.strip().rstrip("/")
    referer = headers.get("referer")
    if referer is None:
        return None
    parts = urlsplit(referer.strip())
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else "null"


def over_tls(scope: Scope) -> bool:
    """Whether the browser reached the server over TLS (itself, or a proxy that says so)."""
    if scope.get("scheme") in {"https", "wss"}:
        return True
    proto = Headers(scope=scope).get("x-forwarded-proto", "")
    return proto.split(",")[0].strip().lower() == "https"


def same_origin(origin: str, scope: Scope) -> bool:
    """Whether ``origin`` is the server's own: the request's ``Host``, over the request's scheme
    (or https, when a TLS proxy is in front)."""
    parts = urlsplit(origin)
    host = Headers(scope=scope).get("host", "")
    own = "https" if over_tls(scope) else "http"
    return bool(host) and parts.netloc == host and parts.scheme in {own, "https"}


def forgery(scope: Scope, allowed_origins: list[str]) -> str | None:
    """Why a state-changing request must be refused, or ``None`` when it may go on."""
    if scope["method"] not in UNSAFE_METHODS:
        return None
    headers = Headers(scope=scope)
    origin = request_origin(headers)
    if origin is None:
        # a page of another site cannot send Authorization (that needs CORS, which is not offered)
        return UNSOURCED if "cookie" in headers and "authorization" not in headers else None
    if origin in allowed_origins or same_origin(origin, scope):
        return None
    return FOREIGN


def secure_cookies(setting: str, scope: Scope) -> bool:
    """Whether the cookies of this response get ``Secure`` (``auto``: when served over TLS)."""
    return setting == "always" or (setting == "auto" and over_tls(scope))


def wants_html(scope: Scope) -> bool:
    """A browser form (not a JSON client): it gets the error page rather than ``{"error": ...}``."""
    headers = Headers(scope=scope)
    kind = headers.get("content-type", "").split(";")[0].strip().lower()
    return kind in {"application/x-www-form-urlencoded", "multipart/form-data"} or (
        not scope["path"].startswith("/api/") and "text/html" in headers.get("accept", "")
    )


class SecurityMiddleware:
    """Refuses forged requests; adds the security headers and, over TLS, ``Secure`` to cookies."""

    def __init__(
        self,
        app: ASGIApp,
        allowed_origins: list[str],
        cookie_setting: str = "auto",
        html_refusal: Callable[[str], Response] | None = None,
    ) -> None:
        self.app = app
        self.allowed_origins = allowed_origins
        self.cookie_setting = cookie_setting
        self.html_refusal = html_refusal

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        secure = secure_cookies(self.cookie_setting, scope)

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                add_security_headers(headers)
                if secure:
                    cookies = headers.getlist("set-cookie")
                    del headers["set-cookie"]
                    for cookie in cookies:
                        has = "secure" in (part.strip().lower() for part in cookie.split(";"))
                        headers.append("set-cookie", cookie if has else cookie + "; Secure")
            await send(message)

        why = forgery(scope, self.allowed_origins)
        if why is None:
            await self.app(scope, receive, send_secured)
            return
        if self.html_refusal is not None and wants_html(scope):
            response = self.html_refusal(why)
        else:
            response = JSONResponse({"error": why}, status_code=403)
        await response(scope, receive, send_secured)
