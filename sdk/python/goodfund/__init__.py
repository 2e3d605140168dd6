"""Goodfund's Python client: ``Goodfund`` (blocking) and ``AsyncGoodfund`` (asyncio) over httpx,
with one method per API operation, idempotent retries, paged-list iterators, and
``verify_webhook`` for outbound webhook deliveries."""

from . import models
from ._client import AsyncGoodfund, Goodfund
from ._errors import ApiConnectionError, ApiError, GoodfundError, WebhookVerificationError
from ._pagination import apaginate, paginate
from ._retry import RetryOptions
from ._version import __version__
from .webhooks import WebhookEvent, verify_webhook

__all__ = [
    "ApiConnectionError",
    "ApiError",
    "AsyncGoodfund",
    "Goodfund",
    "GoodfundError",
    "RetryOptions",
    "WebhookEvent",
    "WebhookVerificationError",
    "__version__",
    "apaginate",
    "models",
    "paginate",
    "verify_webhook",
]
