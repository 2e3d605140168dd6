"""What the client raises."""

from __future__ import annotations

from typing import Any

import httpx


class GoodfundError(Exception):
    """Base class of everything this package raises."""


class ApiError(GoodfundError):
    """The API answered an error status (after any retries): its ``{ error, status, details? }``.

    ``status`` is the HTTP status, ``error`` the API's message (``"Validation failed"``,
    ``"Campaign not found"``...), ``details`` what the API adds (for validation errors
    ``{"fieldErrors": {field: [message, ...]}, "formErrors": [...], "codes": {...}}``) or None.
    ``body`` is the decoded answer as it came, ``request_id`` its ``X-Request-Id`` (quote it when
    asking about a failure).
    """

    status: int
    error: str
    details: Any
    body: Any
    request_id: str | None
    headers: httpx.Headers

    def __init__(self, response: httpx.Response, body: Any) -> None:
        self.status = response.status_code
        self.body = body
        self.headers = response.headers
        self.request_id = response.headers.get("x-request-id")
        if isinstance(body, dict) and isinstance(body.get("error"), str):
            self.error = body["error"]
            self.details = body.get("details")
        else:
            self.error = response.reason_phrase or f"HTTP {response.status_code}"
            self.details = None
        super().__init__(f"{self.error} (HTTP {self.status})")

    @property
    def field_errors(self) -> dict[str, list[str]]:
        """A validation error's messages per field (dotted names for nested fields); empty otherwise."""
        fields: dict[str, list[str]] = {}
        if isinstance(self.details, dict) and isinstance(self.details.get("fieldErrors"), dict):
            fields = self.details["fieldErrors"]
        return fields


class ApiConnectionError(GoodfundError):
    """No answer arrived (connection refused or reset, timeout), after any retries.

    The underlying ``httpx`` error is the ``__cause__``.
    """


class WebhookVerificationError(GoodfundError):
    """A webhook delivery is not proven to come from Goodfund: a header is missing, the
    timestamp is outside the tolerance, or no signature matches."""
