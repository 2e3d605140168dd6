"""When a request is tried again, and how long to wait first: the TypeScript SDK's rules."""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Callable

import httpx


@dataclass(frozen=True)
class RetryOptions:
    """How requests that failed for a passing reason are tried again.

    ``max_attempts``: attempts in all, the first included (1 never retries). ``base_delay``: the
    wait before the first retry in seconds; it doubles each time, up to ``max_delay`` (jitter
    included). ``max_retry_after``: a ``Retry-After`` longer than this is not waited for; the
    answer is returned (raised) as it is.
    """

    max_attempts: int = 3
    base_delay: float = 0.5
    max_delay: float = 10.0
    max_retry_after: float = 60.0


# "Not now": rate-limited, a proxy's failed upstream, or the server shedding load / its database away.
RETRY_STATUSES = frozenset({429, 502, 503})
# Methods that may be sent twice without doing anything twice.
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
# The API's answer to a repeat of a POST whose first run has not finished (its answer was lost).
IN_PROGRESS = "A request with this idempotency key is in progress"
# No answer arrived: the request may or may not have reached the server.
_SECONDS = re.compile(r"\d+(\.\d+)?")
NETWORK_ERRORS: tuple[type[Exception], ...] = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)


def safe_to_resend(request: httpx.Request) -> bool:
    """Whether ``request`` may be sent again when the server may have acted on it (a network
    error, a 502): idempotent methods, and POSTs carrying an ``Idempotency-Key`` (the server
    answers a repeat with the first answer). A PATCH is retried only after a 429 or 503, which
    the server answers without having changed anything."""
    return request.method in IDEMPOTENT_METHODS or "idempotency-key" in request.headers


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """``Retry-After`` in seconds (given as seconds or an HTTP date), or None when absent or unreadable."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    if _SECONDS.fullmatch(value):
        return float(value)
    try:
        at: float = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, at - (time.time() if now is None else now))


def backoff(retry: int, base_delay: float, max_delay: float, rand: Callable[[], float] = random.random) -> float:
    """Exponential backoff with jitter: between half and all of ``base_delay * 2**(retry - 1)``, capped at ``max_delay``."""
    ceiling = min(max_delay, base_delay * 2.0 ** (retry - 1))
    return ceiling / 2 + rand() * (ceiling / 2)


def _still_in_progress(request: httpx.Request, response: httpx.Response) -> bool:
    """A 409 saying the same Idempotency-Key is still running: worth asking again shortly for the answer."""
    if response.status_code != 409 or "idempotency-key" not in request.headers:
        return False
    try:
        body = response.json()
    except ValueError:
        return False
    return isinstance(body, dict) and body.get("error") == IN_PROGRESS


def delay_after_response(request: httpx.Request, response: httpx.Response, attempt: int, options: RetryOptions) -> float | None:
    """Seconds to wait before sending ``request`` again after ``response`` (a read one), or None
    when ``response`` is the answer."""
    if attempt >= options.max_attempts:
        return None
    if response.status_code not in RETRY_STATUSES and not _still_in_progress(request, response):
        return None
    if response.status_code == 502 and not safe_to_resend(request):
        return None
    told = retry_after_seconds(response.headers.get("retry-after"))
    if told is not None:
        return None if told > options.max_retry_after else told
    return backoff(attempt, options.base_delay, options.max_delay)


def delay_after_error(request: httpx.Request, attempt: int, options: RetryOptions) -> float | None:
    """Seconds to wait before sending ``request`` again after a network error, or None to give up."""
    if attempt >= options.max_attempts or not safe_to_resend(request):
        return None
    return backoff(attempt, options.base_delay, options.max_delay)
