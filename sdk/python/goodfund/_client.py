"""The clients: authentication, idempotent retries and error answers around every operation."""

from __future__ import annotations

import asyncio
import json as jsonlib
import time
import uuid
from types import TracebackType
from typing import Any, Mapping

import httpx

from ._errors import ApiConnectionError, ApiError
from ._operations import AsyncOperations, Operations
from ._retry import NETWORK_ERRORS, RetryOptions, delay_after_error, delay_after_response
from ._version import __version__

DEFAULT_TIMEOUT = 30.0


class _Settings:
    """What both clients share: where the API is, the headers of every request, the retry rules."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        token: str | None,
        retries: RetryOptions | None,
        headers: Mapping[str, str] | None,
    ) -> None:
        if api_key is not None and token is not None:
            raise ValueError("Give api_key or token, not both: the API takes one Bearer credential.")
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must be an http(s) URL such as https://give.example.org, not {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.retries = retries or RetryOptions()
        self.headers: dict[str, str] = {"Accept": "application/json", "User-Agent": f"goodfund-python/{__version__}"}
        credential = api_key if api_key is not None else token
        if credential:
            self.headers["Authorization"] = f"Bearer {credential}"
        self.headers.update(headers or {})

    def build(
        self,
        http: httpx.Client | httpx.AsyncClient,
        method: str,
        path: str,
        json: Any,
        params: Mapping[str, Any] | None,
        headers: Mapping[str, str | None] | None,
    ) -> httpx.Request:
        """The request, built once: every attempt sends this same one, so the same Idempotency-Key and body."""
        method = method.upper()
        merged = httpx.Headers(self.headers)
        for name, value in (headers or {}).items():
            if value is not None:
                merged[name] = value
        # A random key unless the caller set one (to carry it across processes); kept across retries.
        if method == "POST" and "idempotency-key" not in merged:
            merged["Idempotency-Key"] = str(uuid.uuid4())
        content = None
        if json is not None:
            content = jsonlib.dumps(json, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            merged["Content-Type"] = "application/json"
        query = {name: value for name, value in (params or {}).items() if value is not None}
        url = path if path.startswith(("http://", "https://")) else f"{self.base_url}/{path.lstrip('/')}"
        return http.build_request(method, url, params=query, headers=merged, content=content)


def _answer(response: httpx.Response) -> Any:
    """The decoded body of a success (JSON, text for ``text/*`` such as CSV, bytes otherwise; None
    when empty), or ApiError for an error status."""
    content_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
    if response.status_code >= 400:
        try:
            body: Any = response.json()
        except ValueError:
            body = response.text
        raise ApiError(response, body)
    if response.status_code == 204 or not response.content:
        return None
    if content_type == "application/json" or content_type.endswith("+json"):
        return response.json()
    if content_type.startswith("text/"):
        return response.text
    return response.content


def _connection_error(request: httpx.Request, err: Exception) -> ApiConnectionError:
    return ApiConnectionError(f"{request.method} {request.url.path}: no answer ({type(err).__name__}: {err})")


class Goodfund(Operations):
    """A client of the Goodfund API.

    ``Goodfund("https://give.example.org", api_key="gf_live_...")`` or ``token=`` for a session
    token (both are sent as ``Authorization: Bearer``; neither for public calls such as
    ``create_donation``). Every operation of the API is a method named after its operationId
    (``list_campaigns``, ``create_donation``...), and ``iter_...`` methods walk paged lists.

    Every POST carries an ``Idempotency-Key`` (a random UUID unless the call passes
    ``idempotency_key=``), the same on each retry of that call. Network errors and 429, 502 and
    503 answers are retried (``retries``), waiting ``Retry-After`` when the server gives it.
    Error answers raise ``ApiError``; no answer at all raises ``ApiConnectionError``.

    ``http_client`` replaces the ``httpx.Client`` the requests go through (proxies, certificates,
    cookies, a transport of your own); the client then leaves closing it to you.
    """

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        token: str | None = None,
        retries: RetryOptions | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.Client | None = None,
    ) -> None:
        self._settings = _Settings(base_url, api_key, token, retries, headers)
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.Client(timeout=timeout)

    @property
    def base_url(self) -> str:
        return self._settings.base_url

    def request(
        self,
        method: str,
        path: str,
        json: Any = None,
        params: dict[str, Any] | None = None,
        *,
        headers: dict[str, str | None] | None = None,
    ) -> Any:
        """Sends ``method path`` (``"/api/orgs"``) with an optional JSON body and query (None
        values are left out) and answers the decoded body, retrying as the class says."""
        request = self._settings.build(self._http, method, path, json, params, headers)
        attempt = 0
        while True:
            attempt += 1
            try:
                response = self._http.send(request)
            except NETWORK_ERRORS as err:
                wait = delay_after_error(request, attempt, self._settings.retries)
                if wait is None:
                    raise _connection_error(request, err) from err
                time.sleep(wait)
                continue
            except httpx.TransportError as err:
                raise _connection_error(request, err) from err
            wait = delay_after_response(request, response, attempt, self._settings.retries)
            if wait is None:
                return _answer(response)
            time.sleep(wait)

    def close(self) -> None:
        """Closes the connections (not those of an ``http_client`` you passed)."""
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> Goodfund:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


class AsyncGoodfund(AsyncOperations):
    """``Goodfund`` for asyncio: the same methods, awaited (``await client.list_campaigns("demo")``),
    and ``iter_...`` methods for ``async for``. ``http_client`` is an ``httpx.AsyncClient``."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        token: str | None = None,
        retries: RetryOptions | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self._settings = _Settings(base_url, api_key, token, retries, headers)
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.AsyncClient(timeout=timeout)

    @property
    def base_url(self) -> str:
        return self._settings.base_url

    async def request(
        self,
        method: str,
        path: str,
        json: Any = None,
        params: dict[str, Any] | None = None,
        *,
        headers: dict[str, str | None] | None = None,
    ) -> Any:
        """``Goodfund.request``, awaited."""
        request = self._settings.build(self._http, method, path, json, params, headers)
        attempt = 0
        while True:
            attempt += 1
            try:
                response = await self._http.send(request)
            except NETWORK_ERRORS as err:
                wait = delay_after_error(request, attempt, self._settings.retries)
                if wait is None:
                    raise _connection_error(request, err) from err
                await asyncio.sleep(wait)
                continue
            except httpx.TransportError as err:
                raise _connection_error(request, err) from err
            wait = delay_after_response(request, response, attempt, self._settings.retries)
            if wait is None:
                return _answer(response)
            await asyncio.sleep(wait)

    async def aclose(self) -> None:
        """Closes the connections (not those of an ``http_client`` you passed)."""
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncGoodfund:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.aclose()
